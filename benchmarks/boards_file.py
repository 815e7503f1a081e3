"""Hidden boards in a JSON-lines file, the format every solver of ``benchmarks versus`` reads.

One board a line: ``{"seed": 100000, "rows": 16, "cols": 30, "first": [0, 0], "mines": [[0, 2], ...]}``.
Positions are ``[row, col]``, 0-based; ``first`` is the first click, never a mine. The seed only names
the board (pairing goes by it). :func:`generate` draws boards exactly as the JavaScript harness of
Hill's solver does (mulberry32 of the seed, a partial Fisher-Yates shuffle of the allowed cells), so a
seed gives the same board in both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ipyminesweeper import Board, reveal

__all__ = [
    "BoardSpec",
    "BoardsFileError",
    "generate",
    "mulberry32",
    "read_boards",
    "to_board",
    "write_boards",
]

STARTS = ("safe", "opening")
MASK32 = 0xFFFFFFFF


class BoardsFileError(ValueError):
    """A boards file line that is not a valid board; the message names the line."""


@dataclass(frozen=True)
class BoardSpec:
    """One hidden board: its seed (its name), size, first click and mines, all as ``(row, col)``."""

    seed: int
    rows: int
    cols: int
    first: tuple[int, int]
    mines: tuple[tuple[int, int], ...]

    def to_json(self) -> str:
        """The board as one line of the boards file."""
        return json.dumps(
            {
                "seed": self.seed,
                "rows": self.rows,
                "cols": self.cols,
                "first": list(self.first),
                "mines": [list(m) for m in self.mines],
            },
            separators=(", ", ": "),
        )

    def opening(self) -> bool:
        """Whether the first click and all its neighbours are free of mines (an "opening" board)."""
        r0, c0 = self.first
        return not any(abs(r - r0) <= 1 and abs(c - c0) <= 1 for r, c in self.mines)


def _position(value: object, rows: int, cols: int, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int for v in value)
        or not (0 <= value[0] < rows and 0 <= value[1] < cols)
    ):
        raise ValueError(f"{what} must be [row, col] inside the {rows}x{cols} board, not {value!r}")
    return (value[0], value[1])


def parse_board(line: str) -> BoardSpec:
    """One boards-file line as a :class:`BoardSpec`; ``ValueError`` naming what is wrong."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("a board is a JSON object")
    missing = {"seed", "rows", "cols", "first", "mines"} - data.keys()
    if missing:
        raise ValueError(f"missing {', '.join(sorted(missing))}")
    seed, rows, cols = data["seed"], data["rows"], data["cols"]
    if not all(type(v) is int for v in (seed, rows, cols)) or rows < 1 or cols < 1:
        raise ValueError("seed, rows and cols must be ints (rows and cols at least 1)")
    first = _position(data["first"], rows, cols, "first")
    if not isinstance(data["mines"], list):
        raise ValueError("mines must be a list of [row, col]")
    mines = tuple(sorted(_position(m, rows, cols, "a mine") for m in data["mines"]))
    if len(set(mines)) != len(mines):
        raise ValueError("a mine is listed twice")
    if first in mines:
        raise ValueError(f"the first click {list(first)} is a mine")
    return BoardSpec(seed, rows, cols, first, mines)


def read_boards(path: str | Path) -> list[BoardSpec]:
    """Every board of a JSON-lines file, in file order; seeds must be unique.

    Raises :class:`BoardsFileError` naming the line of the first malformed board.
    """
    boards: list[BoardSpec] = []
    seen: dict[int, int] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                board = parse_board(line)
            except ValueError as error:  # json.JSONDecodeError is a ValueError too
                raise BoardsFileError(f"{path}, line {number}: {error}") from None
            if board.seed in seen:
                raise BoardsFileError(
                    f"{path}, line {number}: seed {board.seed} again (first on line {seen[board.seed]})"
                )
            seen[board.seed] = number
            boards.append(board)
    return boards


def write_boards(path: str | Path, boards: Iterable[BoardSpec]) -> int:
    """Write boards as JSON lines; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8") as f:
        for board in boards:
            f.write(board.to_json() + "\n")
            count += 1
    return count


def to_board(spec: BoardSpec) -> Board:
    """The board with its first click revealed: what a strategy is handed (``play(to_board(s), exact)``)."""
    mined = set(spec.mines)
    text = "\n".join(
        "".join("*" if (r, c) in mined else "." for c in range(spec.cols)) for r in range(spec.rows)
    )
    return reveal(Board.from_text(text), spec.first)


def mulberry32(seed: int) -> Iterator[float]:
    """Tommy Ettinger's mulberry32 generator: floats in [0, 1), as ``mulberry32`` in JavaScript."""
    a = seed & MASK32
    while True:
        a = (a + 0x6D2B79F5) & MASK32
        t = a
        t = ((t ^ (t >> 15)) * (t | 1)) & MASK32
        t ^= (t + ((t ^ (t >> 7)) * (t | 61))) & MASK32
        yield ((t ^ (t >> 14)) & MASK32) / 4294967296


def generate(seed: int, rows: int, cols: int, mines: int, first: tuple[int, int], start: str) -> BoardSpec:
    """Board ``seed``: ``mines`` mines uniform over the cells ``start`` allows.

    ``"safe"`` keeps the first click free, ``"opening"`` the first click and its neighbours. The same
    draw as the JavaScript harness of Hill's solver: the allowed cells in reading order, a partial
    Fisher-Yates shuffle driven by :func:`mulberry32` of the seed (as an unsigned 32-bit int).
    """
    if start not in STARTS:
        raise ValueError(f"start is one of {STARTS}, not {start!r}")
    if not 0 <= seed <= MASK32:
        raise ValueError(f"a board seed is an unsigned 32-bit int, not {seed}")
    r0, c0 = first
    if not (0 <= r0 < rows and 0 <= c0 < cols):
        raise ValueError(f"the first click {first} is off the {rows}x{cols} board")
    reach = 1 if start == "opening" else 0
    cells = [
        r * cols + c
        for r in range(rows)
        for c in range(cols)
        if not (abs(r - r0) <= reach and abs(c - c0) <= reach)
    ]
    if not 0 <= mines <= len(cells):
        raise ValueError(f"{mines} mines do not fit in the {len(cells)} cells a {start} start allows")
    draw = mulberry32(seed)
    n = len(cells)
    for k in range(mines):
        j = k + int(next(draw) * (n - k))
        cells[k], cells[j] = cells[j], cells[k]
    chosen = sorted(cells[:mines])
    return BoardSpec(seed, rows, cols, (r0, c0), tuple(divmod(i, cols) for i in chosen))
