"""Strategies: moves, the strategies (``simple``, ``scored``, ``exact``), one step, no-guess boards, and
the game review (:func:`review`: every move of a game rated by the exact solver).

Running them over many games (benchmarks, tournaments, the command line) is :mod:`ipyminesweeper.arena`.

``no_guess_placement`` is the engine's "no-guess" placement; the package root registers it.
"""

from .exact import exact, exact_flags, next_safe, opening_cell
from .game import StrategyError, ask, step, who
from .move import ACTIONS, Action, InvalidMoveError, Move, Strategy, apply_move, validate_move
from .noguess import NoGuessError, is_no_guess, no_guess_placement
from .registry import BUILTINS, STRATEGIES, register_strategy, resolve, strategy_name
from .review import KINDS, Kind, Review, ReviewRow, review
from .scored import Scored, scored
from .simple import simple

__all__ = [
    "ACTIONS",
    "BUILTINS",
    "KINDS",
    "STRATEGIES",
    "Action",
    "InvalidMoveError",
    "Kind",
    "Move",
    "NoGuessError",
    "Review",
    "ReviewRow",
    "Scored",
    "Strategy",
    "StrategyError",
    "apply_move",
    "ask",
    "exact",
    "exact_flags",
    "is_no_guess",
    "next_safe",
    "no_guess_placement",
    "opening_cell",
    "register_strategy",
    "resolve",
    "review",
    "scored",
    "simple",
    "step",
    "strategy_name",
    "validate_move",
    "who",
]
