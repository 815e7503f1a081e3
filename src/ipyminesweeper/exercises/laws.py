"""Notebook 05's exercises: the game's laws as properties, and properties that can tell right from wrong.

A *property* here is a function ``prop(board, pos, rules)`` that asserts something about the moves
``rules.reveal``, ``rules.toggle_flag`` and ``rules.chord`` at one position of one board. :data:`RULES`
are the engine's moves; :data:`MUTANTS` are the same with one rule broken the way people break it.

- :func:`check_law` looks for a board where the property fails, with the rules you give it, and shows
  the smallest one Hypothesis shrinks to. Break a rule on purpose and watch it.
- :func:`check_property` is the check of a property you wrote: it must hold with the real rules, and
  fail with at least one broken set of rules (a property that holds whatever the rules do tests
  nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import reduce
from typing import Any

from ..engine import (
    Board,
    CellState,
    GameOverError,
    Minefield,
    Position,
    chord,
    open_cells,
    place_mines,
    reveal,
    toggle_flag,
)
from .foreign import type_name
from .generate import Rule, draw_situation
from .limits import call, call_each
from .moves import check_toggle_flag
from .needs import recorded
from .report import Check, Counterexample, PropertyResult, board_panel, count, note_panel
from .search import SEED, Verdict, function_name, require_function, run_check

__all__ = [
    "BROKEN_RULE",
    "LAW",
    "MUTANTS",
    "PROPERTY",
    "RULES",
    "Rules",
    "check_broken_rule",
    "check_law",
    "check_property",
]

LAW = ("the law holds",)
"""The one property of ``check_law``."""

PROPERTY = ("it holds with the engine's rules", "it fails with at least one broken rule")
"""The properties of ``check_property``: true of the game, and able to tell right from wrong."""


@dataclass(frozen=True)
class Rules:
    """The three moves a property may use. ``Rules()`` are the engine's own; ``Rules(reveal=mine)``
    the same with your ``reveal`` instead."""

    reveal: Rule = reveal
    toggle_flag: Rule = toggle_flag
    chord: Rule = chord


RULES = Rules()
"""The engine's moves."""

Property = Callable[[Board, Position, Rules], Any]


def _index(board: Board, pos: Position) -> int:
    index = board.index(pos)
    if board.over:
        raise GameOverError(f"the game is {board.status}: no more moves")
    return index


def _with_states(board: Board, states: bytearray) -> Board:
    return Board(board.rows, board.cols, board.mines, bytes(states), board.minefield, board.exploded_index)


def _never_unflags(board: Board, pos: Position) -> Board:
    return board if board.state(pos) is CellState.FLAGGED else toggle_flag(board, pos)


def _flags_revealed_cells(board: Board, pos: Position) -> Board:
    index = _index(board, pos)
    states = bytearray(board.states)
    states[index] = (
        CellState.COVERED.value if states[index] == CellState.FLAGGED.value else CellState.FLAGGED.value
    )
    return _with_states(board, states)


def _no_cascade(board: Board, pos: Position) -> Board:
    index = _index(board, pos)
    if board.states[index] != CellState.COVERED.value:
        return board
    board = place_mines(board, index)
    if board.mask[index]:
        return open_cells(board, (index,))  # a mine: lost, as the real rule
    states = bytearray(board.states)
    states[index] = CellState.REVEALED.value
    if states.count(CellState.REVEALED.value) == board.rows * board.cols - board.mines:
        return open_cells(board, (index,))  # the last safe cell: won, as the real rule
    return _with_states(board, states)


def _opens_flags(board: Board, pos: Position) -> Board:
    if board.state(pos) is CellState.FLAGGED:
        board = toggle_flag(board, pos)
    return reveal(board, pos)


def _moves_the_mine(board: Board, pos: Position) -> Board:
    """A mine under the first click moves away, as in old Windows Minesweeper, but on every click."""
    index = _index(board, pos)
    if board.states[index] != CellState.COVERED.value or not board.is_mine(pos):
        return reveal(board, pos)
    free = [
        i
        for i, m in enumerate(board.mask)
        if not m and board.states[i] == CellState.COVERED.value and i != index
    ]
    if not free:
        return reveal(board, pos)
    mask = bytearray(board.mask)
    mask[index], mask[free[0]] = 0, 1
    field = Minefield(board.rows, board.cols, bytes(mask))
    return reveal(Board(board.rows, board.cols, board.mines, board.states, field), pos)


