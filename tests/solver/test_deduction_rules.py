"""The one deduction core (solver.reasoner) and the layout listing, against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _solver_oracle import MinimalView, brute_force, brute_force_layouts, make_position
from ipyminesweeper.solver import InconsistentViewError, Reasoner, analyse, deduce, local_rules
from ipyminesweeper.solver.constraints import read_view
from ipyminesweeper.solver.reasoner import propagate


@st.composite
def positions(draw: st.DrawFn, max_covered: int = 14) -> MinimalView:
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    n = rows * cols
    covered = draw(st.integers(0, min(n, max_covered)))
    mines = draw(st.integers(0, covered))
    seed, flags = draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 3))
    return make_position(rows, cols, mines, seed, n - covered, flags)[0]


@settings(max_examples=150, deadline=None)
@given(positions())
def test_every_rule_is_sound(view: MinimalView) -> None:
    """deduce (all rules), propagate (single points) and local_rules (around a change) only decide
    cells that brute force decides the same way."""
    exact = brute_force(view)
    assert exact is not None
    cols = view.cols
    d = deduce(view)
    assert all(exact[p] == 0 for p in d.safe) and all(exact[p] == 1 for p in d.mines)
    p = propagate(read_view(view))
    assert all(exact[divmod(i, cols)] == 0 for i in p.safe)
    assert all(exact[divmod(i, cols)] == 1 for i in p.mines)
    assert p.system.mines == view.mines - len(p.mines)
    numbers = [i for i, ch in enumerate(view.cells) if ch.isdigit()]
    safe, mines = local_rules(view.cells, view.rows, cols, numbers[: len(numbers) // 2 + 1])
    assert all(exact[divmod(i, cols)] == 0 for i in safe) and all(exact[divmod(i, cols)] == 1 for i in mines)
    # local rules over every number find what deduce finds without the global count
    whole = Reasoner(read_view(view).constraints, cols).run()
    safe, mines = local_rules(view.cells, view.rows, cols, numbers)
    assert safe == frozenset(whole.safe) and mines == frozenset(whole.mines)


@settings(max_examples=120, deadline=None)
@given(positions(max_covered=12))
def test_layout_list_is_every_layout(view: MinimalView) -> None:
    truth = brute_force_layouts(view)
    a = analyse(view)
    assert a.layouts == len(truth)
    listed = a.layout_list(len(truth))
    assert listed is not None
    unknown, layouts = listed
    cols = view.cols
    known = {divmod(i, cols) for i, ch in enumerate(view.cells) if not ch.isdigit()} - {
        divmod(i, cols) for i in unknown
    }
    got = {frozenset(divmod(i, cols) for i in lay) | known for lay in layouts}
    assert got == truth and len(layouts) == len(truth)
    if len(truth) > 1:
        assert a.layout_list(len(truth) - 1) is None


def test_reasons_name_the_rule() -> None:
    d = deduce(MinimalView(1, 2, 1, "1."))
    assert d.reasons[(0, 1)] == "(0,1) is a mine: the 1 at (0,0) has exactly 1 covered neighbour: (0,1)"
    # the subset rule: the 1s at (0,0) and (0,2) each see two of the three cells the 1 at (0,1) sees
    d = deduce(MinimalView(2, 3, 1, "111..."))
    assert d.safe == {(1, 0), (1, 2)} and d.mines == {(1, 1)}
    assert "they all touch the 1 at (0,1), which then needs no other mine" in d.reasons[(1, 2)]
    # the global count
    d = deduce(MinimalView(1, 4, 1, "1..."))
    assert d.safe == {(0, 2), (0, 3)} and d.reasons[(0, 3)] == "(0,3) is safe: all 1 mine are accounted for"


def test_contradictions_raise() -> None:
    with pytest.raises(InconsistentViewError):
        Reasoner(read_view(MinimalView(1, 3, 1, "1.1")).constraints[:1], 3).decide(1, False, ("test",))
    with pytest.raises(InconsistentViewError):
        local_rules("3..", 1, 3, [0])
