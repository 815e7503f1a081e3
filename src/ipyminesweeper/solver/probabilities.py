"""Exact mine probabilities: components convolved over mine counts, interior by ``C(I, R)``.

Every mine layout consistent with the revealed numbers and the total mine count is equally likely.
With
components ``j`` of weights ``W_j[m]`` (layouts with ``m`` mines), ``I`` interior cells and ``M``
mines, the
number of consistent layouts is ``sum_k P[k] * C(I, M - k)`` where ``P`` is the product
(convolution) of the
``W_j``. All arithmetic is on Python ints; floats appear only in the final divisions.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import chain, combinations, filterfalse, product
from operator import attrgetter, mul
from typing import Any, NamedTuple

from ..engine.geometry import Position, format_position, neighbour_table
from . import binomials, sentences
from .binomials import binomial, binomials_down
from .closure import clear as clear_closure
from .components import Component, split
from .constraints import (
    Constraint,
    ConstraintSystem,
    InconsistentViewError,
    Propagated,
    ViewLike,
    clear_cache,
    read_view,
)
from .count import ComponentCount, count
from .deduce import Deductions, deduce_system
from .interior import Interior, Joined, Positions, Probabilities, lowest_risks
from .reasoner import propagate
from .sentences import ReasonsByCell

__all__ = [
    "Analysis",
    "analyse",
    "analyse_system",
    "certain_moves",
    "clear_caches",
    "probabilities",
]

Poly = list[int]
_BY_SOURCE = attrgetter("source")  # a Constraint's sort key


_EXACT = 2**53  # integers below this in size are exact as doubles


def _ratio(num: int, den: int) -> float:
    """``num / den``, correctly rounded in both builds. (The compiled build divides two integers below
    2**62 as doubles, each rounded first: wrong in the last digit above 2**53. Python divides integers
    with one rounding, so both builds give the same probabilities, and the same moves.)"""
    if -_EXACT < num < _EXACT and -_EXACT < den < _EXACT:
        return num / den  # both exact as doubles: one rounding
    big: Any = num  # Python's own division of integers
    return float(big / den)


def _mul(a: Poly, b: Poly) -> Poly:
    if not a or not b:
        return []
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def _trim(p: Poly) -> Poly:
    n = len(p)
    while n and not p[n - 1]:
        n -= 1
    return p[:n]


class _Revealed(NamedTuple):
    """A view with one more number (``x``), before it is assembled: the single-point rule's ``step``
    on the numbers that changed, the numbers ``kept`` as they were, every component's count (in
    :func:`~.components.split`'s order) and the cells no longer interior (``gone``)."""

    x: int
    step: Propagated
    kept: list[Constraint]
    counts: tuple[ComponentCount, ...]
    gone: set[int]


