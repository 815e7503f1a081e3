"""The widget's Python side: history memory and the cost of one move, through the calls users make.

- 10,000 flag toggles on a 100 x 100 board, played with ``w.flag`` (a message, ``update`` and a sync
  each): the memory the widget's history keeps (target: under 20 MB), measured with tracemalloc;
- the time of one ``w.flag`` / ``w.reveal`` on expert and on 100 x 100, as a ratio to the engine's own
  ``toggle_flag`` run in the same process (machines here are shared; ratios are stable, seconds are not).
"""

from __future__ import annotations

import gc
import time
import tracemalloc

from ipyminesweeper import Minesweeper, new_board, toggle_flag

from .timing import measure


def history_megabytes(toggles: int = 10_000) -> tuple[float, int]:
    """MB retained by a 100 x 100 widget after ``toggles`` flag toggles, and the history's length."""
    w = Minesweeper(board=new_board(100, 100, 1500, seed=1))
    w.reveal(50, 50)
    covered = [p for p in w.board.positions() if w.board.view[p] == "."][:50]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(toggles):
        w.flag(*covered[i % len(covered)])
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return kept / 1e6, len(w.history)


def main() -> None:
    print("[widget] history memory and per-move cost (python side, no browser)")
    mb, length = history_megabytes()
    print(
        f"10,000 flag toggles on 100x100 through w.flag: history of {length:,} boards keeps {mb:.1f} MB"
        "   target < 20 MB"
    )
    for label, rows, cols, mines in (("expert", 16, 30, 99), ("100x100", 100, 100, 1500)):
        w = Minesweeper(board=new_board(rows, cols, mines, seed=2))
        w.reveal(rows // 2, cols // 2)
        spot = next(p for p in w.board.positions() if w.board.view[p] == ".")
        engine = measure(
            f"{label}: engine toggle_flag", lambda w=w: w.board, lambda b, s=spot: toggle_flag(b, s), 400
        )
        widget = measure(
            f"{label}: w.flag (message, update, sync)", lambda: None, lambda _, w=w, s=spot: w.flag(*s), 400
        )
        print(engine.line("us"))
        print(widget.line("us") + f"   = {widget.median / engine.median:.1f}x the engine's toggle_flag")
    start = time.perf_counter()
    w = Minesweeper("expert", seed=3)
    w.autoplay("simple", moves=200)
    print(
        f"expert: w.autoplay('simple', moves=200) played {len(w.history) - 1} moves in "
        f"{time.perf_counter() - start:.2f} s"
    )
