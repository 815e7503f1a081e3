"""The tests of what Orca heard (issue 55), for every host: each test module that imports them defines the
``heard`` fixture (``orca_scenario.listen`` in that host) and runs them all.

Each of issue 55's six defects has its test; each was an ``xfail(strict=True)`` test, failing until the
front end was fixed.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from orca_scenario import (
    AROUND,
    BLANK,
    CELL,
    FIRST,
    FLAG,
    JUPYTERLAB_NOISE,
    MINE,
    NUMBERED,
    ORCA_NUMBERS,
    PHRASES,
    Heard,
    Step,
    around_words,
    cell_name,
    engine_boards,
    winning_reveals,
)

from ipyminesweeper import reveal, toggle_flag

__all__ = [
    "test_a_game_lost_by_ear",
    "test_a_game_won_by_ear",
    "test_a_numbered_cell_is_heard_with_its_coordinates",
    "test_copy_is_heard",
    "test_flag_mode_is_heard",
    "test_focus_comes_back_to_the_cell_after_browse_mode",
    "test_help_is_heard",
    "test_no_event_is_spoken_twice",
    "test_nothing_is_spoken_unasked_when_drawn",
    "test_one_numbering_is_heard",
    "test_tab_onto_the_board_goes_into_focus_mode",
    "test_the_controls_are_named_with_their_states",
    "test_the_log_has_speech",
    "test_the_picker_is_a_dialog_that_takes_focus_and_holds_it",
    "test_the_review_is_heard",
    "test_the_scan_keys_are_heard",
    "test_the_widget_name_is_heard_on_entry",
    "test_timing",
]


def assert_heard(step: Step, pattern: str) -> None:
    assert step.heard(pattern), (
        f"{step.name} ({' '.join(step.keys)}): Orca did not say {pattern!r}; it said {step.said!r}"
    )


# --------------------------------------------------------------------------------------------------
# Two games by ear
# --------------------------------------------------------------------------------------------------


def widget_said(step: Step) -> list[str]:
    """What the widget (not JupyterLab's busy bar, not Orca's blank cell coordinates) had said in ``step``."""
    return [t for t in step.said if not (JUPYTERLAB_NOISE.match(t) or BLANK.match(t))]


def test_tab_onto_the_board_goes_into_focus_mode(heard: Heard) -> None:
    enter = heard.step("enter the first board")
    assert_heard(enter, PHRASES["table"])
    assert_heard(enter, PHRASES["focus mode"])
    assert_heard(enter, "^" + re.escape(CELL.format(r=0, c=0, word="covered")))
    # the walk's last cell, by the widget's name (covered cells keep their coordinates)
    assert_heard(
        heard.step("walk to the first reveal"), "^" + re.escape(CELL.format(r=4, c=4, word="covered"))
    )


def test_a_game_won_by_ear(heard: Heard) -> None:
    """The first widget: the first reveal, a flag, A and T, the scan keys (K is a hint), then every safe cell,
    to the win, which says it was assisted."""
    board = reveal(engine_boards()[0], FIRST)
    assert_heard(heard.step("first reveal"), PHRASES["opened many"].format(n=60))
    flagged = toggle_flag(board, FLAG)
    assert_heard(heard.step("flag"), PHRASES["flagged"].format(r=0, c=4, left=9))
    words = re.escape(around_words(flagged, AROUND))
    assert_heard(heard.step("around"), PHRASES["around"].format(r=AROUND[0], c=AROUND[1], words=words))
    assert_heard(heard.step("status"), PHRASES["status"].format(status="playing", left=9))
    moves = heard.steps_named("win move ")
    assert len(moves) == len(winning_reveals(flagged)), [s.name for s in moves]
    for step in moves:
        assert_heard(step, step.expected)
    assert_heard(moves[-1], PHRASES["won"])
    assert_heard(moves[-1], PHRASES["won assisted"])


def test_a_game_lost_by_ear(heard: Heard) -> None:
    """The second widget: the first reveal, then a mine."""
    assert_heard(heard.step("second: first reveal"), PHRASES["opened many"].format(n=60))
    assert_heard(heard.step("lose"), PHRASES["lost"].format(r=MINE[0], c=MINE[1]))


def test_the_review_is_heard(heard: Heard) -> None:
    """Issue 58: E on the lost game says the review's summary and its first move; ] the next move; Esc that
    it closed. Each once; the cursor's new cell (the move's) may be said beside it, as K's is."""
    for name in ("review", "review: the next move", "close the review"):
        step = heard.step(name)
        assert_heard(step, step.expected)
        events = [t for t in widget_said(step) if not re.search(PHRASES["any cell"], t)]
        assert len(events) == 1, f"{name}: one event, said {len(events)} times: {step.said!r}"


