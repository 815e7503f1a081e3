"""The wait for a check's verdict in notebook 02, as the notebook calls it: ``check_toggle_flag(fn)``,
``check_chord(fn)`` and ``check_replay(fn)`` on a right answer (the engine's own rule: every example
tried, nothing to shrink) and on the stub's placeholder (a failure found, then shrunk by Hypothesis to the
smallest board the student is shown). The grader runs the same checks with more examples.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ipyminesweeper import chord, toggle_flag
from ipyminesweeper.exercises import check_chord, check_replay, check_toggle_flag
from ipyminesweeper.exercises.moves import replay

from .figures import record
from .timing import Timing, measure

ROUNDS = 5


CASES: tuple[tuple[str, Callable[..., Any], Callable[..., Any], Callable[..., Any]], ...] = (
    ("toggle_flag", check_toggle_flag, toggle_flag, lambda board, pos: board),
    ("chord", check_chord, chord, lambda board, pos: board),
    ("replay", check_replay, replay, lambda start, moves: (start,)),
)


def _timed(label: str, check: Callable[..., Any], fn: Callable[..., Any]) -> Timing:
    """Time ``check(fn)``: a function of its own, so each case's arguments are bound, not the loop's."""
    return measure(label, lambda: fn, check, ROUNDS)


def main(argv: list[str] | None = None) -> None:
    if argv == ["site"]:
        site()
        return
    if argv == ["mistakes"]:
        mistakes()
        return
    print(f"[checks] notebook 02's checks as students call them, {ROUNDS} rounds each")
    for name, check, right, placeholder in CASES:
        for kind, fn, passes in (("right", right, True), ("placeholder", placeholder, False)):
            if bool(check(fn)) is not passes:  # what is timed must be what a student meets
                raise SystemExit(f"check_{name} on the {kind} answer: not the expected verdict")
            timing = _timed(f"check_{name}, {kind} answer", check, fn)
            print(timing.line("ms"))
            record("checks", f"check_{name}, {kind} answer", timing.median * 1e3, "ms", better="lower")


if __name__ == "__main__":
    main()


def measure_checks(rounds: int) -> dict[str, Any]:
    """Seconds (the median of ``rounds``) of notebook 02's checks on a right, a stub and a typical wrong
    answer, in this interpreter. Self-contained: its source is a cell of the site's notebook."""
    import platform
    import statistics
    import sys
    import time

    from ipyminesweeper import chord, reveal, toggle_flag
    from ipyminesweeper.exercises import check_chord, check_replay, check_toggle_flag

    def never_unflags(board: Any, pos: Any) -> Any:
        return board if board.state(pos).name == "FLAGGED" else toggle_flag(board, pos)

    def ignores_flags(board: Any, pos: Any) -> Any:  # opens the covered cells around, whatever the flags
        if board.state(pos).name != "REVEALED":
            return board
        for cell in board.neighbours(pos):
            if not board.over and board.state(cell).name == "COVERED":
                board = reveal(board, cell)
        return board

    def goes_on(start: Any, moves: Any) -> Any:
        history = [start]
        for function, pos in moves:
            if function is reveal and history[-1].over:
                continue
            history.append(function(history[-1], pos) if not history[-1].over else history[-1])
        return tuple(history)

    cases: dict[str, tuple[Callable[..., Any], ...]] = {
        "toggle_flag": (check_toggle_flag, toggle_flag, lambda b, p: b, never_unflags),
        "chord": (check_chord, chord, lambda b, p: b, ignores_flags),
        "replay": (check_replay, replay_of(), lambda s, m: (s,), goes_on),
    }
    out: dict[str, Any] = {}
    for name, (check, right, stub, wrong) in cases.items():
        for kind, fn in (("right", right), ("stub", stub), ("wrong", wrong)):
            check(fn)  # warm-up: imports, first calls
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                verdict = bool(check(fn))
                times.append(time.perf_counter() - start)
            out[f"check_{name}|{kind}"] = [statistics.median(times), verdict]
    try:
        import pyodide  # type: ignore[import-not-found]

        runtime = f"Pyodide {pyodide.__version__}"
    except ImportError:
        runtime = platform.python_implementation()
    return {"runtime": f"{runtime} (Python {sys.version.split()[0]})", "rounds": rounds, "seconds": out}


