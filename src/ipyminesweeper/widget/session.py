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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from ..engine import (
    Board,
    GameOverError,
    GameSpec,
    Position,
    View,
    chord,
    new_board,
    reveal,
    toggle_flag,
)
from ..engine.cells import COVERED, FLAGGED
from ..engine.errors import quote
from ..play import STRATEGIES, Move, Strategy, StrategyError, ask, step, strategy_name, who
from . import messages as msg
from . import wording
from .board_wire import BoardChange
from .effects import DrawSeed, Effect, Log, RecordResult, ResendBoard, ResendSettings
from .history import History, Turn
from .messages import NAME_LIMIT, Message, MessageError
from .stats import GameResult, Stats, level_name

__all__ = [
    "ERROR_LIMIT",
    "Assistance",
    "Autoplay",
    "Problem",
    "Session",
    "Settings",
    "StrategyError",
    "Work",
    "autoplayer_name",
    "describe_turn",
    "problem_of",
    "result_of",
    "start",
    "update",
    "update_all",
]

ERROR_LIMIT = 300
"""The problem the widget shows is cut to this many characters (the browser's input is echoed in 200)."""
STRATEGY_TIME_LIMIT = 5.0
"""How long, in seconds, a strategy may think over one autoplayer move by default."""


@dataclass(frozen=True)
class Problem:
    """Why the last message was rejected, as the widget shows it (``text``, at most :data:`ERROR_LIMIT`
    characters). ``error`` is the exception itself: ``w.last_error``, and the traceback of a failing user
    strategy; it takes no part in comparisons."""

    text: str
    error: BaseException | None = field(default=None, compare=False)


def problem_of(error: BaseException) -> Problem:
    """The problem to show for ``error``: its message, cut to :data:`ERROR_LIMIT` characters."""
    text = str(error)
    return Problem(text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 1] + "…", error)


@dataclass(frozen=True)
class Autoplay:
    """A run of the autoplayer: its ``strategy`` (a name, a callable, or None: the selected one) and how
    many ``moves_left`` (None: until the game ends)."""

    strategy: str | Strategy | None = None
    moves_left: int | None = None


@dataclass(frozen=True)
class Assistance:
    """How a game was helped along. Best times count only games with no assistance at all."""

    undos_after_loss: int = 0
    hints: int = 0
    autoplayer_moves: int = 0
    boards_set: int = 0
    rewinds: int = 0
    overlay: bool = False

    def __bool__(self) -> bool:
        return bool(
            self.undos_after_loss
            or self.hints
            or self.autoplayer_moves
            or self.boards_set
            or self.rewinds
            or self.overlay
        )

    def describe(self) -> str:
        """``"1 undo after a loss, 2 hints"``: what helped, or ``""``."""
        return wording.assistance(
            self.undos_after_loss,
            self.hints,
            self.autoplayer_moves,
            self.boards_set,
            self.rewinds,
            self.overlay,
        )


@dataclass(frozen=True)
class Settings:
    """The player's choices, kept from one game to the next.

    ``labels`` None means automatic: row and column labels appear once the autoplayer, a hint or the
    overlay is used. ``cell_size`` 0 means: fit the output's width (never below :data:`MIN_CELL`).
    """

    show_probabilities: bool = False
    delay: float = 0.25
    labels: bool | None = None
    cell_size: int = 0
    question_marks: bool = False


@dataclass(frozen=True)
class Work:
    r"""A slow message the shell computes in a worker thread (:mod:`.shell`): ``what`` it is in a few words,
    the browser ``request`` it answers (None: none), since when (``started_at``, epoch ms), the whole
    ``seconds`` it has run as last counted, whether it is the ``autoplay``\ er's move, and whether the
    session changed meanwhile (``stale``: its result is then dropped)."""

    what: str
    request: int | None
    started_at: int
    seconds: int = 0
    autoplay: bool = False
    stale: bool = False