@dataclass(frozen=True)
class Analysis:
    """Everything the exact solver knows about a view, from one enumeration.

    ``probabilities`` covers every covered (or flagged) cell. ``safe``/``mines`` are the cells whose
    probability is exactly 0/1 (decided on integers); ``reasons`` explains each of them.
    ``layouts`` is the number of consistent mine layouts. Use :meth:`zero_probability` and
    :meth:`number_distribution` for tie-breaks; they reuse the stored counting tables.
    """

    rows: int
    cols: int
    total_mines: int
    probabilities: Probabilities
    safe: AbstractSet[Position]
    mines: AbstractSet[Position]
    reasons: Mapping[Position, str]
    layouts: int
    frontier: frozenset[Position]
    interior: AbstractSet[Position]
    _system: ConstraintSystem = field(repr=False, compare=False)
    _counts: tuple[ComponentCount, ...] = field(repr=False, compare=False)
    _where: Mapping[int, tuple[int, int]] = field(repr=False, compare=False)
    _weights: tuple[Poly, ...] = field(repr=False, compare=False)
    _all: Poly = field(repr=False, compare=False)
    _others: tuple[Poly, ...] = field(repr=False, compare=False)
    _interior_set: Interior = field(repr=False, compare=False)
    _fixed_safe: frozenset[int] = field(repr=False, compare=False)
    _fixed_mines: frozenset[int] = field(repr=False, compare=False)

    def __hash__(self) -> int:  # the mappings follow from the view, which these fields pin down
        return hash(
            (self.rows, self.cols, self.total_mines, self.layouts, self.safe, self.mines, self.frontier)
        )

    @property
    def deductions(self) -> Deductions:
        """The certain cells as a :class:`Deductions`."""
        return Deductions(self.safe, self.mines, self.reasons)

    def _index(self, pos: Position) -> int:
        r, c = pos
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(f"{format_position(pos)} is off the {self.rows}x{self.cols} board")
        i = r * self.cols + c
        if not (
            i in self._where or i in self._interior_set or i in self._fixed_safe or i in self._fixed_mines
        ):
            raise ValueError(f"{format_position(pos)} is not a covered cell")
        return i

    def number_distribution(self, pos: Position) -> tuple[float, ...]:
        """``P(pos is safe and would show k)``, ``k = 0..8``; sums to ``1 - P(pos is a mine)``."""
        counts = self.number_counts(pos)
        return tuple(_ratio(x, self.layouts) for x in counts)

    def layout_list(self, limit: int) -> tuple[tuple[int, ...], tuple[frozenset[int], ...]] | None:
        """Every mine layout that fits the view, or None if there are more than ``limit``.

        Returns the covered cells that are not known mines (flat indices; the known mines are in
        every layout, so they are left out) and, for each layout, its mines among those cells.
        Listed from the same counting tables as the probabilities, so there are ``layouts`` of them.
        """
        if self.layouts > limit:
            return None
        parts: list[list[tuple[int, frozenset[int]]]] = []
        for cc in self._counts:
            listed: list[tuple[int, frozenset[int]]] = []
            for layout in _component_layouts(cc):
                listed.append(layout)
                if len(listed) > 32 * limit:
                    return None  # component layouts that mostly do not fit the mine count
            parts.append(listed)
        mines = self._system.mines
        partial: list[tuple[int, frozenset[int]]] = [(0, frozenset())]
        for listed in parts:
            partial = [(m + k, cells | more) for m, cells in partial for k, more in listed if m + k <= mines]
            if len(partial) > 32 * limit:
                return None
        interior = sorted(self._interior_set)
        out: list[frozenset[int]] = []
        for m, cells in partial:
            for pick in combinations(interior, mines - m):
                out.append(cells | frozenset(pick))
        unknown = tuple(sorted({*self._where, *interior, *self._fixed_safe}))
        return unknown, tuple(out)

    def isolated_regions(self, limit: int) -> list[tuple[tuple[int, ...], tuple[frozenset[int], ...]]]:
        """The closed-off parts of the frontier, each as its cells and every layout of it.

        A component is *isolated* when every layout of it that fits the mine count holds the same
        number of mines, and no cell of it has a covered neighbour outside it other than a known
        mine (one the numbers alone decide, single-point, before counting; a cell that only the
        count makes a mine is not taken as known, which errs on the safe side). Then nothing
        revealed elsewhere, and not the mine count, can tell its layouts apart: they stay equally
        likely until its own cells are revealed, so it is a game of its own. Components with one
        layout, or more than ``limit``, are left out; the fewest layouts first.
        """
        system = self._system
        table = neighbour_table(system.rows, system.cols)
        size = sum(cc.size for cc in self._counts)
        interior_ways = _interior_layouts(len(self._interior_set), system.mines, size)
        found: list[tuple[int, int, tuple[int, ...], tuple[frozenset[int], ...]]] = []
        for j, cc in enumerate(self._counts):
            rest = _rest_weights(self._others[j], interior_ways, cc.size)
            fits = [m for m, w in enumerate(cc.weights) if w and rest[m]]
            if len(fits) != 1 or not 1 < cc.weights[fits[0]] <= limit:
                continue
            cells = frozenset(chain.from_iterable(cc.component.boxes))
            if any(
                y not in cells
                and y not in self._fixed_mines
                and (y in self._where or y in self._interior_set or y in self._fixed_safe)
                for x in cells
                for y in table[x]
            ):
                continue
            layouts = tuple(mines for m, mines in _component_layouts(cc) if m == fits[0])
            found.append((len(layouts), j, tuple(sorted(cells)), layouts))
        found.sort(key=lambda f: f[:2])
        return [(cells, layouts) for _, _, cells, layouts in found]

    def layouts_with(self, mines: Iterable[Position] = (), safe: Iterable[Position] = ()) -> int:
        """How many of the :attr:`layouts` put a mine on every cell of ``mines`` and none on ``safe``.

        Exact, from the stored counting tables: only the components holding one of the cells are
        counted again, with those cells fixed. Raises ``ValueError`` for a cell that is not covered.
        """
        system = self._system
        want_mine = {self._index(p) for p in mines}
        want_safe = {self._index(p) for p in safe}
        if want_mine & want_safe or want_mine & self._fixed_safe or want_safe & self._fixed_mines:
            return 0
        fixed: dict[int, dict[int, list[int]]] = {}  # component: box: [forced mines, forced safe]
        inner = [0, 0]  # interior cells forced to be mines, to be safe
        for side, cells in enumerate((want_mine, want_safe)):
            for x in cells:
                if x in self._where:
                    j, b = self._where[x]
                    fixed.setdefault(j, {}).setdefault(b, [0, 0])[side] += 1
                elif x in self._interior_set:
                    inner[side] += 1
        if not fixed and not any(inner):
            return self.layouts
        touched: Poly = [1]
        for j, boxes in fixed.items():
            cc = self._counts[j]
            terms: dict[int, list[list[tuple[int, int]]]] = {}
            for b, (f, g) in boxes.items():
                n = cc.sizes[b]
                terms[b] = [
                    [(0, binomial(n - f - g, k - f))] if f <= k <= n - g else [] for k in range(n + 1)
                ]
            table = cc.number_table(terms)
            touched = _mul(touched, [row[0] for row in table])
        if len(fixed) == 0:
            untouched = self._all
        elif len(fixed) == 1:
            untouched = self._others[next(iter(fixed))]
        else:
            untouched = [1]
            for j, wj in enumerate(self._weights):
                if j not in fixed:
                    untouched = _mul(untouched, wj)
        rest = _mul(touched, untouched)  # frontier layouts by mine count
        free = len(system.interior) - inner[0] - inner[1]
        left = system.mines - inner[0]
        return sum(w * binomial(free, left - m) for m, w in enumerate(rest) if w)

    def after_reveal(self, pos: Position, number: int) -> Analysis:
        """The analysis of this view with the covered cell ``pos`` revealed, showing ``number``.

        The same as :func:`analyse` of that view with ``explain=False`` (no reasons), worked out from
        this analysis: its constraints with the decided cells taken out, and its counting tables. Only
        the components the new number touches or joins, or whose numbers the single-point rule then
        changes, are split and counted again; the cells already decided stay decided. Raises
        ``InconsistentViewError`` if no layout fits that view, ``ValueError`` if ``pos`` is not covered.
        """
        got = self._revealed(pos, number)
        system, step, x = self._system, got.step, got.x
        where, cols = self._where, system.cols
        after = replace(
            step.system,
            constraints=tuple(sorted([*got.kept, *step.system.constraints], key=_BY_SOURCE)),
            frontier=frozenset((where.keys() | got.gone) - {x} - step.safe - step.mines),
        )
        around = _neighbours(system, x)
        decided = self._fixed_mines | self._fixed_safe
        covered = [j for j in around if j in where or j in self._interior_set or j in decided]
        return _assemble(
            Propagated(after, (self._fixed_safe - {x}) | step.safe, self._fixed_mines | step.mines),
            tuple(cc.component for cc in got.counts),
            got.counts,
            (self.frontier - {pos}) | {divmod(j, cols) for j in covered},
            self.total_mines,
            None,
        )

    def next_risks(self, pos: Position, number: int, view: str, how_many: int) -> list[float] | None:
        """``after_reveal(pos, number)``'s ``probabilities.lowest(view, how_many)``, or None if it proves a
        covered cell of ``view`` (this view with ``pos`` showing ``number``) safe; what the
        autoplayer's look-ahead asks for every number a cell could show, without the analysis."""
        got = self._revealed(pos, number)
        step = got.step
        if any(view[j] in ".f" for j in chain(self._fixed_safe - {got.x}, step.safe)):
            return None
        system = step.system
        _, full, others, interior_ways, layouts = _layouts(
            system, got.counts, len(self._fixed_mines | step.mines), self.total_mines
        )
        listed = [1.0 for j in chain(self._fixed_mines, step.mines) if view[j] == "."]
        for j, cc in enumerate(got.counts):
            nums = cc.box_numerators(_rest_weights(others[j], interior_ways, cc.size))
            for b, cells in enumerate(cc.component.boxes):
                if nums[b] == 0:
                    return None  # (every cell of a component is covered)
                p = _ratio(nums[b], cc.sizes[b] * layouts)
                listed += [p for cell in cells if view[cell] == "."]
        inner = len(system.interior)
        inner_p, inner_safe, _ = _interior_probability(full, interior_ways, system.mines, inner, layouts)
        if inner_safe:
            return None
        return lowest_risks(listed, view.count(".") - len(listed), inner_p, how_many)

    def _revealed(self, pos: Position, number: int) -> _Revealed:
        """This view with ``pos`` showing ``number``, the touched numbers propagated and counted again."""
        x = self._index(pos)
        system = self._system
        around = _neighbours(system, x)
        where, inner, fixed_mines = self._where, self._interior_set, self._fixed_mines
        open_ = [j for j in around if j in where or j in inner]  # undecided neighbours
        value = number - sum(1 for j in around if j in fixed_mines)
        if x in fixed_mines or not 0 <= value <= len(open_):
            raise InconsistentViewError(f"no layout fits a {number} at {format_position(pos)}")
        # The components that change hold x or a neighbour of it. No other: what the single-point
        # rule decides next lies in the numbers that changed, all in those components (or the new
        # number, whose cells are theirs or were interior), and so on.
        touched = {where[c][0] for c in (x, *open_) if c in where}
        sources = {s for j in touched for _, _, s in self._counts[j].component.constraints}
        kept, redo = _split_numbers(system.constraints, sources, x)
        if open_:
            redo.insert(bisect([con.source for con in redo], x), Constraint(x, value, tuple(open_)))
        gone = {x, *open_}  # no longer interior
        step = propagate(  # the single-point rule on the touched numbers (the others decide nothing new)
            ConstraintSystem(
                system.rows,
                system.cols,
                system.mines,
                tuple(filterfalse({x}.__contains__, system.covered)),
                tuple(redo),
                frozenset(),  # (not read)
                system.interior.without(gone),
            )
        )
        counts = [cc for j, cc in enumerate(self._counts) if j not in touched]
        counts += map(count, split(step.system))
        counts.sort(key=lambda cc: cc.component.boxes[0][0])  # split's order: by the smallest cell
        return _Revealed(x, step, kept, tuple(counts), gone)

    def zero_probability(self, pos: Position) -> float:
        """``P(pos and all its neighbours are safe)``: the chance that ``pos`` shows a 0."""
        return _ratio(self.number_counts(pos, zero_only=True)[0], self.layouts)

    def _around(self, x: int) -> tuple[dict[int, dict[int, tuple[int, int]]], int, int, int]:
        """Where the cell ``x`` and its covered neighbours are: per component and box, ``(1 if x is in
        the box, neighbours in the box)``; then whether x is interior, how many neighbours are, and
        how many are decided mines."""
        touched: dict[int, dict[int, tuple[int, int]]] = {}
        x_interior = nbr_interior = shift = 0
        where, inner = self._where, self._interior_set
        if x in where:
            j, b = where[x]
            touched.setdefault(j, {})[b] = (1, 0)
        elif x in inner:
            x_interior = 1
        for y in _neighbours(self._system, x):
            if y in where:
                j, b = where[y]
                xin, s = touched.setdefault(j, {}).get(b, (0, 0))
                touched[j][b] = (xin, s + 1)
            elif y in inner:
                nbr_interior += 1
            elif y in self._fixed_mines:
                shift += 1
        return touched, x_interior, nbr_interior, shift

    def number_counts(self, pos: Position, *, zero_only: bool = False) -> tuple[int, ...]:
        """Integer :meth:`number_distribution`: layouts where ``pos`` is safe and shows ``k``."""
        system = self._system
        x = self._index(pos)
        if x in self._fixed_mines:
            return (0,) * 9
        touched, x_interior, nbr_interior, shift = self._around(x)
        # untouched components: their plain weights
        untouched: Poly = [1]
        if len(touched) == 0:
            untouched = self._all
        elif len(touched) == 1:
            untouched = self._others[next(iter(touched))]
        else:
            for j, wj in enumerate(self._weights):
                if j not in touched:
                    untouched = _mul(untouched, wj)
        # table[m][a]: layouts of the touched components with m mines, a of them next to x (x safe)
        table: list[Poly] = [[1]]
        for j, boxes in touched.items():
            table = _mul2(table, _component_table(self._counts[j], boxes, zero_only))
        free = len(system.interior) - x_interior - nbr_interior
        mines = system.mines
        spread = [(i, w) for i, w in enumerate(untouched) if w]
        # ways[t]: layouts of the untouched components and the free interior cells when the touched
        # components and x's interior neighbours hold t mines
        top = len(table) + nbr_interior
        free_ways = _interior_layouts(free, mines, top + len(untouched) - 1)
        ways = [sum(w * free_ways[t + i] for i, w in spread) for t in range(top)]
        out = [0] * 9
        for m, row in enumerate(table):
            for a, w in enumerate(row):
                if not w:
                    continue
                if zero_only:
                    if a == 0 and not shift:
                        out[0] += w * ways[m]
                    continue
                for ai in range(nbr_interior + 1):
                    k = shift + a + ai
                    if k <= 8:
                        out[k] += w * binomial(nbr_interior, ai) * ways[m + ai]
        return tuple(out)


