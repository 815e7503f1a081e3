"""The Minesweeper Jupyter widget: a thin imperative shell around a pure ``update`` loop.

>>> from ipyminesweeper import Minesweeper, reveal
>>> w = Minesweeper(size=9, mines=10, seed=1)
>>> w.board = reveal(w.board, (4, 4))       # the functional loop: board in, board out
>>> w.status
'playing'

The shell does four things and nothing else: it turns browser input and Python calls into messages
(:mod:`.messages`), hands them to :func:`~ipyminesweeper.widget.session.update`, performs the effects
``update`` returns (:mod:`.effects`: draw a seed, record a finished game, log a problem), and sets the
synced traitlets to what :func:`~ipyminesweeper.widget.render.render` says. Every change goes through one
method, :meth:`Minesweeper._commit`; after it, the timers follow :func:`.subscriptions.subscriptions`.
A message that cannot apply changes nothing: from Python it raises, from the browser it is logged and
shown in the widget. See ``js/README.md`` for the front end.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import anywidget
import traitlets as t

from ..engine import Board, BoardOptions, Position, View, format_position, new_board
from ..engine.errors import quote
from ..engine.geometry import as_position
from ..engine.minefield import new_seed
from ..play import Move, Strategy
from . import messages as msg
from .board_sync import board_change, wire_cells
from .effects import DrawSeed, Effect, LoadStats, Log, RecordResult, ResendBoard, ResendSettings
from .history import History
from .jobs import GUARD, Job
from .messages import FRONTEND_WRITABLE, SETTINGS, Message, MessageError, from_browser, setting_message
from .render import render, snapshot_html
from .session import Session, autoplayer_name, start, update, update_all
from .stats import GameResult, Stats
from .stats_file import StatsFile
from .subscriptions import Every, subscriptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["FRONTEND_WRITABLE", "STATIC", "STRATEGY_TIME_LIMIT", "Minesweeper"]

logger = logging.getLogger(__name__)

STATIC = Path(__file__).parent.parent / "static"
"""The built front end (``widget.js``, ``widget.css``), shipped in the wheel."""

STRATEGY_TIME_LIMIT = 5.0
"""How long, in seconds, a strategy may think over one autoplayer move by default."""
MAX_TIME_LIMIT = 3600.0
"""The longest time limit :attr:`Minesweeper.strategy_time_limit` accepts, in seconds."""
FOREGROUND = 0.25
"""How long, in seconds, a browser request may hold the kernel: past it the work goes on in a worker
thread, the widget shows it (``busy``) with a Cancel button, and later requests wait their turn."""
DROPPED_NOTICE = 1.0
"""A strategy that a Pause stops after thinking this many seconds or more is named in the widget."""


def _now_ms() -> int:
    return int(time.time() * 1000)


class StatsStore(Protocol):
    """Where finished games are kept: the shell performs ``RecordResult`` and ``LoadStats`` with it."""

    def load(self) -> Stats:
        """The statistics of every game recorded so far."""
        ...

    def add(self, result: GameResult) -> Stats:
        """Record ``result`` (replacing an earlier result of the same game); the statistics after it."""
        ...

    def notice(self) -> str:
        """What the store has to say since the last call (each notice once), or ""."""
        ...


def starting_board(
    level: str | Board | None = None, *, board: Board | None = None, **options: Unpack[BoardOptions]
) -> Board:
    """The start board for the constructor's (and ``new_game``'s) arguments. A board given whole is
    taken as it is; everything else goes to :func:`~ipyminesweeper.new_board`, which checks it (an
    argument left out or None takes new_board's default)."""
    given: dict[str, Any] = {k: v for k, v in options.items() if v is not None}
    if isinstance(level, Board):
        if board is not None:
            raise TypeError("give the board once: Minesweeper(board) or Minesweeper(board=board)")
        board, level = level, None
    if board is not None:
        if not isinstance(board, Board):
            raise TypeError(f"board must be an ipyminesweeper Board, not {type(board).__name__}")
        if level is not None or given:
            raise TypeError(
                "a given board already has its size, mines, seed and first-click rule: pass nothing "
                f"else (got {', '.join(f'{k}=' for k in given) or 'a level'})"
            )
        return board
    return new_board(level=level, **given)


class Minesweeper(anywidget.AnyWidget):
    """A playable Minesweeper board in the notebook, backed by an immutable :class:`Board`.

    ``Minesweeper()`` (intermediate), ``Minesweeper(size=16, mines=40)``,
    ``Minesweeper(rows=16, cols=30, mines=99)``, ``Minesweeper("expert")``,
    ``Minesweeper(size=20, density=0.15)``, ``Minesweeper(board=some_board)``; plus ``seed=`` and
    ``first_click=`` with the engine's meanings, ``strategy=`` and ``delay=`` for the autoplayer, and any
    ``anywidget.AnyWidget`` keyword (``layout=...``).
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    # --- synced: the player's view only (render.py computes them all) ----------------------------
    rows = t.Int(16, read_only=True).tag(sync=True)
    cols = t.Int(16, read_only=True).tag(sync=True)
    mines = t.Int(40, read_only=True).tag(sync=True)
    first_click = t.Unicode("opening", read_only=True, help="the game's first-click policy").tag(sync=True)
    level = t.Unicode("intermediate", read_only=True, help='"expert", ... or "16x20/50"').tag(sync=True)
    status = t.Unicode("ready", read_only=True, help="ready | playing | won | lost").tag(sync=True)
    cells = t.Unicode("", read_only=True, help="board.view.cells (the view alphabet)").tag(
        sync=True,
        to_json=lambda cells, _widget: wire_cells(cells),  # a big board's view travels packed
    )
    cells_version = t.Int(0, read_only=True, help="changes of cells so far (see board_sync)").tag(sync=True)
    board_patch = t.Bytes(b"", read_only=True, help="the last change of cells, as a patch").tag(sync=True)
    mines_left = t.Int(40, read_only=True, help="mines minus flags").tag(sync=True)
    started_at = t.Int(0, read_only=True, help="epoch ms of the first reveal, 0 before").tag(sync=True)
    ended_at = t.Int(0, read_only=True, help="epoch ms of the end of the game, 0 before").tag(sync=True)
    can_undo = t.Bool(False, read_only=True).tag(sync=True)
    summary = t.Unicode("", read_only=True, help='the end message, e.g. "won in 41 s"').tag(sync=True)
    error = t.Unicode("", read_only=True, help="why the last message was rejected").tag(sync=True)
    error_details = t.Unicode("", read_only=True, help="traceback of a failing strategy").tag(sync=True)
    # --- synced: the autoplayer -------------------------------------------------------------------
    strategies = t.List(t.Unicode(), read_only=True).tag(sync=True)
    strategy = t.Unicode("", help="name of the strategy Step and Play use").tag(sync=True)
    last_move = t.Dict(read_only=True, help="{action, row, col, reason, probability, strategy}").tag(
        sync=True
    )
    hint_move = t.Dict(read_only=True, help="the move w.hint() showed: not played").tag(sync=True)
    show_probabilities = t.Bool(False, help="overlay mine probabilities").tag(sync=True)
    probabilities = t.Dict(
        read_only=True,
        help='flat cell index (str) -> P(mine) next to the numbers; "*" -> P(mine) of all the others',
    ).tag(sync=True)
    autoplaying = t.Bool(False, read_only=True).tag(sync=True)
    delay = t.Float(0.25, help="seconds between autoplay moves").tag(sync=True)
    # --- synced: the player's settings, history and statistics -----------------------------------
    labels = t.Bool(False, allow_none=True, help="row/column labels; None: on once help is used").tag(
        sync=True
    )
    cell_size = t.Int(0, help="cell size in pixels (16 to 64), 0 to fit the width").tag(sync=True)
    question_marks = t.Bool(False, help='right click cycles flag, "?", covered').tag(sync=True)
    marks = t.List(t.Int(), read_only=True, help='flat indices of the cells marked "?"').tag(sync=True)
    history_length = t.Int(1, read_only=True, help="boards in the history").tag(sync=True)
    viewing = t.Int(-1, read_only=True, help="the history board on screen, -1 for the live game").tag(
        sync=True
    )
    history_step = t.Dict(read_only=True, help="how the board on screen was reached").tag(sync=True)
    stats_table = t.List(t.Dict(), read_only=True, help="statistics per level and first click").tag(sync=True)
    elapsed = t.Float(
        0.0, read_only=True, help="seconds of play at the last change (a saved copy's frozen timer)"
    ).tag(sync=True)
    # --- synced: the browser's input channel (see messages.decode_requests) ------------------------
    requests = t.List(
        t.Dict(), help="written by the browser: its unanswered requests, {id, action, row?, col?}"
    ).tag(sync=True, echo_update=False)
    handled = t.Int(0, read_only=True, help="id of the last browser request answered").tag(sync=True)
    busy = t.Unicode(
        "", read_only=True, help="what the kernel works on for the browser, and for how long ('': nothing)"
    ).tag(sync=True)

    def __init__(
        self,
        level: str | Board | None = None,
        *,
        board: Board | None = None,
        size: int | None = None,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        density: float | None = None,
        seed: int | None = None,
        first_click: str | None = None,
        strategy: str | None = None,
        delay: float | None = None,
        **kwargs: Any,
    ) -> None:
        # before anything is made: a keyword that is neither a parameter nor a trait (ipywidgets' own
        # traits, such as layout, pass)
        more = ", or a widget trait such as layout"
        _check_keywords(kwargs, type(self).class_trait_names(), "Minesweeper()", _PARAMETERS, more)
        board = starting_board(
            level,
            board=board,
            size=size,
            rows=rows,
            cols=cols,
            mines=mines,
            density=density,
            seed=seed,
            first_click=first_click,
        )
        session = start(board, strategy=strategy, delay=delay)
        self._session = session
        self._timers: dict[Every, asyncio.Task[None]] = {}
        self._job: Job[Any] | None = None  # the autoplayer's move being computed, in a worker thread
        self._time_limit = STRATEGY_TIME_LIMIT
        self._work: Job[Any] | None = None  # a browser request's work, past FOREGROUND seconds
        self._work_what = ""
        self._waiting: list[msg.FromBrowser] = []  # requests that came while it works
        self._taken = 0  # the highest request id taken in (working on it, or waiting)
        self._browser_turn = False  # a new game drawn for the browser is bounded too
        self._rendering = False
        self._python_calls = 0  # > 0 while a call from the user's code runs: the board is sent whole
        self._patched = False  # the message being sent carries the board as a patch
        self._store: StatsStore = StatsFile()
        self.last_error: BaseException | None = None
        """The last exception a message raised (a rejected call, or a failing strategy), for debugging."""
        # before the comm opens: the browser's first state is this
        self._commit(session, (LoadStats(),), self._state_of(session))
        super().__init__(**kwargs)

    # --- the loop: update, perform the effects, render ---------------------------------------------------

    @property
    def session(self) -> Session:
        """The current :class:`~ipyminesweeper.widget.session.Session` (an immutable value)."""
        return self._session

    def send(self, *messages: Message) -> Session:
        """Apply ``messages`` in order, all or nothing, and show the result; returns the new session.

        If one is rejected, or the new session cannot be shown, it raises and the widget stays exactly as
        it was.
        """
        try:
            session, effects = update_all(self._session, messages, now=_now_ms())
            state = self._state_of(session)
        except Exception as exc:
            self.last_error = exc
            raise
        with self._whole_board():
            self._commit(session, effects, state)
        return self._session

    def _dispatch(self, message: Message) -> None:
        """A message with no caller to raise to (the browser, a timer, an effect's outcome). If its
        session cannot be shown, the widget keeps the session it had and shows why (see ``Refused``)."""
        self._commit(*self._outcome(self._session, message, _now_ms()))

    def _outcome(
        self, session: Session, message: Message, now: int
    ) -> tuple[Session, tuple[Effect, ...], dict[str, Any]]:
        """What ``message`` makes of ``session``, rendered and checked, or, when that fails, the
        ``Refused`` session (the same pure functions in the kernel's thread or a worker)."""
        try:
            after, effects = update(session, message, now=now)
            return after, effects, self._state_of(after)
        except Exception as exc:
            request = message.request if isinstance(message, msg.FromBrowser) else None
            after, effects = update(session, msg.Refused(exc, request), now=now)
            return after, effects, self._state_of(after)

    def _state_of(self, session: Session) -> dict[str, Any]:
        """What the synced traitlets will hold for ``session``, checked before anything changes: it
        renders, each changed value is what its traitlet accepts, and it is strict JSON (no NaN or
        infinity, which the messaging protocol refuses). Raises otherwise."""
        state = render(session)
        traits = self.traits()
        for name, value in state.items():
            if isinstance(value, (str, bool)) or getattr(self, name) == value:
                continue
            traits[name].validate(self, value)
            json.dumps(value, allow_nan=False)
        return state

    def _commit(self, session: Session, effects: tuple[Effect, ...], state: dict[str, Any]) -> None:
        """The one way the widget changes: keep ``session``, show its ``state`` (from :meth:`_state_of`),
        perform ``effects``, and run the timers ``session`` subscribes to."""
        before, self._session = self._session, session
        if session.problem is not None and session.problem is not before.problem:
            self.last_error = session.problem.error
        self._show(state)
        for effect in effects:
            self._perform(effect)
        self._follow_subscriptions()

    def _show(self, state: dict[str, Any]) -> None:
        self._rendering = True
        sent = self.cells
        try:
            with self.hold_sync():
                for name, value in state.items():  # render() puts status last
                    if getattr(self, name) != value:
                        self.set_trait(name, value)
                self._send_board(sent)
        finally:
            self._rendering = False

    # --- the board on the wire: a patch when it can be (see board_sync.py) ------------------------------

    @contextmanager
    def _whole_board(self) -> Iterator[None]:
        """While a call from the user's code runs, the board goes whole (a notebook runner records it)."""
        self._python_calls += 1
        try:
            yield
        finally:
            self._python_calls -= 1

    def _send_board(self, sent: str) -> None:
        """After ``cells`` went from ``sent`` to its new value: bump its version, and carry the change
        as a patch when :func:`.board_sync.board_change` says so."""
        change = board_change(sent, self.cells, self.cells_version, whole=self._python_calls > 0)
        if change is None:
            return
        self.set_trait("cells_version", change.version)
        self.set_trait("board_patch", change.patch or b"")
        self._patched = change.patch is not None

    def send_state(self, key: str | Iterable[str] | None = None) -> None:
        """Send state to the browser; a message whose board change is a patch leaves out the whole view
        (``cells``, ``cells_version``). A request for the whole state (no key) always has it."""
        patched, self._patched = self._patched, False
        if patched and key is not None:
            key = [k for k in ([key] if isinstance(key, str) else key) if k not in ("cells", "cells_version")]
        super().send_state(key)

    def _perform(self, effect: Effect) -> None:
        """Do what ``update`` asked: the only place with randomness, files and the log."""
        match effect:
            case DrawSeed(game):
                drawn = replace(game, seed=new_seed())
                if self._browser_turn:  # the browser asked: placing the mines may take a while
                    self._bounded(drawn)
                else:
                    self._dispatch(drawn)
            case RecordResult(result):
                stats = self._store.add(result)
                self._dispatch(msg.StatsChanged(stats, self._store.notice()))
            case LoadStats():
                stats = self._store.load()
                self._dispatch(msg.StatsChanged(stats, self._store.notice()))
            case Log(text, error):
                cause = None if error is None else error.__cause__
                if cause is None:
                    logger.warning("ipyminesweeper: %s", text)
                else:
                    logger.error("ipyminesweeper: %s", text, exc_info=cause)
            case ResendSettings():
                self.send_state([name for name in FRONTEND_WRITABLE if name in self.keys])
            case ResendBoard():
                self.send_state(["cells", "cells_version"])

    def _follow_subscriptions(self) -> None:
        """Start the timers the session asks for, and stop the ones it no longer does."""
        wanted = subscriptions(self._session)
        for sub in [sub for sub in self._timers if sub not in wanted]:
            task = self._timers.pop(sub)
            if task is not _current_task():  # a timer that ended its own run stops by itself
                task.cancel()
        if not wanted and self._job is None:
            GUARD.release(self)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a script): autoplay() plays at once instead
        for sub in wanted:
            if sub not in self._timers:
                self._timers[sub] = loop.create_task(self._every(sub))

    async def _every(self, sub: Every) -> None:
        """A timer: ``sub.message`` now, then ``sub.seconds`` after each, while the session asks for it."""
        me = asyncio.current_task()
        try:
            while self._timers.get(sub) is me:
                await self._in_background(sub.message)
                if self._timers.get(sub) is not me:
                    break
                await asyncio.sleep(sub.seconds)
        except asyncio.CancelledError:
            pass  # stopped by a change of the session: the run is over, not failed
        finally:
            if self._timers.get(sub) is me:
                del self._timers[sub]

    async def _in_background(self, message: Message) -> None:
        """``message`` computed in a worker thread (update, render and checks) while the kernel stays free,
        and kept only if nothing changed the session meanwhile: a Pause, a click or a cell that comes first
        wins, and the move is dropped. Past :attr:`strategy_time_limit` the work is stopped and the widget
        says which strategy ran for how long; the kernel's interrupt stops it too (see :mod:`.jobs`)."""
        before, now, loop = self._session, _now_ms(), asyncio.get_running_loop()

        def work() -> tuple[Session, tuple[Effect, ...], dict[str, Any]]:
            session, effects = update(before, message, now=now)
            return session, effects, self._state_of(session)

        job = Job(work, loop, type(message).__name__)
        self._job = job
        GUARD.hold(self, self._interrupted, loop)
        try:
            session, effects, state = await job.result(self._time_limit)
        except asyncio.TimeoutError:
            job.stop()
            if self._session is before:
                self._stopped(before, job, "time limit")
            return
        except (
            asyncio.CancelledError
        ):  # the timer was stopped (a Pause, a new autoplayer): the move is dropped
            if not job.stopped and job.seconds >= DROPPED_NOTICE:
                self._stopped(before, job, "dropped")
            job.stop()
            raise
        except Exception as error:  # it could not be shown (update itself never raises for a timer)
            if self._session is before:
                self._dispatch(msg.Refused(error))
            return
        finally:
            if self._job is job:
                self._job = None
        if self._session is before:
            self._commit(session, effects, state)

    def _stopped(self, before: Session, job: Job[Any], why: str) -> None:
        self._dispatch(msg.StrategyStopped(autoplayer_name(before), job.seconds, why, self._time_limit))

    def _interrupted(self) -> None:
        """The kernel's interrupt (on the event loop): stop the work under way and the autoplayer."""
        job = self._job
        if job is not None:
            job.stop()
        if self._session.autoplaying or job is not None:
            seconds = 0.0 if job is None else job.seconds
            name = autoplayer_name(self._session)
            self._dispatch(msg.StrategyStopped(name, seconds, "interrupt", self._time_limit))

    @property
    def strategy_time_limit(self) -> float:
        """How long, in seconds, a strategy may think over one autoplayer move before it is stopped (the
        autoplayer stops with it, and the widget says so). Default :data:`STRATEGY_TIME_LIMIT`."""
        return self._time_limit

    @strategy_time_limit.setter
    def strategy_time_limit(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"strategy_time_limit is a number of seconds, not {quote(seconds)}")
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIME_LIMIT):
            raise ValueError(
                f"strategy_time_limit is from 0 to {MAX_TIME_LIMIT:g} seconds (not 0), not {quote(seconds)}"
            )
        self._time_limit = float(seconds)

    # --- statistics -------------------------------------------------------------------------------------

    @property
    def stats(self) -> Stats:
        """Statistics of every finished game (a frozen value), read from the statistics file.

        They survive a kernel restart: see :mod:`ipyminesweeper.widget.stats_file` for where they live.
        """
        return self._store.load()

    # --- the board and its history -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The current immutable :class:`Board`. Assign a new one to play a move (it joins history)."""
        return self._session.board

    @board.setter
    def board(self, value: Board) -> None:
        self.send(msg.SetBoard(value))

    @property
    def history(self) -> History:
        """Every board since the game started, oldest first: an immutable sequence, ``history[-1]``
        is the current board."""
        return self._session.history

    @property
    def view(self) -> View:
        """The player's view of the current board (what the browser shows)."""
        return self._session.view

    @property
    def text(self) -> str:
        """The board on screen in the view's text notation (what the Copy button copies)."""
        return self._session.shown.view.to_text()

    def reveal(self, row: int | Position, col: int | None = None) -> Board:
        """Reveal ``(row, col)`` (cascading through zeros); returns the new board. ``w.reveal(3, 4)``
        and ``w.reveal((3, 4))`` both work."""
        return self.send(msg.Reveal(_position("reveal", row, col))).board

    def flag(self, row: int | Position, col: int | None = None) -> Board:
        """Toggle the flag on ``(row, col)``; returns the new board. ``w.flag((3, 4))`` works too."""
        return self.send(msg.Flag(_position("flag", row, col))).board

    def chord(self, row: int | Position, col: int | None = None) -> Board:
        """Chord the number at ``(row, col)`` (reveal its other neighbours if its flags match).
        ``w.chord((3, 4))`` works too."""
        return self.send(msg.Chord(_position("chord", row, col))).board

    def undo(self) -> Board:
        """Go back one move (nothing at the start of a game); returns the board now shown.

        Allowed after a loss too, as in Simon Tatham's Mines; the game then counts as assisted.
        """
        return self.send(msg.Undo()).board

    def scrub(self, index: int) -> Board:
        """Look at board ``index`` of the history (read-only; negative indices count from the end)."""
        return self.send(msg.Scrub(index)).shown

    def live(self) -> Board:
        """Back to the live game after looking through the history."""
        return self.send(msg.Live()).board

    def resume(self) -> Board:
        """Continue the game from the board on screen: a new branch (the game counts as assisted)."""
        return self.send(msg.Resume()).board

    def new_game(
        self, level: str | Board | None = None, *, board: Board | None = None, **options: Unpack[BoardOptions]
    ) -> Board:
        """Start again. Without arguments: same size, mines and first-click rule, a fresh random seed.

        Takes the constructor's board arguments otherwise (``level``, ``board``, ``size``, ``rows``,
        ``cols``, ``mines``, ``density``, ``seed``, ``first_click``; all checked before anything
        changes). Clears the history and stops the autoplayer.
        """
        _check_keywords(options, BoardOptions.__optional_keys__, "new_game()", _BOARD_PARAMETERS)
        current = self._session.board
        given_board = board is not None or isinstance(level, Board)
        seed = options.get("seed")
        shape = [v for k, v in options.items() if k not in ("seed", "first_click")]
        if level is None and board is None and all(v is None for v in shape):
            options.update({"rows": current.rows, "cols": current.cols, "mines": current.mines})
        if not given_board:
            if options.get("first_click") is None:
                options["first_click"] = current.first_click
            options["seed"] = 0 if seed is None else seed  # checked here; a fresh one comes from the shell
        given = starting_board(level, board=board, **options)
        if given_board or seed is not None:
            return self.send(msg.NewGame(given)).board
        kind = msg.NewGameOf(
            rows=given.rows, cols=given.cols, mines=given.mines, first_click=given.first_click
        )
        return self.send(kind).board

    # --- the autoplayer -----------------------------------------------------------------------------

    def register_strategy(self, name: str, strategy: Strategy, *, select: bool = False) -> None:
        """Add ``strategy`` (view -> Move) to this widget's strategy menu, and select it if asked."""
        self.send(msg.AddStrategy(name, strategy, select))

    def hint(self, strategy: str | Strategy | None = None) -> Move:
        """Show the move ``strategy`` would play, with its reason, without playing it (counts as a hint)."""
        session = self.send(msg.Hint(strategy))
        assert session.hint is not None and session.hint.move is not None
        return session.hint.move

    def step(self, strategy: str | Strategy | None = None) -> Move:
        """Play one move of ``strategy`` (a name, a callable, or the selected one) and return the Move.

        A callable is run as it is, not added to the menu. If it raises, the exception propagates here
        with its traceback (chained under a StrategyError), and nothing changes. The autoplayer stops.
        """
        session = self.send(msg.Step(strategy))
        assert session.last_move is not None and session.last_move.move is not None
        return session.last_move.move

    def autoplay(
        self,
        strategy: str | Strategy | None = None,
        moves: int | None = None,
        delay: float | None = None,
    ) -> asyncio.Task[None] | None:
        """Play ``strategy`` until the game ends (or ``moves`` moves), ``delay`` seconds apart.

        Every argument is checked before anything changes. Inside a running event loop (a Jupyter
        kernel) this returns at once: an asyncio task (the autoplayer's timer) plays the moves, the
        kernel stays free, and ``pause()`` stops it. Without a running loop (a script) the moves are
        played at once and None is returned; a failing strategy then raises here.
        """
        messages: list[Message] = []
        if isinstance(strategy, str):
            messages.append(msg.SelectStrategy(strategy))
        if delay is not None:
            messages.append(msg.SetDelay(delay))
        messages.append(msg.Play(None if isinstance(strategy, str) else strategy, moves))
        self.send(*messages)
        if self._timers:
            return next(iter(self._timers.values()))
        while self._session.autoplaying:  # no event loop: play now, and raise what stopped the run
            self._dispatch(msg.AutoStep())
            problem = self._session.problem
            if problem is not None and problem.error is not None:
                raise problem.error
        return None

    def pause(self) -> None:
        """Stop the autoplayer (the move being played finishes)."""
        self.send(msg.Pause())

    # --- the player's settings, set from Python ------------------------------------------------------

    @t.validate(*SETTINGS)
    def _set_setting(self, proposal: Mapping[str, Any]) -> Any:
        """``w.delay = 0.5`` is the message ``SetDelay(0.5)``, sent like any other (a refused one raises a
        TraitError and changes nothing); the traitlet then holds what render says."""
        name = proposal["trait"].name
        if self._rendering:  # render setting the traitlet: nothing to send
            return proposal["value"]
        try:
            self.send(setting_message(name, proposal["value"]))
        except ValueError as exc:
            raise t.TraitError(str(exc)) from exc
        return getattr(self, name)

    # --- reprs (where widgets do not render) ---------------------------------------------------------

    def __repr__(self) -> str:
        return repr(self._session.board).replace("<Board", "<Minesweeper", 1)

    def _repr_html_(self) -> str:
        """A small snapshot of the view, saved in the notebook for viewers without widgets."""
        return snapshot_html(self._session)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        parent = getattr(super(), "_repr_mimebundle_", None)
        if parent is None:  # ipywidgets 7 displays itself with _ipython_display_; this is for other callers
            view = {"version_major": 2, "version_minor": 0, "model_id": self.model_id}
            bundle: Any = ({"application/vnd.jupyter.widget-view+json": view}, {})
        else:
            bundle = parent(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            data["text/plain"] = repr(self)
            data["text/html"] = self._repr_html_()
        return bundle

    # --- state from the browser (untrusted) ------------------------------------------------------------

    def set_state(self, sync_data: Any) -> None:
        """State sent by the browser: the player's settings (``SETTINGS``) and ``requests``.

        Settings are applied all or nothing. Then each new request (id above ``handled``) is applied on
        its own: a rejected one is shown and the next still runs. Nothing here raises.
        """
        messages, requests = from_browser(sync_data, max(self._session.handled, self._taken))
        if requests is not None:  # kept as ipywidgets keeps any value the front end writes (no echo)
            super().set_state({"requests": requests})
        for message in messages:
            self._taken = max(self._taken, message.request or 0)
            if self._work is None:
                self._bounded(message)
            elif any(isinstance(m, msg.Cancel) for m in message.messages):
                self._cancel(message.request)
            else:
                self._waiting.append(message)

    # --- work for the browser that takes longer: in the background, shown, cancellable ------------------

    def _bounded(self, message: Message) -> None:
        """``message`` from the browser, as :meth:`_dispatch` does, but holding the kernel at most
        :data:`FOREGROUND` seconds: past that the work goes on in a worker thread (see :mod:`.jobs`) and
        the widget shows ``busy`` with a Cancel; the result is kept if the game has not changed meanwhile."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script, a test): at once
            loop = None
        if loop is None:
            self._in_turn(lambda: self._dispatch(message))
            return
        before, now = self._session, _now_ms()
        job = Job(lambda: self._outcome(before, message, now), loop, "request")
        if job.wait(FOREGROUND):
            self._in_turn(lambda: self._commit(*job.outcome()))
            return
        self._work, self._work_what = job, _what(message)
        self._show_busy(job)
        loop.create_task(self._finish(job, before, message))

    def _in_turn(self, act: Callable[[], None]) -> None:
        turn, self._browser_turn = self._browser_turn, True
        try:
            act()
        finally:
            self._browser_turn = turn

    async def _finish(self, job: Job[Any], before: Session, message: Message) -> None:
        """Wait for the work (showing how long it has run), keep its result, then the waiting requests."""
        while not job.wait(0):
            await asyncio.sleep(0.1)
            if self._work is not job:  # cancelled
                return
            self._show_busy(job)
        if self._work is not job:
            return
        self._work = None
        self._show_busy(None)
        if self._session is before:
            self._in_turn(lambda: self._commit(*job.outcome()))
        elif isinstance(message, msg.FromBrowser) and message.request is not None:
            late = MessageError(f"{self._work_what}: dropped, the game changed while the kernel worked on it")
            self._dispatch(msg.Refused(late, message.request))
        while self._waiting and self._work is None:
            self._bounded(self._waiting.pop(0))

    def _cancel(self, request: int | None) -> None:
        """The browser's Cancel: stop the work under way (its thread is told to stop, its result dropped),
        and drop the requests waiting for it."""
        job, self._work = self._work, None
        if job is None:
            return
        job.stop()
        self._show_busy(None)
        dropped, self._waiting = len(self._waiting), []
        also = f"; {dropped} later request{'s' if dropped > 1 else ''} dropped" if dropped else ""
        text = f"cancelled: {self._work_what} after {job.seconds:.1f} s; the game is as it was{also}"
        self._dispatch(msg.Refused(MessageError(text), request))

    def _show_busy(self, job: Job[Any] | None) -> None:
        text = "" if job is None else f"working on {self._work_what}: {int(job.seconds)} s"
        if self.busy != text:
            self.set_trait("busy", text)


def _what(message: Message) -> str:
    """A request in a few words, for the busy line: ``"hint"``, ``"new game"``, ``"reveal (4,7)"``."""
    parts = message.messages if isinstance(message, msg.FromBrowser) else (message,)
    words = []
    for part in parts:
        name = part.action or "setting"
        pos = getattr(part, "pos", None)
        words.append(name.replace("_", " ") + ("" if pos is None else f" {format_position(pos)}"))
    return ", ".join(words)


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop
        return None


def _position(method: str, row: object, col: object) -> Position:
    """The position of ``w.reveal(3, 4)`` or ``w.reveal((3, 4))``, or an error that shows both."""
    if col is None:
        if isinstance(row, int) and not isinstance(row, bool):
            raise TypeError(
                f"row {row} needs a column: write w.{method}({row}, col) or w.{method}(({row}, col))"
            )
        return as_position(row)
    return as_position((row, col))


_BOARD_PARAMETERS = ("level", "board", *BoardOptions.__annotations__)
"""The keyword arguments of ``new_game(...)``: a level, a board, or new_board's options."""
_PARAMETERS = (*_BOARD_PARAMETERS, "strategy", "delay")
"""The keyword arguments of ``Minesweeper(...)`` besides the widget's traits."""

_SPELLINGS = {"width": "cols", "height": "rows", "columns": "cols", "n_mines": "mines", "bombs": "mines"}


def _check_keywords(
    kwargs: Mapping[str, Any], allowed: Iterable[str], call: str, valid: Sequence[str], more: str = ""
) -> None:
    """A TypeError for a keyword ``call`` does not take, naming the ``valid`` ones (and ``more``)."""
    allowed = set(allowed)
    unknown = sorted(k for k in kwargs if k not in allowed)
    if not unknown:
        return
    name = unknown[0]
    close = _SPELLINGS.get(name) or next(iter(difflib.get_close_matches(name, valid, 1)), None)
    hint = f" (did you mean {close}=?)" if close else ""
    raise TypeError(f"{call} got an unexpected keyword argument {name!r}{hint}: use {', '.join(valid)}{more}")
