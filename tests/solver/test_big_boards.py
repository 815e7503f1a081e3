"""The counting on the largest boards: the same numbers as on small ones, reached cheaply.

Binomials of a million cells are walked from their neighbours (solver/binomials.py), the neighbour table
of a huge grid is filled as it is read (engine/geometry.py), and a view is read from its smaller side
(the few revealed cells early on, the few covered ones late). Each gives exactly what the plain way gives.
"""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import View, new_board, probabilities, reveal
from ipyminesweeper.engine.geometry import (
    LISTED_UP_TO,
    NeighbourTable,
    neighbour_indices,
    neighbour_table,
)
from ipyminesweeper.solver import binomials
from ipyminesweeper.solver.binomials import binomial
from ipyminesweeper.solver.constraints import read_view
from ipyminesweeper.solver.probabilities import analyse
from ipyminesweeper.solver.slices import (
    SLICE,
    add_in_slices,
    ascending_in_slices,
    frozen_in_slices,
    in_slices,
    update_in_slices,
)


@given(
    st.integers(binomials.DIRECT + 1, 60_000).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(-300, 300), st.integers(-300, 300)), min_size=1, max_size=12),
        )
    )
)
@settings(max_examples=60, deadline=None)
def test_walked_binomials_are_math_comb(case: tuple[int, list[tuple[int, int]]]) -> None:
    """Nearby values (walked from a kept one) and far ones (math.comb afresh) alike, zeros included."""
    n0, offsets = case
    binomials.clear()
    for dn, dk in offsets:
        n, k = n0 + dn, n0 // 7 + dk
        assert binomial(n, k) == (math.comb(n, k) if 0 <= k <= n else 0), (n, k)
    assert binomial(n0, -1) == 0 and binomial(n0, n0 + 1) == 0


@given(st.integers(binomials.BY_PRIMES, 400_000).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
@settings(max_examples=25, deadline=None)
def test_binomials_built_from_prime_factors_are_math_comb(case: tuple[int, int]) -> None:
    n, k = case
    binomials.clear()  # nothing kept to walk from: built from its prime factors
    assert binomial(n, k) == math.comb(n, k)


def test_a_walk_reaches_every_direction_exactly() -> None:
    binomials.clear()
    n, k = 200_000, 30_000
    assert binomial(n, k) == math.comb(n, k)  # kept
    for m, j in [(n, k + 1), (n, k - 1), (n + 1, k), (n - 1, k), (n - 7, k + 5), (n + 9, k - 200)]:
        assert binomial(m, j) == math.comb(m, j), (m, j)


def test_the_neighbour_table_of_a_huge_grid_is_filled_as_it_is_read() -> None:
    rows, cols = 1000, 1000
    assert rows * cols > LISTED_UP_TO
    table = neighbour_table(rows, cols)
    assert isinstance(table, NeighbourTable) and len(table) == rows * cols
    rng = random.Random(3)
    for i in [0, cols - 1, cols, rows * cols - 1, *(rng.randrange(rows * cols) for _ in range(200))]:
        assert table[i] == neighbour_indices(rows, cols, i)
    assert list(table[5:8]) == [neighbour_indices(rows, cols, i) for i in range(5, 8)]
    assert table[-1] == neighbour_indices(rows, cols, rows * cols - 1)  # from the end, as a tuple does
    assert isinstance(neighbour_table(16, 30), tuple)  # small grids: listed whole, as before


def constraints_by_definition(view: View) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every revealed cell next to a covered (or flagged) one: its number and those neighbours."""
    out = []
    for i, ch in enumerate(view.cells):
        if ch in ".f":
            continue
        around = tuple(j for j in neighbour_indices(view.rows, view.cols, i) if view.cells[j] in ".f")
        if around:
            out.append((i, int(ch), around))
    return out


@given(st.integers(0, 2**32), st.integers(1, 60))
@settings(max_examples=60, deadline=None)
def test_a_view_is_read_the_same_from_either_side(seed: int, moves: int) -> None:
    """Few revealed cells or few covered ones: the constraints are those of the definition."""
    board = new_board(12, 12, 20, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        safe = [p for p in board.covered() if not board.placed or not board.is_mine(p)]
        after = reveal(board, rng.choice(safe)) if safe else board
        if after.over:  # a view in play: the end view shows the mines
            break
        board = after
    system = read_view(board.view)
    assert [(c.source, c.value, c.cells) for c in system.constraints] == constraints_by_definition(board.view)


def test_the_overlay_of_a_million_cells_counts_exactly() -> None:
    """A 1000x1000 board after its first reveal: every interior cell has the same probability, the
    mines left over the cells left (the numbers cannot tell them apart), and the sum is the mine count."""
    board = reveal(new_board(1000, 1000, 150_000, seed=3), (500, 500))
    p = probabilities(board.view)
    assert math.isclose(sum(p.values()), board.mines, rel_tol=1e-9)
    far = p[(0, 0)]
    assert p[(999, 999)] == far and 0.14 < far < 0.16


@given(st.integers(0, 3 * SLICE), st.integers(1, 10**6), st.integers(0, 2**32), st.floats(0, 1))
@settings(max_examples=25, deadline=None)
def test_slices_give_what_one_call_gives(n: int, spread: int, seed: int, value: float) -> None:
    """The slices (no C call over more than SLICE items, so other threads run between them) build the
    same set and dict as one call, in the same order, on either side of one slice."""
    rng = random.Random(seed)
    items = [rng.randint(-spread, spread) for _ in range(n)]
    parts = list(in_slices(items))
    assert all(0 < len(part) <= SLICE for part in parts)
    assert [x for part in parts for x in part] == items
    assert frozen_in_slices(items) == frozenset(items)
    assert frozen_in_slices(items, abs) == frozenset(map(abs, items))
    target: dict[int, float] = {99: 0.5}
    update_in_slices(target, items, abs, value)
    assert list(target.items()) == list({99: 0.5, **dict.fromkeys(map(abs, items), value)}.items())
    grown = {10**7}
    add_in_slices(grown, items)
    assert grown == {10**7, *items}
    first = {abs(x) for x in items[::2]}
    second = {abs(x) for x in items[1::2]} - first
    assert ascending_in_slices(first, second, spread + 1) == sorted(first | second)


def test_interior_beyond_one_slice() -> None:
    """A board whose interior spans many slices: every interior cell is listed, with one probability."""
    board = reveal(new_board(rows=400, cols=400, mines=24_000, seed=3), (200, 200))
    a = analyse(board.view)
    covered = {(i // 400, i % 400) for i, ch in enumerate(board.view.cells) if ch in ".F"}
    assert len(a.interior) > 2 * SLICE and a.interior == covered - a.frontier
    assert {a.probabilities[c] for c in a.interior} == {a.probabilities[next(iter(a.interior))]}
    assert set(a.probabilities) == covered


def test_a_certain_interior_beyond_one_slice() -> None:
    """When the numbers hold every mine, the whole interior is safe: listed as safe, with a reason each,
    in reading order, however many slices it spans."""
    n = 300
    view = View(rows=n, cols=n, mines=1, status="playing", cells="1" + "." * (n * n - 1))
    a = analyse(view)
    assert len(a.interior) > 2 * SLICE and a.interior <= a.safe
    keys = list(a.reasons)
    assert keys == sorted(keys) and set(keys) == a.safe | a.mines
    assert "safe" in a.reasons[(n - 1, n - 1)]
