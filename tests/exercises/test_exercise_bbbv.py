"""check_bbbv: the engine's 3BV passes, the 3BV mistakes players and students make fail, each on the
property it breaks, with a small layout drawn with its clicks."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from _wrong import assert_caught, assert_passes, checked, counterexample_of
from hypothesis import given
from hypothesis import strategies as st

from ipyminesweeper import Board, Position
from ipyminesweeper.engine.metrics import bbbv, bbbv_clicks
from ipyminesweeper.exercises import check_bbbv
from ipyminesweeper.exercises.bbbv import BBBV, draw_mines

NoZero, Openings, Apart = BBBV


def _flood(board: Board, around: Callable[[Position], Iterable[Position]]) -> tuple[int, set[Position]]:
    """The openings found by a flood fill that walks ``around``, and the cells it reached."""
    seen: set[Position] = set()
    found = 0
    for start in board.positions():
        if board.is_mine(start) or board.count(start) or start in seen:
            continue
        found += 1
        seen.add(start)
        stack = [start]
        while stack:
            for pos in around(stack.pop()):
                if pos not in seen:
                    seen.add(pos)
                    if board.count(pos) == 0:
                        stack.append(pos)
    return found, seen


def _safe(board: Board) -> list[Position]:
    return [p for p in board.positions() if not board.is_mine(p)]


def right_bbbv(board: Board) -> int:
    found, seen = _flood(board, board.neighbours)
    return found + sum(1 for p in _safe(board) if p not in seen)


def safe_cells(board: Board) -> int:
    """Every safe cell a click: forgets that an opening opens its border too."""
    return len(_safe(board))


def four_way_flood(board: Board) -> int:
    """The flood fill walks up, down, left and right only: two zeros that touch at a corner are two
    openings. (Its numbers: those no zero touches, as it should.)"""

    def around(pos: Position) -> list[Position]:
        r, c = pos
        steps = ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
        return [(a, b) for a, b in steps if 0 <= a < board.rows and 0 <= b < board.cols]

    found, seen = _flood(board, around)
    border = {n for p in seen if board.count(p) == 0 for n in board.neighbours(p)}
    return found + sum(1 for p in _safe(board) if p not in seen and p not in border)


def openings_only(board: Board) -> int:
    """Counts the openings and forgets the numbers on no opening's border."""
    return _flood(board, board.neighbours)[0]


def every_number(board: Board) -> int:
    """Counts the openings, then every number, those on an opening's border too."""
    return openings_only(board) + sum(1 for p in _safe(board) if board.count(p))


def every_zero(board: Board) -> int:
    """A click per zero, not per opening."""
    _, seen = _flood(board, board.neighbours)
    zeros = sum(1 for p in _safe(board) if board.count(p) == 0)
    return zeros + sum(1 for p in _safe(board) if p not in seen)


def counts_mines_too(board: Board) -> int:
    """Right, but a mine on its own is a click too."""
    return right_bbbv(board) + board.mines


WRONG = [
    (safe_cells, Openings),
    (four_way_flood, Apart),
    (openings_only, NoZero),
    (every_number, Openings),
    (every_zero, Openings),
    (counts_mines_too, NoZero),
]


def test_the_engines_3bv_and_a_right_answer_pass() -> None:
    assert_passes(checked(check_bbbv, bbbv), *(kind.partition(":")[0] for kind in BBBV))
    check = checked(check_bbbv, right_bbbv)
    assert_passes(check)
    assert check.tried == 300


@pytest.mark.parametrize(("wrong", "broken"), WRONG, ids=lambda x: getattr(x, "__name__", "")[:20])
def test_each_mistake_fails_on_the_property_it_breaks(wrong: Callable[[Board], int], broken: str) -> None:
    check = checked(check_bbbv, wrong)
    if wrong is four_way_flood:  # two zeros meeting at a corner and nowhere else need 4x4 at least
        assert not check
    else:
        assert_caught(check, wrong)
    held = {result.name: result.held for result in check.properties}
    assert not held[broken], str(check)
    example = counterexample_of(check)
    board = example.board
    assert isinstance(board, Board) and board.rows * board.cols <= (24 if wrong is four_way_flood else 3)
    assert example.expected == bbbv(board) != example.got
    assert "3BV's clicks" in str(check) and f"3BV = {bbbv(board)}" in str(check)


def test_a_stub_an_error_and_a_wrong_type_are_each_said() -> None:
    stub = checked(check_bbbv, lambda board: 0)
    assert not stub and counterexample_of(stub).summary == "it returned 0; the board's 3BV is 1"

    def raises(board: Board) -> int:
        raise ValueError("no idea")

    error = counterexample_of(checked(check_bbbv, raises))
    assert "ValueError" in error.summary and "no idea" in error.traceback
    text = counterexample_of(checked(check_bbbv, lambda board: "4"))
    assert text.summary == "it returned str, not a whole number"
    assert checked(check_bbbv, lambda board: float(bbbv(board))).counterexample is not None
    assert not checked(check_bbbv, lambda board: bool(bbbv(board)))


def test_the_clicks_are_the_3bv_and_cover_every_safe_cell_once() -> None:
    """bbbv_clicks against bbbv, on the check's own layouts: as many clicks as 3BV, no cell in two
    clicks, every click an opening's zeros or one number, and each safe cell opened by one of them."""
    from ipyminesweeper.exercises.draws import examples_once

    for board in examples_once(draw_mines, 300):
        clicks = bbbv_clicks(board)
        assert len(clicks) == bbbv(board) == right_bbbv(board)
        cells = [pos for click in clicks for pos in click]
        assert len(cells) == len(set(cells))
        opened = set(cells)
        for click in clicks:
            if len(click) > 1 or board.count(next(iter(click))) == 0:
                assert all(board.count(p) == 0 for p in click)
                opened |= {n for p in click for n in board.neighbours(p)}
        assert opened == set(_safe(board))


@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_3bv_is_at_most_the_safe_cells_and_at_least_one(rows: int, cols: int, data: st.DataObject) -> None:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mines = data.draw(st.sets(st.sampled_from(cells), max_size=rows * cols - 1))
    board = Board.from_text(
        "\n".join("".join("*" if (r, c) in mines else "." for c in range(cols)) for r in range(rows))
    )
    assert 1 <= bbbv(board) <= rows * cols - len(mines)
    assert bbbv(board) == right_bbbv(board)
