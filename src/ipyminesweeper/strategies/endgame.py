"""The exact endgame: when few mine layouts remain, search every sequence of reveals.

With the layouts listed (:meth:`~ipyminesweeper.solver.Analysis.layout_list`), revealing a cell splits
them by the number the cell would show. The chance of winning from a set of layouts is the best, over
the cells, of the chance that the cell is safe times the chance of winning from each part. Sets of
layouts are memoised; the search stops (and gives no answer) once it has done a fixed amount of work,
so a move never takes long.

The same search solves an *isolated region* long before the endgame
(:meth:`~ipyminesweeper.solver.Analysis.isolated_regions`): a closed-off part of the frontier whose
layouts nothing else can tell apart is a game of its own, searched through its own layouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Position
from ..engine.geometry import neighbour_table
from ..solver import Analysis, ViewLike

__all__ = [
    "ENDGAME_LAYOUTS",
    "ENDGAME_WORK",
    "Endgame",
    "best_endgame_move",
    "best_region_move",
    "search_layouts",
]

ENDGAME_LAYOUTS = 1000  # search when at most this many layouts fit the view
ENDGAME_WORK = 300_000  # (cell, layout) pairs examined before the search gives up


@dataclass(frozen=True)
class Endgame:
    """The search's choice: reveal ``pos`` (a mine with ``probability``), winning (the game, or the
    region of ``cells`` covered cells) with ``win``, out of ``layouts`` equally likely layouts."""

    pos: Position
    probability: float
    win: float
    layouts: int
    cells: int


class _OutOfWork(Exception):
    pass


def best_endgame_move(
    view: ViewLike, analysis: Analysis, limit: int = ENDGAME_LAYOUTS, work: int = ENDGAME_WORK
) -> Endgame | None:
    """The reveal that maximises the chance of winning from ``view`` (analysed as ``analysis``), if at
    most ``limit`` layouts fit and the search finishes within ``work``; else None. Ties go to the
    safer cell, then reading order."""
    found = analysis.layout_list(limit)
    if found is None or len(found[1]) < 2:
        return None
    return search_layouts(view, found[0], found[1], work)


def best_region_move(
    view: ViewLike, analysis: Analysis, limit: int = ENDGAME_LAYOUTS, work: int = ENDGAME_WORK
) -> Endgame | None:
    """The reveal that maximises the chance of solving an isolated region of ``view`` (analysed as
    ``analysis``) of at most ``limit`` layouts: the region with the fewest whose search finishes
    within ``work`` (each region gets its own budget); else None."""
    for region, layouts in analysis.isolated_regions(limit):
        found = search_layouts(view, region, layouts, work)
        if found is not None:
            return found
    return None


def search_layouts(
    view: ViewLike,
    unknown: tuple[int, ...],
    layouts: tuple[frozenset[int], ...],
    work: int = ENDGAME_WORK,
) -> Endgame | None:
    """The reveal among ``unknown`` (flat indices of ``view``) most likely to tell apart, safely, which
    of the equally likely ``layouts`` (the mines among ``unknown``) is the true one. Every covered
    cell next to one of ``unknown`` and not in it must be a known mine. None if no reveal can help or
    the search needs more than ``work``."""
    if len(layouts) < 2:
        return None
    search = _Search(unknown, _numbers_shown(view, unknown, layouts), work)
    n = len(layouts)
    everything = (1 << n) - 1
    choice: tuple[int, int, int] | None = None
    try:
        # safest first, so the bound in wins() prunes early
        for x, where in sorted(search.cells, key=lambda c: (-c[1].bit_count(), c[0])):
            safe = where.bit_count()
            if safe <= (0 if choice is None else choice[0]):
                continue  # cannot beat the best even if it won every time
            parts = search.split(x, everything)
            if parts is None:
                continue
            key = (sum(map(search.wins, parts)), safe, -x)
            if choice is None or key > choice:
                choice = key
    except _OutOfWork:
        return None
    if choice is None:
        return None
    won, safe, x = choice
    return Endgame(divmod(-x, view.cols), (n - safe) / n, won / n, n, len(unknown))


def _numbers_shown(
    view: ViewLike, unknown: tuple[int, ...], layouts: tuple[frozenset[int], ...]
) -> dict[int, tuple[int, ...]]:
    """For each cell ``x`` of ``unknown``, and each number it can show, the layouts where ``x`` is safe
    and shows it, as a bit mask (bit ``i``: ``layouts[i]``). Covered cells next to ``x`` outside
    ``unknown`` are the known mines."""
    cells = view.cells
    table = neighbour_table(view.rows, view.cols)
    loose_cells = set(unknown)
    shows: dict[int, tuple[int, ...]] = {}
    for x in unknown:
        near = [j for j in table[x] if cells[j] in ".f"]
        fixed = sum(1 for j in near if j not in loose_cells)
        loose = [j for j in near if j in loose_cells]
        by_number: dict[int, int] = {}
        for i, lay in enumerate(layouts):
            if x not in lay:
                k = fixed
                for j in loose:  # a loop, not sum() over a generator per layout (see benchmarks-history.md)
                    if j in lay:
                        k += 1
                by_number[k] = by_number.get(k, 0) | 1 << i
        shows[x] = tuple(by_number.values())
    return shows


class _Search:
    """The search over sets of layouts (bit masks), memoised, within a budget of work. (A class, not
    nested functions: those, recursive, would sit in a reference cycle with their memo until the
    garbage collector ran.)"""

    def __init__(self, unknown: tuple[int, ...], shows: dict[int, tuple[int, ...]], work: int) -> None:
        self.shows = shows
        # each cell with the layouts where it is safe (its masks are disjoint: their sum is their union)
        self.cells = [(x, sum(shows[x])) for x in unknown]
        self.budget = work
        self.memo: dict[int, int] = {}

    def split(self, x: int, ids: int) -> list[int] | None:
        """The layouts of ``ids`` where ``x`` is safe, grouped by the number it shows; None if that
        tells nothing (``x`` is safe in all of them and shows one number)."""
        parts = [part for m in self.shows[x] if (part := m & ids)]
        return None if len(parts) == 1 and parts[0] == ids else parts

    def wins(self, ids: int) -> int:
        """How many of the layouts ``ids`` the best play wins: they are equally likely, so the
        counts are exact and ties are ties. Raises ``_OutOfWork`` when the budget is spent."""
        n = ids.bit_count()
        if n == 1:
            return 1
        got = self.memo.get(ids)
        if got is not None:
            return got
        self.budget -= len(self.cells) * n
        if self.budget < 0:
            raise _OutOfWork
        best = 0
        for x, where in self.cells:
            # a cell safe in no more layouts than the best wins cannot beat it, even winning every
            # time: most cells, once a good one is found, and one AND says so, before any split
            if (ids & where).bit_count() <= best:
                continue
            parts = self.split(x, ids)
            if parts is None:
                continue
            w = sum(map(self.wins, parts))
            if w > best:
                best = w
                if best == n:
                    break  # every layout won: no cell can do better (the skip above says so)
        self.memo[ids] = best
        return best
