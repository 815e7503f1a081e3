"""Exact Minesweeper solver: constraints, exact probabilities, certain moves with reasons.

Reads only a view (``rows``, ``cols``, ``mines``, ``cells``); flags are not trusted. The deduction
rules are written once (:mod:`.reasoner`); counting (:mod:`.count`) is exact. Pure functions and frozen
data, standard library only. See ``docs/solver.md``.
"""

from .constraints import InconsistentViewError, ViewLike
from .deduce import Deductions, deduce
from .probabilities import Analysis, analyse, certain_moves, probabilities
from .reasoner import Reasoner, local_rules

__all__ = [
    "Analysis",
    "Deductions",
    "InconsistentViewError",
    "Reasoner",
    "ViewLike",
    "analyse",
    "certain_moves",
    "deduce",
    "local_rules",
    "probabilities",
]
