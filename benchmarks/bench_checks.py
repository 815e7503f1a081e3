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
    if argv and argv[0] == "site":
        from .bench_checks_site import main as site

        site(argv[1:])
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
