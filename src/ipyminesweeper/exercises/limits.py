"""Calling a student's function safely: a time limit on every call, and its printed output kept aside.

:func:`call` turns a call into an :class:`Outcome`: the value, or the exception with the student's part of
its traceback, or the note that it ran past its time limit, and in every case what it printed. A function
that loops forever is stopped, and the check shows the example it looped on.

How a call is stopped depends on where it runs:

- CPython, on the main thread, where the OS has interval timers (Linux, macOS): a timer raises
  :class:`OutOfTime` in the function, and again every 0.1 s after that; each time it also makes the
  student's frames raise at their next line, so a bare ``except:`` that swallows it raises it again from
  its own body. The limit counts the processor's time the call takes (``ITIMER_PROF``), so that a
  correct answer on a busy machine (a teacher grading with two jobs, a laptop running other things) is
  not taken for a loop; a call that waits instead of computing (``time.sleep`` in a loop) is stopped by
  the clock on the wall at :data:`WAITING_FACTOR` times the limit.
- Elsewhere (the offline site's Pyodide, a worker thread, Windows): a trace function looks at the clock
  on every line of the student's code and raises :class:`OutOfTime`. A loop that swallows it with a bare
  ``except:`` then runs on, since Python stops tracing after a trace function raises: the kernel must be
  interrupted. A loop inside one call to C code (``sum(range(10**12))``) is not stopped either way.
"""

from __future__ import annotations

import gc
import inspect
import io
import signal
import sys
import sysconfig
import threading
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, redirect_stderr, redirect_stdout
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import FrameType
from typing import Any

from .foreign import type_name

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

WAITING_FACTOR = 3.0
"""Where the limit counts processor time, a call is also stopped after this many times its limit by the
clock on the wall (a loop that sleeps uses no processor time)."""

CHECK_SECONDS = 60.0
"""The most time the student's function may take in one check, all its calls together: past that the
check judges on the examples tried so far, and says so (:attr:`Calls.stopped`)."""

KEPT_OUTPUT = 4000
"""How many characters of printed output an outcome keeps (the rest is counted, not kept)."""


class OutOfTime(BaseException):
    """A student's function ran past its time limit. A ``BaseException``, so that ``except Exception``
    in the student's code does not swallow it."""


@dataclass(frozen=True)
class Outcome:
    """What a call gave: its ``value``, or the ``error`` it raised and the ``traceback`` text; with
    ``timed_out``, it did not return within ``seconds``. ``output`` is what it printed (the start of it),
    ``lines`` how many lines in all. ``after`` is the arguments as the call left them (a list it was
    given, changed or not), and ``used`` the seconds the function took."""

    value: Any = None
    error: Exception | None = None
    traceback: str = ""
    timed_out: bool = False
    seconds: float = 0.0
    output: str = ""
    lines: int = 0
    after: tuple[Any, ...] = ()
    used: float = 0.0

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


class _Kept(io.StringIO):
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
    function's time in all is limited by :func:`check_budget` (:data:`CHECK_SECONDS` unless set)."""
    calls = Calls(seconds, _BUDGET.get())
    token = _CALLS.set(calls)
    try:
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
    kept = _Kept()
    limit = _Limit(seconds)
    start = time.perf_counter()

    def ended(**how: Any) -> Outcome:
        used = time.perf_counter() - start
        return Outcome(**how, output=kept.getvalue(), lines=kept.lines, after=args, used=used)

    try:
        with redirect_stdout(kept), redirect_stderr(kept), limit.running():
            value = limit.call(fn, args)
    except OutOfTime:
        return ended(timed_out=True, seconds=seconds)
    except Exception as exc:
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        tb = tb.tb_next if tb is not None else None  # Limit.call's frame too
        return ended(error=exc, traceback="".join(traceback.format_exception(type(exc), exc, tb)))
    return ended(value=value)


_LIBRARIES = tuple(
    {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], str(Path(__file__).parents[1])}
)
"""Where the library code lives: traced call by call only, the student's code line by line."""

Tracer = Callable[[FrameType, str, object], Any]


class _Place(Enum):
    """Where a frame runs, for the limit: only the student's own code is ever interrupted."""

    STUDENT = "the student's code"
    COLLECTING = "a garbage-collector callback, called in the middle of the student's code"
    OUTSIDE = "the check's own code"


