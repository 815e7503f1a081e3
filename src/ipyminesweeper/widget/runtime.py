"""The runtime: a widget run as Elm runs a program.

Two frozen values describe a widget: the game (:class:`~.session.Session`) and the runtime's own books
(:class:`~.runtime_state.RuntimeState`). Every change is a message through
:func:`.runtime_state.runtime_update` (which hands the game's messages to :func:`.session_update.update`);
:func:`.render.render` turns both into the synced traitlets, one loop performs the effects (each says
how, and which messages report its result: :mod:`.effects`), and the timers follow
:func:`.subscriptions.subscriptions`. One scheduler, :meth:`run`: a call from Python or a fast message
runs at once on the kernel's thread; a slow one (:func:`.runtime_state.is_slow`) is computed in a worker
thread (:mod:`.jobs`), holding the kernel at most :data:`FOREGROUND` seconds, then in the background as
the runtime's ``work``. The runtime keeps only the resources its state describes (that thread, the
timers), and makes them match it after each change.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from typing import Any, NamedTuple

import anywidget

from . import messages as msg
from .board_wire import outgoing
from .effects import Effect, LoadStats, StatsStore
from .jobs import GUARD, Job
from .messages import Message, from_browser
from .render import render, snapshot_html
from .runtime_state import (
    IDLE,
    Began,
    Finished,
    Refused,
    RuntimeState,
    Working,
    WorkStopped,
    is_slow,
    runtime_update,
)
from .session import Session
from .subscriptions import Every, subscriptions

__all__ = ["FOREGROUND", "Runtime"]

FOREGROUND = 0.25
"""How long, in seconds, a browser request's slow work may hold the kernel before it goes on in the
background (the widget then shows it, ``busy``, with a Cancel)."""

Shown = tuple[RuntimeState, Session, tuple[Effect, ...], dict[str, Any]]
"""The runtime's state, the game, the effects to perform, and the synced traitlets for them."""


def now_ms() -> int:
    """The time of a message: epoch milliseconds."""
    return int(time.time() * 1000)


