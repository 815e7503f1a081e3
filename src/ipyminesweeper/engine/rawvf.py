"""RAWVF, the open, human-readable replay format of the field (thefinerminer/minesweeper-rawvf), read
and written in pure Python: a game leaves and comes back as text, in every host (Pyodide too).

A RAWVF file is three parts::

    RawVF_Version: Rev6            header lines "Key: Value", up to "Board:"
    Width: 9
    Height: 9
    Mines: 10
    Board:                         one line per row: "*" a mine, "0" a safe cell
    *00000000
    ...
    Events:                        one mouse event a line: time in seconds, the action, the cell's
    0.000 lc 5 5 (72 72)           column and row counted from 1, and the pixel (16 per cell)
    0.000 lr 5 5 (72 72)
    Cell opened (Number 1) 5 5     board events (optional): what the click showed

:func:`write_rawvf` writes each click as its mouse events (a left click ``lc`` and ``lr``, a right click
``rc`` and ``rr``, a chord ``mc`` and ``mr``, the middle button) followed by the board events the
reference parser adds (cells opened with their numbers, flags), so a file checks itself. A game without
times gets ``0.000`` throughout and no ``Time`` line, and reads back without times. Mouse events off the
board click nothing (as in the game); a board event off the board is an error.

:func:`read_rawvf` turns the mouse events into clicks (:mod:`.mouse`) and checks what the file states:
the size and mine count against the board, the ``BBBV`` line, and every number a board event shows
against the mines. Anything that does not parse or does not fit is a :class:`~.replay.ReplayError` that
names the line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import replace

from .board import Board
from .cells import COVERED, FLAGGED, REVEALED
from .geometry import MAX_CELLS, shape_error
from .metrics import bbbv, game_time
from .minefield import Minefield
from .mouse import MOUSE_ACTIONS, MouseEvent, replay_from_mouse
from .replay import Replay, ReplayError

__all__ = ["MAX_RAWVF", "read_rawvf", "write_rawvf"]

MAX_RAWVF = 64 * 1024 * 1024
"""The longest RAWVF text read (characters): a replay's events, not a denial of service."""

SQUARE = 16
"""Pixels per cell in the events' pixel coordinates (the reference parser's square size)."""

_LEVELS = {
    (8, 8, 10): "Beginner",
    (9, 9, 10): "Beginner",
    (16, 16, 40): "Intermediate",
    (16, 30, 99): "Expert",
}
_EVENT = re.compile(r"^(-?\d+(?:\.\d+)?)\s+([a-z]{2})\b\s*(-?\d+)?\s*(-?\d+)?")
_OPENED = re.compile(r"^Cell opened \((?:Number (\d)|it is a Mine)\) (-?\d+) (-?\d+)\s*$", re.IGNORECASE)
_IGNORED = ("st", "sx", "sy", "bl", "bo", "no", "wo")  # start, scrolling, blast, boom, nonstandard, won


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _events_of(replay: Replay) -> Iterator[str]:
    """The event lines of ``replay``: each click's mouse events, then the board events it caused."""
    timed = all(c.time is not None for c in replay.clicks)
    buttons = {"left": ("lc", "lr"), "right": ("rc", "rr"), "chord": ("mc", "mr")}
    for click, before, after in replay.steps():
        row, col = click.pos
        when = f"{click.time:.3f}" if timed and click.time is not None else "0.000"
        pixel = f"({col * SQUARE + SQUARE // 2} {row * SQUARE + SQUARE // 2})"
        for action in buttons[click.kind]:
            yield f"{when} {action} {col + 1} {row + 1} {pixel}"
        cols, counts, mask = after.cols, after.counts, after.mask
        for i, (old, new) in enumerate(zip(before.states, after.states, strict=True)):
            where = f"{i % cols + 1} {i // cols + 1}"
            if new == REVEALED and old != REVEALED:
                shown = "it is a Mine" if mask[i] else f"Number {counts[i]}"
                yield f"Cell opened ({shown}) {where}"
            elif old == COVERED and new == FLAGGED and not after.over:
                yield f"Flag {where}"
            elif old == FLAGGED and new == COVERED:
                yield f"Flag removed {where}"


