"""The Minesweeper Jupyter widget: a thin imperative shell over the immutable engine.

>>> from ipyminesweeper import Minesweeper, reveal
>>> w = Minesweeper(size=9, mines=10, seed=1)
>>> w.board = reveal(w.board, (4, 4))       # the functional loop: board in, board out
>>> w.status
'playing'

What reaches the browser is a pure function of ``board.view`` (the view alphabet of
``docs/architecture.md``): no mine positions while the game is ready or playing. Actions come back from
the browser as custom messages; each one is validated, and a bad one is logged as a warning, shown in the
widget (the ``error`` trait) and otherwise ignored. See ``js/README.md`` for the front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, cast

import anywidget
import traitlets as t

from .board import Board, GameOverError
from .rules import LEVELS, chord, new_board, reveal, toggle_flag
from .strategies import STRATEGIES, Move, Strategy, step, strategy_name
from .view import View

__all__ = ["Minesweeper"]

logger = logging.getLogger(__name__)

_STATIC = Path(__file__).parent / "static"

CELL_ACTIONS = ("reveal", "flag", "chord")
OTHER_ACTIONS = ("new_game", "undo", "step", "play", "pause")
ACTIONS = CELL_ACTIONS + OTHER_ACTIONS
FRONTEND_WRITABLE = frozenset({"strategy", "delay", "show_probabilities"})
"""The only traitlets the browser may set (everything else is Python -> browser)."""

MAX_DELAY = 10.0
HTML_FALLBACK_CELLS = 40 * 40
"""Bigger boards get no text/html fallback in the notebook (it would weigh megabytes)."""
DEFAULT_DENSITY = 40 / 256
"""Mine ratio when only a size is given: the intermediate level's."""


def _check_strategy(name: object, strategy: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"a strategy name must be a non-empty str, not {name!r}")
    if not callable(strategy):
        raise TypeError(f"strategy {name!r} must be callable (view -> Move), not {strategy!r}")


