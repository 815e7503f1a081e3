"""How every check runs: a fixed list of seeded examples, each property judged on its own, and the
smallest failure shown.

1. The check tries ``tries`` distinct examples from :func:`~.draws.seeded_examples`, made once per
   kernel (:func:`~.draws.examples_once`): the same examples, in the same order, whatever the
   Hypothesis version, so the number tried and the verdict never change from one installation to the
   next. The grader passes a ``seed`` of its own, per student and hand-in.
2. The judge says which of the check's *properties* each example put to the test, and which one it
   broke. A property holds when it was tried and never broken: that is the partial credit a grader
   gives.
3. If a property broke, the smallest examples of all are tried, smallest first, as SmallCheck does
   (a check's :class:`EverySmall` examples first, then :func:`~.draws.smallest_examples`; made once
   per kernel), up to :data:`AFTER_THE_FIRST` past the first that fails. Only when none of them fails
   does Hypothesis build examples the same way (:func:`~.draws.strategy_of`), find one that breaks a
   property and shrink it, for :data:`SHRINK_SECONDS` at most. The check shows
   the smallest counterexample seen (the cells of its board, then the length of its call, decide).

Every call of the student's function goes through :func:`~.limits.call`: a time limit, printing kept aside,
and a budget for the function's time in the whole check (:data:`~.limits.CHECK_SECONDS`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from random import Random
from typing import Any, Generic, TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import HypothesisException

from .draws import Source, examples_once, kept_once, smallest_once, strategy_of
from .foreign import type_name
from .limits import KEPT_OUTPUT, Calls, watching
from .report import Check, Counterexample, PropertyResult

__all__ = [
    "AFTER_THE_FIRST",
    "SEED",
    "SHRINK_SECONDS",
    "SMALLEST_EXAMPLES",
    "SMALLEST_PLANS",
    "SMALLEST_SECONDS",
    "EverySmall",
    "Verdict",
    "combine",
    "function_name",
    "require_function",
    "run_check",
]

E = TypeVar("E")

SEED = 17
"""The seed of the examples a student's own check tries: the same every time, everywhere."""

SHRINK_SECONDS = 8.0
"""The longest Hypothesis may shrink a counterexample (when none of the smallest examples fails); then
the smallest one so far is shown."""

SMALLEST_PLANS = 300
"""How many plans of choices a failing check tries, smallest first, for its smallest counterexample."""

SMALLEST_SECONDS = 5.0
"""The longest a failing check tries the smallest examples (the student's calls and the reference's): a
cap far above what they take (well under a second), so that the counterexample shown does not depend on
how busy the machine is."""

SMALLEST_EXAMPLES = 400
"""How many of the smallest examples, at most, a failing check tries (the enumerated ones, then small
seeded ones)."""


AFTER_THE_FIRST = 100
"""How many of the smallest examples after the first that fails are tried for a smaller one."""


def function_name(fn: object) -> str:
    """The name a check uses for the student's function."""
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


def require_function(fn: object, check: str, signature: str) -> None:
    """A TypeError naming what ``check`` expects when ``fn`` is not callable."""
    if not callable(fn):
        raise TypeError(f"{check}(fn) needs a function {signature}, not {type_name(fn)} {fn!r:.60}")


@dataclass(frozen=True)
class Verdict:
    """The judgement of one example: the properties it put to the test (``tests``), a counterexample
    when the function broke one of them (``breaks``, by default the first it tested), and labels for
    the kind of example it was (counted when the check passes)."""

    counterexample: Counterexample | None = None
    labels: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    breaks: str | None = None

    def broken(self, properties: Sequence[str]) -> str | None:
        """The property this example breaks, if any."""
        if self.counterexample is None:
            return None
        return self.breaks or (self.tests[0] if self.tests else properties[0])


@dataclass(frozen=True)
class EverySmall(Generic[E]):
    """Every example of a check of at most ``cells`` cells, fewest cells first (``make()``; ``size``
    gives an example's cells), tried before the other smallest examples: a failure of at most
    ``cells + 1`` cells is then the smallest there is, so the search ends there."""

    make: Callable[[], Iterator[E]]
    cells: int
    size: Callable[[E], int]


class _Enough(BaseException):
    """The shrinking's time is up."""


def run_check(
    exercise: str,
    fn: Callable[..., Any],
    build: Callable[[Source], E],
    judge: Callable[[E], Verdict],
    tries: int,
    *,
    properties: Sequence[str],
    key: Callable[[E], Hashable] = lambda example: example,
    notes: tuple[str, ...] = (),
    shrink: bool = True,
    seed: int = SEED,
    every_small: EverySmall[E] | None = None,
) -> Check:
    """Judge ``tries`` examples of ``build`` seeded with ``seed``; the :class:`Check` says which
    ``properties`` held, and shows the smallest example found that breaks the first one that did not."""
    with watching() as calls:
        tried, verdicts, firsts = _try_seeded(build, judge, (tries, seed), key, properties, calls)
        counts = Counter(label for verdict in verdicts.values() for label in verdict.labels)
        results = _property_results(properties, verdicts.values(), firsts)
        stopped = calls.why_stopped(tried)
        notes = (*notes, stopped) if stopped else notes
        failing = next((r for r in results if r.counterexample is not None), None)
        shown = failing.counterexample if failing is not None else None
        if failing is not None and shrink and not calls.timeouts:
            smaller = _smallest_failure(build, judge, key, calls, every_small, shown)
            if smaller is None:  # none among the smallest examples: Hypothesis shrinks the one found
                smaller = _shrunk(build, judge, (tries, seed), key, calls, SHRINK_SECONDS)
            if smaller is not None and (shown is None or _size(smaller) <= _size(shown)):
                shown = smaller
    return Check(
        exercise,
        function_name(fn),
        tried,
        shown,
        tuple(sorted(counts.items(), key=lambda item: -item[1])) if shown is None else (),
        notes,
        properties=results,
        output=calls.output,
        printed_lines=calls.lines,
        stopped=stopped,
    )


