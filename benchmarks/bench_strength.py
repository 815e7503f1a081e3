"""Strategy strength: win rates (95% Wilson CI) and speed of simple, scored and exact per level.

Game counts: ``IPYMS_BENCH_GAMES`` (default 200) games per level for ``exact``, a tenth as many (at least
50) for the teaching strategies; ``IPYMS_BENCH_EXPERT_GAMES`` overrides the expert count (default: a
quarter of it, at least 50). ``IPYMS_BENCH_JOBS`` sets the worker processes (default: all cores).
The full measurement of docs/benchmarks.md: ``IPYMS_BENCH_GAMES=20000 IPYMS_BENCH_EXPERT_GAMES=5000``.
Published best win rates are printed alongside for reference.
"""

from __future__ import annotations

import os

from ipyminesweeper import LEVELS
from ipyminesweeper.arena import BenchResult, benchmark, conventional_first_move

# the best published rates (issue 9's table) and the targets of issue 9: beat every one of them
PUBLISHED = {
    ("beginner", "opening"): "PSEQ-D256 97.17%",
    ("intermediate", "opening"): "PSEQ-D256 89.08%",
    ("expert", "opening"): "Hill 54.3%, PSEQ-D256 53.45%",
    ("beginner", "safe"): "PSEQ-D256 91.70%",
    ("intermediate", "safe"): "PSEQ-D256 78.23%",
    ("expert", "safe"): "Hill 41.13%, PSEQ-D256 40.05%",
}
TARGETS = {
    ("beginner", "opening"): 0.974,
    ("intermediate", "opening"): 0.894,
    ("expert", "opening"): 0.548,
    ("beginner", "safe"): 0.919,
    ("intermediate", "safe"): 0.786,
    ("expert", "safe"): 0.414,
}


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def _row(r: BenchResult) -> str:
    low, high = r.ci
    key = (r.level, r.first_click)
    target = TARGETS.get(key) if r.strategy == "exact" else None
    mark = ""
    if target is not None:
        if low >= target:
            mark = f"  (above the {target:.1%} target, whole CI)"
        elif high < target:
            mark = f"  (BELOW the {target:.1%} target, whole CI)"
        else:
            side = "at or above" if r.win_rate >= target else "below"
            mark = f"  ({side} the {target:.1%} target; the CI spans it)"
    return (
        f"| {r.strategy} | {r.level} | {r.first_click} {r.first_move} | {r.games} | {r.win_rate:.2%} "
        f"| {low:.2%} to {high:.2%} | {PUBLISHED.get(key, '') if r.strategy == 'exact' else ''} "
        f"| {r.games_per_cpu_second:.1f} | {r.mean_guesses:.2f} |{mark}"
    )


def main() -> None:
    games = _env_int("IPYMS_BENCH_GAMES", 200)
    expert = _env_int("IPYMS_BENCH_EXPERT_GAMES", max(50, games // 4))
    jobs = _env_int("IPYMS_BENCH_JOBS", 0) or None
    print("[strength] win rates (95% Wilson CI), games per second per core, mean guesses")
    print(
        "| strategy | level | first click | games | win rate | 95% CI | published best "
        "| games/s/core | guesses |"
    )
    print("|---|---|---|---:|---:|---|---|---:|---:|")
    for first_click in ("opening", "safe"):
        for level in LEVELS:
            n = expert if level == "expert" else games
            for strategy in ("simple", "scored", "exact"):
                count = n if strategy == "exact" else max(50, n // 10)
                r = benchmark(strategy, level, games=count, seed=0, first_click=first_click, jobs=jobs)
                print(_row(r), flush=True)
    rows, cols, _ = LEVELS["expert"]
    print(
        f"first clicks: opening at {conventional_first_move(rows, cols, 'opening')} on expert and "
        f"intermediate, (2, 2) on beginner; safe at the corner (0, 0)"
    )


if __name__ == "__main__":
    main()
