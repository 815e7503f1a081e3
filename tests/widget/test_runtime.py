"""The runtime (widget/runtime.py, widget/runtime_state.py): one scheduler, threads only for slow work,
effects that carry their replies, the runtime's books apart from the game, and a statistics store passed
in."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import pytest
from _widget_helpers import browser_state

from ipyminesweeper import Minesweeper, new_board
from ipyminesweeper.widget import runtime
from ipyminesweeper.widget.effects import DrawSeed, RecordResult, ResendBoard
from ipyminesweeper.widget.jobs import Job
from ipyminesweeper.widget.messages import (
    AutoStep,
    FromBrowser,
    Hint,
    NewGameOf,
    Reveal,
    ShowProbabilities,
    StatsChanged,
)
from ipyminesweeper.widget.render import render
from ipyminesweeper.widget.runtime_state import (
    SLOW_CELLS,
    Began,
    RuntimeState,
    Settle,
    Working,
    is_slow,
    runtime_update,
)
from ipyminesweeper.widget.session_update import start
from ipyminesweeper.widget.stats import GameLog, GameResult, Stats, record
from ipyminesweeper.widget.subscriptions import Every, subscriptions

T = TypeVar("T")
IDLE = RuntimeState()


class MemoryStore:
    """A statistics store in memory, as a test or a notebook may give one."""

    def __init__(self) -> None:
        self.log = GameLog()

    def load(self) -> Stats:
        return self.log.stats()

    def add(self, result: GameResult) -> Stats:
        self.log = record(self.log, result)
        return self.log.stats()

    def notice(self) -> str:
        return ""


def counted_jobs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the worker jobs the runtime starts from now on."""
    started: list[str] = []

    def counting(work: Callable[[], T], loop: asyncio.AbstractEventLoop, name: str = "work") -> Job[T]:
        started.append(name)
        return Job(work, loop, name)

    monkeypatch.setattr(runtime, "Job", counting)
    return started


def test_a_fast_request_runs_on_the_kernels_thread_a_slow_one_in_a_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = counted_jobs(monkeypatch)
    w = Minesweeper(size=9, mines=10, seed=8, stats_store=MemoryStore())

    async def main() -> None:
        browser_state(w, {"requests": [{"id": 1, "action": "reveal", "row": 4, "col": 4}]})
        assert w.handled == 1 and started == [], "a reveal starts no thread"
        browser_state(w, {"requests": [{"id": 2, "action": "hint"}]})
        assert w.handled == 2 and started == ["FromBrowser"], "a strategy call goes to a worker"

    asyncio.run(main())


def test_which_messages_are_slow() -> None:
    small = start(new_board(9, 9, 10, seed=1))
    assert not is_slow(IDLE, small, Reveal((4, 4)))
    assert not is_slow(IDLE, small, FromBrowser((Reveal((4, 4)),), 1))
    assert is_slow(IDLE, small, Hint()) and is_slow(IDLE, small, AutoStep())
    assert is_slow(IDLE, small, ShowProbabilities(True))
    assert is_slow(IDLE, start(new_board(9, 9, 10, seed=1, first_click="no-guess")), Reveal((4, 4))), (
        "a no-guess search"
    )
    assert is_slow(IDLE, small, NewGameOf(rows=1000, cols=1000, mines=10)) and SLOW_CELLS <= 1000 * 1000
    assert is_slow(IDLE, start(new_board(400, 400, 10, seed=1)), Reveal((4, 4))), "a cascade over a big board"
    assert not is_slow(IDLE, small, Began(Hint(), 0)) and not is_slow(IDLE, small, Working())
    busy = runtime_update(IDLE, small, Began(FromBrowser((Hint(),), 1), 0))[0]
    assert not is_slow(busy, small, FromBrowser((Hint(),), 2)), "a request that only waits is fast"


def test_the_work_under_way_is_the_runtime_s_and_render_shows_it() -> None:
    s = start(new_board(9, 9, 10, seed=1))
    busy, same, _ = runtime_update(IDLE, s, Began(FromBrowser((Hint(),), 3), 1_000), now=1_000)
    assert busy.work is not None and busy.taken == 3 and render(s, busy)["busy"] == "working on hint: 0 s"
    assert same is s, "the game does not change while the kernel works"
    counted, _, _ = runtime_update(busy, s, Working(), now=3_500)
    assert render(s, counted)["busy"] == "working on hint: 2 s"
    waited, game, _ = runtime_update(counted, s, FromBrowser((Reveal((0, 0)),), 4))
    assert waited.waiting and game.board is s.board and waited.taken == 4


def test_effects_carry_the_messages_that_report_their_results() -> None:
    game = NewGameOf(rows=9, cols=9, mines=10, first_click="safe")
    (reply,) = DrawSeed(game).perform(world=None)  # type: ignore[arg-type]
    assert isinstance(reply, NewGameOf) and reply == replace(game, seed=reply.seed) and reply.seed is not None

    class World:
        store = MemoryStore()

    result = GameResult("g@1", "beginner", "opening", True, 12.0, "", 1)
    (stats,) = RecordResult(result).perform(World())  # type: ignore[arg-type]
    assert isinstance(stats, StatsChanged) and stats.stats.played == 1


def test_the_statistics_store_is_passed_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))
    store = MemoryStore()
    w = Minesweeper(size=9, mines=10, seed=8, stats_store=store)
    while w.status != "lost":
        w.reveal(
            next(
                p
                for p in w.board.positions()
                if w.board.view[p] == "." and (w.board.is_mine(p) or w.status == "ready")
            )
        )
    assert store.log.stats().played == 1 and w.stats.played == 1 and w.stats_table[0]["played"] == 1
    assert list(tmp_path.iterdir()) == [], "nothing written to the data folder"


def test_the_whole_board_goes_again_a_second_after_patched_moves() -> None:
    s = start(new_board(9, 9, 10, seed=8))
    moved, game, _ = runtime_update(IDLE, s, FromBrowser((Reveal((4, 4)),), 1), now=1)
    assert moved.wire.patch is not None and render(game, moved)["board_patch"] == moved.wire.patch
    assert Every(1.0, Settle(moved.wire.version), later=True) in subscriptions(game, moved)
    assert runtime_update(moved, game, Settle(moved.wire.version - 1))[0] is moved, "a timer of an older move"
    settled, _, effects = runtime_update(moved, game, Settle(moved.wire.version))
    assert effects == (ResendBoard(),) and settled.wire.patch is None and not subscriptions(game, settled)
    by_python, _, _ = runtime_update(IDLE, s, Reveal((4, 4)), now=1)
    assert by_python.wire.patch is None and by_python.wire.version == 1, "a call from Python: the whole board"
