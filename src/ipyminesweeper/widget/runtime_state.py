"""The runtime's own bookkeeping, apart from the game: a frozen :class:`RuntimeState` and its pure update.

Elm's runtime keeps its own books out of the program's model; so does this one. The game is the
:class:`~.session.Session`, changed by :func:`.session_update.update`.
What the runtime must remember to talk to the browser and to run slow work is here:

- **requests**: the id of the last browser request answered (``handled``), and the requests ``waiting``
  while the kernel works for an earlier one. A request's messages apply all or nothing, and a rejected
  one shows its problem in the widget instead of raising (the browser has no caller to raise to);
- **slow work**: :func:`is_slow` says which messages may hold the kernel long (a strategy call, the
  overlay's analysis, a no-guess search, a move on a big board). The runtime (:mod:`.runtime`) computes
  those in a worker thread; :class:`Began`, :class:`Working`, :class:`Finished` and :class:`WorkStopped`
  keep the ``work`` in step. Whatever changes the game meanwhile wins: the work's result is then dropped
  (``stale``). A Pause, or the end of the autoplayer's run, ends its move's work; ``time_limit`` is how
  long the autoplayer's strategy may think over one move;
- **the board on the wire**: each change of the view on screen bumps ``wire`` (:mod:`.board_wire`),
  with a patch when the change comes from the browser or the autoplayer's timer.

:func:`runtime_update` is the runtime's one pure function: ``(state, session, message, now) -> (state,
session, effects)``. It hands every game message to the game's ``update``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.errors import quote
from ..engine.geometry import format_position
from . import messages as msg
from .board_wire import BoardChange, board_change
from .effects import Effect, ResendBoard, ResendSettings, RunWaiting
from .messages import GameMessage, Message, MessageError, RuntimeMessage
from .session import Problem, Session, problem_of
from .session_update import update
from .transitions import autoplayer_name

__all__ = [
    "DROPPED_NOTICE",
    "IDLE",
    "SLOW_CELLS",
    "STRATEGY_TIME_LIMIT",
    "Began",
    "Finished",
    "Refused",
    "RuntimeState",
    "Settle",
    "Stepped",
    "Work",
    "WorkStopped",
    "Working",
    "in_words",
    "is_slow",
    "runtime_update",
]

STRATEGY_TIME_LIMIT = 5.0
"""How long, in seconds, a strategy may think over one autoplayer move by default."""
SLOW_CELLS = 100_000
"""A move on a board of this many cells or more may take longer than the kernel should be held (a cascade
over 4,000,000 cells takes seconds): it is slow work."""
DROPPED_NOTICE = 1.0
"""A strategy that a Pause stops after thinking this many seconds or more is named in the widget."""


@dataclass(frozen=True)
class Work:
    r"""A slow message the runtime computes in a worker thread: ``what`` it is in a few words, the browser
    ``request`` it answers (None: none), since when (``started_at``, epoch ms), the whole ``seconds`` it
    has run as last counted, whether it is the ``autoplay``\ er's move, and whether the game changed
    meanwhile (``stale``: its result is then dropped)."""

    what: str
    request: int | None
    started_at: int
    seconds: int = 0
    autoplay: bool = False
    stale: bool = False


@dataclass(frozen=True)
class RuntimeState:
    """What the runtime keeps besides the game: the last browser request answered (``handled``), the
    ``work`` under way in a worker thread, the requests ``waiting`` for it, the autoplayer's
    ``time_limit`` (seconds), and ``wire``, the version of the view on screen and its last change as a
    patch (:mod:`.board_wire`)."""

    handled: int = 0
    work: Work | None = None
    waiting: tuple[msg.FromBrowser, ...] = ()
    time_limit: float = STRATEGY_TIME_LIMIT
    wire: BoardChange = field(default_factory=BoardChange)

    @property
    def taken(self) -> int:
        """The highest browser request id taken in: answered, under way, or waiting."""
        ids = [self.handled, self.work.request if self.work else None, *(m.request for m in self.waiting)]
        return max(i for i in ids if i is not None)


IDLE = RuntimeState()
"""The runtime's state when a widget starts: no request answered, no work under way, the whole board."""


# --- the runtime's own messages: the work under way, and the board on the wire -----------------------


@dataclass(frozen=True)
class Began(RuntimeMessage):
    """The runtime runs ``message`` (a slow one) in a worker thread since ``since`` (epoch ms)."""

    message: Message
    since: int


@dataclass(frozen=True)
class Working(RuntimeMessage):
    """The work under way goes on: the busy line counts its seconds."""


@dataclass(frozen=True)
class Finished(RuntimeMessage):
    """The work under way ended with ``outcome``: what :func:`runtime_update` gave for it."""

    outcome: tuple[Any, Any, tuple[Any, ...]]


