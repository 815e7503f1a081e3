"""The examples in the package's docstrings run, and say what they show (``>>>`` lines are tested here, so
they cannot drift from the code as prose can)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ipyminesweeper

SUBMODULES = pkgutil.walk_packages(ipyminesweeper.__path__, "ipyminesweeper.")
MODULES = ["ipyminesweeper", *sorted(m.name for m in SUBMODULES if not m.name.endswith("__main__"))]


def _examples(name: str) -> int:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return sum(len(test.examples) for test in finder.find(importlib.import_module(name)))


@pytest.mark.parametrize("name", [name for name in MODULES if _examples(name)])
def test_the_docstring_examples_of_a_module_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried and not failed, f"{name}: {failed} of {tried} examples failed (see the output above)"


def test_the_package_has_examples_to_run() -> None:
    """The docstrings of the engine, the solver and the widget show their use: the parametrized test above
    runs them (an empty list would pass silently)."""
    with_examples = [name for name in MODULES if _examples(name)]
    assert len(with_examples) >= 9, with_examples
