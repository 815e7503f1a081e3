"""The board's text and JSON notations, read into plain fields (``Board`` assembles and checks them).

Text, one line per row: ``.`` covered safe cell, ``*`` covered mine, ``f`` flagged safe cell, ``F``
flagged mine, ``0``-``8`` a revealed safe cell, ``X`` the exploded mine. A board whose mines are not
placed yet starts with a header line such as ``# mines=40 seed=7 first_click=opening``.

Both readers measure their input first: oversized or malformed input raises a :class:`BoardError`
before anything big is built.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .cells import COVERED, FLAGGED, REVEALED
from .errors import BoardError, quote
from .geometry import MAX_CELLS, format_position, position, shape_error

__all__ = [
    "JSON_FORMAT",
    "JSON_VERSION",
    "Grid",
    "check_saved",
    "format_header",
    "grid_width",
    "read_grid",
    "read_header",
    "read_json",
]

JSON_FORMAT = "ipyminesweeper/board"
JSON_VERSION = 1
MAX_TEXT = 3 * MAX_CELLS + 4096
"""The longest text (or JSON) a board can be written in; longer input is refused unread."""

_CELL_CHARS = b".*fFX012345678"
_STATE_OF = bytes.maketrans(_CELL_CHARS, bytes([COVERED] * 2 + [FLAGGED] * 2 + [REVEALED] * 10))
_MINE_OF = bytes.maketrans(_CELL_CHARS, bytes([0, 1, 0, 1, 1] + [0] * 9))


@dataclass(frozen=True)
class Grid:
    """The cells of a text grid: ``states`` and ``mask``, one byte per cell, and the ASCII ``text``."""

    rows: int
    cols: int
    states: bytes
    mask: bytes
    exploded: int | None
    text: bytes


def grid_width(lines: list[str], kind: str = "board") -> int:
    """The width of a text grid's rows (of a ``kind``: board or view), checked: BoardError if there is
    no row, the shape is impossible, or a row's width differs from the first's."""
    if not lines:
        raise BoardError(f"a {kind} needs at least one row of cells")
    cols = len(lines[0])
    error = shape_error(len(lines), cols)
    if error:
        raise BoardError(str(error))
    for r, line in enumerate(lines):
        if len(line) != cols:
            raise BoardError(
                f"row {r} has {len(line)} cells but row 0 has {cols}: every row needs the same width"
            )
    return cols


def read_grid(lines: list[str]) -> Grid:
    """Read the rows of a text grid (header already removed); errors name the row and column."""
    cols = grid_width(lines)
    joined = "".join(lines)
    text = joined.encode("ascii", errors="replace")
    if text.translate(None, _CELL_CHARS):
        index = next(
            i for i, ch in enumerate(joined) if ch.encode("ascii", errors="replace") not in _CELL_CHARS
        )
        r, c = position(cols, index)
        raise BoardError(
            f"{format_position((r, c))}: unknown cell {quote(joined[index])}; use one of . * f F X or 0-8"
        )
    if text.count(b"X") > 1:
        r, c = position(cols, text.find(b"X", text.find(b"X") + 1))
        raise BoardError(f"{format_position((r, c))}: a second exploded mine 'X'; a lost game has one")
    exploded = text.find(b"X")
    return Grid(
        len(lines),
        cols,
        text.translate(_STATE_OF),
        text.translate(_MINE_OF),
        None if exploded < 0 else exploded,
        text,
    )


def format_header(mines: int, seed: int, first_click: str) -> str:
    """The header line of a board whose mines are not placed yet."""
    return f"# mines={mines} seed={seed} first_click={first_click}"


def read_header(line: str) -> tuple[int, int, str]:
    """``(mines, seed, first_click)`` from a header line."""
    fields: dict[str, str] = {}
    for item in line.lstrip("#").split():
        key, sep, value = item.partition("=")
        if not sep or key not in ("mines", "seed", "first_click") or key in fields:
            raise BoardError(
                f"header {quote(line)}: expected 'mines=N seed=S first_click=P', found {quote(item)}"
            )
        fields[key] = value
    missing = {"mines", "seed", "first_click"} - fields.keys()
    if missing:
        raise BoardError(f"header {quote(line)} lacks {', '.join(sorted(missing))}")
    numbers = []
    for key in ("mines", "seed"):
        text = fields[key]
        if not (text.isascii() and text.isdigit()) or len(text) > 60:
            raise BoardError(f"header {key} must be a non-negative integer, not {quote(text)}")
        numbers.append(int(text))
    return numbers[0], numbers[1], fields["first_click"]


def read_json(text: object) -> dict[str, Any]:
    """The fields of a saved board, type-checked; raises BoardError for anything else."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise BoardError(f"not valid JSON: {error}") from None
    if not isinstance(text, str):
        raise BoardError(f"a saved board is a JSON str or bytes, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise BoardError(f"a saved board is at most {MAX_TEXT:,} characters; this one has {len(text):,}")
    try:
        data = json.loads(text, parse_int=_small_int, parse_constant=_no_constant)
    except RecursionError:
        raise BoardError("not a saved board: the JSON is nested too deeply") from None
    except ValueError as error:  # JSONDecodeError and the hooks' errors
        raise BoardError(f"not valid JSON: {quote(str(error), 200)}") from None
    return check_saved(data)


def check_saved(data: object) -> dict[str, Any]:
    """``data`` if it has the fields and types of a saved board, else a BoardError naming the bad one."""
    if not isinstance(data, dict):
        raise BoardError(f"a saved board is a JSON object, not {type(data).__name__}")
    if data.get("format") != JSON_FORMAT or data.get("version") != JSON_VERSION:
        raise BoardError(
            f"not a saved board: expected format {JSON_FORMAT!r} version {JSON_VERSION}, "
            f"got {quote(data.get('format'))} version {quote(data.get('version'))}"
        )
    expected: dict[str, tuple[type, ...]] = {
        "rows": (int,),
        "cols": (int,),
        "mines": (int,),
        "seed": (int, type(None)),
        "first_click": (str,),
        "placed": (bool,),
        "grid": (list,),
    }
    for key, types in expected.items():
        if key not in data:
            raise BoardError(f"a saved board lacks the field {key!r}")
        value = data[key]
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            raise BoardError(f"'{key}' has the wrong type: {type(value).__name__} {quote(value)}")
    if not all(isinstance(line, str) for line in data["grid"]):
        raise BoardError("'grid' must be a list of strings, one per row")
    return data


def _small_int(text: str) -> int:
    if len(text) > 60:
        raise ValueError(f"an integer of {len(text)} digits is too long for a board")
    return int(text)


def _no_constant(text: str) -> None:
    raise ValueError(f"{text} is not a number a board can hold")
