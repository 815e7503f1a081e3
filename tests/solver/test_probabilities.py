"""probabilities() and analyse() against the naive brute-force oracle."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from _solver_oracle import (
    MinimalView,
    Pos,
    brute_force,
    brute_force_layouts,
    brute_force_numbers,
    make_position,
)
from ipyminesweeper.solver import InconsistentViewError, analyse, probabilities

MAX_COVERED = 20


@st.composite
def positions(draw: st.DrawFn, max_covered: int = MAX_COVERED) -> tuple[MinimalView, frozenset[Pos]]:
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    n = rows * cols
    covered = draw(st.integers(0, min(n, max_covered)))
    mines = draw(st.integers(0, covered))
    seed = draw(st.integers(0, 2**32 - 1))
    flags = draw(st.integers(0, 3))
    return make_position(rows, cols, mines, seed, n - covered, flags)


def _close(p: dict[Pos, float], q: dict[tuple[int, int], Fraction]) -> None:
    assert set(p) == set(q)
    for pos, exact in q.items():
        assert abs(p[pos] - float(exact)) <= 1e-9, (pos, p[pos], exact)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_probabilities_match_brute_force(position: tuple[MinimalView, frozenset[Pos]]) -> None:
    view, _ = position
    exact = brute_force(view)
    assert exact is not None  # a real board is always consistent
    _close(probabilities(view), exact)


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(0, 10**6), st.integers(0, 8))
def test_perturbed_views_match_or_raise(
    position: tuple[MinimalView, frozenset[Pos]], where: int, digit: int
) -> None:
    """Change one revealed number: the oracle decides whether the view is still consistent."""
    view, _ = position
    numbers = [i for i, ch in enumerate(view.cells) if ch.isdigit()]
    assume(numbers)
    i = numbers[where % len(numbers)]
    cells = view.cells[:i] + str(digit) + view.cells[i + 1 :]
    bad = MinimalView(view.rows, view.cols, view.mines, cells)
    exact = brute_force(bad)
    if exact is None:
        with pytest.raises(InconsistentViewError):
            probabilities(bad)
        with pytest.raises(InconsistentViewError):
            analyse(bad)
    else:
        _close(probabilities(bad), exact)


@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(-3, 3))
def test_other_mine_counts_match_or_raise(position: tuple[MinimalView, frozenset[Pos]], delta: int) -> None:
    """The same cells with another mine total: interior cells follow the global count."""
    view, _ = position
    mines = view.mines + delta
    assume(mines >= 0)
    other = MinimalView(view.rows, view.cols, mines, view.cells)
    exact = brute_force(other)
    if exact is None:
        with pytest.raises(InconsistentViewError):
            probabilities(other)
    else:
        _close(probabilities(other), exact)


def test_global_count_moves_interior_probabilities() -> None:
    """Frontier solutions with different mine counts weigh differently as the total changes."""
    cells = "1.1..............."
    seen = set()
    for mines in range(1, 9):
        view = MinimalView(3, 6, mines, cells)
        exact = brute_force(view)
        assert exact is not None
        got = probabilities(view)
        _close(got, exact)
        seen.add(round(got[(2, 5)], 12))
        # the frontier cell next to both 1s is a mine in the one-mine solution only
        assert got[(0, 1)] == pytest.approx(float(exact[(0, 1)]), abs=1e-12)
    assert len(seen) == 8


def test_interior_safe_or_mine_from_count_alone() -> None:
    # the 1 at (0,0) forces a mine at (0,1): with 1 mine in total the rest is safe
    view = MinimalView(1, 5, 1, "1....")
    a = analyse(view)
    assert a.probabilities == {(0, 1): 1.0, (0, 2): 0.0, (0, 3): 0.0, (0, 4): 0.0}
    assert a.safe == {(0, 2), (0, 3), (0, 4)} and a.mines == {(0, 1)}
    view = MinimalView(1, 5, 4, "1....")
    a = analyse(view)
    assert a.mines == {(0, 1), (0, 2), (0, 3), (0, 4)}
    assert all(a.reasons[p] for p in a.mines)


@settings(max_examples=100, deadline=None)
@given(positions(max_covered=16))
def test_layouts_and_certainty_match_brute_force(position: tuple[MinimalView, frozenset[Pos]]) -> None:
    view, _ = position
    exact = brute_force(view)
    assert exact is not None
    a = analyse(view)
    assert a.safe == {p for p, q in exact.items() if q == 0}
    assert a.mines == {p for p, q in exact.items() if q == 1}
    assert set(a.reasons) == a.safe | a.mines
    for pos, why in a.reasons.items():
        assert why.startswith(f"({pos[0]},{pos[1]}) is ")
    covered = {p for p in exact}
    assert a.frontier | a.interior == covered and not a.frontier & a.interior


@settings(max_examples=100, deadline=None)
@given(positions(max_covered=16))
def test_number_distribution_and_zero_probability(position: tuple[MinimalView, frozenset[Pos]]) -> None:
    view, _ = position
    exact = brute_force_numbers(view)
    assert exact is not None
    a = analyse(view)
    for pos, dist in exact.items():
        got = a.number_distribution(pos)
        assert len(got) == 9
        for x, y in zip(got, dist, strict=True):
            assert abs(x - float(y)) <= 1e-9, (pos, got, dist)
        assert abs(a.zero_probability(pos) - float(dist[0])) <= 1e-9
        assert abs(sum(got) - (1 - a.probabilities[pos])) <= 1e-9


def test_number_distribution_rejects_revealed_and_off_board() -> None:
    a = analyse(MinimalView(2, 2, 1, "1..."))
    with pytest.raises(ValueError):
        a.zero_probability((0, 0))
    with pytest.raises(ValueError):
        a.number_distribution((5, 5))


@settings(max_examples=150, deadline=None)
@given(positions(max_covered=14), st.data())
def test_layouts_with_fixed_cells_match_brute_force(
    position: tuple[MinimalView, frozenset[Pos]], data: st.DataObject
) -> None:
    view, _ = position
    covered = [
        (r, c) for r in range(view.rows) for c in range(view.cols) if view.cells[r * view.cols + c] in ".f"
    ]
    assume(covered)
    a = analyse(view)
    layouts = brute_force_layouts(view)
    assert a.layouts_with() == a.layouts == len(layouts)
    for _ in range(4):
        mines = set(data.draw(st.lists(st.sampled_from(covered), max_size=3)))
        safe = set(data.draw(st.lists(st.sampled_from(covered), max_size=3)))
        want = sum(1 for lay in layouts if mines <= lay and not safe & lay)
        assert a.layouts_with(mines, safe) == want, (view, mines, safe)


def test_layouts_with_rejects_revealed_cells() -> None:
    a = analyse(MinimalView(2, 2, 1, "1..."))
    assert a.layouts_with([(0, 1)], [(1, 0)]) == 1
    with pytest.raises(ValueError):
        a.layouts_with([(0, 0)])


@pytest.mark.parametrize(
    "cells", ["2" + "." * 80, "01" + "." * 7 + "12" + "." * 70, "." * 40 + "3" + "." * 40]
)
def test_probabilities_are_the_ratios_rounded_once(cells: str) -> None:
    """With between 2**53 and 2**62 layouts, every probability is its ratio of integers rounded once, as
    Python divides them: the compiled build once divided such integers as doubles, each rounded first,
    and a golden move's probability changed in its last digit."""
    view = MinimalView(9, 9, 20, cells)
    a = analyse(view, explain=False)
    assert 2**53 < a.layouts < 2**62
    for pos, p in a.probabilities.items():
        assert p == a.layouts_with(mines=[pos]) / a.layouts, pos
        counts = a.number_counts(pos)
        assert a.number_distribution(pos) == tuple(k / a.layouts for k in counts), pos
        assert a.zero_probability(pos) == a.number_counts(pos, zero_only=True)[0] / a.layouts, pos
