"""Calling a student's function safely: a time limit on every call, and its printed output kept aside.

:func:`call` turns a call into an :class:`Outcome`: the value, or the exception with the student's part of
its traceback, or the note that it ran past its time limit, and in every case what it printed. A function
that loops forever is stopped, and the check shows the example it looped on.

Every call runs within a :class:`~.timelimit.TimeLimit`: a loop is stopped, a bare ``except:`` cannot hold
it, and a call that is fine pays next to nothing for it (see :mod:`.timelimit` for how, runtime by
runtime).
"""

from __future__ import annotations

import io
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .foreign import type_name
from .report import Raised
from .timelimit import WAITING_FACTOR, OutOfTime, TimeLimit, prepared

__all__ = [
    "CALL_SECONDS",
    "CHECK_SECONDS",
    "KEPT_OUTPUT",
    "WAITING_FACTOR",
    "Calls",
    "Elsewhere",
    "OutOfTime",
    "Outcome",
    "call",
    "call_each",
    "check_budget",
    "watching",
]

CALL_SECONDS = 2.0
"""The time limit of one call of a student's function: the reference answers in milliseconds."""

CHECK_SECONDS = 60.0
"""The most time the student's function may take in one check, all its calls together: past that the
check judges on the examples tried so far, and says so (:attr:`Calls.stopped`)."""

KEPT_OUTPUT = 4000
"""How many characters of printed output an outcome keeps (the rest is counted, not kept)."""


@dataclass(frozen=True)
class Outcome:
    """What a call gave: its ``value``, or the ``error`` it raised and its ``trace`` (:attr:`traceback`); with
    ``timed_out``, it did not return within ``seconds``. ``output`` is what it printed (the start of it),
    ``lines`` how many lines in all. ``after`` is the arguments as the call left them (a list it was
    given, changed or not), and ``used`` the seconds the function took."""

    value: Any = None
    error: Exception | None = None
    trace: str | Raised = ""
    timed_out: bool = False
    seconds: float = 0.0
    output: str = ""
    lines: int = 0
    after: tuple[Any, ...] = ()
    used: float = 0.0

    @property
    def traceback(self) -> str:
        """The error's traceback from the function called down, as text (empty when it returned)."""
        return str(self.trace)

    @property
    def raised(self) -> bool:
        """True when the call did not return a value (it raised, or ran out of time)."""
        return self.error is not None or self.timed_out

    @property
    def failure(self) -> str:
        """``"raised GameOverError: ..."``, or ``"gave no answer within 2 seconds (...)"``."""
        if self.timed_out:
            return f"gave {self.describe_error()}"
        return f"raised {self.describe_error()}"

    def describe_error(self) -> str:
        """``"GameOverError: the game on this board is lost ..."``, or the time limit."""
        if self.timed_out:
            return f"no answer within {_seconds(self.seconds)} (does it loop forever?)"
        assert self.error is not None
        said = str(self.error)
        return f"{type_name(self.error)}: {said}" if said else type_name(self.error)


class Elsewhere(ABC):
    """A function that runs in another process (the grader's view of a student's function): it makes
    its own :class:`Outcome` of a call, within ``seconds``."""

    @abstractmethod
    def outcome(self, args: tuple[Any, ...], seconds: float) -> Outcome:
        """What the call ``fn(*args)`` gave, within ``seconds``."""

    @abstractmethod
    def outcomes(self, calls: Sequence[tuple[Any, ...]], seconds: float) -> list[Outcome]:
        """What the calls ``fn(*args)`` of ``calls`` gave, in order, each within ``seconds``: asked at
        once. It may give fewer (it stops at the first that runs out of time)."""


def _seconds(seconds: float) -> str:
    return f"{seconds:g} second" if seconds == 1 else f"{seconds:g} seconds"


class _KeptOutput(io.StringIO):
    """A text sink that keeps the first :data:`KEPT_OUTPUT` characters and counts the lines."""

    def __init__(self) -> None:
        super().__init__()
        self.size = 0
        self.breaks = 0
        self.last = "\n"

    def write(self, text: str) -> int:
        room = KEPT_OUTPUT - self.size
        if room > 0:
            super().write(text[:room])
        self.size += len(text)
        self.breaks += text.count("\n")
        self.last = text[-1:] or self.last
        return len(text)

    @property
    def lines(self) -> int:
        """Lines printed, a last one without its newline included."""
        return self.breaks + (self.last != "\n")