class Runtime(anywidget.AnyWidget):
    """An anywidget run by messages: the base of :class:`~ipyminesweeper.Minesweeper`."""

    def _start(self, session: Session, store: StatsStore) -> None:
        """Show ``session`` and load the statistics from ``store`` (before the comm opens)."""
        self._session, self._state, self._store = session, IDLE, store
        self._job: Running | None = None  # the worker thread of the state's work
        self._timers: dict[Every, asyncio.Task[None]] = {}
        self._showing = False
        self.last_error: BaseException | None = None
        """The last exception a message raised (a rejected call, or a failing strategy), for debugging."""
        self._commit((self._state, session, (LoadStats(),), self._synced(session, self._state)), python=True)

    @property
    def session(self) -> Session:
        """The current :class:`~ipyminesweeper.widget.session.Session` (an immutable value)."""
        return self._session

    @property
    def runtime_state(self) -> RuntimeState:
        """The runtime's own books (:class:`~ipyminesweeper.widget.runtime_state.RuntimeState`)."""
        return self._state

    @property
    def store(self) -> StatsStore:
        """Where finished games are kept."""
        return self._store

    def send(self, *messages: Message) -> Session:
        """Apply ``messages`` in order, all or nothing, at once, and show the result; the new session.
        If one is rejected, or the new session cannot be shown, it raises and nothing changes."""
        state, session, now = self._state, self._session, now_ms()
        effects: tuple[Effect, ...] = ()
        try:
            for message in messages:
                state, session, more = runtime_update(state, session, message, now=now)
                effects += more
            synced = self._synced(session, state)
        except Exception as exc:
            self.last_error = exc
            raise
        self._commit((state, session, effects, synced), python=True)
        return self._session

    def run(self, message: Message, *, python: bool = False, foreground: float = FOREGROUND) -> None:
        """``message`` with no caller to raise to (the browser, a timer, a reply): never raises."""
        loop = _running_loop()
        if python or loop is None or not is_slow(self._state, self._session, message):
            self._commit(self._shown(self._state, self._session, message, now_ms()), python=python)
            return
        state, session, started = self._state, self._session, now_ms()
        job = Job(lambda: self._shown(state, session, message, started), loop, type(message).__name__)
        if job.wait(foreground):
            self._commit(job.outcome())
            return
        self.run(Began(message, started))
        self._job = Running(job, loop.create_task(self._await(job)), started)
        GUARD.hold(self, lambda: self.run(WorkStopped("interrupt")), loop)

    def follow_timers(self) -> asyncio.Task[None] | None:
        """The task of the session's first timer; with no event loop (a script), its messages at once until
        the session asks for no timer, raising what a message failed with."""
        while not self._timers and subscriptions(self._session, self._state):
            self.run(subscriptions(self._session, self._state)[0].message)
            problem = self._session.problem
            if problem is not None and problem.error is not None:
                raise problem.error
        return next(iter(self._timers.values()), None)

    def set_state(self, sync_data: Any) -> None:
        """State from the browser (untrusted): its settings and its new ``requests``, each a message."""
        messages, requests = from_browser(sync_data, self._state.taken)
        if requests is not None:  # kept as ipywidgets keeps any value the front end writes (no echo)
            super().set_state({"requests": requests})
        for message in messages:
            self.run(message)

    def send_state(self, key: str | Iterable[str] | None = None) -> None:
        """Send state to the browser: the board goes whole or as a patch (:func:`.board_wire.outgoing`)."""
        if key is not None:
            board = {name: getattr(self, name) for name in ("board_patch", "cells_version")}
            key = outgoing([key] if isinstance(key, str) else key, board)
        super().send_state(key)

    def resend(self, names: Iterable[str]) -> None:
        """Send the synced traitlets ``names`` again (the browser's copy is stale)."""
        self.send_state([name for name in names if name in self.keys])

    def _repr_html_(self) -> str:
        """A small snapshot of the view, saved in the notebook for viewers without widgets."""
        return snapshot_html(self._session)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with its ``repr`` and ``_repr_html_`` for viewers without widgets."""
        parent = getattr(super(), "_repr_mimebundle_", None)
        view = {
            "version_major": 2,
            "version_minor": 0,
            "model_id": self.model_id,
        }  # ipywidgets 7 has no parent
        bundle = parent(**kwargs) if parent else ({"application/vnd.jupyter.widget-view+json": view}, {})
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            data["text/plain"] = repr(self)
            data["text/html"] = self._repr_html_()
        return bundle

    def _shown(self, state: RuntimeState, session: Session, message: Message, now: int) -> Shown:
        """What ``message`` makes of ``state`` and ``session``, rendered and checked; if that fails, the
        ``Refused`` ones (the same pure functions in the kernel's thread or a worker)."""
        try:
            after_state, after, effects = runtime_update(state, session, message, now=now)
            return after_state, after, effects, self._synced(after, after_state)
        except Exception as exc:
            request = message.request if isinstance(message, msg.FromBrowser) else None
            after_state, after, effects = runtime_update(state, session, Refused(exc, request), now=now)
            return after_state, after, effects, self._synced(after, after_state)

    def _synced(self, session: Session, state: RuntimeState) -> dict[str, Any]:
        """The synced traitlets for ``session`` and ``state``, checked before anything changes: each changed
        value is what its traitlet accepts and is strict JSON (no NaN or infinity). Raises otherwise."""
        synced = render(session, state)
        traits = self.traits()
        for name, value in synced.items():
            if isinstance(value, (str, bool, bytes)) or getattr(self, name) == value:
                continue
            traits[name].validate(self, value)
            json.dumps(value, allow_nan=False)
        return synced

    def _commit(self, shown: Shown, python: bool = False) -> None:
        """The one way the widget changes: keep the runtime's state and the session, show them, perform the
        effects, and make the worker thread and the timers match them."""
        state, session, effects, synced = shown
        before, self._session, self._state = self._session, session, state
        if session.problem is not None and session.problem is not before.problem:
            self.last_error = session.problem.error
        self._showing = True
        try:
            with self.hold_sync():
                for name, value in synced.items():  # render() puts status last
                    if getattr(self, name) != value:
                        self.set_trait(name, value)
        finally:
            self._showing = False
        self._perform(effects, python)
        self._follow()

    def _perform(self, effects: Iterable[Effect], python: bool) -> None:
        """Perform every effect, and run the messages that report their results."""
        for effect in effects:
            for reply in effect.perform(self):
                self.run(reply, python=python)

    def _follow(self) -> None:
        """Stop the worker whose work the session no longer has, and the timers it no longer asks for;
        start the timers it asks for."""
        wanted = subscriptions(self._session, self._state)
        for sub in [sub for sub in self._timers if sub not in wanted]:
            _cancel(self._timers.pop(sub))
        running, work = self._job, self._state.work
        if running is not None and (work is None or work.started_at != running.started):
            self._job = None
            running.job.stop()
            _cancel(running.waiter)
        if not wanted and self._job is None:
            GUARD.release(self)
        loop = _running_loop()
        for sub in wanted:
            if loop is not None and sub not in self._timers:
                self._timers[sub] = loop.create_task(self._every(sub))

    async def _await(self, job: Job[Shown]) -> None:
        """Wait for the work, counting its seconds; past the time limit (the autoplayer's move), stop it.
        Its outcome is a message, ``Finished``."""
        work = self._state.work
        limit = self._state.time_limit if work is not None and work.autoplay else None
        while not await job.ended(1.0 if limit is None else max(0.0, min(1.0, limit - job.seconds))):
            if limit is not None and job.seconds >= limit:
                self.run(WorkStopped("time limit"))
                return
            self.run(Working())
        if self._job is not None and self._job.job is job:
            self.run(Finished(job.outcome()[:3]))

    async def _every(self, sub: Every) -> None:
        """A timer: ``sub.message`` when no work is under way, then ``sub.seconds`` after each was handled,
        while the session asks for it (a change of the session cancels it)."""
        me = asyncio.current_task()
        try:
            await asyncio.sleep(sub.seconds if sub.later else 0)
            while self._timers.get(sub) is me:
                await self._idle()
                if self._timers.get(sub) is me:
                    self.run(sub.message, foreground=0)
                await self._idle()
                await asyncio.sleep(sub.seconds)
        except asyncio.CancelledError:
            pass  # stopped by a change of the session: the run is over, not failed

    async def _idle(self) -> None:
        """Until no work is under way."""
        while self._job is not None:
            await asyncio.wait({self._job.waiter})


class Running(NamedTuple):
    """The worker thread of the session's work: its ``job``, the task that awaits it, when it started."""

    job: Job[Shown]
    waiter: asyncio.Task[None]
    started: int


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # no event loop (a script, a test): everything runs at once
        return None


def _cancel(task: asyncio.Task[None]) -> None:
    """Cancel ``task``, unless it is the one running (a timer that ends its own run stops by itself)."""
    try:
        current = asyncio.current_task()
    except RuntimeError:
        current = None
    if task is not current:
        task.cancel()
