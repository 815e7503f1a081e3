"""Notebook 04's checker: probabilities by brute force. The notebook's solution passes; the usual
mistakes fail on a small view, with the differing cells marked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import combinations

import pytest
from _wrong import assert_caught, assert_passes

from ipyminesweeper import Position, View, probabilities
from ipyminesweeper.exercises import check_probabilities

pytestmark = pytest.mark.slow


def cells(view: View) -> list[Position]:
    return [(r, c) for r in range(view.rows) for c in range(view.cols)]


def _brute(
    view: View,
    *,
    unknown: str = ".f",
    numbers: str = "012345678",
    around: Callable[[View, Position], Iterable[Position]] | None = None,
    total: bool = True,
    weight: Callable[[View, list[Position]], int] | None = None,
    scale: float = 1.0,
) -> dict[Position, float]:
    around = around or (lambda v, pos: v.neighbours(pos))
    hidden = [pos for pos in cells(view) if view[pos] in unknown]
    rules = [
        (int(view[pos]), [q for q in around(view, pos) if view[q] in unknown])
        for pos in cells(view)
        if view[pos] in numbers
    ]
    sizes = [view.mines] if total else range(len(hidden) + 1)
    layouts = [
        set(mines)
        for k in sizes
        for mines in combinations(hidden, k)
        if all(sum(q in mines for q in near) == n for n, near in rules)
    ]
    ways = len(layouts) if weight is None else weight(view, hidden)
    return {pos: scale * sum(pos in mines for mines in layouts) / ways for pos in hidden}


def solution_probabilities(view: View) -> dict[Position, float]:
    """Notebook 04's folded solution: every way of placing the mines that fits the numbers."""
    return _brute(view)


def ignoring_the_mine_total(view: View) -> dict[Position, float]:
    """Every number of mines that fits the numbers, as if the total did not matter."""
    return _brute(view, total=False)


def trusting_the_flags(view: View) -> dict[Position, float]:
    """Flags taken as mines: only the covered cells are unknown, and fewer mines are left to place."""
    flags = sum(view[pos] == "f" for pos in cells(view))
    hidden = [pos for pos in cells(view) if view[pos] == "."]
    rules = [
        (
            int(view[pos]) - sum(view[q] == "f" for q in view.neighbours(pos)),
            [q for q in view.neighbours(pos) if view[q] == "."],
        )
        for pos in cells(view)
        if view[pos].isdigit()
    ]
    layouts = [
        set(m)
        for m in combinations(hidden, view.mines - flags)
        if all(sum(q in m for q in near) == n for n, near in rules)
    ]
    out = {pos: sum(pos in m for m in layouts) / len(layouts) for pos in hidden}
    out.update({pos: 1.0 for pos in cells(view) if view[pos] == "f"})
    return out


def in_percent(view: View) -> dict[Position, float]:
    return _brute(view, scale=100.0)


def with_off_by_one_neighbours(view: View) -> dict[Position, float]:
    def around(v: View, pos: Position) -> list[Position]:
        r, c = pos
        return [
            (r + dr, c + dc)
            for dr in range(-1, 1)
            for dc in range(-1, 2)
            if (dr, dc) != (0, 0) and 0 <= r + dr < v.rows and 0 <= c + dc < v.cols
        ]

    return _brute(view, around=around)


def forgetting_the_flagged_cells(view: View) -> dict[Position, float]:
    """Counts right, but gives no probability for a flagged cell."""
    return {pos: p for pos, p in _brute(view).items() if view[pos] == "."}


def dividing_by_every_combination(view: View) -> dict[Position, float]:
    """The share of all C(n, k) combinations, not of those that fit."""
    from math import comb

    return _brute(view, weight=lambda v, hidden: comb(len(hidden), v.mines))


def skipping_the_zeros(view: View) -> dict[Position, float]:
    """Only the numbers 1-8 as constraints: a covered cell next to a revealed 0 looks uncertain."""
    return _brute(view, numbers="12345678")


WRONG = [
    ignoring_the_mine_total,
    trusting_the_flags,
    in_percent,
    with_off_by_one_neighbours,
    forgetting_the_flagged_cells,
    dividing_by_every_combination,
    skipping_the_zeros,
]


def test_the_solution_passes() -> None:
    assert_passes(check_probabilities(solution_probabilities), "the numbers decide some cells")
    assert_passes(check_probabilities(probabilities))


@pytest.mark.parametrize("wrong", WRONG, ids=lambda f: f.__name__)
def test_wrong_probabilities_fail(wrong: Callable[[View], Mapping[Position, float]]) -> None:
    assert_caught(check_probabilities(wrong), wrong)
