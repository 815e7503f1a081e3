"""Running strategies: whole games, benchmarks over many seeded games, tournaments, and the command line.

The strategies themselves live in :mod:`ipyminesweeper.strategies`; this package only runs them, through
:func:`ipyminesweeper.strategies.step`, the one step function the widget uses too. It is the only place with
executors, timing and the progress bar.
"""

from .bench import BenchResult, SerialExecutor, benchmark, executor_for, wilson
from .games import FirstMove, GameOutcome, Level, conventional_first_move, parse_level, play, play_game
from .tournament import Table, tournament

__all__ = [
    "BenchResult",
    "FirstMove",
    "GameOutcome",
    "Level",
    "SerialExecutor",
    "Table",
    "benchmark",
    "conventional_first_move",
    "executor_for",
    "parse_level",
    "play",
    "play_game",
    "tournament",
    "wilson",
]
