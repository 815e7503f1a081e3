"""The figures of a benchmark run, kept in a JSON file with the commit and the machine, and the guard that
compares a fresh run with the last committed one (``make bench-check``).

A suite calls :func:`record` for each figure it prints. ``python -m benchmarks`` then writes them to
``benchmarks/figures.json`` (``--out`` for another file), under the build that ran them (``pure`` or
``compiled``) and the suite, with the commit, the date, the machine, the load and the time of a
*reference loop*: a fixed piece of plain Python timed in the same process (the median of runs before and
after each suite). Each figure is also kept as a ratio to that loop, so that runs on a slower or a busier
machine compare: a run twice as slow everywhere has the same ratios.

``python -m benchmarks.figures check`` (``make bench-check``) runs the guarded suites again, into a
scratch file, and compares each guarded figure, as a ratio to the reference loop, with the same figure in
the file as last committed (``git show HEAD:benchmarks/figures.json``), for the same build. A figure more
than 25% worse is reported as a regression and the command exits 1. A regression must hold in every run:
when one run finds any, the suites run again (at most :data:`CONFIRM_RUNS` runs in all) and each figure
keeps its best run, so a moment of a shared machine's slowness (its speed moves by a third within
seconds) is not reported, and a real regression, worse every time, still is. It is a command for people
and for the docs, not a timed test in CI: on a shared machine, run it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = [
    "CONFIRM_RUNS",
    "FIGURES_FILE",
    "GUARDED_SUITES",
    "TOLERANCE",
    "best_of",
    "build",
    "compare",
    "machine",
    "record",
    "reference_seconds",
    "take",
    "write",
]

ROOT = Path(__file__).resolve().parents[1]
FIGURES_FILE = ROOT / "benchmarks" / "figures.json"
GUARDED_SUITES = ("engine", "solver")
"""The suites ``make bench-check`` runs: their guarded figures are the ones that matter."""
TOLERANCE = 0.25
"""A figure more than this much worse, as a ratio to the reference loop, is a regression."""
CONFIRM_RUNS = 3
"""At most this many runs of the suites, while one finds a regression: a figure's best run counts."""

_recorded: dict[str, dict[str, dict[str, Any]]] = {}


def record(suite: str, name: str, value: float, unit: str, *, better: str, guard: bool = False) -> None:
    """Keep one figure of ``suite``: ``better`` is ``"lower"`` (a time) or ``"higher"`` (a rate);
    ``guard`` marks the figures ``make bench-check`` compares."""
    if better not in ("lower", "higher"):
        raise ValueError(f"better is 'lower' or 'higher', not {better!r}")
    _recorded.setdefault(suite, {})[name] = {"value": value, "unit": unit, "better": better, "guard": guard}


def take() -> dict[str, dict[str, dict[str, Any]]]:
    """The figures recorded so far, by suite, and forget them."""
    out = dict(_recorded)
    _recorded.clear()
    return out


def reference_seconds(repeat: int = 7) -> list[float]:
    """``repeat`` times of :func:`_reference_loop`: how fast this machine runs plain Python right now."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        _reference_loop()
        times.append(time.perf_counter() - start)
    return times


def _reference_loop() -> int:
    """A fixed mix of what the engine and solver do (bytes, lists, dicts, sets, small ints), always
    interpreted: it lives in benchmarks/, which is never compiled. About 20 ms."""
    cells = bytearray(40_000)
    seen: dict[int, int] = {}
    found: set[int] = set()
    stack = [20_100]
    total = 0
    while stack:
        p = stack.pop()
        for q in (p - 201, p - 200, p - 199, p - 1, p + 1, p + 199, p + 200, p + 201):
            if 0 <= q < 40_000 and not cells[q]:
                cells[q] = 1
                seen[q] = p
                if q % 7:
                    stack.append(q)
                else:
                    found.add(q)
                total += q & 15
    return total + len(seen) + len(found)


def build() -> str:
    """``compiled`` when the imported ipyminesweeper has modules compiled by mypyc, else ``pure``."""
    from ipyminesweeper.arena.cli import compiled_modules

    return "compiled" if compiled_modules() else "pure"


def machine() -> dict[str, Any]:
    """What ran the figures: the commit, the date, the machine, Python, the build and the load."""
    changed = _git("status", "--porcelain", "src")  # the source differs from the commit's
    return {
        "commit": _git("rev-parse", "--short", "HEAD") + ("+changes" if changed else ""),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {_cpu_model()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "build": build(),
        "load": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
    }


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


def normalised(figure: dict[str, Any], reference: float) -> float:
    """The figure as a ratio to the reference loop: a time over the loop's time, a rate times it."""
    value = float(figure["value"])
    return value / reference if figure["better"] == "lower" else value * reference


