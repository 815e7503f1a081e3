"""Exact counting of a component's solutions by number of mines (dynamic programming over boxes).

A solution gives every box ``b`` a mine count ``k_b`` (``0 <= k_b <= n_b``) so that every number sees
exactly its value; it stands for ``prod C(n_b, k_b)`` layouts of cells. Boxes are taken in an order that
closes numbers early. After the first ``i`` boxes, what matters for the rest is only how many mines each
*open* number (one touching boxes on both sides of ``i``) still needs: those needs, packed into one
integer a few bits each, are the DP state, and partial assignments reaching the same state are merged,
their layouts tallied by mine count as a polynomial. So the cost grows with the number of states (small
for frontiers, which are long and thin), not with the number of solutions.

- the forward pass gives ``weights[m]``, the number of layouts of the component with ``m`` mines;
- a backward pass, with the weight ``rest[m]`` of everything outside the component folded in, gives for
  every box the number of (global) layouts with a mine on a given cell of the box;
- a forward pass with other per-box weights answers questions about one cell's neighbourhood
  (``number_table``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from operator import mul

from .components import Component

__all__ = ["ComponentCount", "count"]

Poly = list[int]
State = int
"""What the open numbers still need, packed: each number's need in a field of the state's bits (the
fields' places are fixed by the step). An int, not a tuple: no tuple to build or hash per state."""
Layer = tuple[tuple[State, int, tuple[int, ...]], ...]
"""A forward layer as kept: each state with its polynomial (layouts by mines so far) as ``start`` and
the entries from there (the ones before are zeros: fewer mines than the state allows)."""
Bounds = tuple[int, ...]
"""What each state of a layer allows at the next step, flat: ``lo, hi, base`` of the first state (the
range of mines the step's box can hold from it, and the next state with no mine in the box, from
which ``k`` mines take ``k * minus``), then of the second, ... (one tuple per layer, not one per
state: the garbage collector has a few objects to look at, not one per state of every component
kept). Its two readers index it in place: a shared reader, ``zip(it, it, it)`` over one iterator, made
both builds slower (mypyc boxes what it unpacks; docs/research/benchmarks-history.md has the counts)."""
# terms[k]: (shift, coefficient) pairs a box holding k mines contributes
Terms = Sequence[Sequence[tuple[int, int]]]
TABLE_WIDTH = 9  # a number table's row: the layouts by mines next to the asked cell (at most 8)


_Step = tuple[int, int, tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...], int, int, int]
"""Assigning the box at one position of the order: ``(box, size, cons, moved, fresh, minus, mask)``.

``cons``: per number touching the box, ``(where its need is in the state (a shift) or -1, initial need
if -1, capacity of the number's later boxes)``; ``moved``: per number still open after the box that was
open before it, ``(shift in the state, shift in the next state)``; ``fresh``: the next state's fields
of the numbers the box opens, their initial needs in place; ``minus``: 1 in the field of each number
of the next state that touches the box (so ``k`` mines in the box take ``k * minus`` from the next
state: no field goes below 0, none borrows); ``mask``: one field's bits. A plain tuple of ints, like
the kept layers (:data:`Layer`): the garbage collector stops tracking those, so the counts kept in
:func:`count`'s cache cost its passes nothing, and the compiled build unpacks them natively.
"""


