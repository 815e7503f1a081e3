"""The one table of limits and constants that Python and the front end share.

The front end does not copy them: ``python scripts/export_constants.py`` writes :func:`frontend_table`
into ``js/constants.js``, and esbuild bundles that module into ``static/widget.js`` (``make js``).
``tests/widget/test_constants.py`` loads the shipped bundle in node and checks that it carries exactly
this table. The Python side reads the same names from here (session.py: the zoom's limits; render.py: the
snapshot note; the engine's limits are the engine's own).

>>> frontend_table()["board"]["max_cells"]
4000000
>>> frontend_table()["cell"]["min"]
16
"""

from __future__ import annotations

from typing import Any

from ..engine import FIRST_CLICK_POLICIES, LEVELS, MAX_CELLS
from ..engine.minefield import FIRST_CLICK_CLEAR

__all__ = [
    "FIRST_CLICK_TEXT",
    "FIT_MAX_CELL",
    "FIT_MIN_CELL",
    "KEY_HELP",
    "MAX_CELL",
    "MAX_REQUEST_ID",
    "MIN_CELL",
    "MIN_SIDE",
    "POINTER_HELP",
    "SMALL_CELL",
    "SNAPSHOT_NOTE",
    "STATS_NOTE",
    "ZOOM_STEP",
    "frontend_table",
]

MAX_REQUEST_ID = 2**53 - 1
"""The highest id a browser request may carry: JavaScript's largest safe integer, so both sides count the
same (a 32-bit ``| 0`` wrapped at 2**31 and made the front end deaf). Higher ids are refused."""

MIN_SIDE = 1
"""The fewest rows (or columns) a board may have; the most cells is the engine's ``MAX_CELLS``."""

MIN_CELL = 16
"""The smallest cell drawn, in CSS pixels: the cell itself (the 1 px gap of small cells comes on top)."""
MAX_CELL = 64
"""The biggest cell the zoom allows, in CSS pixels."""
FIT_MIN_CELL = 24
"""With no zoom set the cells fit the output's width, never under this: WCAG 2.5.8's 24 CSS px target
size (a narrow output scrolls the board instead). Only the zoom's minus goes below it, down to
:data:`MIN_CELL`: the player's own choice."""
FIT_MAX_CELL = 28
"""With no zoom set the cells fit the output's width, between :data:`FIT_MIN_CELL` and this."""
ZOOM_STEP = 4
"""The zoom buttons change the cell size by this many pixels."""
SMALL_CELL = 20
"""Cells under this size are drawn flat, with 1 px gaps (much cheaper to paint on big boards)."""

FIRST_CLICK_TEXT: dict[str, str] = {
    "opening": "opening (the first click opens an area)",
    "safe": "safe (the first click is never a mine)",
    "no-guess": "no guess (solvable by reasoning alone)",
    "any": "any (the first click may lose)",
}
"""The first-click policies in the words of the game picker (the engine's ``FIRST_CLICK_POLICIES``)."""

SNAPSHOT_NOTE = "snapshot: run the cell to play"
"""What a saved copy of the widget says where no kernel answers (the HTML fallback and the front end)."""

STATS_NOTE = (
    "The best time, 3BV/s and efficiency count only games won without help (no undo after a loss, hint, "
    "autoplayer move, board set from code, resume, overlay or a game opened from a link); the median counts "
    "every win. 3BV: the fewest clicks that clear the board; efficiency: 3BV per click."
)
"""The statistics panel's footnote: which wins the two times count."""

KEY_HELP: tuple[tuple[str, str], ...] = (
    ("Arrows, Home, End", "move the cursor (Home, End: the row's first and last cell)"),
    ("PageUp, PageDown", "move the cursor a screen of rows up or down"),
    ("Ctrl+Home, Ctrl+End", "the board's first and last cell"),
    ("Space, Enter", "reveal (on a number: chord)"),
    ("F", "flag (with ? marks on: flag, ?, covered)"),
    ("C", "chord"),
    ("A", "read the cells around the cursor"),
    ("T", "read the mines left and the time"),
    ("R, V", "read the cursor's row, or its column, as a line of cells"),
    ("J", "jump to the next number that still has a covered cell around it"),
    ("K", "jump to the next cell the exact solver proves safe (a hint)"),
    ("G", "flag mode: taps flag"),
    ("H", "hint: show the strategy's next move"),
    ("S", "step: play the strategy's next move"),
    ("P", "play or pause the strategy"),
    ("U, Z", "undo"),
    ("[ ]", "back and forward through the history, or through the review's moves"),
    ("E", "review the finished game: each move rated by the exact solver"),
    ("X", "in the review: the next move not as good as the solver's"),
    ("N", "new game"),
    ("Ctrl+C", "copy the board as text"),
    ("L", "copy a link to this game (the offline site opens it)"),
    ("?", "this help"),
    ("Esc", "close panels, back to the live game"),
)
"""Every key the board handles, with what it does (the help panel and the screen reader's description)."""

POINTER_HELP = (
    "Mouse: left click reveals, right click flags, a click on a number chords. "
    "Touch: tap reveals, hold a cell to flag it, tap a number to chord."
)
"""How the mouse and touch play, under the key help."""


def frontend_table() -> dict[str, Any]:
    """Every shared constant as one JSON-able dict: what ``js/constants.js`` holds (see the module doc)."""
    return {
        "levels": {name: list(shape) for name, shape in LEVELS.items()},
        "first_clicks": list(FIRST_CLICK_POLICIES),
        "first_click_text": dict(FIRST_CLICK_TEXT),
        "first_click_clear": dict(FIRST_CLICK_CLEAR),
        "board": {"min_side": MIN_SIDE, "max_cells": MAX_CELLS},
        "cell": {
            "min": MIN_CELL,
            "max": MAX_CELL,
            "fit_min": FIT_MIN_CELL,
            "fit_max": FIT_MAX_CELL,
            "zoom_step": ZOOM_STEP,
            "small": SMALL_CELL,
        },
        "requests": {"max_id": MAX_REQUEST_ID},
        "snapshot_note": SNAPSHOT_NOTE,
        "stats_note": STATS_NOTE,
        "key_help": [list(pair) for pair in KEY_HELP],
        "pointer_help": POINTER_HELP,
    }
