"""Checked exercises for the notebooks: ``check_<name>(fn)`` compares a student's function with the
reference on a fixed list of seeded examples, and returns a :class:`Check`.

A check is truthy when the function agreed everywhere it was tried; it says which of its properties held
(the partial credit a grader gives), and otherwise shows the smallest counterexample (the start position,
the move, your result and the expected one, side by side, with the differing cells marked; Hypothesis
shrinks it), as HTML in a notebook and as text in a terminal. A function that raises, or gives no answer
within its time limit, is a difference, shown with its traceback or the board it looped on.

What a teacher runs (the editions of the notebooks, the class server and the hand-in, the grader, the
class tournament) is :mod:`ipyminesweeper.classroom`, built on these checks; nothing here imports it.
"""

from .autoplayer import check_strategy
from .counting import check_probabilities
from .elm import check_update, check_view
from .generate import MOVES, boards, games, layouts, positions, positions_on, situations, views
from .laws import MUTANTS, RULES, Rules, check_broken_rule, check_law, check_property
from .moves import check_chord, check_replay, check_toggle_flag, replay
from .needs import needs
from .report import Check, Counterexample, Panel

__all__ = [
    "MOVES",
    "MUTANTS",
    "RULES",
    "Check",
    "Counterexample",
    "Panel",
    "Rules",
    "boards",
    "check_broken_rule",
    "check_chord",
    "check_law",
    "check_probabilities",
    "check_property",
    "check_replay",
    "check_strategy",
    "check_toggle_flag",
    "check_update",
    "check_view",
    "games",
    "layouts",
    "needs",
    "positions",
    "positions_on",
    "replay",
    "situations",
    "views",
]
