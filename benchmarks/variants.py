"""Variants of ``exact`` for experiments on paired boards (``--strategy benchmarks.variants:NAME``).

Not registered as strategies: what they change is not adopted, and their figures are in
docs/autoplayer.md.
"""

from __future__ import annotations

from ipyminesweeper.play.exact import ExactStrategy

__all__ = ["exact_long_term"]

exact_long_term = ExactStrategy(
    "exact_long_term",
    """``exact`` with Hill's long-term risk: each look-ahead score weighed by the cell's 50/50
    influence (``ipyminesweeper.play.influence``).""",
    flags=False,
    long_term=True,
)
