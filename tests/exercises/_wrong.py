"""What every checker test asserts: the reference passes, a wrong solution fails with a small
counterexample that is drawn (HTML with the differing cells marked, and text)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ipyminesweeper import Board, View
from ipyminesweeper.exercises import Check, Counterexample

SMALL = 5


@cache
def checked(checker: Callable[..., Check], fn: object, *args: Any, **kwargs: Any) -> Check:
    """``checker(fn, *args, **kwargs)``, searched once per test run: a check is seeded, so the same
    function gets the same verdict every time (test_exercise_api.py shows it), and a test that looks
    closer at a verdict another test has asserted need not search again."""
    return checker(fn, *args, **kwargs)


def counterexample_of(check: Check) -> Counterexample:
    """The counterexample of a check that failed (the assertion says so when it passed)."""
    assert check.counterexample is not None, str(check)
    return check.counterexample


def assert_passes(check: Check, *kinds: str) -> None:
    assert check, str(check)
    assert check.tried >= 50, f"only {check.tried} examples tried"
    counted = dict(check.counts)
    for kind in kinds:
        assert counted.get(kind, 0) > 0, f"no example of the kind {kind!r} was tried: {check.counts}"
    assert "✓" in str(check) and "✓" in check._repr_html_()


def assert_caught(check: Check, wrong: object) -> None:
    name = getattr(wrong, "__name__", str(wrong))
    assert not check, f"{name} passed the check"
    example = counterexample_of(check)
    assert example.summary
    board = example.board
    if isinstance(board, (Board, View)):
        assert board.rows <= SMALL and board.cols <= SMALL, f"{name}: a {board.rows}x{board.cols} example"
    text, page = str(check), check._repr_html_()
    assert "✗" in text and name in text
    assert ("✗" in page and "<table" in page) or "<pre" in page or example.panels == ()
    if any(panel.marked for panel in example.panels):
        assert "[" in text and "outline:2px solid #d92d20" in page