def _split_numbers(
    constraints: tuple[Constraint, ...], sources: set[int], x: int
) -> tuple[list[Constraint], list[Constraint]]:
    """The numbers of the components that do not change, and those of the ones that do (from
    ``sources``), the cell ``x``, now safe, taken out of the numbers it was next to."""
    kept, redo = [], []
    for con in constraints:
        if con.source not in sources:
            kept.append(con)
        elif x in con.cells:
            redo.append(Constraint(con.source, con.value, tuple(c for c in con.cells if c != x)))
        else:
            redo.append(con)
    return kept, redo


def _component_layouts(cc: ComponentCount) -> Iterator[tuple[int, frozenset[int]]]:
    """Every layout of a component: how many mines, and which cells hold them."""
    boxes = cc.component.boxes
    for ks in cc.solutions():
        choices = [combinations(box, k) for box, k in zip(boxes, ks, strict=True)]
        for picked in product(*choices):
            yield sum(ks), frozenset(chain.from_iterable(picked))


def _neighbours(system: ConstraintSystem, i: int) -> tuple[int, ...]:
    return neighbour_table(system.rows, system.cols)[i]


def _mul2(a: list[Poly], b: list[Poly]) -> list[Poly]:
    """Product of two polynomials in (m, a) stored as ``p[m][a]``."""
    if not a or not b:
        return []
    out: list[Poly] = [[] for _ in range(len(a) + len(b) - 1)]
    for i, ra in enumerate(a):
        for j, rb in enumerate(b):
            if not ra or not rb:
                continue
            prod = _mul(ra, rb)
            row = out[i + j]
            if len(row) < len(prod):
                row.extend([0] * (len(prod) - len(row)))
            for k, v in enumerate(prod):
                row[k] += v
    return out


