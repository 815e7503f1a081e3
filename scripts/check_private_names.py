"""Fail when a module reaches into another module's private names (``make lint`` runs it).

A name that starts with one underscore is private to the module (or class) that defines it. If two
modules need it, it is public in the lower one. This check reads every module of the package with
``ast`` and reports

- ``from x import _name`` and ``import x._name`` (a private name imported across modules);
- ``something._name`` where ``something`` is not ``self``, ``cls`` or ``super()`` (reaching into another
  object's privates).

IPython's display hooks (``_repr_html_``, ``_repr_mimebundle_``, ...) are a public protocol and allowed.

    python scripts/check_private_names.py [PATH ...]     # default: src/ipyminesweeper
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PROTOCOL = re.compile(r"^_(repr_\w+|ipython_\w+|ipython_display_)_$")


def is_private(name: str) -> bool:
    """Whether ``name`` is private: one leading underscore, not a dunder, not a display protocol hook."""
    return name.startswith("_") and not name.startswith("__") and not PROTOCOL.match(name)


def violations(path: Path) -> list[str]:
    """``file:line: message`` for every private name ``path`` takes from another module or object."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if is_private(alias.name):
                    found.append((node.lineno, f"imports the private name {alias.name!r}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(is_private(part) for part in alias.name.split(".")):
                    found.append((node.lineno, f"imports the private module {alias.name!r}"))
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append((node.lineno, f"reads {ast.unparse(node)!r}, another object's private name"))
    return [f"{path}:{line}: {message}" for line, message in sorted(found)]


def main(argv: list[str]) -> int:
    roots = [Path(p) for p in argv] or [Path(__file__).resolve().parents[1] / "src" / "ipyminesweeper"]
    files = sorted(f for root in roots for f in ([root] if root.is_file() else root.rglob("*.py")))
    problems = [v for f in files for v in violations(f)]
    for problem in problems:
        print(problem)
    print(f"{len(files)} modules checked, {len(problems)} private name(s) used across modules")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
