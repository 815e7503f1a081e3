"""How every check runs: call the student's function safely, and let Hypothesis look for a disagreement.

:func:`call` turns a call into an :class:`Outcome` (the value, or the exception with the student's part
of its traceback), so a function that raises is a difference to show, never a crash of the check.
:func:`run_check` asks Hypothesis (``hypothesis.find``) for an example the judge rejects; Hypothesis
then shrinks it to the smallest one it can, and that is the counterexample the check shows.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from random import Random
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from .report import Check, Counterexample

__all__ = ["Outcome", "Verdict", "call", "function_name", "require_function", "run_check"]

E = TypeVar("E")


@dataclass(frozen=True)
class Outcome:
    """What a call gave: its ``value``, or the ``error`` it raised and the ``traceback`` text."""

    value: Any = None
    error: Exception | None = None
    traceback: str = ""

    @property
    def raised(self) -> bool:
        return self.error is not None

    def describe_error(self) -> str:
        """``"GameOverError: the game on this board is lost ..."``."""
        assert self.error is not None
        return f"{type(self.error).__name__}: {self.error}"


def call(fn: Callable[..., Any], *args: Any) -> Outcome:
    """``fn(*args)`` as an :class:`Outcome`; the traceback starts in ``fn`` (this frame is left out)."""
    try:
        return Outcome(fn(*args))
    except Exception as exc:
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        text = "".join(traceback.format_exception(type(exc), exc, tb))
        return Outcome(error=exc, traceback=text)


def function_name(fn: object) -> str:
    """The name a check uses for the student's function."""
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


def require_function(fn: object, check: str, signature: str) -> None:
    """A TypeError naming what ``check`` expects when ``fn`` is not callable."""
    if not callable(fn):
        raise TypeError(f"{check}(fn) needs a function {signature}, not {type(fn).__name__} {fn!r:.60}")


@dataclass(frozen=True)
class Verdict:
    """The judgement of one example: a counterexample when the function was wrong on it, and labels
    for the kind of example it was (counted when the check passes)."""

    counterexample: Counterexample | None = None
    labels: tuple[str, ...] = ()


def run_check(
    exercise: str,
    fn: Callable[..., Any],
    examples: st.SearchStrategy[E],
    judge: Callable[[E], Verdict],
    tries: int,
    key: Callable[[E], Hashable] = lambda example: example,
    notes: tuple[str, ...] = (),
    shrink: bool = True,
) -> Check:
    """Judge up to ``tries`` examples; the :class:`Check` holds the smallest one the judge rejects.

    Each distinct example (by ``key``) is judged once, so a function that answers differently when
    called again cannot confuse the shrinking. The search is seeded: the same function gets the same
    verdict every time. With ``shrink=False`` the counterexample is the first one found, as it came.
    """
    verdicts: dict[Hashable, Verdict] = {}
    counts: Counter[str] = Counter()

    def rejected(example: E) -> bool:
        k = key(example)
        verdict = verdicts.get(k)
        if verdict is None:
            verdict = verdicts[k] = judge(example)
            counts.update(verdict.labels)
        return verdict.counterexample is not None

    # No Phase.explain: after the shrinking it varies each part of the counterexample hundreds of times,
    # to tell which parts matter in a report that a check never shows (it was half of a failing check).
    search = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    config = settings(
        max_examples=tries,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        phases=[*search, Phase.shrink] if shrink else search,
    )
    try:
        smallest = find(examples, rejected, settings=config, random=Random(17))
    except NoSuchExample:
        ordered = tuple(sorted(counts.items(), key=lambda item: -item[1]))
        return Check(exercise, function_name(fn), len(verdicts), None, ordered, notes)
    return Check(
        exercise, function_name(fn), len(verdicts), verdicts[key(smallest)].counterexample, (), notes
    )
