"""Run the benchmarks and print their figures: ``python -m benchmarks [--out FILE] [engine|solver|...]``.

The figures the suites record (``benchmarks/figures.py``) go to ``benchmarks/figures.json`` (or FILE),
with the commit, the machine and a reference loop timed in the same process; ``make bench-check``
compares them with the last committed ones. A suite that takes arguments gets the rest of the line:
``python -m benchmarks versus compare ...``.
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
from pathlib import Path

SUITES = {
    "engine": "benchmarks.bench_engine",
    "solver": "benchmarks.bench_solver",
    "strength": "benchmarks.bench_strength",
    "widget": "benchmarks.bench_widget",
    "history": "benchmarks.bench_history",  # long games: time per move and history slices (issue 20)
    "stats": "benchmarks.bench_stats",  # the statistics database: summary of 1,000,000 games (issue 20)
    "requests": "benchmarks.bench_requests",  # browser requests over the picker's range (issue 20)
    "browser": "benchmarks.bench_browser",
    "lite": "benchmarks.bench_lite",  # Pyodide in the offline JupyterLite site, in Chromium
    "lite-load": "benchmarks.bench_lite_load",  # the offline site: start and bytes, gzip or not (issue 29)
    "speed": "benchmarks.bench_speed",  # exact and probabilities against ms-toollib, same boards (issue 9)
    "versus": "benchmarks.versus",  # head to head on a boards file, paired with Hill's solvers (issue 21)
    "checks": "benchmarks.bench_checks",  # the wait for an exercise check's verdict in notebook 02
    "grading": "benchmarks.bench_grading",  # the grader on a made-up class of 30 notebooks (issue 27)
    "tournament": "benchmarks.bench_tournament",  # class tournament, with and without the sandbox (issue 30)
    "review": "benchmarks.bench_review",  # review(game) of one expert game, a human's and exact's (issue 58)
    "lite-review": "benchmarks.bench_lite_review",  # the review in Pyodide and CPython, in one run (issue 58)
}


def main(argv: list[str]) -> None:
    if argv and argv[0] in SUITES and any(a not in SUITES for a in argv[1:]):
        # one suite with its own arguments: python -m benchmarks versus play --boards ...
        importlib.import_module(SUITES[argv[0]]).main(argv[1:])
        return
    out = None
    if argv[:1] == ["--out"] and len(argv) > 1:
        out, argv = Path(argv[1]), argv[2:]
    names = argv or list(SUITES)
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise SystemExit(f"unknown benchmark(s) {unknown}: choose from {list(SUITES)}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or 'cpu'}; "
        f"Python {platform.python_version()} on {platform.system()} {platform.release()}"
    )
    from .figures import FIGURES_FILE, run

    run(names, out or FIGURES_FILE)


if __name__ == "__main__":
    main(sys.argv[1:])
