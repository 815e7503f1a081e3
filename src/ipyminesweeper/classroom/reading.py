"""What the grader reads in a handed-in notebook's code, without running it: which cells are the course's,
which cell defines each exercise, whether it is the stub, and what it names that a teacher should know.

All of it works on the cells' text (:mod:`ast`), in the grader's own process, so nothing a notebook does
when it runs can change it:

- a cell is *given* when its text is one of the course's cells (whatever its id or metadata say), and
  then the course's own text runs;
- the cell that defines an exercise is the last one that binds its name at the top level
  (``def my_chord``, ``my_chord = ...``, an import ``as my_chord``...);
- that cell is the stub when its code is the stub's once comments, docstrings and the ``check_...(...)``
  lines are left out: deleting the ``# TODO`` does not make it an answer;
- :func:`named` finds the names a student's cells use (identifiers, attributes, imports, and strings
  given to ``getattr`` or a subscript), and :func:`system_uses` the ways to reach past plain code
  (frames, the garbage collector, ``exec``, ``globals()``, ``__code__``...) that an answer to these
  exercises never needs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "SYSTEM",
    "CellToRun",
    "binding_cell",
    "binds",
    "is_given",
    "named",
    "same_code",
    "system_uses",
    "text_of",
    "without_checks",
]

SYSTEM: dict[str, str] = {
    "__import__": "__import__",
    "importlib": "importlib",
    "eval": "eval()",
    "exec": "exec()",
    "compile": "compile()",
    "globals": "globals()",
    "locals": "locals()",
    "vars": "vars()",
    "dir": "dir()",
    "setattr": "setattr()",
    "__setattr__": "__setattr__",
    "delattr": "delattr()",
    "gc": "the garbage collector (gc)",
    "ctypes": "ctypes",
    "inspect": "inspect",
    "builtins": "builtins",
    "sys": "sys",
    "os": "os",
    "subprocess": "subprocess",
    "socket": "socket",
    "urllib": "urllib",
    "http": "http",
    "requests": "requests",
    "threading": "threading",
    "multiprocessing": "multiprocessing",
    "signal": "signal",
    "_getframe": "sys._getframe",
    "settrace": "sys.settrace",
    "setprofile": "sys.setprofile",
    "modules": "sys.modules",
    "__code__": "__code__",
    "__dict__": "__dict__",
    "__globals__": "__globals__",
    "__builtins__": "__builtins__",
    "__closure__": "__closure__",
    "__subclasses__": "__subclasses__",
    "__class__": "__class__",
    "__bases__": "__bases__",
    "__mro__": "__mro__",
    "f_back": "a frame's f_back",
    "f_locals": "a frame's f_locals",
    "f_globals": "a frame's f_globals",
    "tb_frame": "a traceback's frames",
}
"""Names that reach past plain code: what each is called in a flag's sentence."""


@dataclass(frozen=True)
class CellToRun:
    """A cell to run: its source as it runs, its number in the hand-in (from 1), and whether it is one
    of the course's own cells (then the course's text runs)."""

    source: str
    number: int
    given: bool = False


def text_of(source: str) -> str:
    """A cell's text, compared line by line: trailing spaces and blank lines around it left out."""
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def is_given(source: str, given: Iterable[str]) -> bool:
    """Whether ``source`` is one of the course's cells, by its text."""
    return text_of(source) in {text_of(g) for g in given}


def _parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _is_check_call(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id.startswith("check_")
    )


def without_checks(source: str) -> str:
    """``source`` without its top-level expression statements that call a ``check_...`` function (the
    grader runs the checks itself); as it is if it does not parse."""
    tree = _parsed(source)
    if tree is None:
        return source
    kept = [node for node in tree.body if not _is_check_call(node)]
    if len(kept) == len(tree.body):
        return source
    lines = source.splitlines(keepends=True)
    return "".join("".join(lines[node.lineno - 1 : node.end_lineno]) for node in kept)


