"""The value types: :class:`CellState` and the immutable :class:`Board`, with its notations and reprs.

A board never changes. The rules in :mod:`ipyminesweeper.rules` take a board and return a new one, so a
game's history is just a tuple of boards and undo is "take an older value"::

    >>> from ipyminesweeper import new_board, reveal
    >>> history = (new_board("beginner", seed=3),)
    >>> history += (reveal(history[-1], (4, 4)),)
    >>> history[-1].status
    'playing'
    >>> undone = history[:-1]          # undo: drop the newest value
    >>> undone[-1].status
    'ready'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from .geometry import Position, check_position, neighbour_positions, position
from .minefield import FIRST_CLICK_POLICIES, Minefield, PendingMines

if TYPE_CHECKING:
    from .view import View

Status = Literal["ready", "playing", "won", "lost"]

JSON_FORMAT = "ipyminesweeper/board"
JSON_VERSION = 1


class CellState(Enum):
    """What the player has done to a cell. Exactly one holds, so no illegal mix can be written down."""

    COVERED = 0
    FLAGGED = 1
    REVEALED = 2


COVERED, FLAGGED, REVEALED = 0, 1, 2  # the byte values of CellState, used for compact storage

# Text notation: (state, is_mine) -> character, and back.
_CHAR_OF = {
    (COVERED, False): ".",
    (COVERED, True): "*",
    (FLAGGED, False): "f",
    (FLAGGED, True): "F",
    (REVEALED, True): "X",
}
_CELL_OF = {char: key for key, char in _CHAR_OF.items()}

# A key byte per cell: state << 4 | count, plus 64 for a mine. One 256-entry table maps keys to text.
_TEXT_TABLE = bytearray(b"?" * 256)
for _count in range(9):
    _TEXT_TABLE[(REVEALED << 4) | _count] = ord(str(_count))
    for (_state, _mine), _char in _CHAR_OF.items():
        _TEXT_TABLE[(_state << 4) | _count | (64 if _mine else 0)] = ord(_char)
TEXT_TABLE = bytes(_TEXT_TABLE)


class BoardError(ValueError):
    """A board notation (text or JSON) that does not describe a valid board."""


class GameOverError(ValueError):
    """A move on a board whose game has ended (won or lost)."""


@dataclass(frozen=True, repr=False)
class Board:
    """An immutable Minesweeper position: the grid, each cell's state, and where the mines are.

    Make one with :func:`~ipyminesweeper.new_board` or :meth:`Board.from_text`; change it only through
    the pure rules (:func:`~ipyminesweeper.reveal`, :func:`~ipyminesweeper.toggle_flag`,
    :func:`~ipyminesweeper.chord`), which return new boards. Boards compare by value and are hashable.

    Cell states are stored compactly as one byte per cell (row-major); read them through
    :meth:`state`, which returns a :class:`CellState`.
    """

    rows: int
    cols: int
    mines: int
    states: bytes
    minefield: Minefield | PendingMines
    exploded_index: int | None = None

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        if len(self.states) != n:
            raise BoardError(
                f"a {self.rows}x{self.cols} board has {n} cell states, not {len(self.states)}"
            )
        if isinstance(self.minefield, Minefield) and self.minefield.count != self.mines:
            raise BoardError(
                f"mine count {self.mines} does not match the layout's {self.minefield.count}"
            )

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
        """``"ready"`` (no reveal yet), ``"playing"``, ``"won"`` or ``"lost"``."""
        if self.exploded_index is not None:
            return "lost"
        revealed = self.states.count(REVEALED)
        if revealed == 0:
            return "ready"
        if revealed == self.rows * self.cols - self.mines:
            return "won"
        return "playing"

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
        return self.states.count(FLAGGED)

    @property
    def flags_left(self) -> int:
        """Mines minus flags: the header's counter. Negative when the player over-flags."""
        return self.mines - self.flags

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
    def view(self) -> View:
        """The player's view: what a player (or a strategy) may see. No mines while the game is on."""
        from .view import view_of

        return view_of(self)

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

    def to_numpy(self) -> Any:
        """The player's view as a ``rows x cols`` int8 numpy array.

        0-8 revealed, -1 covered, -2 flagged; after the game also -3 a mine shown, -4 the exploded one
        (a right flag stays -2, a wrong one is -5). Needs numpy (``pip install ipyminesweeper[numpy]``);
        the engine itself never imports it.
        """
        try:
            import numpy as np
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("to_numpy() needs numpy: pip install 'ipyminesweeper[numpy]'") from error
        codes = {".": -1, "f": -2, "F": -2, "*": -3, "X": -4, "x": -5}
        values = [int(ch) if ch.isdigit() else codes[ch] for ch in self.view.cells]
        return np.array(values, dtype=np.int8).reshape(self.rows, self.cols)

    # --- text notation -------------------------------------------------------------------------------

    def _keys(self) -> bytes:
        """One byte per cell: state << 4 | count | 64 if mine (see TEXT_TABLE)."""
        n = self.rows * self.cols
        if n == 0:
            return b""
        key = (int.from_bytes(self.states, "big") << 4) | int.from_bytes(self.counts, "big")
        key |= int.from_bytes(self.mask, "big") << 6
        return key.to_bytes(n, "big")

    def to_text(self) -> str:
        """The board in text notation, one line per row (see :meth:`from_text`)."""
        chars = self._keys().translate(TEXT_TABLE).decode()
        lines = [chars[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]
        if isinstance(self.minefield, PendingMines):
            pending = self.minefield
            lines.insert(
                0, f"# mines={self.mines} seed={pending.seed} first_click={pending.first_click}"
            )
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
            raise TypeError(f"Board.from_text expects a str, not {type(text).__name__}")
        lines = [line.strip() for line in text.strip().splitlines()]
        header: dict[str, str] = {}
        if lines and lines[0].startswith("#"):
            header = _parse_header(lines.pop(0))
        lines = [line for line in lines if line]
        if not lines:
            raise BoardError("a board needs at least one row of cells")
        cols = len(lines[0])
        states = bytearray()
        mask = bytearray()
        digits: list[tuple[int, int]] = []
        exploded: int | None = None
        for r, line in enumerate(lines):
            if len(line) != cols:
                raise BoardError(
                    f"row {r} has {len(line)} cells but row 0 has {cols}: every row needs the same width"
                )
            for c, char in enumerate(line):
                index = r * cols + c
                if char.isdigit() and char in "012345678":
                    states.append(REVEALED)
                    mask.append(0)
                    digits.append((index, int(char)))
                elif char in _CELL_OF:
                    state, mine = _CELL_OF[char]
                    states.append(state)
                    mask.append(1 if mine else 0)
                    if char == "X":
                        if exploded is not None:
                            raise BoardError(
                                f"row {r}, column {c}: a second exploded mine 'X'; a lost game has one"
                            )
                        exploded = index
                else:
                    raise BoardError(
                        f"row {r}, column {c}: unknown cell {char!r}; use one of . * f F X or 0-8"
                    )
        rows = len(lines)
        if header:
            return _pending_from_text(rows, cols, bytes(states), bytes(mask), digits, header)
        minefield = Minefield(rows, cols, bytes(mask))
        counts = minefield.counts
        for index, digit in digits:
            if counts[index] != digit:
                r, c = position(cols, index)
                raise BoardError(
                    f"row {r}, column {c}: the digit {digit} is wrong, that cell touches "
                    f"{counts[index]} mine(s)"
                )
        return cls(rows, cols, minefield.count, bytes(states), minefield, exploded)

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
        if not isinstance(data, dict):
            raise BoardError(f"a saved board is a JSON object, not {type(data).__name__}")
        if data.get("format") != JSON_FORMAT or data.get("version") != JSON_VERSION:
            raise BoardError(
                f"not a saved board: expected format {JSON_FORMAT!r} version {JSON_VERSION}, "
                f"got {data.get('format')!r} version {data.get('version')!r}"
            )
        missing = {"rows", "cols", "mines", "seed", "first_click", "placed", "grid"} - data.keys()
        if missing:
            raise BoardError(f"a saved board lacks the field(s) {sorted(missing)}")
        grid, seed, first_click = data["grid"], data["seed"], data["first_click"]
        if not isinstance(grid, list) or not all(isinstance(line, str) for line in grid):
            raise BoardError("'grid' must be a list of strings, one per row")
        if seed is not None and (type(seed) is not int):
            raise BoardError(f"'seed' must be an int or null, not {seed!r}")
        if first_click not in FIRST_CLICK_POLICIES:
            raise BoardError(f"'first_click' must be one of {FIRST_CLICK_POLICIES}, not {first_click!r}")
        text = "\n".join(grid)
        if not data["placed"]:
            if seed is None:
                raise BoardError("a board whose mines are not placed needs an int 'seed'")
            text = f"# mines={data['mines']} seed={seed} first_click={first_click}\n{text}"
        board = cls.from_text(text)
        if (board.rows, board.cols, board.mines) != (data["rows"], data["cols"], data["mines"]):
            raise BoardError(
                f"'rows', 'cols' and 'mines' say {data['rows']}x{data['cols']} with {data['mines']} "
                f"mines, but the grid holds {board.rows}x{board.cols} with {board.mines}"
            )
        if board.placed:
            field = Minefield(board.rows, board.cols, board.mask, seed, first_click)
            board = cls(board.rows, board.cols, board.mines, board.states, field, board.exploded_index)
        return board

    @classmethod
    def from_json(cls, text: str | bytes) -> Board:
        """Parse :meth:`to_json` output; raises BoardError for corrupt or foreign data."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise BoardError(f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    # --- reprs ---------------------------------------------------------------------------------------

    def __str__(self) -> str:
        return self.view.to_text()

    def __repr__(self) -> str:
        head = f"<Board {self.rows}x{self.cols}, {self.mines} mines, {self.status}"
        if self.rows * self.cols > 40 * 40:
            return head + ">"
        return f"{head}:\n{self.view.to_text()}\n>"

    def _repr_html_(self) -> str:
        return self.view._repr_html_()


def _parse_header(line: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for item in line.lstrip("#").split():
        key, sep, value = item.partition("=")
        if not sep or key not in ("mines", "seed", "first_click"):
            raise BoardError(f"header {line!r}: expected 'mines=N seed=S first_click=P', found {item!r}")
        fields[key] = value
    if "mines" not in fields:
        raise BoardError(f"header {line!r} must give mines=N")
    return fields


def _pending_from_text(
    rows: int,
    cols: int,
    states: bytes,
    mask: bytes,
    digits: list[tuple[int, int]],
    header: dict[str, str],
) -> Board:
    if any(mask) or digits:
        raise BoardError(
            "a board with a '# mines=...' header has no mines placed yet: use only '.' and 'f' cells"
        )
    try:
        mines = int(header["mines"])
        seed = int(header.get("seed", "0"))
    except ValueError:
        raise BoardError(f"header values must be integers: {header}") from None
    first_click = header.get("first_click", "opening")
    if first_click not in FIRST_CLICK_POLICIES:
        raise BoardError(f"first_click must be one of {FIRST_CLICK_POLICIES}, not {first_click!r}")
    from .rules import check_mine_count

    try:
        check_mine_count(rows, cols, mines, first_click)
    except ValueError as error:
        raise BoardError(str(error)) from None
    return Board(rows, cols, mines, states, PendingMines(seed, first_click))
