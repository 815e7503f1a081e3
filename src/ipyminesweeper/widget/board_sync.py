"""How the board reaches the browser: the whole view when it must, otherwise only what changed (issue 19).

The synced ``cells`` traitlet is the whole view, one character per cell: 4,000,000 characters on the
biggest board. A click changes a few cells, so resending it on every move is what made big boards slow.
The shell therefore keeps three synced values about the board:

- ``cells``: the whole view (what a saved notebook, a static export or a second view starts from);
- ``cells_version``: how many times the view changed since the widget was made; the version of ``cells``;
- ``board_patch``: the last change, as a patch (:mod:`.patch`) after a header, the varint version it
  produces (its base is one less).

On a move, :func:`board_change` says what to send. Usually a patch: the message then carries
``board_patch`` and leaves ``cells`` and ``cells_version`` out (the Python values are still set, so a
state asked for later is whole). The whole view goes instead when the shape changed, when the patch would
not be smaller, or when the change comes from the user's own Python call (``w.reveal(3, 4)`` in a cell):
a notebook runner (nbclient, ``make export``) records the messages a cell sends, not the browser's board,
so each cell must leave the recorded state whole.

The browser applies a patch when its version is the patch's base, ignores one it already has, and asks
for the whole view (the ``resync`` request) when it missed one. It writes the patched view back into its
copy of the model's state, so a notebook saved from the browser keeps the board on screen.

The whole view of a big board travels packed (:func:`wire_cells`, the ``cells`` traitlet's serializer):
``~`` and the base64 of the patch that turns the all-covered view into it, when that is shorter. A new
1000x1000 game is then ``"~"`` instead of a 1,000,000-character string that the kernel encodes and the
browser receives, decodes and parses before it can draw (the front end rebuilds the view from the patch,
``js/model.js``: ``readCells``). It stays a string, not a binary buffer: a notebook runner (nbclient) keeps
the last buffer of each path, and would put an old board back over a later whole view sent as text.
Boards under :data:`PACKED_FROM` cells keep the readable view.

Nothing here reads the mines: a patch is computed from two views, so it carries what the views carry.

>>> change = board_change("....", ".1f.", 4, whole=False)
>>> change.version, change.patch is not None
(5, True)
>>> read_header(change.patch)
(5, 1)
>>> wire_cells("." * PACKED_FROM), wire_cells(".1f.")
('~', '.1f.')
>>> view = "1" + "." * PACKED_FROM
>>> unpack_cells(wire_cells(view), len(view)) == view
True
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from .patch import PatchError, apply, changed_runs, encode, read_varint, smallest_size, varint

__all__ = [
    "PACKED",
    "PACKED_FROM",
    "BoardChange",
    "board_change",
    "patch_message",
    "read_header",
    "unpack_cells",
    "wire_cells",
]

PACKED_FROM = 16_384
"""Boards of this many cells or more (128x128) send their whole view packed when that is shorter."""
PACKED = "~"
"""The first character of a packed view (outside the view alphabet and base64's)."""


@dataclass(frozen=True)
class BoardChange:
    """What the browser is sent about a new view: its ``version``, and ``patch`` (header + runs) or None
    when the whole view goes."""

    version: int
    patch: bytes | None


def patch_message(version: int, runs: bytes) -> bytes:
    """A ``board_patch`` value: the version the patch produces (a varint), then its runs."""
    return varint(version) + runs


def read_header(message: bytes) -> tuple[int, int]:
    """``(version, offset of the runs)`` of a ``board_patch`` value."""
    if not message:
        raise PatchError("an empty patch has no version")
    return read_varint(message, 0)


def board_change(sent: str, cells: str, version: int, *, whole: bool) -> BoardChange | None:
    """What to send when the view goes from ``sent`` (at ``version``) to ``cells``; None if it did not change.

    A patch, unless ``whole`` is asked for, the number of cells differs, or the patch is not smaller than
    the view itself.
    """
    if cells == sent:
        return None
    if whole or len(cells) != len(sent):
        return BoardChange(version + 1, None)
    runs = changed_runs(sent, cells)
    if smallest_size(runs) >= len(cells):  # found before encoding: a lost big game shows every mine
        return BoardChange(version + 1, None)
    patch = encode(runs, cells)
    if len(patch) >= len(cells):
        return BoardChange(version + 1, None)
    return BoardChange(version + 1, patch_message(version + 1, patch))


def wire_cells(cells: str) -> str:
    """The whole view as it travels: ``cells`` itself, or for a board of at least :data:`PACKED_FROM` cells
    :data:`PACKED` and the base64 of the patch from the all-covered view to it, when that is shorter.

    Computed from the view alone, so it carries what the view carries (no mine before the game ends).
    """
    if len(cells) < PACKED_FROM:
        return cells
    runs = changed_runs("." * len(cells), cells)
    if 4 * smallest_size(runs) >= 3 * len(cells):  # base64: 4 characters per 3 bytes
        return cells
    packed = PACKED + base64.b64encode(encode(runs, cells)).decode("ascii")
    return packed if len(packed) < len(cells) else cells


def unpack_cells(wire: str, size: int) -> str:
    """The view of ``size`` cells that :func:`wire_cells` sent as ``wire`` (js/model.js: readCells)."""
    if not wire.startswith(PACKED):
        return wire
    return apply("." * size, base64.b64decode(wire[len(PACKED) :], validate=True))
