"""The board on the wire: whole, patched, packed, and the resync (js/wire.js is the other side).

The synced ``cells`` traitlet is the whole view, one character per cell: 4,000,000 characters on the biggest
board, of which a click changes a few. So three synced values describe the board (``render`` computes them
all, from the session's :class:`BoardChange`):

- ``cells``: the whole view (what a saved notebook, a static export or a second view starts from); a board
  of :data:`PACKED_FROM` cells or more travels *packed* (:func:`wire_cells`, the traitlet's serializer):
  ``~`` and the base64 of the patch from the all-covered view, when that is shorter;
- ``cells_version``: how many times the view on screen changed since the widget was made;
- ``board_patch``: the last change as a *patch*: the varint version it produces, then its runs.

A patch lists the changed cells as runs of consecutive indices::

    run    = varint(gap) varint(length) states
    gap    = cells skipped since the end of the previous run (from index 0 for the first run)
    states = the run's view characters, two per byte (4-bit codes of ALPHABET, high nibble first; an odd
             run pads its last byte with 0)

where a varint is 7 bits per byte, low first, the high bit set on every byte but the last.

**Patch only where it pays** (:func:`board_change`): a move from the browser or the autoplayer is sent as a
patch when the board keeps its shape and the patch is smaller than the view; a call from the user's Python
code, a new shape, or a patch as big as the view sends ``cells`` whole (a notebook runner records what a
cell sends, so each cell must leave the recorded state whole). :func:`outgoing` says which of the three a
state message carries. The browser applies a patch whose version is the next one, ignores an old one, and
asks for the whole view (the ``resync`` request) when it missed one.

Nothing here reads the mines: every value is computed from views. The golden cases in tests/golden/wire.json
give the same bytes here and in js/wire.js.

>>> change = board_change("....", ".1f.", 4, whole=False)
>>> change.version, read_header(change.patch)
(5, (5, 1))
>>> apply("....", diff("....", ".1f."))
'.1f.'
>>> wire_cells("." * PACKED_FROM), wire_cells(".1f.")
('~', '.1f.')
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ALPHABET",
    "BOARD_KEYS",
    "PACKED",
    "PACKED_FROM",
    "BoardChange",
    "PatchError",
    "apply",
    "board_change",
    "changed_runs",
    "diff",
    "outgoing",
    "read_header",
    "unpack_cells",
    "varint",
    "wire_cells",
]

ALPHABET = ".f012345678*XFx"
"""The view alphabet (docs/architecture.md); a character's 4-bit code is its position here."""
PACKED_FROM = 16_384
"""Boards of this many cells or more (128x128) send their whole view packed when that is shorter."""
PACKED = "~"
"""The first character of a packed view (outside the view alphabet and base64's)."""
BOARD_KEYS = ("cells", "cells_version", "board_patch")
"""The synced traitlets that carry the board."""

_CHUNK = 4096
_SYMBOLS = ALPHABET.encode("ascii")
_HIGH = bytes.maketrans(_SYMBOLS, bytes(code << 4 for code in range(len(ALPHABET))))
_LOW = bytes.maketrans(_SYMBOLS, bytes(range(len(ALPHABET))))
_DIFFERENT = re.compile(rb"[^\x00]+")
_ONE = {ch: bytes((1, code << 4)) for code, ch in enumerate(ALPHABET)}  # a run of one cell, after its gap


class PatchError(ValueError):
    """A patch that does not fit the board it is applied to (or is not a patch at all)."""


@dataclass(frozen=True)
class BoardChange:
    """What the browser is told about the view on screen: its ``version``, and ``patch`` (header + runs)
    when the last change goes as a patch, None when the whole view goes."""

    version: int = 0
    patch: bytes | None = None


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
    if _smallest_size(runs) >= len(cells):  # found before encoding: a lost big game shows every mine
        return BoardChange(version + 1, None)
    patch = _encode(runs, cells)
    if len(patch) >= len(cells):
        return BoardChange(version + 1, None)
    return BoardChange(version + 1, varint(version + 1) + patch)


def outgoing(keys: Iterable[str], state: Mapping[str, Any]) -> list[str]:
    """The traitlets a state message with ``keys`` carries: a patch for the version of ``cells`` goes in
    place of ``cells`` and ``cells_version``, and an empty ``board_patch`` goes nowhere."""
    keys = list(keys)
    patch = state.get("board_patch") or b""
    if not patch:
        return [k for k in keys if k != "board_patch"]
    if "board_patch" in keys and read_header(bytes(patch))[0] == state.get("cells_version"):
        return [k for k in keys if k not in ("cells", "cells_version")]
    return keys


def wire_cells(cells: str) -> str:
    """The whole view as it travels: ``cells`` itself, or for a board of at least :data:`PACKED_FROM` cells
    :data:`PACKED` and the base64 of the patch from the all-covered view to it, when that is shorter."""
    if len(cells) < PACKED_FROM:
        return cells
    runs = changed_runs("." * len(cells), cells)
    if 4 * _smallest_size(runs) >= 3 * len(cells):  # base64: 4 characters per 3 bytes
        return cells
    packed = PACKED + base64.b64encode(_encode(runs, cells)).decode("ascii")
    return packed if len(packed) < len(cells) else cells