def _component_table(cc: ComponentCount, boxes: Mapping[int, tuple[int, int]], zero_only: bool) -> list[Poly]:
    """``t[m][a]``: component layouts with ``m`` mines, ``a`` of them next to x, x not a mine.

    ``boxes[b] = (1 if x is in box b, number of x's neighbours in box b)``.
    """
    terms: dict[int, list[list[tuple[int, int]]]] = {}
    for b, (xin, s) in boxes.items():
        n = cc.sizes[b]
        rest = n - xin - s
        if zero_only:
            terms[b] = [[(0, binomial(rest, k))] for k in range(n + 1)]
        else:
            terms[b] = [
                [(a, binomial(s, a) * binomial(rest, k - a)) for a in range(min(s, k) + 1)]
                for k in range(n + 1)
            ]
    return cc.number_table(terms)


@lru_cache(maxsize=64)
def _interior_layouts(interior: int, mines: int, size: int) -> tuple[int, ...]:
    """``C(interior, mines - t)`` for ``t = 0..size``: the ways to place the mines the frontier leaves
    on the cells away from it. Cached: successive views (and a look-ahead's hypotheses) share them."""
    return binomials_down(interior, mines, size + 1)


def _rest_weights(others: Poly, interior_ways: Sequence[int], size: int) -> list[int]:
    """``R(m) = sum_k others[k] * C(I, M - m - k)`` for ``m = 0..size``.

    ``interior_ways[t] = C(I, M - t)``, long enough for every ``m + k``.
    """
    out = []
    terms = [(k, w) for k, w in enumerate(others) if w]
    for m in range(size + 1):
        out.append(sum(w * interior_ways[m + k] for k, w in terms))
    return out


