"""What one cell can be, and the tables that turn a whole grid of cells into text at C speed.

The player's side of a cell is a :class:`CellState` (stored as one byte). Together with whether the cell
holds a mine and how many of its neighbours do, it gives the cell's *key*, one byte::

    key = state << 4 | count | 64 if mine

Three 256-entry tables map keys to characters: the board notation (mines shown), the view while the game
is on (no mines) and the view once it is over (mines shown). ``bytes.translate`` applies one to a grid.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

__all__ = [
    "BOARD_TEXT",
    "COVERED",
    "END_ALPHABET",
    "END_VIEW_TEXT",
    "FLAGGED",
    "LIVE_ALPHABET",
    "LIVE_VIEW_TEXT",
    "REVEALED",
    "STATUSES",
    "CellState",
    "Status",
    "cell_keys",
]

Status = Literal["ready", "playing", "won", "lost"]
STATUSES: tuple[Status, ...] = ("ready", "playing", "won", "lost")


class CellState(Enum):
    """What the player has done to a cell. Exactly one holds, so no illegal mix can be written down."""

    COVERED = 0
    FLAGGED = 1
    REVEALED = 2


COVERED, FLAGGED, REVEALED = 0, 1, 2
"""The byte values of :class:`CellState`, as stored in ``Board.states``."""

LIVE_ALPHABET = frozenset(".f012345678")
"""The characters of a view while the game is on: covered, flagged and revealed numbers; never a mine."""
END_ALPHABET = frozenset(".f012345678*XFx")
"""The characters of a view once the game is over: also ``*`` a mine, ``X`` the exploded one, ``F`` a
right flag and ``x`` a wrong flag."""


def cell_keys(states: bytes, counts: bytes, mask: bytes) -> bytes:
    """Every cell's key byte (``state << 4 | count | 64 if mine``), computed on whole grids at once."""
    n = len(states)
    if n == 0:
        return b""
    key = (int.from_bytes(states, "big") << 4) | int.from_bytes(counts, "big")
    key |= int.from_bytes(mask, "big") << 6
    return key.to_bytes(n, "big")


def _table(char_of: dict[tuple[int, bool], str], digits_for_mines: bool) -> bytes:
    table = bytearray(b"?" * 256)
    for count in range(9):
        for (state, mine), char in char_of.items():
            table[(state << 4) | count | (64 if mine else 0)] = ord(char)
        table[(REVEALED << 4) | count] = ord(str(count))
        if digits_for_mines:  # while the game is on a revealed mine cannot exist; keep it unreadable
            table[(REVEALED << 4) | count | 64] = ord("?")
    return bytes(table)


_BOARD_CHARS = {
    (COVERED, False): ".",
    (COVERED, True): "*",
    (FLAGGED, False): "f",
    (FLAGGED, True): "F",
    (REVEALED, True): "X",
}

BOARD_TEXT = _table(_BOARD_CHARS, digits_for_mines=False)
"""Keys -> the board notation: ``.`` ``*`` ``f`` ``F`` ``0``-``8`` ``X``."""

LIVE_VIEW_TEXT = _table(
    {(COVERED, False): ".", (COVERED, True): ".", (FLAGGED, False): "f", (FLAGGED, True): "f"},
    digits_for_mines=True,
)
"""Keys -> the view during play: a mine looks exactly like any other covered cell."""

END_VIEW_TEXT = _table({**_BOARD_CHARS, (FLAGGED, False): "x"}, digits_for_mines=False)
"""Keys -> the view at the end: the board notation, but a wrong flag (on a safe cell) shows ``x``."""
