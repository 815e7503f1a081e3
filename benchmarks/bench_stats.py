"""The statistics database: reading the summary of 1,000,000 games, as the widget does (``StatsFile.load``).

The database is built with ``StatsFile.add_many`` (3 levels x 2 first-click rules, 60% won, 20% assisted)
in a temporary folder. Figures: the median time of ``load()`` on a 1,000,000-game database, on a new
``StatsFile`` (open, check, read: as a new widget does) and on one already open (as after a finished
game), and of ``add()`` (a finished game: the transaction, its level's median read again through the
index, and the new summary), each also as a ratio to the same call on a 1,000-game database timed in the
same run. Target for ``load()``: under 100 ms at 1,000,000 games.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from ipyminesweeper.widget.stats import GameResult
from ipyminesweeper.widget.stats_file import StatsFile

from .timing import Timing, measure

LEVELS = ("beginner", "intermediate", "expert")
POLICIES = ("opening", "safe")


def games(count: int, seed: int) -> Iterator[GameResult]:
    rng = random.Random(seed)
    for i in range(count):
        yield GameResult(
            f"{seed}-{i}",
            LEVELS[i % 3],
            POLICIES[i % 2],
            rng.random() < 0.6,
            round(rng.uniform(5, 900), 2),
            "" if rng.random() < 0.8 else "1 hint",
            1_700_000_000_000 + i,
        )


def build(path: Path, count: int) -> float:
    """A database of ``count`` games at ``path``; the seconds it took."""
    start = time.perf_counter()
    store = StatsFile(path)
    chunk = 100_000
    for first in range(0, count, chunk):
        store.add_many(games(min(chunk, count - first), seed=first))
    store.close()
    return time.perf_counter() - start


def load(store: StatsFile) -> object:
    return store.load()


def timings(path: Path, label: str) -> tuple[Timing, Timing, Timing]:
    """``load()`` on a new StatsFile each time (as a new widget) and on one kept open (as after a game),
    and ``add()`` of one more game (its summary included)."""
    cold = measure(f"{label}: load() on a new StatsFile", lambda: StatsFile(path), load, 15)
    kept = StatsFile(path)
    kept.load()
    warm = measure(f"{label}: load() again", lambda: kept, load, 30)
    fresh = iter(games(30, seed=-1))
    add = measure(f"{label}: add() a game", lambda: next(fresh), lambda game: kept.add(game), 30)
    return cold, warm, add


def main(count: int = 1_000_000) -> None:
    print(f"[stats] the summary of a {count:,}-game statistics database (SQLite), through StatsFile.load()")
    with tempfile.TemporaryDirectory() as folder:
        small, big = Path(folder) / "small" / "stats.sqlite3", Path(folder) / "big" / "stats.sqlite3"
        build(small, 1_000)
        seconds = build(big, count)
        size = big.stat().st_size / 1e6
        print(f"built with add_many: {count:,} games in {seconds:.1f} s, {size:.0f} MB on disk")
        assert StatsFile(big).load().played == count
        reference = timings(small, "1,000 games (reference)")
        measured = timings(big, f"{count:,} games")
        for ref, got, target in zip(reference, measured, ("< 100 ms", "< 100 ms", ""), strict=True):
            print(ref.line("ms"))
            print(got.line("ms", target) + f"   = {got.median / ref.median:.1f}x the 1,000-game database")
