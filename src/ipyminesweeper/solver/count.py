"""Exact counting of a component's solutions by number of mines.

A solution gives every box ``b`` a mine count ``k_b`` (``0 <= k_b <= n_b``) so that every number
sees exactly
its value; it stands for ``prod C(n_b, k_b)`` layouts of cells. Backtracking over boxes, in an order
that
closes constraints early, with bounds from every constraint on the box being assigned: a partial
assignment
that can no longer satisfy a constraint is cut at once, and a completed constraint is always
satisfied.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from math import comb

from .components import Component

__all__ = ["ComponentCount", "count"]


@dataclass(frozen=True)
class ComponentCount:
    """The solutions of one component and their big-int tallies.

    - ``sizes[b]``: number of cells in box ``b``;
    - ``solutions``: every solution as a tuple of ``k_b``;
    - ``weights[m]``: number of cell layouts of the component with ``m`` mines;
    - ``box_mines[b][m]``: sum over those layouts of the mines in box ``b``
      (so ``box_mines[b][m] / sizes[b]`` layouts with ``m`` mines have a mine on a given cell of
      ``b``).
    """

    component: Component
    sizes: tuple[int, ...]
    solutions: tuple[tuple[int, ...], ...]
    weights: tuple[int, ...]
    box_mines: tuple[tuple[int, ...], ...]

    def unconstrained_box_mines(self, b: int) -> int:
        """Sum over all layouts (any mine count) of the mines in box ``b``."""
        return sum(self.box_mines[b])


def _order(
    sizes: tuple[int, ...], cons_of: list[list[int]], members: list[tuple[int, ...]]
) -> list[int]:
    """Box order that opens few constraints and closes them soon (keeps the search narrow)."""
    nb = len(sizes)
    remaining = [len(m) for m in members]
    opened = [False] * len(members)
    chosen = [False] * nb
    order: list[int] = []
    for _ in range(nb):
        best = -1
        best_key: tuple[int, int, int] = (0, 0, 0)
        for b in range(nb):
            if chosen[b]:
                continue
            touched = sum(1 for c in cons_of[b] if opened[c])
            left = sum(remaining[c] for c in cons_of[b])
            key = (-touched, left, b) if order else (left, -len(cons_of[b]), b)
            if best < 0 or key < best_key:
                best, best_key = b, key
        chosen[best] = True
        order.append(best)
        for c in cons_of[best]:
            opened[c] = True
            remaining[c] -= 1
    return order


def count(component: Component) -> ComponentCount:
    """Enumerate the solutions of ``component`` (none if its numbers contradict each other)."""
    sizes = tuple(len(b) for b in component.boxes)
    nb = len(sizes)
    members = [m for _, m, _ in component.constraints]
    need = [v for v, _, _ in component.constraints]
    cap = [sum(sizes[b] for b in mem) for mem in members]
    cons_of: list[list[int]] = [[] for _ in range(nb)]
    for ci, mem in enumerate(members):
        for b in mem:
            cons_of[b].append(ci)
    order = _order(sizes, cons_of, members)
    o_sizes = [sizes[b] for b in order]
    o_cons = [cons_of[b] for b in order]
    ks = [0] * nb
    found: list[tuple[int, ...]] = []

    def rec(i: int) -> None:
        if i == nb:
            found.append(tuple(ks))
            return
        n = o_sizes[i]
        cs = o_cons[i]
        lo = 0
        hi = n
        for c in cs:
            nd = need[c]
            if nd < hi:
                hi = nd
            t = nd - cap[c] + n
            if t > lo:
                lo = t
        if lo > hi:
            return
        for c in cs:
            cap[c] -= n
            need[c] -= lo
        b = order[i]
        k = lo
        while True:
            ks[b] = k
            rec(i + 1)
            if k == hi:
                break
            k += 1
            for c in cs:
                need[c] -= 1
        for c in cs:
            cap[c] += n
            need[c] += hi

    limit = sys.getrecursionlimit()
    if nb + 100 > limit:
        sys.setrecursionlimit(nb + 100)
    rec(0)

    total = sum(sizes)
    weights = [0] * (total + 1)
    box_mines = [[0] * (total + 1) for _ in range(nb)]
    combs = [[comb(n, k) for k in range(n + 1)] for n in sizes]
    for sol in found:
        w = 1
        m = 0
        for b in range(nb):
            k = sol[b]
            w *= combs[b][k]
            m += k
        weights[m] += w
        for b in range(nb):
            k = sol[b]
            if k:
                box_mines[b][m] += w * k
    return ComponentCount(
        component,
        sizes,
        tuple(found),
        tuple(weights),
        tuple(tuple(row) for row in box_mines),
    )
