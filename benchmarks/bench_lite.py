"""Expert games per second of ``exact`` in the browser: Pyodide in the offline JupyterLite site, headless
Chromium, with CPython in this process as the reference on the same seeds (issue 29: at least 24 in Pyodide).

    .venv/bin/python -m benchmarks lite                  # or: python benchmarks/bench_lite.py
    IPYMS_BENCH_LITE_GAMES=30 (default)  IPYMS_BENCH_LITE_SEED=910000 (default)
    IPYMS_BENCH_LITE_VS=3ed1ed4 IPYMS_BENCH_LITE_ROUNDS=3 python -m benchmarks lite   # against a commit

The measurement is one function, :func:`measure`: ``benchmark(exact, "expert", games=N, seed=S, jobs=1)``,
the path users call (``exact(board.view)`` move by move, first click the conventional opening cell), after
two warm-up games. It runs here in CPython, and its source is a cell of a notebook, ``bench-lite.ipynb``,
on a site of its own (``build/bench-lite/site``, built by ``scripts/build_lite.py`` and reused while
nothing changed). The benchmark serves that site on 127.0.0.1 (``python -m http.server``), opens the
notebook in Debian's Chromium with every other host unresolvable, waits for the Pyodide kernel, runs the
notebook, types ``print("BENCH-LITE", json.dumps(measure(N, S)))`` into a new cell and reads the printed
figures back. Both runs play the same seeds, so they must win the same games (checked).

Games per second are wall-clock (``BenchResult.games_per_second``; one worker each): the machine is
shared, so the ratio of the two, taken minutes apart in the same run, is the steadier figure.

With ``IPYMS_BENCH_LITE_VS`` set to a commit, the benchmark answers "did the code get slower, or the
machine?": it unpacks that commit (``git archive``) under ``build/bench-lite``, builds a site from it as
well, and plays the same games with both, in turn, round after round: in Pyodide (each site in its own
browser) and in CPython (each tree in a child process). It prints each round and the medians, and the
ratio of this tree's figures to the commit's.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT / "scripts", ROOT / "tests", ROOT / "tests" / "lite"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

GAMES = int(os.environ.get("IPYMS_BENCH_LITE_GAMES", "30"))
SEED = int(os.environ.get("IPYMS_BENCH_LITE_SEED", "910000"))
VS = os.environ.get("IPYMS_BENCH_LITE_VS", "")  # a commit to measure against, in the same run
ROUNDS = int(os.environ.get("IPYMS_BENCH_LITE_ROUNDS", "3"))
TARGET = 24.0  # expert games per second of exact in Pyodide (issue 29; issue 9 asked for 15)
WORK = ROOT / "build" / "bench-lite"
NOTEBOOK = "bench-lite.ipynb"
THIS_TREE = "this tree"  # the label of the working tree's rows, beside the commit's


def measure(games: int, seed: int) -> dict[str, Any]:
    """Expert games of ``exact`` through ``benchmark``, in this interpreter (CPython here, Pyodide there)."""
    import platform
    import sys

    from ipyminesweeper import exact
    from ipyminesweeper.arena import benchmark

    benchmark(exact, "expert", games=2, seed=seed - 2, jobs=1)  # warm-up: imports, first calls
    r = benchmark(exact, "expert", games=games, seed=seed, jobs=1)
    try:
        import pyodide  # type: ignore[import-not-found]

        runtime = f"Pyodide {pyodide.__version__}"
    except ImportError:
        runtime = platform.python_implementation()
    return {
        "runtime": f"{runtime} (Python {sys.version.split()[0]}, {sys.platform})",
        "games": r.games,
        "wins": r.wins,
        "outcomes": r.outcomes.hex(),
        "seconds": r.seconds,
        "games_per_second": r.games_per_second,
        "games_per_cpu_second": r.games_per_cpu_second,  # time.process_time(): in Pyodide, the wall clock
        "mean_moves": r.mean_moves,
        "first_move": r.first_move,
    }


def measure_source() -> str:
    """:func:`measure` as code to run elsewhere (the notebook's cell, a child CPython), with its imports."""
    return "import json\nfrom typing import Any\n\n\n" + inspect.getsource(measure)


def write_notebook(folder: Path) -> Path:
    """The site's one notebook: install the project, then define :func:`measure` (its source, verbatim)."""
    import nbformat

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# `exact` in Pyodide\n\nWritten by `benchmarks/bench_lite.py`."),
        nbformat.v4.new_code_cell(
            'import sys\nif sys.platform == "emscripten":\n    %pip install -q ipyminesweeper', id="install"
        ),
        nbformat.v4.new_code_cell(measure_source(), id="measure"),
    ]
    path = folder / NOTEBOOK
    text = nbformat.writes(nb)
    if not path.is_file() or path.read_text() != text:  # unchanged: the built site stays up to date
        path.write_text(text)
    return path


