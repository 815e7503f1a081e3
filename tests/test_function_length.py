"""No function in src/ is longer than 60 lines (issue 31; js/size.test.js is the front end's rule).

A function is counted from its ``def`` line to its last line, docstring and comments included. The
functions that were longer when the rule came are listed in :data:`ALLOWED` with their length then: each
may only get shorter, and once it is 60 lines or fewer it must leave the list (the test says so), until
the list is empty.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ipyminesweeper"
LIMIT = 60

ALLOWED: dict[str, int] = {}  # offenders of 2026-11-26 (at 533333a) with their length then: all shortened


def function_lengths(source: str, module: str) -> dict[str, int]:
    """``module::Qual.name`` -> lines, for every function and method of ``source``, nested ones too."""
    out: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                out[f"{module}::{name}"] = (child.end_lineno or child.lineno) - child.lineno + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return out


def package_lengths() -> dict[str, int]:
    lengths: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        lengths |= function_lengths(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    return lengths


def test_no_function_is_over_the_limit() -> None:
    lengths = package_lengths()
    over = {name: n for name, n in lengths.items() if n > LIMIT and name not in ALLOWED}
    assert not over, f"functions over {LIMIT} lines (split them): {over}"


def test_the_allowed_ones_only_get_shorter() -> None:
    lengths = package_lengths()
    grown = {name: (ALLOWED[name], lengths[name]) for name in ALLOWED if lengths.get(name, 0) > ALLOWED[name]}
    assert not grown, f"allow-listed functions that grew (listed, now): {grown}"


def test_the_allow_list_is_not_stale() -> None:
    lengths = package_lengths()
    done = sorted(name for name in ALLOWED if lengths.get(name, 0) <= LIMIT)
    assert not done, f"at {LIMIT} lines or fewer now, or gone: remove them from ALLOWED: {done}"


def test_lengths_count_from_def_to_the_last_line_nested_and_methods_too() -> None:
    source = "class A:\n    def f(self):\n        def g():\n            return 1\n\n        return g\n"
    assert function_lengths(source, "m.py") == {"m.py::A.f": 5, "m.py::A.f.g": 2}
