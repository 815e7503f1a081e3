"""The widget's model and its one update function, in the style of the Elm architecture.

A :class:`Session` is everything the widget knows, as one frozen value: the game's history, the
strategies on offer and the selected one, the last autoplayer move, the settings, whether the game was
assisted, and when it started and ended. :func:`update` is the only way to a new session::

    session = update(session, Reveal((3, 4)), now=clock())

It is pure: the clock and any randomness come in with the message, and a strategy is a pure function of
the view. A message that cannot apply raises a ValueError that says why (a :class:`MessageError`, a
``GameOverError``, an ``InvalidMoveError`` or a :class:`StrategyError`), and the caller keeps the session
it had, so a rejected message changes nothing. The widget (:mod:`.widget`) is a thin shell around this
loop, which is the same loop as ``functools.reduce(update, messages, session)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..engine import Board, GameOverError, View, chord, reveal, toggle_flag
from ..engine.errors import quote
from ..play import BUILTINS, STRATEGIES, Move, Strategy, apply_move, strategy_name, validate_move
from .history import History, Turn
from .messages import (
    AddStrategy,
    Chord,
    Flag,
    Message,
    MessageError,
    NewGame,
    Pause,
    Play,
    Reveal,
    SelectStrategy,
    SetBoard,
    SetDelay,
    ShowProbabilities,
    Step,
    Undo,
)

__all__ = [
    "MAX_DELAY",
    "Assistance",
    "Session",
    "StrategyError",
    "start",
    "update",
]

MAX_DELAY = 10.0
"""The longest pause between two autoplayer moves, in seconds."""
NAME_LIMIT = 60
"""The longest strategy name a session accepts."""


class StrategyError(ValueError):
    """A strategy raised an exception. The original is chained as ``__cause__``, with its traceback."""


@dataclass(frozen=True)
class Assistance:
    """How a game was helped along. Best times count only games with no assistance at all."""

    undos_after_loss: int = 0
    autoplayer_moves: int = 0
    boards_set: int = 0
    overlay: bool = False

    def __bool__(self) -> bool:
        return bool(self.undos_after_loss or self.autoplayer_moves or self.boards_set or self.overlay)

    def describe(self) -> str:
        """``"1 undo after a loss, 30 autoplayer moves"``: what helped, or ``""``."""
        parts = [
            _count(self.undos_after_loss, "undo after a loss", "undos after a loss"),
            _count(self.autoplayer_moves, "autoplayer move", "autoplayer moves"),
            _count(self.boards_set, "board set from code", "boards set from code"),
            "the probability overlay" if self.overlay else "",
        ]
        return ", ".join(p for p in parts if p)


def _count(n: int, one: str, many: str) -> str:
    return "" if n == 0 else f"1 {one}" if n == 1 else f"{n} {many}"


@dataclass(frozen=True)
class Session:
    """Everything the widget knows. Change it only with :func:`update`.

    ``autoplaying`` says whether the autoplayer runs, with ``autoplayer`` (None: the selected strategy);
    ``started_at`` and ``ended_at`` are epoch milliseconds, 0 until the game starts and ends.
    """

    history: History
    strategies: tuple[tuple[str, Strategy], ...]
    strategy: str
    last_move: Turn | None = None
    show_probabilities: bool = False
    delay: float = 0.25
    autoplaying: bool = False
    autoplayer: str | Strategy | None = None
    assistance: Assistance = field(default_factory=Assistance)
    started_at: int = 0
    ended_at: int = 0

    @property
    def board(self) -> Board:
        """The current board."""
        return self.history.current

    @property
    def view(self) -> View:
        """What the player sees now."""
        return self.history.current.view

    @property
    def strategy_names(self) -> tuple[str, ...]:
        """The names in the strategy menu, in order."""
        return tuple(name for name, _ in self.strategies)

    def strategy_named(self, name: str) -> Strategy | None:
        """The strategy called ``name`` in this session's menu, or None."""
        return next((fn for known, fn in self.strategies if known == name), None)

    @property
    def seconds(self) -> float:
        """Seconds of play: from the first reveal to the end (0 before the first reveal or while playing)."""
        return (self.ended_at - self.started_at) / 1000 if self.ended_at else 0.0

    @property
    def summary(self) -> str:
        """The end-of-game message: ``"won in 41 s"``, ``"won in 41 s (assisted: 2 hints)"``, or ``""``."""
        status = self.board.status
        if status not in ("won", "lost"):
            return ""
        text = f"won in {round(self.seconds)} s" if status == "won" else f"lost after {round(self.seconds)} s"
        helped = self.assistance.describe()
        return f"{text} (assisted: {helped})" if helped else text


