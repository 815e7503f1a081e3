"""Grid arithmetic: positions, flat indices, neighbours, the size cap and the one coordinate format.

A ``rows x cols`` grid stores its cells row-major in flat sequences, so cell ``(r, c)`` lives at index
``r * cols + c``. Everything here is pure; neighbour tables are cached per grid shape.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import overload

from .errors import quote

__all__ = [
    "LISTED_UP_TO",
    "MAX_CELLS",
    "NeighbourTable",
    "Position",
    "as_position",
    "block",
    "check_position",
    "format_position",
    "neighbour_indices",
    "neighbour_positions",
    "neighbour_table",
    "position",
    "shape_error",
    "spread_position_error",
]

Position = tuple[int, int]
"""A cell as ``(row, col)``, counted from 0 at the top left."""

MAX_CELLS = 4_000_000
"""The most cells a board may have (2000 x 2000). Bigger sizes are refused before any allocation."""

_OFFSETS: tuple[Position, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def shape_error(
    rows: object, cols: object, names: tuple[str, str] = ("rows", "cols")
) -> TypeError | ValueError | None:
    """What is wrong with a ``rows x cols`` shape, as an error to raise; None for a valid board size.
    The message calls the two ``names`` (``("size", "size")`` for ``new_board(size=...)``)."""
    for name, value in zip(names, (rows, cols), strict=True):
        if isinstance(value, bool) or not isinstance(value, int):
            return TypeError(f"{name} must be an int, not {type(value).__name__} {quote(value)}")
        if value < 1:
            return ValueError(f"{name} must be at least 1, not {value}")
    assert isinstance(rows, int) and isinstance(cols, int)
    if rows * cols > MAX_CELLS:
        given = f"{names[0]}={rows}" if names[0] == names[1] else f"{names[0]} x {names[1]}"
        return ValueError(
            f"a {rows}x{cols} board ({given}) has {rows * cols:,} cells; the limit is {MAX_CELLS:,} "
            "(for example 2000 x 2000)"
        )
    return None


def format_position(pos: Position) -> str:
    """The one way positions are written, in reasons, messages and the widget's labels: ``(4,7)``."""
    return f"({pos[0]},{pos[1]})"


def as_position(pos: object) -> Position:
    """``pos`` as a ``(row, col)`` tuple of ints, or a TypeError that says what a position is."""
    if isinstance(pos, tuple) and len(pos) == 2 and not any(isinstance(x, bool) for x in pos):
        try:
            return (operator.index(pos[0]), operator.index(pos[1]))
        except TypeError:
            pass
    if isinstance(pos, list) and len(pos) == 2 and all(type(x) is int for x in pos):
        raise TypeError(
            f"a position is a (row, col) tuple, not the list {quote(pos)}: write ({pos[0]}, {pos[1]})"
        )
    raise TypeError(f"a position is a (row, col) tuple of two ints, not {quote(pos)}")


def spread_position_error(call: str, pos: object, more: tuple[object, ...]) -> TypeError:
    """The error for ``reveal(board, 3, 4)``: the position is one ``(row, col)`` tuple; shows how to
    write it."""
    parts = ", ".join(quote(x, 20) for x in (pos, *more))
    return TypeError(
        f"pos: {call} takes the position as one (row, col) tuple: write {call}(board, ({parts}))"
    )


def check_position(rows: int, cols: int, pos: object) -> int:
    """The flat index of ``pos``, or a TypeError/ValueError that says what a position must be."""
    if type(pos) is tuple and len(pos) == 2:  # the usual case: no call to as_position
        row, col = pos
        if type(row) is int and type(col) is int and 0 <= row < rows and 0 <= col < cols:
            return row * cols + col
    row, col = as_position(pos)
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(
            f"position {format_position((row, col))} is off the board: rows go 0..{rows - 1} "
            f"and columns 0..{cols - 1}"
        )
    return row * cols + col


def position(cols: int, index: int) -> Position:
    """The ``(row, col)`` of a flat index."""
    row, col = divmod(index, cols)
    return (row, col)


LISTED_UP_TO = 1 << 18
"""Grids up to this many cells get their neighbour table listed whole; bigger ones fill it as asked."""


class NeighbourTable(Sequence[tuple[int, ...]]):
    """The neighbour table of a grid too big to list up front (a million cells take seconds): each
    entry is :func:`neighbour_indices`, worked out when first read and kept."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self._known: dict[int, tuple[int, ...]] = {}

    def __len__(self) -> int:
        return self.rows * self.cols

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, ...] | Sequence[tuple[int, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:  # from the end, as a tuple does
            index += len(self)
        found = self._known.get(index)
        if found is None:
            if not 0 <= index < len(self):
                raise IndexError(f"index {index} is off a {self.rows}x{self.cols} grid")
            found = self._known[index] = neighbour_indices(self.rows, self.cols, index)
        return found


@lru_cache(maxsize=32)
def neighbour_table(rows: int, cols: int) -> Sequence[tuple[int, ...]]:
    """For every flat index, the flat indices of its (up to eight) neighbours, in reading order."""
    if rows * cols > LISTED_UP_TO:
        return NeighbourTable(rows, cols)
    return tuple(neighbour_indices(rows, cols, i) for i in range(rows * cols))


def neighbour_indices(rows: int, cols: int, index: int) -> tuple[int, ...]:
    """The flat indices of the neighbours of ``index``, in reading order, computed without a table."""
    r, c = divmod(index, cols)
    return tuple(
        (r + dr) * cols + (c + dc) for dr, dc in _OFFSETS if 0 <= r + dr < rows and 0 <= c + dc < cols
    )


def neighbour_positions(rows: int, cols: int, pos: Position) -> tuple[Position, ...]:
    """The ``(row, col)`` neighbours of ``pos``, in reading order."""
    r, c = pos
    return tuple((r + dr, c + dc) for dr, dc in _OFFSETS if 0 <= r + dr < rows and 0 <= c + dc < cols)


def block(rows: int, cols: int, index: int) -> tuple[int, ...]:
    """``index`` and its neighbours: the 3x3 block a first click keeps free under "opening"."""
    return (index, *neighbour_indices(rows, cols, index))
