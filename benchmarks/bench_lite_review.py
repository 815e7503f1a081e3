"""The review of an expert game in the offline site (Pyodide, headless Chromium) and in CPython, in the same
run (issue 58: "the figure in Pyodide is measured and stated").

    .venv/bin/python -m benchmarks lite-review
    IPYMS_BENCH_REVIEW_RUNS=7 (default)

The measurement is one function, :func:`measure`: ``review(game)`` of the same games, cold (the solver's
caches cleared before each review, as a player's first review is), the median and spread of ``RUNS`` runs:

- a human's expert game: the sweeping-view EVF of tests/replays/files (334 clicks), read here through
  ms_toollib and written as RAWVF, whose text the notebook holds (Pyodide has no ms_toollib; RAWVF is read
  in pure Python everywhere);
- ``exact``'s own expert games, seeds 1-7, played first (not timed).

It runs here in CPython, and its source is a cell of a notebook on a site of its own
(``build/bench-lite-review/site``, built by ``scripts/build_lite.py``): the benchmark serves it on
127.0.0.1, opens it in Debian's Chromium with every other host unresolvable, runs it and reads the
figures back (``bench_lite.in_site``).
"""

from __future__ import annotations

import inspect
import os
import time
from pathlib import Path
from typing import Any

from .bench_lite import ROOT, in_site, machine_line
from .figures import record

RUNS = int(os.environ.get("IPYMS_BENCH_REVIEW_RUNS", "7"))
EVF = ROOT / "tests" / "replays" / "files" / "test_subject.evf"
WORK = ROOT / "build" / "bench-lite-review"
NOTEBOOK = "bench-lite-review.ipynb"
SEEDS = range(1, 8)


def measure(rawvf: str, runs: int) -> dict[str, Any]:
    """``review`` of the human's game (``rawvf``, RAWVF text) and of exact's expert games, seeds 1-7, cold,
    ``runs`` times each: the medians and quartiles in milliseconds, in this interpreter."""
    import platform
    import statistics
    import sys
    import time

    from ipyminesweeper import new_board, play, review
    from ipyminesweeper.engine.rawvf import read_rawvf
    from ipyminesweeper.solver.probabilities import clear_caches

    def timed(games: list[Any]) -> dict[str, float]:
        samples = []
        for k in range(runs):
            game = games[k % len(games)]
            clear_caches()
            start = time.perf_counter()
            review(game)
            samples.append((time.perf_counter() - start) * 1000)
        q = statistics.quantiles(samples, n=4) if len(samples) > 1 else [samples[0]] * 3
        return {"median": statistics.median(samples), "q1": q[0], "q3": q[2], "n": len(samples)}

    human = read_rawvf(rawvf)
    exacts = [play(new_board("expert", seed=s), "exact") for s in range(1, 8)]
    review(exacts[0])  # warm-up: imports, first calls
    try:
        import pyodide  # type: ignore[import-not-found]

        runtime = f"Pyodide {pyodide.__version__}"
    except ImportError:
        runtime = platform.python_implementation()
    return {
        "runtime": f"{runtime} (Python {sys.version.split()[0]}, {sys.platform})",
        "human_clicks": len(human.clicks),
        "exact_moves": sorted(len(moves) for _, moves in exacts),
        "human": timed([human]),
        "exact": timed(exacts),
    }


def rawvf_of_evf() -> str:
    """The human's expert game as RAWVF text (read through ms_toollib here)."""
    from ipyminesweeper import load_replay
    from ipyminesweeper.engine.rawvf import write_rawvf

    return write_rawvf(load_replay(EVF))


def write_notebook(folder: Path, rawvf: str) -> Path:
    """The site's one notebook: install the project, hold the game's RAWVF, define :func:`measure`."""
    import nbformat

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    source = "import json\nfrom typing import Any\n\n\n" + inspect.getsource(measure)
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# The review in Pyodide\n\nWritten by benchmarks/bench_lite_review.py."
        ),
        nbformat.v4.new_code_cell(
            'import sys\nif sys.platform == "emscripten":\n    %pip install -q ipyminesweeper', id="install"
        ),
        nbformat.v4.new_code_cell(f"RAWVF = {rawvf!r}", id="game"),
        nbformat.v4.new_code_cell(source, id="measure"),
    ]
    path = folder / NOTEBOOK
    text = nbformat.writes(nb)
    if not path.is_file() or path.read_text() != text:  # unchanged: the built site stays up to date
        path.write_text(text)
    return path


def run(runs: int = RUNS) -> dict[str, Any]:
    import build_lite

    started = time.monotonic()
    rawvf = rawvf_of_evf()
    site = build_lite.build(WORK / "site", [write_notebook(WORK / "notebooks", rawvf)])
    build_s = time.monotonic() - started
    cpython = measure(rawvf, runs)
    pyodide = in_site(site, NOTEBOOK, f"measure(RAWVF, {runs})", 900)
    return {"runs": runs, "build_seconds": build_s, "cpython": cpython, "pyodide": pyodide}


def report(r: dict[str, Any]) -> str:
    py, cp = r["pyodide"], r["cpython"]
    moves = cp["exact_moves"]
    lines = [
        f"[lite-review] review(game) of an expert game, cold, {r['runs']} runs each; site ready in "
        f"{r['build_seconds']:.1f} s, Pyodide kernel idle after {py['kernel_seconds']:.1f} s",
        "",
        "| game reviewed | where | median | spread |",
        "|---|---|---:|---|",
    ]
    games = (
        ("human", f"a human's expert game (the EVF as RAWVF, {cp['human_clicks']} clicks)"),
        ("exact", f"`exact`'s expert games, seeds 1-7 ({moves[0]}-{moves[-1]} moves)"),
    )
    for key, label in games:
        for where, x in ((f"{py['runtime']} in Chromium {py['chromium']}", py), (f"{cp['runtime']}", cp)):
            t = x[key]
            spread = f"IQR {t['q1']:.0f} - {t['q3']:.0f} ms, n={t['n']}"
            lines.append(f"| {label} | {where} | {t['median']:.0f} ms | {spread} |")
        record("lite-review", f"{key}: Pyodide", py[key]["median"], "ms", better="lower")
        record("lite-review", f"{key}: CPython", cp[key]["median"], "ms", better="lower")
    ratio = py["human"]["median"] / cp["human"]["median"]
    lines += [
        "",
        f"Pyodide / CPython on the human's game: {ratio:.2f}x the time.",
        "Requests that left 127.0.0.1: " + (", ".join(py["outside"]) if py["outside"] else "none"),
        machine_line(),
    ]
    return "\n".join(lines)


def main() -> None:
    print(report(run()))


if __name__ == "__main__":
    main()