def _targets(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    found = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, (ast.If, ast.Try, ast.For, ast.While, ast.With)):  # bound inside a block
        for inner in ast.iter_child_nodes(node):
            if isinstance(inner, ast.stmt):
                found += _targets(inner)
    return found


def binds(source: str, name: str) -> bool:
    """Whether ``source`` binds ``name`` at its top level (False if it does not parse)."""
    tree = _parsed(source)
    return tree is not None and any(name in _targets(node) for node in tree.body)


def binding_cell(steps: Sequence[CellToRun], name: str) -> CellToRun | None:
    """The last of ``steps`` that binds ``name`` at the top level, if one does."""
    return next((step for step in reversed(steps) if binds(step.source, name)), None)


class _Plain(ast.NodeTransformer):
    """Leaves out what does not change what code does: docstrings and top-level check calls."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
        return node


def _is_docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _plain_code(source: str) -> str | None:
    tree = _parsed(source)
    if tree is None:
        return None
    tree.body = [node for node in tree.body if not _is_check_call(node)]
    return ast.dump(_Plain().visit(tree), annotate_fields=False, include_attributes=False)


def same_code(a: str, b: str) -> bool:
    """Whether two cells are the same code, comments, docstrings and check calls aside (by text when
    either does not parse)."""
    first, second = _plain_code(a), _plain_code(b)
    if first is None or second is None:
        return text_of(a) == text_of(b)
    return first == second


def named(sources: Iterable[tuple[int, str]], wanted: Iterable[str]) -> dict[str, list[int]]:
    """Which of ``wanted`` the cells ``(number, source)`` name, and in which cells: as a name, an
    attribute, an import, or a string given to ``getattr`` or a subscript (``STRATEGIES["exact"]``)."""
    looked = set(wanted)
    found: dict[str, list[int]] = {}
    for number, source in sources:
        tree = _parsed(source)
        if tree is None:
            continue
        for name in _names(tree) & looked:
            found.setdefault(name, []).append(number)
    return found


def _names(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.update(node.name.split("."))
            if node.asname:
                out.add(node.asname)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.update(node.module.split("."))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            out.add(str(node.slice.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            out.update(str(a.value) for a in node.args[1:2] if isinstance(a, ast.Constant))
    return out


def _imported(trees: Iterable[ast.AST]) -> set[str]:
    """The names that import statements bind (the modules and what was taken from them)."""
    found = {"ipyminesweeper"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return found


def _patches(tree: ast.AST, imported: set[str]) -> list[str]:
    """``a.b`` for each assignment (or deletion) to an attribute of something imported: a patch of the
    library's code, or of a module's."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            root: ast.expr = target
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(target, ast.Attribute) and isinstance(root, ast.Name) and root.id in imported:
                found.append(
                    f"{root.id}.{target.attr}" if root is target.value else f"{root.id}...{target.attr}"
                )
    return found


def system_uses(sources: Iterable[tuple[int, str]], context: Iterable[str] = ()) -> dict[str, list[int]]:
    """The ways to reach past plain code that the cells use (see :data:`SYSTEM`), by what a flag calls
    them, and in which cells; a ``getattr`` whose name is not written out counts too, and so does an
    assignment to an attribute of something imported (``search.run_check = ...``: a patch), here or in
    the ``context`` cells (the course's)."""
    parsed = [(number, tree) for number, source in sources if (tree := _parsed(source)) is not None]
    imported = _imported([tree for _, tree in parsed] + [t for s in context if (t := _parsed(s)) is not None])
    found: dict[str, list[int]] = {}
    for number, tree in parsed:
        uses = {SYSTEM[name] for name in _names(tree) if name in SYSTEM}
        uses.update(f"a patch of {patched}" for patched in _patches(tree, imported))
        if any(
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and not (len(node.args) > 1 and isinstance(node.args[1], ast.Constant))
            for node in ast.walk(tree)
        ):
            uses.add("getattr() with a name that is not written out")
        for use in uses:
            found.setdefault(use, []).append(number)
    return found
