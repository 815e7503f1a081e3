"""What a move, a hint, an undo or a new game makes of a session: the steps that ``update`` takes.

Each is a pure function from a :class:`~ipyminesweeper.widget.session.Session` (and the message's
fields) to the next session. A step that cannot apply raises a ValueError that says why (a
:class:`~ipyminesweeper.widget.messages.MessageError`, a ``GameOverError``, an ``InvalidMoveError`` or a
:class:`~ipyminesweeper.strategies.StrategyError`); the caller then keeps the session it had.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine import (
    Board,
    Click,
    ClickKind,
    GameMetrics,
    GameOverError,
    Position,
    Replay,
    ReplayError,
    chord,
    game_metrics,
    reveal,
    toggle_flag,
)
from ..engine.cells import COVERED, FLAGGED
from ..engine.errors import quote
from ..strategies import Action, Move, Strategy, ask, next_safe, review, step, strategy_name
from . import phrases
from .history import History, Turn
from .link import SharedGame, game_code, moves_clicks
from .messages import NAME_LIMIT, MessageError
from .session import Assistance, AutoplayRun, Reviewed, Session, Shared
from .stats import GameResult, level_name

__all__ = [
    "autoplayer_name",
    "back_to",
    "board_set",
    "chorded",
    "flagged",
    "hinted",
    "linked",
    "metrics_of",
    "new_game",
    "opened",
    "overlay_shown",
    "played",
    "playing",
    "question_marks_shown",
    "replay_of",
    "require",
    "require_live",
    "result_of",
    "resumed",
    "revealed",
    "review_closed",
    "review_shown",
    "safe_hinted",
    "scrubbed",
    "selected",
    "set_settings",
    "stepped",
    "undone",
    "with_strategy",
]


def require(condition: bool, problem: str) -> None:
    """A MessageError saying ``problem`` unless ``condition``."""
    if not condition:
        raise MessageError(problem)


def require_live(session: Session) -> Session:
    """``session``, if it shows the live game: looking back through the history is read-only."""
    if session.viewing is not None:
        raise MessageError(
            f"you are looking back at move {session.viewing} of {len(session.history) - 1}: "
            "resume from here, or go back to the game"
        )
    return session


def played(session: Session, board: Board, move: Move | None, strategy: str | None, now: int) -> Session:
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
        last_move=Turn(move.kept() if move else None, strategy) if strategy is not None else None,
        hint=None,
        marks=frozenset(i for i in session.marks if board.states[i] == COVERED),
        autoplay=None if board.over else session.autoplay,
        started_at=started,
        ended_at=ended,
        moved_at=now if started else 0,
    )


def clicked(session: Session, board: Board, move: Move, now: int) -> Session:
    """The player's click ``move`` made ``board``: played, or, when it changed nothing, counted as a
    wasted click (:attr:`Session.idle`: left, right, chord)."""
    if board != session.board:
        return played(session, board, move, None, now)
    kind = ("reveal", "flag", "chord").index(move.action)
    idle = tuple(n + (k == kind) for k, n in enumerate(session.idle))
    return replace(session, idle=(idle[0], idle[1], idle[2]))


def revealed(session: Session, pos: Position, now: int) -> Session:
    """A left click: ``pos`` revealed (a zero opens its region)."""
    return clicked(session, reveal(session.board, pos), Move("reveal", pos), now)


def chorded(session: Session, pos: Position, now: int) -> Session:
    """A click on a number whose flags are all placed: its other neighbours revealed."""
    return clicked(session, chord(session.board, pos), Move("chord", pos), now)


def flagged(session: Session, pos: Position, now: int) -> Session:
    """A right click: flag and unflag, or, with question marks on, cycle flag -> "?" -> covered."""
    board = session.board
    after = toggle_flag(board, pos)  # checks the position and that the game is on
    move = Move("flag", pos)
    if not session.settings.question_marks:
        return clicked(session, after, move, now)
    index = board.index(pos)
    if index in session.marks:  # "?" -> covered: an annotation only, the board does not change
        return replace(session, marks=session.marks - {index})
    after_session = played(session, after, move, None, now)
    if board.states[index] == FLAGGED:  # flag -> "?"
        return replace(after_session, marks=after_session.marks | {index})
    return after_session


def stepped(session: Session, strategy: str | Strategy | None, now: int) -> Session:
    """The session after one move of ``strategy`` (an autoplayer move: the game counts as assisted)."""
    require_live(session)
    fn, name = _strategy(session, strategy)
    board, move = step(session.board, fn, name)
    helped = replace(session.assistance, autoplayer_moves=session.assistance.autoplayer_moves + 1)
    return played(replace(session, assistance=helped), board, move, name, now)


def hinted(session: Session, strategy: str | Strategy | None) -> Session:
    """The strategy's next move, shown as a hint (not played), and counted as help."""
    fn, name = _strategy(session, strategy)
    move = ask(session.board, fn, name)
    helped = replace(session.assistance, hints=session.assistance.hints + 1)
    return replace(session, hint=Turn(move.kept(), name), assistance=helped)


