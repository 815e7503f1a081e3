"""A time limit on a call of someone else's code (a student's function; one day a strategy the widget
runs): a loop is stopped, and the code pays nothing, or next to nothing, while it is fine.

    limit = TimeLimit(2.0)
    with limit:
        value = limit.call(fn, args)      # fn(*args), or OutOfTime raised in it

Only the *guest's* code is ever interrupted: code outside the standard library, the installed packages
and this package (:func:`is_library`). A library frame running on behalf of the guest, such as a
``WeakKeyDictionary``'s callback, or a garbage-collector callback, is never where the limit is raised:
Python would print the exception there as unraisable and go on. Once the time is up, the limit is
raised at every later backward jump and every call of the guest's code until the call returns, so a
bare ``except:`` that swallows it meets it again at its loop's next turn. Limits nest: an inner limit
never outlasts the one around it, in the same thread.

How the time is watched, by what the runtime has:

- An interval timer (CPython on the main thread, Linux and macOS): the timer counts the processor's
  time of the call (``ITIMER_PROF``), and the clock on the wall at :data:`WAITING_FACTOR` times the
  limit, for a call that sleeps. Nothing is watched until it rings: a call that is fine costs four
  system calls. When it rings in the guest's code, the limit is raised there; from then on the
  guest's code is watched as below, to raise it again.
- ``sys.monitoring`` (Python 3.12 and later; the offline site's Pyodide runs 3.14): where there is no
  timer (Pyodide, a thread), the guest's code looks at the clock at the two places a loop can hide,
  each backward jump (every loop of Python 3.12's bytecode ends with one) and each start of a
  function (recursion; a function called over and over from C). The library's code, and every
  forward jump, is switched off where it is first met (``sys.monitoring.DISABLE``), so it runs at
  full speed.
- Line tracing (Python 3.10 and 3.11, or when every free monitoring tool is taken): the guest's code
  looks at the clock on each of its lines. A loop that swallows the limit with a bare ``except:``
  then runs on where there is no timer, since Python stops tracing after a trace function raises.

A loop inside one call to C code (``sum(range(10**12))``) is stopped by none of them. Many limits in a
row (a check's calls) cost less inside :func:`prepared`: the timer's signal handlers are installed, and
the watching switched on, once for all of them.
"""

from __future__ import annotations

import gc
import inspect
import os
import signal
import sys
import sysconfig
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from types import CodeType, FrameType, TracebackType
from typing import Any

__all__ = [
    "LIBRARIES",
    "PATIENCE",
    "WAITING_FACTOR",
    "OutOfTime",
    "TimeLimit",
    "is_library",
    "prepared",
    "watched",
]

WAITING_FACTOR = 3.0
"""Where the limit counts processor time, a call is also stopped after this many times its limit by the
clock on the wall (a loop that sleeps uses no processor time)."""

PATIENCE = 10
"""How many rings of the timer (0.1 s apart) past the limit the guest's code has to reach a place of
its own, where the limit is raised; after that it is raised in the library code it is stuck in."""


def _path(path: str) -> str:
    """``path`` as Python names its modules' files (Pyodide's ``sysconfig`` starts its paths ``//``)."""
    return "/" + os.path.normpath(path).lstrip("/") if path.startswith("/") else os.path.normpath(path)


LIBRARIES = tuple(
    sorted(
        {
            *(_path(sysconfig.get_paths()[name]) for name in ("stdlib", "platstdlib", "purelib")),
            os.path.dirname(os.__file__),  # the standard library, where it is (Pyodide: a zip file)
            str(Path(__file__).parents[1]),
            "<frozen ",
        }
    )
)
"""Where the library code lives, by the start of its file name: never interrupted, never watched. (In
Pyodide, ``sysconfig`` says ``//lib/python3.14``, and the standard library is ``/lib/python314.zip``.)"""

_MONITORING: Any = getattr(sys, "monitoring", None)  # Python 3.12+
_TOOL_NAME = "ipyminesweeper time limit"
_FREE_TOOLS = (4, 3)  # the ids no one names (0 debugger, 1 coverage, 2 profiler, 5 optimizer)
_LATE = 0.005  # seconds: a ring this much before the limit's end is one left over from a call before


