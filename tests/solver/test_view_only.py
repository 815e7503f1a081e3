"""The solver reads a view and nothing else: no mine field, no status, no board."""

from __future__ import annotations

import pytest

from _solver_oracle import MinimalView, brute_force, make_position
from ipyminesweeper.solver import analyse, certain_moves, deduce, probabilities

ALLOWED = {"rows", "cols", "mines", "cells"}


class GuardedView:
    """A view-like object that fails the test on any read outside rows/cols/mines/cells."""

    def __init__(self, view: MinimalView) -> None:
        object.__setattr__(self, "_view", view)
        object.__setattr__(self, "reads", set())

    def __getattribute__(self, name: str) -> object:
        if name in ("_view", "reads", "__class__", "__dict__"):
            return object.__getattribute__(self, name)
        if name not in ALLOWED:
            raise AssertionError(f"the solver read view.{name}")
        object.__getattribute__(self, "reads").add(name)
        return getattr(object.__getattribute__(self, "_view"), name)


@pytest.mark.parametrize("seed", range(20))
def test_solver_reads_only_the_view_fields(seed: int) -> None:
    view, _ = make_position(6, 7, 6, seed, revealed=26, flags=2)
    guarded = GuardedView(view)
    expected = brute_force(view)
    assert expected is not None
    got = probabilities(guarded)  # type: ignore[arg-type]
    assert got == pytest.approx({p: float(q) for p, q in expected.items()}, abs=1e-9)
    a = analyse(guarded)  # type: ignore[arg-type]
    assert dict(a.reasons) is not None
    certain_moves(guarded, complete=True)  # type: ignore[arg-type]
    deduce(guarded)  # type: ignore[arg-type]
    assert object.__getattribute__(guarded, "reads") <= ALLOWED


def test_guard_catches_other_reads() -> None:
    """The guard itself works (so the test above can fail)."""
    guarded = GuardedView(MinimalView(1, 2, 1, "1."))
    with pytest.raises(AssertionError, match=r"view\.status"):
        _ = guarded.status


def test_engine_view() -> None:
    """The engine's View works as is; flagged cells get probabilities like covered ones."""
    from ipyminesweeper import new_board, reveal, toggle_flag

    board = reveal(new_board(9, 9, 10, seed=3), (4, 4))
    covered = [p for p in board.covered() if p != (0, 0)]
    board = toggle_flag(board, covered[0])
    view = board.view
    probs = probabilities(view)
    expected_cells = {(r, c) for r in range(9) for c in range(9) if view.cells[r * 9 + c] in ".f"}
    assert set(probs) == expected_cells
    assert abs(sum(probs.values()) - view.mines) < 1e-9  # expected mines = the mine count
    for pos in analyse(view).mines:
        assert board.is_mine(pos)
