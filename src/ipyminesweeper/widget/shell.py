"""The shell's own state, in the session, and the update the runtime calls: the game's, and the shell's.

:func:`update` is :func:`.session.update` (the game) plus what the shell keeps in the session:

- **slow work**: :func:`is_slow` says which messages may hold the kernel long (a strategy call, the
  overlay's analysis, a no-guess search, or a move on a big board). The runtime (:mod:`.runtime`)
  computes those in a worker thread; ``Began``, ``Working``, ``Finished`` and ``Stopped`` keep the
  session's ``work`` in step. While the kernel works for the browser, the browser's next requests wait
  in ``waiting`` (a Cancel stops the work), and whatever changes the game meanwhile wins: the work's
  result is then dropped (``stale``). A Pause, or the end of the autoplayer's run, ends its move's work;
- **the board on the wire**: each change of the view on screen bumps ``wire`` (:mod:`.board_wire`),
  with a patch when the change comes from the browser or the autoplayer's timer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..engine import format_position
from . import messages as msg
from . import session as game
from .board_wire import board_change
from .effects import Effect, Log, Replay, ResendBoard
from .messages import Message, MessageError
from .session import Problem, Session, Work, autoplayer_name

__all__ = ["DROPPED_NOTICE", "SLOW_CELLS", "describe", "is_slow", "update", "update_all"]

SLOW_CELLS = 100_000
"""A move on a board of this many cells or more may take longer than the kernel should be held (a cascade
over 4,000,000 cells takes seconds): it is slow work."""
DROPPED_NOTICE = 1.0
"""A strategy that a Pause stops after thinking this many seconds or more is named in the widget."""

Outcome = tuple[Session, tuple[Effect, ...]]


def update(session: Session, message: Message, *, now: int = 0) -> Outcome:
    """The session after ``message``, and the effects to perform: :func:`.session.update`, and the shell's
    own state kept in step (raises as it does)."""
    work = session.work
    match message:
        case msg.Began(started, since):
            request = started.request if isinstance(started, msg.FromBrowser) else None
            begun = Work(describe(started), request, since, autoplay=isinstance(started, msg.AutoStep))
            return replace(session, work=begun), ()
        case msg.Working():
            return session if work is None else replace(session, work=_counted(work, now)), ()
        case msg.Finished(outcome):
            return _finished(session, outcome, now)
        case msg.Stopped(why):
            return _stopped(session, why, now)
        case msg.Settle(version) if version == session.wire.version and session.wire.patch is not None:
            return replace(session, wire=replace(session.wire, patch=None)), (ResendBoard(),)
        case msg.Settle():  # a move came meanwhile: its own timer follows
            return session, ()
        case msg.FromBrowser() if work is not None and not work.autoplay:
            return _while_working(session, message, now)
    after, effects = game.update(session, message, now=now)
    return _followed(session, (after, effects), message, now)


def update_all(session: Session, messages: Iterable[Message], *, now: int = 0) -> Outcome:
    """``messages`` one after the other, all or nothing: the last session and every effect, in order."""
    effects: tuple[Effect, ...] = ()
    for message in messages:
        session, more = update(session, message, now=now)
        effects += more
    return session, effects


def is_slow(session: Session, message: Message) -> bool:
    """Whether ``message`` may hold the kernel long: a strategy call, the probability overlay's analysis,
    a no-guess search, or a move on a board of :data:`SLOW_CELLS` cells or more. The shell's own messages
    and a request that only waits are fast."""
    match message:
        case msg.FromBrowser(messages):
            work = session.work
            return (work is None or work.autoplay) and any(is_slow(session, m) for m in messages)
        case msg.Step() | msg.Hint() | msg.AutoStep():
            return True
        case msg.Began() | msg.Working() | msg.Finished() | msg.Stopped() | msg.Settle() | msg.Refused():
            return False
        case msg.ShowProbabilities(on):
            return on
        case msg.NewGameOf(rows=int(rows), cols=int(cols)) if rows * cols >= SLOW_CELLS:
            return True
    board = session.board
    if session.settings.show_probabilities or board.rows * board.cols >= SLOW_CELLS:
        return True
    return isinstance(message, msg.Reveal) and board.status == "ready" and board.first_click == "no-guess"


def describe(message: Message) -> str:
    """A message in a few words, for the busy line: ``"hint"``, ``"new game"``, ``"reveal (4,7)"``."""
    parts = message.messages if isinstance(message, msg.FromBrowser) else (message,)
    words = []
    for part in parts:
        name = part.action or ("autoplayer move" if isinstance(part, msg.AutoStep) else "setting")
        pos = getattr(part, "pos", None)
        words.append(name.replace("_", " ") + ("" if pos is None else f" {format_position(pos)}"))
    return ", ".join(words)


def _counted(work: Work, now: int) -> Work:
    return replace(work, seconds=max(0, now - work.started_at) // 1000)


def _followed(before: Session, outcome: Outcome, message: Message, now: int) -> Outcome:
    """``outcome`` with the board's version on the wire, and the work under way told that the game changed
    (a Pause or the end of the run ends the autoplayer's move, named if it had thought long)."""
    after, effects = outcome
    if after is before:
        return outcome
    if after.history is not before.history or after.viewing != before.viewing:
        patch = isinstance(message, (msg.FromBrowser, msg.AutoStep))
        change = board_change(
            before.shown.view.cells, after.shown.view.cells, before.wire.version, whole=not patch
        )
        if change is not None:
            after = replace(after, wire=change)
    work = before.work
    if work is None:
        return after, effects
    if work.autoplay and not after.autoplaying:
        seconds = max(0, now - work.started_at) / 1000
        if seconds < DROPPED_NOTICE:
            return replace(after, work=None), effects
        stopped = msg.StrategyStopped(autoplayer_name(before), seconds, "dropped", before.time_limit)
        after, more = game.update(replace(after, work=None), stopped, now=now)
        return after, (*effects, *more)
    return replace(after, work=replace(work, stale=True)), effects


def _while_working(session: Session, message: msg.FromBrowser, now: int) -> Outcome:
    """A request while the kernel works for the browser: it waits its turn, or, a Cancel, stops the work
    and drops the requests waiting for it."""
    work = session.work
    assert work is not None
    if not any(isinstance(m, msg.Cancel) for m in message.messages):
        return replace(session, waiting=(*session.waiting, message)), ()
    dropped = len(session.waiting)
    also = f"; {dropped} later request{'s' if dropped > 1 else ''} dropped" if dropped else ""
    seconds = max(0, now - work.started_at) / 1000
    text = f"cancelled: {work.what} after {seconds:.1f} s; the game is as it was{also}"
    return game.update(
        replace(session, work=None, waiting=()), msg.Refused(MessageError(text), message.request)
    )


def _finished(session: Session, outcome: Outcome, now: int) -> Outcome:
    """The work ended: its result, if the game did not change meanwhile; then the requests that waited."""
    work = session.work
    if work is None:  # stopped meanwhile
        return session, ()
    replay: tuple[Effect, ...] = (Replay(session.waiting),) if session.waiting else ()
    if not work.stale:
        after, effects = outcome
        return replace(after, waiting=()), (*effects, *replay)
    idle = replace(session, work=None, waiting=())
    if work.request is None:
        return idle, replay
    late = MessageError(f"{work.what}: dropped, the game changed while the kernel worked on it")
    refused, effects = game.update(idle, msg.Refused(late, work.request), now=now)
    return refused, (*effects, *replay)


def _stopped(session: Session, why: str, now: int) -> Outcome:
    """The shell stopped the work (past its time limit, or the kernel's interrupt) and the autoplayer."""
    work = session.work
    if work is None and not session.autoplaying:
        return session, ()
    seconds = 0.0 if work is None else max(0, now - work.started_at) / 1000
    idle = replace(session, work=None, waiting=())
    if work is not None and not work.autoplay:
        text = f"interrupted: {work.what} after {seconds:.1f} s; the game is as it was"
        return replace(idle, problem=Problem(text), handled=session.taken, autoplay=None), (Log(text),)
    stopped = msg.StrategyStopped(autoplayer_name(session), seconds, why, session.time_limit)
    return game.update(idle, stopped, now=now)