def test_the_controls_are_named_with_their_states(heard: Heard) -> None:
    tabs = heard.step("tab to the second board")
    for name in ("flag toggle", "stats", "probabilities", "picker button"):
        assert_heard(tabs, PHRASES[name])
    assert_heard(heard.step("tab to the second board"), PHRASES["table"])


def test_the_log_has_speech(heard: Heard) -> None:
    """The log was read while Orca ran (line-buffered): the first step's phrase came in time."""
    assert heard.log[:1] == ["Screen reader on."], heard.log[:5]
    assert len(heard.log) > 50


# --------------------------------------------------------------------------------------------------
# Issue 55's six defects, each fixed; each of these failed before its fix (xfail, strict, until then)
# --------------------------------------------------------------------------------------------------


def test_a_numbered_cell_is_heard_with_its_coordinates(heard: Heard) -> None:
    """Defect 1: Orca read a numbered cell's text ("2."), not its name."""
    board = reveal(engine_boards()[0], FIRST)
    assert_heard(heard.step("onto a numbered cell"), "^" + re.escape(cell_name(board, NUMBERED)))
    bare = [t for t in heard.log if re.fullmatch(r"[1-8]\.?", t)]
    assert not bare, f"a number heard without its cell: {bare!r}"


def test_one_numbering_is_heard(heard: Heard) -> None:
    """Defect 2: every row or column number Orca adds from the grid's structure is the widget's (0-based) one;
    in fact it adds none (the cells' index texts are blank), and the widget's names were heard throughout."""
    last: tuple[int, int] | None = None
    wrong, names = [], 0
    for text in heard.log:
        match = re.match(r"^row (\d+), column (\d+): ", text)
        if match:
            last, names = (int(match[1]), int(match[2])), names + 1
            continue
        numbers = ORCA_NUMBERS.match(text)
        if numbers and last is not None:
            row, col = numbers["row"] or numbers["r2"], numbers["col"] or numbers["c2"]
            if (row is not None and int(row) != last[0]) or (col is not None and int(col) != last[1]):
                wrong.append(f"{text!r} after the widget's row {last[0]}, column {last[1]}")
    assert not wrong, "two numberings:\n" + "\n".join(wrong)
    assert names > 60, f"only {names} cells heard by their names"


def test_the_widget_name_is_heard_on_entry(heard: Heard) -> None:
    """Defect 3: the widget's name, before Orca's "table with 9 rows 9 columns"."""
    for name in ("enter the first board", "tab to the second board", "shift+tab back to the first board"):
        said = heard.step(name).said
        names = [i for i, t in enumerate(said) if re.search(PHRASES["widget name"], t)]
        tables = [i for i, t in enumerate(said) if re.search(PHRASES["table"], t)]
        assert names and tables and names[-1] < tables[-1], f"{name}: {said!r}"


def test_help_is_heard(heard: Heard) -> None:
    """Defect 3: ? says every key, the scan keys included."""
    step = heard.step("help")
    assert_heard(step, PHRASES["help"])
    assert len(widget_said(step)) == 1, step.said


def test_flag_mode_is_heard(heard: Heard) -> None:
    assert_heard(heard.step("flag mode on"), PHRASES["flag mode on"])
    assert_heard(heard.step("flag mode off"), PHRASES["flag mode off"])


def test_copy_is_heard(heard: Heard) -> None:
    assert_heard(heard.step("copy"), PHRASES["copied"])


