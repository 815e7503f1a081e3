"""What an otter-grader test file of the course calls: the exercise's check, run once, property by property.

Each test file (``tests/<exercise>.py``, made by :mod:`.editions`) has one test case per property of the
exercise's check; each calls ``graded(exercise, env).require(i)``. The check runs once per exercise and
namespace, on the grader's number of examples (:attr:`~.course.Exercise.tries`); a property that did
not hold fails its test case with the check's own counterexample, never the solution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .course import EXERCISES, Exercise
from .report import Check, PropertyResult

__all__ = ["Graded", "feedback", "graded"]


@dataclass(frozen=True)
class Graded:
    """An exercise's check on one namespace, or why there is none (``problem``)."""

    exercise: Exercise
    check: Check | None
    problem: str = ""

    def require(self, index: int) -> None:
        """Nothing if property ``index`` held; else AssertionError with what the check found."""
        if self.check is None:
            raise AssertionError(self.problem)
        found = self.check.properties[index]
        if not found.held:
            raise AssertionError(feedback(found, self.check))


def feedback(result: PropertyResult, check: Check) -> str:
    """What a student reads for a property that did not hold: the first example that broke it, or why
    it was not tried."""
    if result.counterexample is not None:
        return f"{result.name}: no.\n{result.counterexample}"
    notes = " ".join(check.notes) or "no example of this kind was tried"
    return f"{result.name}: not tried. {notes}"


_DONE: dict[tuple[str, int], tuple[Mapping[str, Any], Graded]] = {}


def graded(exercise: str, env: Mapping[str, Any]) -> Graded:
    """The check of ``exercise`` on the objects ``env`` defines, run once for this ``env``."""
    key = (exercise, id(env))
    done = _DONE.get(key)
    if done is not None and done[0] is env:
        return done[1]
    spec = EXERCISES[exercise]
    try:
        result = Graded(spec, spec.run(env))
    except KeyError as missing:
        result = Graded(spec, None, str(missing.args[0]))
    except Exception as exc:  # the student's objects may break the check's own code (a class that raises)
        result = Graded(spec, None, f"the check could not run: {type(exc).__name__}: {exc}")
    _DONE[key] = (env, result)
    return result
