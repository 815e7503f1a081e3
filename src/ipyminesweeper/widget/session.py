"""The widget's model and its one update function, in the style of the Elm architecture.

A :class:`Session` is everything the widget knows, as one frozen value: the game's history, the
strategies on offer and the selected one, the last autoplayer move and the hint, the player's settings,
where the time-travel slider is, the question marks, whether the game was assisted, when it started and
ended, the autoplayer's run, the statistics summary, and the problem to show. :func:`update` is the only
way to a new session, and it says what the shell must do besides (the effects, as data)::

    session, effects = update(session, Reveal((3, 4)), now=clock())

It is pure: the clock comes in with the message, a fresh seed and the statistics come back as messages
from the effects that asked for them (:mod:`.effects`), and a strategy is a pure function of the view.
A message that cannot apply raises a ValueError that says why (a :class:`MessageError`, a
``GameOverError``, an ``InvalidMoveError`` or a :class:`StrategyError`), or a TypeError for a value of the
wrong type, and the caller keeps the session it had: a rejected message changes nothing. Messages from
the browser (:class:`FromBrowser`) and the autoplayer's timer (:class:`AutoStep`) have no caller to raise
to: their problem becomes part of the session, which the widget shows. The widget (:mod:`.widget`) is a
thin shell around this loop; :func:`subscriptions` says which timers it runs.

The shell's own state is part of the session too, and ``update`` keeps it in step:

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

from ..engine import (
    Board,
    GameOverError,
    GameSpec,
    Position,
    chord,
    new_board,
    reveal,
    toggle_flag,
)
from ..engine.cells import COVERED, FLAGGED
from ..engine.errors import quote
from ..engine.geometry import format_position
from ..play import STRATEGIES, Move, Strategy, StrategyError, ask, next_safe, step, strategy_name, who
from . import messages as msg
from . import wording
from .board_wire import board_change
from .effects import DrawSeed, Effect, Log, RecordResult, Replay, ResendBoard, ResendSettings
from .history import History, Turn
from .messages import NAME_LIMIT, Message, MessageError
from .model import (
    Assistance,
    Autoplay,
    Problem,
    Session,
    Work,
    problem_of,
)
from .stats import GameResult, level_name

__all__ = [  # Session and Autoplay (from .model) too, as they were written here before
    "DROPPED_NOTICE",
    "SLOW_CELLS",
    "Autoplay",
    "Session",
    "StrategyError",
    "autoplayer_name",
    "describe_turn",
    "in_words",
    "is_slow",
    "result_of",
    "start",
    "update",
    "update_all",
]

SLOW_CELLS = 100_000
"""A move on a board of this many cells or more may take longer than the kernel should be held (a cascade
over 4,000,000 cells takes seconds): it is slow work."""
DROPPED_NOTICE = 1.0
"""A strategy that a Pause stops after thinking this many seconds or more is named in the widget."""


Outcome = tuple[Session, tuple[Effect, ...]]
"""A session and the effects that go with it."""


def result_of(session: Session) -> GameResult | None:
    """The statistics entry of a finished game (None while it is on)."""
    board = session.board
    if not board.over:
        return None
    start_board = session.history.start
    who = start_board.seed if start_board.seed is not None else hash(start_board)
    return GameResult(
        game=f"{who}@{session.started_at}",
        level=level_name(board.rows, board.cols, board.mines),
        first_click=board.first_click,
        won=board.status == "won",
        seconds=session.seconds,
        assisted=session.assistance.describe(),
        finished_at=session.ended_at,
    )


def start(
    board: Board,
    strategies: tuple[tuple[str, Strategy], ...] | None = None,
    strategy: str | None = None,
    delay: float | None = None,
) -> Session:
    """The session of a new widget showing ``board``. Strategies default to the registered ones.

    A widget then asks for the statistics (the ``LoadStats`` effect): they come in as ``StatsChanged``.
    """
    if not isinstance(board, Board):
        raise TypeError(f"a session starts from a Board, not {type(board).__name__}")
    menu = tuple(STRATEGIES.items()) if strategies is None else strategies
    session = Session(History.begin(board.rechecked()), menu, menu[0][0] if menu else "")
    if strategy is None and session.strategy_named("exact") is not None:
        strategy = "exact"
    messages: list[Message] = []
    if strategy is not None:
        messages.append(msg.SelectStrategy(strategy))
    if delay is not None:
        messages.append(msg.SetDelay(delay))
    return update_all(session, messages)[0]


def _game(session: Session, message: Message, now: int = 0) -> Outcome:
    """The session after a message of the game (not the shell's own), and the effects to perform."""
    match message:
        case msg.FromBrowser(messages, request):
            return _from_browser(session, messages, request, now)
        case msg.AutoStep():
            return _autoplayed(session, now)
        case msg.StrategyStopped(strategy, seconds, why, limit):
            text = wording.strategy_stopped(who(strategy), seconds, why, limit, session.autoplaying)
            autoplay = session.autoplay if why == "dropped" else None
            return replace(session, autoplay=autoplay, problem=Problem(text)), (Log(text),)
        case msg.Refused(error, request):
            problem = problem_of(error)
            handled = session.handled if request is None else request
            stopped = replace(session, problem=problem, autoplay=None, handled=handled)
            return stopped, (Log(f"refused a message: {problem.text}", problem.error),)
        case msg.StatsChanged(stats, notice) if notice:  # the store says something once: shown, and logged
            return replace(session, stats=stats, problem=Problem(notice)), (Log(notice, None),)
        case msg.NewGameOf(seed=None):
            return session, (DrawSeed(msg.NewGameOf.of(message.spec(GameSpec.of(session.board)))),)
        case msg.Resync():
            return session, (ResendBoard(),)
    return _settled(session, _next(session, message, now), ())


def update(session: Session, message: Message, *, now: int = 0) -> Outcome:
    """The session after ``message``, and the effects the shell must perform; ``now`` is the time of
    the message in epoch milliseconds.

    Raises a ValueError (or a TypeError) saying why when the message cannot apply; the caller's session
    is then unchanged. A message from the browser or the autoplayer's timer never raises: the session
    it returns shows the problem. The shell's own messages keep its state in step (see the module's
    docstring), and each change of the view on screen bumps the session's ``wire``.
    """
    work = session.work
    match message:
        case msg.Began(started, since):
            request = started.request if isinstance(started, msg.FromBrowser) else None
            begun = Work(in_words(started), request, since, autoplay=isinstance(started, msg.AutoStep))
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
    after, effects = _game(session, message, now)
    return _followed(session, (after, effects), message, now)


def update_all(session: Session, messages: Iterable[Message], *, now: int = 0) -> Outcome:
    """``messages`` one after the other, all or nothing: the last session and every effect, in order."""
    effects: tuple[Effect, ...] = ()
    for message in messages:
        session, more = update(session, message, now=now)
        effects += more
    return session, effects


def _settled(
    before: Session, after: Session, effects: tuple[Effect, ...]
) -> tuple[Session, tuple[Effect, ...]]:
    """A message applied: the problem shown before is gone, and a game that has just ended is recorded."""
    if after.problem is not None:
        after = replace(after, problem=None)
    result = result_of(after)
    if result is not None and after.history is not before.history:
        effects += (RecordResult(result),)
    return after, effects


def _from_browser(session: Session, messages: tuple[Message, ...], request: int | None, now: int) -> Outcome:
    """Messages from the browser, all or nothing. The browser cannot be told "no" by an exception: a
    rejected message leaves the session as it was but for the problem it shows (and, for a refused
    setting, the browser is sent the session's settings again)."""
    handled = session.handled if request is None else request
    after: Session = session
    effects: tuple[Effect, ...] = ()
    try:
        for message in messages:
            after, more = _game(after, message, now)
            effects += more
    except Exception as error:  # whatever the browser sent (or a user strategy raised), the kernel is safe
        problem = problem_of(error)
        log = Log(f"ignored a message from the browser: {problem.text}", problem.error)
        resend = (ResendSettings(),) if request is None else ()
        return replace(session, problem=problem, handled=handled), (log, *resend)
    return replace(after, handled=handled), effects


def _autoplayed(session: Session, now: int) -> tuple[Session, tuple[Effect, ...]]:
    """The autoplayer's timer fired: its next move, or nothing if it has stopped meanwhile. A failing
    strategy stops the run; the session shows why."""
    run = session.autoplay
    if run is None or session.viewing is not None or session.board.over:
        return session, ()
    try:
        after = _stepped(session, run.strategy, now)
    except Exception as error:  # a user strategy may raise anything: it stops the run, the kernel is safe
        problem = problem_of(error)
        return replace(session, autoplay=None, problem=problem), (
            Log(f"the autoplayer stopped: {problem.text}", problem.error),
        )
    left = None if run.moves_left is None else run.moves_left - 1
    if after.autoplay is not None and left is not None:
        after = replace(after, autoplay=replace(run, moves_left=left) if left > 0 else None)
    return _settled(session, after, ())


def _next(session: Session, message: Message, now: int) -> Session:
    """The session after ``message`` (one that has no effect of its own). The message has checked its
    own fields; what is checked here depends on the session."""
    board = session.board
    match message:
        case msg.Reveal(pos):
            _require_live(session)
            return _played(session, reveal(board, pos), Move("reveal", pos), None, now)
        case msg.Flag(pos):
            _require_live(session)
            return _flagged(session, pos, now)
        case msg.Chord(pos):
            _require_live(session)
            return _played(session, chord(board, pos), Move("chord", pos), None, now)
        case msg.Step(strategy):
            return replace(_stepped(session, strategy, now), autoplay=None)
        case msg.Hint(strategy):
            _require_live(session)
            return _hinted(session, strategy)
        case msg.NextSafe(pos):
            _require_live(session)
            return _safe_hinted(session, pos)
        case msg.Undo():
            _require_live(session)
            return _undone(session, now)
        case msg.NewGame(new):
            return _new_game(session, new.rechecked())  # a board from outside: its fields checked again
        case msg.NewGameOf():
            return _new_game(session, new_board(message.spec(GameSpec.of(board))))
        case msg.SetBoard(new):
            _require_live(session)
            return _board_set(session, new.rechecked(), now)  # a board from outside: checked again
        case msg.Scrub(index):
            last = len(session.history) - 1
            _require(-last - 1 <= index <= last, f"history index {quote(index)} is outside 0..{last}")
            index = range(last + 1)[index]
            return replace(session, viewing=None if index == last else index, autoplay=None)
        case msg.Live():
            return replace(session, viewing=None)
        case msg.Resume():
            return _resumed(session, now)
        case msg.Play(strategy, moves):
            _require_live(session)
            if board.over:
                raise GameOverError(f"the game is {board.status}: start a new game to play again")
            if isinstance(strategy, str):
                _require(session.strategy_named(strategy) is not None, f"unknown strategy {quote(strategy)}")
            return replace(session, autoplay=None if moves == 0 else Autoplay(strategy, moves))
        case msg.Pause():
            return replace(session, autoplay=None)
        case msg.Cancel():  # the shell stops the work; with none under way there is nothing to cancel
            return session
        case msg.StatsChanged(stats, _):
            return replace(session, stats=stats)
        case msg.BadInput(problem):
            raise MessageError(problem)
    return _configured(session, message)


def _configured(session: Session, message: Message) -> Session:
    """The session after a message that changes a setting: the strategy, the overlay, the speed, the
    labels, the cells' size, the time limit, the "?" marks."""
    match message:
        case msg.SelectStrategy(name):
            known = ", ".join(session.strategy_names)
            _require(
                session.strategy_named(name) is not None,
                f"unknown strategy {quote(name, NAME_LIMIT)}: use one of {known}",
            )
            return replace(session, strategy=name)
        case msg.AddStrategy(name, fn, select):
            return _with_strategy(session, name, fn, select)
        case msg.ShowProbabilities(on):
            overlay = session.assistance.overlay or (on and not session.board.over)
            return replace(
                session,
                settings=replace(session.settings, show_probabilities=on),
                assistance=replace(session.assistance, overlay=overlay),
            )
        case msg.SetDelay(seconds):
            return replace(session, settings=replace(session.settings, delay=seconds))
        case msg.SetLabels(on):
            return replace(session, settings=replace(session.settings, labels=on))
        case msg.SetCellSize(px):
            return replace(session, settings=replace(session.settings, cell_size=px))
        case msg.SetTimeLimit(seconds):
            return replace(session, time_limit=seconds)
        case msg.SetQuestionMarks(on):
            marks = session.marks if on else frozenset()
            return replace(session, settings=replace(session.settings, question_marks=on), marks=marks)
    raise MessageError(f"not a message: {quote(message)}")


def _hinted(session: Session, strategy: str | Strategy | None) -> Session:
    """The strategy's next move, shown as a hint (not played), and counted as help."""
    fn, name = _strategy(session, strategy)
    move = ask(session.board, fn, name)
    helped = replace(session.assistance, hints=session.assistance.hints + 1)
    return replace(session, hint=Turn(move, name), assistance=helped)


def _safe_hinted(session: Session, after: Position) -> Session:
    """The first cell after ``after`` that the exact solver proves safe, shown as a hint and counted as one;
    a MessageError (nothing counted) when the game is not on or no cell is certainly safe."""
    board = session.board
    board.index(after)  # a cell of the board
    if board.over:
        raise GameOverError(f"the game is {board.status}: start a new game to play again")
    if board.status == "ready":
        raise MessageError(wording.no_safe_yet(board.first_click))
    move = next_safe(board.view, after)
    if move is None:
        raise MessageError(wording.NO_SAFE_CELL)
    helped = replace(session.assistance, hints=session.assistance.hints + 1)
    return replace(session, hint=Turn(move, "exact"), assistance=helped)


def _board_set(session: Session, new: Board, now: int) -> Session:
    """A board set from Python code mid-game: played as a move of no kind, and counted as help."""
    if new == session.board:
        return session
    helped = replace(session.assistance, boards_set=session.assistance.boards_set + 1)
    return _played(replace(session, assistance=helped), new, None, None, now)


def _new_game(session: Session, board: Board) -> Session:
    """A new game on ``board``: the strategies, the settings and the statistics stay."""
    return replace(
        session,
        history=History.begin(board),
        last_move=None,
        hint=None,
        viewing=None,
        marks=frozenset(),
        autoplay=None,
        assistance=Assistance(overlay=session.settings.show_probabilities),
        started_at=0,
        ended_at=0,
        moved_at=0,
    )


def _stepped(session: Session, strategy: str | Strategy | None, now: int) -> Session:
    """The session after one move of ``strategy`` (an autoplayer move: the game counts as assisted)."""
    _require_live(session)
    fn, name = _strategy(session, strategy)
    board, move = step(session.board, fn, name)
    helped = replace(session.assistance, autoplayer_moves=session.assistance.autoplayer_moves + 1)
    return _played(replace(session, assistance=helped), board, move, name, now)


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise MessageError(problem)


def _require_live(session: Session) -> None:
    """Moves apply to the live game only: looking back through the history is read-only."""
    if session.viewing is not None:
        raise MessageError(
            f"you are looking back at move {session.viewing} of {len(session.history) - 1}: "
            "resume from here, or go back to the game"
        )


def _played(session: Session, board: Board, move: Move | None, strategy: str | None, now: int) -> Session:
    """The session after ``board`` was reached from the current one by ``move`` (None: set directly)."""
    if board == session.board:
        return session
    started, ended = session.started_at, session.ended_at
    if board.status == "ready":
        started = ended = 0
    else:
        started = started or now
        ended = (ended or now) if board.over else 0
    return replace(
        session,
        history=session.history.add(board, move, strategy),
        last_move=Turn(move, strategy) if strategy is not None else None,
        hint=None,
        marks=frozenset(i for i in session.marks if board.states[i] == COVERED),
        autoplay=None if board.over else session.autoplay,
        started_at=started,
        ended_at=ended,
        moved_at=now if started else 0,
    )


def _flagged(session: Session, pos: Position, now: int) -> Session:
    """A right click: flag and unflag, or, with question marks on, cycle flag -> "?" -> covered."""
    board = session.board
    after = toggle_flag(board, pos)  # checks the position and that the game is on
    move = Move("flag", pos)
    if not session.settings.question_marks:
        return _played(session, after, move, None, now)
    index = board.index(pos)
    if index in session.marks:  # "?" -> covered: an annotation only, the board does not change
        return replace(session, marks=session.marks - {index})
    played = _played(session, after, move, None, now)
    if board.states[index] == FLAGGED:  # flag -> "?"
        return replace(played, marks=played.marks | {index})
    return played


def _strategy(session: Session, strategy: str | Strategy | None) -> tuple[Strategy, str]:
    """The strategy ``strategy`` names (a name in the menu, a callable, or None: the selected one), and
    its name."""
    if strategy is None:
        strategy = session.strategy
    if isinstance(strategy, str):
        fn = session.strategy_named(strategy)
        _require(fn is not None, f"unknown strategy {quote(strategy, NAME_LIMIT)}")
        assert fn is not None
        return fn, strategy
    return strategy, _name_of(session, strategy)


def autoplayer_name(session: Session) -> str:
    """The name of the strategy the autoplayer runs (the selected one when it runs none of its own)."""
    strategy = None if session.autoplay is None else session.autoplay.strategy
    if isinstance(strategy, str):
        return strategy
    return session.strategy if strategy is None else _name_of(session, strategy)


def _name_of(session: Session, fn: Strategy) -> str:
    """The name ``fn`` was registered under, or the name of the function itself."""
    known = next((name for name, f in session.strategies if f is fn), None)
    return (known or strategy_name(fn))[:NAME_LIMIT]


def _undone(session: Session, now: int) -> Session:
    history = session.history
    if not history.turns:
        return session
    helped = session.assistance
    if history.current.status == "lost":
        helped = replace(helped, undos_after_loss=helped.undos_after_loss + 1)
    return _back_to(replace(session, assistance=helped), history.undo(), now)


def _resumed(session: Session, now: int) -> Session:
    """Continue from the board the slider shows: the moves after it are dropped (a new branch)."""
    if session.viewing is None:
        return session
    helped = replace(session.assistance, rewinds=session.assistance.rewinds + 1)
    return _back_to(replace(session, assistance=helped), session.history.upto(session.viewing), now)


def _back_to(session: Session, history: History, now: int) -> Session:
    """``session`` with an earlier ``history``: the clock and the autoplayer follow."""
    board = history.current
    started, ended = session.started_at, session.ended_at
    if board.status == "ready":
        started = ended = 0
    elif not board.over:
        ended = 0
    fresh = replace(session, history=history, last_move=None, hint=None, viewing=None, autoplay=None)
    return replace(fresh, started_at=started, ended_at=ended, moved_at=now if started else 0)


def _with_strategy(session: Session, name: str, fn: Strategy, select: bool) -> Session:
    menu = session.strategies
    if name in session.strategy_names:  # a new version of the user's strategy keeps its place
        menu = tuple((known, fn if known == name else f) for known, f in menu)
    else:
        menu = (*menu, (name, fn))
    chosen = name if select or not session.strategy else session.strategy
    return replace(session, strategies=menu, strategy=chosen)


def describe_turn(turn: Turn | None) -> str:
    """A history step in words: ``"exact: reveal (4,7): (4,7) is safe: ..."``, or ``"the start"``."""
    if turn is None:
        return wording.START
    if turn.move is None:
        return wording.BOARD_SET
    return wording.move_by(turn.strategy, turn.move.action, turn.move.pos, turn.move.reason)


# --- the shell's own state: slow work, and the board on the wire -------------------------------------


def is_slow(session: Session, message: Message) -> bool:
    """Whether ``message`` may hold the kernel long: a strategy call, the probability overlay's analysis,
    a no-guess search, or a move on a board of :data:`SLOW_CELLS` cells or more. The shell's own messages
    and a request that only waits are fast."""
    match message:
        case msg.FromBrowser(messages):
            work = session.work
            return (work is None or work.autoplay) and any(is_slow(session, m) for m in messages)
        case msg.Step() | msg.Hint() | msg.NextSafe() | msg.AutoStep():
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


def in_words(message: Message) -> str:
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
        after, more = _game(replace(after, work=None), stopped, now)
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
    return _game(replace(session, work=None, waiting=()), msg.Refused(MessageError(text), message.request))


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
    refused, effects = _game(idle, msg.Refused(late, work.request), now)
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
    return _game(idle, stopped, now)
