"""Speed of ``exact`` and of ``probabilities`` against ms-toollib, on the same boards (issue 9).

    .venv/bin/python -m benchmarks speed          # or: python benchmarks/bench_speed.py [--games N]
    IPYMS_BENCH_SPEED_GAMES=80 (default, per start)  IPYMS_BENCH_SPEED_POSITIONS=300 (default)

The machine is shared and noisy, so each figure comes with a reference measured in the same process, on
the same boards, interleaved with it: ms-toollib (``pip install ms-toollib``, in the ``dev`` group), a
Rust solver. Times are CPU seconds of this one process (``time.process_time``; ms-toollib's calls run
in the calling thread), serial, one core.

1. Expert games (16x30, 99 mines) per CPU-second, for each start of the published win rates: a "safe"
   first click in the corner (0, 0), and an "opening" first click at (3, 3). Game ``i`` is
   ``new_board(16, 30, 99, seed=SEED + i, first_click=...)`` with that first click revealed, as in
   ``benchmark``; ``SEED`` = 9,090,000 (the win rates of docs/research/benchmarks-history.md use seeds
   0..n-1, ``bench_lite`` 910,000..). Three players on the same boards, in rounds of ten games, taking turns:

   - ``exact`` through ``play(board, exact)``, the game loop users call;
   - ``exact`` through ``benchmark(exact, "expert", games=n, seed=..., executor=SerialExecutor())``;
   - ms-toollib, lowest probability: each move ``ms_toollib.cal_probability_onboard(board, 99)``, then
     reveal every covered cell of probability 0, or else the covered cell of lowest probability
     (reading order on ties), with this package's ``reveal`` (so the rules are the same).

   The two ``exact`` rows must win the same games (checked). Targets: >= 60 games per CPU-second for
   ``exact``, and >= 1.5x ms-toollib's games per CPU-second.

2. ``probabilities(view)`` against ``ms_toollib.cal_probability_onboard`` per call, on a few hundred
   expert positions at every stage: the view before every 8th move of ``exact`` in games seeded from
   ``POSITION_SEED`` (even seeds a safe corner start, odd ones an opening start). Each call is timed
   three times, interleaved, and the best kept; the solver's caches are cleared before every call of
   ours (``ipyminesweeper.solver.probabilities.clear_caches``: the view readings and component counts).
   ms-toollib gets its board as a list of rows built beforehand (the conversion is not timed). Target:
   ours <= 1.5x ms-toollib's time. Both must give the same probabilities to 1e-6 on every position
   (checked and printed; ``tests/solver/test_ms_toollib_agreement.py`` checks it too).

ms-toollib's board: a list of rows of ints, ``0``-``8`` a revealed number, ``10`` a covered cell
(``11`` a flag, which it does not trust either: we send flags as ``10``). ``cal_probability_onboard``
returns ``(rows of P(mine), [min, given, max mine count])``, with 0 for revealed cells.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version

from ipyminesweeper import (
    Board,
    SerialExecutor,
    View,
    benchmark,
    exact,
    new_board,
    play,
    probabilities,
    reveal,
)
from ipyminesweeper.solver.probabilities import clear_caches  # else our per-call times would be warm

__all__ = ["expert_positions", "main", "ms_board", "ms_toollib_game"]

ROWS, COLS, MINES = 16, 30, 99
SEED = 9_090_000
POSITION_SEED = 9_095_000
GAMES = int(os.environ.get("IPYMS_BENCH_SPEED_GAMES", "80"))
POSITIONS = int(os.environ.get("IPYMS_BENCH_SPEED_POSITIONS", "300"))
ROUND = 10  # games per turn of each player
EVERY = 8  # a position every this many moves of exact
REPEAT = 3  # timings per position (the best is kept)
STARTS = (("safe", (0, 0)), ("opening", (3, 3)))  # the arena's conventional first moves on expert
TARGET_GAMES = 60.0
TARGET_RATIO = 1.5
TARGET_CALL = 1.5
TOLERANCE = 1e-6
ZERO = 1e-12  # ms-toollib's probabilities at or below this are a safe cell


def ms_board(view: View) -> list[list[int]]:
    """The view as ms-toollib's board: rows of ints, ``10`` covered (and flagged), ``0``-``8`` numbers."""
    cols, cells = view.cols, view.cells
    return [
        [10 if ch in ".f" else ord(ch) - 48 for ch in cells[r * cols : (r + 1) * cols]]
        for r in range(view.rows)
    ]


