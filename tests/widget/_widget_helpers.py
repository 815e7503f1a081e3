"""Helpers for the widget tests (no kernel: ipywidgets uses a dummy comm)."""

from __future__ import annotations

import json
from typing import Any

import ipywidgets
import pytest

from ipyminesweeper import Minesweeper
from ipyminesweeper.widget.messages import GameMessage
from ipyminesweeper.widget.session import Session
from ipyminesweeper.widget.session_update import update

IPYWIDGETS_7 = ipywidgets.__version__.startswith("7.")
needs_kernelless_comm = pytest.mark.skipif(
    IPYWIDGETS_7, reason="ipywidgets 7 sends nothing without a kernel: the messages cannot be seen here"
)

SYNCED_TRAITS = frozenset(
    {
        "busy",
        "first_click",
        "level",
        "hint_move",
        "labels",
        "cell_size",
        "question_marks",
        "marks",
        "history_length",
        "viewing",
        "history_step",
        "stats_table",
        "game_metrics",
        "reviewing",
        "shared_link",
        "awaits_link",
        "rows",
        "cols",
        "mines",
        "status",
        "cells",
        "cells_version",
        "board_patch",
        "mines_left",
        "started_at",
        "ended_at",
        "can_undo",
        "summary",
        "error",
        "error_details",
        "strategies",
        "strategy",
        "last_move",
        "show_probabilities",
        "probabilities",
        "autoplaying",
        "delay",
        "elapsed",
        "requests",
        "handled",
    }
)
"""The game's synced traitlets (docs/architecture.md), besides ipywidgets'/anywidget's own."""

BASE_TRAITS = frozenset(
    {
        "_anywidget_id",
        "_css",
        "_dom_classes",
        "_esm",
        "_model_module",
        "_model_module_version",
        "_model_name",
        "_view_count",
        "_view_module",
        "_view_module_version",
        "_view_name",
        "layout",
        "tabbable",
        "tooltip",
    }
)


def synced_state(w: Minesweeper) -> dict[str, Any]:
    """Every synced traitlet the game adds, as the comm would send it; fails on an unknown one."""
    state = w.get_state()
    unknown = set(state) - SYNCED_TRAITS - BASE_TRAITS
    assert not unknown, f"undocumented synced traitlets: {unknown}"
    return {k: v for k, v in state.items() if k in SYNCED_TRAITS}


def wire_json(w: Minesweeper) -> str:
    """The JSON part of the widget's whole state, strict (no NaN): binary values (``board_patch``) travel
    beside it as buffers, as ipywidgets sends them."""
    state = {k: v for k, v in w.get_state().items() if not isinstance(v, (bytes, memoryview))}
    return json.dumps(state, allow_nan=False)


def browser_state(w: Minesweeper, state: Any) -> None:
    """Deliver a state update from the browser exactly as the kernel's comm does."""
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def browser_request(w: Minesweeper, content: Any) -> None:
    """Send one request as the front end does: the next id in its ``requests`` list (a content that is
    not an object is sent as the list's entry itself, which makes the list malformed)."""
    entry = {"id": w.handled + 1, **content} if isinstance(content, dict) else content
    browser_state(w, {"requests": [entry]})


def after(session: Session, message: GameMessage, now: int = 0) -> Session:
    """The session ``update`` returns for ``message`` (the tests of effects look at the effects)."""
    return update(session, message, now=now)[0]


def shown_overlay(w: Minesweeper) -> dict[int, float]:
    """The overlay as the browser shows it: P(mine) of every covered or flagged cell, from the synced
    ``probabilities`` (the cells it lists, and ``"*"`` for all the others; docs/architecture.md)."""
    listed: dict[int, float] = {int(k): p for k, p in w.probabilities.items() if k != "*"}
    elsewhere: float | None = w.probabilities.get("*")
    return {
        i: p for i, ch in enumerate(w.cells) if ch in ".f" and (p := listed.get(i, elsewhere)) is not None
    }
