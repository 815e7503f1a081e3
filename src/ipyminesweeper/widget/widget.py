"""The Minesweeper Jupyter widget: its synced traitlets and its Python methods, each a message.

>>> from ipyminesweeper import Minesweeper, reveal
>>> w = Minesweeper(size=9, mines=10, seed=1)
>>> w.board = reveal(w.board, (4, 4))       # the functional loop: board in, board out
>>> w.status
'playing'

Every method turns its call into a message (:mod:`.messages`) and sends it through the runtime
(:mod:`.runtime`: update, perform the effects, render), which it inherits; the browser's input arrives
there too. A message that cannot apply changes nothing: from Python it raises, from the browser it is
logged and shown in the widget. See ``js/README.md`` for the front end.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import traitlets as t

from ..engine import Board, BoardOptions, GameMetrics, GameSpec, Position, View
from ..engine.metrics import game_time
from ..replays import load_replay
from ..strategies import Move, Review, Strategy
from . import messages as msg
from .arguments import BOARD_PARAMETERS, PARAMETERS, check_keywords, given_board, position_of
from .board_wire import wire_cells
from .effects import StatsStore
from .history import History
from .link import DEFAULT_SITE, SharedGame, link_url, read_link
from .messages import FRONTEND_WRITABLE, SETTINGS, Message, setting_message
from .runtime import Runtime
from .runtime_state import STRATEGY_TIME_LIMIT
from .session_update import start
from .stats import Stats
from .stats_file import StatsFile
from .transitions import metrics_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["FRONTEND_WRITABLE", "STATIC", "STRATEGY_TIME_LIMIT", "Minesweeper"]

STATIC = Path(__file__).parent.parent / "static"
"""The built front end (``widget.js``, ``widget.css``), shipped in the wheel."""


class Minesweeper(Runtime):
    """A playable Minesweeper board in the notebook, backed by an immutable :class:`Board`.

    ``Minesweeper()`` (intermediate), ``Minesweeper(size=16, mines=40)``,
    ``Minesweeper(rows=16, cols=30, mines=99)``, ``Minesweeper("expert")``,
    ``Minesweeper(size=20, density=0.15)``, ``Minesweeper(board=some_board)``; plus ``seed=`` and
    ``first_click=`` with the engine's meanings, ``strategy=`` and ``delay=`` for the autoplayer,
    ``stats_store=`` (where finished games are kept; default: a file in the Jupyter data folder), and any
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
    cells_version = t.Int(0, read_only=True, help="changes of cells so far (see board_wire)").tag(sync=True)
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
    game_metrics = t.Dict(read_only=True, help="the finished game's 3BV, clicks, 3BV/s, efficiency...").tag(
        sync=True
    )
    # --- synced: the review, and links ---------------------------------------------------------------
    reviewing = t.Dict(read_only=True, help="the review panel: summary, figures, the move shown").tag(
        sync=True
    )
    shared_link = t.Dict(read_only=True, help="the link made last: {mode, url}").tag(sync=True)
    awaits_link = t.Bool(False, read_only=True, help="the widget opens the game in its page's address").tag(
        sync=True
    )
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
        stats_store: StatsStore | None = None,
        awaits_link: bool = False,
        **kwargs: Any,
    ) -> None:
        # before anything is made: a keyword that is neither a parameter nor a trait (ipywidgets' own
        # traits, such as layout, pass)
        more = ", or a widget trait such as layout"
        check_keywords(kwargs, type(self).class_trait_names(), "Minesweeper()", PARAMETERS, more)
        shape = {"size": size, "rows": rows, "cols": cols, "mines": mines, "density": density}
        options = {**shape, "seed": seed, "first_click": first_click}
        if not isinstance(awaits_link, bool):
            raise TypeError(f"awaits_link is True or False, not {type(awaits_link).__name__}")
        session = start(given_board(level, board, options), strategy=strategy, delay=delay)
        if awaits_link:  # the front end sends the game of its page's address (from_page)
            session = replace(session, awaits_link=True)
        self._start(session, StatsFile() if stats_store is None else stats_store)
        super().__init__(**kwargs)

    @classmethod
    def from_replay(cls, path: str | os.PathLike[str], **kwargs: Any) -> Minesweeper:
        """A widget showing the game of a replay file (``.rawvf`` anywhere; ``.avf``, ``.rmv``, ``.mvf``,
        ``.evf`` where ms_toollib is installed: :func:`~ipyminesweeper.load_replay`), its moves in the
        history, ready to review: a finished game opens on its review. A broken file raises a
        ReplayError that says why, and no widget is made. ``kwargs`` go to the constructor."""
        replay = load_replay(path)
        mode = "review" if replay.final.over else "moves"
        return cls._opening(SharedGame(mode, replay, game_time(replay)), kwargs)

    @classmethod
    def from_link(cls, link: str, **kwargs: Any) -> Minesweeper:
        """A widget showing the game of a link (``w.link()``'s address, or its code): its board, its moves
        or its review. A broken link raises a LinkError (a ValueError) that says why."""
        return cls._opening(read_link(link), kwargs)

    @classmethod
    def from_page(cls, **kwargs: Any) -> Minesweeper:
        """A widget that opens the game in its page's address: the offline site's shared-game notebook
        (:data:`~ipyminesweeper.widget.link.NOTEBOOK`) runs this. Until the browser sends it, and when the
        address holds none or a broken one (the widget says why), it shows a new game of ``kwargs``."""
        return cls(awaits_link=True, **kwargs)

    @classmethod
    def _opening(cls, game: SharedGame, kwargs: dict[str, Any]) -> Minesweeper:
        replay = game.replay
        if not {"level", "board", "size", "rows", "cols", "mines"} & set(kwargs):
            kwargs = {**kwargs, "board": replay.start}
        widget = cls(**kwargs)
        widget.send(msg.OpenGame(game))
        return widget

    @property
    def stats(self) -> Stats:
        """Statistics of every finished game (a frozen value), from the store (:mod:`.stats_file`)."""
        return self.store.load()

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
    def metrics(self) -> GameMetrics | None:
        """The game's figures (3BV, clicks by kind, 3BV/s, efficiency, IOE, correctness, throughput,
        ZiNi): the finished game's, or those of the game so far; None before the first reveal."""
        return self._session.metrics or metrics_of(self._session)

    def review(self, move: int | None = None) -> Review:
        """The review of the finished game (every move rated by the exact solver from the player's view:
        :func:`~ipyminesweeper.review`), shown in the widget's Review panel at move number ``move`` (from
        1; None: the move shown last). Raises while the game is on."""
        index = None if move is None else move - 1
        if move is not None and (isinstance(move, bool) or not isinstance(move, int) or move < 1):
            raise ValueError(f"move is a move number from 1, not {move!r}")
        reviewed = self.send(msg.ShowReview(index)).reviewed
        assert reviewed is not None
        return reviewed.review

    def link(self, mode: str | None = None, *, site: str | None = None) -> str:
        """The address of the offline site that opens this game (:mod:`~ipyminesweeper.widget.link`):
        ``mode`` "board" (the same board, from its start: its seed), "moves" or "review" (None: the
        review of a finished game, else its moves). ``site`` is the site's root (default
        ``IPYMINESWEEPER_SITE``, else ``make serve-lite``'s). The game is in the address itself. A game
        still on that has no seed cannot be linked (its mines would be in the link): a LinkError says so."""
        shared = self.send(msg.ShareLink(mode)).shared
        assert shared is not None
        return link_url(shared.code, site or os.environ.get("IPYMINESWEEPER_SITE") or DEFAULT_SITE)

    def open_link(self, link: str) -> Board:
        """Open the game of ``link`` in this widget (its board, its moves or its review); a broken link
        raises a LinkError and changes nothing."""
        return self.send(msg.OpenGame(read_link(link))).board

    @property
    def text(self) -> str:
        """The board on screen in the view's text notation (what the Copy button copies)."""
        return self._session.shown.view.to_text()

    def reveal(self, row: int | Position, col: int | None = None) -> Board:
        """Reveal ``(row, col)`` (cascading through zeros); returns the new board. ``w.reveal(3, 4)``
        and ``w.reveal((3, 4))`` both work."""
        return self.send(msg.Reveal(position_of("reveal", row, col))).board

    def flag(self, row: int | Position, col: int | None = None) -> Board:
        """Toggle the flag on ``(row, col)``; returns the new board. ``w.flag((3, 4))`` works too."""
        return self.send(msg.Flag(position_of("flag", row, col))).board

    def chord(self, row: int | Position, col: int | None = None) -> Board:
        """Chord the number at ``(row, col)`` (reveal its other neighbours if its flags match).
        ``w.chord((3, 4))`` works too."""
        return self.send(msg.Chord(position_of("chord", row, col))).board

    def undo(self) -> Board:
        """Go back one move (nothing at the start of a game; after a loss too, as in Simon Tatham's Mines,
        then the game counts as assisted); returns the board now shown."""
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
        check_keywords(options, BoardOptions.__optional_keys__, "new_game()", BOARD_PARAMETERS)
        if board is not None or isinstance(level, Board):
            return self.send(msg.NewGame(given_board(level, board, options))).board
        spec = GameSpec.parse(level=level, **options, like=GameSpec.of(self.board))  # checked before anything
        return self.send(msg.NewGameOf.of(spec)).board  # without a seed, a fresh one comes from the runtime

    def register_strategy(self, name: str, strategy: Strategy, *, select: bool = False) -> None:
        """Add ``strategy`` (view -> Move) to this widget's strategy menu, and select it if asked."""
        self.send(msg.AddStrategy(name, strategy, select))

    def hint(self, strategy: str | Strategy | None = None) -> Move:
        """Show the move ``strategy`` would play, with its reason, without playing it (counts as a hint)."""
        session = self.send(msg.Hint(strategy))
        assert session.hint is not None and session.hint.move is not None
        return session.hint.move

    def next_safe(self, row: int | Position = (0, 0), col: int | None = None) -> Move:
        """Show, as a hint, the first cell after ``(row, col)`` (reading order, then around to the start)
        that the exact solver proves safe from the player's view: what the key K does, from the cursor.
        Counts as a hint; a ValueError says so when no cell is certainly safe."""
        session = self.send(msg.NextSafe(position_of("next_safe", row, col)))
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
        messages.append(msg.Autoplay(None if isinstance(strategy, str) else strategy, moves))
        self.send(*messages)
        return self.follow_timers()

    def pause(self) -> None:
        """Stop the autoplayer (the move being played finishes)."""
        self.send(msg.Pause())

    @property
    def strategy_time_limit(self) -> float:
        """How long, in seconds, a strategy may think over one autoplayer move before it is stopped (the
        autoplayer stops with it, and the widget says so). Default :data:`STRATEGY_TIME_LIMIT`."""
        return self._state.time_limit

    @strategy_time_limit.setter
    def strategy_time_limit(self, seconds: float) -> None:
        self.send(msg.SetTimeLimit(seconds))

    @t.validate(*SETTINGS)
    def _set_setting(self, proposal: Mapping[str, Any]) -> Any:
        """``w.delay = 0.5`` is the message ``SetDelay(0.5)``, sent like any other (a refused one raises a
        TraitError and changes nothing); the traitlet then holds what render says."""
        name = proposal["trait"].name
        if self._showing:  # the runtime showing the session: nothing to send
            return proposal["value"]
        try:
            self.send(setting_message(name, proposal["value"]))
        except ValueError as exc:
            raise t.TraitError(str(exc)) from exc
        return getattr(self, name)

    def __repr__(self) -> str:
        return repr(self._session.board).replace("<Board", "<Minesweeper", 1)
