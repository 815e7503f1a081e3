"""Board patches: what changed between two views of the same board, as a few bytes (issue 19).

A move changes a handful of cells (a cascade, a few hundred), yet the view of a 2000x2000 board is a
4,000,000-character string: sending it whole on every move is what made big boards hang. A patch lists
only the changed cells, as runs of consecutive indices:

    run   = varint(gap) varint(length) states
    gap   = cells skipped since the end of the previous run (from index 0 for the first run)
    states = the run's new view characters, two per byte (4-bit codes of :data:`ALPHABET`, high nibble
             first; an odd run pads its last byte with 0)

where a varint is 7 bits per byte, low first, the high bit set on every byte but the last. A single
changed cell costs 2 to 4 bytes of gap and length plus one byte of state; a cascade, whose cells come in
runs along its rows, about half a byte per cell plus 2 to 4 bytes per row. The front end decodes the same
format (``js/patch.js``); both sides are tested against each other.

>>> patch = diff("....", ".1f.")
>>> list(patch)
[1, 2, 49]
>>> apply("....", patch)
'.1f.'
"""

from __future__ import annotations

import re

__all__ = [
    "ALPHABET",
    "PatchError",
    "apply",
    "changed_runs",
    "diff",
    "encode",
    "read_varint",
    "smallest_size",
    "varint",
]

ALPHABET = ".f012345678*XFx"
"""The view alphabet (docs/architecture.md); a character's 4-bit code is its position here."""

_CHUNK = 4096
_SYMBOLS = ALPHABET.encode("ascii")
_HIGH = bytes.maketrans(_SYMBOLS, bytes(code << 4 for code in range(len(ALPHABET))))
_LOW = bytes.maketrans(_SYMBOLS, bytes(range(len(ALPHABET))))
_DIFFERENT = re.compile(rb"[^\x00]+")
_ONE = {ch: bytes((1, code << 4)) for code, ch in enumerate(ALPHABET)}  # a run of one cell, after its gap


class PatchError(ValueError):
    """A patch that does not fit the board it is applied to (or is not a patch at all)."""


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
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
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


def encode(runs: list[tuple[int, int]], after: str) -> bytes:
    """The patch of ``runs`` (from :func:`changed_runs`), with their states read from view ``after``."""
    out = bytearray()
    position = 0
    for start, stop in runs:
        gap = start - position
        if stop - start == 1 and gap < 0x80 and after[start] in _ONE:  # the common case, made short
            out.append(gap)
            out += _ONE[after[start]]
        else:
            out += varint(gap)
            out += varint(stop - start)
            out += _packed(after[start:stop])
        position = stop
    return bytes(out)


def smallest_size(runs: list[tuple[int, int]]) -> int:
    """A lower bound of the size of :func:`encode`'s patch of ``runs``, in bytes, without encoding it."""
    return sum(2 + (stop - start + 1) // 2 for start, stop in runs)


def diff(before: str, after: str) -> bytes:
    """The patch that turns view ``before`` into view ``after`` (same board shape)."""
    return encode(changed_runs(before, after), after)


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