def start(
    board: Board,
    strategies: tuple[tuple[str, Strategy], ...] | None = None,
    strategy: str | None = None,
    delay: float | None = None,
) -> Session:
    """The session of a new widget showing ``board``. Strategies default to the registered ones."""
    if not isinstance(board, Board):
        raise TypeError(f"a session starts from a Board, not {type(board).__name__}")
    menu = tuple(STRATEGIES.items()) if strategies is None else strategies
    session = Session(History.begin(board), menu, menu[0][0] if menu else "")
    if strategy is None and session.strategy_named("exact") is not None:
        strategy = "exact"
    if strategy is not None:
        session = update(session, SelectStrategy(strategy))
    if delay is not None:
        session = update(session, SetDelay(delay))
    return session


def update(session: Session, message: Message, *, now: int = 0) -> Session:
    """The session after ``message``; ``now`` is the time of the message in epoch milliseconds.

    Raises a ValueError saying why when the message cannot apply; the old session is then unchanged.
    """
    board = session.board
    match message:
        case Reveal(pos):
            return _played(session, reveal(board, pos), Move("reveal", pos), None, now)
        case Flag(pos):
            return _played(session, toggle_flag(board, pos), Move("flag", pos), None, now)
        case Chord(pos):
            return _played(session, chord(board, pos), Move("chord", pos), None, now)
        case Step(strategy):
            return _stepped(session, strategy, now)
        case Undo():
            return _undone(session, now)
        case NewGame(new):
            _require_type(isinstance(new, Board), f"NewGame needs a Board, not {type(new).__name__}")
            return Session(
                History.begin(new),
                session.strategies,
                session.strategy,
                show_probabilities=session.show_probabilities,
                delay=session.delay,
                assistance=Assistance(overlay=session.show_probabilities),
            )
        case SetBoard(new):
            _require_type(isinstance(new, Board), f"w.board must be a Board, not {type(new).__name__}")
            if new == board:
                return session
            helped = replace(session.assistance, boards_set=session.assistance.boards_set + 1)
            return _played(replace(session, assistance=helped), new, None, None, now)
        case SelectStrategy(name):
            _require_type(isinstance(name, str), f"a strategy name is a str, not {type(name).__name__}")
            _require(
                session.strategy_named(name) is not None,
                f"unknown strategy {quote(name, NAME_LIMIT)}: use one of {', '.join(session.strategy_names)}",
            )
            return replace(session, strategy=name)
        case AddStrategy(name, fn, select):
            return _with_strategy(session, name, fn, select)
        case ShowProbabilities(on):
            _require_type(isinstance(on, bool), f"show_probabilities is True or False, not {quote(on)}")
            overlay = session.assistance.overlay or (on and not board.over)
            return replace(
                session, show_probabilities=on, assistance=replace(session.assistance, overlay=overlay)
            )
        case SetDelay(seconds):
            _require_type(
                isinstance(seconds, (int, float)) and not isinstance(seconds, bool),
                f"delay is a number of seconds, not {quote(seconds)}",
            )
            _require(
                math.isfinite(seconds) and 0 <= seconds <= MAX_DELAY,
                f"delay must be a number of seconds from 0 to {MAX_DELAY:g}, not {quote(seconds)}",
            )
            return replace(session, delay=float(seconds))
        case Play(strategy):
            if board.over:
                raise GameOverError(f"the game is {board.status}: start a new game to play again")
            if isinstance(strategy, str):
                _require(session.strategy_named(strategy) is not None, f"unknown strategy {quote(strategy)}")
            else:
                _require(strategy is None or callable(strategy), f"not a strategy: {quote(strategy)}")
            return replace(session, autoplaying=True, autoplayer=strategy)
        case Pause():
            return replace(session, autoplaying=False, autoplayer=None)
    raise MessageError(f"not a message: {quote(message)}")


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise MessageError(problem)