def in_browser(site: Path, games: int, seed: int) -> dict[str, Any]:
    """Run ``measure(games, seed)`` in the site's Pyodide kernel in headless Chromium, offline."""
    return in_site(site, NOTEBOOK, f"measure({games}, {seed})", max(600, 20 * games))


def in_site(
    site: Path,
    notebook: str,
    call: str,
    timeout_s: float,
    extra: Callable[[Any], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Open ``notebook`` of ``site`` in headless Chromium, offline, run all its cells, then print
    ``json.dumps(<call>)`` from a new cell and read it back, with the kernel's start and the browser.
    ``extra(page)``, if given, runs after the cells, and what it gives is added to the result."""
    from _lite_support import local_only, serve
    from playwright.sync_api import sync_playwright
    from test_lite_site import run_all, wait_for_kernel

    from chromium import BASE_ARGS, OFFLINE_ARGS, chromium_path

    path = chromium_path()
    if path is None:
        raise SystemExit("no Chromium at /usr/bin/chromium: run `make browser`")
    outside: list[str] = []
    with serve(site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=[*BASE_ARGS, *OFFLINE_ARGS])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.on("request", lambda r: None if local_only(r.url) else outside.append(r.url))
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{url}lab/index.html?path={notebook}")
            page.wait_for_selector("#jp-main-statusbar")
            kernel_s = wait_for_kernel(page)
            run_all(page)
            added = extra(page) if extra is not None else {}
            page.locator(".jp-Notebook .jp-Cell").last.click()
            page.keyboard.press("Escape")
            page.keyboard.press("b")
            page.keyboard.press("Enter")
            page.keyboard.type(f'import json; print("BENCH-LITE", json.dumps({call}))')
            page.keyboard.press("Shift+Enter")
            done = page.wait_for_function(
                """() => {
                  const outs = [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output')];
                  const hit = outs.find(o => /BENCH-LITE|Traceback|Error/.test(o.innerText));
                  return hit ? hit.innerText : false;
                }""",
                timeout=timeout_s * 1000,
                polling=1000,
            ).json_value()
            version = browser.version
        finally:
            browser.close()
    match = re.search(r"BENCH-LITE (\{.*\})", str(done))
    if match is None:
        raise SystemExit(f"the notebook did not print the figures:\n{done}")
    result: dict[str, Any] = json.loads(match.group(1))
    result.update(kernel_seconds=kernel_s, chromium=version, outside=outside, **added)
    return result


def run(games: int = GAMES, seed: int = SEED) -> dict[str, Any]:
    import build_lite

    started = time.monotonic()
    notebook = write_notebook(WORK / "notebooks")
    site = build_lite.build(WORK / "site", [notebook])
    build_s = time.monotonic() - started
    cpython = measure(games, seed)
    pyodide = in_browser(site, games, seed)
    return {"games": games, "seed": seed, "build_seconds": build_s, "cpython": cpython, "pyodide": pyodide}


def machine_line() -> str:
    """The machine the figures came from, and how busy it was as they were taken."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average {load}"


def report(r: dict[str, Any]) -> str:
    py, cp = r["pyodide"], r["cpython"]
    lines = [
        f"[lite] exact on expert (16x30, 99 mines), first click {cp['first_move']}, {r['games']} games, "
        f"seeds {r['seed']}..{r['seed'] + r['games'] - 1}, one worker each; site ready in "
        f"{r['build_seconds']:.1f} s, Pyodide kernel idle after {py['kernel_seconds']:.1f} s",
        "",
        "| where | games | won | seconds | games/s | games per CPU-second | moves/game |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, x in ((f"{py['runtime']} in Chromium {py['chromium']}", py), (f"{cp['runtime']} here", cp)):
        lines.append(
            f"| {label} | {x['games']} | {x['wins']} | {x['seconds']:.1f} | {x['games_per_second']:.2f} "
            f"| {x['games_per_cpu_second']:.2f} | {x['mean_moves']:.1f} |"
        )
    ratio = py["games_per_second"] / cp["games_per_second"]
    verdict = "reached" if py["games_per_second"] >= TARGET else "NOT reached"
    lines += [
        "",
        f"Pyodide / CPython: {ratio:.2f}x. Target (issue 29): at least {TARGET:.0f} expert games/s "
        f"in Pyodide: {verdict} ({py['games_per_second']:.2f}).",
        "Same games in both: "
        + ("yes" if py["outcomes"] == cp["outcomes"] else "NO: the two runs won different games"),
        "Requests that left 127.0.0.1: " + (", ".join(py["outside"]) if py["outside"] else "none"),
        machine_line(),
    ]
    return "\n".join(lines)


def reference_tree(rev: str) -> Path:
    """The project at commit ``rev``, unpacked under ``build/bench-lite`` (kept for the next run)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    if not sha:
        raise SystemExit(f"IPYMS_BENCH_LITE_VS={rev!r} names no commit of this repository")
    tree = WORK / f"at-{sha[:12]}"
    if not (tree / "pyproject.toml").is_file():
        archive = subprocess.run(
            ["git", "archive", "--format=tar", sha], cwd=ROOT, capture_output=True, check=True
        )
        partial = tree.with_name(tree.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)  # left by a run that stopped half-way
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(partial, filter="data")
        partial.rename(tree)
    return tree


def measure_in_child(src: Path, games: int, seed: int) -> dict[str, Any]:
    """:func:`measure` in a child CPython that imports the project from ``src`` (the notebook's source)."""
    code = measure_source() + f"\nprint(json.dumps(measure({games}, {seed})))\n"
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def versus(rev: str, games: int = GAMES, seed: int = SEED, rounds: int = ROUNDS) -> dict[str, Any]:
    """This tree against commit ``rev``: the same games in Pyodide and CPython, in turn, ``rounds`` times."""
    import build_lite

    old = reference_tree(rev)
    notebook = write_notebook(WORK / "notebooks")
    trees = {THIS_TREE: (build_lite.build(WORK / "site", [notebook]), ROOT / "src")}
    trees[rev] = (build_lite.build(WORK / f"site-{old.name}", [notebook], project=old), old / "src")
    rows: list[dict[str, Any]] = []
    for n in range(rounds):
        for label, (site, src) in trees.items():
            py, cp = in_browser(site, games, seed), measure_in_child(src, games, seed)
            rows.append({"round": n + 1, "code": label, "pyodide": py, "cpython": cp})
    return {"games": games, "seed": seed, "vs": rev, "rounds": rows}


def medians(rows: list[dict[str, Any]], code: str) -> tuple[float, float]:
    """Median games per second of ``code``'s rounds: in Pyodide, in CPython."""
    mine = [row for row in rows if row["code"] == code]
    return (
        statistics.median(row["pyodide"]["games_per_second"] for row in mine),
        statistics.median(row["cpython"]["games_per_second"] for row in mine),
    )


def same_games(rows: list[dict[str, Any]]) -> str:
    """Whether the runs won the same games: every run, each code's runs only, or not even those."""
    won = {
        code: {row[w]["outcomes"] for row in rows if row["code"] == code for w in ("pyodide", "cpython")}
        for code in dict.fromkeys(row["code"] for row in rows)
    }
    if any(len(games) > 1 for games in won.values()):
        return "NOT the same games within one code's runs: a run went wrong"
    if len({games for each in won.values() for games in each}) > 1:
        return "each code won the same games in every run, the two codes different ones (not the same moves)"
    return f"every run won the same {rows[0]['cpython']['wins']} games"


def report_versus(r: dict[str, Any]) -> str:
    rows, vs = r["rounds"], r["vs"]
    first = rows[0]
    lines = [
        f"[lite] exact on expert, {r['games']} games, seeds {r['seed']}..{r['seed'] + r['games'] - 1}, "
        f"{THIS_TREE} and commit {vs} in turn, {first['pyodide']['runtime']} in Chromium "
        f"{first['pyodide']['chromium']} and {first['cpython']['runtime']}; {same_games(rows)}",
        "",
        "| round | code | Pyodide games/s | CPython games/s | Pyodide / CPython |",
        "|---:|---|---:|---:|---:|",
    ]
    for row in rows:
        py, cp = row["pyodide"]["games_per_second"], row["cpython"]["games_per_second"]
        lines.append(f"| {row['round']} | {row['code']} | {py:.2f} | {cp:.2f} | {py / cp:.2f}x |")
    (py_new, cp_new), (py_old, cp_old) = medians(rows, THIS_TREE), medians(rows, vs)
    lines += [
        "",
        f"Medians: {THIS_TREE} {py_new:.2f} in Pyodide, {cp_new:.2f} in CPython; {vs} {py_old:.2f} and "
        f"{cp_old:.2f}. {THIS_TREE.capitalize()} / {vs}: {py_new / py_old:.2f}x in Pyodide, "
        f"{cp_new / cp_old:.2f}x in CPython.",
        machine_line(),
    ]
    return "\n".join(lines)


def main() -> None:
    print(report_versus(versus(VS)) if VS else report(run()))


if __name__ == "__main__":
    main()
