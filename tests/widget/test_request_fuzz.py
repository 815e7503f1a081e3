"""Every browser request over the picker's whole range gets an answer: done, or shown as work under way
with a Cancel (benchmarks/bench_requests.py; its figures are printed, speed is not asserted here)."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import traceback

import pytest
from benchmarks.bench_requests import fuzz, picker_games

from ipyminesweeper import MAX_CELLS, max_mines
from ipyminesweeper.engine import FIRST_CLICK_POLICIES

pytestmark = pytest.mark.slow


def test_the_games_cover_the_picker_range() -> None:
    games = picker_games(40, seed=7)
    assert {rule for *_, rule in games} == set(FIRST_CLICK_POLICIES)
    assert all(
        r >= 1 and c >= 1 and r * c <= MAX_CELLS and 0 <= m <= max_mines(r, c, f) for r, c, m, f in games
    )
    assert max(r * c for r, c, _, _ in games) == MAX_CELLS


def test_every_request_over_the_picker_range_is_answered() -> None:
    figures = asyncio.run(fuzz(games=6, seed=11))
    print(figures.report())
    assert figures.unanswered == []
    assert len(figures.answers) >= 6 * 6
    assert figures.background > 0 and figures.cancelled > 0, "the slow ones went to the background"
    deadline = time.monotonic() + 30
    while workers() and time.monotonic() < deadline:
        time.sleep(0.1)
    # A cancelled thread inside one long call into C ends when the call returns (see widget/jobs.py):
    # reported, not asserted.
    frames = sys._current_frames()
    for thread in workers():
        stack = traceback.format_stack(frames[thread.ident])[-3:] if thread.ident in frames else []
        print(f"still running after 30 s: {thread.name}\n{''.join(stack)}")


def workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("ipyminesweeper")]
