"""The API a student meets first: new_board takes what Minesweeper takes, a position written as two
arguments gets an error that shows how to write it, and a Board given where a View is expected says
that a strategy sees only board.view (issue 17)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypedDict

import pytest

from ipyminesweeper import (
    DEFAULT_DENSITY,
    LEVELS,
    Board,
    View,
    analyse,
    certain_moves,
    chord,
    deduce,
    exact,
    new_board,
    probabilities,
    reveal,
    scored,
    simple,
    toggle_flag,
)
from ipyminesweeper.engine import Position


class BoardSize(TypedDict, total=False):
    """The keyword arguments of new_board that say a board's size."""

    size: int
    rows: int
    cols: int
    mines: int
    density: float


class Move(Protocol):
    """reveal, toggle_flag and chord: a board and a position in, a board out."""

    __name__: str

    def __call__(self, board: Board, pos: Position, *more: object) -> Board: ...


@pytest.mark.parametrize(
    ("kwargs", "shape"),
    [
        ({"size": 16, "mines": 40}, (16, 16, 40)),
        ({"rows": 16, "cols": 30, "mines": 99}, (16, 30, 99)),
        ({"size": 10, "density": 0.2}, (10, 10, 20)),
        ({"size": 16}, (16, 16, round(DEFAULT_DENSITY * 256))),
        ({}, LEVELS["intermediate"]),
    ],
)
def test_new_board_takes_what_minesweeper_takes(kwargs: BoardSize, shape: tuple[int, int, int]) -> None:
    board = new_board(**kwargs, seed=1)
    assert (board.rows, board.cols, board.mines) == shape
    widget = pytest.importorskip("ipyminesweeper.widget").Minesweeper(**kwargs, seed=1)
    assert widget.board == board  # the same game, whichever door it came in by


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("expert",), {"size": 9}, r"the 'expert' level sets the size and mines: do not also pass size="),
        ((9,), {"size": 9}, "give either size= .* or rows and cols, not both"),
        ((), {"mines": 10}, r"mines= need a size"),
        ((), {"size": 9, "mines": 10, "density": 0.1}, "not both"),
    ],
)
def test_new_board_says_what_does_not_go_together(
    args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        new_board(*args, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def board() -> Board:
    return reveal(new_board(9, 9, 10, seed=1), (4, 4))


@pytest.mark.parametrize("move", [reveal, toggle_flag, chord], ids=lambda f: f.__name__)
def test_a_position_in_two_arguments_gets_the_spelling_shown(board: Board, move: Move) -> None:
    with pytest.raises(
        TypeError, match=rf"^pos: {move.__name__} takes .* write {move.__name__}\(board, \(3, 4\)\)$"
    ):
        move(board, 3, 4)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"not the list \[3, 4\]: write \(3, 4\)"):
        move(board, [3, 4])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"board must be a Board, not View \(a strategy sees board.view"):
        move(board.view, (3, 4))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "function",
    [probabilities, analyse, certain_moves, deduce, simple, scored, exact],
    ids=lambda f: getattr(f, "__name__", "scored"),
)
def test_a_board_where_a_view_belongs_says_pass_board_view(
    board: Board, function: Callable[[View], object]
) -> None:
    with pytest.raises(TypeError, match=r"^view: .* pass board.view\. A strategy, and the solver, see only"):
        function(board)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^view: .* needs a View \(such as board.view\), not int"):
        function(3)  # type: ignore[arg-type]
    function(board.view)  # the right spelling works
