"""The players' metrics (engine/metrics.py): 3BV, ZiNi, clicks by kind and the ratios, on hand-made
boards and games, and as properties of random boards (ms_toollib's agreement: test_metrics_ms_toollib.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import Board, BoardError, Click, Replay, bbbv, game_metrics, new_board, reveal, zini
from ipyminesweeper.engine.metrics import click_counts, openings, solved_bbbv

EXAMPLES = settings(max_examples=150, deadline=None)


def covered(board: Board) -> Board:
    """``board``'s mines on a board with every cell covered."""
    return Board(board.rows, board.cols, board.mines, bytes(board.rows * board.cols), board.minefield)


@pytest.mark.parametrize(
    ("text", "expected", "opens"),
    [
        ("...\n...\n...", 1, 1),  # no mine: one opening clears it
        ("*..\n...\n...", 1, 1),  # one opening with its border of three 1s
        (".*.", 2, 0),  # two 1s, on no opening: a click each
        ("*.*\n...\n...\n...\n*.*", 3, 1),  # a 2 at the top and one below, off the opening between
        ("..*..\n..*..\n..*..", 2, 2),  # a wall of mines between two openings
    ],
)
def test_bbbv_counts_openings_and_the_numbers_off_them(text: str, expected: int, opens: int) -> None:
    board = Board.from_text(text)
    assert bbbv(board) == expected
    assert openings(board) == opens


def test_the_mines_must_be_placed() -> None:
    with pytest.raises(BoardError, match="not placed"):
        bbbv(new_board("beginner", seed=1))
    with pytest.raises(TypeError, match="board"):
        zini("....")  # type: ignore[arg-type]


@st.composite
def layouts(draw: st.DrawFn) -> Board:
    """A board with its mines placed, every cell covered."""
    rows, cols = draw(st.integers(1, 16)), draw(st.integers(1, 16))
    mines = draw(st.integers(0, rows * cols - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    return covered(reveal(new_board(rows, cols, mines, seed=seed, first_click="safe"), (0, 0)))


def clear_with_left_clicks(board: Board) -> tuple[Board, int]:
    """Clear ``board`` with left clicks only, each on a cell still covered: a zero first while one is
    left, else a safe number. The clicks it takes are the fewest that clear it without flags."""
    clicks = 0
    while board.status in ("ready", "playing"):
        cells = [i for i in range(board.rows * board.cols) if board.states[i] == 0 and not board.mask[i]]
        zeros = [i for i in cells if board.counts[i] == 0]
        board = reveal(board, divmod((zeros or cells)[0], board.cols))
        clicks += 1
    return board, clicks


@EXAMPLES
@given(layouts())
def test_3bv_is_the_left_clicks_that_clear_the_board(board: Board) -> None:
    won, clicks = clear_with_left_clicks(board)
    assert won.status == "won"
    assert bbbv(board) == clicks
    assert solved_bbbv(board) == 0 and solved_bbbv(won) == bbbv(board)


@EXAMPLES
@given(layouts())
def test_zini_is_at_most_the_3bv_and_needs_a_click_at_least(board: Board) -> None:
    assert 1 <= zini(board) <= bbbv(board)


def test_clicks_by_kind_effective_or_wasted() -> None:
    start = covered(Board.from_text("..*..\n..*..\n..*.."))  # a wall of mines between two openings
    clicks = [
        Click("left", (0, 0), 0.0),  # opens the left side: effective
        Click("left", (0, 0), 0.5),  # already revealed: wasted
        Click("right", (0, 2), 1.0),  # flags a mine: effective
        Click("right", (0, 2), 1.5),  # unflags it: wasted
        Click("right", (0, 2), 2.0),  # flags it again: wasted (it was flagged before)
        Click("chord", (1, 1), 2.5),  # a 3 with one flag: wasted
        Click("right", (1, 1), 2.75),  # a right click on a number: wasted
        Click("left", (0, 4), 3.0),  # opens the right side and wins: effective
    ]
    replay = Replay.from_clicks(start, clicks)
    counts = click_counts(replay)
    assert (counts.left, counts.right, counts.chord) == (3, 4, 1)
    assert (counts.left_effective, counts.right_effective, counts.chord_effective) == (2, 1, 0)
    assert (counts.total, counts.effective, counts.wasted) == (8, 3, 5)
    metrics = game_metrics(replay)
    assert metrics.won and metrics.bbbv == 2 == metrics.solved_bbbv
    assert metrics.efficiency == metrics.ioe == 2 / 8
    assert metrics.correctness == 3 / 8 and metrics.throughput == 2 / 3
    assert metrics.seconds == 3.0 and metrics.bbbv_per_second == 2 / 3


def test_a_chord_that_opens_is_effective_and_one_that_loses_too() -> None:
    ring = covered(Board.from_text("...\n.*.\n..."))  # eight 1s around a mine: 3BV 8
    opened = Replay.from_clicks(ring, [Click("left", (0, 0)), Click("right", (1, 1)), Click("chord", (0, 0))])
    assert click_counts(opened).chord_effective == 1
    assert game_metrics(opened).solved_bbbv == 3  # (0,0), then (0,1) and (1,0) by the chord
    # a wrong flag, then a chord on its number: the chord opens the mine and loses
    layout = covered(Board.from_text("*..\n...\n*.."))
    lost = Replay.from_clicks(layout, [Click("left", (0, 2)), Click("right", (1, 0)), Click("chord", (0, 1))])
    assert lost.final.status == "lost"
    metrics = game_metrics(lost)
    assert metrics.clicks.chord_effective == 1 and not metrics.won
    assert metrics.solved_bbbv == 1  # the opening; the 2 at (1,0) is under the wrong flag


def test_ratios_without_clicks_or_time_are_none() -> None:
    replay = Replay.from_clicks(covered(Board.from_text("*..")), [])
    metrics = game_metrics(replay)
    assert metrics.clicks.total == 0
    assert metrics.efficiency is metrics.ioe is metrics.correctness is metrics.throughput is None
    assert metrics.seconds is None and metrics.bbbv_per_second is None