def write_rawvf(replay: Replay) -> str:
    """``replay`` as RAWVF text (see the module). It must start from a covered board whose mines are
    placed (a game with a reveal): RAWVF has no way to say which cells were open before the first click."""
    if not isinstance(replay, Replay):
        raise TypeError(f"write_rawvf(replay): replay must be a Replay, not {type(replay).__name__}")
    start, final = replay.start, replay.final
    if not isinstance(final.minefield, Minefield):
        raise ReplayError("a game whose mines are not placed yet (no reveal) has no board to write")
    if start.states.count(REVEALED):
        raise ReplayError("RAWVF replays start from a covered board; this game starts with cells revealed")
    rows, cols, mines = final.rows, final.cols, final.mines
    timed = all(c.time is not None for c in replay.clicks)
    seconds = game_time(replay)
    header = [
        "RawVF_Version: Rev6",
        f"Program: {_one_line(replay.program) or 'ipyminesweeper'}",
        f"Player: {_one_line(replay.player)}",
        f"Level: {_LEVELS.get((rows, cols, mines), 'Custom')}",
        f"Width: {cols}",
        f"Height: {rows}",
        f"Mines: {mines}",
        "Marks: Off",
        *([f"Time: {seconds or 0.0:.3f}"] if timed else []),
        f"BBBV: {bbbv(final)}",
        "Mode: Classic",
        "Board:",
    ]
    mask = final.mask
    grid = ["".join("*" if mask[r * cols + c] else "0" for c in range(cols)) for r in range(rows)]
    return "\n".join([*header, *grid, "Events:", *_events_of(replay)]) + "\n"


def _header(lines: list[str]) -> tuple[dict[str, str], int]:
    """The header's ``key (lower case) -> value`` and the index of the ``Board:`` line."""
    values: dict[str, str] = {}
    for n, line in enumerate(lines):
        key, colon, value = line.partition(":")
        if not colon:
            if line.strip():
                raise ReplayError(f"line {n + 1}: a header line is 'Key: Value', not {line[:40]!r}")
            continue
        key = key.strip().lower()
        if key == "board":
            return values, n
        values[key] = value.strip()
    raise ReplayError("no 'Board:' line: this is not a RAWVF replay")


def _int(values: dict[str, str], key: str, name: str) -> int:
    text = values.get(key.lower())
    if text is None:
        raise ReplayError(f"the header has no {name!r} line")
    if not re.fullmatch(r"\d{1,7}", text):
        raise ReplayError(f"the header's {name!r} is a whole number, not {text[:20]!r}")
    return int(text)


def _start(lines: list[str], values: dict[str, str], at: int) -> Board:
    """The covered board of the header's size with the ``Board:`` section's mines, checked."""
    cols, rows = _int(values, "width", "Width"), _int(values, "height", "Height")
    problem = shape_error(rows, cols, ("Height", "Width"))
    if problem or rows * cols > MAX_CELLS:
        raise ReplayError(f"the header's size: {problem}")
    grid = lines[at + 1 : at + 1 + rows]
    if len(grid) < rows:
        raise ReplayError(f"the board has {len(grid)} rows; the header says Height: {rows}")
    for n, line in enumerate(grid, start=at + 2):
        row = line.strip()
        if len(row) != cols or row.strip("*0"):
            raise ReplayError(f"line {n}: a board row is {cols} characters, '*' or '0', not {row[:40]!r}")
    mask = "".join(line.strip() for line in grid).translate({ord("*"): 1, ord("0"): 0}).encode("latin-1")
    mines = _int(values, "mines", "Mines")
    if mask.count(1) != mines:
        raise ReplayError(f"the board holds {mask.count(1)} mines; the header says Mines: {mines}")
    if mines > rows * cols - 1:
        raise ReplayError(f"a {rows}x{cols} board with {mines} mines has no safe cell to play")
    start = Board(rows, cols, mines, bytes(rows * cols), Minefield(rows, cols, mask))
    stated = values.get("bbbv", values.get("raw_3bv", ""))
    if stated.isdigit() and int(stated) != bbbv(start):
        raise ReplayError(f"the header says BBBV: {stated}, but the board's 3BV is {bbbv(start)}")
    return start


