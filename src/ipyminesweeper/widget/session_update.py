"""The game's one update function, in the style of the Elm architecture (notebook 06, grown up).

:func:`update` is the only way from one :class:`~ipyminesweeper.widget.session.Session` to the next,
and it says what the runtime must do besides (the effects, as data)::

    session, effects = update(session, Reveal((3, 4)), now=clock())

It is pure: the clock comes in with the message, a fresh seed and the statistics come back as messages
from the effects that asked for them (:mod:`.effects`), and a strategy is a pure function of the view.
A message that cannot apply raises a ValueError that says why (a :class:`MessageError`, a
``GameOverError``, an ``InvalidMoveError`` or a :class:`StrategyError`), or a TypeError for a value of
the wrong type, and the caller keeps the session it had: a rejected message changes nothing.

It takes the game's messages only (:class:`~ipyminesweeper.widget.messages.GameMessage`): one ``match``,
a line or two a message, each step a pure function of :mod:`.transitions`. The runtime's own messages
(the browser's requests, the work under way, the board on the wire) are
:func:`~ipyminesweeper.widget.runtime_state.runtime_update`'s, which hands the game's on to this one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..engine import Board, GameSpec, new_board
from ..engine.errors import quote
from ..strategies import STRATEGIES, Strategy, StrategyError, who
from . import messages as msg
from . import phrases
from . import transitions as go
from .effects import DrawSeed, Effect, Log, RecordResult
from .history import History, Turn
from .messages import GameMessage, MessageError
from .session import Problem, Session, problem_of

__all__ = ["StrategyError", "Updated", "describe_turn", "start", "update", "update_all"]

Updated = tuple[Session, tuple[Effect, ...]]
"""A session and the effects that go with it."""


def update(session: Session, message: GameMessage, *, now: int = 0) -> Updated:
    """The session after ``message`` and the effects to perform; raises when it cannot apply (above)."""
    match message:
        case msg.Reveal(pos):
            after = go.revealed(go.require_live(session), pos, now)
        case msg.Flag(pos):
            after = go.flagged(go.require_live(session), pos, now)
        case msg.Chord(pos):
            after = go.chorded(go.require_live(session), pos, now)
        case msg.Undo():
            after = go.undone(go.require_live(session), now)
        case msg.NewGame(new):
            after = go.new_game(session, new.rechecked())  # a board from outside: its fields checked again
        case msg.NewGameOf(seed=None):  # a fresh seed first: the runtime draws it
            return session, (DrawSeed(msg.NewGameOf.of(message.spec(GameSpec.of(session.board)))),)
        case msg.NewGameOf():
            after = go.new_game(session, new_board(message.spec(GameSpec.of(session.board))))
        case msg.SetBoard(new):
            after = go.board_set(go.require_live(session), new.rechecked(), now)
        case msg.Step(strategy):
            after = replace(go.stepped(session, strategy, now), autoplay=None)
        case msg.Hint(strategy):
            after = go.hinted(go.require_live(session), strategy)
        case msg.NextSafe(pos):
            after = go.safe_hinted(go.require_live(session), pos)
        case msg.Autoplay(strategy, moves):
            after = go.playing(go.require_live(session), strategy, moves)
        case msg.Pause():
            after = replace(session, autoplay=None)
        case msg.AutoStep():
            return _autoplayed(session, now)
        case msg.Scrub(index):
            after = go.scrubbed(session, index)
        case msg.Live():  # back to the game: from the history, or from the review
            after = go.review_closed(replace(session, viewing=None))
        case msg.Resume():
            after = go.resumed(session, now)
        case msg.SelectStrategy(name):
            after = go.selected(session, name)
        case msg.AddStrategy(name, fn, select):
            after = go.with_strategy(session, name, fn, select)
        case msg.ShowProbabilities(on):
            after = go.overlay_shown(session, on)
        case msg.SetDelay(value) | msg.SetLabels(value) | msg.SetCellSize(value):  # a setting, by its name
            after = go.set_settings(session, **{message.setting: value})
        case msg.SetQuestionMarks(on):
            after = go.question_marks_shown(session, on)
        case msg.StatsChanged():
            return _stats_changed(session, message)
        case msg.StrategyStopped() | msg.Rejected():
            return _reported(session, message)
        case msg.ShowReview(index):
            after = go.review_shown(session, index)
        case msg.ShareLink(mode):
            after = go.linked(session, mode)
        case msg.OpenGame(game):  # someone else's game: not recorded as it is opened
            return replace(go.opened(session, game, now), problem=None), ()
        case _:
            raise MessageError(f"not a message of the game: {quote(message)}")
    return _settled(session, after)


def _stats_changed(session: Session, changed: msg.StatsChanged) -> Updated:
    """The statistics store's new summary; what it says once (a notice) is shown, and logged."""
    stats, notice = changed.stats, changed.notice
    if notice:
        return _said(replace(session, stats=stats), Problem(notice))
    return _settled(session, replace(session, stats=stats))


