"""What the browser gets: the synced traitlets, as a pure function of the session (Elm's ``view``).

Nothing here reads the mines: every value comes from ``session.view`` (the player's view, which shows no
mine while the game is on) and from the session's own settings. So a saved notebook re-renders from this
state alone, and the browser never learns where a mine is before the game ends.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..engine import View
from ..solver import InconsistentViewError, probabilities
from .session import Session

__all__ = ["REASON_LIMIT", "SYNCED", "render"]

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