class _Limit:
    """The time limit of one call. The student's frames are those below :meth:`call`'s own frame; only
    they are ever interrupted, never the check's code around them."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.perf_counter() + seconds
        self.root: FrameType | None = None

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        self.root = inspect.currentframe()
        return fn(*args)

    def running(self) -> AbstractContextManager[None]:
        """The alarm where there is one (CPython's main thread), else the line-by-line clock."""
        can_alarm = (
            hasattr(signal, "setitimer")
            and sys.platform != "emscripten"  # Pyodide has the call, but no timer fires while Python runs
            and threading.current_thread() is threading.main_thread()
        )
        return self._alarm() if can_alarm else self._clocked()

    def below(self, frame: FrameType | None) -> list[FrameType]:
        """The frames from ``frame`` up to :meth:`call`'s own, that one left out: the student's, in one
        walk up the frame chain. Empty when ``frame`` is not below it (the check's own code)."""
        frames: list[FrameType] = []
        while frame is not None:
            if frame is self.root:
                return frames
            frames.append(frame)
            frame = frame.f_back
        return []

    def place(self, frame: FrameType | None) -> _Place:
        """Where ``frame`` runs: the student's code (a frame below :meth:`call`'s), a callback of the
        garbage collector called in the middle of it (Hypothesis has one; an exception raised there would
        be lost, as Python prints it as unraisable and goes on, so the limit is raised at the student's
        next line instead), or outside, in the check's own code."""
        frames = self.below(frame)
        for each in frames:
            if self.collects(each):
                return _Place.COLLECTING
        return _Place.STUDENT if frames else _Place.OUTSIDE

    @staticmethod
    def collects(frame: FrameType) -> bool:
        """Whether ``frame`` runs a callback of the garbage collector."""
        for callback in gc.callbacks:  # (no comprehension: it would be a frame, traced in turn)
            if getattr(getattr(callback, "__func__", callback), "__code__", None) is frame.f_code:
                return True
        return False

    def stop(self, frame: FrameType, event: str, arg: object) -> Tracer | None:
        """A trace function that raises at the next line of the student's code (not at the event of the
        exception itself: raised there, it would be caught where the alarm was)."""
        if event == "exception":
            return self.stop
        if self.place(frame) is _Place.STUDENT:
            raise OutOfTime
        return None

    def arm(self, frame: FrameType | None) -> None:
        """Make every frame of the student's code, and every new one, raise at its next line: an
        ``except:`` that swallows the alarm then raises it again from its own first line."""
        for each in self.below(frame):
            each.f_trace, each.f_trace_lines = self.stop, True
        sys.settrace(self.stop)  # last: from here on, every call in this thread is traced

    @contextmanager
    def _alarm(self) -> Iterator[None]:
        def ring(signum: int, frame: FrameType | None) -> None:
            place = self.place(frame)
            if place is not _Place.OUTSIDE:  # never in the check's own code, around the call
                self.arm(frame)
                if place is _Place.STUDENT:
                    raise OutOfTime

        trace = sys.gettrace()
        timers = [
            _Timer(signal.ITIMER_PROF, signal.SIGPROF, time.process_time, self.seconds),
            _Timer(signal.ITIMER_REAL, signal.SIGALRM, time.perf_counter, self.seconds * WAITING_FACTOR),
        ]
        for timer in timers:
            timer.start(ring)
        try:
            yield
        finally:
            for timer in timers:
                timer.stop()
            sys.settrace(trace)

    @contextmanager
    def _clocked(self) -> Iterator[None]:
        def on_line(frame: FrameType, event: str, arg: object) -> Tracer | None:
            if time.perf_counter() > self.end:
                raise OutOfTime
            return on_line

        def on_call(frame: FrameType, event: str, arg: object) -> Tracer | None:
            if frame.f_code.co_filename.startswith(_LIBRARIES):
                return None  # the library's own calls cost one test each, nothing more
            caller = frame.f_back
            if caller is not None and (caller is self.root or caller.f_trace is on_line):
                student = not self.collects(frame)  # called by the student's code: no walk
            else:
                student = self.place(frame) is _Place.STUDENT
            if not student:
                return None
            if time.perf_counter() > self.end:
                raise OutOfTime
            return on_line

        trace = sys.gettrace()
        sys.settrace(on_call)
        try:
            yield
        finally:
            sys.settrace(trace)


class _Timer:
    """One interval timer of a limit (processor time, or the wall clock): ``seconds``, or what a limit
    around this one has left when that is less; then again every 0.1 s. When it stops, the limit around
    it goes on with what it has left (at once, if nothing)."""

    def __init__(self, which: int, signum: int, clock: Callable[[], float], seconds: float) -> None:
        self.which, self.signum, self.clock, self.seconds = which, signum, clock, seconds
        self.previous: Any = None
        self.outer, self.every, self.started = 0.0, 0.0, 0.0

    def start(self, ring: Callable[[int, FrameType | None], None]) -> None:
        self.previous = signal.signal(self.signum, ring)
        self.outer, self.every = signal.getitimer(self.which)
        self.started = self.clock()
        seconds = min(self.seconds, self.outer) if self.outer > 0 else self.seconds
        signal.setitimer(self.which, seconds, 0.1)

    def stop(self) -> None:
        signal.setitimer(self.which, 0)
        signal.signal(self.signum, self.previous)
        if self.outer > 0:
            left = self.outer - (self.clock() - self.started)
            signal.setitimer(self.which, max(left, 0.001), self.every)
