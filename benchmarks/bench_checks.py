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


def main() -> None:
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
