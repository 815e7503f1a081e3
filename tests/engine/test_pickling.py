"""Unpickling goes through the same check as construction: a tampered pickle is a BoardError, never a
board no rule could reach. Both pickle forms are covered: the constructor call the classes now write, and
the default "empty object + ``__dict__``" form of older versions (or of a pickle written by hand)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from ipyminesweeper import Board, BoardError, View, new_board, reveal, toggle_flag
from ipyminesweeper.engine import Minefield, PendingMines
from ipyminesweeper.engine.pickling import assembled


def boards() -> list[Board]:
    ready = new_board("beginner", seed=5)
    playing = toggle_flag(reveal(ready, (4, 4)), (0, 0))
    lost = Board.from_text("X1.\n11.\n...")
    won = Board.from_text("F1\n11")
    return [ready, playing, lost, won]


class Pickled:
    """A pickle written by hand: ``__reduce__`` returns whatever the test wants unpickling to do."""

    def __init__(self, *reduce: Any) -> None:
        self.reduce = reduce

    def __reduce__(self) -> Any:
        return self.reduce


def old_form(value: Any, **changes: Any) -> bytes:
    """The default pickle of a dataclass (``object.__new__`` + its ``__dict__``), with ``changes``."""
    return pickle.dumps(Pickled(object.__new__, (type(value),), {**vars(value), **changes}))


@pytest.mark.parametrize("board", boards(), ids=lambda b: b.status)
def test_every_kind_of_board_round_trips(board: Board) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(board, protocol))
        assert again == board and again.seed == board.seed and again.first_click == board.first_click
        assert again.view == board.view and again.status == board.status
    assert copy.deepcopy(board) == board and copy.copy(board) == board
    assert pickle.loads(pickle.dumps(board.view)) == board.view


def test_a_pickle_holds_the_fields_only_not_the_cached_values() -> None:
    board = reveal(new_board(200, 200, 4000, seed=1), (100, 100))
    assert board.view and board.keys and board.counts  # computed, cached on the instance
    assert len(pickle.dumps(board)) < 2 * 200 * 200 + 1000, "states and mask, nothing derived"


def test_a_board_pickle_with_a_tampered_byte_is_a_board_error() -> None:
    board = reveal(new_board(9, 9, 10, seed=3, first_click="safe"), (4, 4))
    data = pickle.dumps(board)
    at = data.find(board.states)
    assert at > 0
    covered = board.states.index(0)
    tampered = data[: at + covered] + b"\x03" + data[at + covered + 1 :]
    with pytest.raises(BoardError, match="states bytes"):
        pickle.loads(tampered)
    assert isinstance(board.minefield, Minefield), "the first reveal placed the mines"
    mine = board.minefield.mask.index(1)  # reveal a mine without losing
    at = data.find(board.states)
    tampered = data[: at + mine] + b"\x02" + data[at + mine + 1 :]
    with pytest.raises(BoardError, match="exploded_index is None"):
        pickle.loads(tampered)


@pytest.mark.parametrize(
    ("reduce", "message"),
    [
        ((Board, (3, 3, 1, bytes([3] * 9), PendingMines(1, "safe"))), "states bytes"),
        ((Board, (3, 3, 9, bytes(9), PendingMines(1, "safe"))), "mines must be"),
        ((Minefield, (2, 2, b"\x02\x00\x00\x00")), "mask bytes"),
        ((PendingMines, (-1, "safe")), "seed must be"),
        ((PendingMines, (1, "maybe")), "first_click must be"),
        ((View, (2, 2, 1, "playing", "*...")), "cannot hold"),
    ],
)
def test_a_tampered_constructor_pickle_is_refused(reduce: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pickle.loads(pickle.dumps(Pickled(*reduce)))


def test_an_old_form_pickle_is_checked_like_a_new_board() -> None:
    board = boards()[1]
    again = pickle.loads(old_form(board))  # a pickle of an older version still loads
    assert again == board and again.status == "playing"
    with pytest.raises(BoardError, match="states bytes"):
        pickle.loads(old_form(board, states=bytes([3]) + board.states[1:]))
    with pytest.raises(BoardError, match="mines says"):
        pickle.loads(old_form(board, mines=board.mines + 1))
    with pytest.raises(BoardError, match="unknown field 'cheat'"):
        pickle.loads(old_form(board, cheat=1))
    with pytest.raises(BoardError, match="lacks the field"):
        state = dict(vars(board))
        del state["states"]
        pickle.loads(pickle.dumps(Pickled(object.__new__, (Board,), state)))
    with pytest.raises(BoardError, match="dict of its fields"):
        pickle.loads(pickle.dumps(Pickled(object.__new__, (Board,), ["not", "a", "dict"])))


def test_a_forged_cached_value_in_an_old_pickle_is_dropped() -> None:
    board = boards()[1]
    won_view = View(9, 9, 10, "won", "F" * 10 + "1" * 71)
    again = pickle.loads(old_form(board, status="won", view=won_view))
    assert again.status == "playing" and again.view == board.view, "derived again, not read from the pickle"


def test_an_old_form_view_or_minefield_is_checked() -> None:
    view = boards()[1].view
    with pytest.raises(ValueError, match="cannot hold"):
        pickle.loads(old_form(view, cells="*" + view.cells[1:]))
    field = boards()[1].minefield
    assert isinstance(field, Minefield), "a board in play has its mines placed"
    with pytest.raises(BoardError, match="mask has"):
        pickle.loads(old_form(field, mask=field.mask[:-1]))
    assert pickle.loads(old_form(field)) == field


def test_assembled_takes_every_field_and_nothing_else() -> None:
    view = assembled(View, rows=1, cols=2, mines=1, status="ready", cells="..")
    assert view == View(1, 2, 1, "ready", "..")
    with pytest.raises(TypeError, match="assembled from rows, cols, mines, status, cells, not rows"):
        assembled(View, rows=1)
    with pytest.raises(TypeError, match="not rows, cols, mines, status, cells, colour"):
        assembled(View, rows=1, cols=2, mines=1, status="ready", cells="..", colour="red")
