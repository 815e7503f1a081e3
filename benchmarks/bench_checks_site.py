"""``python -m benchmarks checks site``: every check of the course's 90-minute path, as students wait
for it, in the offline site (Pyodide in headless Chromium, offline) and in CPython, in the same run;
and a click on the widget in the site beside a plain ipywidgets Button in the same site (the floor).

The checks and their answers are :mod:`benchmarks.check_cases` (02's three, 03's ``check_strategy``, 05's
``check_property``, 06's ``check_update``; each on the notebook's stub, typical wrong answers and the
folded solution). Its text is a cell of the site's notebook, so both runtimes run the same code. Each
answer is checked ``rounds + 1`` times: the first run (in a fresh kernel the first run of a check makes
its examples, as a student's first does) and the median of the others (a student's next tries). The
site's figures also give its start: from the address to an idle kernel, and to the first board.

The table goes to docs/benchmarks.md, between the two marker lines of its section "Every check of the
90-minute path, in the site" (``--print`` only prints it), with the command, the commit and the date.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- checks site: start -->", "<!-- checks site: end -->"
ROUNDS = 5
CLICKS = 20
WARMUP = 3
TIMEOUT_MS = 60_000

WIDGET_CELL = """\
import json
import ipywidgets as W
from ipyminesweeper import Minesweeper

