"""The counting on the largest boards: the same numbers as on small ones, reached cheaply.

Binomials of a million cells are walked from their neighbours (solver/binomials.py), the neighbour table
of a huge grid is filled as it is read (engine/geometry.py), a view is read from its smaller side (the few
revealed cells early on, the few covered ones late), and the interior is one value, covered minus frontier
(solver/interior.py). Each gives exactly what the plain way gives.
"""

from __future__ import annotations

import math
import random
import tracemalloc

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
from ipyminesweeper.solver.interior import Interior, Joined, Positions, Probabilities
from ipyminesweeper.solver.probabilities import analyse, clear_caches

MANY = 1 << 16
"""An interior of more cells than this is one no analysis should list."""


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


@given(st.text(alphabet=".f0123X", max_size=60), st.data())
@settings(max_examples=200, deadline=None)
def test_the_interior_is_covered_minus_the_excluded_cells(cells: str, data: st.DataObject) -> None:
    """Membership, size, order, taking cells out, and the views of it as positions and probabilities:
    each the same as the definition's set, list or dict."""
    covered = [i for i, ch in enumerate(cells) if ch not in "012345678"]
    excluded = frozenset(data.draw(st.lists(st.sampled_from(covered))) if covered else [])
    inner = Interior(cells, excluded)
    plain = [i for i in covered if i not in excluded]
    assert list(inner) == plain and len(inner) == len(plain) and inner == frozenset(plain)
    assert all((i in inner) == (i in plain) for i in (-1, *range(len(cells) + 2), True, "x"))
    gone = data.draw(st.lists(st.integers(-2, len(cells) + 2)))
    fewer = inner.without(gone)
    assert list(fewer) == [i for i in plain if i not in gone] and len(fewer) == len(list(fewer))
    cols = data.draw(st.integers(1, 8))
    at = Positions(inner, cols)
    where = {divmod(i, cols) for i in plain}
    assert list(at) == [divmod(i, cols) for i in plain] and at == where
    assert all(((r, c) in at) == ((r, c) in where) for r in range(-1, 9) for c in range(-1, cols + 1))
    listed = {(99, 0): 0.25}
    probs = Probabilities(listed, at, 0.5)
    whole = {**listed, **dict.fromkeys(at, 0.5)}
    assert dict(probs) == whole and list(probs.items()) == list(whole.items()) and len(probs) == len(whole)
    assert probs.get((99, 0)) == 0.25 and probs.get((-5, 0), 2.0) == 2.0
    both = Joined(frozenset(listed), at)
    assert both == set(whole) and len(both) == len(whole) and list(both) == list(whole)


def test_the_analysis_of_a_million_cells_grows_with_its_frontier() -> None:
    """The analysis after a first reveal on 1000x1000 allocates for its frontier, not its interior: no
    dict or set of the million interior cells (before, the probabilities, the interior's positions and
    its set took some 200 MB). The view's reading is cached first; the analysis is measured alone."""
    board = reveal(new_board(1000, 1000, 150_000, seed=3), (500, 500))
    clear_caches()
    read_view(board.view)
    tracemalloc.start()
    try:
        a = analyse(board.view)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(a.interior) > 900_000 and len(a.probabilities) == len(a.interior) + len(a.frontier)
    assert peak < 40_000_000, f"the analysis took {peak / 1e6:.1f} MB (15 MB on 2026-11-26, was 243 MB)"


def test_a_large_interior_has_one_probability() -> None:
    """A board with a large interior: every interior cell is covered, away from every number, with one
    probability."""
    board = reveal(new_board(rows=400, cols=400, mines=24_000, seed=3), (200, 200))
    a = analyse(board.view)
    covered = {(i // 400, i % 400) for i, ch in enumerate(board.view.cells) if ch in ".F"}
    assert len(a.interior) > MANY and a.interior == covered - a.frontier
    assert {a.probabilities[c] for c in a.interior} == {a.probabilities[next(iter(a.interior))]}
    assert set(a.probabilities) == covered


def test_a_certain_large_interior() -> None:
    """When the numbers hold every mine, the whole interior is safe: safe, with a reason each, in reading
    order."""
    n = 300
    view = View(rows=n, cols=n, mines=1, status="playing", cells="1" + "." * (n * n - 1))
    a = analyse(view)
    assert len(a.interior) > MANY and a.interior <= a.safe
    keys = list(a.reasons)
    assert keys == sorted(keys) and set(keys) == a.safe | a.mines
    assert "safe" in a.reasons[(n - 1, n - 1)]