def safe_hinted(session: Session, after: Position) -> Session:
    """The first cell after ``after`` that the exact solver proves safe, shown as a hint and counted as one;
    a MessageError (nothing counted) when the game is not on or no cell is certainly safe."""
    board = session.board
    board.index(after)  # a cell of the board
    if board.over:
        raise GameOverError(f"the game is {board.status}: start a new game to play again")
    if board.status == "ready":
        raise MessageError(phrases.no_safe_yet(board.first_click))
    move = next_safe(board.view, after)
    if move is None:
        raise MessageError(phrases.NO_SAFE_CELL)
    helped = replace(session.assistance, hints=session.assistance.hints + 1)
    return replace(session, hint=Turn(move.kept(), "exact"), assistance=helped)


def playing(session: Session, strategy: str | Strategy | None, moves: int | None) -> Session:
    """The autoplayer runs ``strategy`` for ``moves`` moves (None: to the end; 0: it stops)."""
    if session.board.over:
        raise GameOverError(f"the game is {session.board.status}: start a new game to play again")
    if isinstance(strategy, str):
        require(session.strategy_named(strategy) is not None, f"unknown strategy {quote(strategy)}")
    return replace(session, autoplay=None if moves == 0 else AutoplayRun(strategy, moves))


def board_set(session: Session, new: Board, now: int) -> Session:
    """A board set from Python code mid-game: played as a move of no kind, and counted as help."""
    if new == session.board:
        return session
    helped = replace(session.assistance, boards_set=session.assistance.boards_set + 1)
    return played(replace(session, assistance=helped), new, None, None, now)


def new_game(session: Session, board: Board) -> Session:
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
        idle=(0, 0, 0),
        awaits_link=False,
    )


def undone(session: Session, now: int) -> Session:
    """One move back (after a loss too: the game then counts as assisted)."""
    history = session.history
    if not history.turns:
        return session
    helped = session.assistance
    if history.current.status == "lost":
        helped = replace(helped, undos_after_loss=helped.undos_after_loss + 1)
    return back_to(replace(session, assistance=helped), history.undo(), now)


def scrubbed(session: Session, index: int) -> Session:
    """The slider on board ``index`` of the history (negative counts from the end; the last is live)."""
    last = len(session.history) - 1
    require(-last - 1 <= index <= last, f"history index {quote(index)} is outside 0..{last}")
    index = range(last + 1)[index]
    return replace(session, viewing=None if index == last else index, autoplay=None)


def resumed(session: Session, now: int) -> Session:
    """Continue from the board the slider shows: the moves after it are dropped (a new branch)."""
    if session.viewing is None:
        return session
    helped = replace(session.assistance, rewinds=session.assistance.rewinds + 1)
    return back_to(replace(session, assistance=helped), session.history.upto(session.viewing), now)


def back_to(session: Session, history: History, now: int) -> Session:
    """``session`` with an earlier ``history``: the clock and the autoplayer follow."""
    board = history.current
    started, ended = session.started_at, session.ended_at
    if board.status == "ready":
        started = ended = 0
    elif not board.over:
        ended = 0
    fresh = replace(session, history=history, last_move=None, hint=None, viewing=None, autoplay=None)
    return replace(fresh, started_at=started, ended_at=ended, moved_at=now if started else 0)


def selected(session: Session, name: str) -> Session:
    """The strategy ``name`` selected; a MessageError if the menu has none of that name."""
    known = ", ".join(session.strategy_names)
    require(
        session.strategy_named(name) is not None,
        f"unknown strategy {quote(name, NAME_LIMIT)}: use one of {known}",
    )
    return replace(session, strategy=name)


def with_strategy(session: Session, name: str, fn: Strategy, select: bool) -> Session:
    """``fn`` in the menu as ``name`` (a new version of a strategy keeps its place), selected if asked."""
    menu = session.strategies
    if name in session.strategy_names:
        menu = tuple((known, fn if known == name else f) for known, f in menu)
    else:
        menu = (*menu, (name, fn))
    chosen = name if select or not session.strategy else session.strategy
    return replace(session, strategies=menu, strategy=chosen)


def overlay_shown(session: Session, on: bool) -> Session:
    """The probability overlay on or off; turned on during a game, it counts as help."""
    overlay = session.assistance.overlay or (on and not session.board.over)
    return replace(
        set_settings(session, show_probabilities=on),
        assistance=replace(session.assistance, overlay=overlay),
    )


def question_marks_shown(session: Session, on: bool) -> Session:
    """Question marks on or off; off, the marks placed are gone."""
    marks = session.marks if on else frozenset()
    return replace(set_settings(session, question_marks=on), marks=marks)


def set_settings(session: Session, **changes: Any) -> Session:
    """``session`` with the player's settings changed (each checked by its message)."""
    return replace(session, settings=replace(session.settings, **changes))


def _strategy(session: Session, strategy: str | Strategy | None) -> tuple[Strategy, str]:
    """The strategy ``strategy`` names (a name in the menu, a callable, or None: the selected one), and
    its name."""
    if strategy is None:
        strategy = session.strategy
    if isinstance(strategy, str):
        fn = session.strategy_named(strategy)
        require(fn is not None, f"unknown strategy {quote(strategy, NAME_LIMIT)}")
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
        metrics=session.metrics,
    )