def test_the_picker_is_a_dialog_that_takes_focus_and_holds_it(heard: Heard) -> None:
    """Defect 4: Enter on Game ▾ puts the focus in the dialog (its checked level); Expert fills the size
    fields; Shift+Tab before the first control and Tab after the last stay inside; Esc goes back to the
    board."""
    opened = heard.step("open the picker")
    assert_heard(opened, PHRASES["dialog"])
    assert_heard(opened, PHRASES["level"].format(level="Beginner", rows=9, cols=9, mines=10))
    said = [t for t in opened.said if t != "expanded"]  # Game ▾'s state, if said before the focus moved
    assert said[:1] == ["New game dialog"], f"the focus is not in the dialog: {opened.said!r}"
    assert_heard(heard.step("picker: the size fields"), PHRASES["size field"].format(rows=16))
    assert_heard(heard.step("picker: shift+tab past the first control"), PHRASES["cancel"])
    back = heard.step("picker: tab past the last control")
    assert_heard(back, PHRASES["level"].format(level="Expert", rows=16, cols=30, mines=99))
    assert not back.heard(r"^leaving|^Minesweeper|^table"), f"Tab left the dialog: {back.said!r}"
    closed = heard.step("close the picker")
    assert_heard(closed, closed.expected)


def test_no_event_is_spoken_twice(heard: Heard) -> None:
    """Defect 5: one live region; the mine counter and the speed said nothing of their own. Each event is said
    once; K's hint and the cell the cursor lands on are two things, each said once."""
    once = ["first reveal", "flag", "around", "status", "help", "flag mode on", "flag mode off", "copy"]
    once += ["read the row", "read the column", "second: first reveal", "lose"]
    for name in once:
        said = widget_said(heard.step(name))
        assert len(said) == 1, f"{name}: one event, said {len(said)} times: {said!r}"
    safe = widget_said(heard.step("next safe cell"))
    assert len(safe) == 2 and re.search(PHRASES["any cell"], safe[0]), safe
    assert_heard(heard.step("next safe cell"), heard.step("next safe cell").expected)
    # from the first key on (while the page loads, Orca reads the host's page: "Code Cell Content clickable.")
    spoken = [t for step in heard.steps if step.name != "load" for t in step.said if not BLANK.match(t)]
    twice = [a for a, b in itertools.pairwise(spoken) if a == b and not JUPYTERLAB_NOISE.match(a)]
    assert not twice, f"said twice in a row: {twice!r}"
    counter = [t for t in heard.log if re.search(r"^mines left|\bmines? left \d{3}\b", t)]
    assert not counter, f"the mine counter spoke: {counter!r}"


def test_nothing_is_spoken_unasked_when_drawn(heard: Heard) -> None:
    """Defect 5: drawing the widgets says nothing (the speed's <output> said "0.25 s per move")."""
    unasked = [t for t in heard.step("load").said if re.search(r"s per move|mines left", t)]
    assert not unasked, f"said while the widgets were drawn: {unasked!r}"


def test_focus_comes_back_to_the_cell_after_browse_mode(heard: Heard) -> None:
    """Defect 6: Orca's T in browse mode, then focus mode: the keys reach the board Orca is on (the
    second one)."""
    arrow = heard.step("arrow after browse mode")
    assert_heard(arrow, PHRASES["any cell"])
    assert not arrow.heard(r"^leaving table"), f"the arrow left Orca's table: {arrow.said!r}"
    assert_heard(heard.step("status after browse mode"), heard.step("status after browse mode").expected)


# --------------------------------------------------------------------------------------------------
# The scan keys
# --------------------------------------------------------------------------------------------------


def test_the_scan_keys_are_heard(heard: Heard) -> None:
    """R and V read the cursor's row and column; J lands on the next number with a covered cell around it;
    K on the next cell the exact solver proves safe, with the hint's reason (the game is assisted: the win
    says so)."""
    for name in ("read the row", "read the column", "next number", "next safe cell"):
        step = heard.step(name)
        assert_heard(step, step.expected)
    assert_heard(heard.step("next safe cell"), PHRASES["any cell"])


def test_timing(heard: Heard, record_property: Any) -> None:
    """The whole scenario (desktop, Chromium, notebook, two games) within CI's share of time."""
    record_property("orca_seconds", round(heard.seconds))
    print(f"Orca scenario: {heard.seconds:.0f} s, {len(heard.log)} utterances")
    assert heard.seconds < heard.limit
