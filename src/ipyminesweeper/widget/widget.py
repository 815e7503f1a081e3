"""The Minesweeper Jupyter widget: a thin imperative shell around a pure ``update`` loop.

>>> from ipyminesweeper import Minesweeper, reveal
>>> w = Minesweeper(size=9, mines=10, seed=1)
>>> w.board = reveal(w.board, (4, 4))       # the functional loop: board in, board out
>>> w.status
'playing'

The shell does four things and nothing else: it turns browser messages and Python calls into messages
(:mod:`.messages`), hands them to :func:`~ipyminesweeper.widget.session.update`, syncs the new session to
the browser as traitlets (:func:`~ipyminesweeper.widget.render.render`), and runs the autoplayer's timer.
A message that cannot apply changes nothing: from Python it raises, from the browser it is logged and shown
in the widget. See ``js/README.md`` for the front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import traceback
from collections.abc import Iterable, Mapping
from functools import reduce
from pathlib import Path
from typing import Any, ClassVar, cast

import anywidget
import traitlets as t

from ..engine import LEVELS, Board, View, new_board
from ..engine.errors import quote
from ..engine.minefield import new_seed
from ..play import Move, Strategy
from .history import History
from .messages import (
    ECHO_LIMIT,
    FRONTEND_WRITABLE,
    SETTINGS,
    AddStrategy,
    Chord,
    Flag,
    Hint,
    Live,
    Message,
    NewGame,
    Pause,
    Play,
    Resume,
    Reveal,
    Scrub,
    SelectStrategy,
    SetBoard,
    SetCellSize,
    SetDelay,
    SetLabels,
    SetQuestionMarks,
    ShowProbabilities,
    Step,
    Undo,
    decode,
    decode_requests,
    decode_state,
)
from .render import render, snapshot_html
from .session import Session, StrategyError, result_of, start, update
from .stats import Stats, level_name
from .stats_file import StatsFile

__all__ = ["DEFAULT_DENSITY", "FRONTEND_WRITABLE", "STATIC", "Minesweeper"]

logger = logging.getLogger(__name__)

STATIC = Path(__file__).parent.parent / "static"
"""The built front end (``widget.js``, ``widget.css``), shipped in the wheel."""

DEFAULT_DENSITY = 40 / 256
"""Mine ratio when only a size is given: the intermediate level's."""
TRACEBACK_LIMIT = 4000
"""A failing user strategy's traceback is shown in the widget, cut to this many characters."""


def _now_ms() -> int:
    return int(time.time() * 1000)