@dataclass(frozen=True)
class ComponentCount:
    """A component's DP: its steps, the forward layers and ``weights[m]`` (layouts with ``m`` mines).

    ``bounds[i][3 * j : 3 * j + 3]``: the :data:`Bounds` of the ``j``-th state of ``layers[i]`` at
    ``steps[i]``, worked out once by the forward pass and read by every backward pass. ``weights`` is
    all zeros when the component's numbers contradict each other.
    """

    component: Component
    sizes: tuple[int, ...]
    steps: tuple[_Step, ...]
    layers: tuple[Layer, ...]
    bounds: tuple[Bounds, ...]
    weights: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.sizes)

    @property
    def consistent(self) -> bool:
        return any(self.weights)

    def box_numerators(self, rest: Sequence[int]) -> list[int]:
        """Per box ``b``: ``sum over layouts L of the component of k_b(L) * rest[mines(L)]``.

        With ``rest[m]`` the number of layouts of everything else when the component holds ``m``
        mines, ``box_numerators(rest)[b] / sizes[b]`` is the number of layouts with a mine on a
        given cell of box ``b``. ``rest`` has ``size + 1`` entries.
        """
        steps, layers, bounds = self.steps, self.layers, self.bounds
        combs = [_ways(st[1]) for st in steps]
        nums = [0] * len(self.sizes)
        after: dict[State, tuple[int, list[int]]] = {0: (0, list(rest))}  # each state's start, vector
        for i in range(len(steps) - 1, -1, -1):
            st = steps[i]
            cb = combs[i]
            here: dict[State, tuple[int, list[int]]] = {}
            num = 0
            minus = st[5]
            kept = bounds[i]
            j = 0  # where the state's bounds start in kept
            for s, start, poly in layers[i]:
                length = len(poly)
                vec = [0] * length
                lo, hi, base = kept[j], kept[j + 1], kept[j + 2]
                j += 3
                for k in range(lo, hi + 1):
                    nxt = after.get(base - k * minus)
                    if nxt is None:
                        continue
                    c = cb[k]
                    at = start + k - nxt[0]  # the next state starts at or before start + k
                    part = nxt[1][at : at + length]
                    for t, v in enumerate(part):
                        vec[t] += c * v
                    if k:
                        num += c * k * sum(map(mul, poly, part))  # sum of poly[t] * part[t]
                here[s] = (start, vec)
            nums[st[0]] = num
            after = here
        return nums

    def solutions(self) -> Iterator[tuple[int, ...]]:
        """Every solution of the component: the mines in each box (indexed like ``component.boxes``).

        Walks the forward layers, keeping only states from which the last layer is reachable, so
        the cost is proportional to the number of solutions listed.
        """
        steps, layers = self.steps, self.layers
        # alive[i]: the states of layers[i] from which the last layer is reachable, with their bounds
        alive: list[dict[State, tuple[int, int, int]]] = [{} for _ in layers]
        if any(s == 0 for s, _, _ in layers[-1]):
            alive[-1][0] = (0, 0, 0)  # every number closed: the empty state (bounds never read)
        for i in range(len(steps) - 1, -1, -1):
            minus = steps[i][5]
            kept = self.bounds[i]
            j = 0
            for s, _, _ in layers[i]:
                lo, hi, base = kept[j], kept[j + 1], kept[j + 2]
                j += 3
                if any(base - k * minus in alive[i + 1] for k in range(lo, hi + 1)):
                    alive[i][s] = (lo, hi, base)
        if 0 in alive[0]:
            yield from _walk(steps, alive, [0] * len(self.sizes), 0, 0)

    def number_table(self, terms: Mapping[int, Terms]) -> list[Poly]:
        """``t[m][a]``: layouts with ``m`` mines and ``a`` "marked" mines (``a`` at most 8).

        ``terms[b][k]`` replaces box ``b``'s plain weight ``C(n_b, k)`` by ``(a, coefficient)`` pairs.
        """
        # the forward pass tallies index m * stride + a: a stride of the most marked mines there can
        # be, plus one, not of 9, keeps its polynomials short (1 when none is marked)
        stride = 1 + sum(
            max([a for pairs in special for a, c in pairs if c], default=0) for special in terms.values()
        )
        all_terms: list[Terms] = []
        for box, size, _, _, _, _, _ in self.steps:
            special = terms.get(box)
            if special is None:
                all_terms.append([[(k * stride, c)] for k, c in enumerate(_ways(size))])
            else:
                all_terms.append([[(k * stride + a, c) for a, c in special[k] if c] for k in range(size + 1)])
        final = _forward(self.steps, all_terms, keep=False)[0][-1].get(0, [])
        table: list[Poly] = [[0] * TABLE_WIDTH for _ in range(self.size + 1)]
        for idx, v in enumerate(final):
            if v:
                table[idx // stride][idx % stride] += v
        return table


def _walk(
    steps: tuple[_Step, ...], alive: list[dict[State, tuple[int, int, int]]], ks: list[int], i: int, s: State
) -> Iterator[tuple[int, ...]]:
    """The solutions through state ``s`` before step ``i``, the boxes before it set in ``ks``, going
    only through states from which the last layer is reachable (``alive``, with their bounds)."""
    if i == len(steps):
        yield tuple(ks)
        return
    st = steps[i]
    lo, hi, base = alive[i][s]
    minus = st[5]
    for k in range(lo, hi + 1):
        key = base - k * minus
        if key in alive[i + 1]:
            ks[st[0]] = k
            yield from _walk(steps, alive, ks, i + 1, key)


@cache
def _ways(n: int) -> tuple[int, ...]:
    """``C(n, k)`` for ``k = 0..n``: the layouts of a box of ``n`` cells holding ``k`` mines."""
    return tuple(comb(n, k) for k in range(n + 1))


def _forward(
    steps: Sequence[_Step], terms: Sequence[Terms], *, keep: bool
) -> tuple[list[dict[State, Poly]], list[dict[State, int]], list[Bounds]]:
    """The forward layers (each state with its polynomial) and, if ``keep``, what the backward passes
    read: for each layer, where each state's polynomial starts (its leading zeros, at least) and, for
    each layer before a step, the bounds of its states in the layer's order (:data:`Bounds`)."""
    layers: list[dict[State, Poly]] = [{0: [1]}]
    leads: dict[State, int] = {0: 0}
    kept_leads: list[dict[State, int]] = [leads]
    bounds: list[Bounds] = []
    for i, st in enumerate(steps):
        nxt: dict[State, Poly] = {}
        next_leads: dict[State, int] = {}
        box_terms = terms[i]
        lowest = [min(pairs)[0] if pairs else 0 for pairs in box_terms]  # each k's smallest shift
        _, size, cons, moved, fresh, minus, mask = st  # fresh: the next state's new fields, in place
        here: list[int] = []
        for s, poly in layers[-1].items():
            # the box's range of mines from s (each number it touches needs at most its cells, and at
            # least what its later boxes cannot hold), and the next state with none in it
            lo, hi = 0, size
            for shift, init, cap in cons:
                v = (s >> shift) & mask if shift >= 0 else init
                if v < hi:
                    hi = v
                if v - cap > lo:
                    lo = v - cap
            base = fresh
            for from_shift, to_shift in moved:
                base |= ((s >> from_shift) & mask) << to_shift
            if keep:
                here += (lo, hi, base)
            # a polynomial is mostly leading zeros (the fewest mines so far): start after them
            first, n = leads[s], len(poly)
            for k in range(lo, hi + 1):
                pairs = box_terms[k]
                if not pairs:
                    continue
                key = base - k * minus
                start = first + lowest[k]
                dest = nxt.get(key)
                if dest is None:
                    dest = nxt[key] = []
                    next_leads[key] = start
                elif start < next_leads[key]:
                    next_leads[key] = start
                for shift, coef in pairs:
                    end = n + shift
                    if len(dest) < end:
                        dest.extend([0] * (end - len(dest)))
                    for t in range(first, n):
                        v = poly[t]
                        if v:
                            dest[t + shift] += coef * v
        layers.append(nxt)
        leads = next_leads
        if keep:
            kept_leads.append(leads)
            bounds.append(tuple(here))
    return layers, kept_leads, bounds


def _order(nb: int, cons_of: list[list[int]], members: list[tuple[int, ...]]) -> list[int]:
    """A box order that keeps few numbers open at a time: prefer boxes of numbers already opened,
    then boxes whose numbers have few boxes left (they close soon)."""
    remaining = [len(m) for m in members]
    opened = [False] * len(members)
    touched = [0] * nb  # opened numbers of each box
    left = [sum(remaining[c] for c in cons_of[b]) for b in range(nb)]
    free = set(range(nb))
    order: list[int] = []
    while free:
        # the smallest key (keys are distinct: they end with the box); tuples, not a key function,
        # so that min compares them without a Python call per box
        if order:
            best = min([(-touched[b], left[b], b) for b in free])[2]
        else:
            best = min([(left[b], -len(cons_of[b]), b) for b in free])[2]
        free.discard(best)
        order.append(best)
        for c in cons_of[best]:
            if not opened[c]:
                opened[c] = True
                for b in members[c]:
                    touched[b] += 1
            remaining[c] -= 1
            for b in members[c]:
                left[b] -= 1
    return order


@lru_cache(maxsize=512)
def count(component: Component) -> ComponentCount:
    """Compile ``component`` into DP steps and run the forward pass.

    Cached: from one move to the next, most components of a game do not change.
    """
    sizes = tuple(len(b) for b in component.boxes)
    nb = len(sizes)
    members = [m for _, m, _ in component.constraints]
    values = [v for v, _, _ in component.constraints]
    cons_of: list[list[int]] = [[] for _ in range(nb)]
    for ci, mem in enumerate(members):
        for b in mem:
            cons_of[b].append(ci)
    order = _order(nb, cons_of, members)
    position = {b: i for i, b in enumerate(order)}
    at, size_of = position.__getitem__, sizes.__getitem__
    first = [min(map(at, mem)) for mem in members]
    last = [max(map(at, mem)) for mem in members]
    capacity = [sum(map(size_of, mem)) for mem in members]  # cells of each number's later boxes
    width = max(4, max(values, default=0).bit_length())  # bits of a need in the state (a need <= 8)
    mask = (1 << width) - 1
    steps: list[_Step] = []
    active: list[int] = []  # numbers open before the current step, in state order
    for i, b in enumerate(order):
        where = {c: j * width for j, c in enumerate(active)}
        for c in cons_of[b]:
            capacity[c] -= sizes[b]
        cons = tuple([(where.get(c, -1), values[c], capacity[c]) for c in cons_of[b]])
        nxt = [c for c in active if last[c] > i] + [c for c in cons_of[b] if first[c] == i and last[c] > i]
        moved = tuple([(where[c], j * width) for j, c in enumerate(nxt) if c in where])
        fresh = sum(values[c] << (j * width) for j, c in enumerate(nxt) if c not in where)
        minus = sum(1 << (j * width) for j, c in enumerate(nxt) if c in cons_of[b])
        steps.append((b, sizes[b], cons, moved, fresh, minus, mask))
        active = nxt
    terms = [[[(k, c)] for k, c in enumerate(_ways(sizes[b]))] for b in order]
    forward, leads, bounds = _forward(steps, terms, keep=True)
    layers = tuple(
        [
            tuple([(s, start[s], tuple(poly[start[s] :])) for s, poly in layer.items()])
            for layer, start in zip(forward, leads, strict=True)
        ]
    )
    final = forward[-1].get(0, [])
    size = sum(sizes)
    weights = [0] * (size + 1)
    for m, v in enumerate(final):
        weights[m] = v
    return ComponentCount(component, sizes, tuple(steps), layers, tuple(bounds), tuple(weights))
