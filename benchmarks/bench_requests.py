"""Every browser request answered within a second: a fuzz over the game picker's whole range.

Games of every size the picker allows (1 to 2,000 rows or columns, up to the engine's 4,000,000 cells),
every density up to the most mines that fit, and every first-click rule, each played by the requests the
front end sends (as the kernel's comm delivers them, in a running event loop): the picker's new game, a
reveal, a flag, a hint, a step, the probability overlay. A request is *answered* when the kernel hands
back control with the request either done (``handled``) or shown as work under way (``busy``, with a
Cancel). Work still running after :data:`CANCEL_AFTER` seconds is cancelled through the widget's Cancel,
as a player would. Figures: the slowest answer, and the longest the event loop was held at all (a
result kept after background work included). Speed is reported, never asserted: the test
(tests/widget/test_request_fuzz.py) checks that every request is answered and prints the same figures.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ipyminesweeper import MAX_CELLS, Minesweeper, max_mines
from ipyminesweeper.engine import FIRST_CLICK_POLICIES

CANCEL_AFTER = 3.0
"""Seconds a background request may run before the fuzz presses Cancel."""
MAX_SIDE = 2000


@dataclass
class Figures:
    """What the fuzz saw: each request's answer time, the loop's longest stall, what went background."""

    answers: list[tuple[float, str]] = field(default_factory=list)
    stall: float = 0.0
    background: int = 0
    cancelled: int = 0
    unanswered: list[str] = field(default_factory=list)
    last_id: int = 0

    def report(self) -> str:
        worst, what = max(self.answers)
        return (
            f"{len(self.answers)} requests: slowest answer {worst:.3f} s ({what}); event loop held at most "
            f"{self.stall:.3f} s; {self.background} went to the background, {self.cancelled} cancelled "
            f"after {CANCEL_AFTER:g} s; {len(self.unanswered)} unanswered"
        )


def picker_games(count: int, seed: int) -> list[tuple[int, int, int, str]]:
    """``count`` games from the picker's range: sides log-uniform, density uniform up to the most mines
    that fit, every first-click rule in turn; the largest board and the fullest one always included."""
    rng = random.Random(seed)
    games = [
        (MAX_SIDE, MAX_SIDE, MAX_CELLS * 3 // 20, "no-guess"),
        (MAX_SIDE, MAX_SIDE, MAX_CELLS - 1, "any"),
    ]
    while len(games) < count:
        rows = round(math.exp(rng.uniform(0, math.log(MAX_SIDE))))
        cols = round(math.exp(rng.uniform(0, math.log(min(MAX_SIDE, MAX_CELLS // rows)))))
        rule = FIRST_CLICK_POLICIES[len(games) % len(FIRST_CLICK_POLICIES)]
        mines = rng.randint(0, max_mines(rows, cols, rule))
        games.append((rows, cols, mines, rule))
    return games


async def play(w: Minesweeper, figures: Figures, rng: random.Random, game: tuple[int, int, int, str]) -> None:
    rows, cols, mines, rule = game
    cell = {"row": rng.randrange(rows), "col": rng.randrange(cols)}
    requests: list[dict[str, Any]] = [
        {"action": "new_game", "rows": rows, "cols": cols, "mines": mines, "first_click": rule},
        {"action": "reveal", **cell},
        {"action": "flag", "row": rng.randrange(rows), "col": rng.randrange(cols)},
        {"action": "hint"},
        {"action": "step"},
    ]
    for request in [*requests, "overlay"]:
        await request_and_wait(w, figures, request, f"{rows}x{cols}, {mines} mines, {rule}")


async def request_and_wait(w: Minesweeper, figures: Figures, request: Any, game: str) -> None:
    """One request as the browser sends it; then wait for its work (Cancel past CANCEL_AFTER)."""
    ident = figures.last_id = max(w.handled, figures.last_id) + 1  # as the front end counts
    what = f"{request if isinstance(request, str) else request['action']} on {game}"
    start = time.perf_counter()
    if request == "overlay":
        deliver(w, {"show_probabilities": not w.show_probabilities})
        answered = True
    else:
        deliver(w, {"requests": [{"id": ident, **request}]})
        answered = w.handled >= ident or bool(w.busy)
    figures.answers.append((time.perf_counter() - start, what))
    if not answered:
        figures.unanswered.append(what)
    if w.busy:
        figures.background += 1
        deadline = time.monotonic() + CANCEL_AFTER
        while w.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if w.busy:
            start = time.perf_counter()
            figures.last_id += 1
            deliver(w, {"requests": [{"id": ident + 1, "action": "cancel"}]})
            figures.answers.append((time.perf_counter() - start, f"cancel of {what}"))
            figures.cancelled += 1
            if w.busy or w.handled < ident + 1:
                figures.unanswered.append(f"cancel of {what}")
    await asyncio.sleep(0)


def deliver(w: Minesweeper, state: dict[str, Any]) -> None:
    """A state update from the browser, as the kernel's comm delivers it."""
    with w.hold_sync():
        w.set_state(state)


async def watch(figures: Figures, stop: asyncio.Event) -> None:
    """The event loop's longest stall: how late a 5 ms sleep wakes up."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.005)
        figures.stall = max(figures.stall, time.perf_counter() - start - 0.005)


async def fuzz(games: int = 12, seed: int = 2026) -> Figures:
    """Play ``games`` picker games by browser requests in this event loop; the figures."""
    figures, stop = Figures(), asyncio.Event()
    watcher = asyncio.create_task(watch(figures, stop))
    rng = random.Random(seed)
    w = Minesweeper(size=9, mines=10, seed=seed)
    for game in picker_games(games, seed):
        await play(w, figures, rng, game)
    stop.set()
    await watcher
    return figures


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks requests [--games N] [--seed S ...]``: one fuzz per seed (default 2026)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks requests")
    parser.add_argument("--games", type=int, default=12, help="picker games per seed")
    parser.add_argument("--seed", type=int, nargs="+", default=[2026], help="one fuzz per seed")
    args = parser.parse_args(argv or [])
    print(f"[requests] browser requests over the picker's range, Cancel after {CANCEL_AFTER:g} s of work")
    for seed in args.seed:
        print(f"  seed {seed}, {args.games} games: " + asyncio.run(fuzz(args.games, seed)).report())


if __name__ == "__main__":
    main(sys.argv[1:])
