"""No-guess generation has a work budget: past it, it stops and says so in words, offering "safe".

Work is counted, not timed: the search examines a board's cells once per solving pass, and the budget
caps the total (a 100 x 100 board with 2,500 mines searched for 534 s before; now about 25 s at most).
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from ipyminesweeper import new_board, reveal
from ipyminesweeper.strategies.noguess import WORK_BUDGET, NoGuessError, is_no_guess, no_guess_minefield

NOGUESS = sys.modules["ipyminesweeper.strategies.noguess"]


class CountingSolves:
    """The module's solving pass, counting its calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.solve = NOGUESS._solve
        monkeypatch.setattr(NOGUESS, "_solve", self)

    def __call__(self, board: Any) -> Any:
        self.calls += 1
        return self.solve(board)


def test_a_search_past_its_budget_stops_and_offers_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = CountingSolves(monkeypatch)
    with pytest.raises(NoGuessError, match=r"within the work budget \(20,000 cells examined\)") as caught:
        no_guess_minefield(30, 30, 250, 1, 15 * 30 + 15, budget=20_000)
    assert "first_click='safe'" in str(caught.value)
    assert counter.calls <= 20_000 // 900, "no more work than the budget allows"


def test_the_budget_holds_through_a_first_reveal(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the widget's first click runs: the placement, with the module's budget."""
    monkeypatch.setattr(NOGUESS, "WORK_BUDGET", 50_000)
    counter = CountingSolves(monkeypatch)
    board = new_board(100, 100, 2500, seed=1, first_click="no-guess")
    with pytest.raises(NoGuessError, match="within the work budget"):
        reveal(board, (50, 50))
    assert counter.calls <= 5
    assert WORK_BUDGET == 600_000


def test_within_the_budget_the_boards_are_the_same_no_guess_boards() -> None:
    field = no_guess_minefield(16, 30, 99, 1, 8 * 30 + 15)
    assert is_no_guess(field, 8 * 30 + 15)
    assert field == no_guess_minefield(16, 30, 99, 1, 8 * 30 + 15, budget=10**9), (
        "a budget never changes a board"
    )