class OutOfTime(BaseException):
    """A guest's function ran past its time limit. A ``BaseException``, so that ``except Exception`` in
    the guest's code does not swallow it."""


def is_library(code: CodeType) -> bool:
    """Whether ``code`` is the library's (standard library, installed packages, this package)."""
    return code.co_filename.startswith(LIBRARIES)


class _Place(Enum):
    """Where a frame runs, for the limit: only the guest's own code is ever interrupted."""

    GUEST = "the guest's code"
    COLLECTING = "a garbage-collector callback, called in the middle of the guest's code"
    OUTSIDE = "the caller's own code, around the call"


class _How(Enum):
    """How a limit watches its call's time (see the module's docstring)."""

    ALARM = "an interval timer"
    WATCHED = "sys.monitoring"
    TRACED = "a line trace"


_STACKS: dict[int, list[TimeLimit]] = {}
"""The limits running in each thread, by its ident, the innermost last."""


def _innermost() -> TimeLimit | None:
    stack = _STACKS.get(threading.get_ident())
    return stack[-1] if stack else None


def _has_alarm() -> bool:
    return (
        hasattr(signal, "setitimer")
        and sys.platform != "emscripten"  # Pyodide has the call, but no timer fires while Python runs
        and threading.current_thread() is threading.main_thread()
    )


