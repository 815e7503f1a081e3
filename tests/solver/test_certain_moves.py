"""Certain moves are sound (checked against the true board), complete, and explained."""

from __future__ import annotations

import random

import pytest

from _solver_oracle import MinimalView, Pos, brute_force, make_position
from ipyminesweeper.solver import (
    Deductions,
    InconsistentViewError,
    analyse,
    certain_moves,
    deduce,
    probabilities,
)


def _random_positions(count: int, seed: int, small: bool = False) -> list[tuple[MinimalView, frozenset[Pos]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rows, cols = (
            (rng.randint(3, 7), rng.randint(3, 7)) if small else (rng.randint(3, 16), rng.randint(3, 30))
        )
        n = rows * cols
        mines = rng.randint(1, max(1, int(n * rng.uniform(0.1, 0.25))))
        revealed = rng.randint(0, n - mines)
        out.append(make_position(rows, cols, mines, rng.getrandbits(32), revealed, rng.randint(0, 5)))
    return out


def _check_sound(d: Deductions, mines: frozenset[Pos]) -> None:
    assert not d.safe & mines, sorted(d.safe & mines)
    assert d.mines <= mines, sorted(d.mines - mines)
    assert not d.safe & d.mines
    assert set(d.reasons) == d.safe | d.mines
    for pos, why in d.reasons.items():
        kind = "safe" if pos in d.safe else "a mine"
        assert why.startswith(f"({pos[0]},{pos[1]}) is {kind}: "), why


@pytest.mark.parametrize("seed", range(4))
def test_certain_moves_are_sound(seed: int) -> None:
    claimed = 0
    for view, mines in _random_positions(600, seed):
        quick = deduce(view)
        _check_sound(quick, mines)
        full = certain_moves(view, complete=True)
        _check_sound(full, mines)
        assert quick.safe <= full.safe and quick.mines <= full.mines
        assert full.reasons[next(iter(quick.reasons))] if quick.reasons else True
        claimed += len(full.safe) + len(full.mines)
    assert claimed > 1000  # the positions do give the rules something to find


def test_certain_moves_no_safe_cell_only_when_none_is_certain() -> None:
    fell_back = 0
    for view, mines in _random_positions(300, 99):
        d = certain_moves(view)
        _check_sound(d, mines)
        a = analyse(view)
        assert bool(d.safe) == bool(a.safe)
        if not deduce(view).safe:
            assert (d.safe, d.mines) == (a.safe, a.mines)
            fell_back += 1
    assert fell_back > 10


def test_complete_matches_exact_probabilities() -> None:
    for view, _ in _random_positions(200, 7):
        a = analyse(view)
        assert a.safe == {p for p, q in a.probabilities.items() if q == 0.0}
        assert a.mines == {p for p, q in a.probabilities.items() if q == 1.0}
        d = certain_moves(view, complete=True)
        assert (d.safe, d.mines) == (a.safe, a.mines)


def test_deductions_unpack_as_a_pair() -> None:
    safe, mines = deduce(MinimalView(1, 3, 1, "1.."))
    assert safe == {(0, 2)} and mines == {(0, 1)}


def test_single_point_reasons() -> None:
    #   1 . 1 .    the 1 at (0,0) has one covered neighbour, (0,1): a mine;
    #              the 1 at (0,2) already touches it, so (0,3) is safe
    d = deduce(MinimalView(1, 4, 1, "1.1."))
    assert d.mines == {(0, 1)} and d.safe == {(0, 3)}
    assert d.reasons[(0, 1)] == ("(0,1) is a mine: the 1 at (0,0) has exactly 1 covered neighbour: (0,1)")
    assert d.reasons[(0, 3)] == ("(0,3) is safe: the 1 at (0,2) already touches its mine at (0,1)")


def test_subset_rule_reason() -> None:
    #   . . . .
    #   1 1 . .      the 1 at (1,0) has its mine among (0,0),(0,1), both next to the 1 at (1,1)
    #   0 0 . .      so (0,2) is safe: the classic 1-1 pattern
    view = MinimalView(3, 4, 2, "....11..00..")
    d = deduce(view)
    assert (0, 2) in d.safe
    why = d.reasons[(0, 2)]
    assert "the 1 at (1,0)" in why and "the 1 at (1,1)" in why
    assert probabilities(view)[(0, 2)] == 0.0


def test_global_count_reason() -> None:
    # the 1 at (0,0) puts the only mine at (0,1): every other cell is safe
    d = deduce(MinimalView(1, 4, 1, "1..."))
    assert d.mines == {(0, 1)}
    assert d.safe == {(0, 2), (0, 3)}
    assert d.reasons[(0, 3)] == "(0,3) is safe: all 1 mine are accounted for"


def test_exact_reason_needs_the_whole_frontier() -> None:
    """A position the fast rules cannot crack but the enumeration can: reasons still given."""
    found = 0
    for view, mines in _random_positions(1000, 1234, small=True):
        if deduce(view):
            continue
        d = certain_moves(view)
        _check_sound(d, mines)
        for why in d.reasons.values():
            assert any(phrase in why for phrase in ("every layout", "no other choice", "numbers need all")), (
                why
            )
        found += bool(d)
    assert found > 10


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "cells", "fragment"),
    [
        (1, 3, 1, "3..", "has only 1 covered neighbour"),
        (2, 2, 3, "4...", "has only 3 covered neighbours"),
        (1, 3, 5, "...", "5 mines but only 3 covered"),
        (2, 2, 1, "2...", "mine"),
        (1, 4, 0, "1...", "mine"),
        (1, 5, 2, "1.0..", "cannot be satisfied"),  # the 0 frees (0,1), the 1 has nowhere left
        (1, 5, 1, "1...1", "mine"),  # two 1s with no common neighbour need 2 mines
        (2, 3, 1, "11.0..", "cannot be satisfied"),  # the 0 frees (1,1), the 1 at (0,0) needs it
    ],
)
def test_inconsistent_views_raise(rows: int, cols: int, mines: int, cells: str, fragment: str) -> None:
    view = MinimalView(rows, cols, mines, cells)
    assert brute_force(view) is None
    with pytest.raises(InconsistentViewError, match=fragment):
        probabilities(view)
    with pytest.raises(InconsistentViewError, match=fragment):
        analyse(view)
    with pytest.raises(InconsistentViewError, match=fragment):
        certain_moves(view, complete=True)
    assert issubclass(InconsistentViewError, ValueError)


