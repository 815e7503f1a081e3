"""The grader's side of a handed-in notebook: its confined process, and its functions as the checks call them.

:class:`Notebook` starts the student's process (:mod:`.notebook_worker`) in a
:class:`~ipyminesweeper.arena.sandbox.Confined` worker, has it run the notebook's cells, and learns which
of the exercise's names it defines. :meth:`Notebook.function` then gives each as a :class:`Remote`: to a
check, a function like any other (``check_chord(notebook.function("my_chord"))``), whose calls go to the
student's process as data and come back as data (:mod:`.wire`), decoded and checked here. The checks, their
examples, the expected answers and the points never leave the grader's process.

The time a student's function takes is read from the student's process itself (:class:`StudentClock`):
on Linux its time on a processor or asleep, not the time it waited for one, so a busy machine does not
cost a right answer its points.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..arena.sandbox import Confined, WorkerError, read_roots
from ..exercises.foreign import Foreign, ForeignError, foreign_error
from ..exercises.limits import CHECK_SECONDS, WAITING_FACTOR, Elsewhere, Outcome
from ..strategies import Move
from .wire import Malformed, StudentName, decode_answer, encode_argument

__all__ = ["GradeLimits", "Notebook", "Remote", "StudentClock"]

ANSWER_BYTES = 4 << 20
"""The largest answer taken from a student's process (a history of boards is a few KB)."""


@dataclass(frozen=True)
class GradeLimits:
    """What grading one notebook may take: seconds per cell, seconds for all its cells, memory (MiB), and
    the seconds its function may take in one check, all calls together (its own time: not the time it
    waits for a processor on a busy machine)."""

    cell_seconds: float = 30.0
    seconds: float = 300.0
    memory_mb: int = 2048
    check_seconds: float = CHECK_SECONDS


