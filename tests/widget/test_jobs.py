"""Autoplay off the kernel's thread (widget/jobs.py): a strategy thinks in a worker thread that the shell
awaits, times and stops. Pause, the time limit and the interrupt stop it; its move is dropped and the
game is unchanged. The same in a real kernel: test_kernel_autoplay.py."""

from __future__ import annotations

import asyncio
import math
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from _widget_helpers import browser_state

from ipyminesweeper import Minesweeper
from ipyminesweeper.strategies import Move, exact
from ipyminesweeper.widget import MessageError, StrategyStopped
from ipyminesweeper.widget.jobs import GUARD, Job, Stopped
from ipyminesweeper.widget.session_update import start, update


def never(view: Any) -> Move:
    while True:
        pass


def stubborn(view: Any) -> Move:
    """Catches every Exception, as careless code does: Stopped still ends it."""
    while True:
        try:  # noqa: SIM105 (the careless code under test)
            sum(range(1000))
        except Exception:
            pass


def workers() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("ipyminesweeper")]


def until(condition: Callable[[], bool], seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_a_job_hands_back_its_result_or_its_exception() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        assert await Job(lambda: 6 * 7, loop).result(5) == 42

        def fails() -> int:
            raise ValueError("no")

        with pytest.raises(ValueError, match="no"):
            await Job(fails, loop).result(5)

    asyncio.run(main())


@pytest.mark.parametrize("work", [never, stubborn])
def test_stop_ends_a_loop_that_never_returns(work: Any) -> None:
    async def main() -> None:
        job = Job(lambda: work(None), asyncio.get_running_loop(), "never")
        with pytest.raises(asyncio.TimeoutError):
            await job.result(0.2)
        assert workers() == ["ipyminesweeper never"]
        job.stop()
        assert job.stopped

    asyncio.run(main())
    assert until(lambda: workers() == []), "the thread ended: no CPU spent on it"


def test_stopped_is_not_an_exception_a_strategy_catches() -> None:
    assert issubclass(Stopped, BaseException) and not issubclass(Stopped, Exception)


def play(w: Minesweeper, strategy: Any, then: Any) -> None:
    async def main() -> None:
        w.autoplay(strategy, delay=0)
        await then()

    asyncio.run(main())


def test_pause_stops_a_strategy_that_never_returns_and_names_it() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    w.register_strategy("never", never)
    before = w.session.board

    async def pause_later() -> None:
        await asyncio.sleep(1.2)
        assert w.autoplaying and workers()
        start = time.monotonic()
        w.pause()
        assert time.monotonic() - start < 0.5
        await asyncio.sleep(0.05)

    play(w, "never", pause_later)
    assert w.autoplaying is False and w.session.board == before and len(w.history) == 2
    assert re.match(r"the Pause stopped your strategy 'never' after \d+\.\d s", w.error)
    assert "its move is dropped, the game is unchanged" in w.error
    assert until(lambda: workers() == [])


def test_a_quick_pause_says_nothing() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)

    async def pause_soon() -> None:
        await asyncio.sleep(0.1)
        w.pause()

    play(w, never, pause_soon)
    assert w.autoplaying is False and w.error == ""
    assert until(lambda: workers() == [])


def test_a_strategy_past_the_time_limit_is_stopped_and_named() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    w.strategy_time_limit = 0.3
    before = w.session

    async def wait() -> None:  # the outcome, not the timing: a loaded machine may take seconds to stop it
        deadline = time.monotonic() + 30
        while w.autoplaying and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if w.autoplaying:  # the limit was not enforced: stop the endless strategy, then fail below
            w.pause()
            await asyncio.sleep(0.05)

    play(w, never, wait)
    assert w.autoplaying is False and w.session.board == before.board
    ran = re.match(r"your strategy 'never' ran for (\d+\.\d) s, past the time limit of 0.3 s", w.error)
    assert ran and float(ran.group(1)) >= 0.3, w.error
    assert until(lambda: workers() == [], seconds=30)


