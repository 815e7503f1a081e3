"""ipyminesweeper: Minesweeper as immutable data and pure functions, a widget, an explained autoplayer.

>>> import ipyminesweeper as ms
>>> board = ms.new_board(9, 9, 10, seed=1)
>>> board = ms.reveal(board, (4, 4))
>>> board.status
'playing'

Six layers, each importing only the ones below it (``make lint`` checks it; docs/architecture.md):

- ``engine``: boards, views and the rules (standard library only);
- ``solver``: constraints, exact probabilities and certain moves, read from views only;
- ``strategies``: moves, strategies, one step, no-guess boards, the game review; beside it ``replays``, the
  replay files (RAWVF in pure Python; AVF, RMV, MVF and EVF through ms_toollib, an optional extra);
- three parts side by side that never import each other: ``widget``, the Jupyter widget, an Elm-style
  shell (imported on first use, so this import stays light); ``arena``, running strategies (whole games,
  benchmarks, tournaments, the command line); ``charts``, Vega-Lite specs;
- ``exercises``: what a student calls, the notebooks' checked exercises (Hypothesis, imported only there
  and above);
- ``classroom``: what a teacher runs: the editions, the class server, the confined grader, the tournament.

This module is the composition root: it plugs the strategies layer's no-guess placement into the engine. It
offers the whole engine (the names of ``engine.__all__``) and, from the layers above, the names a user
needs.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from . import engine
from .arena import BenchResult, SerialExecutor, benchmark, play, tournament
from .engine import *  # noqa: F403 (the whole engine, as listed in engine.__all__)
from .replays import load_replay, save_replay
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
    Strategy,
    exact,
    exact_flags,
    no_guess_placement,
    register_strategy,
    review,
    scored,
    simple,
    step,
)

if TYPE_CHECKING:
    from .widget import Minesweeper

engine.register_placement("no-guess", no_guess_placement)

try:
    __version__ = version("ipyminesweeper")
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"


if not TYPE_CHECKING:  # mypy reads the import above: an unknown name stays an error in its eyes

    def __getattr__(name: str) -> Any:
        """``Minesweeper`` is imported on first use (PEP 562): the widget stack is heavy."""
        if name == "Minesweeper":
            value = import_module(".widget", __name__).Minesweeper
            globals()[name] = value
            return value
        raise AttributeError(f"module 'ipyminesweeper' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "STRATEGIES",
    "Analysis",
    "BenchResult",
    "Deductions",
    "InconsistentViewError",
    "InvalidMoveError",
    "Minesweeper",
    "Move",
    "Scored",
    "SerialExecutor",
    "Strategy",
    "__version__",
    "analyse",
    "benchmark",
    "certain_moves",
    "deduce",
    "exact",
    "exact_flags",
    "load_replay",
    "play",
    "probabilities",
    "register_strategy",
    "review",
    "save_replay",
    "scored",
    "simple",
    "step",
    "tournament",
]
__all__ += engine.__all__