class TimeLimit:
    """The time limit of one call, ``seconds`` long: a context manager, around :meth:`call`. The
    guest's frames are those below :meth:`call`'s own frame; only they are ever interrupted."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = self.cpu_end = 0.0  # the wall clock's (perf_counter) end, and the processor's
        self.how = _How.TRACED
        self.expired = False
        self.rings = 0
        self.root: FrameType | None = None
        self._timers: list[_Timer] = []
        self._trace: Any = None

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(*args)``, inside the limit's ``with``."""
        self.root = inspect.currentframe()
        return fn(*args)

    def __enter__(self) -> TimeLimit:
        stack = _STACKS.setdefault(threading.get_ident(), [])
        outer = stack[-1] if stack else None
        stack.append(self)
        if _has_alarm():
            self.how = _How.ALARM
            self._start_alarm()
        else:
            self.end = time.perf_counter() + self.seconds
            if _WATCHER.available():
                self.how = _How.WATCHED
                _WATCHER.start()
            else:
                self._trace = sys.gettrace()
                sys.settrace(self._on_call)
        if outer is not None:  # never past the limit around this one
            self.end = min(self.end, outer.end)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.how is _How.ALARM:
            for timer in self._timers:
                timer.stop()
            _ALARM.stop()
            if self.rings:
                self._disarm()
        elif self.how is _How.WATCHED:
            _WATCHER.stop()
        else:
            sys.settrace(self._trace)
        ident = threading.get_ident()
        stack = _STACKS[ident]
        stack.remove(self)
        if not stack:
            del _STACKS[ident]

    def due(self) -> bool:
        """Whether the limit is to be raised now (the clock looked at, where no timer rings)."""
        if not self.expired:
            if self.how is _How.ALARM or time.perf_counter() < self.end:
                return False
            self.expired = True
        return True

    def below(self, frame: FrameType | None) -> list[FrameType]:
        """The frames from ``frame`` up to :meth:`call`'s own, that one left out: the guest's, in one
        walk up the frame chain. Empty when ``frame`` is not below it (the caller's own code)."""
        frames: list[FrameType] = []
        while frame is not None:
            if frame is self.root:
                return frames
            frames.append(frame)
            frame = frame.f_back
        return []

    def place(self, frame: FrameType | None) -> _Place:
        """Where ``frame`` runs: the guest's code (a frame below :meth:`call`'s), a callback of the
        garbage collector called in the middle of it (Hypothesis has one), or outside."""
        frames = self.below(frame)
        for each in frames:
            if collects(each):
                return _Place.COLLECTING
        return _Place.GUEST if frames else _Place.OUTSIDE

    def _start_alarm(self) -> None:
        _ALARM.start()
        self._timers = [
            _Timer(signal.ITIMER_PROF, time.process_time, self.seconds),
            _Timer(signal.ITIMER_REAL, time.perf_counter, self.seconds * WAITING_FACTOR),
        ]
        for timer in self._timers:
            timer.start()
        self.cpu_end, self.end = (timer.end for timer in self._timers)

    def ring(self, frame: FrameType | None) -> None:
        """The timer rang in ``frame``: raise the limit there if it is the guest's own code, and watch
        the guest's code from now on to raise it again (see :data:`PATIENCE`)."""
        if time.process_time() < self.cpu_end - _LATE and time.perf_counter() < self.end - _LATE:
            return  # a ring of a timer stopped a moment ago, or of a call before
        place = self.place(frame)
        if place is _Place.OUTSIDE:  # never in the caller's own code, around the call
            return
        self.expired = True
        self.rings += 1
        self._arm(frame)
        stuck = frame is not None and is_library(frame.f_code) and self.rings <= PATIENCE
        if place is _Place.GUEST and not stuck:
            raise OutOfTime

    def _arm(self, frame: FrameType | None) -> None:
        """From now on, the guest's code raises the limit at its next backward jump or call (at its next
        line, where there is no ``sys.monitoring``): an ``except:`` that swallows it meets it again."""
        if _WATCHER.available():
            if self.rings == 1:
                _WATCHER.start()
            return
        if self.rings == 1:
            self._trace = sys.gettrace()
        for each in self.below(frame):  # at every ring: Python stops tracing when a trace function raises
            if not is_library(each.f_code):
                each.f_trace, each.f_trace_lines = self._stop, True
        sys.settrace(self._stop)  # last: from here on, every call in this thread is traced

    def _disarm(self) -> None:
        if _WATCHER.available():
            _WATCHER.stop()
        else:
            sys.settrace(self._trace)

    def _stop(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        """A trace function that raises at the next line of the guest's code (not at the event of the
        exception itself: raised there, it would be caught where the alarm was)."""
        if event == "exception":
            return self._stop
        if is_library(frame.f_code):
            return None
        if self.place(frame) is _Place.GUEST:
            raise OutOfTime
        return None

    def _on_line(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        if self.due():
            raise OutOfTime
        return self._on_line

    def _on_call(self, frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        """The line trace's call event: the library's calls cost one test each, nothing more."""
        if is_library(frame.f_code):
            return None
        caller = frame.f_back
        if caller is not None and (caller is self.root or caller.f_trace == self._on_line):
            guest = not collects(frame)  # called by the guest's code: no walk
        else:
            guest = self.place(frame) is _Place.GUEST
        if not guest:
            return None
        if self.due():
            raise OutOfTime
        return self._on_line


def collects(frame: FrameType) -> bool:
    """Whether ``frame`` runs a callback of the garbage collector."""
    for callback in gc.callbacks:  # (no comprehension: it would be a frame, traced in turn)
        if getattr(getattr(callback, "__func__", callback), "__code__", None) is frame.f_code:
            return True
    return False


@contextmanager
def prepared() -> Iterator[None]:
    """Inside, the limits of this thread cost less: the timer's signal handlers stay installed between
    them (CPython's main thread), or the watching stays on (elsewhere, on Python 3.12+)."""
    if _has_alarm():
        _ALARM.start()
        try:
            yield
        finally:
            _ALARM.stop()
    elif _WATCHER.available():
        _WATCHER.start()
        try:
            yield
        finally:
            _WATCHER.stop()
    else:
        yield


def watched() -> bool:
    """Whether limits watch the guest's code with ``sys.monitoring`` here (Python 3.12+, a tool free)."""
    return _WATCHER.available()


class _Alarm:
    """The timers' signal handlers, installed while a limit of the main thread runs or is
    :func:`prepared`; a ring goes to the main thread's innermost limit."""

    SIGNALS = (signal.SIGPROF, signal.SIGALRM) if hasattr(signal, "SIGPROF") else ()

    def __init__(self) -> None:
        self.users = 0
        self.previous: list[Any] = []

    def start(self) -> None:
        self.users += 1
        if self.users == 1:
            self.previous = [signal.signal(signum, _ring) for signum in self.SIGNALS]

    def stop(self) -> None:
        self.users -= 1
        if self.users == 0:
            for signum, previous in zip(self.SIGNALS, self.previous, strict=True):
                signal.signal(signum, previous)


def _ring(signum: int, frame: FrameType | None) -> None:
    limit = _innermost()
    if limit is not None and limit.how is _How.ALARM:
        limit.ring(frame)


class _Timer:
    """One interval timer of a limit (processor time, or the wall clock): ``seconds``, or what a timer
    around this one has left when that is less; then again every 0.1 s. When it stops, the timer around
    it goes on with what it has left (at once, if nothing)."""

    def __init__(self, which: int, clock: Callable[[], float], seconds: float) -> None:
        self.which, self.clock, self.seconds = which, clock, seconds
        self.outer, self.every, self.started, self.end = 0.0, 0.0, 0.0, 0.0

    def start(self) -> None:
        self.outer, self.every = signal.getitimer(self.which)
        self.started = self.clock()
        seconds = min(self.seconds, self.outer) if self.outer > 0 else self.seconds
        self.end = self.started + seconds
        signal.setitimer(self.which, seconds, 0.1)

    def stop(self) -> None:
        if self.outer > 0:
            left = self.outer - (self.clock() - self.started)
            signal.setitimer(self.which, max(left, 0.001), self.every)
        else:
            signal.setitimer(self.which, 0)


_ALARM = _Alarm()


def _limit_due(code: CodeType) -> object:
    """What a watched event of ``code`` does: off for good in the library's code; in the guest's code,
    raise the innermost limit of this thread when it is due (not inside a collector's callback)."""
    if code.co_filename.startswith(LIBRARIES):
        return _MONITORING.DISABLE
    stack = _STACKS.get(threading.get_ident())
    if not stack or not stack[-1].due():
        return None
    here = inspect.currentframe()
    frame = here.f_back.f_back if here is not None and here.f_back is not None else None
    if stack[-1].place(frame) is _Place.GUEST:
        raise OutOfTime
    return None


def _on_start(code: CodeType, offset: int) -> object:
    return _limit_due(code)


def _on_jump(code: CodeType, offset: int, destination: int) -> object:
    if destination > offset:
        return _MONITORING.DISABLE  # a forward jump is never a loop
    return _limit_due(code)


class _Watcher:
    """The process's one ``sys.monitoring`` tool of the limits: on while any limit watches (each thread
    finds its own limits), off when none does."""

    def __init__(self) -> None:
        self.tool: int | None = None
        self.users = 0
        self.lock = threading.RLock()  # a timer's ring may start it while this thread holds it
        self.tried = False

    def available(self) -> bool:
        """Whether ``sys.monitoring`` is there and a tool id was free for the limits."""
        if not self.tried:
            with self.lock:
                self.tool = _claim()
                self.tried = True
        return self.tool is not None

    def start(self) -> None:
        with self.lock:
            self.users += 1
            if self.users == 1:
                events = _MONITORING.events
                _MONITORING.set_events(self.tool, events.PY_START | events.JUMP)

    def stop(self) -> None:
        with self.lock:
            self.users -= 1
            if self.users == 0:
                _MONITORING.set_events(self.tool, 0)


def _claim() -> int | None:
    """A free ``sys.monitoring`` tool id, named and given the limits' callbacks (None: none free, or
    Python before 3.12)."""
    if _MONITORING is None:
        return None
    for tool in _FREE_TOOLS:
        if _MONITORING.get_tool(tool) == _TOOL_NAME:  # this module loaded again: take it back
            _MONITORING.free_tool_id(tool)
        if _MONITORING.get_tool(tool) is None:
            _MONITORING.use_tool_id(tool, _TOOL_NAME)
            _MONITORING.register_callback(tool, _MONITORING.events.PY_START, _on_start)
            _MONITORING.register_callback(tool, _MONITORING.events.JUMP, _on_jump)
            return tool
    return None


_WATCHER = _Watcher()
