"""A browser request holds the kernel at most FOREGROUND seconds: past that its work goes on in a worker
thread, the widget shows what it works on and for how long (``busy``), a Cancel stops it, and requests
that come meanwhile wait their turn. (A script or a test with no event loop answers at once.)"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from typing import Any

from _widget_helpers import browser_state

from ipyminesweeper import Minesweeper
from ipyminesweeper.strategies import Move, exact
from ipyminesweeper.widget.runtime import FOREGROUND


def slow(view: Any) -> Move:
    time.sleep(1.0)
    return exact(view)


def never(view: Any) -> Move:
    while True:
        pass


def workers() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("ipyminesweeper")]


def widget(strategy: Any) -> Minesweeper:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    w.register_strategy("mine", strategy)
    w.strategy = "mine"
    return w


def send(w: Minesweeper, *requests: dict[str, Any]) -> float:
    """The browser's unanswered requests (ids from 1); how long the kernel was held."""
    start = time.perf_counter()
    browser_state(w, {"requests": [{"id": i, **r} for i, r in enumerate(requests, 1)]})
    return time.perf_counter() - start


def test_a_slow_request_goes_to_the_background_and_its_answer_comes_later() -> None:
    w = widget(slow)

    async def main() -> None:
        held = send(w, {"action": "hint"})
        assert held < FOREGROUND + 0.2
        assert w.busy.startswith("working on hint: ") and w.handled == 0 and w.hint_move == {}
        await asyncio.sleep(1.5)
        assert w.busy == "" and w.handled == 1 and w.hint_move["strategy"] == "mine"

    asyncio.run(main())


def test_cancel_stops_the_work_and_drops_the_requests_waiting_for_it() -> None:
    w = widget(never)
    before = w.session.board

    async def main() -> None:
        send(w, {"action": "hint"})
        assert w.busy.startswith("working on hint")
        await asyncio.sleep(1.2)
        assert re.fullmatch(r"working on hint: [1-9]\d* s", w.busy)
        send(w, {"action": "hint"}, {"action": "flag", "row": 0, "col": 0})
        assert w.handled == 0, "the flag waits for the hint"
        held = send(w, {"action": "hint"}, {"action": "flag", "row": 0, "col": 0}, {"action": "cancel"})
        assert held < 0.1
        assert w.busy == "" and w.handled == 3 and w.session.board == before
        assert re.match(r"cancelled: hint after \d+\.\d s", w.error)
        assert "the game is as it was; 1 later request dropped" in w.error
        await asyncio.sleep(0.2)

    asyncio.run(main())
    deadline = time.monotonic() + 2
    while workers() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert workers() == [], "the cancelled work's thread ended"


def test_requests_that_come_meanwhile_are_answered_in_order() -> None:
    w = widget(slow)

    async def main() -> None:
        send(w, {"action": "hint"})
        send(w, {"action": "hint"}, {"action": "flag", "row": 0, "col": 0})
        assert w.handled == 0 and w.board.view[(0, 0)] == "."
        await asyncio.sleep(1.5)
        assert w.handled == 2 and w.board.view[(0, 0)] == "f" and w.hint_move == {}
        assert w.busy == "" and w.error == ""

    asyncio.run(main())


def test_a_quick_request_is_answered_at_once() -> None:
    w = widget(exact)

    async def main() -> None:
        send(w, {"action": "hint"})
        assert w.handled == 1 and w.busy == "" and w.hint_move["strategy"] == "mine"

    asyncio.run(main())


def test_a_cell_that_changes_the_game_meanwhile_wins() -> None:
    w = widget(slow)

    async def main() -> None:
        send(w, {"action": "hint"})
        w.flag(0, 0)  # a cell runs while the kernel works for the browser
        await asyncio.sleep(1.5)
        assert w.handled == 1 and w.board.view[(0, 0)] == "f" and w.hint_move == {}
        assert w.error == "hint: dropped, the game changed while the kernel worked on it"

    asyncio.run(main())