def test_fast_rules_raise_on_contradictions_they_meet() -> None:
    # the 0 at (1,0) frees (1,1), which the 1 at (0,0) needs
    with pytest.raises(InconsistentViewError, match="cannot be satisfied"):
        deduce(MinimalView(2, 3, 1, "11.0.."))
    with pytest.raises(InconsistentViewError, match="cannot be satisfied"):
        certain_moves(MinimalView(2, 3, 1, "11.0.."))


def test_bad_views_raise_value_error() -> None:
    with pytest.raises(ValueError, match="needs 4"):
        probabilities(MinimalView(2, 2, 1, "..."))
    with pytest.raises(ValueError, match="alphabet"):
        probabilities(MinimalView(1, 2, 1, "?."))


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_certain_moves_sound_in_real_games(level: str) -> None:
    """Seeded engine games played with the solver: every claim checked against the board."""
    from ipyminesweeper import new_board, reveal

    games = {"beginner": 100, "intermediate": 40, "expert": 15}[level]
    checked = 0
    for seed in range(games):
        board = new_board(level, seed=seed)
        board = reveal(board, (board.rows // 2, board.cols // 2))
        while board.status == "playing":
            view = board.view
            d = certain_moves(view)
            for pos in d.safe:
                assert not board.is_mine(pos), d.reasons[pos]
            for pos in d.mines:
                assert board.is_mine(pos), d.reasons[pos]
            checked += len(d.safe) + len(d.mines)
            if d.safe:
                for pos in sorted(d.safe):
                    if board.status == "playing":
                        board = reveal(board, pos)
                continue
            a = analyse(view)
            assert not a.safe
            assert all(board.is_mine(p) for p in a.mines)
            probs = {p: q for p, q in a.probabilities.items() if p not in a.mines}
            board = reveal(board, min(probs, key=lambda p: (probs[p], p)))
    assert checked > 1000