@dataclass
class Calls:
    """What the calls of one check add up to: the time limit of the next call, the calls that ran out
    of time, the seconds the function took in all, and everything printed (its first
    :data:`KEPT_OUTPUT` characters, and the count of lines).

    After a call runs out of time, the next ones get a quarter of a second each; after three, or once
    the function has taken ``budget`` seconds in all, the check stops calling (:attr:`stopped`), so a
    function that loops on every board is reported in seconds, not minutes. Only the function's own
    time counts, never the check's: a busy machine slows both, and the check still tries them all."""

    seconds: float = CALL_SECONDS
    budget: float = CHECK_SECONDS
    timeouts: int = 0
    used: float = 0.0
    output: str = ""
    lines: int = 0

    @property
    def stopped(self) -> bool:
        return self.timeouts >= 3 or self.used > self.budget

    def why_stopped(self, tried: int) -> str:
        """Why the check stopped calling after ``tried`` examples, in a sentence (``""``: it did not)."""
        if self.timeouts >= 3:
            return (
                f"The check stopped after {tried} example{'' if tried == 1 else 's'}: your function ran "
                f"out of time on {self.timeouts} of them."
            )
        if self.used > self.budget:
            return (
                f"The check stopped after {tried} example{'' if tried == 1 else 's'}: your function had "
                f"taken {self.used:.0f} seconds, more than the {self.budget:g} a check gives it."
            )
        return ""

    def add(self, outcome: Outcome) -> None:
        if outcome.timed_out:
            self.timeouts += 1
            self.seconds = min(self.seconds, 0.25)
        self.used += outcome.used
        room = KEPT_OUTPUT - len(self.output)
        if room > 0:
            self.output += outcome.output[:room]
        self.lines += outcome.lines


_CALLS: ContextVar[Calls | None] = ContextVar("ipyminesweeper_exercise_calls", default=None)
_BUDGET: ContextVar[float] = ContextVar("ipyminesweeper_check_budget", default=CHECK_SECONDS)


@contextmanager
def check_budget(seconds: float) -> Iterator[None]:
    """Inside, every check gives the student's function ``seconds`` in all (the grader sets its own)."""
    token = _BUDGET.set(seconds)
    try:
        yield
    finally:
        _BUDGET.reset(token)


@contextmanager
def watching(seconds: float = CALL_SECONDS) -> Iterator[Calls]:
    """Every :func:`call` inside adds to the :class:`Calls` this yields, and takes its time limit; the
    function's time in all is limited by :func:`check_budget` (:data:`CHECK_SECONDS` unless set). The
    limits are :func:`~.timelimit.prepared` once for all the calls."""
    calls = Calls(seconds, _BUDGET.get())
    token = _CALLS.set(calls)
    try:
        with prepared():
            yield calls
    finally:
        _CALLS.reset(token)


def call(fn: Callable[..., Any], *args: Any, seconds: float | None = None) -> Outcome:
    """``fn(*args)`` as an :class:`Outcome`, within ``seconds`` or the time limit of the :class:`Calls` it
    adds to (or :data:`CALL_SECONDS`), its printing kept aside; the traceback starts in ``fn`` (this frame
    is left out). Once the calls have :attr:`~Calls.stopped`, it does not call ``fn`` and says it ran out
    of time. Limits nest: a call inside a call gets no more than the outer one has left."""
    calls = _CALLS.get()
    if seconds is None:
        seconds = calls.seconds if calls is not None else CALL_SECONDS
    if calls is not None and calls.stopped:
        return Outcome(timed_out=True, seconds=seconds, after=args)
    outcome = fn.outcome(args, seconds) if isinstance(fn, Elsewhere) else _call(fn, args, seconds)
    if calls is not None:
        calls.add(outcome)
    return outcome


def call_each(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> list[Outcome]:
    """``[call(fn, *args) for args in calls]``, the same calls in the same order; a function of another
    process (:class:`Elsewhere`) is asked them all at once."""
    state = _CALLS.get()
    done: list[Outcome] = []
    if isinstance(fn, Elsewhere) and len(calls) > 1 and not (state is not None and state.stopped):
        seconds = state.seconds if state is not None else CALL_SECONDS
        done = fn.outcomes(calls, seconds)[: len(calls)]
        if state is not None:
            for outcome in done:
                state.add(outcome)
    return done + [call(fn, *args) for args in calls[len(done) :]]


def _call(fn: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Outcome:
    kept = _KeptOutput()
    limit = TimeLimit(seconds)
    start = time.perf_counter()

    def ended(**how: Any) -> Outcome:
        used = time.perf_counter() - start
        return Outcome(**how, output=kept.getvalue(), lines=kept.lines, after=args, used=used)

    try:
        with redirect_stdout(kept), redirect_stderr(kept), limit:
            value = limit.call(fn, args)
    except OutOfTime:
        return ended(timed_out=True, seconds=seconds)
    except Exception as exc:
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        tb = tb.tb_next if tb is not None else None  # TimeLimit.call's frame too
        return ended(error=exc, trace=Raised(exc, tb))
    return ended(value=value)
