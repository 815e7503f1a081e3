"""Notebook 04's exercise: mine probabilities by brute force, on views small enough to try every layout.

``check_probabilities(fn)`` compares ``fn(view)`` with :func:`~ipyminesweeper.probabilities` on views of
boards in play with at most 12 covered or flagged cells. Both give a probability for every covered and
every flagged cell (flags are the player's guesses, not facts), as a dict ``{(row, col): p}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from numbers import Real

from ..engine import Position, View
from ..solver import probabilities
from .generate import views
from .report import Check, Counterexample, note_panel, numbers_panel, view_panel, where
from .search import Verdict, call, function_name, require_function, run_check

__all__ = ["MAX_UNKNOWN", "check_probabilities"]

MAX_UNKNOWN = 12
"""The most covered or flagged cells of a view the check tries: C(12, 6) = 924 layouts at most."""


def check_probabilities(fn: Callable[[View], Mapping[Position, float]], tries: int = 200) -> Check:
    """Compare ``fn(view)`` with :func:`~ipyminesweeper.probabilities` (to 1e-9) on small views."""
    require_function(fn, "check_probabilities", "(view) -> {(row, col): probability}")
    name = function_name(fn)

    def judge(view: View) -> Verdict:
        expected = probabilities(view)
        labels = ("the numbers decide some cells",) if any(p in (0, 1) for p in expected.values()) else ()
        got = call(fn, view)
        text = f"{name}(view)"
        start = view_panel("view", view)
        right = numbers_panel("expected", view, expected)
        if got.raised:
            summary = f"it raised {got.describe_error()}"
            yours = note_panel("yours", summary)
            return Verdict(
                Counterexample(
                    text, summary, (start, yours, right), (view,), got.error, expected, got.traceback
                )
            )
        value = got.value
        if not isinstance(value, Mapping):
            summary = f"it returned {type(value).__name__}, not a dict {{(row, col): probability}}"
            yours = note_panel("yours", f"{value!r:.200}")
            return Verdict(Counterexample(text, summary, (start, yours, right), (view,), value, expected))
        problems = _differences(value, expected)
        if not problems:
            return Verdict(None, labels)
        marked = frozenset(pos for pos, _ in problems if isinstance(pos, tuple) and pos in expected)
        numbers = {pos: p for pos, p in value.items() if isinstance(pos, tuple)}
        summary = f"{len(problems)} cell{'s' if len(problems) > 1 else ''} differ: " + "; ".join(
            why for _, why in problems[:3]
        )
        panels = (
            start,
            numbers_panel("yours", view, numbers, marked),
            numbers_panel("expected", view, expected, marked),
        )
        return Verdict(Counterexample(text, summary, panels, (view,), dict(value), expected))

    return run_check(
        "probabilities", fn, views(max_rows=4, max_cols=5, max_unknown=MAX_UNKNOWN), judge, tries
    )


def _differences(
    got: Mapping[object, object], expected: Mapping[Position, float]
) -> list[tuple[object, str]]:
    """(cell, what is wrong there) for every cell where ``got`` and ``expected`` disagree."""
    out: list[tuple[object, str]] = []
    for pos, p in expected.items():
        if pos not in got:
            out.append((pos, f"yours has no probability for {where(pos)} (expected {p:.3g})"))
            continue
        mine: object = got[pos]
        if isinstance(mine, bool) or not isinstance(mine, Real):
            out.append((pos, f"{where(pos)} is {mine!r:.30}, not a number"))
        elif not math.isclose(float(mine), p, rel_tol=1e-9, abs_tol=1e-9):
            out.append((pos, f"{where(pos)} is {float(mine):.4g} in yours, {p:.4g} expected"))
    for key in got:
        if key not in expected:
            out.append((key, f"yours gives {key!r:.20}, which is not a covered or flagged cell"))
    return out
