"""Exact Minesweeper solver: constraints, exact probabilities, certain moves with reasons.

Reads only a view (``rows``, ``cols``, ``mines``, ``cells``); flags are not trusted. Pure functions
and frozen
data, standard library only. See ``docs/solver.md``.
"""

from .constraints import InconsistentViewError, Pos, ViewLike
from .deduce import Deductions, deduce
from .probabilities import Analysis, analyse, certain_moves, probabilities

__all__ = [
    "Analysis",
    "Deductions",
    "InconsistentViewError",
    "Pos",
    "ViewLike",
    "analyse",
    "certain_moves",
    "deduce",
    "probabilities",
]
