"""Solver speed on seeded expert mid-game positions (a benchmark, not a test).

Positions: seeded expert games (16x30, 99 mines, first click an opening at the centre) played by
the solver itself (certain moves, else the safest cell) until about 30% of the cells are revealed.
Games lost before that are skipped. Then ``probabilities``, ``analyse`` and ``certain_moves`` are
timed on every position, cold (the solver's caches cleared before each call).

Run: ``python -m benchmarks.bench_solver`` (or through ``python -m benchmarks``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from ipyminesweeper import View, benchmark, new_board, reveal
from ipyminesweeper.solver import analyse, certain_moves, probabilities
from ipyminesweeper.solver.probabilities import clear_caches

from .figures import record

__all__ = ["expert_guess_positions", "expert_positions", "main", "time_function"]


EXACT_GAMES = 60
"""Seeded expert games ``exact`` plays, from each start, for its games per CPU-second."""


def expert_positions(count: int = 30, *, revealed: float = 0.30, first_seed: int = 0) -> list[View]:
    """``count`` expert mid-game views from seeded games, each about ``revealed`` uncovered."""
    out: list[View] = []
    seed = first_seed
    while len(out) < count:
        board = new_board("expert", seed=seed)
        seed += 1
        board = reveal(board, (board.rows // 2, board.cols // 2))
        target = revealed * board.rows * board.cols
        while board.status == "playing":
            view = board.view
            shown = sum(ch.isdigit() for ch in view.cells)
            if shown >= target:
                out.append(view)
                break
            safe, _ = certain_moves(view)
            if safe:
                for pos in sorted(safe):
                    board = reveal(board, pos)
                continue
            probs = probabilities(view)
            board = reveal(board, min(probs, key=lambda p: (probs[p], p)))
    return out


def expert_guess_positions(count: int = 60, *, first_seed: int = 1000) -> list[View]:
    """``count`` expert views where the fast rules find no safe cell (the exact analysis is needed),
    from seeded games at every stage, played as in :func:`expert_positions` to the end."""
    out: list[View] = []
    seed = first_seed
    while len(out) < count:
        board = new_board("expert", seed=seed)
        seed += 1
        board = reveal(board, (board.rows // 2, board.cols // 2))
        while board.status == "playing" and len(out) < count:
            view = board.view
            safe, _ = certain_moves(view)
            if safe:
                for pos in sorted(safe):
                    if board.status == "playing":
                        board = reveal(board, pos)
                continue
            out.append(view)
            probs = probabilities(view)
            board = reveal(board, min(probs, key=lambda p: (probs[p], p)))
    return out


def time_function(fn: Callable[[View], object], views: list[View], repeat: int = 5) -> list[float]:
    """Seconds per cold call of ``fn`` on each view (caches cleared): the best of ``repeat`` runs."""
    times = []
    for view in views:
        best = float("inf")
        for _ in range(repeat):
            clear_caches()
            t0 = time.perf_counter()
            fn(view)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
    return times


def _summary(name: str, times: list[float], group: str = "") -> str:
    ms = sorted(t * 1000 for t in times)
    record("solver", f"{name}{group}", statistics.median(ms), "ms", better="lower", guard=True)
    q = statistics.quantiles(ms, n=10) if len(ms) > 1 else [ms[0]] * 9
    return (
        f"{name:<28} median {statistics.median(ms):7.2f} ms   p10 {q[0]:7.2f}   p90 {q[-1]:7.2f}"
        f"   min {ms[0]:7.2f}   max {ms[-1]:7.2f}   (n={len(ms)})"
    )


def main() -> None:
    """Print median and spread of the solver's timings on 30 seeded expert mid-game positions."""
    t0 = time.perf_counter()
    views = expert_positions(30)
    made = time.perf_counter() - t0
    covered = [sum(not ch.isdigit() for ch in v.cells) for v in views]
    print(
        f"solver benchmark: {len(views)} expert (16x30/99) positions at ~30% revealed"
        f" (covered cells: median {statistics.median(covered)}), generated in {made:.1f} s"
    )
    print(_summary("probabilities(view)", time_function(probabilities, views)))
    print(_summary("analyse(view)", time_function(analyse, views)))
    print(_summary("certain_moves(view)", time_function(certain_moves, views)))
    guesses = expert_guess_positions(60)
    print(f"{len(guesses)} expert positions where no fast rule finds a safe cell (any stage):")
    print(_summary("probabilities(view)", time_function(probabilities, guesses), ", no safe cell"))
    print(_summary("analyse(view)", time_function(analyse, guesses), ", no safe cell"))
    for first_click in ("safe", "opening"):
        games = benchmark("exact", "expert", games=EXACT_GAMES, seed=0, first_click=first_click, jobs=1)
        rate = games.games / games.cpu_seconds
        name = f"exact: expert games per CPU-second, {first_click}"
        print(f"{name:<44} {rate:9.2f}   ({games.games} seeded games, {games.wins} won)")
        record("solver", name, rate, "games/CPU-s", better="higher", guard=True)


if __name__ == "__main__":
    main()
