"""Where the mines are: a placed layout with its neighbour counts, or the seeded promise of one.

A board's mines are either a :class:`Minefield` (placed) or :class:`PendingMines` (a seed and a
first-click policy: the mines are placed on the first reveal). This module also holds the vocabulary
around them: the levels, the first-click policies, how many mines a policy allows, and what a seed is.
Both classes check their fields on construction and raise :class:`BoardError` naming the bad one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from functools import cached_property

from .errors import BoardError, quote
from .geometry import shape_error
from .pickling import CheckedPickle

__all__ = [
    "FIRST_CLICK_CLEAR",
    "FIRST_CLICK_POLICIES",
    "LEVELS",
    "SEED_BITS",
    "Minefield",
    "PendingMines",
    "max_mines",
    "mine_count_error",
    "new_seed",
    "pad",
    "policy_error",
    "seed_error",
    "unpad",
]

LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
"""The classic presets: name -> (rows, cols, mines)."""

FIRST_CLICK_POLICIES = ("opening", "safe", "any", "no-guess")
"""What the first reveal may hit: "opening" (its 3x3 block is mine-free), "safe" (the cell is), "any"
(mines placed at creation) and "no-guess" (an opening, on a board that deduction alone solves)."""

SEED_BITS = 128
"""Seeds are ints from 0 to 2**128 - 1. Default seeds use all 128 bits, so no one can search the seeds
for the one that matches what the browser shows."""


def new_seed() -> int:
    """A fresh random seed of :data:`SEED_BITS` bits, from the operating system's secure source."""
    return secrets.randbits(SEED_BITS)


def seed_error(seed: object) -> TypeError | ValueError | None:
    """What is wrong with ``seed``, as an error to raise; None for a valid seed (0 to 2**128 - 1)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return TypeError(f"seed must be an int, not {type(seed).__name__} {quote(seed)}")
    if not 0 <= seed < 1 << SEED_BITS:
        return ValueError(f"seed must be between 0 and 2**{SEED_BITS} - 1, not {quote(seed)}")
    return None


FIRST_CLICK_CLEAR: dict[str, int] = {"opening": 3, "safe": 1, "any": 1, "no-guess": 3}
"""The side of the square that must stay free of mines under each policy: the first click's 3x3 block
("opening", "no-guess"), or one cell ("safe": the clicked one; "any": some cell, or there is no game to win).
The front end's picker checks the same rule (ipyminesweeper.widget.constants exports this table)."""


def max_mines(rows: int, cols: int, first_click: str) -> int:
    """The most mines a ``rows x cols`` board can hold so that any first click obeys ``first_click``."""
    problem = shape_error(rows, cols) or policy_error(first_click)
    if problem is not None:
        raise problem
    side = FIRST_CLICK_CLEAR[first_click]
    return rows * cols - min(rows, side) * min(cols, side)


def mine_count_error(rows: int, cols: int, mines: object, first_click: str) -> TypeError | ValueError | None:
    """What is wrong with ``mines`` on a ``rows x cols`` board under ``first_click``, as an error."""
    if isinstance(mines, bool) or not isinstance(mines, int):
        return TypeError(f"mines must be an int, not {type(mines).__name__} {quote(mines)}")
    limit = max_mines(rows, cols, first_click)
    if not 0 <= mines <= limit:
        return ValueError(
            f"{quote(mines)} mines cannot fit a {rows}x{cols} board (rows x cols) with "
            f"first_click={first_click!r}: use 0 to {limit} mines, or a bigger board"
        )
    return None


def policy_error(first_click: object) -> ValueError | None:
    """What is wrong with a first-click policy name, as an error to raise; None for a known one."""
    if first_click not in FIRST_CLICK_POLICIES:
        return ValueError(
            f"first_click must be one of {', '.join(FIRST_CLICK_POLICIES)}, not {quote(first_click)}"
        )
    return None


@dataclass(frozen=True)
class PendingMines(CheckedPickle):
    """Mines not placed yet: they are drawn on the first reveal from ``seed`` under ``first_click``."""

    seed: int
    first_click: str

    def __post_init__(self) -> None:
        problem = seed_error(self.seed) or policy_error(self.first_click)
        if problem:
            raise BoardError(str(problem))


@dataclass(frozen=True)
class Minefield(CheckedPickle):
    """A placed mine layout: ``mask[i]`` is 1 where flat cell ``i`` holds a mine.

    ``seed`` and ``first_click`` record how it was made; they do not take part in equality, since two
    identical layouts are the same game whatever produced them.
    """

    rows: int
    cols: int
    mask: bytes
    seed: int | None = field(default=None, compare=False)
    first_click: str = field(default="any", compare=False)

    def __post_init__(self) -> None:
        problem = shape_error(self.rows, self.cols)
        if problem:
            raise BoardError(str(problem))
        if type(self.mask) is not bytes:
            raise BoardError(f"mask must be bytes (immutable), not {type(self.mask).__name__}")
        if len(self.mask) != self.rows * self.cols:
            raise BoardError(
                f"mask has {len(self.mask)} bytes; a {self.rows}x{self.cols} layout needs "
                f"{self.rows * self.cols}"
            )
        if self.mask.translate(None, b"\x00\x01"):
            raise BoardError("mask bytes must be 0 (no mine) or 1 (a mine)")
        problem = (None if self.seed is None else seed_error(self.seed)) or policy_error(self.first_click)
        if problem:
            raise BoardError(str(problem))

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
        grid = int(padded.translate(_TO_HEX_DIGIT), 16)
        row_sums = grid + (grid << 4) + (grid >> 4)
        sums = row_sums + (row_sums << (4 * width)) + (row_sums >> (4 * width))
        counts = sums - grid
        digits = format(counts & ((1 << (4 * total)) - 1), "x").zfill(total)[-total:].encode()
        result = bytearray(digits.translate(_FROM_HEX_DIGIT))
        # A one-cell frame of 9s: the frame is never a zero, so a cascade stops there.
        result[:width] = b"\x09" * width
        result[-width:] = b"\x09" * width
        result[0::width] = b"\x09" * (self.rows + 2)
        result[width - 1 :: width] = b"\x09" * (self.rows + 2)
        return bytes(result)


# bytes -> ascii hex digits and back, so whole grids are transformed at C speed.
_TO_HEX_DIGIT = bytes.maketrans(bytes(range(16)), b"0123456789abcdef")
_FROM_HEX_DIGIT = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))


def pad(cells: bytes, rows: int, cols: int, fill: int) -> bytes:
    """``cells`` with a one-cell frame of ``fill`` around the grid."""
    edge = bytes([fill])
    frame = edge * (cols + 2)
    rows_of = memoryview(cells)
    inner = (edge * 2).join(rows_of[r * cols : (r + 1) * cols] for r in range(rows))
    return frame + edge + inner + edge + frame


def unpad(cells: bytes | bytearray, rows: int, cols: int) -> bytes:
    """The inner ``rows x cols`` cells of a framed grid."""
    width = cols + 2
    return b"".join(bytes(cells[(r + 1) * width + 1 : (r + 1) * width + 1 + cols]) for r in range(rows))