@dataclass(frozen=True)
class WorkStopped(RuntimeMessage):
    """The runtime stopped the work under way: past the time limit, or on the kernel's interrupt."""

    why: str


@dataclass(frozen=True)
class Settle(RuntimeMessage):
    """The moves sent as patches have paused at board ``version``: send the whole board (see
    :mod:`.board_wire`), so the browser's copy of the state is whole again."""

    version: int


@dataclass(frozen=True)
class Refused(RuntimeMessage):
    """A message the runtime could not apply or show (its session failed to render, or was not strict
    JSON): the game stays, shows ``error``, the autoplayer stops, and browser request ``request`` (if
    any) counts as answered."""

    error: BaseException
    request: int | None = None


Stepped = tuple[RuntimeState, Session, tuple[Effect, ...]]
"""The runtime's state, the game's session and the effects to perform, after a message."""


def runtime_update(state: RuntimeState, session: Session, message: Message, *, now: int = 0) -> Stepped:
    """The runtime's state and the game after ``message`` (the game's own messages go to ``update``),
    and the effects to perform; ``now`` is the time of the message in epoch milliseconds.

    Raises what ``update`` raises for a message from Python; a message from the browser never raises.
    """
    work = state.work
    match message:
        case Began(started, since):
            request = started.request if isinstance(started, msg.FromBrowser) else None
            begun = Work(in_words(started), request, since, autoplay=isinstance(started, msg.AutoStep))
            return replace(state, work=begun), session, ()
        case Working():
            return (state if work is None else replace(state, work=_counted(work, now))), session, ()
        case Finished(outcome):
            return _finished(state, session, outcome, now)
        case WorkStopped(why):
            return _stopped(state, session, why, now)
        case Settle(version) if version == state.wire.version and state.wire.patch is not None:
            return replace(state, wire=replace(state.wire, patch=None)), session, (ResendBoard(),)
        case Settle():  # a move came meanwhile: its own timer follows
            return state, session, ()
        case msg.FromBrowser() if work is not None and not work.autoplay:
            return _while_working(state, session, message, now)
    after_state, after, effects = _applied(state, session, message, now)
    return _followed(state, session, (after_state, after, effects), message, now)


def _applied(state: RuntimeState, session: Session, message: Message, now: int) -> Stepped:
    """``message`` applied: a game message by the game's ``update``, the runtime's own here."""
    match message:
        case GameMessage():
            return (state, *update(session, message, now=now))
        case msg.FromBrowser(messages, request):
            return _from_browser(state, session, messages, request, now)
        case Refused(error, request):
            handled = state.handled if request is None else request
            problem = problem_of(error)
            rejected = msg.Rejected(problem, f"refused a message: {problem.text}", stop=True)
            after, effects = update(session, rejected)
            return replace(state, handled=handled), after, effects
        case msg.Resync():
            return state, session, (ResendBoard(),)
        case msg.SetTimeLimit(seconds):
            return replace(state, time_limit=seconds), session, ()
        case msg.Cancel():  # with no work under way there is nothing to cancel
            return state, session, ()
        case msg.BadInput(problem):  # the browser sent what is not a message: its problem is shown
            raise MessageError(problem)
    raise MessageError(f"not a message: {quote(message)}")


def _from_browser(
    state: RuntimeState, session: Session, messages: tuple[Message, ...], request: int | None, now: int
) -> Stepped:
    """Messages from the browser, all or nothing. The browser cannot be told "no" by an exception: a
    rejected message leaves the game as it was but for the problem it shows (and, for a refused setting,
    the browser is sent the session's settings again)."""
    handled = state.handled if request is None else request
    after_state, after = state, session
    effects: tuple[Effect, ...] = ()
    try:
        for message in messages:
            after_state, after, more = _applied(after_state, after, message, now)
            effects += more
    except Exception as error:  # whatever the browser sent (or a user strategy raised), the kernel is safe
        problem = problem_of(error)
        shown, logged = update(
            session, msg.Rejected(problem, f"ignored a message from the browser: {problem.text}")
        )
        resend = (ResendSettings(),) if request is None else ()
        return replace(state, handled=handled), shown, (*logged, *resend)
    return replace(after_state, handled=handled), after, effects


def _followed(
    before_state: RuntimeState, before: Session, stepped: Stepped, message: Message, now: int
) -> Stepped:
    """``stepped`` with the board's version on the wire, and the work under way told that the game changed
    (a Pause or the end of the run ends the autoplayer's move, named if it had thought long)."""
    state, after, effects = stepped
    if after is before:
        return stepped
    if (
        after.history is not before.history
        or after.viewing != before.viewing
        or after.reviewed is not before.reviewed
    ):
        patch = isinstance(message, (msg.FromBrowser, msg.AutoStep))
        change = board_change(before.screen.cells, after.screen.cells, state.wire.version, whole=not patch)
        if change is not None:
            state = replace(state, wire=change)
    work = before_state.work
    if work is None:
        return state, after, effects
    if work.autoplay and not after.autoplaying:
        seconds = max(0, now - work.started_at) / 1000
        if seconds < DROPPED_NOTICE:
            return replace(state, work=None), after, effects
        stopped = msg.StrategyStopped(autoplayer_name(before), seconds, "dropped", before_state.time_limit)
        after, more = update(after, stopped, now=now)
        return replace(state, work=None), after, (*effects, *more)
    return replace(state, work=replace(work, stale=True)), after, effects


