"""One name, one thing: no two classes of the package share a name, and every module, file, function or
class that a docstring or a page of the docs names exists.

A reference is read where the docs are written: a path (``widget/session.py``, ``tests/...``, ``js/...``),
a dotted name of the package (``ipyminesweeper.strategies.exact``), a backquoted ``module.name`` whose module
is one of the package's (``runtime_state.is_slow``), and, in docstrings, the roles ``:mod:``, ``:func:``,
``:class:``, ``:meth:``, ``:data:``, ``:attr:`` and ``:exc:``. docs/research/ is a lab log: it records what
was measured, on the code of the day (each entry names its commit), so it is not read.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import ipyminesweeper

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ipyminesweeper"
LAYERS = "|".join(p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith("_"))
SUFFIXES = "py|json|jsonl|js|mjs|md|ipynb|css|html|xz|toml|txt"
PATH = re.compile(
    rf"(?<![\w/.-])((?:src/ipyminesweeper/|tests/|js/|scripts/|benchmarks/|docs/|notebooks/|\.ci/|"
    rf"(?:{LAYERS})/)[\w/.-]*\.(?:{SUFFIXES}))(?![\w])"
)
DOTTED = re.compile(r"(?<![\w./-])(ipyminesweeper(?:\.[A-Za-z_]\w*)+)")
ROLE = re.compile(r":(mod|func|class|meth|data|attr|exc|obj):`~?(\.{0,3}[\w.]+)`")
QUALIFIED = re.compile(r"`([a-z_][a-z0-9_]*)\.([A-Za-z_][\w]*)`")
SUBMODULES = pkgutil.walk_packages(ipyminesweeper.__path__, "ipyminesweeper.")
MODULES = [m.name for m in SUBMODULES if not m.name.endswith("__main__")]
BY_BASENAME: dict[str, list[str]] = {}
for _name in MODULES:
    BY_BASENAME.setdefault(_name.rsplit(".", 1)[-1], []).append(_name)


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module of the package, or a name that one of them defines."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return isinstance(found, type) and attribute in _instance_attributes(found)
            found = getattr(found, attribute)
        return True
    return False


def _instance_attributes(cls: type) -> set[str]:
    """The attributes a class's instances have that the class itself does not: dataclass fields with no
    default, and what its methods assign to ``self``."""
    fields = set(getattr(cls, "__dataclass_fields__", {}))
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return fields
    return fields | set(re.findall(r"self\.(\w+)\s*(?::[^=]+)?=", source))


def _docstrings(path: Path) -> Iterator[tuple[str, str, list[str]]]:
    """Each docstring of a source file, its package (what ``.name`` is read from), and the dotted places
    its short references are read from."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    classes = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    places = [module, package, "ipyminesweeper", *(f"{module}.{name}" for name in classes)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                yield text, package, places


def _role_targets(reference: str, package: str, places: list[str]) -> list[str]:
    """What a role's reference may name: ``.x`` and ``..x`` from the package (Sphinx's relative names),
    anything else as it is, or from the module, its package, the package's top or one of its classes."""
    if reference.startswith("."):
        dots = len(reference) - len(reference.lstrip("."))
        parts = package.split(".")
        base = parts[: len(parts) - dots + 1]
        rest = reference.lstrip(".")
        return [".".join([*base, rest]) if rest else ".".join(base)]
    return [reference, *(f"{place}.{reference}" for place in places)]


def _pages() -> Iterator[tuple[Path, str]]:
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if "research" not in page.relative_to(ROOT / "docs").parts:
            yield page, page.read_text(encoding="utf-8")
    for page in (ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "js" / "README.md"):
        yield page, page.read_text(encoding="utf-8")


HAND_INS = ("strategies/ada.py",)
"""Paths of a teacher's hand-in folder (``handin/strategies/<student>.py``), named as the class server's
receipt names them: not files of the package, though they start like one of its layers."""


def _missing_paths(text: str) -> list[str]:
    return [
        found
        for found in (m.group(1).rstrip(".") for m in PATH.finditer(text))
        if not (ROOT / found).exists() and not (PACKAGE / found).exists() and found not in HAND_INS
    ]


def _class_has(basename: str, name: str) -> bool:
    """Whether a class of the package named like ``basename`` (``board`` -> ``Board``) has ``name``: then
    ``board.view`` is read as a Board's view, as the docs mean it."""
    for module in MODULES:
        found = getattr(importlib.import_module(module), basename.title().replace("_", ""), None)
        fields = getattr(found, "__dataclass_fields__", {})
        if isinstance(found, type) and (hasattr(found, name) or name in fields):
            return True
    return False


def _missing_names(text: str) -> list[str]:
    missing = [name for name in (m.group(1) for m in DOTTED.finditer(text)) if not _resolves(name)]
    for module, name in QUALIFIED.findall(text):
        candidates = BY_BASENAME.get(module, [])
        if not candidates or name in ("py", "js", "css", "json", "md"):
            continue
        if not any(_resolves(f"{full}.{name}") for full in candidates) and not _class_has(module, name):
            missing.append(f"{module}.{name}")
    return missing


def test_no_two_classes_share_a_name() -> None:
    names = Counter(
        node.name
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    )
    assert not [name for name, count in names.items() if count > 1], names.most_common(5)


def test_no_two_modules_share_a_name() -> None:
    """One name, one module: ``rules`` is the engine's; each layer's words have a name of their own."""
    names = Counter(path.stem for path in PACKAGE.rglob("*.py") if path.stem not in ("__init__", "__main__"))
    assert not [name for name, count in names.items() if count > 1], names.most_common(3)


def test_every_file_and_name_the_docs_give_exists() -> None:
    missing = [(page.relative_to(ROOT), ref) for page, text in _pages() for ref in _missing_paths(text)]
    missing += [(page.relative_to(ROOT), ref) for page, text in _pages() for ref in _missing_names(text)]
    assert not missing, missing


def test_every_module_file_and_name_a_docstring_gives_exists() -> None:
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for text, package, places in _docstrings(path):
            refs = _missing_paths(text) + _missing_names(text)
            for role, reference in ROLE.findall(text):
                targets = _role_targets(reference, package, places)
                if not any(_resolves(target) for target in targets):
                    refs.append(f":{role}:`{reference}`")
            missing += [(str(path.relative_to(ROOT)), ref) for ref in refs]
    assert not missing, missing