def analyse_system(system: ConstraintSystem, *, explain: bool = True) -> Analysis:
    """:func:`analyse` on constraints already read."""
    propagated = propagate(system)
    components = split(propagated.system)
    counts = tuple(count(comp) for comp in components)
    return _assemble(
        propagated,
        components,
        counts,
        frozenset(map(_positions(system.cols), system.frontier)),
        system.mines,
        system if explain else None,
    )


def _assemble(
    propagated: Propagated,
    components: tuple[Component, ...],
    counts: tuple[ComponentCount, ...],
    frontier: frozenset[Position],
    total_mines: int,
    original: ConstraintSystem | None,
) -> Analysis:
    """The :class:`Analysis` of a view from its propagated constraints, their components (in
    :func:`~.components.split`'s order) and the components' counts. ``frontier``: the view's covered
    cells next to a number; ``original``: the view's constraints, to word reasons (None: no reasons)."""
    system = propagated.system
    weights, full, others, interior_ways, layouts = _layouts(
        system, counts, len(propagated.mines), total_mines
    )
    interior = len(system.interior)
    cells = _Listing(_positions(system.cols), propagated)
    for j, cc in enumerate(counts):
        cells.add(j, cc, cc.box_numerators(_rest_weights(others[j], interior_ways, cc.size)), layouts)
    inner = Positions(system.interior, system.cols)  # one value, never listed: see interior.py
    inner_p, inner_safe, inner_mines = _interior_probability(
        full, interior_ways, system.mines, interior, layouts
    )
    safe_at = frozenset(map(cells.pos, cells.safe))
    mines_at = frozenset(map(cells.pos, cells.mines))
    reasons: Mapping[Position, str] = {}
    if original is not None:
        reasons = ReasonsByCell(
            sorted(safe_at | mines_at),
            _Reasons(original, components, counts, cells.certain_boxes, cells.safe, inner_safe).reason,
            inner if inner_safe or inner_mines else frozenset(),
        )
    return Analysis(
        rows=system.rows,
        cols=system.cols,
        total_mines=total_mines,
        probabilities=Probabilities(cells.listed, inner, inner_p),
        safe=Joined(safe_at, inner) if inner_safe else safe_at,
        mines=Joined(mines_at, inner) if inner_mines else mines_at,
        reasons=reasons,
        layouts=layouts,
        frontier=frontier,
        interior=inner,
        _system=system,
        _counts=counts,
        _where=cells.where,
        _weights=weights,
        _all=full,
        _others=others,
        _interior_set=system.interior,
        _fixed_safe=propagated.safe,
        _fixed_mines=propagated.mines,
    )


