"""The smallest examples come first (issue 56): every board in play of a few cells, tried in order of
size before anything else, so a failing check ends at the smallest counterexample without Hypothesis;
and a failing call's traceback is written only for the counterexample shown."""

from __future__ import annotations

import time
import traceback
from typing import Any

import pytest

from ipyminesweeper import Board, CellState, Move, View, reveal, simple, toggle_flag
from ipyminesweeper.exercises import check_replay, check_strategy, check_toggle_flag, search
from ipyminesweeper.exercises.generate import every_board_in_play


def test_every_board_in_play_of_four_cells_once_each_fewest_cells_first() -> None:
    boards = list(every_board_in_play(4))
    sizes = [board.rows * board.cols for board in boards]
    assert sizes == sorted(sizes) and max(sizes) == 4
    assert not any(board.over for board in boards)
    assert len({(board.to_text(), board.view) for board in boards}) == len(boards) == 1862
    assert len({board.view for board in boards}) == 974
    for board in boards:  # revealed cells are safe, and each is reachable: its state is the rules'
        for pos in board.positions():
            assert not (board.state(pos) is CellState.REVEALED and board.is_mine(pos))
    # the 3x1 board with its mine in the middle, the top cell revealed and the mine flagged, is one
    wanted = toggle_flag(reveal(Board.from_text(".\n*\n."), (0, 0)), (1, 0))
    assert wanted in boards and wanted.view.cells == "1f."


def test_a_mistake_on_three_cells_is_shown_on_three_cells() -> None:
    # simple trusts the flags; Hypothesis showed it on 8 cells, the smallest examples on 3
    shown = check_strategy(simple).counterexample
    assert shown is not None and isinstance(shown.board, View)
    assert shown.board.rows * shown.board.cols == 3


def test_a_mistake_found_among_the_smallest_ends_the_search_without_hypothesis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def first_covered(view: View) -> Move:
        return Move("reveal", view.covered()[0], "the first covered cell")

    def no_hypothesis(*args: Any) -> None:
        raise AssertionError("Hypothesis was asked to shrink")

    monkeypatch.setattr(search, "_shrunk", no_hypothesis)
    shown = check_strategy(first_covered).counterexample
    assert shown is not None and shown.board is not None and shown.board.rows * shown.board.cols <= 4

    def never_unflags(board: Board, pos: tuple[int, int]) -> Board:
        return board if board.state(pos) is CellState.FLAGGED else toggle_flag(board, pos)

    shown = check_toggle_flag(never_unflags).counterexample
    assert shown is not None and shown.board is not None and shown.board.rows * shown.board.cols == 1


def test_only_the_shown_call_has_its_traceback_written(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[int] = []
    real = traceback.format_exception

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        written.append(1)
        return real(*args, **kwargs)

    def goes_on(start: Board, moves: Any) -> tuple[Board, ...]:
        history = [start]
        for move, pos in moves:
            history.append(move(history[-1], pos))
        return tuple(history)

    monkeypatch.setattr(traceback, "format_exception", counted)
    started = time.perf_counter()
    found = check_replay(goes_on)
    assert not found and "GameOverError" in found.counterexample.traceback  # type: ignore[union-attr]
    assert "goes_on" in str(found)
    assert len(written) <= 3, f"{len(written)} tracebacks written in {time.perf_counter() - started:.2f} s"