def _reveal_chords_numbers(board: Board, pos: Position) -> Board:
    """Clicking a revealed number chords (as the widget does), built into ``reveal``."""
    if board.state(pos) is CellState.REVEALED and not board.over:
        return chord(board, pos)
    return reveal(board, pos)


def _chord_ignores_flags(board: Board, pos: Position) -> Board:
    index = _index(board, pos)
    if board.states[index] != CellState.REVEALED.value or board.count(pos) == 0:
        return board
    covered = [p for p in board.neighbours(pos) if board.state(p) is CellState.COVERED]
    return reduce(lambda b, p: b if b.over else reveal(b, p), covered, board)


def _chord_goes_on(board: Board, pos: Position) -> Board:
    if board.state(pos) is not CellState.REVEALED:
        return board
    around = board.neighbours(pos)
    flags = sum(1 for p in around if board.state(p) is CellState.FLAGGED)
    if board.count(pos) == 0 or flags != board.count(pos):
        return board
    return reduce(reveal, [p for p in around if board.state(p) is CellState.COVERED], board)


MUTANTS: dict[str, Rules] = {
    "toggle_flag never unflags": Rules(toggle_flag=_never_unflags),
    "toggle_flag flags revealed cells too": Rules(toggle_flag=_flags_revealed_cells),
    "reveal does not cascade through zeros": Rules(reveal=_no_cascade),
    "reveal opens flagged cells": Rules(reveal=_opens_flags),
    "reveal moves a mine away from the click": Rules(reveal=_moves_the_mine),
    "reveal on a revealed number chords": Rules(reveal=_reveal_chords_numbers),
    "chord ignores the flags": Rules(chord=_chord_ignores_flags),
    "chord goes on after a loss": Rules(chord=_chord_goes_on),
}
"""The engine's moves with one rule broken, by what is broken."""


def _law_failure(
    prop: Property, rules: Rules, board: Board, pos: Position, label: str
) -> Counterexample | None:
    got = call(prop, board, pos, rules)
    if not got.raised:
        return None
    kind = "fails" if isinstance(got.error, AssertionError) else f"raises {type_name(got.error)}"
    message = str(got.error)
    summary = f"{function_name(prop)} {kind} {label}" + (f": {message}" if message else "")
    return Counterexample(
        f"{function_name(prop)}(board, {pos}, rules)",
        summary,
        (
            board_panel("board", board, focus=pos),
            note_panel("result", f"{kind}{': ' + message if message else ''}"),
        ),
        (board, pos, rules),
        got.error,
        None,
        got.trace,
    )


@recorded
def check_law(
    prop: Property, rules: Rules = RULES, tries: int = 300, shrink: bool = True, *, seed: int = SEED
) -> Check:
    """Look for a board and a position where ``prop(board, pos, rules)`` fails (an assertion or any
    other exception); the check shows the smallest one (with ``shrink=False``: the first one found, as
    Hypothesis drew it), or is truthy if none was found."""
    require_function(prop, "check_law", "(board, pos, rules)")
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (e.g. Rules(reveal=my_reveal)), not {type(rules).__name__}")
    label = "with the engine's rules" if rules == RULES else "with these rules"

    def judge(example: tuple[Board, Position]) -> Verdict:
        board, pos = example
        return Verdict(_law_failure(prop, rules, board, pos, label), (), LAW)

    return run_check("law", prop, draw_situation, judge, tries, properties=LAW, shrink=shrink, seed=seed)