def ms_toollib_game(board: Board) -> Board:
    """Play ``board`` to the end by ms-toollib's probabilities: every safe cell, else the safest guess."""
    import ms_toollib

    while board.status == "playing":
        view = board.view
        grid, _ = ms_toollib.cal_probability_onboard(ms_board(view), view.mines)
        cols = view.cols
        covered = [(grid[i // cols][i % cols], i) for i, ch in enumerate(view.cells) if ch == "."]
        picks = [i for p, i in covered if p <= ZERO] or [min(covered)[1]]
        for i in picks:
            if board.status != "playing":
                break
            board = reveal(board, (i // cols, i % cols))
    return board


def _start(first_click: str, first: tuple[int, int], seed: int) -> Board:
    return reveal(new_board(ROWS, COLS, MINES, seed=seed, first_click=first_click), first)


@dataclass
class _Player:
    name: str
    run: Callable[[str, tuple[int, int], int, int], bytes]  # (first_click, first, seed, games) -> outcomes
    cpu: float = 0.0
    outcomes: bytes = b""

    def turn(self, first_click: str, first: tuple[int, int], seed: int, games: int) -> None:
        t0 = time.process_time()
        out = self.run(first_click, first, seed, games)
        self.cpu += time.process_time() - t0
        self.outcomes += out

    @property
    def rate(self) -> float:
        return len(self.outcomes) / self.cpu if self.cpu > 0 else float("inf")


def _via_play(first_click: str, first: tuple[int, int], seed: int, games: int) -> bytes:
    out = bytearray()
    for s in range(seed, seed + games):
        board, _ = play(_start(first_click, first, s), exact)
        out.append(board.status == "won")
    return bytes(out)


def _via_benchmark(first_click: str, first: tuple[int, int], seed: int, games: int) -> bytes:
    r = benchmark(exact, "expert", games=games, seed=seed, first_click=first_click, executor=SerialExecutor())
    if r.first_move != f"({first[0]},{first[1]})":
        raise RuntimeError(f"benchmark's first click is {r.first_move}, this benchmark assumed {first}")
    return r.outcomes


def _via_ms_toollib(first_click: str, first: tuple[int, int], seed: int, games: int) -> bytes:
    return bytes(
        ms_toollib_game(_start(first_click, first, s)).status == "won" for s in range(seed, seed + games)
    )


def games_table(games: int) -> list[str]:
    """Part 1: the three players on the same seeded expert boards, for each start."""
    lines = [
        f"expert {ROWS}x{COLS}/{MINES}, {games} games per start (seeds {SEED}..{SEED + games - 1}), "
        f"serial, CPU seconds; in turns of {ROUND} games",
        f"{'start':<15} {'player':<48} {'wins':>7} {'CPU s':>7} {'games/CPU-s':>11} {'vs ms-toollib':>14}",
    ]
    verdicts = []
    for first_click, first in STARTS:
        players = [
            _Player("exact: play(board, exact)", _via_play),
            _Player("exact: benchmark(..., SerialExecutor())", _via_benchmark),
            _Player("ms-toollib lowest probability (reference)", _via_ms_toollib),
        ]
        for p in players:  # warm-up, outside the measured seeds: imports, tables, first calls
            p.run(first_click, first, SEED - 1, 1)
        for k, lo in enumerate(range(0, games, ROUND)):
            n = min(ROUND, games - lo)
            for p in players[k % 3 :] + players[: k % 3]:
                p.turn(first_click, first, SEED + lo, n)
        ref = players[2].rate
        start = f"{first_click} {first[0]},{first[1]}"
        for p in players:
            wins = f"{sum(p.outcomes)}/{len(p.outcomes)}"
            lines.append(
                f"{start:<15} {p.name:<48} {wins:>7} {p.cpu:>7.2f} {p.rate:>11.2f} {p.rate / ref:>13.2f}x"
            )
        a, b, ms = (p.outcomes for p in players)
        only_exact = sum(x and not y for x, y in zip(a, ms, strict=True))
        only_ms = sum(y and not x for x, y in zip(a, ms, strict=True))
        lines.append(
            f"{'':<15} play and benchmark won the same games: {'yes' if a == b else 'NO'}; "
            f"boards only exact won {only_exact}, only ms-toollib {only_ms}"
        )
        worst = min(players[0].rate, players[1].rate)
        verdicts.append(
            f"{start}: {worst:.1f} games/CPU-s ({'met' if worst >= TARGET_GAMES else 'missed'}), "
            f"{worst / ref:.2f}x ms-toollib ({'met' if worst / ref >= TARGET_RATIO else 'missed'})"
        )
    lines.append(
        f"targets: exact >= {TARGET_GAMES:.0f} games/CPU-s and >= {TARGET_RATIO}x ms-toollib "
        f"(slower exact row): " + "; ".join(verdicts)
    )
    return lines


def expert_positions(count: int, first_seed: int = POSITION_SEED) -> list[View]:
    """``count`` expert views still being played: the view before every ``EVERY``-th move of ``exact``."""
    out: list[View] = []
    seed = first_seed
    while len(out) < count:
        first_click, first = STARTS[seed % 2]
        board = _start(first_click, first, seed)
        seed += 1
        while board.status == "playing" and len(out) < count:
            out.append(board.view)
            board, _ = play(board, exact, max_moves=EVERY)
    return out


def calls_table(count: int) -> list[str]:
    """Part 2: ``probabilities`` against ``cal_probability_onboard``, per call, on the same positions."""
    import ms_toollib

    t0 = time.perf_counter()
    views = expert_positions(count)
    made = time.perf_counter() - t0
    boards = [ms_board(v) for v in views]
    ours: list[float] = []
    theirs: list[float] = []
    worst = 0.0
    disagree = 0
    for view, board in zip(views, boards, strict=True):
        best_ours = best_theirs = float("inf")
        for _ in range(REPEAT):
            clear_caches()
            t = time.process_time()
            p = probabilities(view)
            best_ours = min(best_ours, time.process_time() - t)
            t = time.process_time()
            grid, _ = ms_toollib.cal_probability_onboard(board, view.mines)
            best_theirs = min(best_theirs, time.process_time() - t)
        ours.append(best_ours)
        theirs.append(best_theirs)
        diff = max((abs(q - grid[r][c]) for (r, c), q in p.items()), default=0.0)
        worst = max(worst, diff)
        disagree += diff > TOLERANCE
    covered = statistics.median(sum(ch == "." for ch in v.cells) for v in views)
    med_ours, med_theirs = statistics.median(ours), statistics.median(theirs)
    ratio_med, ratio_tot = med_ours / med_theirs, sum(ours) / sum(theirs)
    cache = "cleared before every call (clear_caches())"
    return [
        f"{len(views)} expert positions (every {EVERY}th move of exact, seeds {POSITION_SEED}.., median "
        f"{covered:.0f} covered cells; made in {made:.1f} s), best of {REPEAT} CPU timings per position; "
        f"solver caches {cache}",
        f"{'function':<48} {'median ms':>10} {'total s':>8}",
        f"{'probabilities(view)':<48} {med_ours * 1e3:>10.3f} {sum(ours):>8.3f}",
        f"{'ms_toollib.cal_probability_onboard (reference)':<48} {med_theirs * 1e3:>10.3f} "
        f"{sum(theirs):>8.3f}",
        f"{'ratio ours / ms-toollib':<48} {ratio_med:>9.2f}x {ratio_tot:>7.2f}x   target <= {TARGET_CALL}x: "
        f"median {'met' if ratio_med <= TARGET_CALL else 'missed'}, "
        f"total {'met' if ratio_tot <= TARGET_CALL else 'missed'}",
        f"agreement: {len(views) - disagree}/{len(views)} positions within {TOLERANCE:g} "
        f"(max |difference| {worst:.1e})" + ("" if not disagree else "  -- COMPARISON VOID: they disagree"),
    ]


def main(argv: list[str] | None = None) -> None:
    """Print both tables, with the machine they ran on."""
    parser = argparse.ArgumentParser(prog="bench_speed", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=GAMES, help="expert games per start (default %(default)s)"
    )
    parser.add_argument("--positions", type=int, default=POSITIONS, help="positions (default %(default)s)")
    args = parser.parse_args([] if argv is None else argv)
    try:
        import ms_toollib  # noqa: F401
    except ImportError:
        print("[speed] needs ms-toollib (the dev group: pip install --group dev): skipped")
        return
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    print(
        f"speed (issue 9): ipyminesweeper {version('ipyminesweeper')} against ms-toollib "
        f"{version('ms_toollib')}; Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{cores} cores usable, {load}"
    )
    t0 = time.perf_counter()
    for line in games_table(args.games):
        print(line, flush=True)
    print()
    for line in calls_table(args.positions):
        print(line, flush=True)
    print(f"(suite took {time.perf_counter() - t0:.0f} s wall)")


if __name__ == "__main__":
    main(sys.argv[1:])