def _layouts(
    system: ConstraintSystem, counts: tuple[ComponentCount, ...], fixed_mines: int, total_mines: int
) -> tuple[tuple[Poly, ...], Poly, tuple[Poly, ...], tuple[int, ...], int]:
    """The components' weights, their product, each one's product of the others', ``C(I, M - t)`` and
    the number of layouts of ``system`` (whose numbers ``counts`` counted, ``fixed_mines`` mines
    decided before). Raises ``InconsistentViewError`` if there is none."""
    for cc in counts:
        if not cc.consistent:
            raise InconsistentViewError(_contradiction(system, cc.component))
    weights = tuple(_trim(list(cc.weights)) for cc in counts)
    full, others = _products(weights)
    interior = len(system.interior)
    interior_ways = _interior_layouts(interior, system.mines, sum(cc.size for cc in counts))
    layouts = sum(map(mul, full, interior_ways))  # full[k] * C(I, M - k)
    if layouts == 0:
        raise InconsistentViewError(_wrong_mine_count(full, fixed_mines, interior, total_mines))
    return weights, full, others, interior_ways, layouts


def _interior_probability(
    full: Poly, interior_ways: Sequence[int], mines: int, interior: int, layouts: int
) -> tuple[float, bool, bool]:
    """The probability of a mine on each of the ``interior`` cells, and whether it is 0 or 1 exactly
    (decided on integers). ``interior_ways[t] = C(I, M - t)``; ``full``: the frontier's weights."""
    if not interior:
        return 0.0, False, False
    # layouts with a mine on a given interior cell: sum of full[k] * C(I - 1, M - k - 1), where
    # C(I - 1, m - 1) = C(I, m) * m / I (each term is divisible by I)
    num = sum(w * interior_ways[k] * (mines - k) for k, w in enumerate(full)) // interior
    return _ratio(num, layouts), num == 0, num == layouts