@recorded
def check_property(prop: Property, tries: int = 300, *, seed: int = SEED) -> Check:
    """Check a property you wrote: it holds with the engine's rules (:data:`RULES`), and it fails with
    at least one of the broken rules of :data:`MUTANTS`. The check lists the mutants it caught."""
    require_function(prop, "check_property", "(board, pos, rules)")
    caught: dict[str, tuple[Board, Position]] = {}

    def judge(example: tuple[Board, Position]) -> Verdict:
        board, pos = example
        found = _law_failure(prop, RULES, board, pos, "with the engine's rules (so the property is wrong)")
        if found is None:
            left = [name for name in MUTANTS if name not in caught]
            tried = call_each(prop, [(board, pos, MUTANTS[name]) for name in left])
            caught.update((name, (board, pos)) for name, got in zip(left, tried, strict=True) if got.raised)
        return Verdict(found, (), PROPERTY[:1])

    real = run_check("property", prop, draw_situation, judge, tries, properties=PROPERTY[:1], seed=seed)
    name = function_name(prop)
    holds = real.properties[0]
    if not caught:
        summary = (
            "it holds with the engine's rules, and also with every broken set of rules: it cannot tell "
            "right from wrong. Broken: " + "; ".join(MUTANTS)
        )
        useless = Counterexample(f"{name}(board, pos, rules)", summary, ())
        return _property_check(real, holds, PropertyResult(PROPERTY[1], real.tried, useless))
    if not real:
        return _property_check(real, holds, PropertyResult(PROPERTY[1], real.tried))
    first = next(iter(caught))
    shrunk = check_law(prop, MUTANTS[first], tries, seed=seed)
    notes = [
        f"It holds with the engine's rules and catches {len(caught)} of {count(len(MUTANTS), 'broken rule')}:"
    ]
    notes += [f"  - {mutant}" for mutant in caught]
    if shrunk.counterexample is not None:
        notes.append(f"The smallest board Hypothesis found for '{first}':")
    return replace(
        _property_check(real, holds, PropertyResult(PROPERTY[1], real.tried)),
        notes=tuple(notes),
        illustration=shrunk.counterexample,
    )


def _property_check(real: Check, holds: PropertyResult, tells: PropertyResult) -> Check:
    """``real`` (the run with the engine's rules) with both properties of :data:`PROPERTY`."""
    shown = holds.counterexample or tells.counterexample
    return replace(real, counterexample=shown, properties=(holds, tells), counts=() if shown else real.counts)


BROKEN_RULE = (
    "your toggle_flag is broken: it differs from the engine's somewhere",
    "your law holds with the engine's rules",
    "your law catches your broken toggle_flag",
)
"""The properties of ``check_broken_rule`` (notebook 05's last exercise)."""


@recorded
def check_broken_rule(
    broken_toggle_flag: Rule, law: Property, tries: int = 300, *, seed: int = SEED
) -> Check:
    """Notebook 05's exercise: ``broken_toggle_flag`` is wrong somewhere, ``law`` holds with the engine's
    rules, and ``law`` fails with ``Rules(toggle_flag=broken_toggle_flag)``. Shows the smallest board on
    which the law catches the break."""
    require_function(broken_toggle_flag, "check_broken_rule", "(board, pos) -> Board")
    require_function(law, "check_broken_rule", "(board, pos, rules)")
    differs = check_toggle_flag(broken_toggle_flag, tries, seed=seed)
    holds = check_law(law, RULES, tries, seed=seed)
    caught = check_law(law, Rules(toggle_flag=broken_toggle_flag), tries, seed=seed)
    same = Counterexample(
        f"{function_name(broken_toggle_flag)}(board, pos)",
        f"it gives the engine's board on all {count(differs.tried, 'example')} tried: it is not broken yet",
        (),
    )
    missed = Counterexample(
        f"{function_name(law)}(board, pos, rules)",
        f"it holds with your broken toggle_flag on all {count(caught.tried, 'example')} tried: it does not "
        "catch the break. State what your break gets wrong (which cells may change, and how)",
        (),
    )
    results = (
        PropertyResult(BROKEN_RULE[0], differs.tried, None if not differs else same),
        PropertyResult(BROKEN_RULE[1], holds.tried, holds.counterexample),
        PropertyResult(BROKEN_RULE[2], caught.tried, None if not caught else missed),
    )
    shown = next((r.counterexample for r in results if r.counterexample is not None), None)
    return Check(
        "broken rule",
        function_name(broken_toggle_flag),
        differs.tried + holds.tried + caught.tried,
        shown,
        properties=results,
        illustration=caught.counterexample if shown is None else None,
        output=differs.output + holds.output + caught.output,
        printed_lines=differs.printed_lines + holds.printed_lines + caught.printed_lines,
        stopped=" ".join(c.stopped for c in (differs, holds, caught) if c.stopped),
    )
