"""Playing: moves, strategies (``simple``, ``scored``, ``exact``), stepping, no-guess boards, benchmarks.

``no_guess_placement`` is the engine's "no-guess" placement; the package root registers it.
"""

from .arena import (
    BenchResult,
    GameResult,
    SerialExecutor,
    Table,
    benchmark,
    play_game,
    tournament,
    wilson,
)
from .exact import exact, exact_flags, opening_cell
from .game import play, step
from .move import ACTIONS, Action, InvalidMoveError, Move, Strategy, apply_move, validate_move
from .noguess import NoGuessError, is_no_guess, no_guess_placement
from .registry import BUILTINS, STRATEGIES, register_strategy, resolve, strategy_name
from .scored import Scored, scored
from .simple import simple

__all__ = [
    "ACTIONS",
    "BUILTINS",
    "STRATEGIES",
    "Action",
    "BenchResult",
    "GameResult",
    "InvalidMoveError",
    "Move",
    "NoGuessError",
    "Scored",
    "SerialExecutor",
    "Strategy",
    "Table",
    "apply_move",
    "benchmark",
    "exact",
    "exact_flags",
    "is_no_guess",
    "no_guess_placement",
    "opening_cell",
    "play",
    "play_game",
    "register_strategy",
    "resolve",
    "scored",
    "simple",
    "step",
    "strategy_name",
    "tournament",
    "validate_move",
    "wilson",
]
