"""Long games: the cost of a move at move 50,000, and reading the last boards of the history.

Through the calls users make: 50,000 flag toggles with ``w.flag`` on a 100 x 100 board (a message,
``update`` and a sync each), then ``w.history[-3:]``. Figures:

- the time per move over the last 1,000 moves as a ratio to the first 1,000 (mean, so the garbage
  collector's share counts; and median); target: within 1.5x;
- ``w.history[-3:]`` after those moves (target: under 10 ms), also as a ratio to one engine
  ``toggle_flag`` on the same board, timed in the same process.
"""

from __future__ import annotations

import statistics
import time

from ipyminesweeper import Minesweeper, new_board, toggle_flag

from .timing import measure

MOVES = 50_000
WINDOW = 1_000


def per_move_seconds(moves: int = MOVES) -> tuple[Minesweeper, list[float]]:
    """A widget after ``moves`` flag toggles, and the time each ``w.flag`` took."""
    w = Minesweeper(board=new_board(100, 100, 1500, seed=1))
    w.reveal(50, 50)
    covered = [p for p in w.board.positions() if w.board.view[p] == "."][:50]
    times = []
    clock = time.perf_counter
    for i in range(moves):
        start = clock()
        w.flag(*covered[i % len(covered)])
        times.append(clock() - start)
    return w, times


def main() -> None:
    print(f"[history] {MOVES:,} flag toggles on 100x100 through w.flag, then w.history[-3:]")
    w, times = per_move_seconds()
    first, last = times[:WINDOW], times[-WINDOW:]
    for name, f in (("mean", statistics.fmean), ("median", statistics.median)):
        print(
            f"time per move, {name}: first {WINDOW:,} {f(first) * 1e3:.3f} ms, last {WINDOW:,} "
            f"{f(last) * 1e3:.3f} ms = {f(last) / f(first):.2f}x   target <= 1.5x"
        )
    tail = measure(f"w.history[-3:] after {MOVES:,} moves", lambda: None, lambda _: w.history[-3:], 30)
    spot = next(p for p in w.board.positions() if w.board.view[p] == ".")
    engine = measure("engine toggle_flag (reference)", lambda: w.board, lambda b: toggle_flag(b, spot), 200)
    print(engine.line("us"))
    print(tail.line("ms", "< 10 ms") + f"   = {tail.median / engine.median:.1f}x the engine's toggle_flag")