def _now_ms() -> int:
    return int(time.time() * 1000)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _make_board(
    level: str | Board | None,
    *,
    board: Board | None,
    size: int | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    density: float | None,
    seed: int | None,
    first_click: str,
) -> Board:
    """The starting board for the constructor's (and ``new_game``'s) arguments."""
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
            hint = " (did you mean size=...?)" if _is_int(level) else ""
            raise TypeError(
                f"the first argument is a level name ({', '.join(LEVELS)}) or a Board, "
                f"not {type(level).__name__} {level!r}{hint}"
            )
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")
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
    ``first_click=`` with the engine's meanings.
    """

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    # --- synced: the player's view only ----------------------------------------------------------
    rows = t.Int(16, read_only=True).tag(sync=True)
    cols = t.Int(16, read_only=True).tag(sync=True)
    mines = t.Int(40, read_only=True).tag(sync=True)
    status = t.Unicode("ready", read_only=True, help="ready | playing | won | lost").tag(sync=True)
    cells = t.Unicode("", read_only=True, help="board.view.cells (the view alphabet)").tag(sync=True)
    mines_left = t.Int(40, read_only=True, help="mines minus flags").tag(sync=True)
    started_at = t.Int(0, read_only=True, help="epoch ms of the first reveal, 0 before").tag(sync=True)
    ended_at = t.Int(0, read_only=True, help="epoch ms of the end of the game, 0 before").tag(sync=True)
    can_undo = t.Bool(False, read_only=True).tag(sync=True)
    error = t.Unicode("", help="the last rejected action, shown in the widget").tag(sync=True)
    # --- synced: the autoplayer -------------------------------------------------------------------
    strategies = t.List(t.Unicode(), read_only=True).tag(sync=True)
    strategy = t.Unicode("", help="name of the strategy Step and Play use").tag(sync=True)
    last_move = t.Dict(read_only=True, help="{action, row, col, reason, probability}").tag(sync=True)
    show_probabilities = t.Bool(False, help="overlay mine probabilities").tag(sync=True)
    probabilities = t.Dict(
        read_only=True, help="flat cell index (str) -> P(mine), covered cells only, while on"
    ).tag(sync=True)
    autoplaying = t.Bool(False, read_only=True).tag(sync=True)
    delay = t.Float(0.25, help="seconds between autoplay moves").tag(sync=True)
    # --- Python only ------------------------------------------------------------------------------
    elapsed = t.Float(0.0, read_only=True, help="seconds since the first reveal (updated per move)")

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
    ) -> None:
        start = _make_board(
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
        self._board: Board = start
        self._history: list[Board] = [start]
        self._strategy_fns: dict[str, Strategy] = dict(STRATEGIES)
        self._task: asyncio.Task[None] | None = None
        names = list(self._strategy_fns)
        if strategy is None:
            strategy = "exact" if "exact" in names else (names[0] if names else "")
        elif not isinstance(strategy, str) or strategy not in self._strategy_fns:
            raise ValueError(f"unknown strategy {strategy!r}: use one of {', '.join(names) or '(none)'}")
        kwargs: dict[str, Any] = {"strategy": strategy}
        if delay is not None:
            if isinstance(delay, bool) or not isinstance(delay, (int, float)):
                raise TypeError(f"delay must be a number of seconds, not {delay!r}")
            if not (math.isfinite(delay) and 0 <= delay <= MAX_DELAY):
                raise ValueError(f"delay must be between 0 and {MAX_DELAY} seconds, not {delay!r}")
            kwargs["delay"] = float(delay)
        # The traits' dynamic defaults (below) read self._board, so the comm opens with this board.
        super().__init__(**kwargs)
        self.on_msg(self._on_message)
        self._show(start)

    @t.default("rows")
    def _default_rows(self) -> int:
        return self._board.rows

    @t.default("cols")
    def _default_cols(self) -> int:
        return self._board.cols

    @t.default("mines")
    def _default_mines(self) -> int:
        return self._board.mines

    @t.default("status")
    def _default_status(self) -> str:
        return self._board.status

    @t.default("cells")
    def _default_cells(self) -> str:
        return self._board.view.cells

    @t.default("mines_left")
    def _default_mines_left(self) -> int:
        return self._board.flags_left

    @t.default("strategies")
    def _default_strategies(self) -> list[str]:
        return list(self._strategy_fns)

    # --- the board and its history -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The current immutable :class:`Board`. Assign a new one to play a move (it joins history)."""
        return self._board

    @board.setter
    def board(self, value: Board) -> None:
        if not isinstance(value, Board):
            raise TypeError(f"w.board must be an ipyminesweeper Board, not {type(value).__name__}")
        if value == self._board:
            return
        self._history.append(value)
        with self.hold_sync():
            self._set_last_move(None)
            self._show(value)

    @property
    def history(self) -> tuple[Board, ...]:
        """Every board since the game started, oldest first; ``history[-1] is board``."""
        return tuple(self._history)

    @property
    def view(self) -> View:
        """The player's view of the current board (what the browser shows)."""
        return self._board.view

    def reveal(self, row: int, col: int) -> Board:
        """Reveal ``(row, col)`` (cascading through zeros); returns the new board."""
        self.board = reveal(self._board, (row, col))
        return self._board

    def flag(self, row: int, col: int) -> Board:
        """Toggle the flag on ``(row, col)``; returns the new board."""
        self.board = toggle_flag(self._board, (row, col))
        return self._board

    def chord(self, row: int, col: int) -> Board:
        """Chord the number at ``(row, col)`` (reveal its other neighbours if its flags match)."""
        self.board = chord(self._board, (row, col))
        return self._board

    def undo(self) -> Board:
        """Go back one move (does nothing at the start of a game); returns the board now shown."""
        if len(self._history) > 1:
            self._history.pop()
            with self.hold_sync():
                self._set_last_move(None)
                self._show(self._history[-1])
        return self._board

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

        Takes the constructor's arguments otherwise. Clears the history; pauses the autoplayer.
        """
        current = self._board
        if first_click is None:
            first_click = current.first_click
        if all(v is None for v in (level, board, size, rows, cols, mines, density)):
            rows, cols, mines = current.rows, current.cols, current.mines
        start = _make_board(
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
        self.pause()
        self._history = [start]
        with self.hold_sync():
            self._set_last_move(None)
            self._show(start)
        return start

    # --- what the browser gets -----------------------------------------------------------------------

    def _show(self, board: Board) -> None:
        """Sync the traitlets from ``board`` (one state message per move)."""
        self._board = board
        view = board.view
        started, ended = self.started_at, self.ended_at
        now = _now_ms()
        if board.status == "ready":
            started = ended = 0
        else:
            started = started or now
            ended = (ended or now) if board.over else 0
        with self.hold_sync():
            self.set_trait("rows", board.rows)
            self.set_trait("cols", board.cols)
            self.set_trait("mines", board.mines)
            self.set_trait("cells", view.cells)
            self.set_trait("mines_left", board.flags_left)
            self.set_trait("started_at", started)
            self.set_trait("ended_at", ended)
            self.set_trait("can_undo", len(self._history) > 1)
            self.error = ""
            self._update_probabilities()
            # status last: observers of status see every other trait already updated
            self.set_trait("status", board.status)
        self.set_trait("elapsed", ((ended or now) - started) / 1000 if started else 0.0)

    def _update_probabilities(self) -> None:
        view = self._board.view
        if not self.show_probabilities or view.status not in ("ready", "playing"):
            self.set_trait("probabilities", {})
            return
        try:
            from .solver import probabilities

            probs = probabilities(view)
        except Exception as exc:
            self.set_trait("probabilities", {})
            self._report(f"cannot compute probabilities: {exc}")
            return
        cols, cells = view.cols, view.cells
        out: dict[str, float] = {}
        for (r, c), p in probs.items():
            i = r * cols + c
            if cells[i] in ".f":  # covered cells only
                out[str(i)] = round(float(p), 4)
        self.set_trait("probabilities", out)

    @t.observe("show_probabilities")
    def _on_show_probabilities(self, _change: Mapping[str, Any]) -> None:
        self._update_probabilities()

    @t.validate("strategy")
    def _valid_strategy(self, proposal: Mapping[str, Any]) -> str:
        name = proposal["value"]
        if self._lookup(name) is None and not (name == "" and not self._strategy_fns):
            raise t.TraitError(
                f"unknown strategy {name!r}: use one of {', '.join(self._strategy_fns) or '(none)'}"
            )
        return cast(str, name)

    @t.validate("delay")
    def _valid_delay(self, proposal: Mapping[str, Any]) -> float:
        value = float(proposal["value"])
        if not (math.isfinite(value) and 0 <= value <= MAX_DELAY):
            raise t.TraitError(f"delay must be between 0 and {MAX_DELAY} seconds, not {value!r}")
        return value

    def _set_last_move(self, move: Move | None) -> None:
        if move is None:
            self.set_trait("last_move", {})
            return
        row, col = move.pos
        prob = move.probability
        self.set_trait(
            "last_move",
            {
                "action": str(move.action),
                "row": int(row),
                "col": int(col),
                "reason": str(move.reason),
                "probability": None if prob is None else round(float(prob), 4),
            },
        )

    # --- reprs (where widgets do not render) ---------------------------------------------------------

    def __repr__(self) -> str:
        return repr(self._board).replace("<Board", "<Minesweeper", 1)

    def _repr_html_(self) -> str:
        return self._board._repr_html_()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            data["text/plain"] = repr(self)
            if self._board.rows * self._board.cols <= HTML_FALLBACK_CELLS:
                data["text/html"] = self._repr_html_()
        return bundle

    # --- the autoplayer -----------------------------------------------------------------------------

    def register_strategy(self, name: str, strategy: Strategy, *, select: bool = False) -> None:
        """Add ``strategy`` (view -> Move) to this widget's strategy menu, and select it if asked."""
        _check_strategy(name, strategy)
        self._strategy_fns[name] = strategy
        self.set_trait("strategies", list(self._strategy_fns))
        if select or not self.strategy:
            self.strategy = name

    def _lookup(self, name: str) -> Strategy | None:
        """The strategy called ``name``: this widget's, else a globally registered one."""
        fn = self._strategy_fns.get(name)
        if fn is None and name in STRATEGIES:
            fn = self._strategy_fns[name] = STRATEGIES[name]
            self.set_trait("strategies", list(self._strategy_fns))
        return fn

    def _resolve(self, strategy: str | Strategy | None) -> tuple[str, Strategy]:
        if strategy is None:
            strategy = self.strategy
        if isinstance(strategy, str):
            fn = self._lookup(strategy)
            if fn is None:
                known = ", ".join(self._strategy_fns) or "(none registered)"
                raise ValueError(f"unknown strategy {strategy!r}: use one of {known}")
            return strategy, fn
        if not callable(strategy):
            raise TypeError(f"strategy must be a name or a callable (view -> Move), not {strategy!r}")
        for name, fn in self._strategy_fns.items():
            if fn is strategy:
                return name, fn
        name = strategy_name(strategy)
        if name in self._strategy_fns:
            name = f"{name}-{len(self._strategy_fns)}"
        self.register_strategy(name, strategy)
        return name, strategy

    def step(self, strategy: str | Strategy | None = None) -> Move:
        """Play one move of ``strategy`` (default: the selected one) and return the Move."""
        if self._board.over:
            raise GameOverError(f"the game is {self._board.status}: start a new game")
        _name, fn = self._resolve(strategy)
        board, move = step(self._board, fn)
        if board != self._board:
            self._history.append(board)
        with self.hold_sync():
            self._set_last_move(move)
            self._show(board)
        return move

    def autoplay(
        self,
        strategy: str | Strategy | None = None,
        moves: int | None = None,
        delay: float | None = None,
    ) -> asyncio.Task[None] | None:
        """Play ``strategy`` until the game ends (or ``moves`` moves), ``delay`` seconds apart.

        Inside a running event loop (a Jupyter kernel) this returns at once: an asyncio task (returned,
        awaitable) plays the moves and the kernel stays free; ``pause()`` stops it. Without a running
        loop (a script) the moves are played synchronously, without the delay, and None is returned.
        """
        if moves is not None and (not _is_int(moves) or moves < 0):
            raise ValueError(f"moves must be a non-negative int or None, not {moves!r}")
        name, _fn = self._resolve(strategy)
        if name != self.strategy:
            self.strategy = name
        if delay is not None:
            self.delay = delay
        self.pause()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self.set_trait("autoplaying", True)
            try:
                self._run_sync(moves)
            finally:
                self.set_trait("autoplaying", False)
            return None
        self.set_trait("autoplaying", True)
        task = loop.create_task(self._run_async(moves))
        self._task = task
        return task

    def pause(self) -> None:
        """Stop the autoplayer (the move being played finishes)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        self.set_trait("autoplaying", False)

    def _autoplay_move(self) -> bool:
        """One autoplayer move with the selected strategy; False when the game is over."""
        if self._board.over:
            return False
        self.step(self.strategy)
        return not self._board.over

    def _run_sync(self, moves: int | None) -> None:
        played = 0
        while moves is None or played < moves:
            played += 1
            if not self._autoplay_move():
                break

    async def _run_async(self, moves: int | None) -> None:
        me = asyncio.current_task()
        played = 0
        try:
            while moves is None or played < moves:
                if self._task is not me:
                    break
                played += 1
                if not self._autoplay_move():
                    break
                await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            self._report(f"autoplay stopped: {type(exc).__name__}: {exc}")
        finally:
            if self._task is me:
                self._task = None
                self.set_trait("autoplaying", False)

    # --- messages and state from the browser (untrusted) ---------------------------------------------

    def _report(self, message: str) -> None:
        """Log a warning and show it in the widget; never raises."""
        logger.warning("ipyminesweeper: %s", message)
        with contextlib.suppress(Exception):
            self.error = message

    def _reject(self, message: str) -> None:
        self._report(f"ignored a message from the browser: {message}")

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        try:
            self._dispatch(content)
        except Exception as exc:  # the kernel must never see an exception from the browser
            self._reject(f"{type(exc).__name__}: {exc}")

    def _dispatch(self, content: object) -> None:
        if not isinstance(content, dict):
            self._reject(f"expected an object, got {type(content).__name__}")
            return
        action = content.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            self._reject(f"unknown action {action!r}; expected one of {', '.join(ACTIONS)}")
            return
        allowed = {"action", "row", "col"} if action in CELL_ACTIONS else {"action"}
        extra = sorted(map(str, set(content) - allowed))
        if extra:
            self._reject(f"{action!r} takes no {', '.join(extra)}")
            return
        if action in CELL_ACTIONS:
            self._cell_action(action, content)
        elif action == "new_game":
            self.new_game()
        elif action == "undo":
            self.undo()
            self.error = ""
        elif action == "pause":
            self.pause()
            self.error = ""
        elif self._board.over:
            self._reject(f"{action!r}: the game is {self._board.status}; start a new game")
        elif action == "step":
            self.pause()
            self.step()
        else:  # play
            self.autoplay()

    def _cell_action(self, action: str, content: dict[str, Any]) -> None:
        if "row" not in content or "col" not in content:
            self._reject(f"{action!r} needs integer row and col")
            return
        row, col = content["row"], content["col"]
        board = self._board
        if not (_is_int(row) and _is_int(col)):
            self._reject(f"{action!r}: row and col must be integers, got {row!r} and {col!r}")
            return
        if not (0 <= row < board.rows and 0 <= col < board.cols):
            self._reject(f"{action!r}: ({row}, {col}) is off the {board.rows}x{board.cols} board")
            return
        if board.over:
            self._reject(f"{action!r}: the game is {board.status}; start a new game")
            return
        if action == "reveal":
            self.reveal(row, col)
        elif action == "flag":
            self.flag(row, col)
        else:
            self.chord(row, col)
        self.error = ""

    def set_state(self, sync_data: Any) -> None:
        """State sent by the browser: only ``strategy``, ``delay``, ``show_probabilities``, validated."""
        if not isinstance(sync_data, dict):
            self._reject(f"a state update must be an object, got {type(sync_data).__name__}")
            return
        refused = sorted(str(k) for k in sync_data if k not in self._frontend_writable)
        if refused:  # one forbidden key spoils the whole update
            self._reject(f"the browser may not set {', '.join(refused)}")
            refused = sorted(map(str, sync_data))
        elif sync_data:
            try:
                super().set_state(sync_data)
            except Exception as exc:
                self._reject(f"{', '.join(sorted(sync_data))}: {exc}")
                refused = sorted(sync_data)
        if refused:  # put the browser back in step with Python
            with contextlib.suppress(Exception):
                self.send_state([k for k in refused if k in self.keys])
