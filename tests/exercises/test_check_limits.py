"""Checks a class can rely on: a time limit on every call of the student's function, printing kept
aside, the same examples and verdicts whatever the Hypothesis version, and counts that read right."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import NoReturn, TypeVar

import pytest
from _wrong import counterexample_of

from ipyminesweeper import Board, Position, chord
from ipyminesweeper.exercises import check_chord, check_toggle_flag, search
from ipyminesweeper.exercises.limits import WAITING_FACTOR, Outcome, call
from ipyminesweeper.exercises.report import count
from ipyminesweeper.exercises.timelimit import is_library, watched

T = TypeVar("T")
Run = Callable[[Callable[[], Outcome]], Outcome]


def looping_chord(board: Board, pos: Position) -> Board:
    """The loop every class has: a while whose condition never changes."""
    while board.state(pos) is not None:
        pass
    return board  # never reached: a cell's state is never None


def stubborn_chord(board: Board, pos: Position) -> Board:
    """A loop that swallows whatever is raised in it, with a bare except."""
    while True:
        try:  # noqa: SIM105 - the point of the test
            time.sleep(0.001)
        except:  # noqa: E722
            pass


@pytest.mark.parametrize("loop", [looping_chord, stubborn_chord], ids=lambda f: f.__name__)
def test_a_loop_is_reported_within_ten_seconds_with_its_board(
    loop: Callable[[Board, Position], Board],
) -> None:
    start = time.perf_counter()
    check = check_chord(loop)
    took = time.perf_counter() - start
    assert took < 10, f"{took:.1f} s"
    assert not check
    example = counterexample_of(check)
    assert "gave no answer within 2 seconds (does it loop forever?)" in example.summary, example.summary
    assert isinstance(example.board, Board) and example.inputs[1] is not None
    assert "The check stopped after 3 examples" in str(check)


def on_the_main_thread(fn: Callable[[], T]) -> T:
    """``fn()`` run here, on the main thread: the limit has its alarm, as in CPython's kernel."""
    return fn()