@dataclass(frozen=True)
class Session:
    """Everything the widget knows. Change it only with :func:`update`.

    ``viewing`` is the index of the history board the time-travel slider shows (None: the live game);
    ``marks`` the covered cells (flat indices) the player marked "?"; ``autoplay`` the autoplayer's run
    (None: it does not run); ``started_at``, ``ended_at`` and ``moved_at`` (the last move) are epoch
    milliseconds, 0 until the game starts, ends or moves. ``stats`` is the statistics summary the store
    sent last, ``problem`` why the last message was rejected (None: it was not), and ``handled`` the id of
    the last request from the browser that was answered.

    The shell's own state is part of it too (:mod:`.shell` updates it): the ``work`` under way in a worker
    thread, the browser's requests ``waiting`` for it, the autoplayer's ``time_limit`` (seconds), and
    ``wire``, the version of the view on screen and its last change as a patch (:mod:`.board_wire`).
    """

    history: History
    strategies: tuple[tuple[str, Strategy], ...]
    strategy: str
    settings: Settings = field(default_factory=Settings)
    last_move: Turn | None = None
    hint: Turn | None = None
    viewing: int | None = None
    marks: frozenset[int] = frozenset()
    autoplay: Autoplay | None = None
    assistance: Assistance = field(default_factory=Assistance)
    started_at: int = 0
    ended_at: int = 0
    moved_at: int = 0
    stats: Stats = field(default_factory=Stats)
    problem: Problem | None = None
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

    @property
    def autoplaying(self) -> bool:
        """Whether the autoplayer runs."""
        return self.autoplay is not None

    @property
    def board(self) -> Board:
        """The current (live) board."""
        return self.history.current

    @property
    def shown(self) -> Board:
        """The board on screen: the live one, or the history board the slider points at."""
        return self.board if self.viewing is None else self.history[self.viewing]

    @property
    def view(self) -> View:
        """What the player sees of the live game."""
        return self.history.current.view

    @property
    def strategy_names(self) -> tuple[str, ...]:
        """The names in the strategy menu, in order."""
        return tuple(name for name, _ in self.strategies)

    def strategy_named(self, name: str) -> Strategy | None:
        """The strategy called ``name`` in this session's menu, or None."""
        return next((fn for known, fn in self.strategies if known == name), None)

    @property
    def labels_shown(self) -> bool:
        """Whether row and column labels are on: the player's choice, else once help was used."""
        if self.settings.labels is not None:
            return self.settings.labels
        a = self.assistance
        return bool(a.autoplayer_moves or a.hints or a.overlay or self.hint or self.last_move)

    @property
    def seconds(self) -> float:
        """Seconds of play, from the first reveal to the end (0 until the game has ended)."""
        return (self.ended_at - self.started_at) / 1000 if self.ended_at else 0.0

    @property
    def elapsed(self) -> float:
        """Seconds of play at the last move (the end, once the game is over): a saved copy's frozen timer."""
        if not self.started_at:
            return 0.0
        return max(0, (self.ended_at or self.moved_at) - self.started_at) / 1000

    @property
    def summary(self) -> str:
        """The end-of-game message: ``"won in 41 s"``, ``"won in 41 s (assisted: 2 hints)"``, or ``""``."""
        status = self.board.status
        if status not in ("won", "lost"):
            return ""
        return wording.game_over(status == "won", round(self.seconds), self.assistance.describe())


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


def update(session: Session, message: Message, *, now: int = 0) -> tuple[Session, tuple[Effect, ...]]:
    """The session after ``message``, and the effects the shell must perform; ``now`` is the time of
    the message in epoch milliseconds.

    Raises a ValueError (or a TypeError) saying why when the message cannot apply; the caller's session
    is then unchanged. A message from the browser or the autoplayer's timer never raises: the session
    it returns shows the problem.
    """
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


def update_all(
    session: Session, messages: Iterable[Message], *, now: int = 0
) -> tuple[Session, tuple[Effect, ...]]:
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


def _from_browser(
    session: Session, messages: tuple[Message, ...], request: int | None, now: int
) -> tuple[Session, tuple[Effect, ...]]:
    """Messages from the browser, all or nothing. The browser cannot be told "no" by an exception: a
    rejected message leaves the session as it was but for the problem it shows (and, for a refused
    setting, the browser is sent the session's settings again)."""
    handled = session.handled if request is None else request
    try:
        after, effects = update_all(session, messages, now=now)
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
            fn, name = _strategy(session, strategy)
            move = ask(board, fn, name)
            helped = replace(session.assistance, hints=session.assistance.hints + 1)
            return replace(session, hint=Turn(move, name), assistance=helped)
        case msg.Undo():
            _require_live(session)
            return _undone(session, now)
        case msg.NewGame(new):
            return _new_game(session, new.rechecked())  # a board from outside: its fields checked again
        case msg.NewGameOf():
            return _new_game(session, new_board(message.spec(GameSpec.of(board))))
        case msg.SetBoard(new):
            _require_live(session)
            new = new.rechecked()  # a board from outside: its fields checked again
            if new == board:
                return session
            helped = replace(session.assistance, boards_set=session.assistance.boards_set + 1)
            return _played(replace(session, assistance=helped), new, None, None, now)
        case msg.Scrub(index):
            last = len(session.history) - 1
            _require(-last - 1 <= index <= last, f"history index {quote(index)} is outside 0..{last}")
            index = range(last + 1)[index]
            return replace(session, viewing=None if index == last else index, autoplay=None)
        case msg.Live():
            return replace(session, viewing=None)
        case msg.Resume():
            return _resumed(session, now)
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
            overlay = session.assistance.overlay or (on and not board.over)
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
    raise MessageError(f"not a message: {quote(message)}")


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