def _products(weights: tuple[Poly, ...]) -> tuple[Poly, tuple[Poly, ...]]:
    """The product of the components' weights (layouts of the frontier by mine count), and for each
    component the product of all the others' (prefix and suffix products: no division)."""
    n = len(weights)
    prefix: list[Poly] = [[1]]
    for w in weights:
        prefix.append(_mul(prefix[-1], w))
    suffix: list[Poly] = [[1]] * (n + 1)
    for j in range(n - 1, -1, -1):
        suffix[j] = _mul(weights[j], suffix[j + 1])
    return prefix[-1], tuple(_mul(prefix[j], suffix[j + 1]) for j in range(n))


def _wrong_mine_count(full: Poly, fixed: int, interior: int, total_mines: int) -> str:
    """Why no layout fits: the numbers need more or fewer mines than the view has."""
    lo = next(k for k, w in enumerate(full) if w)
    hi = len(full) - 1
    return (
        f"the numbers need between {lo + fixed} and {hi + fixed} mines on the cells next to"
        f" them, and the {interior} other covered cells can hold {interior} more, but the view"
        f" has {total_mines} mines"
    )


class _Listing:
    """The listed cells of an analysis as it is assembled: each one's probability, the cells decided
    safe or mines, where each component's cell is (component, box), and the boxes decided whole."""

    def __init__(self, pos: Callable[[int], Position], propagated: Propagated) -> None:
        self.pos = pos
        self.listed: dict[Position, float] = dict.fromkeys(map(pos, propagated.safe), 0.0)
        self.listed.update(dict.fromkeys(map(pos, propagated.mines), 1.0))
        self.safe: set[int] = set(propagated.safe)
        self.mines: set[int] = set(propagated.mines)
        self.where: dict[int, tuple[int, int]] = {}
        self.certain_boxes: list[tuple[int, int, bool]] = []  # (component, box, safe?)

    def add(self, j: int, cc: ComponentCount, nums: list[int], layouts: int) -> None:
        """Component ``j``'s cells, ``nums[b]`` of the ``layouts`` having a mine in box ``b``."""
        pos, listed, where = self.pos, self.listed, self.where
        for b, cells in enumerate(cc.component.boxes):
            num = nums[b]
            nb = cc.sizes[b]
            p = _ratio(num, nb * layouts)
            for cell in cells:
                where[cell] = (j, b)
                listed[pos(cell)] = p
            if num == 0 or num == nb * layouts:
                (self.safe if num == 0 else self.mines).update(cells)
                self.certain_boxes.append((j, b, num == 0))


def _positions(cols: int) -> Callable[[int], Position]:
    """Flat index -> ``(row, col)`` on a grid ``cols`` wide (no table of the board: the work is the cells
    asked for)."""
    return lambda index: divmod(index, cols)


