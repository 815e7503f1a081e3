"""The component counter (``solver/count.py``) against brute force: weights, box numerators, solutions.

The DP packs what each open number still needs into one integer, a few bits a number; these check it
on components where several numbers are open at once, and with needs wider than a real board's.
"""

from __future__ import annotations

import random
from itertools import product
from math import comb, prod

import pytest

from ipyminesweeper.solver.components import Component
from ipyminesweeper.solver.count import count


def _brute(comp: Component) -> list[tuple[int, ...]]:
    """Every solution of ``comp``: the mines in each box, each number seeing exactly its value."""
    sizes = [len(b) for b in comp.boxes]
    return [
        ks
        for ks in product(*(range(n + 1) for n in sizes))
        if all(sum(ks[b] for b in members) == value for value, members, _ in comp.constraints)
    ]


def _component(sizes: list[int], numbers: list[tuple[int, tuple[int, ...]]]) -> Component:
    boxes, start = [], 0
    for n in sizes:
        boxes.append(tuple(range(start, start + n)))
        start += n
    return Component(tuple(boxes), tuple((v, m, 1000 + i) for i, (v, m) in enumerate(numbers)))


def _check(comp: Component) -> None:
    cc = count(comp)
    sizes = [len(b) for b in comp.boxes]
    solutions = _brute(comp)
    weights = [0] * (sum(sizes) + 1)
    for ks in solutions:
        weights[sum(ks)] += prod(comb(n, k) for n, k in zip(sizes, ks, strict=True))
    assert list(cc.weights) == weights
    assert sorted(cc.solutions()) == sorted(solutions)
    rest = [3**m + m for m in range(sum(sizes) + 1)]  # any weights of the rest of the board
    expected = [
        sum(
            ks[b] * prod(comb(n, k) for n, k in zip(sizes, ks, strict=True)) * rest[sum(ks)]
            for ks in solutions
        )
        for b in range(len(sizes))
    ]
    assert cc.box_numerators(rest) == expected


def test_chains_of_numbers_open_at_once() -> None:
    rng = random.Random(4)
    for _ in range(60):
        nb = rng.randint(2, 6)
        sizes = [rng.randint(1, 3) for _ in range(nb)]
        numbers = []
        for _ in range(rng.randint(1, 5)):
            members = tuple(sorted(rng.sample(range(nb), rng.randint(1, min(3, nb)))))
            numbers.append((rng.randint(0, sum(sizes[b] for b in members)), members))
        _check(_component(sizes, numbers))


@pytest.mark.parametrize("values", [(17, 18), (15, 16), (31, 1)])
def test_needs_wider_than_a_real_boards(values: tuple[int, int]) -> None:
    """Numbers above 8 (no view has them, a Component may): their needs get wider fields."""
    first, second = values
    _check(_component([10, 10, 10, 12], [(first, (0, 1, 3)), (second, (0, 2, 3))]))


def test_contradictions_count_nothing() -> None:
    comp = _component([2, 2], [(-1, (0,)), (1, (0, 1))])
    assert not count(comp).consistent
    assert list(count(comp).solutions()) == []
    comp = _component([2, 2], [(3, (0,)), (1, (0, 1))])  # more mines than cells
    assert not count(comp).consistent