w = Minesweeper(rows=16, cols=16, mines=40, seed=11)
w.reveal(3, 3)
ping = W.Button(description="ping")
pong = W.HTML("0", layout=W.Layout(width="60px"))
ping.on_click(lambda _: setattr(pong, "value", str(int(pong.value) + 1)))
display(w, W.HBox([ping, pong]))
board = w.board
covered = [p for p in board.positions() if board.state(p).name == "COVERED"]
safe = [(r, c) for r, c in covered if not board.is_mine((r, c))]
numbers = [(r, c, str(board.count((r, c)))) for r, c in safe if board.count((r, c))]
mines = [(r, c, "f") for r, c in covered if board.is_mine((r, c))]
print("CLICKS", json.dumps({"reveal": numbers[:CLICKS_N], "flag": mines[:CLICKS_N]}))
""".replace("CLICKS_N", str(CLICKS + WARMUP))


def notebook(folder: Path) -> Path:
    """The site's notebook: install the project, the widget and the Button (cells to click), the cases
    (check_cases.py, verbatim)."""
    import nbformat

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cases = (Path(__file__).with_name("check_cases.py")).read_text(encoding="utf-8")
    nb.cells = [
        nbformat.v4.new_code_cell(
            'import sys\nif sys.platform == "emscripten":\n    %pip install -q ipyminesweeper', id="install"
        ),
        nbformat.v4.new_code_cell(WIDGET_CELL, id="widget"),
        nbformat.v4.new_code_cell(cases, id="cases"),  # last: in_site clicks it to add its own cell
    ]
    path = folder / "bench-checks.ipynb"
    text = nbformat.writes(nb)
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)
    return path


def clicks(page: Any) -> dict[str, Any]:
    """Click to repaint in the site: reveals and flags on the widget, and the Button (the floor), each
    from the input event to the first frame after the page shows the change (bench_browser's scripts)."""
    from .bench_browser import ARM_TEXT, click

    page.evaluate("() => { window.__ipymsWs = {}; }")  # no WebSocket here: nothing to count
    text = page.locator(".jp-OutputArea-output", has_text="CLICKS").last.inner_text()
    chosen = json.loads(text.split("CLICKS", 1)[1].strip().splitlines()[0])
    out: dict[str, list[float]] = {"reveal": [], "flag": [], "button": []}
    for kind, button in (("reveal", "left"), ("flag", "right")):
        for r, c, state in chosen[kind]:
            out[kind].append(float(click(page, (r, c, state), button)["ms"]))
        print(f"[checks site] {len(out[kind])} clicks: {kind}", file=sys.stderr, flush=True)
    html = ".jp-OutputArea-output .widget-html-content"
    for i in range(CLICKS + WARMUP):
        page.evaluate(ARM_TEXT, [html, str(i + 1)])
        page.locator(".jp-OutputArea-output button.jupyter-button").click()
        out["button"].append(float(page.evaluate("() => window.__ipymsResult")["ms"]))
    print("[checks site] the Button clicked; now the checks", file=sys.stderr, flush=True)
    return {"clicks": {kind: ms[WARMUP:] for kind, ms in out.items()}, "first_click_ms": out["reveal"][0]}


def run(rounds: int = ROUNDS) -> dict[str, Any]:
    """The checks here and in the site, and the clicks there."""
    import importlib

    from .bench_lite import WORK, in_site  # first: it puts scripts/ and tests/lite/ on sys.path
    from .check_cases import measure

    build_lite = importlib.import_module("build_lite")

    built = build_lite.build(WORK / "checks-site", [notebook(WORK / "checks-notebooks")])
    load = [os.getloadavg()[0]]
    here = measure(rounds)
    print("[checks site] CPython done; now the site", file=sys.stderr, flush=True)
    load.append(os.getloadavg()[0])
    started = time.monotonic()
    there = in_site(built, "bench-checks.ipynb", f"measure({rounds})", 3600, extra=clicks)
    load.append(os.getloadavg()[0])
    there["site_seconds"] = time.monotonic() - started
    return {"rounds": rounds, "cpython": here, "site": there, "load": load}


def _commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    sha = git("rev-parse", "--short", "HEAD")
    dirty = git("status", "--porcelain", "--", "src", "benchmarks")
    return f"`{sha}`" + (" with uncommitted changes to src/ or benchmarks/" if dirty else "")


def table(r: dict[str, Any]) -> str:
    """The figures as docs/benchmarks.md shows them."""
    cp, py = r["cpython"], r["site"]
    load = ", ".join(f"{x:.1f}" for x in r["load"])
    lines = [
        f"> **Command** `python -m benchmarks checks site` · **commit** {_commit()} · **date** "
        f"{datetime.date.today().isoformat()} · load average {load} (before, between, after)",
        "",
        f"{py['runtime']} in Chromium {py['chromium']}, beside {cp['runtime']} in the same run; first run, "
        f"then the median of {r['rounds']} more. Start of the site: kernel idle "
        f"{py['kernel_seconds']:.1f} s after the page opened. The interpreter itself, the floor of every "
        f"ratio: the engine's cascade (`reveal` on a 200x200 board with 2,000 mines, median of "
        f"{2 * r['rounds'] + 1}) takes {cp['cascade'] * 1e3:.1f} ms in CPython and "
        f"{py['cascade'] * 1e3:.1f} ms in the site, {py['cascade'] / cp['cascade']:.1f}x.",
        "",
        "| check | answer | CPython, first / again | site, first / again | site / CPython (again) | "
        "again / right answer (CPython, site) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for key, mine in cp["seconds"].items():
        name, kind = key.split("|")
        site = py["seconds"][key]
        right_cp, right_py = cp["seconds"][f"{name}|right"]["again"], py["seconds"][f"{name}|right"]["again"]
        verdict = "passes" if mine["passes"] else "fails"
        lines.append(
            f"| `{name}` | {kind} ({verdict}) | {mine['first']:.2f} / {mine['again']:.2f} s | "
            f"{site['first']:.2f} / {site['again']:.2f} s | {site['again'] / mine['again']:.1f}x | "
            f"{mine['again'] / right_cp:.1f}x, {site['again'] / right_py:.1f}x |"
        )
    c = py["clicks"]
    lines += [
        "",
        f"Clicks in the site ({CLICKS} each after {WARMUP} unrecorded; mean, median): reveal "
        f"{statistics.mean(c['reveal']):.0f} ms, {statistics.median(c['reveal']):.0f} ms; flag "
        f"{statistics.mean(c['flag']):.0f} ms, {statistics.median(c['flag']):.0f} ms; the plain ipywidgets "
        f"Button (the floor) {statistics.mean(c['button']):.0f} ms, {statistics.median(c['button']):.0f} ms; "
        f"the first reveal {py['first_click_ms']:.0f} ms. Requests that left 127.0.0.1: "
        + (", ".join(py["outside"]) if py["outside"] else "none")
        + ".",
    ]
    return "\n".join(lines)


def write(text: str, doc: Path = DOC) -> None:
    """``text`` between the markers of docs/benchmarks.md, in place of what was there."""
    page = doc.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(page):
        raise SystemExit(f"{doc} has no {START} ... {END} block")
    doc.write_text(pattern.sub(lambda _: f"{START}\n{text}\n{END}", page), encoding="utf-8")


def main(argv: list[str]) -> None:
    result = run()
    (ROOT / "build" / "bench-lite" / "checks-site.json").write_text(json.dumps(result, indent=1))
    text = table(result)
    print(text)
    if "--print" not in argv:
        write(text)
        print(f"[checks site] written to {DOC.relative_to(ROOT)}", file=sys.stderr)
