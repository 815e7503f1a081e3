"""Variants of ``exact`` that were measured and not adopted (``--strategy benchmarks.variants:NAME``).

Each changes one seam of ``exact``'s look-ahead (``ipyminesweeper.play.guess.GuessRule``), and its
figures are in docs/research/exact.md. They live here, not in the package, so the product holds only
the rule that runs; ``tests/benchmarks/test_variants.py`` keeps them working.
"""

from __future__ import annotations

from collections.abc import Set

from ipyminesweeper.engine import Position, View
from ipyminesweeper.engine.geometry import neighbour_table
from ipyminesweeper.play import Move
from ipyminesweeper.play.exact import settled
from ipyminesweeper.play.guess import Candidate, GuessRule, candidate, guess
from ipyminesweeper.play.influence import fifty_fifty_influence
from ipyminesweeper.solver import Analysis, ViewLike

__all__ = [
    "INFLUENCED",
    "LONG_TERM",
    "UNWEIGHTED",
    "WIDE",
    "alike",
    "always",
    "exact_long_term",
    "exact_unweighted",
    "exact_wide",
    "influenced",
    "never",
]

INFLUENCED = 0.9  # WIDE adds cells whose P(safe) + 50/50 influence / layouts > this * the best one


def always(view: ViewLike) -> bool:
    """Weigh every guess by its 50/50 influence, as Hill's JSMinesweeper does."""
    return True


def never(view: ViewLike) -> bool:
    """Weigh no guess: the look-ahead alone (``exact`` before 2026-11-26)."""
    return False


def alike(view: ViewLike, pos: Position) -> int | None:
    """How many neighbours ``pos`` has, if it lies two cells deep in unrevealed ground (every cell up
    to two steps away covered): such cells are alike, their looks ahead the same, when they have as
    many neighbours. None otherwise."""
    rows, cols, cells = view.rows, view.cols, view.cells
    r0, c0 = pos
    for r in range(max(0, r0 - 2), min(rows, r0 + 3)):
        if cells[r * cols + max(0, c0 - 2) : r * cols + min(cols, c0 + 3)].strip(".f"):
            return None
    return len(neighbour_table(rows, cols)[r0 * cols + c0])


def influenced(view: ViewLike, a: Analysis, skip: Set[Position], least: float) -> list[Candidate]:
    """Hill's extra candidates (``getInfluencedTiles`` of his JSMinesweeper), safest first: covered,
    live cells with a 50/50 influence (``ipyminesweeper.play.influence``) whose P(safe) plus
    influence / layouts exceeds :data:`INFLUENCED` times the best P(safe), however unsafe they are on
    their own. Only cells at least ``least`` safe are looked at, and none in ``skip`` or
    :func:`alike` one before it or in ``skip``."""
    cols, cells = view.cols, view.cells
    covered = {pos: p for pos, p in a.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."}
    cutoff = INFLUENCED * (1 - min(covered.values()))
    kinds = {alike(view, pos) for pos in skip} - {None}
    out = []
    for pos, p in sorted(covered.items(), key=lambda item: (round(item[1], 12), item[0])):
        if 1 - p < least:
            break
        # (the influence is at most the layouts where the cell is a mine, and those where it is safe)
        if pos in skip or 1 - p + min(p, 1 - p) <= cutoff:
            continue
        kind = alike(view, pos)
        if kind is not None and kind in kinds:
            continue
        influence = fifty_fifty_influence(view, a, pos)
        if influence and 1 - p + influence / a.layouts > cutoff:
            c = candidate(view, a, pos)
            if not c.dead:
                out.append(c)
                kinds.add(kind)
    return out


LONG_TERM = GuessRule(weighs=always)  # Hill's long-term risk at every guess
WIDE = GuessRule(weighs=never, more=influenced)  # Hill's wider candidates, exact's look-ahead (as measured)
UNWEIGHTED = GuessRule(weighs=never)  # the look-ahead alone


def exact_under(view: View, rule: GuessRule) -> Move:
    """``exact``'s move on ``view``, guessing under ``rule``."""
    found = settled(view)
    return found if isinstance(found, Move) else guess(view, found, rule)


def exact_long_term(view: View) -> Move:
    """``exact`` with Hill's long-term risk at every guess: each look-ahead score weighed by the
    cell's 50/50 influence (``ipyminesweeper.play.influence``), not only while the revealed cells are
    one region."""
    return exact_under(view, LONG_TERM)


def exact_wide(view: View) -> Move:
    """``exact`` as it played before 2026-11-26 (:data:`UNWEIGHTED`) with Hill's wider candidate set:
    cells that could be half of a later 50/50 are weighed too, with ``exact``'s own look-ahead
    (:func:`influenced`)."""
    return exact_under(view, WIDE)


def exact_unweighted(view: View) -> Move:
    """``exact`` as it played before 2026-11-26: the look-ahead never weighs by 50/50 influence
    (``exact`` weighs while the revealed cells are one region)."""
    return exact_under(view, UNWEIGHTED)
