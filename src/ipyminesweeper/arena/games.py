"""Playing whole games: a strategy on one seeded board to the end, or on a board you give.

Game ``i`` of a run with seed ``s`` is ``new_board(rows, cols, mines, seed=s + i, first_click=...)``, so a
run is reproducible and two strategies played with the same seed play the same boards (paired). Every move
goes through :func:`ipyminesweeper.strategies.step`, the one step function (the widget uses it too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ..engine import LEVELS, Board, Position, View, new_board, reveal
from ..strategies import Move, Strategy, exact, opening_cell, resolve, step, strategy_name

__all__ = [
    "FirstMove",
    "GameOutcome",
    "Level",
    "conventional_first_move",
    "parse_level",
    "play",
    "play_game",
]

Level = str | tuple[int, int, int]
FirstMove = Position | Literal["strategy"] | None


def play(
    board: Board, strategy: Strategy | str = exact, max_moves: int | None = None
) -> tuple[Board, tuple[Move, ...]]:
    """Step ``strategy`` until the game ends (or ``max_moves`` moves): ``(final_board, moves)``. Pure."""
    moves: list[Move] = []
    while not board.over and (max_moves is None or len(moves) < max_moves):
        board, move = step(board, strategy)
        moves.append(move)
    return board, tuple(moves)


def parse_level(level: Level) -> tuple[str, int, int, int]:
    """``"expert"``, ``"16x30x99"``, ``"16x30/99"`` or ``(rows, cols, mines)``.

    Returns ``(name, rows, cols, mines)``."""
    if isinstance(level, str):
        if level in LEVELS:
            rows, cols, mines = LEVELS[level]
            return level, rows, cols, mines
        parts = level.replace("/", "x").split("x")
        if len(parts) == 3 and all(p.strip().isdigit() for p in parts):
            rows, cols, mines = (int(p) for p in parts)
            return f"{rows}x{cols}/{mines}", rows, cols, mines
        raise ValueError(f"unknown level {level!r}: use {', '.join(LEVELS)} or ROWSxCOLSxMINES")
    if (
        isinstance(level, tuple)
        and len(level) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) for x in level)
    ):
        rows, cols, mines = level
        return f"{rows}x{cols}/{mines}", rows, cols, mines
    raise TypeError(f"a level is a name or a (rows, cols, mines) tuple, not {level!r}")


def conventional_first_move(rows: int, cols: int, first_click: str) -> Position:
    """The first click the published win rates use: :func:`~ipyminesweeper.strategies.opening_cell`
    when the first click opens a region (``"opening"``, ``"no-guess"``), the corner ``(0, 0)`` when it
    is only safe (``"safe"``, ``"any"``)."""
    if first_click in ("opening", "no-guess"):
        return opening_cell(rows, cols)
    return (0, 0)


@dataclass(frozen=True)
class GameOutcome:
    """How one seeded game went: won or not, how many moves the strategy made, how many were guesses
    (the widget's statistics keep a ``GameResult`` per finished game instead)."""

    seed: int
    won: bool
    moves: int
    guesses: int


def play_game(
    strategy: Strategy | str,
    level: Level,
    seed: int,
    first_click: str = "opening",
    first_move: FirstMove = None,
    max_moves: int | None = None,
    *,
    guess: Callable[[View, Move], bool] | None = None,
) -> GameOutcome:
    """Play one seeded game to the end.

    ``first_move``: ``None`` plays :func:`conventional_first_move`, a position plays that cell, and
    ``"strategy"`` lets the strategy choose. The first click is not counted as a guess unless
    ``first_click="any"`` (where it can lose). A strategy that has not finished after ``max_moves``
    moves (default: four per cell) loses. ``guess(view, move)`` says whether a move on ``view`` was a
    guess (default: what the move says, :attr:`Move.is_guess`; the class tournament's referee asks
    the exact probabilities instead).
    """
    _, rows, cols, mines = parse_level(level)
    board = new_board(rows, cols, mines, seed=seed, first_click=first_click)
    limit = 4 * rows * cols if max_moves is None else max_moves
    fn = resolve(strategy)
    name = strategy_name(strategy)
    moves = guesses = 0
    if first_move != "strategy":
        pos = conventional_first_move(rows, cols, first_click) if first_move is None else first_move
        board = reveal(board, pos)
        moves = 1
        guesses = 1 if first_click == "any" else 0
    while not board.over and moves < limit:
        ready, before = board.status == "ready", board.view
        board, move = step(board, fn, name)
        moves += 1
        risky = move.is_guess if guess is None else guess(before, move)
        if risky and not (ready and first_click != "any"):
            guesses += 1
    return GameOutcome(seed, board.status == "won", moves, guesses)