def unpack_cells(wire: str, size: int) -> str:
    """The view of ``size`` cells that :func:`wire_cells` sent as ``wire``."""
    if not wire.startswith(PACKED):
        return wire
    return apply("." * size, base64.b64decode(wire[len(PACKED) :], validate=True))


def read_header(message: bytes) -> tuple[int, int]:
    """``(version, offset of the runs)`` of a ``board_patch`` value."""
    if not message:
        raise PatchError("an empty patch has no version")
    return read_varint(message, 0)


# --- the patch format --------------------------------------------------------------------------------


def changed_runs(before: str, after: str) -> list[tuple[int, int]]:
    """The runs ``(start, stop)`` of indices where two views of the same shape differ, in order.

    Equal chunks are skipped at C speed, and a chunk that differs is compared at C speed too (the XOR
    of its bytes, read as one integer, is zero exactly where the views agree), so a move on a
    4,000,000-cell board costs about a millisecond and a lost game's whole-board change tens.
    """
    if len(before) != len(after):
        raise PatchError(f"a patch needs two views of one board: {len(before)} and {len(after)} cells")
    runs: list[tuple[int, int]] = []
    for base in range(0, len(after), _CHUNK):
        old, new = before[base : base + _CHUNK], after[base : base + _CHUNK]
        if old == new:
            continue
        mask = int.from_bytes(old.encode("latin-1"), "big") ^ int.from_bytes(new.encode("latin-1"), "big")
        for match in _DIFFERENT.finditer(mask.to_bytes(len(new), "big")):
            start, stop = base + match.start(), base + match.end()
            if runs and runs[-1][1] == start:  # a run that goes on from the last chunk
                start = runs.pop()[0]
            runs.append((start, stop))
    return runs


def varint(n: int) -> bytes:
    """``n`` (>= 0) as a varint: 7 bits per byte, low first, the high bit set on every byte but the last."""
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _packed(states: str) -> bytes:
    """View characters as 4-bit codes, two per byte, high nibble first (an odd count pads with 0)."""
    raw = states.encode("latin-1")
    if raw.translate(None, _SYMBOLS):
        raise PatchError(f"a view holds a character outside {ALPHABET!r}")
    if len(raw) % 2:
        raw += _SYMBOLS[:1]
    high, low = raw[0::2].translate(_HIGH), raw[1::2].translate(_LOW)
    # no nibble carries into the next byte, so one integer sum packs every pair at once
    return (int.from_bytes(high, "big") + int.from_bytes(low, "big")).to_bytes(len(high), "big")


def _encode(runs: list[tuple[int, int]], after: str) -> bytes:
    """The patch of ``runs`` (from :func:`changed_runs`), with their states read from view ``after``."""
    out = bytearray()
    position = 0
    for start, stop in runs:
        gap = start - position
        if stop - start == 1 and gap < 0x80 and after[start] in _ONE:  # the common case, made short
            out.append(gap)
            out += _ONE[after[start]]
        else:
            out += varint(gap) + varint(stop - start) + _packed(after[start:stop])
        position = stop
    return bytes(out)


def _smallest_size(runs: list[tuple[int, int]]) -> int:
    """A lower bound of the size of :func:`_encode`'s patch of ``runs``, in bytes, without encoding it."""
    return sum(2 + (stop - start + 1) // 2 for start, stop in runs)


def diff(before: str, after: str) -> bytes:
    """The patch that turns view ``before`` into view ``after`` (same board shape)."""
    return _encode(changed_runs(before, after), after)


def read_varint(patch: bytes, at: int) -> tuple[int, int]:
    """The varint at ``patch[at:]`` and the offset after it; a PatchError if the bytes end inside it."""
    value = shift = 0
    while True:
        if at >= len(patch) or shift > 28:
            raise PatchError("a patch ends inside a number")
        byte = patch[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def apply(cells: str, patch: bytes) -> str:
    """The view after ``patch`` (from :func:`diff`); a PatchError when it does not fit ``cells``."""
    parts: list[str] = []
    position = at = 0
    while at < len(patch):
        gap, at = read_varint(patch, at)
        length, at = read_varint(patch, at)
        start = position + gap
        stop = start + length
        packed = patch[at : at + (length + 1) // 2]
        at += (length + 1) // 2
        if length < 1 or stop > len(cells) or len(packed) < (length + 1) // 2:
            raise PatchError(f"a run of {length} cells at {start} does not fit {len(cells)} cells")
        codes = [c for byte in packed for c in (byte >> 4, byte & 0x0F)][:length]
        if max(codes) >= len(ALPHABET):
            raise PatchError("a patch holds a state outside the view alphabet")
        parts.append(cells[position:start])
        parts.append("".join(ALPHABET[c] for c in codes))
        position = stop
    parts.append(cells[position:])
    return "".join(parts)
