"""What the browser gets: the synced traitlets, as a pure function of the session (Elm's ``view``).

Nothing here reads the mines: every value comes from ``session.view`` (the player's view, which shows no
mine while the game is on) and from the session's own settings. So a saved notebook re-renders from this
state alone, and the browser never learns where a mine is before the game ends.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

from ..engine import View
from ..solver import InconsistentViewError, probabilities
from .session import Session

__all__ = ["FALLBACK_CELLS", "REASON_LIMIT", "SNAPSHOT_NOTE", "SYNCED", "render", "snapshot_html"]

REASON_LIMIT = 300
"""A strategy's reason is cut to this many characters in the synced ``last_move``."""

SYNCED = (
    "rows",
    "cols",
    "mines",
    "status",
    "cells",
    "mines_left",
    "started_at",
    "ended_at",
    "can_undo",
    "summary",
    "strategies",
    "strategy",
    "last_move",
    "show_probabilities",
    "probabilities",
    "autoplaying",
    "delay",
)
"""The traitlets :func:`render` computes, in the order they are sent (``status`` comes last)."""


def render(session: Session) -> dict[str, Any]:
    """The value of every synced traitlet for ``session`` (see :data:`SYNCED`)."""
    view = session.view
    turn = session.last_move
    last_move: dict[str, Any] = {}
    if turn is not None and turn.move is not None:
        move = turn.move
        reason = move.reason if len(move.reason) <= REASON_LIMIT else move.reason[: REASON_LIMIT - 1] + "…"
        last_move = {
            "action": move.action,
            "row": move.pos[0],
            "col": move.pos[1],
            "reason": reason,
            "probability": None if move.probability is None else round(float(move.probability), 4),
            "strategy": turn.strategy,
        }
    showing = session.show_probabilities and not view.over
    return {
        "rows": view.rows,
        "cols": view.cols,
        "mines": view.mines,
        "cells": view.cells,
        "mines_left": view.flags_left,
        "started_at": session.started_at,
        "ended_at": session.ended_at,
        "can_undo": len(session.history) > 1,
        "summary": session.summary,
        "strategies": list(session.strategy_names),
        "strategy": session.strategy,
        "last_move": last_move,
        "show_probabilities": session.show_probabilities,
        "probabilities": overlay(view) if showing else {},
        "autoplaying": session.autoplaying,
        "delay": session.delay,
        "status": view.status,
    }


@lru_cache(maxsize=8)
def overlay(view: View) -> dict[str, float]:
    """The probability overlay: flat index (as a str, for JSON) -> P(mine), for covered and flagged cells."""
    try:
        probs = probabilities(view)
    except InconsistentViewError:  # a board set by hand can contradict itself; show nothing
        return {}
    cols, cells = view.cols, view.cells
    return {str(r * cols + c): round(p, 4) for (r, c), p in probs.items() if cells[r * cols + c] in ".f"}


FALLBACK_CELLS = 1024
"""Boards up to this many cells get their cells drawn in the HTML fallback (about 4 KB at most)."""
SNAPSHOT_NOTE = "snapshot: run the cell to play"
"""What a saved copy of the widget says where no kernel answers (the front end shows it too)."""

_GLYPHS = str.maketrans(
    {".": "\u25a0", "f": "\u2691", "0": "\u00b7", "*": "\u2731", "X": "\u2739", "F": "\u2691", "x": "\u2717"}
)


def snapshot_html(session: Session) -> str:
    """The small text/html fallback saved with the notebook: the player's view as text, and a note.

    Shown where widgets do not render (GitHub, nbviewer without widget state, an email). Covered cells
    are squares, flags flags, revealed zeros dots; mines appear only once the game is over (it reads the
    view). A few KB at most: bigger boards get the note only.
    """
    view = session.view
    left = "" if view.over else f", {view.flags_left} left"
    facts = f"{view.rows}x{view.cols}, {view.mines} mines, {view.status}{left}"
    if session.summary:
        facts += f", {session.summary}"
    grid = ""
    if view.rows * view.cols <= FALLBACK_CELLS:
        cells = view.cells.translate(_GLYPHS)
        lines = (" ".join(cells[r * view.cols : (r + 1) * view.cols]) for r in range(view.rows))
        grid = f'<pre style="margin:0 0 4px;line-height:1.15">{html.escape(chr(10).join(lines))}</pre>'
    return (
        '<div class="ipyms-snapshot" style="display:inline-block;padding:6px 10px;'
        'border:1px solid #8888;border-radius:8px;font:13px/1.3 monospace">'
        f"{grid}<div><b>Minesweeper</b> {html.escape(facts)}</div>"
        f'<div style="opacity:.75"><i>{SNAPSHOT_NOTE}</i></div></div>'
    )
