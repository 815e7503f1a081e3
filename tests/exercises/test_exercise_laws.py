"""Notebook 05's checkers. check_law: the game's laws hold with the engine's rules, and every broken
rule of MUTANTS breaks one of them on a small board. check_property: good properties pass (they hold,
and catch a broken rule); the usual mistakes in writing a property fail."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import reduce

import pytest
from _wrong import SMALL, assert_caught, assert_passes, counterexample_of

from ipyminesweeper import Board, CellState, Position, toggle_flag
from ipyminesweeper.exercises import MUTANTS, RULES, Rules, check_broken_rule, check_law, check_property
from ipyminesweeper.exercises.generate import Rule

pytestmark = pytest.mark.slow

Law = Callable[[Board, Position, Rules], None]


def flagging_twice_changes_nothing(board: Board, pos: Position, rules: Rules) -> None:
    if board.state(pos) is not CellState.REVEALED:
        assert rules.toggle_flag(rules.toggle_flag(board, pos), pos) == board


def revealing_twice_is_revealing_once(board: Board, pos: Position, rules: Rules) -> None:
    once = rules.reveal(board, pos)
    if not once.over:
        assert rules.reveal(once, pos) == once


def text_and_json_round_trips(board: Board, pos: Position, rules: Rules) -> None:
    assert Board.from_text(board.to_text()) == board
    assert Board.from_json(board.to_json()) == board


def a_move_never_changes_the_mines(board: Board, pos: Position, rules: Rules) -> None:
    if board.placed:
        for move in (rules.reveal, rules.toggle_flag, rules.chord):
            assert move(board, pos).mask == board.mask


def the_counter_is_mines_minus_flags(board: Board, pos: Position, rules: Rules) -> None:
    for move in (rules.reveal, rules.toggle_flag, rules.chord):
        after = move(board, pos)
        assert after.view.flags_left == after.mines - after.flags


def chord_is_revealing_the_neighbours(board: Board, pos: Position, rules: Rules) -> None:
    around = board.neighbours(pos)
    flags = [p for p in around if board.state(p) is CellState.FLAGGED]
    if board.state(pos) is not CellState.REVEALED or board.count(pos) == 0 or len(flags) != board.count(pos):
        assert rules.chord(board, pos) == board
    elif all(board.is_mine(p) for p in flags):
        covered = [p for p in around if board.state(p) is CellState.COVERED]
        one_by_one = reduce(lambda b, p: b if b.over else rules.reveal(b, p), covered, board)
        assert rules.chord(board, pos) == one_by_one


LAWS = [
    flagging_twice_changes_nothing,
    revealing_twice_is_revealing_once,
    text_and_json_round_trips,
    a_move_never_changes_the_mines,
    the_counter_is_mines_minus_flags,
    chord_is_revealing_the_neighbours,
]


def revealing_a_flag_changes_nothing(board: Board, pos: Position, rules: Rules) -> None:
    if board.state(pos) is CellState.FLAGGED:
        assert rules.reveal(board, pos) == board


def a_move_in_play_returns_a_board(board: Board, pos: Position, rules: Rules) -> None:
    for move in (rules.reveal, rules.toggle_flag, rules.chord):
        assert isinstance(move(board, pos), Board)


def a_zero_opens_its_neighbours(board: Board, pos: Position, rules: Rules) -> None:
    """Revealing a covered 0 reveals every neighbour that is not flagged. (Not "no revealed 0 has a
    covered neighbour": a flag taken back after the cascade leaves one.)"""
    if board.state(pos) is not CellState.COVERED:
        return
    after = rules.reveal(board, pos)
    if after.status == "playing" and after.state(pos) is CellState.REVEALED and after.count(pos) == 0:
        assert all(after.state(p) is not CellState.COVERED for p in after.neighbours(pos))


def flagging_a_revealed_cell_changes_nothing(board: Board, pos: Position, rules: Rules) -> None:
    if board.state(pos) is CellState.REVEALED:
        assert rules.toggle_flag(board, pos) == board


def revealing_a_revealed_cell_changes_nothing(board: Board, pos: Position, rules: Rules) -> None:
    if board.state(pos) is CellState.REVEALED:
        assert rules.reveal(board, pos) == board


GOOD = [
    *LAWS,
    revealing_a_flag_changes_nothing,
    a_move_in_play_returns_a_board,
    a_zero_opens_its_neighbours,
    flagging_a_revealed_cell_changes_nothing,
    revealing_a_revealed_cell_changes_nothing,
]


@pytest.mark.parametrize("law", LAWS, ids=lambda f: f.__name__)
def test_the_laws_hold_with_the_engines_rules(law: Law) -> None:
    assert_passes(check_law(law, RULES))


CAUGHT_BY = {
    "toggle_flag never unflags": flagging_twice_changes_nothing,
    "toggle_flag flags revealed cells too": flagging_a_revealed_cell_changes_nothing,
    "reveal does not cascade through zeros": a_zero_opens_its_neighbours,
    "reveal opens flagged cells": revealing_a_flag_changes_nothing,
    "reveal moves a mine away from the click": a_move_never_changes_the_mines,
    "reveal on a revealed number chords": revealing_a_revealed_cell_changes_nothing,
    "chord ignores the flags": chord_is_revealing_the_neighbours,
    "chord goes on after a loss": a_move_in_play_returns_a_board,
}
"""The good property that catches each broken rule: the law that states the rule it breaks. (Checking
only that one: the good properties that hold with a broken rule each cost a full search.)"""


@pytest.mark.parametrize("mutant", list(MUTANTS), ids=str)
def test_every_broken_rule_breaks_a_good_property_on_a_small_board(mutant: str) -> None:
    assert mutant in CAUGHT_BY, f"which good property catches {mutant!r}? Add it to CAUGHT_BY"
    law = CAUGHT_BY[mutant]
    assert law in GOOD
    check = check_law(law, MUTANTS[mutant], tries=150)
    assert not check, f"{law.__name__} does not catch {mutant!r}"
    board = counterexample_of(check).board
    assert board is not None
    assert board.rows <= SMALL and board.cols <= SMALL, f"{law.__name__}: {board}"
    assert "✗" in str(check) and "<table" in check._repr_html_()


@pytest.mark.parametrize("prop", GOOD, ids=lambda f: f.__name__)
def test_good_properties_pass_and_catch_a_broken_rule(prop: Law) -> None:
    check = check_property(prop, tries=150)
    if prop is text_and_json_round_trips:  # a law of the notation: no broken move breaks it
        assert not check and "cannot tell right from wrong" in counterexample_of(check).summary
        return
    assert check, str(check)
    assert "catches" in str(check) and check.illustration is not None


def always_true(board: Board, pos: Position, rules: Rules) -> None:
    assert True


def revealing_always_changes_the_board(board: Board, pos: Position, rules: Rules) -> None:
    """False: revealing a flagged or a revealed cell changes nothing."""
    assert rules.reveal(board, pos) != board


def positions_spread_as_arguments(board: Board, pos: Position, rules: Rules) -> None:
    """reveal(board, *pos): a TypeError with the engine's rules."""
    rules.reveal(board, *pos)  # type: ignore[call-arg, arg-type]  # the mistake this property shows


def flagging_adds_a_flag(board: Board, pos: Position, rules: Rules) -> None:
    """False on a flagged cell (it unflags) and on a revealed one (nothing changes)."""
    assert rules.toggle_flag(board, pos).flags == board.flags + 1


def the_same_call_twice(board: Board, pos: Position, rules: Rules) -> None:
    """A tautology: any deterministic rule passes."""
    assert rules.reveal(board, pos) == rules.reveal(board, pos)


def a_reveal_keeps_the_game_on(board: Board, pos: Position, rules: Rules) -> None:
    """Too strong: a reveal may win or lose."""
    assert not rules.reveal(board, pos).over


BAD = [
    always_true,
    revealing_always_changes_the_board,
    positions_spread_as_arguments,
    flagging_adds_a_flag,
    the_same_call_twice,
    a_reveal_keeps_the_game_on,
]


@pytest.mark.parametrize("prop", BAD, ids=lambda f: f.__name__)
def test_bad_properties_fail(prop: Law) -> None:
    check = check_property(prop, tries=150)
    assert_caught(check, prop)


def test_rules_must_be_rules() -> None:
    with pytest.raises(TypeError, match="Rules"):
        check_law(always_true, rules={"reveal": None})  # type: ignore[arg-type]  # not Rules, on purpose
    assert Rules() == RULES


# --- notebook 05's "break a rule": each suggested break, and the law the notebook says catches it -------


def never_unflags(board: Board, pos: Position) -> Board:
    return board if board.state(pos) is CellState.FLAGGED else toggle_flag(board, pos)


def flags_revealed_cells_too(board: Board, pos: Position) -> Board:
    i = board.index(pos)
    if board.states[i] != CellState.REVEALED.value:
        return toggle_flag(board, pos)
    return replace(board, states=board.states[:i] + bytes([CellState.FLAGGED.value]) + board.states[i + 1 :])


def flags_the_cell_to_the_right(board: Board, pos: Position) -> Board:
    """The next cell in reading order: on the next row after the last column (it wraps round)."""
    return toggle_flag(board, divmod((board.index(pos) + 1) % (board.rows * board.cols), board.cols))


def a_revealed_cell_takes_no_flag(board: Board, pos: Position, rules: Rules) -> None:
    if board.state(pos) is CellState.REVEALED:
        assert rules.toggle_flag(board, pos) == board


def toggle_flag_changes_only_its_cell(board: Board, pos: Position, rules: Rules) -> None:
    after = rules.toggle_flag(board, pos)
    for other in board.positions():
        if other != pos:
            assert after.state(other) is board.state(other)


SUGGESTED = [
    (never_unflags, flagging_twice_changes_nothing, True),
    (flags_revealed_cells_too, a_revealed_cell_takes_no_flag, False),
    (flags_the_cell_to_the_right, toggle_flag_changes_only_its_cell, False),
]


@pytest.mark.parametrize(
    "broken, law, twice_catches", SUGGESTED, ids=lambda x: getattr(x, "__name__", str(x))
)
def test_each_suggested_break_is_caught_by_the_law_the_notebook_names(
    broken: Rule, law: Law, twice_catches: bool
) -> None:
    check = check_broken_rule(broken, law)
    assert check and check.score == (3, 3), str(check)
    missed = check_law(flagging_twice_changes_nothing, Rules(toggle_flag=broken))
    assert bool(missed) is not twice_catches  # flagging twice misses the last two, as the notebook says


def test_a_law_that_misses_the_break_loses_that_point() -> None:
    check = check_broken_rule(flags_revealed_cells_too, flagging_twice_changes_nothing)
    assert not check and check.score == (2, 3)
    assert "does not catch the break" in counterexample_of(check).summary
