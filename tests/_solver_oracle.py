"""Test helpers for the solver: a minimal view object, random positions, a naive brute-force oracle.

Deliberately independent of the solver (and of the engine): the oracle iterates over every subset of the
covered cells with the right number of mines and checks every revealed number.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

Pos = tuple[int, int]


@dataclass(frozen=True)
class MinimalView:
    """Only what a player sees: no field says where the mines are."""

    rows: int
    cols: int
    mines: int
    cells: str


def neighbours(rows: int, cols: int, r: int, c: int) -> list[Pos]:
    return [
        (rr, cc)
        for rr in range(r - 1, r + 2)
        for cc in range(c - 1, c + 2)
        if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
    ]


def make_position(
    rows: int,
    cols: int,
    mines: int,
    seed: int,
    revealed: int,
    flags: int = 0,
) -> tuple[MinimalView, frozenset[Pos]]:
    """A random board and a view of it: ``revealed`` random safe cells shown with their counts.

    ``flags`` random covered cells (mines or not) are shown as ``f``.
    Returns the view and the true mines.
    """
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    mine_set = frozenset(rng.sample(cells, mines))
    safe = [p for p in cells if p not in mine_set]
    shown = set(rng.sample(safe, min(revealed, len(safe))))
    covered = [p for p in cells if p not in shown]
    flagged = set(rng.sample(covered, min(flags, len(covered))))
    chars = []
    for p in cells:
        if p in shown:
            chars.append(str(sum(q in mine_set for q in neighbours(rows, cols, *p))))
        elif p in flagged:
            chars.append("f")
        else:
            chars.append(".")
    return MinimalView(rows, cols, mines, "".join(chars)), mine_set


def covered_cells(view: MinimalView) -> list[Pos]:
    """The cells that show no number (flagged ones too: the oracle trusts no flag), in reading order."""
    rows, cols = view.rows, view.cols
    return [(r, c) for r in range(rows) for c in range(cols) if not view.cells[r * cols + c].isdigit()]


def fitting_layouts(view: MinimalView, covered: list[Pos]) -> Iterator[int]:
    """Every layout of ``view.mines`` mines on ``covered`` that fits every revealed number, as a bit
    mask (bit ``i``: a mine on ``covered[i]``)."""
    rows, cols = view.rows, view.cols
    bit = {p: 1 << i for i, p in enumerate(covered)}
    checks = []
    for r in range(rows):
        for c in range(cols):
            ch = view.cells[r * cols + c]
            if ch.isdigit():
                mask = 0
                for q in neighbours(rows, cols, r, c):
                    mask |= bit.get(q, 0)
                checks.append((mask, int(ch)))
    for combo in combinations(range(len(covered)), view.mines):
        layout = 0
        for i in combo:
            layout |= 1 << i
        if all((layout & mask).bit_count() == value for mask, value in checks):
            yield layout


def brute_force(view: MinimalView) -> dict[Pos, Fraction] | None:
    """Exact mine probabilities by enumerating every layout; None if no layout fits."""
    covered = covered_cells(view)
    hits = [0] * len(covered)
    total = 0
    for layout in fitting_layouts(view, covered):
        total += 1
        for i in range(len(covered)):
            if layout >> i & 1:
                hits[i] += 1
    if total == 0:
        return None
    return {p: Fraction(hits[i], total) for i, p in enumerate(covered)}


def brute_force_numbers(view: MinimalView) -> dict[Pos, list[Fraction]] | None:
    """For each covered cell, ``P(cell is safe and would show k)`` for ``k = 0..8``, by enumeration."""
    covered = covered_cells(view)
    bit = {p: 1 << i for i, p in enumerate(covered)}
    nbr_masks = [sum(bit.get(q, 0) for q in neighbours(view.rows, view.cols, *p)) for p in covered]
    tallies = [[0] * 9 for _ in covered]
    total = 0
    for layout in fitting_layouts(view, covered):
        total += 1
        for i in range(len(covered)):
            if not layout >> i & 1:
                tallies[i][(layout & nbr_masks[i]).bit_count()] += 1
    if total == 0:
        return None
    return {p: [Fraction(x, total) for x in tallies[i]] for i, p in enumerate(covered)}


def brute_force_layouts(view: MinimalView) -> set[frozenset[Pos]]:
    """Every mine layout of the covered cells that fits the view, by enumeration."""
    covered = covered_cells(view)
    layouts = fitting_layouts(view, covered)
    return {frozenset(p for i, p in enumerate(covered) if layout >> i & 1) for layout in layouts}