def _check_opened(start: Board, match: re.Match[str], n: int) -> None:
    """A board event 'Cell opened (...) C R' states a cell's number (or a mine): it must fit the mines."""
    number, col, row = match.group(1), int(match.group(2)) - 1, int(match.group(3)) - 1
    if not (0 <= row < start.rows and 0 <= col < start.cols):
        raise ReplayError(
            f"line {n}: a cell opened at column {col + 1}, row {row + 1} is off the "
            f"{start.cols}x{start.rows} board (Width x Height)"
        )
    i = row * start.cols + col
    if number is None and not start.mask[i]:
        raise ReplayError(
            f"line {n}: the cell at column {col + 1}, row {row + 1} is said to be a mine; "
            "the board has none there"
        )
    if number is not None and (start.mask[i] or int(number) != start.counts[i]):
        truth = "a mine" if start.mask[i] else f"a {start.counts[i]}"
        raise ReplayError(
            f"line {n}: the cell at column {col + 1}, row {row + 1} is said to show {number}; "
            f"the board's mines make it {truth}"
        )


def _mouse_events(lines: list[str], first: int, start: Board) -> list[MouseEvent]:
    """The mouse events of the lines from ``first`` on, the board events among them checked."""
    events: list[MouseEvent] = []
    for n, raw in enumerate(lines[first:], start=first + 1):
        line = raw.strip()
        if not line or line.lower() == "events:":
            continue
        if line[0].isdigit() or line[0] == "-":
            event = _EVENT.match(line)
            if event is None:
                raise ReplayError(f"line {n}: an event is 'TIME ACTION COLUMN ROW', not {line[:40]!r}")
            time, action, col, row = event.groups()
            if action in _IGNORED:
                continue
            if action not in MOUSE_ACTIONS or col is None or row is None:
                raise ReplayError(f"line {n}: unknown event {line[:40]!r}")
            seconds = float(time)
            if not math.isfinite(seconds):
                raise ReplayError(f"line {n}: the time {time[:20]!r} is not a number of seconds")
            events.append(MouseEvent(seconds, action, int(row) - 1, int(col) - 1, f"line {n}"))
            continue
        opened = _OPENED.match(line)
        if opened:
            _check_opened(start, opened, n)
    return events


def read_rawvf(text: str) -> Replay:
    """The :class:`~.replay.Replay` of a RAWVF text (see the module); a :class:`~.replay.ReplayError`
    names the line that does not parse or does not fit the board."""
    if not isinstance(text, str):
        raise TypeError(f"read_rawvf(text): text must be a str, not {type(text).__name__}")
    if len(text) > MAX_RAWVF:
        raise ReplayError(f"a RAWVF replay is at most {MAX_RAWVF:,} characters; this one has {len(text):,}")
    lines = text.splitlines()
    values, at = _header(lines)
    if values.get("level", "").lower() == "marathon":
        raise ReplayError("a marathon RAWVF (several games in one) is not one game: it is not read")
    start = _start(lines, values, at)
    events = _mouse_events(lines, at + 1 + start.rows, start)
    duration = _duration(values.get("time", ""))
    if "time" not in values and all(e.time == 0 for e in events):
        events = [replace(e, time=None) for e in events]  # a game written without times
    return replay_from_mouse(
        start,
        events,
        marks=values.get("marks", "").lower() == "on",
        player=values.get("player", ""),
        program=values.get("program", ""),
        duration=duration,
    )


def _duration(text: str) -> float | None:
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None