class StudentClock:
    """The seconds a process spent running or asleep, not waiting for a processor: on Linux, the wall
    clock less its run-queue wait (``/proc/PID/schedstat``); elsewhere the wall clock."""

    def __init__(self, pid: int | None) -> None:
        self.path = Path(f"/proc/{pid}/schedstat") if pid is not None else None

    def now(self) -> float:
        wall = time.perf_counter()
        if self.path is None:
            return wall
        try:
            waited = int(self.path.read_text().split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return wall
        return wall - waited


def _backstop(seconds: float) -> float:
    """How long the grader waits for an answer to a call limited to ``seconds``: the student's process
    stops the call itself well before, unless it cannot (a loop inside one call to C code)."""
    return seconds * WAITING_FACTOR + 5.0


@dataclass
class _Started:
    """One start of the student's process: the cells it ran, and what it said."""

    notes: list[str]
    names: dict[str, Any]
    stopped_in: int | None = None


class Notebook:
    """A handed-in notebook in its confined process: ``cells`` (sources, run in order) define the
    exercise's ``names``; ``library`` are the library's own answers to watch for (``module:qualname``).
    ``keep_out``: folders it may not read (the hand-ins, the grader's own)."""

    def __init__(
        self,
        cells: Sequence[str],
        names: Sequence[str],
        library: Sequence[str],
        limits: GradeLimits,
        keep_out: Sequence[Path] = (),
        cpu_seconds: int = 600,
    ) -> None:
        self.cells, self.names, self.library = list(cells), list(names), list(library)
        self.limits, self.keep_out, self.cpu_seconds = limits, list(keep_out), cpu_seconds
        self.worker: Confined | None = None
        self.clock = StudentClock(None)
        self.held: list[str] = []
        self.seen: list[str] = []
        """What the notebook tried that the confinement refused or watches (network, files, processes)."""
        self.problems: list[str] = []
        """How the process failed while the grader asked it (a crash, a hang, a malformed answer)."""
        self.notes: list[str] = []
        self.described: dict[str, Any] = {}
        self.stopped_in: int | None = None
        """The cell (from 1) where the notebook stopped for good, if it did: the cells after it never ran."""
        self.stop_note = ""
        """Why it stopped there, in a sentence."""
        self.restarts = 0

    def run(self) -> None:
        """Start the process and run the cells; a cell that hangs the process stops the notebook there,
        and the process runs again with the cells before it (the exercises above still count)."""
        upto = len(self.cells)
        for _ in range(2):
            started = self._start(upto)
            if started.stopped_in is None:
                self.notes, self.described = started.notes, started.names
                return
            self.stopped_in = started.stopped_in
            self.stop_note = started.notes[started.stopped_in - 1]
            upto = started.stopped_in - 1
            self.notes = started.notes
        self.close()

    def _start(self, upto: int) -> _Started:
        self.close()
        worker = Confined("ipyminesweeper.classroom.notebook_worker", ANSWER_BYTES, {"MPLBACKEND": "Agg"})
        setup = {
            "cells": self.cells[:upto],
            "names": self.names,
            "library": self.library,
            "cell_seconds": self.limits.cell_seconds,
            "memory_mb": self.limits.memory_mb,
            "cpu_seconds": self.cpu_seconds,
            "read": read_roots(self.keep_out),
        }
        notes = [""] * len(self.cells)
        number = 0
        try:
            worker.start(setup)
            self.worker, self.clock = worker, StudentClock(worker.pid)
            deadline = self.clock.now() + self.limits.seconds
            ready = self._answer(60.0, deadline)
            self.held = [str(item)[:200] for item in ready.get("ready", {}).get("held", [])][:20]
            for number in range(1, upto + 1):
                answer = self._answer(_backstop(self.limits.cell_seconds), deadline)
                notes[number - 1] = str(answer.get("note", ""))[:500]
            names = self._answer(_backstop(self.limits.cell_seconds), deadline).get("names", {})
        except WorkerError as error:
            self.close()
            where = max(number, 1)
            notes[where - 1] = _stopped_note(error, where, self.limits)
            return _Started(notes, {}, where)
        return _Started(notes, names if isinstance(names, dict) else {})

    def _answer(self, seconds: float, deadline: float) -> dict[str, Any]:
        """The process's next answer, within ``seconds`` of its own time (:class:`StudentClock`: a
        busy machine does not count), and before its ``deadline`` (also its own time)."""
        assert self.worker is not None
        end = min(self.clock.now() + seconds, deadline)
        while (answer := self.worker.poll(0.25)) is None:
            if self.clock.now() > end:
                self.close()
                raise WorkerError("timeout", f"gave no answer within {seconds:g} s")
        self._saw(answer)
        return answer

    def _saw(self, answer: dict[str, Any]) -> None:
        seen = answer.get("seen", [])
        if isinstance(seen, list):
            for item in seen[:20]:
                said = str(item)[:200]
                if said not in self.seen and len(self.seen) < 40:
                    self.seen.append(said)

    def function(self, name: str) -> Remote | Foreign | None:
        """``name`` as the notebook defines it: a :class:`Remote` for a function or a class, a
        :class:`~..exercises.foreign.Foreign` for anything else, None if it is not defined."""
        said = self.described.get(name)
        if not isinstance(said, dict) or not said.get("defined"):
            return None
        if not said.get("callable"):
            return Foreign(str(said.get("type", "object"))[:60], str(said.get("repr", ""))[:300])
        shown = said.get("name")
        return Remote(self, name, shown if isinstance(shown, str) else name)

    def library_of(self, name: str) -> list[str]:
        """The library's answers that ``name`` is, or wraps, as the student's process said."""
        said = self.described.get(name, {})
        found = said.get("library", []) if isinstance(said, dict) else []
        return [str(item) for item in found if str(item) in self.library] if isinstance(found, list) else []

    def ask(self, request: dict[str, Any], seconds: float) -> dict[str, Any] | None:
        """The answer to ``request``, or None when the process failed (said in :attr:`problems`; the
        next request starts it again, once or twice)."""
        if self.worker is None and not self._revive():
            return None
        assert self.worker is not None
        try:
            answer = self.worker.ask(request, seconds)
        except WorkerError as error:
            self.problems.append(_failed(error))
            self.close()
            return None
        self._saw(answer)
        return answer

    def ask_each(self, request: dict[str, Any], count: int, seconds: float) -> Iterator[dict[str, Any]]:
        """The answers to a request of several calls, as they come (none once the process failed)."""
        if self.worker is None and not self._revive():
            return
        assert self.worker is not None
        try:
            for answer in self.worker.ask_each(request, count, seconds):
                self._saw(answer)
                yield answer
        except WorkerError as error:
            self.problems.append(_failed(error))
            self.close()

    def _revive(self) -> bool:
        """Start the process again after a failure (at most twice a notebook)."""
        if self.restarts >= 2 or not self.described:
            return False
        self.restarts += 1
        upto = self.stopped_in - 1 if self.stopped_in is not None else len(self.cells)
        return self._start(upto).stopped_in is None

    def forget(self) -> None:
        """Let the process drop the objects it made for the last check."""
        if self.worker is not None:
            self.ask({"forget": True}, 10.0)

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def _stopped_note(error: WorkerError, cell: int, limits: GradeLimits) -> str:
    if error.kind == "timeout":
        return (
            f"cell {cell} ran past its {_backstop(limits.cell_seconds):g} seconds without giving control "
            "back (a loop inside one call to C code?), or the notebook past its "
            f"{limits.seconds:g}: it was stopped there, and the cells after it did not run"
        )
    return f"the notebook's process stopped in cell {cell} ({error.message}): the cells after it did not run"


def _failed(error: WorkerError) -> str:
    return {
        "timeout": "a call gave no answer and the process had to be stopped",
        "crash": f"the process ended during a call ({error.message})",
        "too-large": f"an answer was too large ({error.message})",
    }.get(error.kind, f"the process sent what the grader cannot read ({error.message})")


class Remote(Elsewhere):
    """A function (or a class) of the student's notebook, called from the grader's checks: the arguments
    go as data, the answer comes back as data, decoded and checked here (:mod:`.wire`). It counts what a
    grader flags: the calls that returned their first argument unchanged (``same``), and, of the calls
    watched (``watched``), those that ran one of the library's own answers (``ran``)."""

    def __init__(self, notebook: Notebook, name: str, shown: str) -> None:
        self.notebook, self.student_name, self.__name__ = notebook, StudentName(name), shown
        self.calls = 0
        self.same = 0
        self.as_stub = 0
        self.stub: Callable[..., Any] | None = None
        """The course's stub of this function, made in the grader's process: each answer is compared."""
        self.watched = 0
        self.ran: Counter[str] = Counter()
        self.malformed = 0
        self.unreadable = ""
        """Why the first answer the grader could not read was so."""

    def __repr__(self) -> str:
        return f"<the notebook's {self.student_name.name}>"

    def __call__(self, *args: Any) -> Any:
        got = self.outcome(args, 2.0)
        if got.error is not None:
            raise got.error
        if got.timed_out:
            raise TimeoutError(f"{self.__name__} gave no answer within 2 seconds")
        return got.value

    def outcome(self, args: tuple[Any, ...], seconds: float) -> Outcome:
        """What the student's function answered to ``args``, within ``seconds`` of its own time."""
        request = {
            "call": {"name": self.student_name.name},
            "args": [encode_argument(a) for a in args],
            "seconds": seconds,
            "watch": self.notebook.library,
        }
        started = self.notebook.clock.now()
        answer = self.notebook.ask(request, _backstop(seconds))
        if answer is None:  # the process failed: the call is taken to have run out of time
            return Outcome(timed_out=True, seconds=seconds, after=args, used=seconds)
        used = max(0.0, self.notebook.clock.now() - started)
        self.calls += 1
        return self._read(answer, args, seconds, used)

    def outcomes(self, calls: Sequence[tuple[Any, ...]], seconds: float) -> list[Outcome]:
        """What the student's function answered to each of ``calls``, asked at once and answered one
        by one (the first that runs out of time is the last)."""
        request = {
            "call": {"name": self.student_name.name},
            "calls": [[encode_argument(a) for a in args] for args in calls],
            "seconds": seconds,
            "watch": self.notebook.library,
        }
        done: list[Outcome] = []
        started = self.notebook.clock.now()
        for answer in self.notebook.ask_each(request, len(calls), _backstop(seconds)):
            now = self.notebook.clock.now()
            used, started = max(0.0, now - started), now
            self.calls += 1
            done.append(self._read(answer, calls[len(done)], seconds, used))
        return done

    def _read(self, answer: dict[str, Any], args: tuple[Any, ...], seconds: float, used: float) -> Outcome:
        printed: dict[str, Any] = {
            "output": str(answer.get("output", ""))[:4000],
            "lines": _count(answer.get("lines")),
        }
        self.watched += answer.get("watched") is True
        for name in answer.get("used", []) if isinstance(answer.get("used"), list) else []:
            if isinstance(name, str) and name in self.notebook.library:
                self.ran[name] += 1
        if answer.get("timeout"):
            return Outcome(timed_out=True, seconds=seconds, after=args, used=used, **printed)
        error = answer.get("error")
        if isinstance(error, dict) and error.get("type") == "Unreadable":
            self._unread(str(error.get("message", ""))[:300])
        if isinstance(error, dict):
            raised = foreign_error(
                str(error.get("type", "Exception"))[:80], str(error.get("message", ""))[:2000]
            )
            trace = str(answer.get("traceback", ""))[-4000:]
            return Outcome(error=raised, trace=trace, after=args, used=used, **printed)
        try:
            value = decode_answer(answer.get("value"))
            after = _after(answer.get("after"), args)
        except Malformed as wrong:
            self._unread(f"the grader cannot read its answer: {wrong}")
            raised = ForeignError("UnreadableAnswer", self.unreadable)
            return Outcome(error=raised, after=args, used=used, **printed)
        if args and _same(value, args[0]):
            self.same += 1
        if self.stub is not None and _stub_answer(self.stub, args, value):
            self.as_stub += 1
        return Outcome(value, after=after, used=used, **printed)

    def _unread(self, why: str) -> None:
        self.malformed += 1
        self.unreadable = self.unreadable or why


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _after(data: object, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments as the call left them: those the student's process sent back, decoded, and the
    others (boards, views, positions: values no call can change) as they were."""
    if not isinstance(data, list) or len(data) != len(args):
        raise Malformed("not the arguments after the call")
    return tuple(arg if sent is None else decode_answer(sent) for sent, arg in zip(data, args, strict=True))


def _stub_answer(stub: Callable[..., Any], args: tuple[Any, ...], value: object) -> bool:
    """Whether ``value`` is what the stub answers to ``args`` (a move: the same action and cell), when the
    stub answers something (a law's stub answers None, as every law that holds does)."""
    try:
        expected = stub(*args)
    except Exception:
        return False
    if expected is None:
        return False
    if isinstance(expected, Move):
        return isinstance(value, Move) and (value.action, value.pos) == (expected.action, expected.pos)
    return _same(value, expected)


def _same(value: object, first: object) -> bool:
    """Whether an answer is its first argument unchanged: the same board, or the same object."""
    if isinstance(first, Foreign):
        return value == first
    try:
        return type(value) is type(first) and bool(value == first)
    except Exception:
        return False
