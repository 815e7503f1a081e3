"""Notebook 04's exercise: mine probabilities by brute force, on views small enough to try every layout.

``check_probabilities(fn)`` compares ``fn(view)`` with :func:`~ipyminesweeper.probabilities` on views of
boards in play with at most 12 covered or flagged cells. Both give a probability for every covered and
every flagged cell (flags are the player's guesses, not facts), as a dict ``{(row, col): p}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import partial
from numbers import Real

from ..engine import Position, View
from ..solver import probabilities
from .foreign import type_name
from .generate import draw_view
from .limits import call
from .needs import recorded
from .report import Check, Counterexample, count, note_panel, numbers_panel, view_panel, where
from .search import SEED, Verdict, function_name, require_function, run_check

__all__ = ["MAX_UNKNOWN", "PROBABILITIES", "check_probabilities"]

PROBABILITIES = (
    "a probability for every covered and flagged cell, and for nothing else",
    "the cells the numbers decide get 0 or 1",
    "every other cell gets its probability",
)
"""The properties of ``check_probabilities``: the keys, the certain cells, the rest."""

MAX_UNKNOWN = 12
"""The most covered or flagged cells of a view the check tries: C(12, 6) = 924 layouts at most."""


@recorded
def check_probabilities(
    fn: Callable[[View], Mapping[Position, float]], tries: int = 200, *, seed: int = SEED
) -> Check:
    """Compare ``fn(view)`` with :func:`~ipyminesweeper.probabilities` (to 1e-9) on small views."""
    require_function(fn, "check_probabilities", "(view) -> {(row, col): probability}")
    name = function_name(fn)

    def judge(view: View) -> Verdict:
        expected = probabilities(view)
        decided = any(p in (0, 1) for p in expected.values())
        labels = ("the numbers decide some cells",) if decided else ()
        tests = PROBABILITIES if decided else (PROBABILITIES[0], PROBABILITIES[2])
        got = call(fn, view)
        text = f"{name}(view)"
        start = view_panel("view", view)
        right = numbers_panel("expected", view, expected)
        if got.raised:
            summary = f"it {got.failure}"
            yours = note_panel("yours", summary)
            return Verdict(
                Counterexample(text, summary, (start, yours, right), (view,), got.error, expected, got.trace),
                labels,
                tests,
            )
        value = got.value
        if not isinstance(value, Mapping):
            summary = f"it returned {type_name(value)}, not a dict {{(row, col): probability}}"
            yours = note_panel("yours", f"{value!r:.200}")
            found = Counterexample(text, summary, (start, yours, right), (view,), value, expected)
            return Verdict(found, labels, tests)
        problems = _differences(value, expected)
        if not problems:
            return Verdict(None, labels, tests)
        marked = frozenset(pos for pos, _, _ in problems if isinstance(pos, tuple) and pos in expected)
        numbers = {pos: p for pos, p in value.items() if isinstance(pos, tuple)}
        verb = "differs" if len(problems) == 1 else "differ"
        summary = f"{count(len(problems), 'cell')} {verb}: " + "; ".join(why for _, why, _ in problems[:3])
        panels = (
            start,
            numbers_panel("yours", view, numbers, marked),
            numbers_panel("expected", view, expected, marked),
        )
        found = Counterexample(text, summary, panels, (view,), dict(value), expected)
        return Verdict(found, labels, tests, PROBABILITIES[min(kind for _, _, kind in problems)])

    build = partial(draw_view, max_rows=4, max_cols=5, max_unknown=MAX_UNKNOWN)
    return run_check("probabilities", fn, build, judge, tries, properties=PROBABILITIES, seed=seed)


def _differences(
    got: Mapping[object, object], expected: Mapping[Position, float]
) -> list[tuple[object, str, int]]:
    """(cell, what is wrong there, the index of the property it breaks in :data:`PROBABILITIES`) for
    every cell where ``got`` and ``expected`` disagree."""
    out: list[tuple[object, str, int]] = []
    for pos, p in expected.items():
        if pos not in got:
            out.append((pos, f"yours has no probability for {where(pos)} (expected {p:.3g})", 0))
            continue
        mine: object = got[pos]
        if isinstance(mine, bool) or not isinstance(mine, Real):
            out.append((pos, f"{where(pos)} is {mine!r:.30}, not a number", 0))
        elif not math.isclose(float(mine), p, rel_tol=1e-9, abs_tol=1e-9):
            why = f"{where(pos)} is {float(mine):.4g} in yours, {p:.4g} expected"
            out.append((pos, why, 1 if p in (0, 1) else 2))
    for key in got:
        if key not in expected:
            out.append((key, f"yours gives {key!r:.20}, which is not a covered or flagged cell", 0))
    return out