def write(path: Path, figures: dict[str, dict[str, dict[str, Any]]], reference: float) -> None:
    """Put ``figures`` (by suite) into the file at ``path``, under this build, each suite with the run's
    commit, machine and reference loop; the file's other suites and builds are kept."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = {}
    info = machine()
    runs = data.setdefault(info["build"], {})
    for suite, named in figures.items():
        for figure in named.values():
            figure["per_reference"] = round(normalised(figure, reference), 6)
        runs[suite] = {**info, "reference_s": round(reference, 6), "figures": named}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def compare(old: dict[str, Any], new: dict[str, Any], tolerance: float = TOLERANCE) -> tuple[list[str], int]:
    """Lines comparing each guarded figure of ``new`` with ``old`` (files' contents), for the builds and
    suites both have, and how many are worse by more than ``tolerance``."""
    lines: list[str] = []
    worse = 0
    for build_name, suites in new.items():
        for suite, run in suites.items():
            before = old.get(build_name, {}).get(suite)
            if before is None:
                lines.append(f"{build_name} {suite}: no committed figures to compare with")
                continue
            lines.append(
                f"{build_name} {suite}: now {run['commit']} (load {run['load']}), "
                f"committed {before['commit']} of {before['date']} (load {before['load']})"
            )
            for name, figure in run["figures"].items():
                then = before["figures"].get(name)
                if not figure["guard"] or then is None:
                    continue
                ratio = _slowdown(
                    figure, figure.get("reference_s", run["reference_s"]), then, before["reference_s"]
                )
                bad = ratio > 1 + tolerance
                worse += bad
                lines.append(
                    f"  {name:<44} {figure['value']:10.3f} {figure['unit']:<10} "
                    f"was {then['value']:10.3f}   {ratio:5.2f}x the time{'   REGRESSION' if bad else ''}"
                )
    return lines, worse


def best_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs' files' contents as one: each figure from the run where it did best, as a ratio to
    that run's reference loop (the figure and that reference kept together, so :func:`compare` reads
    the best run's ratio)."""
    merged: dict[str, Any] = json.loads(json.dumps(runs[0]))
    for other in runs[1:]:
        for build_name, suites in other.items():
            for suite, run in suites.items():
                mine = merged.setdefault(build_name, {}).setdefault(suite, json.loads(json.dumps(run)))
                for name, figure in run["figures"].items():
                    kept = mine["figures"].get(name)
                    kept_reference = (
                        mine["reference_s"] if kept is None else kept.get("reference_s", mine["reference_s"])
                    )
                    if kept is None or _slowdown(figure, run["reference_s"], kept, kept_reference) < 1:
                        mine["figures"][name] = {**figure, "reference_s": run["reference_s"]}
    return merged


def _slowdown(now: dict[str, Any], now_ref: float, then: dict[str, Any], then_ref: float) -> float:
    """How many times slower ``now`` is than ``then``, each as a ratio to its own reference loop."""
    a, b = normalised(now, now_ref), normalised(then, then_ref)
    return a / b if now["better"] == "lower" else b / a


def check(suites: tuple[str, ...] = GUARDED_SUITES) -> int:
    """Run ``suites`` into a scratch file and compare with the committed figures: 1 on a regression."""
    committed = _git("show", f"HEAD:{FIGURES_FILE.relative_to(ROOT).as_posix()}")
    try:
        old = json.loads(committed)
    except ValueError:
        print(f"no committed {FIGURES_FILE.name} to compare with: run python -m benchmarks and commit it")
        return 1
    runs: list[dict[str, Any]] = []
    worse = 1
    while worse and len(runs) < CONFIRM_RUNS:
        with tempfile.TemporaryDirectory() as scratch:
            fresh = Path(scratch) / "figures.json"
            run(list(suites), fresh)
            runs.append(json.loads(fresh.read_text()))
        lines, worse = compare(old, best_of(runs))
        title = (
            f"bench-check: guarded figures as ratios to the reference loop, the best of {len(runs)} run(s)"
        )
        print("\n".join(["", title, *lines]))
        if worse and len(runs) < CONFIRM_RUNS:
            print(f"{worse} figure(s) more than {TOLERANCE:.0%} worse: running the suites again to confirm")
    print(f"{worse} regression(s) of more than {TOLERANCE:.0%}" if worse else "no regression")
    return 1 if worse else 0


def run(suites: list[str], out: Path) -> None:
    """Run ``suites`` (names of ``benchmarks.__main__.SUITES``), print them and write their figures."""
    from .__main__ import SUITES

    samples = reference_seconds()
    for name in suites:
        print()
        try:
            module = importlib.import_module(SUITES[name])
        except ModuleNotFoundError as error:
            print(f"[{name}] not available: {error}")
            continue
        module.main()
        samples += reference_seconds()
    # the median of samples taken before and after each suite, as the figures are medians over the run
    reference = statistics.median(samples)
    figures = take()
    if figures:
        write(out, figures, reference)
        print(f"\nfigures of {', '.join(figures)} ({build()} build) -> {out}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.figures")
    parser.add_argument("command", choices=["check"])
    parser.add_argument("suites", nargs="*", default=list(GUARDED_SUITES))
    args = parser.parse_args(argv)
    raise SystemExit(check(tuple(args.suites)))


if __name__ == "__main__":  # run as benchmarks.figures, the module the suites record into
    importlib.import_module("benchmarks.figures").main(sys.argv[1:])