METRICS_CELLS = 10_000
"""A game's metrics are worked out at its end on boards of at most this many cells: they replay every
move (an expert game: 12 ms; 100 x 100 with 1,000 mines, 1,302 moves: 0.65 s at load 6)."""


def replay_of(session: Session) -> Replay:
    """The game as a :class:`~ipyminesweeper.engine.Replay`: the one it was opened from, else its history's
    moves played again from the start (the mines of the end placed on it); a ReplayError if a board set
    from code is not one click."""
    if session.source is not None:
        return session.source
    history = session.history
    start, final, moves = history.start, history.current, history.moves
    if any(move is None for move in moves):
        return Replay.from_boards(history)
    if not start.placed and final.placed:
        start = Board(start.rows, start.cols, start.mines, start.states, final.minefield)
    return Replay.from_clicks(start, [Click(_CLICK_OF[m.action], m.pos) for m in moves if m is not None])


def metrics_of(session: Session) -> GameMetrics | None:
    """The figures of the game (:func:`~ipyminesweeper.engine.game_metrics`: 3BV, clicks, efficiency, ...),
    its wasted clicks and its time included; None before the mines are placed, on a board of more than
    :data:`METRICS_CELLS` cells, or when a board set from code is not one click."""
    board = session.board
    if not board.placed or board.rows * board.cols > METRICS_CELLS:
        return None
    try:
        replay = replay_of(session)
    except ReplayError:
        return None
    found = game_metrics(replay)
    clicks = found.clicks
    if session.source is None:  # the history has no wasted click: they were counted apart
        left, right, chords = session.idle
        clicks = replace(
            clicks, left=clicks.left + left, right=clicks.right + right, chord=clicks.chord + chords
        )
    seconds = found.seconds if session.source is not None and found.seconds else session.elapsed or None
    return replace(found, clicks=clicks, seconds=seconds)


# --- the review, links and shared games ----------------------------------------------------------------


def review_shown(session: Session, index: int | None) -> Session:
    """The review of the finished game at move ``index`` (None: the move shown last): worked out the first
    time, by the exact solver from each move's view. A MessageError while the game is on (the solver's
    moves would be hints) or when it cannot be replayed."""
    if not session.board.over:
        raise MessageError(phrases.REVIEW_AFTER_END)
    done = session.reviewed
    if done is None:
        try:
            done = Reviewed(review(replay_of(session)), 0)
        except ReplayError as error:
            raise MessageError(f"this game cannot be reviewed: {error}") from None
    count = len(done.review.rows)
    index = done.index if index is None else index
    last = max(count - 1, 0)
    require(index <= last, f"move index {quote(index)} is outside 0..{last} of the review")
    return replace(session, reviewed=replace(done, index=index, shown=True), viewing=None, autoplay=None)


def review_closed(session: Session) -> Session:
    """The review panel closed (the review is kept while the game stays as it is)."""
    done = session.reviewed
    return session if done is None else replace(session, reviewed=replace(done, shown=False))


def linked(session: Session, mode: str | None) -> Session:
    """The link of this game made (:mod:`.link`; a LinkError says why it cannot be): the widget shows it."""
    board = session.board
    chosen = mode if mode is not None else "review" if board.over else "moves"
    source = session.source
    start, clicks = (source.start, list(source.clicks)) if source else (session.history.start, None)
    if clicks is None:
        clicks = moves_clicks(session.history.moves) if chosen != "board" else []
    seconds = session.elapsed or None
    return replace(session, shared=Shared(game_code(start, clicks, board, chosen, seconds), chosen))


def opened(session: Session, game: SharedGame, now: int) -> Session:
    """A shared game (a link's, a replay file's) in place of this one: its board from the start, or its
    moves, played again (with its review, for a review link). The strategies, settings and statistics
    stay; the game counts as helped if it goes on."""
    replay = game.replay
    fresh = new_game(session, replay.start)
    if game.mode == "board":
        return fresh
    history, idle = History.begin(replay.start), [0, 0, 0]
    for click, before, board in replay.steps():
        if board == before:
            idle[("left", "right", "chord").index(click.kind)] += 1
        else:
            history = history.add(board, Move(_ACTION_OF[click.kind], click.pos))
    final = history.current
    seconds = game.seconds if game.seconds is not None else replay.duration
    started = 0 if final.status == "ready" else now - round((seconds or 0) * 1000)
    after = replace(
        fresh,
        history=history,
        assistance=replace(fresh.assistance, opened=True),
        started_at=started,
        ended_at=now if final.over else 0,
        moved_at=now if started else 0,
        idle=(idle[0], idle[1], idle[2]),
        source=replay,
    )
    after = replace(after, metrics=metrics_of(after) if final.over else None)
    return review_shown(after, 0) if game.mode == "review" else after


_ACTION_OF: dict[str, Action] = {"left": "reveal", "right": "flag", "chord": "chord"}
_CLICK_OF: dict[str, ClickKind] = {"reveal": "left", "flag": "right", "chord": "chord"}
