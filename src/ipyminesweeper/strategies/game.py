"""A strategy's move on a board, asked, checked and played: the one step function.

:func:`step` is how every caller plays a strategy: the arena's games and benchmarks
(:mod:`ipyminesweeper.arena`) and the widget's ``update`` (Step and the autoplayer; Hint uses
:func:`ask`). So a strategy that raises or returns a bad move is reported the same way everywhere.
"""

from __future__ import annotations

from ..engine import Board
from ..engine.errors import game_over
from .exact import exact
from .move import Move, Strategy, apply_move, validate_move
from .registry import BUILTINS, resolve, strategy_name

__all__ = ["StrategyError", "ask", "step", "who"]

REASON_LIMIT = 200
"""What a failing strategy's exception says is cut to this many characters in the error."""


class StrategyError(ValueError):
    """A strategy raised an exception. The original is chained as ``__cause__``, with its traceback."""


def who(name: str) -> str:
    """How errors name a strategy: ``"strategy 'exact'"`` for a built-in, ``"your strategy 'mine'"``."""
    return f"strategy {name!r}" if name in BUILTINS else f"your strategy {name!r}"


def ask(board: Board, strategy: Strategy | str = exact, name: str | None = None) -> Move:
    """The move ``strategy`` (a callable or a registered name, called ``name``) proposes on
    ``board.view``, checked: a :class:`StrategyError` if it raised (the original chained, with its
    traceback), an ``InvalidMoveError`` if it is not a legal, useful move, a ``GameOverError`` if the
    game has ended. The strategy only gets ``board.view``."""
    if not isinstance(board, Board):
        raise TypeError(f"a strategy plays on a board: board must be a Board, not {type(board).__name__}")
    if board.over:
        raise game_over(board.status)
    fn = resolve(strategy)
    named = who(strategy_name(strategy) if name is None else name)
    try:
        proposed = fn(board.view)
    except Exception as exc:
        said = str(exc) if len(str(exc)) <= REASON_LIMIT else str(exc)[: REASON_LIMIT - 1] + "…"
        raise StrategyError(f"{named} raised {type(exc).__name__}: {said}") from exc
    return validate_move(board, proposed, named)


def step(board: Board, strategy: Strategy | str = exact, name: str | None = None) -> tuple[Board, Move]:
    """Ask ``strategy`` for a move on ``board``'s view and play it: returns ``(new_board, move)``.

    Pure: ``board`` is not changed. Raises as :func:`ask` does.
    """
    move = ask(board, strategy, name)
    return apply_move(board, move), move
