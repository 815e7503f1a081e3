"""The immutable :class:`Board`: a Minesweeper position that is valid however it was made.

A board never changes. The rules in :mod:`ipyminesweeper.engine.rules` take a board and return a new one,
so a game's history is a sequence of boards and undo is "take an older value"::

    >>> from ipyminesweeper import new_board, reveal
    >>> history = (new_board("beginner", seed=3),)
    >>> history += (reveal(history[-1], (4, 4)),)
    >>> history[-1].status
    'playing'
    >>> history[:-1][-1].status        # undo: drop the newest value
    'ready'

Every way of making a board (``Board(...)``, ``dataclasses.replace``, :meth:`Board.from_text`,
:meth:`Board.from_json`, unpickling) goes through the same check, which raises :class:`BoardError`
naming the field that breaks an invariant. So a ``Board`` in hand is always a position a real game
can reach.

What a board shows follows from its fields: its status, cell counts and view are each computed by a
named function (:func:`board_status`, :func:`cell_counts`, :func:`next_view`) and kept once read. The
rules make the next board with :meth:`Board.changed`: the same invariants, checked in proportion to the
cells that changed (the board it starts from was checked when it was made), and the next status, counts
and view worked out from this board's and handed to the new one. A click on a 4,000,000-cell board then
costs what the click changed, not a pass over every cell.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from .cells import BOARD_TEXT, COVERED, FLAGGED, LIVE_VIEW_TEXT, REVEALED, CellState, Status, cell_keys
from .errors import BoardError, quote
from .geometry import Position, check_position, format_position, neighbour_positions, position, shape_error
from .minefield import Minefield, PendingMines, mine_count_error
from .notation import (
    JSON_FORMAT,
    JSON_VERSION,
    MAX_TEXT,
    check_saved,
    format_header,
    read_grid,
    read_header,
    read_json,
)
from .pickling import CheckedPickle, assembled
from .view import View, view_from_keys

__all__ = ["Board", "CellCounts", "board_status", "cell_counts", "next_view"]

_IS_REVEALED = bytes.maketrans(bytes([COVERED, FLAGGED, REVEALED]), b"\x00\x00\x01")
_IS_FLAGGED = bytes.maketrans(bytes([COVERED, FLAGGED, REVEALED]), b"\x00\x01\x00")


class CellCounts(NamedTuple):
    """How many cells are revealed and flagged, and how many of those hold a mine: what the status, the
    flag counter and the board's invariants read (:func:`cell_counts`). :meth:`Board.changed` moves them
    cell by cell."""

    revealed: int
    flagged: int
    revealed_mines: int
    flagged_mines: int


@dataclass(frozen=True, repr=False)
class Board(CheckedPickle):
    """An immutable Minesweeper position: the grid, each cell's state, and where the mines are.

    Make one with :func:`~ipyminesweeper.new_board` or :meth:`Board.from_text`; change it only through
    the pure rules (:func:`~ipyminesweeper.reveal`, :func:`~ipyminesweeper.toggle_flag`,
    :func:`~ipyminesweeper.chord`), which return new boards. Boards compare by value and are hashable.

    ``states`` holds one byte per cell (row-major, the values of :class:`CellState`); read a cell through
    :meth:`state`. ``minefield`` is a placed :class:`Minefield` or the :class:`PendingMines` promise of
    one. ``exploded_index`` is the flat index of the mine that was revealed, on a lost board.
    """

    rows: int
    cols: int
    mines: int
    states: bytes
    minefield: Minefield | PendingMines
    exploded_index: int | None = None

    def __post_init__(self) -> None:
        problem = _board_problem(self)
        if problem:
            raise BoardError(problem)

    def rechecked(self) -> Board:
        """An equal board built afresh from this one's fields, every one checked again, nothing cached.

        For a board that comes from outside (a widget's ``w.board = ...``): its fields may have been
        changed with ``object.__setattr__`` after it was made, which no constructor sees. Raises
        :class:`BoardError` naming the broken invariant.
        """
        field = self.minefield
        if isinstance(field, Minefield):
            field = Minefield(field.rows, field.cols, field.mask, field.seed, field.first_click)
        elif isinstance(field, PendingMines):
            field = PendingMines(field.seed, field.first_click)
        return Board(self.rows, self.cols, self.mines, self.states, field, self.exploded_index)

    # --- derived facts -------------------------------------------------------------------------------

    @property
    def placed(self) -> bool:
        """Whether the mines have been placed (they are placed on the first reveal)."""
        return isinstance(self.minefield, Minefield)

    @property
    def seed(self) -> int | None:
        """The seed the mines were (or will be) drawn from; None for a board written by hand."""
        return self.minefield.seed

    @property
    def first_click(self) -> str:
        """The first-click policy: "opening", "safe", "any" or "no-guess"."""
        return self.minefield.first_click

    @cached_property
    def status(self) -> Status:
        """``"ready"`` (no reveal yet), ``"playing"``, ``"won"`` or ``"lost"``: derived, never stored."""
        return board_status(
            self.rows * self.cols - self.mines, self.cell_counts.revealed, self.exploded_index
        )

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.status in ("won", "lost")

    @property
    def exploded(self) -> Position | None:
        """The mine that was revealed, on a lost board."""
        if self.exploded_index is None:
            return None
        return position(self.cols, self.exploded_index)

    @property
    def flags(self) -> int:
        """How many flags the player has placed."""
        return self.cell_counts.flagged

    @property
    def flags_left(self) -> int:
        """Mines minus flags: the header's counter. Negative when the player over-flags."""
        return self.mines - self.flags

    @cached_property
    def cell_counts(self) -> CellCounts:
        """The revealed and flagged cells, and the mines among them (see :class:`CellCounts`)."""
        return cell_counts(self.states, self.mask)

    @cached_property
    def counts(self) -> bytes:
        """Every cell's neighbour-mine count (all zero before the mines are placed)."""
        if isinstance(self.minefield, Minefield):
            return self.minefield.counts
        return bytes(self.rows * self.cols)

    @cached_property
    def mask(self) -> bytes:
        """1 where a cell holds a mine (all zero before the mines are placed)."""
        if isinstance(self.minefield, Minefield):
            return self.minefield.mask
        return bytes(self.rows * self.cols)

    @cached_property
    def keys(self) -> bytes:
        """Each cell's key: state, count and mine in one (see :mod:`ipyminesweeper.engine.cells`)."""
        return cell_keys(self.states, self.counts, self.mask)

    @cached_property
    def view(self) -> View:
        """The player's view: what a player (or a strategy) may see. No mines while the game is on."""
        return view_from_keys(self.rows, self.cols, self.mines, self.status, self.keys)

    # --- the next board: the rules' way of making one ---------------------------------------------------

    def changed(self, cells: Iterable[tuple[int, int]], exploded_index: int | None = None) -> Board:
        """This board with the cells ``(index, new state)`` changed, and ``exploded_index`` set: what the
        rules return. It holds every invariant a new ``Board(...)`` does, checked in proportion to the
        change: each changed cell and the counts it moves; a BoardError names the broken one.

        The new board is handed what follows from this one: its status, its cell counts and, while the
        game is on, its view: this view with the changed cells redrawn (:func:`next_view`).
        """
        n = self.rows * self.cols
        states, mask = bytearray(self.states), self.mask
        revealed, flagged, revealed_mines, flagged_mines = self.cell_counts
        changes: list[tuple[int, int]] = []
        for index, state in cells:
            if type(index) is not int or type(state) is not int or not (0 <= index < n and 0 <= state <= 2):
                problem = _cell_problem(index, state, n)  # an int subclass passes as an index (not a bool)
                if problem:
                    raise BoardError(problem)
            old = states[index]
            if old == state:
                continue
            mine = mask[index]
            if old == REVEALED:
                revealed, revealed_mines = revealed - 1, revealed_mines - mine
            elif old == FLAGGED:
                flagged, flagged_mines = flagged - 1, flagged_mines - mine
            if state == REVEALED:
                revealed, revealed_mines = revealed + 1, revealed_mines + mine
            elif state == FLAGGED:
                flagged, flagged_mines = flagged + 1, flagged_mines + mine
            states[index] = state
            changes.append((index, state))
        counts = tuple.__new__(CellCounts, (revealed, flagged, revealed_mines, flagged_mines))  # (at C speed)
        problem = _change_problem(self, states, counts, exploded_index)
        if problem:
            raise BoardError(problem)
        status = board_status(n - self.mines, revealed, exploded_index)
        rows, cols, mines, field, new = self.rows, self.cols, self.mines, self.minefield, bytes(states)
        if status in _LIVE and self.status in _LIVE:
            view = next_view(self.view, changes, self.counts, status)
            return assembled(
                Board, rows=rows, cols=cols, mines=mines, states=new, minefield=field,
                exploded_index=exploded_index, status=status, cell_counts=counts, view=view,
            )  # fmt: skip
        return assembled(  # the view shows the mines now (or did): drawn whole when it is read
            Board, rows=rows, cols=cols, mines=mines, states=new, minefield=field,
            exploded_index=exploded_index, status=status, cell_counts=counts,
        )  # fmt: skip

    # --- queries -------------------------------------------------------------------------------------

    def index(self, pos: Position) -> int:
        """The flat index of ``pos``; raises TypeError or ValueError for a bad position."""
        return check_position(self.rows, self.cols, pos)

    def state(self, pos: Position) -> CellState:
        """The :class:`CellState` of the cell at ``pos``."""
        return CellState(self.states[self.index(pos)])

    def is_mine(self, pos: Position) -> bool:
        """Whether ``pos`` holds a mine (always False before the mines are placed)."""
        return bool(self.mask[self.index(pos)])

    def count(self, pos: Position) -> int:
        """The true number of mines next to ``pos``."""
        return self.counts[self.index(pos)]

    def neighbours(self, pos: Position) -> tuple[Position, ...]:
        """The (up to eight) cells around ``pos``, in reading order."""
        self.index(pos)
        return neighbour_positions(self.rows, self.cols, pos)

    def positions(self) -> Iterator[Position]:
        """Every position, in reading order."""
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def covered(self) -> tuple[Position, ...]:
        """The cells still covered (flagged cells excluded)."""
        cols = self.cols
        return tuple(position(cols, i) for i, s in enumerate(self.states) if s == COVERED)

    # --- text notation -------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The board in text notation, one line per row (see :meth:`from_text`)."""
        chars = self.keys.translate(BOARD_TEXT).decode()
        lines = [chars[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]
        if isinstance(self.minefield, PendingMines):
            pending = self.minefield
            lines.insert(0, format_header(self.mines, pending.seed, pending.first_click))
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse the text notation. One line per row:

        ``.`` covered safe cell, ``*`` covered mine, ``f`` flagged safe cell, ``F`` flagged mine,
        ``0``-``8`` a revealed safe cell (the digit must equal the real count), ``X`` the exploded mine.

        A board whose mines are not placed yet starts with a line such as
        ``# mines=40 seed=7 first_click=opening`` and has only ``.`` and ``f`` cells.
        Errors name the row and column.
        """
        if not isinstance(text, str):
            raise TypeError(f"Board.from_text(text): text must be a str, not {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise BoardError(f"a board's text is at most {MAX_TEXT:,} characters; this one has {len(text):,}")
        lines = [line.strip() for line in text.strip().splitlines()]
        header = read_header(lines.pop(0)) if lines and lines[0].startswith("#") else None
        grid = read_grid([line for line in lines if line])
        if header is not None:
            if grid.mask.count(1) or grid.states.count(REVEALED):
                raise BoardError(
                    "a board with a '# mines=...' header has no mines placed yet: use only '.' and 'f' cells"
                )
            mines, seed, first_click = header
            return cls(grid.rows, grid.cols, mines, grid.states, PendingMines(seed, first_click))
        field = Minefield(grid.rows, grid.cols, grid.mask)
        board = cls(grid.rows, grid.cols, field.count, grid.states, field, grid.exploded)
        written = board.keys.translate(BOARD_TEXT)
        if written != grid.text:  # only a digit can differ: every other character was read back as written
            index = next(i for i, (a, b) in enumerate(zip(written, grid.text, strict=True)) if a != b)
            r, c = position(grid.cols, index)
            raise BoardError(
                f"{format_position((r, c))}: the digit {chr(grid.text[index])} is wrong, that cell touches "
                f"{board.counts[index]} mine(s)"
            )
        return board

    # --- JSON ----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the text grid plus the seed and first-click policy."""
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "seed": self.seed,
            "first_click": self.first_click,
            "placed": self.placed,
            "grid": self.to_text().splitlines()[0 if self.placed else 1 :],
        }

    def to_json(self) -> str:
        """The board as a JSON string that :meth:`from_json` turns back into an equal board."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any) -> Board:
        """The inverse of :meth:`to_dict`; raises BoardError for anything malformed."""
        data = check_saved(data)
        rows, cols, mines, seed, first_click = (
            data[k] for k in ("rows", "cols", "mines", "seed", "first_click")
        )
        if data["placed"]:
            board = cls.from_text("\n".join(data["grid"]))
            field = Minefield(board.rows, board.cols, board.mask, seed, first_click)
            board = cls(board.rows, board.cols, board.mines, board.states, field, board.exploded_index)
        else:
            if seed is None:
                raise BoardError("a board whose mines are not placed needs an int 'seed'")
            header = format_header(mines, seed, first_click)
            board = cls.from_text("\n".join([header, *data["grid"]]))
        if (board.rows, board.cols, board.mines) != (rows, cols, mines):
            raise BoardError(
                f"'rows', 'cols' and 'mines' say {quote(rows)}x{quote(cols)} with {quote(mines)} mines, "
                f"but the grid holds {board.rows}x{board.cols} with {board.mines}"
            )
        return board

    @classmethod
    def from_json(cls, text: str | bytes) -> Board:
        """Parse :meth:`to_json` output; raises BoardError for corrupt, oversized or foreign data."""
        return cls.from_dict(read_json(text))

    # --- reprs ---------------------------------------------------------------------------------------

    def __str__(self) -> str:
        return self.view.to_text()

    def __repr__(self) -> str:
        return self.view.labelled("Board")

    def _repr_html_(self) -> str:
        return self.view._repr_html_()


_LIVE = ("ready", "playing")


def board_status(safe_cells: int, revealed: int, exploded: int | None) -> Status:
    """The status of a board with ``safe_cells`` cells free of mines, ``revealed`` of them revealed, and
    the mine ``exploded`` revealed (or None)."""
    if exploded is not None:
        return "lost"
    if revealed == 0:
        return "ready"
    return "won" if revealed == safe_cells else "playing"


def cell_counts(states: bytes, mask: bytes) -> CellCounts:
    """The :class:`CellCounts` of a grid of cell ``states`` over the mine ``mask``, at C speed."""
    mines = int.from_bytes(mask, "big")
    return CellCounts(
        revealed=states.count(REVEALED),
        flagged=states.count(FLAGGED),
        revealed_mines=(int.from_bytes(states.translate(_IS_REVEALED), "big") & mines).bit_count(),
        flagged_mines=(int.from_bytes(states.translate(_IS_FLAGGED), "big") & mines).bit_count(),
    )


def next_view(view: View, changes: list[tuple[int, int]], counts: bytes, status: Status) -> View:
    """The view of a board whose view was ``view`` after ``changes`` (``(index, new state)``, each one a
    change), while the game is on before and after (``status``): those cells redrawn (``counts``: the
    neighbour counts). Valid by construction (the changes were checked), so made without the view's
    check."""
    if len(changes) == 1:
        index, state = changes[0]
        text = view.cells[:index] + chr(LIVE_VIEW_TEXT[state << 4 | counts[index]]) + view.cells[index + 1 :]
    else:
        drawn = bytearray(view.cells, "ascii")
        for index, state in changes:
            drawn[index] = LIVE_VIEW_TEXT[state << 4 | counts[index]]
        text = drawn.decode("ascii")
    return assembled(View, rows=view.rows, cols=view.cols, mines=view.mines, status=status, cells=text)


def _cell_problem(index: object, state: object, n: int) -> str | None:
    """What is wrong with one changed cell ``(index, state)`` of a board of ``n`` cells; None if nothing."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        return f"a changed cell is an index from 0 to {n - 1}, not {quote(index)}"
    if type(state) is not int or state not in (COVERED, FLAGGED, REVEALED):
        return f"a cell's state is 0 (covered), 1 (flagged) or 2 (revealed), not {quote(state)}"
    return None


def _change_problem(
    before: Board, states: bytes | bytearray, counts: CellCounts, exploded: int | None
) -> str | None:
    """The first invariant that ``before`` (a valid board, or one with valid fields) with the cell
    ``states`` (of :class:`CellCounts` ``counts``) and the mine ``exploded`` breaks; None if none."""
    n = before.rows * before.cols
    if exploded is not None and (
        isinstance(exploded, bool) or not isinstance(exploded, int) or not 0 <= exploded < n
    ):
        return f"exploded_index must be None or a cell index from 0 to {n - 1}, not {quote(exploded)}"
    field = before.minefield
    if isinstance(field, PendingMines):
        if counts.revealed or exploded is not None:
            return "a board whose mines are not placed has no revealed cell and no exploded mine"
        return None
    if exploded is None and counts.revealed_mines:
        return "a revealed cell holds a mine, but exploded_index is None"
    if exploded is not None and not (
        counts.revealed_mines == 1 and states[exploded] == REVEALED and field.mask[exploded]
    ):
        return "exploded_index must be the one revealed mine of a lost board"
    if exploded is None and counts.revealed == n - before.mines and counts.flagged_mines != before.mines:
        return "a won board (every safe cell revealed) has every mine flagged"
    return None


def _board_problem(board: Board) -> str | None:
    """The first invariant ``board`` breaks, as a sentence naming the field; None when it is valid."""
    rows, cols, mines, states, field, exploded = (
        board.rows,
        board.cols,
        board.mines,
        board.states,
        board.minefield,
        board.exploded_index,
    )
    error = shape_error(rows, cols)
    if error:
        return str(error)
    n = rows * cols
    if isinstance(mines, bool) or not isinstance(mines, int) or not 0 <= mines < n:
        return f"mines must be an int from 0 to {n - 1} (a board keeps a safe cell), not {quote(mines)}"
    if type(states) is not bytes:
        return f"states must be bytes (immutable), not {type(states).__name__}"
    if len(states) != n:
        return f"states has {len(states)} bytes; a {rows}x{cols} board needs {n}"
    if states.translate(None, b"\x00\x01\x02"):
        return "states bytes must be 0 (covered), 1 (flagged) or 2 (revealed)"
    if exploded is not None and (
        isinstance(exploded, bool) or not isinstance(exploded, int) or not 0 <= exploded < n
    ):
        return f"exploded_index must be None or a cell index from 0 to {n - 1}, not {quote(exploded)}"
    if isinstance(field, PendingMines):
        error = mine_count_error(rows, cols, mines, field.first_click)
        if error:
            return str(error)
        if REVEALED in states or exploded is not None:
            return "a board whose mines are not placed has no revealed cell and no exploded mine"
        return None
    if not isinstance(field, Minefield):
        return f"minefield must be a Minefield or PendingMines, not {type(field).__name__}"
    if (field.rows, field.cols) != (rows, cols):
        return f"minefield is {field.rows}x{field.cols} but the board is {rows}x{cols}"
    if field.count != mines:
        return f"mines says {mines} but the minefield holds {field.count}"
    return _change_problem(board, states, cell_counts(states, field.mask), exploded)
