"""Playing a strategy on a board: one move (:func:`step`) or a whole game (:func:`play`), both pure."""

from __future__ import annotations

from ..engine import Board, GameOverError
from .exact import exact
from .move import Move, Strategy, apply_move, validate_move
from .registry import resolve, strategy_name

__all__ = ["play", "step"]


def step(board: Board, strategy: Strategy | str = exact) -> tuple[Board, Move]:
    """Ask ``strategy`` for a move on ``board``'s view and play it: returns ``(new_board, move)``.

    Pure: ``board`` is not changed. The strategy only gets ``board.view``. A move that is not a legal,
    useful move (not a Move, off the board, revealing a revealed or flagged cell, a chord that does
    nothing) raises :class:`InvalidMoveError`; a finished game raises ``GameOverError``.
    """
    if not isinstance(board, Board):
        raise TypeError(f"step needs a Board, not {type(board).__name__}")
    if board.over:
        raise GameOverError(f"the game is {board.status}: no more moves")
    fn = resolve(strategy)
    move = validate_move(board, fn(board.view), f"strategy {strategy_name(strategy)!r}")
    return apply_move(board, move), move


def play(
    board: Board, strategy: Strategy | str = exact, max_moves: int | None = None
) -> tuple[Board, tuple[Move, ...]]:
    """Step ``strategy`` until the game ends (or ``max_moves`` moves): ``(final_board, moves)``."""
    moves: list[Move] = []
    while not board.over and (max_moves is None or len(moves) < max_moves):
        board, move = step(board, strategy)
        moves.append(move)
    return board, tuple(moves)
