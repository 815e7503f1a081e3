"""Variants of ``exact`` for experiments on paired boards (``--strategy benchmarks.variants:NAME``).

Not registered as strategies: what they change is not adopted, and their figures are in
docs/autoplayer.md.
"""

from __future__ import annotations

from ipyminesweeper.play.exact import ExactStrategy
from ipyminesweeper.play.guess import GuessRule

__all__ = ["exact_long_term", "exact_unweighted", "exact_wide"]

exact_long_term = ExactStrategy(
    "exact_long_term",
    """``exact`` with Hill's long-term risk: each look-ahead score weighed by the cell's 50/50
    influence (``ipyminesweeper.play.influence``).""",
    flags=False,
    rule=GuessRule(long_term=True),
)

exact_wide = ExactStrategy(
    "exact_wide",
    """``exact`` with Hill's wider candidate set: cells that could be half of a later 50/50 are weighed
    too, with ``exact``'s own look-ahead (``ipyminesweeper.play.guess.weigh``, ``GuessRule(wide=True)``).""",
    flags=False,
    rule=GuessRule(wide=True),
)

exact_unweighted = ExactStrategy(
    "exact_unweighted",
    """``exact`` as it played before 2026-11-26: the look-ahead never weighs by 50/50 influence
    (``GuessRule()``; ``exact`` weighs while the revealed cells are one region).""",
    flags=False,
    rule=GuessRule(),
)