def _try_seeded(
    build: Callable[[Source], E],
    judge: Callable[[E], Verdict],
    examples: tuple[int, int],
    key: Callable[[E], Hashable],
    properties: Sequence[str],
    calls: Calls,
) -> tuple[int, dict[Hashable, Verdict], dict[str, Counterexample]]:
    """Judge the seeded examples (how many, their seed) in order, until all are tried or the calls
    stop."""
    verdicts: dict[Hashable, Verdict] = {}
    firsts: dict[str, Counterexample] = {}
    tries, seed = examples
    for example in examples_once(build, tries, key, seed):
        if calls.stopped:
            break
        verdict = verdicts[key(example)] = judge(example)
        broken = verdict.broken(properties)
        if broken is not None and verdict.counterexample is not None:
            firsts.setdefault(broken, verdict.counterexample)
    return len(verdicts), verdicts, firsts


def _property_results(
    properties: Sequence[str], verdicts: Any, firsts: dict[str, Counterexample]
) -> tuple[PropertyResult, ...]:
    tested: Counter[str] = Counter()
    for verdict in verdicts:
        tested.update(verdict.tests or properties[:1])
        broken = verdict.broken(properties)
        if broken is not None and broken not in verdict.tests:
            tested[broken] += 1
    return tuple(PropertyResult(name, tested[name], firsts.get(name)) for name in properties)


def _smallest_failure(
    build: Callable[[Source], E],
    judge: Callable[[E], Verdict],
    key: Callable[[E], Hashable],
    calls: Calls,
    every_small: EverySmall[E] | None = None,
    found_first: Counterexample | None = None,
) -> Counterexample | None:
    """The smallest failure among the smallest examples: ``every_small``'s, fewest cells first, until the
    rest have as many cells as the smallest failure yet (``found_first``, the one the check found, to
    begin with); then, unless that settled it, :func:`~.draws.smallest_examples` in order, up to
    :data:`AFTER_THE_FIRST` past the first that fails: the smallest counterexample, or close to it, the
    same however busy the machine (:data:`SMALLEST_SECONDS` is only a cap)."""
    end = time.perf_counter() + SMALLEST_SECONDS
    best: Counterexample | None = None
    seen: set[Hashable] = set()

    def tried(example: E) -> None:
        nonlocal best
        k = key(example)
        if k not in seen:
            seen.add(k)
            found = judge(example).counterexample
            if found is not None and (best is None or _size(found) < _size(best)):
                best = found

    if every_small is not None:
        if found_first is not None and _size(found_first)[0] <= every_small.cells + 1:
            best = found_first
        for example in kept_once(every_small.make):
            if calls.stopped or time.perf_counter() > end:
                return best
            if best is not None and every_small.size(example) >= _size(best)[0]:
                break  # the rest have as many cells, or more
            tried(example)
        if best is not None and _size(best)[0] <= every_small.cells + 1:
            return best  # every example with fewer cells was tried
    left = AFTER_THE_FIRST
    for example in smallest_once(build, key, SMALLEST_PLANS, SMALLEST_EXAMPLES):
        if calls.stopped or left == 0 or time.perf_counter() > end:
            break
        tried(example)
        left -= best is not None
    return best


def _shrunk(
    build: Callable[[Source], E],
    judge: Callable[[E], Verdict],
    examples: tuple[int, int],
    key: Callable[[E], Hashable],
    calls: Calls,
    seconds: float,
) -> Counterexample | None:
    """The smallest counterexample Hypothesis comes across (within ``seconds``, and while the calls go
    on) while it looks for one and shrinks it."""
    seen: dict[Hashable, Verdict] = {}
    smallest: list[Counterexample] = []
    end = time.perf_counter() + seconds
    tries, seed = examples

    def breaks(example: E) -> bool:
        if time.perf_counter() > end or calls.stopped:
            raise _Enough
        k = key(example)
        verdict = seen.get(k)
        if verdict is None:
            verdict = seen[k] = judge(example)
        found = verdict.counterexample
        if found is None:
            return False
        if not smallest or _size(found) < _size(smallest[0]):
            smallest[:] = [found]
        return True

    config = settings(
        max_examples=tries,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    )
    with suppress(_Enough, HypothesisException):
        find(strategy_of(build), breaks, settings=config, random=Random(seed))
    return smallest[0] if smallest else None


def _size(example: Counterexample) -> tuple[int, int]:
    """How big a counterexample is: the cells of its board, then how long its call is written."""
    board = example.board
    return (board.rows * board.cols if board is not None else 0), len(example.call)


def combine(first: Check, second: Check) -> Check:
    """One check of two runs over different examples (the same properties): a property holds if it held
    in both; the counterexample shown is the first run's, if any (the lesson first)."""
    results = tuple(
        PropertyResult(a.name, a.tried + b.tried, a.counterexample or b.counterexample)
        for a, b in zip(first.properties, second.properties, strict=True)
    )
    shown = first.counterexample or second.counterexample
    counts = Counter(dict(first.counts)) + Counter(dict(second.counts))
    return Check(
        first.exercise,
        first.function,
        first.tried + second.tried,
        shown,
        tuple(counts.most_common()) if shown is None else (),
        tuple(dict.fromkeys((*first.notes, *second.notes))),
        properties=results,
        output=(first.output + second.output)[:KEPT_OUTPUT],
        printed_lines=first.printed_lines + second.printed_lines,
        stopped=" ".join(text for text in (first.stopped, second.stopped) if text),
    )
