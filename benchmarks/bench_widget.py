"""The widget's Python side: history memory and the cost of one move, through the calls users make.

- 10,000 flag toggles on a 100 x 100 board, played with ``w.flag`` (a message, ``update`` and a sync
  each): the memory the widget's history keeps (target: under 20 MB), measured with tracemalloc;
- the time of one ``w.flag`` / ``w.reveal`` on expert and on 100 x 100, as a ratio to the engine's own
  ``toggle_flag`` run in the same process (machines here are shared; ratios are stable, seconds are not);
- one move on 1000 x 1000 (150,000 mines), as a ratio to the same move on expert: the engine's
  ``toggle_flag`` (``Board.changed``: checked in proportion to the change) against the constructor's full
  check of the same board (the path before it), and a flag from the browser (a request in ``requests``,
  answered with a patch) and from Python code (``w.flag``, the whole board).
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable

from ipyminesweeper import Board, Minesweeper, new_board, reveal, toggle_flag

from .timing import Timing, measure


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


def _flag_costs(rows: int, cols: int, mines: int, n: int) -> dict[str, float]:
    """Median seconds of one flag on a board being played: engine, constructor, browser, Python call."""
    board = reveal(new_board(rows, cols, mines, seed=2), (rows // 2, cols // 2))
    spot = next(p for p in board.positions() if board.view[p] == "." and board.count(p) > 0)
    flagged = toggle_flag(board, spot)

    w = Minesweeper(board=board)
    ids = iter(range(1, 10**9))

    def engine(_: object) -> str:  # checked in proportion to the change, the view redrawn cell by cell
        return toggle_flag(board, spot).view.cells

    def constructor(_: object) -> str:  # every cell checked, the view drawn from scratch
        return Board(board.rows, board.cols, board.mines, flagged.states, board.minefield).view.cells

    def from_browser(_: object) -> None:  # as the comm delivers it: answered with a board patch
        w.set_state({"requests": [{"id": next(ids), "action": "flag", "row": spot[0], "col": spot[1]}]})

    def from_python(_: object) -> None:
        w.flag(*spot)

    from_browser(None)  # warm up: the board the widget keeps has its view, as in a game
    from_browser(None)
    runs = {"engine": engine, "constructor": constructor, "browser": from_browser, "python": from_python}
    return {name: _cpu_median(run, n) for name, run in runs.items()}


def _cpu_median(run: Callable[[object], object], n: int) -> float:
    """Median CPU seconds of ``run(None)``: the machine is shared; waiting for a core is not the move's."""
    samples = []
    for _ in range(n):
        start = time.process_time()
        run(None)
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def big_board_moves(n: int = 60) -> None:
    """One flag on 1000 x 1000 against the same on expert (see the module's docstring), in CPU time."""
    expert = _flag_costs(16, 30, 99, n)
    big = _flag_costs(1000, 1000, 150_000, n)
    for name, what in [
        ("engine", "engine toggle_flag (Board.changed)"),
        ("constructor", "the constructor's full check and view"),
        ("browser", "a flag from the browser (patch)"),
        ("python", "w.flag from Python (whole board)"),
    ]:
        print(
            f"1000x1000 {what:<40} {big[name] * 1e3:8.2f} ms = {big[name] / expert[name]:6.1f}x expert's"
            f" ({expert[name] * 1e6:.0f} us)"
        )
    print(
        f"1000x1000: the constructor's full check costs {big['constructor'] / big['engine']:.0f}x "
        "Board.changed (same process, CPU time)"
    )


def flag_timings(label: str, w: Minesweeper) -> tuple[Timing, Timing]:
    """A flag toggled on ``w``'s board after a first reveal in its middle: by the engine alone, and
    through the widget (message, update, sync)."""
    w.reveal(w.board.rows // 2, w.board.cols // 2)
    spot = next(p for p in w.board.positions() if w.board.view[p] == ".")
    engine = measure(f"{label}: engine toggle_flag", lambda: w.board, lambda b: toggle_flag(b, spot), 400)
    widget = measure(f"{label}: w.flag (message, update, sync)", lambda: None, lambda _: w.flag(*spot), 400)
    return engine, widget


def main() -> None:
    print("[widget] history memory and per-move cost (python side, no browser)")
    mb, length = history_megabytes()
    print(
        f"10,000 flag toggles on 100x100 through w.flag: history of {length:,} boards keeps {mb:.1f} MB"
        "   target < 20 MB"
    )
    for label, rows, cols, mines in (("expert", 16, 30, 99), ("100x100", 100, 100, 1500)):
        engine, widget = flag_timings(label, Minesweeper(board=new_board(rows, cols, mines, seed=2)))
        print(engine.line("us"))
        print(widget.line("us") + f"   = {widget.median / engine.median:.1f}x the engine's toggle_flag")
    start = time.perf_counter()
    w = Minesweeper("expert", seed=3)
    w.autoplay("simple", moves=200)
    print(
        f"expert: w.autoplay('simple', moves=200) played {len(w.history) - 1} moves in "
        f"{time.perf_counter() - start:.2f} s"
    )
    big_board_moves()
