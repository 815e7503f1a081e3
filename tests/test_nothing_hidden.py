"""Nothing hidden (issue 57): values are what their fields say, and no call remembers the one before.

Read with ``ast`` from the source:

- the engine writes a value's attributes in one place only, the constructor helper of
  ``engine/pickling.py`` (``_written``): no ``vars()``, no ``__dict__``, no ``object.__setattr__`` (or
  ``setattr``) anywhere else. A board's status, counts and view are computed by named functions and
  handed to the helper when the rules make the next board;
- no module of the package keeps state that its functions change at run time (a cache of the last call,
  a counter, ...), but for the registries users extend and the memos keyed by what they were asked, each
  named below with its reason. The solver's memo of views is :class:`~ipyminesweeper.solver.memo.ViewMemo`.

``python tests/test_nothing_hidden.py PATH`` lists what it finds in another checkout (``PATH/src``).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WRITER = ("engine/pickling.py", "_written")
"""The one function of the engine that writes a value's attributes."""

MUTABLE = {"list", "dict", "set", "bytearray", "OrderedDict", "defaultdict", "deque", "Counter"}
MUTABLE |= {"WeakKeyDictionary", "WeakValueDictionary", "WeakSet", "ViewMemo"}
CHANGES = {"append", "extend", "insert", "update", "clear", "pop", "popitem", "setdefault", "add"}
CHANGES |= {"discard", "remove", "move_to_end", "put", "sort", "reverse"}

KEPT = {
    "strategies/registry.py:STRATEGIES": "the strategies by name, which users extend (register_strategy)",
    "engine/placement.py:_PLACEMENTS": "the mine placements by first-click policy (register_placement)",
    "solver/binomials.py:_kept": "a memo of large binomials, keyed by (n, k)",
    "solver/constraints.py:_READINGS": "the solver's memo of views (ViewMemo): readings, keyed by view",
    "solver/deduce.py:_DEDUCED": "the solver's memo of views (ViewMemo): deductions, keyed by view",
    "solver/closure.py:_KEPT": "the solver's memo of views (ViewMemo): the fast rules' closure, by view",
    "exercises/draws.py:_KEPT": "a memo of the checks' examples, keyed by the drawing that makes them",
    "exercises/needs.py:_BY_FUNCTION": "each function's latest check verdict, which needs() reads",
    "exercises/needs.py:_BY_ID": "the same, for functions that take no weak reference",
    "exercises/draws.py:_KEPT_SMALLEST": "a memo of the smallest examples, keyed by what makes them",
    "exercises/timelimit.py:_STACKS": "the limits running in each thread, innermost last (they nest)",
    "classroom/flags.py:STUB_NAMES": "the names a stub may use, filled once when first needed",
}
"""Module-level state that functions change, allowed: where it is, and why it is no hidden state."""


def attribute_writes(package: Path) -> Iterator[str]:
    """``file:line: what`` for each ``vars()``, ``__dict__``, ``object.__setattr__`` or ``setattr`` in
    the engine outside :data:`WRITER`."""
    for path in sorted((package / "engine").glob("*.py")):
        name = f"engine/{path.name}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed: set[ast.AST] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and (name, node.name) == WRITER:
                allowed.update(ast.walk(node))
        for node in ast.walk(tree):
            if node in allowed:
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("vars", "setattr")
            ):
                yield f"{name}:{node.lineno}: {node.func.id}()"
            elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
                yield f"{name}:{node.lineno}: __dict__"
            elif isinstance(node, ast.Attribute) and node.attr == "__setattr__":
                yield f"{name}:{node.lineno}: {ast.unparse(node)}"


def _module_state(tree: ast.Module) -> set[str]:
    """The names a module binds at its top level to a mutable container (or a memo)."""
    names: set[str] = set()
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if value is None:
            continue
        mutable = isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp))
        if isinstance(value, ast.Call):
            func = value.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            mutable = called in MUTABLE
        if mutable:
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def changed_state(package: Path) -> Iterator[str]:
    """``module:name`` for each top-level name of a module that its functions change (a write into
    it, a changing method call, or ``global``)."""
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        state = _module_state(tree)
        found = set()
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Global):
                    found.update(node.names)
                elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                    node.ctx, (ast.Store, ast.Del)
                ):
                    target = node.value
                    if (
                        isinstance(target, ast.Name)
                        and target.id in state
                        and isinstance(node, ast.Subscript)
                    ):
                        found.add(target.id)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    target = node.func.value
                    if isinstance(target, ast.Name) and target.id in state and node.func.attr in CHANGES:
                        found.add(target.id)
        yield from (f"{module}:{name}" for name in sorted(found))


def test_the_engine_writes_attributes_in_one_constructor_helper() -> None:
    found = list(attribute_writes(ROOT / "src" / "ipyminesweeper"))
    assert not found, f"attributes written outside {WRITER[0]} {WRITER[1]}():\n" + "\n".join(found)


def test_no_module_keeps_state_its_functions_change_but_the_named_ones() -> None:
    found = set(changed_state(ROOT / "src" / "ipyminesweeper"))
    assert found <= KEPT.keys(), "module-level state changed at run time:\n" + "\n".join(
        sorted(found - KEPT.keys())
    )
    assert KEPT.keys() <= found, f"no longer changed, take it off KEPT: {sorted(KEPT.keys() - found)}"


if __name__ == "__main__":
    package = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT) / "src" / "ipyminesweeper"
    print("\n".join(attribute_writes(package)) or "no attribute written outside the helper")
    print("\n".join(sorted(set(changed_state(package)) - KEPT.keys())) or "no state changed but the named")