def test_a_slow_strategy_within_the_time_limit_plays() -> None:
    def slow(view: Any) -> Move:
        time.sleep(0.2)
        return exact(view)

    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    w.strategy_time_limit = 2

    async def wait() -> None:
        await asyncio.sleep(0.7)
        w.pause()

    play(w, slow, wait)
    assert len(w.history) >= 3 and w.error == ""


def test_the_interrupt_stops_the_autoplayer() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)

    async def interrupt() -> None:
        await asyncio.sleep(0.3)
        GUARD.handle(signal.SIGINT, None)  # what SIGINT calls (the kernel's stop button)
        await asyncio.sleep(0.05)

    play(w, never, interrupt)
    assert w.autoplaying is False and len(w.history) == 2
    assert re.match(r"interrupted while your strategy 'never' had run for \d+\.\d s", w.error)
    assert until(lambda: workers() == [])


def test_a_click_that_comes_first_wins_over_the_strategy_move() -> None:
    seen: list[str] = []

    def slow(view: Any) -> Move:
        seen.append(view.cells)
        time.sleep(0.3)
        return exact(view)

    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    flag = next(p for p in w.board.positions() if w.board.view[p] == ".")

    async def click() -> None:
        await asyncio.sleep(0.1)
        w.flag(*flag)  # while slow thinks about the board without the flag
        assert len(w.history) == 3
        await asyncio.sleep(0.8)
        w.pause()

    play(w, slow, click)
    assert len(w.history) >= 4
    assert w.history[2].view[flag] == "f", "the click was kept: the first strategy move was dropped"
    assert len(seen) >= 2 and seen[1] != seen[0], "the next move was thought over the flagged board"


@pytest.mark.parametrize("bad", [0, -1, math.inf, math.nan, 3601, "5", True])
def test_the_time_limit_is_checked(bad: Any) -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    with pytest.raises((TypeError, ValueError)):
        w.strategy_time_limit = bad
    assert w.strategy_time_limit == 5.0


@pytest.mark.parametrize(
    "fields", [("x", -1.0, "pause"), ("x", 1.0, "later"), ("x", math.nan, "interrupt"), (3, 1.0, "interrupt")]
)
def test_strategy_stopped_checks_its_fields(fields: tuple[Any, ...]) -> None:
    with pytest.raises((TypeError, MessageError)):
        StrategyStopped(*fields)


def test_a_dropped_move_keeps_the_autoplayer_an_interrupt_stops_it() -> None:
    from ipyminesweeper import new_board
    from ipyminesweeper.widget import Autoplay

    s, _ = update(start(new_board(9, 9, 10, seed=8)), Autoplay("exact"))
    dropped, _ = update(s, StrategyStopped("exact", 2.5, "dropped"))
    assert dropped.autoplaying and dropped.board is s.board
    assert (
        dropped.problem is not None
        and "a new autoplayer stopped strategy 'exact' after 2.5 s" in dropped.problem.text
    )
    interrupted, _ = update(s, StrategyStopped("exact", 0.0, "interrupt"))
    assert not interrupted.autoplaying and interrupted.board is s.board
    assert (
        interrupted.problem is not None and interrupted.problem.text == "interrupted: the autoplayer stopped"
    )


def test_without_threads_a_job_runs_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pyodide (the Lite site) has no threads: the work runs in the caller's thread, and the widget
    answers a request at once, as it did before jobs."""
    monkeypatch.setattr(sys, "platform", "emscripten")  # what jobs reads

    def slow(view: Any) -> Move:
        time.sleep(0.4)
        return exact(view)

    async def main() -> None:
        job = Job(threading.current_thread, asyncio.get_running_loop())
        assert job.wait(0) and job.outcome() is threading.current_thread()
        assert await job.result(1) is threading.current_thread()
        w = Minesweeper(size=9, mines=10, seed=8)
        w.reveal(4, 4)
        w.register_strategy("slow", slow, select=True)
        browser_state(w, {"requests": [{"id": 1, "action": "hint"}]})
        assert w.handled == 1 and w.busy == "" and w.hint_move["strategy"] == "slow"
        task = w.autoplay("slow", delay=0)
        assert task is not None
        await asyncio.sleep(1.0)
        w.pause()
        assert len(w.history) >= 3, "the autoplayer played, each move at once"

    asyncio.run(main())
    assert workers() == []