def _while_working(state: RuntimeState, session: Session, message: msg.FromBrowser, now: int) -> Stepped:
    """A request while the kernel works for the browser: it waits its turn, or, a Cancel, stops the work
    and drops the requests waiting for it."""
    work = state.work
    assert work is not None
    if not any(isinstance(m, msg.Cancel) for m in message.messages):
        return replace(state, waiting=(*state.waiting, message)), session, ()
    dropped = len(state.waiting)
    also = f"; {dropped} later request{'s' if dropped > 1 else ''} dropped" if dropped else ""
    seconds = max(0, now - work.started_at) / 1000
    text = f"cancelled: {work.what} after {seconds:.1f} s; the game is as it was{also}"
    idle = replace(state, work=None, waiting=())
    return _applied(idle, session, Refused(MessageError(text), message.request), now)


def _finished(state: RuntimeState, session: Session, outcome: Stepped, now: int) -> Stepped:
    """The work ended: its result, if the game did not change meanwhile; then the requests that waited."""
    work = state.work
    if work is None:  # stopped meanwhile
        return state, session, ()
    replay: tuple[Effect, ...] = (RunWaiting(state.waiting),) if state.waiting else ()
    if not work.stale:
        done, after, effects = outcome
        return replace(done, work=None, waiting=()), after, (*effects, *replay)
    idle = replace(state, work=None, waiting=())
    if work.request is None:
        return idle, session, replay
    late = MessageError(f"{work.what}: dropped, the game changed while the kernel worked on it")
    refused_state, refused, effects = _applied(idle, session, Refused(late, work.request), now)
    return refused_state, refused, (*effects, *replay)


def _stopped(state: RuntimeState, session: Session, why: str, now: int) -> Stepped:
    """The runtime stopped the work (past its time limit, or the kernel's interrupt) and the autoplayer."""
    work = state.work
    if work is None and not session.autoplaying:
        return state, session, ()
    seconds = 0.0 if work is None else max(0, now - work.started_at) / 1000
    idle = replace(state, work=None, waiting=())
    if work is not None and not work.autoplay:
        text = f"interrupted: {work.what} after {seconds:.1f} s; the game is as it was"
        after, effects = update(session, msg.Rejected(Problem(text), text, stop=True))
        return replace(idle, handled=state.taken), after, effects
    stopped = msg.StrategyStopped(autoplayer_name(session), seconds, why, state.time_limit)
    return (idle, *update(session, stopped, now=now))


def _counted(work: Work, now: int) -> Work:
    return replace(work, seconds=max(0, now - work.started_at) // 1000)


def is_slow(state: RuntimeState, session: Session, message: Message) -> bool:
    """Whether ``message`` may hold the kernel long: a strategy call, the probability overlay's analysis,
    a no-guess search, a game's review, a shared game's moves played again, or a move on a board of
    :data:`SLOW_CELLS` cells or more. The runtime's own
    messages and a request that only waits are fast."""
    match message:
        case msg.FromBrowser(messages):
            work = state.work
            return (work is None or work.autoplay) and any(is_slow(state, session, m) for m in messages)
        case msg.Step() | msg.Hint() | msg.NextSafe() | msg.AutoStep():
            return True
        case msg.ShowReview():  # the exact solver rates every move the first time
            return session.reviewed is None
        case msg.OpenGame(game):  # every move played again (and rated, for a review)
            return bool(game.replay.clicks)
        case RuntimeMessage():
            return False
        case msg.ShowProbabilities(on):
            return on
        case msg.NewGameOf(rows=int(rows), cols=int(cols)) if rows * cols >= SLOW_CELLS:
            return True
    board = session.board
    if session.settings.show_probabilities or board.rows * board.cols >= SLOW_CELLS:
        return True
    return isinstance(message, msg.Reveal) and board.status == "ready" and board.first_click == "no-guess"


def in_words(message: Message) -> str:
    """A message in a few words, for the busy line: ``"hint"``, ``"new game"``, ``"reveal (4,7)"``."""
    parts = message.messages if isinstance(message, msg.FromBrowser) else (message,)
    words = []
    for part in parts:
        name = part.action or ("autoplayer move" if isinstance(part, msg.AutoStep) else "setting")
        pos = getattr(part, "pos", None)
        words.append(name.replace("_", " ") + ("" if pos is None else f" {format_position(pos)}"))
    return ", ".join(words)