def starting_board(
    level: str | Board | None = None,
    *,
    board: Board | None = None,
    size: int | None = None,
    rows: int | None = None,
    cols: int | None = None,
    mines: int | None = None,
    density: float | None = None,
    seed: int | None = None,
    first_click: str = "opening",
) -> Board:
    """The start board for the constructor's (and ``new_game``'s) arguments; every argument is checked."""
    shape_args = {"size": size, "rows": rows, "cols": cols, "mines": mines, "density": density}
    given = [k for k, v in shape_args.items() if v is not None]
    if isinstance(level, Board):
        if board is not None:
            raise ValueError("give the board once: Minesweeper(board) or Minesweeper(board=board)")
        board, level = level, None
    if board is not None:
        if not isinstance(board, Board):
            raise TypeError(f"board must be an ipyminesweeper Board, not {type(board).__name__}")
        if level is not None or given or seed is not None:
            raise ValueError("a given board already has its size, mines and seed: pass nothing else")
        return board
    if level is not None:
        if not isinstance(level, str):
            hint = " (did you mean size=...?)" if isinstance(level, int) else ""
            raise TypeError(
                f"the first argument is a level name ({', '.join(LEVELS)}) or a Board, "
                f"not {type(level).__name__} {quote(level)}{hint}"
            )
        if given:
            raise ValueError(f"the {level!r} level sets the size and mines: do not also pass {given}")
        return new_board(level, seed=seed, first_click=first_click)
    if size is not None and (rows is not None or cols is not None):
        raise ValueError("give either size= (a square board) or rows= and cols=, not both")
    if (rows is None) != (cols is None):
        raise ValueError("give both rows= and cols= (or size= for a square board)")
    if size is not None:
        rows = cols = size
    if rows is None or cols is None:
        if mines is not None or density is not None:
            raise ValueError("mines= and density= need a size: pass size= or rows= and cols=")
        return new_board("intermediate", seed=seed, first_click=first_click)
    if mines is None and density is None:
        density = DEFAULT_DENSITY
    if mines is not None and density is not None:
        raise ValueError("give mines= (a count) or density= (a ratio), not both")
    return new_board(rows, cols, mines, density=density, seed=seed, first_click=first_click)


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
    cells = t.Unicode("", read_only=True, help="board.view.cells (the view alphabet)").tag(sync=True)
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
        read_only=True, help="flat cell index (str) -> P(mine), covered cells only, while on"
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
    ).tag(sync=True)
    handled = t.Int(0, read_only=True, help="id of the last browser request answered").tag(sync=True)

    _frontend_writable: ClassVar[frozenset[str]] = FRONTEND_WRITABLE

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
        first_click: str = "opening",
        strategy: str | None = None,
        delay: float | None = None,
        **kwargs: Any,
    ) -> None:
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
        self._session: Session = start(board, strategy=strategy, delay=delay)
        self._task: asyncio.Task[None] | None = None
        self._rendering = False
        self._handled = 0
        self._stats_file = StatsFile()
        self.last_error: BaseException | None = None
        """The last exception a message raised (a rejected call, or a failing strategy), for debugging."""
        self._render()  # before the comm opens, so the browser's first state is already this board
        self._show_stats(self._stats_file.load())
        super().__init__(**kwargs)
        self.on_msg(self._on_message)

    # --- the session ---------------------------------------------------------------------------------

    @property
    def session(self) -> Session:
        """The current :class:`~ipyminesweeper.widget.session.Session` (an immutable value)."""
        return self._session

    def send(self, *messages: Message) -> Session:
        """Apply ``messages`` in order, all or nothing, and show the result; returns the new session.

        If one is rejected, it raises and the widget stays exactly as it was.
        """
        try:
            now = _now_ms()
            session = reduce(lambda s, m: update(s, m, now=now), messages, self._session)
        except Exception as exc:
            self.last_error = exc
            raise
        self._commit(session)
        return session

    def _commit(self, session: Session) -> None:
        before, self._session = self._session, session
        self._render(error="", details="")
        result = result_of(session)
        if result is not None and (not before.board.over or session.history is not before.history):
            self._show_stats(self._stats_file.add(result))
        self._follow_autoplay()

    def _render(self, error: str | None = None, details: str | None = None) -> None:
        values = render(self._session)
        values["handled"] = self._handled
        if error is not None:
            values["error"], values["error_details"] = error, details or ""
        self._rendering = True
        try:
            with self.hold_sync():
                for name, value in values.items():  # render() puts status last
                    if getattr(self, name) != value:
                        self.set_trait(name, value)
                started, ended = self._session.started_at, self._session.ended_at
                seconds = ((ended or _now_ms()) - started) / 1000 if started else 0.0
                self.set_trait("elapsed", seconds)
        finally:
            self._rendering = False

    # --- statistics -------------------------------------------------------------------------------------

    @property
    def stats(self) -> Stats:
        """Statistics of every finished game (a frozen value), read from the statistics file.

        They survive a kernel restart: see :mod:`ipyminesweeper.widget.stats_file` for where they live.
        """
        return self._stats_file.load()

    def _show_stats(self, stats: Stats) -> None:
        board = self._session.board
        current = (level_name(board.rows, board.cols, board.mines), board.first_click)
        rows = sorted(stats.table(), key=lambda s: (s.level, s.first_click) != current)
        table = [
            {
                "level": s.level,
                "first_click": s.first_click,
                "played": s.played,
                "won": s.won,
                "best_seconds": s.best_seconds,
                "median_seconds": s.median_seconds,
                "streak": s.streak,
                "best_streak": s.best_streak,
            }
            for s in rows
        ]
        self.set_trait("stats_table", table)

    # --- the board and its history -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The current immutable :class:`Board`. Assign a new one to play a move (it joins history)."""
        return self._session.board

    @board.setter
    def board(self, value: Board) -> None:
        self.send(SetBoard(value))

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

    def reveal(self, row: int, col: int) -> Board:
        """Reveal ``(row, col)`` (cascading through zeros); returns the new board."""
        return self.send(Reveal((row, col))).board

    def flag(self, row: int, col: int) -> Board:
        """Toggle the flag on ``(row, col)``; returns the new board."""
        return self.send(Flag((row, col))).board

    def chord(self, row: int, col: int) -> Board:
        """Chord the number at ``(row, col)`` (reveal its other neighbours if its flags match)."""
        return self.send(Chord((row, col))).board

    def undo(self) -> Board:
        """Go back one move (nothing at the start of a game); returns the board now shown.

        Allowed after a loss too, as in Simon Tatham's Mines; the game then counts as assisted.
        """
        return self.send(Undo()).board

    def scrub(self, index: int) -> Board:
        """Look at board ``index`` of the history (read-only; negative indices count from the end)."""
        return self.send(Scrub(index)).shown

    def live(self) -> Board:
        """Back to the live game after looking through the history."""
        return self.send(Live()).board

    def resume(self) -> Board:
        """Continue the game from the board on screen: a new branch (the game counts as assisted)."""
        return self.send(Resume()).board

    def new_game(
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
    ) -> Board:
        """Start again. Without arguments: same size, mines and first-click rule, a fresh random seed.

        Takes the constructor's arguments otherwise (all checked before anything changes). Clears the
        history and stops the autoplayer.
        """
        current = self._session.board
        if all(v is None for v in (level, board, size, rows, cols, mines, density)):
            rows, cols, mines = current.rows, current.cols, current.mines
        start_board = starting_board(
            level,
            board=board,
            size=size,
            rows=rows,
            cols=cols,
            mines=mines,
            density=density,
            seed=seed,
            first_click=current.first_click if first_click is None else first_click,
        )
        return self.send(Pause(), NewGame(start_board)).board

    def _new_game_from_browser(
        self,
        level: str | None = None,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        first_click: str | None = None,
    ) -> NewGame:
        """The new game the face or the picker asks for: the current settings unless given, a fresh seed."""
        b = self._session.board
        if level is None and rows is None and cols is None and mines is None:
            rows, cols, mines = b.rows, b.cols, b.mines
        policy = b.first_click if first_click is None else first_click
        if level is not None:
            return NewGame(starting_board(level, seed=new_seed(), first_click=policy))
        board = starting_board(rows=rows, cols=cols, mines=mines, seed=new_seed(), first_click=policy)
        return NewGame(board)

    # --- the autoplayer -----------------------------------------------------------------------------

    def register_strategy(self, name: str, strategy: Strategy, *, select: bool = False) -> None:
        """Add ``strategy`` (view -> Move) to this widget's strategy menu, and select it if asked."""
        self.send(AddStrategy(name, strategy, select))

    def hint(self, strategy: str | Strategy | None = None) -> Move:
        """Show the move ``strategy`` would play, with its reason, without playing it (counts as a hint)."""
        session = self.send(Hint(strategy))
        assert session.hint is not None and session.hint.move is not None
        return session.hint.move

    def step(self, strategy: str | Strategy | None = None) -> Move:
        """Play one move of ``strategy`` (a name, a callable, or the selected one) and return the Move.

        A callable is run as it is, not added to the menu. If it raises, the exception propagates here
        with its traceback (chained under a StrategyError), and nothing changes.
        """
        session = self.send(Step(strategy))
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
        kernel) this returns at once: an asyncio task plays the moves, the kernel stays free, and
        ``pause()`` stops it. Without a running loop (a script) the moves are played at once and None is
        returned.
        """
        if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int) or moves < 0):
            raise ValueError(f"moves must be a non-negative int or None, not {quote(moves)}")
        messages: list[Message] = [Pause()]
        if isinstance(strategy, str):
            messages.append(SelectStrategy(strategy))
        if delay is not None:
            messages.append(SetDelay(delay))
        messages.append(Play(None if isinstance(strategy, str) else strategy))
        self._cancel_task()
        self.send(*messages)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._run(moves)
            return None
        self._task = loop.create_task(self._run_async(moves))
        return self._task

    def pause(self) -> None:
        """Stop the autoplayer (the move being played finishes)."""
        self._cancel_task()
        self.send(Pause())

    def _cancel_task(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()

    def _follow_autoplay(self) -> None:
        """Start the timer when the session starts autoplaying (the browser's Play button)."""
        if not self._session.autoplaying or (self._task is not None and not self._task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # a script: autoplay() plays synchronously itself
        self._task = loop.create_task(self._run_async(None))

    def _autoplay_move(self, *, report: bool) -> bool:
        """One timed move; False when the run is over (paused or finished).

        If the strategy fails the run stops; the error is shown in the widget (``report``, for a run in
        the background) or raised to the caller (a synchronous run in a script).
        """
        session = self._session
        if not session.autoplaying:
            return False
        try:
            self.send(Step(session.autoplayer))
        except Exception as exc:
            with contextlib.suppress(Exception):
                self.send(Pause())
            if not report:
                raise
            self._show_problem("autoplay stopped", exc)
            return False
        return self._session.autoplaying

    def _run(self, moves: int | None) -> None:
        played = 0
        while moves is None or played < moves:
            played += 1
            if not self._autoplay_move(report=False):
                break
        if self._session.autoplaying:
            self.send(Pause())

    async def _run_async(self, moves: int | None) -> None:
        me = asyncio.current_task()
        played = 0
        try:
            while (moves is None or played < moves) and self._task is me:
                played += 1
                if not self._autoplay_move(report=True):
                    break
                await asyncio.sleep(self._session.settings.delay)
        except asyncio.CancelledError:
            pass
        finally:
            if self._task is me:
                self._task = None
                if self._session.autoplaying:
                    with contextlib.suppress(Exception):
                        self.send(Pause())

    # --- traitlets the user may set (from Python here, from the browser in set_state) --------------------

    @t.validate("strategy")
    def _valid_strategy(self, proposal: Mapping[str, Any]) -> str:
        return cast(str, self._setting(SelectStrategy(proposal["value"]), proposal["value"]))

    @t.validate("delay")
    def _valid_delay(self, proposal: Mapping[str, Any]) -> float:
        return cast(float, self._setting(SetDelay(proposal["value"]), proposal["value"]))

    @t.validate("show_probabilities")
    def _valid_show_probabilities(self, proposal: Mapping[str, Any]) -> bool:
        return cast(bool, self._setting(ShowProbabilities(proposal["value"]), proposal["value"]))

    @t.validate("labels")
    def _valid_labels(self, proposal: Mapping[str, Any]) -> bool | None:
        return cast("bool | None", self._setting(SetLabels(proposal["value"]), proposal["value"]))

    @t.validate("cell_size")
    def _valid_cell_size(self, proposal: Mapping[str, Any]) -> int:
        return cast(int, self._setting(SetCellSize(proposal["value"]), proposal["value"]))

    @t.validate("question_marks")
    def _valid_question_marks(self, proposal: Mapping[str, Any]) -> bool:
        return cast(bool, self._setting(SetQuestionMarks(proposal["value"]), proposal["value"]))

    def _setting(self, message: Message, value: object) -> object:
        """A user setting assigned from Python goes through update like everything else."""
        if not self._rendering:
            try:
                self._session = update(self._session, message, now=_now_ms())
            except ValueError as exc:
                self.last_error = exc
                raise t.TraitError(str(exc)) from exc
        return value

    @t.observe(*SETTINGS)
    def _on_setting(self, _change: Mapping[str, Any]) -> None:
        if not self._rendering:
            self._render(error="", details="")

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

    # --- messages and state from the browser (untrusted) ---------------------------------------------

    def _show_problem(self, what: str, exc: BaseException) -> None:
        """Log ``exc`` and show it in the widget; a failing strategy's traceback is shown too."""
        self.last_error = exc
        message = quote(f"{what}: {exc}", ECHO_LIMIT).strip("'\"")
        details = ""
        if isinstance(exc, StrategyError) and exc.__cause__ is not None:
            cause = exc.__cause__
            details = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
            details = details[-TRACEBACK_LIMIT:]
            logger.error("ipyminesweeper: %s", message, exc_info=cause)
        else:
            logger.warning("ipyminesweeper: %s", message)
        with contextlib.suppress(Exception):
            self._render(error=message, details=details)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        """A custom comm message: one request (the protocol before ``requests``; still accepted)."""
        self._browser_request(content)

    def _browser_request(self, content: object) -> None:
        try:
            message = decode(content, self._new_game_from_browser)
            batch: Iterable[Message] = (message,)
            if isinstance(message, (NewGame, Step)):
                batch = (Pause(), message)  # a click on the face or on Step stops the autoplayer
            self.send(*batch)
        except Exception as exc:  # the kernel must never see an exception from the browser
            self._show_problem("ignored a message from the browser", exc)

    def set_state(self, sync_data: Any) -> None:
        """State sent by the browser: the player's settings (``SETTINGS``) and ``requests``.

        Settings are checked and applied all or nothing. Then each new request (id above ``handled``)
        is applied on its own, like a custom message: a rejected one is shown and the next still runs.
        """
        try:
            if not isinstance(sync_data, dict):
                raise TypeError(f"a state update must be an object, got {type(sync_data).__name__}")
            settings = {k: v for k, v in sync_data.items() if k != "requests"}
            fresh = decode_requests(sync_data["requests"], self._handled) if "requests" in sync_data else []
            self.send(*decode_state(settings))
        except Exception as exc:
            self._show_problem("ignored a state update from the browser", exc)
            with contextlib.suppress(Exception):  # put the browser back in step with Python
                self.send_state([k for k in FRONTEND_WRITABLE if k in self.keys])
            return
        if "requests" in sync_data:
            with self._lock_property(requests=sync_data["requests"]):  # no echo to the browser
                self.set_trait("requests", sync_data["requests"])
        for ident, content in fresh:
            self._handled = ident
            self._browser_request(content)
        if fresh and self.handled != self._handled:  # every request was rejected: still answer
            self._render()
