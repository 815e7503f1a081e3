"""Grid arithmetic shared by boards, views and the solver: positions, flat indices, neighbours.

A ``rows x cols`` grid stores its cells row-major in flat sequences, so cell ``(r, c)`` lives at index
``r * cols + c``. Everything here is pure and cached per grid shape.
"""

from __future__ import annotations

import operator
from functools import lru_cache

Position = tuple[int, int]

_OFFSETS: tuple[Position, ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)


def check_position(rows: int, cols: int, pos: object) -> int:
    """The flat index of ``pos``, or a TypeError/ValueError that says what a position must be."""
    if not isinstance(pos, tuple) or len(pos) != 2:
        raise TypeError(f"a position is a (row, col) tuple of two ints, not {pos!r}")
    row, col = pos
    if isinstance(row, bool) or isinstance(col, bool):
        raise TypeError(f"a position is a (row, col) tuple of two ints, not {pos!r}")
    try:
        row, col = operator.index(row), operator.index(col)
    except TypeError:
        raise TypeError(f"a position is a (row, col) tuple of two ints, not {pos!r}") from None
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(
            f"position {pos!r} is off the board: rows go 0..{rows - 1} and columns 0..{cols - 1}"
        )
    return row * cols + col


def position(cols: int, index: int) -> Position:
    """The ``(row, col)`` of a flat index."""
    row, col = divmod(index, cols)
    return (row, col)


@lru_cache(maxsize=32)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every flat index, the flat indices of its (up to eight) neighbours, in reading order."""
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(
                tuple(
                    (r + dr) * cols + (c + dc)
                    for dr, dc in _OFFSETS
                    if 0 <= r + dr < rows and 0 <= c + dc < cols
                )
            )
    return tuple(table)


def neighbour_indices(rows: int, cols: int, index: int) -> tuple[int, ...]:
    """The flat indices of the neighbours of ``index`` (no table needed, so fine on huge grids)."""
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