def replay_of() -> Callable[..., Any]:
    """The reference ``replay`` (the right answer of 02's third exercise)."""
    from ipyminesweeper.exercises import replay

    return replay


SITE_ROUNDS = 3


def site(rounds: int = SITE_ROUNDS) -> None:
    """``python -m benchmarks checks site``: :func:`measure_checks` here and in the offline site."""
    import inspect
    import os
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for extra in (root / "scripts", root / "tests", root / "tests" / "lite"):
        sys.path.insert(0, str(extra))
    import build_lite
    import nbformat

    from .bench_lite import WORK, in_site

    folder = WORK / "checks-notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    source = "from typing import Any, Callable\n\n\n" + inspect.getsource(measure_checks)
    source += "\n\n" + inspect.getsource(replay_of)
    nb.cells = [
        nbformat.v4.new_code_cell(
            'import sys\nif sys.platform == "emscripten":\n    %pip install -q ipyminesweeper', id="install"
        ),
        nbformat.v4.new_code_cell(source, id="measure"),
    ]
    path = folder / "bench-checks.ipynb"
    text = nbformat.writes(nb)
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)
    built = build_lite.build(WORK / "checks-site", [path])
    here = measure_checks(rounds)
    there = in_site(built, path.name, f"measure_checks({rounds})", 1800)
    print(f"[checks site] {there['runtime']} in Chromium {there['chromium']} against {here['runtime']} here,")
    print(f"  median of {rounds} rounds; load average {os.getloadavg()[0]:.2f}")
    print("| check | answer | CPython | offline site | site / CPython |")
    print("|---|---|---:|---:|---:|")
    for key, (seconds, verdict) in here["seconds"].items():
        name, kind = key.split("|")
        there_s = there["seconds"][key][0]
        print(
            f"| `{name}` | {kind} ({'passes' if verdict else 'fails'}) | {seconds:.2f} s | {there_s:.2f} s "
            f"| {there_s / seconds:.1f}x |"
        )


def mistakes() -> None:
    """``python -m benchmarks checks mistakes``: every mistake of the project's check tests, and each
    check's right answer, timed with the smallest examples first and with Hypothesis alone (the search
    before issue 56), in turn, in this process; the examples are made once in both."""
    import os
    import statistics
    import sys
    import time
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1] / "tests" / "exercises"
    sys.path.insert(0, str(tests))
    from test_counterexample_sizes import CASES  # type: ignore[import-not-found]  # the mistakes

    from ipyminesweeper.exercises import search

    budget = search.SMALLEST_SECONDS
    modes = {"smallest first": budget, "Hypothesis only": 0.0}  # no time for the smallest examples
    rows: dict[str, dict[str, list[float]]] = {}
    for name, fn, check in CASES:
        check(fn)  # warm-up, and the examples made
        for _ in range(3):
            for mode, seconds in modes.items():
                search.SMALLEST_SECONDS = seconds
                start = time.perf_counter()
                check(fn)
                took = time.perf_counter() - start
                rows.setdefault(name.split(":")[0], {}).setdefault(mode, []).append(took)
    search.SMALLEST_SECONDS = budget
    print(f"[checks mistakes] {len(CASES)} mistakes, 3 rounds each, in turn; load {os.getloadavg()[0]:.2f}")
    print("| check | mistakes | Hypothesis only, mean | smallest first, mean | ratio |")
    print("|---|---:|---:|---:|---:|")
    for kind, times in rows.items():
        old, new = statistics.mean(times["Hypothesis only"]), statistics.mean(times["smallest first"])
        n = sum(1 for name, _, _ in CASES if name.startswith(kind + ":"))
        print(f"| `check_{kind}` | {n} | {old:.2f} s | {new:.2f} s | {new / old:.2f}x |")