def _reported(session: Session, report: msg.StrategyStopped | msg.Rejected) -> Updated:
    """The runtime reports a message it rejected, or a strategy it stopped: the widget says so."""
    if isinstance(report, msg.Rejected):
        return _said(session, report.problem, report.log, stop=report.stop)
    return _stopped(session, report)


def _stopped(session: Session, stopped: msg.StrategyStopped) -> Updated:
    """The runtime stopped a strategy: the widget says which, and why; past its time limit or on an
    interrupt the autoplayer stops, and a move that came too late is dropped."""
    strategy, seconds, why, limit = stopped.strategy, stopped.seconds, stopped.why, stopped.limit
    text = phrases.strategy_stopped(who(strategy), seconds, why, limit, session.autoplaying)
    return _said(session, Problem(text), stop=why != "dropped")


def _said(session: Session, problem: Problem, log: str = "", *, stop: bool = False) -> Updated:
    """``session`` showing ``problem`` (with ``stop``, the autoplayer stops), and ``log`` (by default the
    problem's text) for the log."""
    autoplay = None if stop else session.autoplay
    return replace(session, problem=problem, autoplay=autoplay), (Log(log or problem.text, problem.error),)


def _settled(before: Session, after: Session) -> Updated:
    """A message applied: the problem shown before is gone; a new board of the game drops what described
    the old one (its review, its source, its link), and a game that has just ended gets its figures and
    is recorded."""
    if after.problem is not None:
        after = replace(after, problem=None)
    if after.history is before.history:
        return after, ()
    after = replace(after, reviewed=None, source=None, shared=None, metrics=None)
    if not after.board.over:
        return after, ()
    after = replace(after, metrics=go.metrics_of(after))
    result = go.result_of(after)
    assert result is not None
    return after, (RecordResult(result),)


def _autoplayed(session: Session, now: int) -> Updated:
    """The autoplayer's timer fired: its next move, or nothing if it has stopped meanwhile. A failing
    strategy stops the run; the session shows why."""
    run = session.autoplay
    if run is None or session.viewing is not None or session.board.over:
        return session, ()
    try:
        after = go.stepped(session, run.strategy, now)
    except Exception as error:  # a user strategy may raise anything: it stops the run, the kernel is safe
        problem = problem_of(error)
        return replace(session, autoplay=None, problem=problem), (
            Log(f"the autoplayer stopped: {problem.text}", problem.error),
        )
    left = None if run.moves_left is None else run.moves_left - 1
    if after.autoplay is not None and left is not None:
        after = replace(after, autoplay=replace(run, moves_left=left) if left > 0 else None)
    return _settled(session, after)


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
    messages: list[GameMessage] = []
    if strategy is not None:
        messages.append(msg.SelectStrategy(strategy))
    if delay is not None:
        messages.append(msg.SetDelay(delay))
    return update_all(session, messages)[0]


def update_all(session: Session, messages: Iterable[GameMessage], *, now: int = 0) -> Updated:
    """``messages`` one after the other, all or nothing: the last session and every effect, in order."""
    effects: tuple[Effect, ...] = ()
    for message in messages:
        session, more = update(session, message, now=now)
        effects += more
    return session, effects


def describe_turn(turn: Turn | None) -> str:
    """A history step in words: ``"exact: reveal (4,7): (4,7) is safe: ..."``, or ``"the start"``."""
    if turn is None:
        return phrases.START
    if turn.move is None:
        return phrases.BOARD_SET
    return phrases.move_by(turn.strategy, turn.move.action, turn.move.pos, turn.move.reason)
