"""What a check says when two boards differ, and when they do not: every kind of difference and of
sameness that ``compare_boards`` can meet, each message read in full. A message must be true: two equal
boards are "the same board" (an update that added a board when nothing changed was told that the two
boards' mines, seed or exploded cell differed)."""

from __future__ import annotations

import pytest

from ipyminesweeper import Board, reveal, toggle_flag
from ipyminesweeper.exercises.moves import compare_boards

PLACED = Board.from_text("..*\n...\n*..")
PENDING = Board.from_text("# mines=2 seed=7 first_click=any\n...\n...\n...")


def pending(header: str) -> Board:
    return Board.from_text(f"# {header}\n...\n...\n...")


CASES = [
    ("the same value", PLACED, PLACED, set(), "the same board"),
    ("equal, made apart", PLACED, Board.from_text("..*\n...\n*.."), set(), "the same board"),
    ("equal, mines to place", PENDING, pending("mines=2 seed=7 first_click=any"), set(), "the same board"),
    ("another size", Board.from_text("..*\n*.."), PLACED, set(), "yours is 2x3, the expected board 3x3"),
    ("one cell", toggle_flag(PLACED, (1, 1)), PLACED, {(1, 1)}, "1 cell differs"),
    (
        "cells and status",
        reveal(PLACED, (0, 2)),
        PLACED,
        {(0, 2)},
        "1 cell differs; yours is lost, expected ready",
    ),
    (
        "placed and not",
        PENDING,
        Board.from_text("...\n...\n..."),
        set(),
        "the same cells, but the mines of one of the boards are not placed yet",
    ),
    (
        "mines to place",
        pending("mines=3 seed=7 first_click=any"),
        PENDING,
        set(),
        "the same cells, but yours has 3 mines to place, the expected board 2",
    ),
    (
        "seed",
        pending("mines=2 seed=8 first_click=any"),
        PENDING,
        set(),
        "the same cells, but the seed that will place its mines is 8, expected 7",
    ),
    (
        "first click and seed",
        pending("mines=2 seed=8 first_click=safe"),
        PENDING,
        set(),
        "the same cells, but the seed that will place its mines is 8, expected 7; "
        "first_click is 'safe', expected 'any'",
    ),
]


@pytest.mark.parametrize(
    ("got", "expected", "cells", "said"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_difference_and_each_sameness_is_said_as_it_is(
    got: Board, expected: Board, cells: set[tuple[int, int]], said: str
) -> None:
    marked, how = compare_boards(got, expected)
    assert (set(marked), how) == (cells, said)
    if got == expected:
        assert how == "the same board"
    else:
        assert how != "the same board"
