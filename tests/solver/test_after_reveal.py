"""Analysis.after_reveal: a view with one more number, worked out from the analysis before it, is the
analysis of that view made from scratch (the look-ahead of ``exact`` relies on it, move for move)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_probabilities import positions

from _solver_oracle import MinimalView, brute_force
from ipyminesweeper import new_board, play, reveal
from ipyminesweeper.solver import Analysis, InconsistentViewError, analyse
from ipyminesweeper.strategies import exact


def _shown(view: MinimalView, pos: tuple[int, int], number: int) -> MinimalView:
    i = pos[0] * view.cols + pos[1]
    return MinimalView(view.rows, view.cols, view.mines, view.cells[:i] + str(number) + view.cells[i + 1 :])


def _same(got: Analysis, want: Analysis) -> None:
    """Every field that says what the view is, and the counting tables behind them."""
    assert got == want  # rows, cols, mine count, probabilities, safe, mines, layouts, frontier, interior
    assert got._system == want._system
    assert got._fixed_safe == want._fixed_safe and got._fixed_mines == want._fixed_mines
    assert [cc.component for cc in got._counts] == [cc.component for cc in want._counts]
    assert got._where == want._where and got._all == want._all and got._others == want._others
    for pos in list(want.probabilities)[:6]:
        assert got.number_counts(pos) == want.number_counts(pos)


def _check(a: Analysis, view: MinimalView, pos: tuple[int, int], number: int) -> bool:
    """after_reveal against analyse on the view with ``pos`` showing ``number``; True if it fits."""
    hypo = _shown(view, pos, number)
    try:
        want = analyse(hypo, explain=False)
    except InconsistentViewError:
        with pytest.raises(InconsistentViewError):
            a.after_reveal(pos, number)
        return False
    _same(a.after_reveal(pos, number), want)
    return True


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_after_reveal_is_the_analysis_of_the_view_with_the_number(
    position: tuple[MinimalView, frozenset[tuple[int, int]]], data: st.DataObject
) -> None:
    view, _ = position
    a = analyse(view, explain=False)
    covered = sorted(a.probabilities)
    assume(covered)
    pos = data.draw(st.sampled_from(covered))
    number = data.draw(st.integers(0, 8))
    if _check(a, view, pos, number):  # and the brute-force oracle agrees on what it gives
        exact_p = brute_force(_shown(view, pos, number))
        assert exact_p is not None
        got = a.after_reveal(pos, number).probabilities
        assert all(abs(got[p] - float(q)) <= 1e-9 for p, q in exact_p.items())


def test_after_reveal_on_expert_positions_where_exact_guesses() -> None:
    """Real positions (many known mines, long propagation chains, several components): every covered
    cell next to the frontier, every number it can show."""
    checked = fits = 0
    for seed in range(1, 30):
        if checked >= 300:
            break
        board = reveal(new_board(16, 30, 99, seed=seed, first_click="safe"), (0, 0))
        while board.status == "playing" and checked < 600:
            view = MinimalView(board.rows, board.cols, board.mines, board.view.cells)
            a = analyse(view, explain=False)
            if not any(view.cells[r * view.cols + c] == "." for r, c in a.safe):  # exact guesses here
                for pos in sorted(a.frontier)[::3]:
                    for number in range(9):
                        fits += _check(a, view, pos, number)
                        checked += 1
            board, _ = play(board, exact, max_moves=1)
    assert checked >= 300 and fits >= 50


def test_after_reveal_rejects_a_cell_that_is_not_covered() -> None:
    a = analyse(MinimalView(2, 2, 1, "1..."))
    with pytest.raises(ValueError):
        a.after_reveal((0, 0), 1)
    with pytest.raises(ValueError):
        a.after_reveal((2, 0), 1)
    with pytest.raises(InconsistentViewError):
        a.after_reveal((0, 1), 4)  # more mines than neighbours
