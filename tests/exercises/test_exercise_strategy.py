"""Notebook 03's checker: a strategy is a legal, deterministic function of the view that never guesses
while a covered cell is certainly safe. The notebook's solution passes; strategies with the usual
mistakes fail, on a small view."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from _wrong import assert_caught, assert_passes, checked, counterexample_of

from ipyminesweeper import Move, Position, View, certain_moves, probabilities, simple
from ipyminesweeper.exercises import Check, check_strategy

pytestmark = pytest.mark.slow


def solution_strategy(view: View) -> Move:
    """Notebook 03's my_strategy: the covered cell least likely to be a mine, in reading order on a tie."""
    middle = (view.rows // 2, view.cols // 2)
    if view.status == "ready" and view[middle] == ".":
        return Move("reveal", middle, "first click: the middle of the board")
    p = probabilities(view)
    covered = [pos for pos in p if view[pos] == "." and p[pos] < 1]
    if not covered:  # every covered cell is flagged or a mine: take back the flag least likely on a mine
        best = min(p, key=lambda pos: p[pos])
        return Move("flag", best, f"unflag {best}", p[best])
    best = min(covered, key=lambda pos: p[pos])
    return Move("reveal", best, f"{best} is the least likely mine", p[best])


def first_covered_cell(view: View) -> Move:
    """A blind guess every time."""
    return Move("reveal", view.covered()[0], "the first covered cell")


def random_among_the_safest(view: View) -> Move:
    """Random tie-breaking: the same view gets different moves."""
    p = probabilities(view)
    covered = [pos for pos in p if view[pos] == "."]
    low = min(p[pos] for pos in covered)
    return Move("reveal", random.choice([pos for pos in covered if p[pos] == low]), "a safest cell")


def most_likely_mine(view: View) -> Move:
    """max where min was meant."""
    p = probabilities(view)
    covered = [pos for pos in p if view[pos] == "."]
    return Move("reveal", max(covered, key=lambda pos: p[pos]), "the riskiest cell")


def counting_flagged_cells(view: View) -> Move:
    """probabilities() also gives the flagged cells: revealing one is not a legal move."""
    p = probabilities(view)
    return Move("reveal", min(p, key=lambda pos: p[pos]), "the least likely mine")


def row_and_col_swapped(view: View) -> Move:
    move = solution_strategy(view)
    return Move(move.action, (move.pos[1], move.pos[0]), move.reason)


def a_tuple_instead_of_a_move(view: View) -> tuple[str, Position]:
    return ("reveal", solution_strategy(view).pos)


CALLS = {"n": 0}


def remembering_its_calls(view: View) -> Move:
    """Hidden state between calls: the second call on a view gets another cell."""
    CALLS["n"] += 1
    covered = view.covered()
    return Move("reveal", covered[CALLS["n"] % len(covered)], "round robin")


def single_point_rule_with_off_by_one_neighbours(view: View) -> Move:
    """simple's first rule by hand, with range(-1, 1): misses the row below and the column to the right."""
    for r in range(view.rows):
        for c in range(view.cols):
            ch = view[(r, c)]
            if not ch.isdigit():
                continue
            around = [
                (r + dr, c + dc)
                for dr in range(-1, 1)
                for dc in range(-1, 1)
                if (dr, dc) != (0, 0) and 0 <= r + dr < view.rows and 0 <= c + dc < view.cols
            ]
            flags = sum(view[q] == "f" for q in around)
            covered = [q for q in around if view[q] == "."]
            if covered and flags == int(ch):
                return Move("reveal", covered[0], "the number has its flags", 0.0)
    return Move("reveal", view.covered()[0], "a guess")


def careful_that_forgets_every_cell_flagged(view: View) -> Move:
    """Notebook 03's careful as it was: a guess at view.covered()[0] when nothing is certain, which
    raises IndexError when wrong flags cover every covered cell."""
    known = certain_moves(view, complete=True)
    safe = sorted(pos for pos in known.safe if view[pos] == ".")
    if safe:
        return Move("reveal", safe[0], known.reasons[safe[0]], 0.0)
    mines = sorted(pos for pos in known.mines if view[pos] == ".")
    if mines:
        return Move("flag", mines[0], known.reasons[mines[0]], 1.0)
    return Move("reveal", view.covered()[0], "nothing is certain: a guess")


WRONG = [
    careful_that_forgets_every_cell_flagged,
    first_covered_cell,
    simple,
    random_among_the_safest,
    most_likely_mine,
    counting_flagged_cells,
    row_and_col_swapped,
    a_tuple_instead_of_a_move,
    remembering_its_calls,
    single_point_rule_with_off_by_one_neighbours,
]


def test_the_solution_passes() -> None:
    assert_passes(check_strategy(solution_strategy), "a covered cell was certainly safe")


@pytest.mark.parametrize("wrong", WRONG, ids=lambda f: f.__name__)
def test_a_wrong_strategy_fails(wrong: Callable[[View], object]) -> None:
    assert_caught(checked(check_strategy, wrong), wrong)


def test_what_each_mistake_is_told() -> None:
    assert (
        "two different moves" in counterexample_of(checked(check_strategy, random_among_the_safest)).summary
    )
    assert "certainly safe" in counterexample_of(checked(check_strategy, first_covered_cell)).summary
    assert "not a Move" in counterexample_of(checked(check_strategy, a_tuple_instead_of_a_move)).summary
    assert "flagged" in counterexample_of(checked(check_strategy, counting_flagged_cells)).summary


def test_a_view_with_every_covered_cell_flagged_is_tried() -> None:
    """Wrong flags can cover every covered cell; then a strategy must take a flag back, not crash."""
    check = checked(check_strategy, careful_that_forgets_every_cell_flagged)
    example = counterexample_of(check)
    (view,) = example.inputs
    assert "." not in view.cells and "f" in view.cells and "IndexError" in example.summary


def test_the_legend_says_what_the_marked_cells_are() -> None:
    """The marked cells of a guess are the certainly safe ones, not cells that differ."""
    check = check_strategy(first_covered_cell)
    assert "[x] marks the certainly safe cells, <x> the cell of the move." in str(check)
    assert "Red: the certainly safe cells. Blue: the cell of the move." in check._repr_html_()


def test_exact_keeps_both_promises() -> None:
    """Notebook 03 says so."""
    from ipyminesweeper import exact

    assert_passes(check_strategy(exact))


def test_a_few_tries_still_ask_about_every_kind_of_view() -> None:
    """tries=1 still searches both kinds of views (one example each at least)."""
    from ipyminesweeper import exact

    assert check_strategy(exact, tries=1).tried >= 2


# --- strategies that win nothing, yet passed the check before (issue 27) ------------------------------


def toggling_a_flag(view: View) -> Move:
    """Never reveals: toggles the flag on the first cell not revealed, so it flags, unflags, flags..."""
    first = next(divmod(i, view.cols) for i, ch in enumerate(view.cells) if ch in ".f")
    return Move("flag", first, "a flag")


def flagging_the_safe_and_revealing_the_mines(view: View) -> Move:
    """careful with its two rules swapped: flags the certainly safe cells, reveals the certain mines."""
    known = certain_moves(view, complete=True)
    safe = sorted(pos for pos in known.safe if view[pos] == ".")
    if safe:
        return Move("flag", safe[0], "certainly safe", 1.0)
    mines = sorted(pos for pos in known.mines if view[pos] == ".")
    if mines:
        return Move("reveal", mines[0], "certainly a mine", 0.0)
    return solution_strategy(view)


def claiming_every_guess_is_safe(view: View) -> Move:
    """The solution, but every reveal says P(mine) = 0: a leaderboard would count no guess at all."""
    move = solution_strategy(view)
    return Move(move.action, move.pos, move.reason, 0.0 if move.action == "reveal" else move.probability)


def broken(check: Check) -> set[str]:
    return {p.name for p in check.properties if not p.held}


def test_a_strategy_that_never_reveals_is_caught() -> None:
    check = checked(check_strategy, toggling_a_flag)
    assert_caught(check, toggling_a_flag)
    assert "no flag put and taken back at once" in broken(check)


def test_a_strategy_that_flags_the_safe_and_reveals_the_mines_is_caught() -> None:
    check = checked(check_strategy, flagging_the_safe_and_revealing_the_mines)
    assert_caught(check, flagging_the_safe_and_revealing_the_mines)
    assert {"no flag on a certainly safe cell", "no reveal of a certain mine"} <= broken(check)


def test_a_strategy_that_claims_certainty_it_does_not_have_is_caught() -> None:
    check = checked(check_strategy, claiming_every_guess_is_safe)
    assert_caught(check, claiming_every_guess_is_safe)
    assert broken(check) == {"no claimed certainty (a probability of 0 or 1) that is wrong"}
    assert check.score == (6, 7)
    assert "P(mine) = 0%" in counterexample_of(check).summary


def test_a_strategy_that_unflags_a_certain_mine_and_flags_it_again_is_caught() -> None:
    """Notebook 03's folded careful did this when wrong flags covered every covered cell: it took back
    a flag on a certain mine, then flagged it again, forever."""

    def careful_unflagging_the_first_flag(view: View) -> Move:
        if view.covered():
            return careful_that_forgets_every_cell_flagged(view)
        first = next(divmod(i, view.cols) for i, ch in enumerate(view.cells) if ch == "f")
        return Move("flag", first, "unflag the first flag")

    check = check_strategy(careful_unflagging_the_first_flag)
    assert broken(check) == {"no flag put and taken back at once"}, str(check)
