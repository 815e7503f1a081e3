"""ipyminesweeper: Minesweeper as immutable data and pure functions, a widget, and an autoplayer.

>>> import ipyminesweeper as ms
>>> board = ms.new_board(9, 9, 10, seed=1)
>>> board = ms.reveal(board, (4, 4))
>>> board.status
'playing'

The engine, solver and strategies use only the standard library. The widget (``Minesweeper``) and the
benchmark helpers are imported on first use, so ``import ipyminesweeper`` stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .board import Board, BoardError, CellState, GameOverError
from .geometry import Position
from .rules import LEVELS, chord, max_mines, new_board, reveal, toggle_flag
from .solver import (
    Analysis,
    Deductions,
    InconsistentViewError,
    analyse,
    certain_moves,
    deduce,
    probabilities,
)
from .strategies import (
    STRATEGIES,
    InvalidMoveError,
    Move,
    Scored,
    exact,
    exact_flags,
    play,
    register_strategy,
    scored,
    simple,
    step,
)
from .view import View

if TYPE_CHECKING:
    from .bench import BenchResult, SerialExecutor, benchmark, tournament
    from .widget import Minesweeper

__version__ = "0.1.0"

# name -> module, imported when the name is first used (PEP 562).
_LAZY = {
    "Minesweeper": ".widget",
    "benchmark": ".bench",
    "tournament": ".bench",
    "BenchResult": ".bench",
    "SerialExecutor": ".bench",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ipyminesweeper' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "LEVELS",
    "STRATEGIES",
    "Analysis",
    "BenchResult",
    "Board",
    "BoardError",
    "CellState",
    "Deductions",
    "GameOverError",
    "InconsistentViewError",
    "InvalidMoveError",
    "Minesweeper",
    "Move",
    "Position",
    "Scored",
    "SerialExecutor",
    "View",
    "__version__",
    "analyse",
    "benchmark",
    "certain_moves",
    "chord",
    "deduce",
    "exact",
    "exact_flags",
    "max_mines",
    "new_board",
    "play",
    "probabilities",
    "register_strategy",
    "reveal",
    "scored",
    "simple",
    "step",
    "toggle_flag",
    "tournament",
]