def in_a_thread(fn: Callable[[], T]) -> T:
    """``fn()`` run in a thread of its own: the limit has no alarm there and traces calls, as in Pyodide."""
    found: list[T] = []
    worker = threading.Thread(target=lambda: found.append(fn()), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive()
    return found[0]


THREADS = sys.platform != "emscripten"
"""Whether a thread can be started (not in Pyodide, where the main thread's limit is the watched one)."""
RUNS = [on_the_main_thread, in_a_thread] if THREADS else [on_the_main_thread]


@pytest.mark.skipif(not THREADS, reason="no threads in Pyodide")
def test_a_loop_is_stopped_off_the_main_thread_too() -> None:
    """Where there is no alarm signal (the offline site's Pyodide, a thread), a trace function stops it."""
    start = time.perf_counter()
    found = in_a_thread(lambda: check_chord(looping_chord))
    assert time.perf_counter() - start < 10
    assert "gave no answer within" in counterexample_of(found).summary


def test_printing_is_kept_aside_and_shown_folded(capsys: pytest.CaptureFixture[str]) -> None:
    def talking_chord(board: Board, pos: Position) -> Board:
        print("chord at", pos)
        return chord(board, pos)

    check = check_chord(talking_chord)
    assert check and check.printed_lines == check.tried == 250
    assert capsys.readouterr().out == ""
    text, page = str(check), check._repr_html_()
    assert "talking_chord printed 250 lines during the check (kept aside)." in text
    assert text.count("| chord at") == 5
    assert "<details><summary>talking_chord printed 250 lines" in page


def test_the_verdicts_come_from_the_seeded_examples_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis only shrinks: with its search switched off, the verdicts, the properties and the
    number of examples tried are the same."""
    wrong = lambda board, pos: board  # noqa: E731 - a one-line wrong solution
    before = check_toggle_flag(wrong), check_chord(chord)

    def no_search(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("Hypothesis was asked to search")

    monkeypatch.setattr(search, "find", no_search)
    with pytest.raises(AssertionError, match="Hypothesis was asked"):
        vars(search)["find"]()  # the name the search module calls, now no_search
    monkeypatch.setattr(search, "_shrunk", lambda *args: None)
    after = check_toggle_flag(wrong), check_chord(chord)
    assert [bool(c) for c in after] == [bool(c) for c in before] == [False, True]
    assert [c.properties for c in after][1] == [c.properties for c in before][1]
    assert [p.held for p in after[0].properties] == [p.held for p in before[0].properties]
    assert [c.tried for c in after] == [c.tried for c in before] == [250, 250]


def test_the_same_function_gets_the_same_examples_every_time() -> None:
    seen: list[tuple[Board, Position]] = []

    def recording(board: Board, pos: Position) -> Board:
        seen.append((board, pos))
        return chord(board, pos)

    check_chord(recording)
    first = list(seen)
    seen.clear()
    check_chord(recording)
    assert seen == first and len(first) == 250


def test_counts_say_one_board_and_two_boards() -> None:
    assert [count(n, "board") for n in (0, 1, 2)] == ["0 boards", "1 board", "2 boards"]
    assert count(1, "property", "properties") == "1 property"
    assert count(3, "property", "properties") == "3 properties"


def test_limits_nest_a_check_inside_a_limited_cell() -> None:
    """The grader runs a student's cell within a limit, and the cell may run a check, whose calls have
    limits of their own: the inner limits end, the outer one still stops a loop after them."""

    def cell() -> None:
        check_chord(looping_chord)  # about 2.5 s of inner limits
        while True:
            pass

    start = time.process_time()  # the limits count processor time: a busy machine takes longer by the wall
    outcome = call(cell, seconds=6)
    took = time.process_time() - start
    assert outcome.timed_out and 5.5 < took < 8, took


@pytest.mark.skipif(not THREADS, reason="Pyodide has no timer: its limit counts the wall clock")
def test_the_limit_counts_computing_not_waiting() -> None:
    """A call that waits (a busy machine gives it no processor, or it sleeps) is not taken for a loop
    until the clock on the wall reaches WAITING_FACTOR times its limit; one that computes is stopped at
    its limit. (On the alarm's path: CPython's main thread.)"""

    def slow_but_done() -> str:
        time.sleep(1.0)
        return "done"

    def waits_forever() -> None:
        while True:
            time.sleep(0.01)

    def computes_forever() -> None:
        while True:
            pass

    assert call(slow_but_done, seconds=0.5).value == "done"
    start = time.perf_counter()
    assert call(waits_forever, seconds=0.5).timed_out
    assert 0.5 * WAITING_FACTOR - 0.1 < time.perf_counter() - start < 0.5 * WAITING_FACTOR + 1.5
    assert call(computes_forever, seconds=0.5).timed_out


@pytest.mark.parametrize("run", RUNS, ids=lambda f: f.__name__)
def test_the_limit_is_never_raised_inside_a_garbage_collector_callback(
    monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """Hypothesis runs Python code from the garbage collector. Raised there, the limit's exception would
    be lost (Python prints it as unraisable and goes on); it is raised at the student's next line."""
    lost: list[sys.UnraisableHookArgs] = []
    monkeypatch.setattr(sys, "unraisablehook", lost.append)

    def slow_callback(phase: str, info: dict[str, int]) -> None:
        end = time.perf_counter() + 0.01
        while time.perf_counter() < end:
            pass

    def hoarding_loop() -> None:
        kept: list[list[object]] = []
        while True:
            kept.append([])  # every few hundred lists a collection, and the callback

    gc.callbacks.append(slow_callback)
    try:
        outcome = run(lambda: call(hoarding_loop, seconds=0.3))
    finally:
        gc.callbacks.remove(slow_callback)
    assert outcome.timed_out
    assert not lost, [u.exc_type for u in lost]


@pytest.mark.parametrize("run", RUNS, ids=lambda f: f.__name__)
def test_the_limit_is_never_raised_inside_a_weakref_callback(
    monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """A key of a ``WeakKeyDictionary`` that dies runs the library's callback, from wherever the student's
    code was: raised there, the limit would be lost too. It waits for the student's next line."""
    lost: list[sys.UnraisableHookArgs] = []
    monkeypatch.setattr(sys, "unraisablehook", lost.append)

    class Key:
        pass

    def forgetting_loop() -> None:
        seen: weakref.WeakKeyDictionary[Key, int] = weakref.WeakKeyDictionary()
        while True:
            seen[Key()] = 1  # the key dies at once, and the dictionary's callback runs

    for _ in range(5):
        assert run(lambda: call(forgetting_loop, seconds=0.1)).timed_out
    assert not lost, [u.exc_type for u in lost]


@pytest.mark.parametrize("run", RUNS, ids=lambda f: f.__name__)
def test_the_limit_stops_deep_recursion_and_leaves_what_it_returns_alone(run: Run) -> None:
    """A student's function that calls itself, deep, and one that calls itself forever: the first is
    answered, the second stopped, wherever the limit runs."""

    def depth(n: int) -> int:
        return 0 if n == 0 else 1 + depth(n - 1)

    def forever(n: int) -> None:
        while True:
            depth(n)

    assert run(lambda: call(depth, 500, seconds=5)).value == 500
    assert run(lambda: call(forever, 300, seconds=0.3)).timed_out


def swallowing_loops() -> None:
    """Loops in loops, each with a bare ``except:``: the limit must get out of every one of them."""
    while True:
        try:
            while True:
                try:  # noqa: SIM105 - the point of the test
                    pass
                except:  # noqa: E722
                    pass
        except:  # noqa: E722
            pass


def swallowing_recursion(depth: int) -> None:
    """A recursion that catches everything, RecursionError too, and calls itself again: without the
    limit, a tree of calls a thousand deep that never ends."""
    try:
        swallowing_recursion(depth + 1)
    except:  # noqa: E722
        swallowing_recursion(depth + 1)


def swallowing_calls(depth: int) -> None:
    """Calls without a loop, 2**40 of them in a tree 40 deep, each catching everything and calling
    again: no end in practice, and exceptions chained no more than 40 long."""
    try:
        if depth < 40:
            swallowing_calls(depth + 1)
            swallowing_calls(depth + 1)
    except:  # noqa: E722
        swallowing_calls(depth + 1)


PYODIDE_STACK = pytest.mark.skipif(
    sys.platform == "emscripten",
    reason="Pyodide's stack holds no chain of a thousand exceptions: this code kills its kernel "
    "(RangeError: Maximum call stack size exceeded) with no limit around it",
)
GUESTS = [swallowing_loops, swallowing_calls, pytest.param(swallowing_recursion, marks=PYODIDE_STACK)]


@pytest.mark.skipif(not watched(), reason="Python 3.11 traces lines, and stops tracing after a raise")
@pytest.mark.parametrize("run", RUNS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("guest", GUESTS, ids=lambda f: f.__name__)
def test_a_bare_except_cannot_hold_the_limit(run: Run, guest: Callable[..., None]) -> None:
    """Past its time, the limit is raised again at each backward jump and call of the guest's code
    until the call returns: each ``except:`` that swallows it meets it again, in loops of loops, in
    a tree of calls and in a recursion. (Python 3.10 and 3.11 hold a bare ``except:`` in one loop
    only, on the main thread.)"""
    args = () if guest is swallowing_loops else (0,)
    assert run(lambda: call(guest, *args, seconds=0.3)).timed_out


def test_the_library_is_told_from_the_students_code() -> None:
    """Only the student's code is watched and interrupted: the standard library (a zip file in
    Pyodide), the installed packages and this package are not."""
    import hypothesis

    import ipyminesweeper

    assert is_library(weakref.WeakKeyDictionary.__init__.__code__)
    assert is_library(hypothesis.find.__code__)
    assert is_library(ipyminesweeper.chord.__code__)
    assert not is_library(looping_chord.__code__)


@pytest.mark.skipif(not THREADS, reason="Pyodide has no timer")
def test_a_ring_before_the_time_is_up_does_not_stop_the_call() -> None:
    """A timer's signal left over from the call before (it rang as that call ended) must not stop the
    next one: the limit's own clocks decide."""

    def rings_itself() -> str:
        os.kill(os.getpid(), signal.SIGALRM)
        os.kill(os.getpid(), signal.SIGPROF)
        return "done"

    assert call(rings_itself, seconds=5).value == "done"
