"""Messages and state from the browser are untrusted: validated, logged, shown, never raised or applied.

They are driven the way the comm drives them: ``Widget._handle_msg`` with a comm message whose
``data.method`` is ``update`` (state), which calls ``set_state``: the player's settings, and the front
end's requests in the ``requests`` list.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from _widget_helpers import browser_request, browser_state, needs_kernelless_comm

from ipyminesweeper import Minesweeper


def snapshot(w: Minesweeper) -> tuple[Any, ...]:
    return (w.board, w.history, w.cells, w.status, w.strategy, w.delay, w.show_probabilities)


def playing() -> Minesweeper:
    w = Minesweeper(size=16, mines=40, seed=21)
    w.reveal(8, 8)
    return w


BAD_ACTIONS: list[Any] = [
    None,
    "reveal",
    42,
    [1, 2],
    {},
    {"action": None},
    {"action": 5},
    {"action": "explode", "row": 0, "col": 0},
    {"action": "REVEAL", "row": 0, "col": 0},
    {"action": ["reveal"], "row": 0, "col": 0},
    {"action": "reveal"},
    {"action": "reveal", "row": 0},
    {"action": "flag", "col": 0},
    {"action": "reveal", "row": "0", "col": 0},
    {"action": "reveal", "row": 0, "col": 1.0},
    {"action": "reveal", "row": True, "col": 0},
    {"action": "flag", "row": 0, "col": False},
    {"action": "reveal", "row": None, "col": 0},
    {"action": "reveal", "row": -1, "col": 0},
    {"action": "reveal", "row": 0, "col": -1},
    {"action": "reveal", "row": 16, "col": 0},
    {"action": "chord", "row": 0, "col": 16},
    {"action": "reveal", "row": 10**100, "col": 0},
    {"action": "reveal", "row": [0], "col": 0},
    {"action": "reveal", "row": 0, "col": 0, "extra": 1},
    {"action": "undo", "row": 0},
    {"action": "new_game", "rows": 100},
    {"action": "step", "strategy": "simple"},
]


@pytest.mark.parametrize("content", BAD_ACTIONS, ids=repr)
def test_a_bad_action_changes_nothing_and_is_reported(content: Any, caplog: pytest.LogCaptureFixture) -> None:
    w = playing()
    before = snapshot(w)
    with caplog.at_level(logging.WARNING, logger="ipyminesweeper.widget.widget"):
        browser_request(w, content)  # must not raise
    assert snapshot(w) == before
    assert w.error, "the widget shows the rejection"
    assert "Error:" not in w.error, "rejected by validation, not by an exception deeper down"
    assert any("ignored a message from the browser" in r.getMessage() for r in caplog.records)
    assert all(r.levelno == logging.WARNING for r in caplog.records)


@pytest.mark.parametrize(
    "content",
    [
        {"action": "reveal", "row": 0, "col": 0},
        {"action": "flag", "row": 0, "col": 0},
        {"action": "chord", "row": 8, "col": 8},
        {"action": "step"},
        {"action": "play"},
    ],
)
def test_moves_after_the_game_is_over_are_rejected(
    content: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    mine = next(p for p in w.board.positions() if w.board.is_mine(p))
    w.reveal(*mine)
    assert w.status == "lost"
    before = snapshot(w)
    with caplog.at_level(logging.WARNING):
        browser_request(w, content)
    assert snapshot(w) == before
    assert "over" in w.error or "lost" in w.error
    assert caplog.records


def test_good_actions_reach_the_engine_and_clear_the_error() -> None:
    w = Minesweeper(size=16, mines=40, seed=21)
    browser_request(w, {"action": "explode"})
    assert w.error
    browser_request(w, {"action": "reveal", "row": 8, "col": 8})
    assert w.status == "playing" and w.error == ""
    assert w.board.view[(8, 8)] != "."
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    browser_request(w, {"action": "flag", "row": covered[0], "col": covered[1]})
    assert w.board.view[covered] == "f"
    browser_request(w, {"action": "undo"})
    assert w.board.view[covered] == "."
    n = len(w.history)
    browser_request(w, {"action": "step"})
    assert len(w.history) == n + 1 and w.last_move["action"] in ("reveal", "flag", "chord")
    browser_request(w, {"action": "new_game"})
    assert w.status == "ready" and len(w.history) == 1 and w.last_move == {}


def test_chord_message() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    board = w.board
    # a revealed number whose mines we flag, then chord it
    safe = next(
        p
        for p in board.positions()
        if not board.is_mine(p) and board.count(p) > 0 and any(board.is_mine(q) for q in board.neighbours(p))
    )
    w.reveal(*safe)
    for q in w.board.neighbours(safe):
        if w.board.is_mine(q):
            w.flag(*q)
    browser_request(w, {"action": "chord", "row": safe[0], "col": safe[1]})
    assert w.error == ""
    assert all(w.board.view[q] != "." for q in w.board.neighbours(safe))


@pytest.mark.parametrize(
    "state",
    [
        {"cells": "X" * 256},
        {"status": "won"},
        {"mines_left": 0},
        {"rows": 3},
        {"probabilities": {"0": 1.0}},
        {"last_move": {"action": "reveal"}},
        {"autoplaying": True},
        {"_esm": "alert(1)"},
        {"strategy": "no-such-strategy"},
        {"strategy": 5},
        {"delay": "fast"},
        {"delay": -1},
        {"delay": float("nan")},
        {"delay": 1e9},
        {"show_probabilities": "yes"},
        {"strategy": "simple", "cells": "." * 256},  # one forbidden key spoils the update
        "not a dict",
        None,
    ],
    ids=repr,
)
def test_bad_state_from_the_browser_is_refused(state: Any, caplog: pytest.LogCaptureFixture) -> None:
    w = playing()
    before = snapshot(w)
    get_state = w.get_state()
    with caplog.at_level(logging.WARNING):
        browser_state(w, state)
    assert snapshot(w) == before
    assert w.get_state().keys() == get_state.keys()
    for key in ("cells", "status", "mines_left", "rows", "probabilities", "autoplaying", "_esm"):
        assert w.get_state()[key] == get_state[key]
    assert w.error
    assert caplog.records


def test_good_state_from_the_browser_is_applied() -> None:
    w = playing()
    browser_state(w, {"strategy": "simple"})
    assert w.strategy == "simple" and w.error == ""
    browser_state(w, {"delay": 0.5})
    assert w.delay == 0.5
    browser_state(w, {"show_probabilities": True})
    assert w.show_probabilities is True
    assert w.probabilities
    assert all(w.cells[int(k)] in ".f" for k in w.probabilities if k != "*")
    assert all(0.0 <= p <= 1.0 for p in w.probabilities.values())
    browser_state(w, {"show_probabilities": False})
    assert w.probabilities == {}


@needs_kernelless_comm
def test_a_rejected_update_is_resent_to_the_browser() -> None:
    w = playing()
    sent: list[dict[str, Any]] = []
    w.comm.send = lambda data=None, buffers=None, **_: sent.append(data)
    browser_state(w, {"strategy": "bogus"})
    resent = [m for m in sent if m.get("method") == "update" and "strategy" in m.get("state", {})]
    assert resent and resent[-1]["state"]["strategy"] == w.strategy


def test_a_failing_strategy_is_reported_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    w = playing()

    def broken(view: Any) -> Any:
        raise RuntimeError("oops")

    w.register_strategy("broken", broken, select=True)
    before = w.board
    with caplog.at_level(logging.WARNING):
        browser_request(w, {"action": "step"})
    assert w.board is before
    assert "oops" in w.error


# --- the requests channel (what the front end uses; marimo re-runs cells on it) ---------------------


def requests(w: Minesweeper, entries: Any) -> None:
    browser_state(w, {"requests": entries})


def test_requests_apply_in_order_once_each() -> None:
    w = Minesweeper(size=16, mines=40, seed=21)
    requests(w, [{"id": 1, "action": "reveal", "row": 8, "col": 8}])
    assert (w.handled, len(w.history)) == (1, 2)
    # resent with a new one (ipywidgets may merge two quick updates): 1 is skipped, 2 applies
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    requests(
        w,
        [
            {"id": 1, "action": "reveal", "row": 8, "col": 8},
            {"id": 2, "action": "flag", "row": covered[0], "col": covered[1]},
        ],
    )
    assert (w.handled, len(w.history), w.board.view[covered]) == (2, 3, "f")
    assert w.requests[-1]["id"] == 2


def test_a_rejected_request_is_shown_and_the_next_one_still_runs(caplog: pytest.LogCaptureFixture) -> None:
    w = playing()
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    with caplog.at_level(logging.WARNING, logger="ipyminesweeper.widget.widget"):
        requests(w, [{"id": 1, "action": "explode"}])
    assert w.handled == 1 and "unknown action" in w.error
    requests(w, [{"id": 2, "action": "flag", "row": covered[0], "col": covered[1]}])
    assert w.handled == 2 and w.error == "" and w.board.view[covered] == "f"


BAD_REQUESTS: list[Any] = [
    None,
    "reveal",
    {"id": 1, "action": "undo"},
    [{"action": "undo"}],
    [{"id": "1", "action": "undo"}],
    [{"id": True, "action": "undo"}],
    [{"id": 0, "action": "undo"}],
    [{"id": 2, "action": "undo"}, {"id": 2, "action": "undo"}],
    [{"id": 3, "action": "undo"}, {"id": 2, "action": "undo"}],
    [["id", 1]],
    [{"id": i + 1, "action": "undo"} for i in range(65)],
]


@pytest.mark.parametrize("entries", BAD_REQUESTS, ids=lambda e: repr(e)[:40])
def test_a_malformed_requests_list_changes_nothing(entries: Any, caplog: pytest.LogCaptureFixture) -> None:
    w = playing()
    before = (*snapshot(w), w.handled)
    with caplog.at_level(logging.WARNING, logger="ipyminesweeper.widget.widget"):
        requests(w, entries)
    assert (*snapshot(w), w.handled, w.requests) == (*before, [])
    assert "request" in w.error
    assert any("ignored a message from the browser" in r.getMessage() for r in caplog.records)


def test_a_settings_update_with_a_bad_request_list_applies_nothing() -> None:
    w = playing()
    browser_state(w, {"strategy": "simple", "requests": "oops"})
    assert w.strategy == "exact" and "requests must be a JSON list" in w.error
