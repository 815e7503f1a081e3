"""The player's view: everything a player (or a strategy, or the browser) is allowed to see.

A :class:`View` has no mine field at all. While the game is on its cells are only ``.`` (covered),
``f`` (flagged) and the digits of revealed cells; the mines appear (``*``, ``X``, ``F``, ``x``) only once
the game is over. The same one-character-per-cell string is what the widget syncs to the browser.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from .cells import END_ALPHABET, END_VIEW_TEXT, LIVE_ALPHABET, LIVE_VIEW_TEXT, STATUSES, Status
from .errors import quote
from .geometry import Position, check_position, format_position, neighbour_positions, position, shape_error
from .notation import MAX_TEXT, grid_width
from .pickling import CheckedPickle, assembled

__all__ = ["NUMBER_COLOURS", "View", "view_from_keys", "view_html"]


@dataclass(frozen=True, repr=False)
class View(CheckedPickle):
    """What the player sees: the grid's size, the mine total, the status and one character per cell.

    ``cells`` is row-major, ``rows * cols`` characters, in the alphabet of ``docs/architecture.md``.
    Every view is checked on construction: a ValueError names what does not fit.
    """

    rows: int
    cols: int
    mines: int
    status: Status
    cells: str

    def __post_init__(self) -> None:
        problem = _view_problem(self.rows, self.cols, self.mines, self.status, self.cells)
        if problem:
            raise ValueError(problem)

    def __getitem__(self, pos: Position) -> str:
        """The character of the cell at ``pos``."""
        return self.cells[check_position(self.rows, self.cols, pos)]

    def index(self, pos: Position) -> int:
        """The flat index of ``pos``."""
        return check_position(self.rows, self.cols, pos)

    def position(self, index: int) -> Position:
        """The ``(row, col)`` of a flat index."""
        return position(self.cols, index)

    def neighbours(self, pos: Position) -> tuple[Position, ...]:
        """The (up to eight) cells around ``pos``."""
        check_position(self.rows, self.cols, pos)
        return neighbour_positions(self.rows, self.cols, pos)

    def covered(self) -> tuple[Position, ...]:
        """The covered cells (not flagged)."""
        return tuple(position(self.cols, i) for i, ch in enumerate(self.cells) if ch == ".")

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.status in ("won", "lost")

    @cached_property
    def flags(self) -> int:
        """How many flags the player has placed."""
        return sum(self.cells.count(ch) for ch in "fFx")

    @cached_property
    def revealed(self) -> int:
        """How many cells are revealed (show a number)."""
        text = self.cells.encode("ascii", errors="replace")
        return len(text) - len(text.translate(None, b"012345678"))

    def changed(self, cells: Mapping[int, str], status: Status) -> View:
        """This view with the cells ``{index: character}`` redrawn and the status ``status``: what a move
        shows. While the game is on (before and after), it is checked in proportion to the change, as
        ``View(...)`` checks a whole view (the live alphabet, the status and the count of revealed cells,
        the mines); otherwise it is built and checked whole.
        """
        n = self.rows * self.cols
        text = bytearray(self.cells, "ascii")
        revealed, flags = self.revealed, self.flags
        for index, char in cells.items():
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise ValueError(f"a changed cell is an index from 0 to {n - 1}, not {quote(index)}")
            if not isinstance(char, str) or len(char) != 1 or char not in END_ALPHABET:
                raise ValueError(f"unknown view cell {quote(char)}")
            old = chr(text[index])
            revealed += char.isdigit() - old.isdigit()
            flags += (char in "fFx") - (old in "fFx")
            text[index] = ord(char)
        new_cells = text.decode("ascii")
        live = ("ready", "playing")
        if self.status not in live or status not in live:
            return View(self.rows, self.cols, self.mines, status, new_cells)
        problem = _live_change_problem(cells.values(), status, revealed, n, self.mines)
        if problem:
            raise ValueError(problem)
        fields = {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "status": status,
            "cells": new_cells,
        }
        return assembled(View, **fields, revealed=revealed, flags=flags)

    @property
    def flags_left(self) -> int:
        """Mines minus flags."""
        return self.mines - self.flags

    def to_text(self) -> str:
        """The view, one line per row."""
        c = self.cols
        return "\n".join(self.cells[r * c : (r + 1) * c] for r in range(self.rows))

    @classmethod
    def from_text(cls, text: str, *, mines: int) -> View:
        """Parse :meth:`to_text` output. The status follows from the cells: an ``X`` means lost,
        ``F`` (or ``*``) without ``X`` means won, any digit means playing, otherwise ready."""
        if not isinstance(text, str):
            raise TypeError(f"View.from_text(text): text must be a str, not {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise ValueError(f"a view's text is at most {MAX_TEXT:,} characters; this one has {len(text):,}")
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        cols = grid_width(lines, "view")
        cells = "".join(lines)
        if cells.encode("ascii", errors="replace").translate(None, _END_BYTES):  # at C speed
            index = next(i for i, ch in enumerate(cells) if ch not in END_ALPHABET)
            r, c = position(cols, index)
            raise ValueError(f"{format_position((r, c))}: unknown view cell {quote(cells[index])}")
        status: Status
        if "X" in cells:
            status = "lost"
        elif "F" in cells or "*" in cells:
            status = "won"
        elif any(digit in cells for digit in "012345678"):
            status = "playing"
        else:
            status = "ready"
        return cls(len(lines), cols, mines, status, cells)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.labelled("View")

    def labelled(self, kind: str) -> str:
        """``<kind RxC, N mines, status>``, with the cells on the lines below up to 40x40 cells: the repr
        of a view, and of its board (``kind="Board"``)."""
        head = f"<{kind} {self.rows}x{self.cols}, {self.mines} mines, {self.status}"
        if self.rows * self.cols > 40 * 40:
            return head + ">"
        return f"{head}:\n{self.to_text()}\n>"

    def _repr_html_(self) -> str:
        return view_html(self)


_LIVE_BYTES = "".join(sorted(LIVE_ALPHABET)).encode()
_END_BYTES = "".join(sorted(END_ALPHABET)).encode()


def _live_change_problem(
    chars: Iterable[str], status: str, revealed: int, cells: int, mines: int
) -> str | None:
    """What :func:`_view_problem` says of a live view that changed (``chars`` its new characters, it now
    has ``revealed`` of its ``cells`` revealed); None when it holds."""
    stray = set(chars) - LIVE_ALPHABET
    if stray:
        return f"a {status} view cannot hold the character(s) {quote(sorted(stray))}"
    if status == "ready" and revealed:
        return "a ready view has no revealed cell"
    if status == "playing" and not revealed:
        return "a playing view has a revealed cell"
    if mines > cells - revealed:
        return f"mines must be an int from 0 to the {cells - revealed} unrevealed cells, not {quote(mines)}"
    return None


def _view_problem(rows: object, cols: object, mines: object, status: object, cells: object) -> str | None:
    error = shape_error(rows, cols)
    if error:
        return str(error)
    assert isinstance(rows, int) and isinstance(cols, int)
    if status not in STATUSES:
        return f"status must be one of {', '.join(STATUSES)}, not {quote(status)}"
    if not isinstance(cells, str):
        return f"cells must be a str, not {type(cells).__name__}"
    if len(cells) != rows * cols:
        return f"a {rows}x{cols} view needs {rows * cols} cells, got {len(cells)}"
    alphabet = END_ALPHABET if status in ("won", "lost") else LIVE_ALPHABET
    text = cells.encode("ascii", errors="replace")  # whole-grid checks at C speed
    if text.translate(None, _END_BYTES if status in ("won", "lost") else _LIVE_BYTES):
        stray = set(cells) - alphabet
        return f"a {status} view cannot hold the character(s) {quote(sorted(stray))}"
    digits = len(text) - len(text.translate(None, b"012345678"))
    if status == "ready" and digits:
        return "a ready view has no revealed cell"
    if status == "playing" and not digits:
        return "a playing view has a revealed cell"
    if status == "won" and digits + cells.count("F") != len(cells):
        return "a won view shows only numbers and flagged mines (F)"
    if status == "lost" and cells.count("X") != 1:
        return "a lost view has exactly one exploded mine (X)"
    if isinstance(mines, bool) or not isinstance(mines, int) or not 0 <= mines <= len(cells) - digits:
        hidden = len(cells) - digits
        return f"mines must be an int from 0 to the {hidden} unrevealed cells, not {quote(mines)}"
    return None


def view_from_keys(rows: int, cols: int, mines: int, status: Status, keys: bytes) -> View:
    """The view of a grid of cell keys (see :mod:`.cells`): mines appear only once the game is over."""
    table = END_VIEW_TEXT if status in ("won", "lost") else LIVE_VIEW_TEXT
    return View(rows, cols, mines, status, keys.translate(table).decode())


# Classic number colours, readable on the light grey cells of both themes.
NUMBER_COLOURS = {
    "1": "#1a56db",
    "2": "#1e7b34",
    "3": "#d92d20",
    "4": "#1e2a78",
    "5": "#7a271a",
    "6": "#0e7c86",
    "7": "#222222",
    "8": "#6b7280",
}

_GLYPH = {".": "", "f": "⚑", "*": "●", "X": "✸", "F": "⚑", "x": "✗", "0": ""}


def view_html(view: View, cell_px: int = 18) -> str:
    """A small static HTML table of the view: renders in any notebook, nbviewer and GitHub."""
    if view.rows * view.cols > 100 * 100:
        return f"<pre>{html.escape(repr(view))}</pre>"
    style_cell = (
        f"width:{cell_px}px;height:{cell_px}px;padding:0;text-align:center;font:bold "
        f"{cell_px - 6}px monospace;border:1px solid #9ca3af;"
    )
    rows = []
    for r in range(view.rows):
        tds = []
        for ch in view.cells[r * view.cols : (r + 1) * view.cols]:
            covered = ch in ".f*Fx"
            bg = "#c0c4cc" if covered else "#eef0f3"
            if ch == "X":
                bg = "#f04438"
            colour = NUMBER_COLOURS.get(ch, "#b42318" if ch in "fFx" else "#111827")
            glyph = _GLYPH.get(ch, ch)
            tds.append(f'<td style="{style_cell}background:{bg};color:{colour}">{glyph}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    caption = (
        f"{view.rows}&times;{view.cols}, {view.mines} mines, {view.status}, {view.flags_left} flags left"
    )
    return (
        '<table class="ipyminesweeper-board" style="border-collapse:collapse;margin:0">'
        f'<caption style="caption-side:bottom;font:12px sans-serif;color:#6b7280">{caption}</caption>'
        + "".join(rows)
        + "</table>"
    )
