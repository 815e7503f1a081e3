"""Work off the kernel's thread: a computation in a worker thread that the runtime awaits, times and stops.

The widget computes the autoplayer's moves here, so the kernel stays free while a strategy thinks: a
Pause, a click or a new cell is handled at once. Python cannot kill a thread, but a :class:`Job` can be
abandoned (its result dropped) and asked to stop: :meth:`Job.stop` raises :class:`Stopped` inside the
thread at its next Python instruction, so a pure-Python loop ends at once and a call into C (such as
``time.sleep``) ends when it returns. :class:`Stopped` is a ``BaseException``, as ``KeyboardInterrupt`` is,
so an ``except Exception`` in a strategy does not swallow it.

:class:`InterruptGuard` lets the kernel's interrupt (Jupyter's stop button) stop the autoplayer: an idle
kernel ignores SIGINT, so while a widget autoplays the guard handles it.

A runaway thread: a strategy that catches ``BaseException`` and goes on, or a call into C that never
returns, keeps its thread running after :meth:`Job.stop`. Nothing waits for it: its result is dropped when
it comes, the session it started from is unchanged, the widget has said which strategy was stopped and
after how long, and the thread is a daemon, so it ends with the kernel (restart the kernel to get its CPU
back). A call into C that holds the GIL and never returns blocks the whole kernel: only a restart helps.

Where no thread can be started (Pyodide) a job runs at once, in the caller's thread.
"""

from __future__ import annotations

import asyncio
import ctypes
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import suppress
from types import FrameType
from typing import Any, Generic, TypeVar

__all__ = ["GUARD", "InterruptGuard", "Job", "Stopped"]

T = TypeVar("T")


class Stopped(BaseException):
    """Raised inside a worker thread to stop its work (a strategy past its time limit, a Pause)."""


class Job(Generic[T]):
    """``work()`` running in a daemon thread, its result awaited on the event loop ``loop``."""

    def __init__(self, work: Callable[[], T], loop: asyncio.AbstractEventLoop, name: str = "work") -> None:
        self.started = time.monotonic()
        self._loop = loop
        self._future: asyncio.Future[T] = loop.create_future()
        self._ident: int | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._outcome: tuple[T] | BaseException | None = None
        self._abandoned = False
        if sys.platform == "emscripten":  # Pyodide: no threads, the work runs now, in this thread
            self._run(work)
            return
        try:
            thread = threading.Thread(
                target=self._run, args=(work,), name=f"ipyminesweeper {name}", daemon=True
            )
            thread.start()
        except (RuntimeError, OSError):  # no thread can be started here: the work runs now
            self._run(work)

    @property
    def seconds(self) -> float:
        """How long the job has run."""
        return time.monotonic() - self.started

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._abandoned

    def _run(self, work: Callable[[], T]) -> None:
        future = self._future
        with self._lock:
            self._ident = threading.get_ident()
        try:
            try:
                result = work()
            except BaseException as error:  # handed to the awaiting side, whatever it is
                failed = error
                self._outcome = failed
                self._done.set()
                self._hand_over(lambda: future.set_exception(failed))
            else:
                self._outcome = (result,)
                self._done.set()
                self._hand_over(lambda: future.set_result(result))
            finally:
                with self._lock:  # from here on stop() leaves this thread alone
                    self._ident = None
        except Stopped:  # asked to stop just as it finished: nobody waits for it
            pass

    def _hand_over(self, settle: Callable[[], None]) -> None:
        def settle_if_awaited() -> None:
            if not (self._future.done() or self._abandoned):
                settle()

        with suppress(RuntimeError):  # the loop closed meanwhile: nobody waits for this result
            self._loop.call_soon_threadsafe(settle_if_awaited)

    async def result(self, timeout: float | None = None) -> T:
        """The result (or the exception) of the work; TimeoutError past ``timeout`` seconds from the
        start (the job keeps running: :meth:`stop` it)."""
        left = None if timeout is None else max(0.0, timeout - self.seconds)
        return await asyncio.wait_for(asyncio.shield(self._future), left)

    async def ended(self, seconds: float) -> bool:
        """Whether the work ends within ``seconds``, awaited on the event loop (the job keeps running)."""
        done, _ = await asyncio.wait({self._future}, timeout=seconds)
        return bool(done)

    def wait(self, seconds: float) -> bool:
        """Block up to ``seconds`` for the work to end (on the loop's own thread: a short wait only);
        whether it did. :meth:`outcome` then gives its result."""
        return self._done.wait(seconds)

    def outcome(self) -> T:
        """The result of ended work, or its exception raised (:meth:`wait` first)."""
        outcome = self._outcome
        if outcome is None:
            raise RuntimeError("the work has not ended")
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome[0]

    def stop(self) -> None:
        """Raise :class:`Stopped` in the job's thread (at its next Python instruction); whoever awaits
        the result should then drop it."""
        self._abandoned = True
        setter = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
        with self._lock:  # the thread is still running the work (its id is not yet another thread's)
            ident = self._ident
            if ident is not None and ident != threading.get_ident() and setter is not None:
                setter(ctypes.c_ulong(ident), ctypes.py_object(Stopped))


class InterruptGuard:
    """While a widget holds it, SIGINT (the kernel's interrupt) calls the widget's ``on_interrupt``.

    An idle Jupyter kernel ignores SIGINT, so without the guard the stop button could not stop an
    autoplayer that runs between cells. The handler is installed from the event loop (ipykernel restores
    its own handler after each message it handles, so :meth:`hold` may be called again to install it
    anew) and is harmless once stale: with no holder it does what the handler before it did.
    """

    def __init__(self) -> None:
        self._holders: weakref.WeakKeyDictionary[Any, Callable[[], None]] = weakref.WeakKeyDictionary()
        self._before: Any = signal.SIG_DFL
        self._loop: asyncio.AbstractEventLoop | None = None

    def hold(self, holder: Any, on_interrupt: Callable[[], None], loop: asyncio.AbstractEventLoop) -> None:
        """Call ``on_interrupt`` (on ``loop``) when SIGINT arrives, until :meth:`release`."""
        self._holders[holder] = on_interrupt
        self._loop = loop
        if threading.current_thread() is not threading.main_thread():
            return
        try:
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler:
                return  # SIGINT raises KeyboardInterrupt here already (a script, a running cell)
            if current != self.handle:
                self._before = current
                signal.signal(signal.SIGINT, self.handle)
        except (ValueError, OSError, AttributeError):  # no signals here (Pyodide)
            pass

    def release(self, holder: Any) -> None:
        """Stop calling ``holder`` back."""
        self._holders.pop(holder, None)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler: each holder is called back on its loop (never inside the code the signal
        interrupted); with none, the handler from before runs."""
        holders = list(self._holders.values())
        if holders and self._loop is not None:
            for on_interrupt in holders:
                self._loop.call_soon_threadsafe(on_interrupt)
            return
        if callable(self._before):
            self._before(signum, frame)


GUARD = InterruptGuard()
"""The one guard of the process (there is one SIGINT handler)."""