class _Reasons:
    """The reason of each certain cell (:meth:`reason`), worded when first asked for: how each certain
    cell was decided is worked out once, when the first reason is read (``safe``: the certain safe cells
    outside the interior; ``interior_safe``: whether the interior's cells are)."""

    def __init__(
        self,
        original: ConstraintSystem,
        components: tuple[Component, ...],
        counts: tuple[ComponentCount, ...],
        certain_boxes: list[tuple[int, int, bool]],
        safe: set[int],
        interior_safe: bool,
    ) -> None:
        self.original, self.components, self.counts = original, components, counts
        self.certain_boxes, self.safe, self.interior_safe = certain_boxes, safe, interior_safe
        self.how: dict[int, tuple[bool, int]] | None = None
        self.quick: Mapping[Position, str] = {}

    def how_decided(self) -> dict[int, tuple[bool, int]]:
        """Per certain cell: (needed the mine count?, component); the fast rules' reasons in ``quick``."""
        if self.how is not None:
            return self.how
        how: dict[int, tuple[bool, int]] = {}
        local: dict[int, list[int]] = {}
        for j, b, is_safe in self.certain_boxes:
            cc = self.counts[j]
            if j not in local:  # certain from the numbers alone?
                local[j] = cc.box_numerators([1] * (cc.size + 1))
            n = local[j][b]
            from_numbers = n == 0 if is_safe else n == cc.sizes[b] * sum(cc.weights)
            for cell in cc.component.boxes[b]:
                how[cell] = (not from_numbers, j)
        self.quick = deduce_system(self.original).reasons
        self.how = how
        return how

    def reason(self, p_: Position) -> str:
        how = self.how_decided()
        cell = p_[0] * self.original.cols + p_[1]
        found = self.quick.get(p_)
        if found:
            return found
        is_safe = cell in self.safe or (self.interior_safe and cell in self.original.interior)
        return _exact_reason(self.original, self.components, how, cell, is_safe)


def _contradiction(system: ConstraintSystem, comp: Component) -> str:
    return sentences.contradiction([system.pos(s) for s in sorted(s for _, _, s in comp.constraints)])


def _exact_reason(
    system: ConstraintSystem,
    components: tuple[Component, ...],
    how: Mapping[int, tuple[bool, int]],
    cell: int,
    is_safe: bool,
) -> str:
    pos = system.pos(cell)
    if cell in system.frontier and cell not in how:  # decided by propagation (deduce explains it)
        return sentences.decided(pos, not is_safe, sentences.no_other_choice())
    if cell not in how:  # interior cell: only the mine count decides it
        return sentences.decided(pos, not is_safe, sentences.interior(not is_safe, system.mines))
    global_count, j = how[cell]
    sources = sorted(s for _, _, s in components[j].constraints)
    touching = [s for s in sources if cell in _cells_of(system, s)]
    rest = [s for s in sources if s not in touching]
    numbers = [system.pos(s) for s in touching + rest]
    total = system.mines if global_count else None
    return sentences.decided(pos, not is_safe, sentences.every_layout(not is_safe, numbers, total))


def _cells_of(system: ConstraintSystem, source: int) -> tuple[int, ...]:
    for con in system.constraints:
        if con.source == source:
            return con.cells
    return ()


def analyse(view: ViewLike, *, explain: bool = True) -> Analysis:
    """Exact analysis of ``view`` in one enumeration: probabilities, certain cells, reasons.

    Raises ``InconsistentViewError`` if no mine layout fits the view. ``explain=False`` skips the
    reasons
    (slightly faster).
    """
    return analyse_system(read_view(view), explain=explain)


def probabilities(view: ViewLike) -> dict[Position, float]:
    """Exact probability that each covered (or flagged) cell of ``view`` is a mine.

    Every mine layout consistent with the revealed numbers and the total mine count ``view.mines``
    is taken
    as equally likely; player flags are not trusted. Raises ``InconsistentViewError`` if none
    exists.
    """
    return dict(analyse_system(read_view(view), explain=False).probabilities)


def certain_moves(view: ViewLike, *, complete: bool = False) -> Deductions:
    """Cells that are certainly safe or certainly mines, with reasons.

    The fast rules (:func:`deduce`) first; if they find no safe cell, the exact analysis, which
    finds every cell of probability exactly 0 or 1. So ``safe`` is empty only if no cell is
    certainly safe. With ``complete=True`` the result is always every certain cell.
    """
    system = read_view(view)
    quick = deduce_system(system)
    if quick.safe and not complete:
        return quick
    return analyse_system(system).deductions


def clear_caches() -> None:
    """Forget the kept view readings and closure, and the component counts (for benchmarks measuring
    cold calls)."""
    clear_cache()
    clear_closure()
    count.cache_clear()
    _interior_layouts.cache_clear()
    binomials.clear()
