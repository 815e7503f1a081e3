"""Where the mines are: a frozen layout, its neighbour counts, and the promise of one (seeded, unplaced).

A board's mines are either a :class:`Minefield` (placed) or :class:`PendingMines` (a seed and a
first-click policy: the mines are placed on the first reveal). Counts are derived once per layout and
shared by every board of the same game, never stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

# bytes -> ascii hex digits and back, so whole grids are transformed at C speed.
_TO_HEX_DIGIT = bytes.maketrans(bytes(range(16)), b"0123456789abcdef")
_FROM_HEX_DIGIT = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))

FIRST_CLICK_POLICIES = ("opening", "safe", "any", "no-guess")


@dataclass(frozen=True)
class PendingMines:
    """Mines not placed yet: they are drawn on the first reveal from ``seed`` under ``first_click``."""

    seed: int
    first_click: str


@dataclass(frozen=True)
class Minefield:
    """A placed mine layout: ``mask[i]`` is 1 where flat cell ``i`` holds a mine.

    ``seed`` and ``first_click`` record how it was made; they do not take part in equality, since two
    identical layouts are the same game whatever produced them.
    """

    rows: int
    cols: int
    mask: bytes
    seed: int | None = field(default=None, compare=False)
    first_click: str = field(default="any", compare=False)

    @cached_property
    def count(self) -> int:
        """How many mines there are."""
        return self.mask.count(1)

    @cached_property
    def counts(self) -> bytes:
        """For every cell, the number of mines among its neighbours (0-8)."""
        return unpad(self.padded_counts, self.rows, self.cols)

    @cached_property
    def padded_counts(self) -> bytes:
        """The counts on a grid with a one-cell border (border cells count 9, so never cascade).

        Computed with big-integer arithmetic, four bits per cell: the 3x3 sums of the mine grid are
        three shifted additions along rows and three across them, with no carry since 9 < 16.
        """
        width = self.cols + 2
        padded = pad(self.mask, self.rows, self.cols, 0)
        total = len(padded)
        grid = int(padded.translate(_TO_HEX_DIGIT), 16) if total else 0
        row_sums = grid + (grid << 4) + (grid >> 4)
        sums = row_sums + (row_sums << (4 * width)) + (row_sums >> (4 * width))
        counts = sums - grid
        mask_all = (1 << (4 * total)) - 1
        digits = format(counts & mask_all, "x").zfill(total)[-total:].encode()
        result = bytearray(digits.translate(_FROM_HEX_DIGIT))
        # A one-cell frame of 9s: the frame is never a zero, so a cascade stops there.
        result[:width] = b"\x09" * width
        result[-width:] = b"\x09" * width
        result[0::width] = b"\x09" * (self.rows + 2)
        result[width - 1 :: width] = b"\x09" * (self.rows + 2)
        return bytes(result)


def pad(cells: bytes, rows: int, cols: int, fill: int) -> bytes:
    """``cells`` with a one-cell frame of ``fill`` around the grid."""
    edge = bytes([fill])
    frame = edge * (cols + 2)
    inner = b"".join(edge + cells[r * cols : (r + 1) * cols] + edge for r in range(rows))
    return frame + inner + frame


def unpad(cells: bytes | bytearray, rows: int, cols: int) -> bytes:
    """The inner ``rows x cols`` cells of a framed grid."""
    width = cols + 2
    return b"".join(bytes(cells[(r + 1) * width + 1 : (r + 1) * width + 1 + cols]) for r in range(rows))
