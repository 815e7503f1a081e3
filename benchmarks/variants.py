"""Variants of ``exact`` that were measured and not adopted (``--strategy benchmarks.variants:NAME``).

Each changes one of the two seams of ``exact``'s look-ahead (:class:`GuessRule`): whether a score is
weighed by the cell's 50/50 influence, and which cells are weighed besides ``exact``'s candidates. Their
figures are in docs/research/exact.md. They live here, not in the package, so the product holds only
the rule it plays; ``tests/benchmarks/test_variants_*.py`` keep them working.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

from ipyminesweeper.engine import Position, View
from ipyminesweeper.engine.geometry import neighbour_table
from ipyminesweeper.solver import Analysis, ViewLike
from ipyminesweeper.strategies import Move
from ipyminesweeper.strategies.exact import settled
from ipyminesweeper.strategies.guess import (
    PROGRESS_BONUS,
    Candidate,
    Weighing,
    best_guess,
    candidate,
    candidates,
    early_guess,
    one_region,
)
from ipyminesweeper.strategies.influence import fifty_fifty_influence

__all__ = [
    "EXACT_RULE",
    "INFLUENCED",
    "LONG_TERM",
    "UNWEIGHTED",
    "WIDE",
    "GuessRule",
    "alike",
    "always",
    "exact_long_term",
    "exact_unweighted",
    "exact_wide",
    "influenced",
    "never",
    "weigh",
]

More = Callable[[ViewLike, Analysis, Set[Position], float], Sequence[Candidate]]
"""``more(view, analysis, skip, least)``: cells to weigh besides the candidates (``skip``), none less
safe than ``least`` (one less safe can neither win nor come near the best)."""


@dataclass(frozen=True)
class GuessRule:
    """The two seams of ``exact``'s look-ahead (step 4 of ``ipyminesweeper.strategies.guess``) that the
    variants change. ``weighs(view)``: whether each look-ahead score is weighed by the cell's 50/50
    influence, as Hill's solvers do (``exact`` weighs while the revealed cells are one region).
    ``more``: cells weighed after the candidates (``exact``: none)."""

    weighs: Callable[[ViewLike], bool] = one_region
    more: More | None = None


EXACT_RULE = GuessRule()
"""The rule ``exact`` plays (``ipyminesweeper.strategies.guess.weigh``)."""


def weigh(view: ViewLike, a: Analysis, rule: GuessRule = EXACT_RULE) -> list[Candidate]:
    """``ipyminesweeper.strategies.guess.weigh`` under ``rule``: the candidates weighed, best first, those
    dropped half-way last; then ``rule.more``'s cells."""
    weighing = Weighing(view, a, frozenset(r * view.cols + c for r, c in a.mines), rule.weighs(view))
    listed = candidates(view, a)
    for c in listed:
        weighing.consider(c)
    if rule.more is not None:
        # a cell scores at most its P(safe) (times the bonus and, weighted, its weight): one less safe
        # than this cannot win
        least = -1.0 if weighing.weighted else max(weighing.best, 0.0) / (1 + PROGRESS_BONUS)
        for c in rule.more(view, a, {c.pos for c in listed}, least):
            weighing.consider(c)
    return weighing.ranked()


def exact_under(view: View, rule: GuessRule) -> Move:
    """``exact``'s move on ``view``, guessing under ``rule``."""
    found = settled(view)
    if isinstance(found, Move):
        return found
    early = early_guess(view, found)
    return early if early is not None else best_guess(view, found, weigh(view, found, rule))


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
    live cells with a 50/50 influence (``ipyminesweeper.strategies.influence``) whose P(safe) plus
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


def exact_long_term(view: View) -> Move:
    """``exact`` with Hill's long-term risk at every guess: each look-ahead score weighed by the
    cell's 50/50 influence (``ipyminesweeper.strategies.influence``), not only while the revealed cells are
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