def _require_type(condition: bool, problem: str) -> None:
    if not condition:
        raise TypeError(problem)


def _played(session: Session, board: Board, move: Move | None, strategy: str | None, now: int) -> Session:
    """The session after ``board`` was reached from the current one by ``move`` (None: set directly)."""
    before = session.board
    if board == before:
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
        autoplaying=session.autoplaying and not board.over,
        started_at=started,
        ended_at=ended,
    )


def _stepped(session: Session, strategy: str | Strategy | None, now: int) -> Session:
    board = session.board
    if board.over:
        raise GameOverError(f"the game is {board.status}: start a new game")
    if strategy is None:
        strategy = session.strategy
    if isinstance(strategy, str):
        fn = session.strategy_named(strategy)
        _require(fn is not None, f"unknown strategy {quote(strategy, NAME_LIMIT)}")
        assert fn is not None
        name = strategy
    elif callable(strategy):
        fn = strategy
        name = next((known for known, f in session.strategies if f is fn), None) or strategy_name(fn)
        name = name[:NAME_LIMIT]
    else:
        raise MessageError(f"a strategy is a name or a callable view -> Move, not {quote(strategy)}")
    try:
        proposed = fn(board.view)
    except Exception as exc:
        raise StrategyError(f"strategy {name!r} raised {type(exc).__name__}: {quote(str(exc), 200)}") from exc
    move = validate_move(board, proposed, f"strategy {name!r}")
    helped = replace(session.assistance, autoplayer_moves=session.assistance.autoplayer_moves + 1)
    return _played(replace(session, assistance=helped), apply_move(board, move), move, name, now)


def _undone(session: Session, now: int) -> Session:
    history = session.history
    if not history.turns:
        return session
    before = history.current
    back = history.undo()
    board = back.current
    helped = session.assistance
    if before.status == "lost":
        helped = replace(helped, undos_after_loss=helped.undos_after_loss + 1)
    started, ended = session.started_at, session.ended_at
    if board.status == "ready":
        started = ended = 0
    elif not board.over:
        ended = 0
    return replace(
        session,
        history=back,
        last_move=None,
        assistance=helped,
        autoplaying=False,
        started_at=started,
        ended_at=ended,
    )


def _with_strategy(session: Session, name: object, fn: object, select: bool) -> Session:
    _require(
        isinstance(name, str) and len(name.strip()) > 0 and len(name) <= NAME_LIMIT,
        f"a strategy name is a non-empty str of at most {NAME_LIMIT} characters, not {quote(name)}",
    )
    _require_type(callable(fn), f"strategy {quote(name)} must be callable (view -> Move), not {quote(fn)}")
    assert isinstance(name, str) and callable(fn)
    _require(
        name not in BUILTINS or STRATEGIES[name] is fn,
        f"{name!r} is a built-in strategy; pick another name",
    )
    menu = session.strategies
    if name in session.strategy_names:  # a new version of the user's strategy keeps its place
        menu = tuple((known, fn if known == name else f) for known, f in menu)
    else:
        menu = (*menu, (name, fn))
    chosen = name if select or not session.strategy else session.strategy
    return replace(session, strategies=menu, strategy=chosen)
