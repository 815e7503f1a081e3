"""The rules of Minesweeper as pure functions from a board to a new board.

Nothing here mutates its input: every function builds its answer in a local buffer and returns a fresh
:class:`~ipyminesweeper.board.Board`. Randomness comes only from an explicit seed.
"""

from __future__ import annotations

import random
from typing import overload

from .board import COVERED, FLAGGED, REVEALED, Board, GameOverError
from .geometry import Position, block, neighbour_indices
from .minefield import FIRST_CLICK_POLICIES, Minefield, PendingMines, pad, unpad

LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
"""The classic presets: name -> (rows, cols, mines)."""

FirstClick = str


def max_mines(rows: int, cols: int, first_click: FirstClick) -> int:
    """The most mines a ``rows x cols`` board can hold so that any first click obeys the policy."""
    n = rows * cols
    if first_click in ("opening", "no-guess"):
        return n - min(rows, 3) * min(cols, 3)
    return n - 1  # "safe" and "any": at least one safe cell, or there is no game to win


def check_mine_count(rows: int, cols: int, mines: int, first_click: FirstClick) -> None:
    """Raise ValueError unless ``mines`` fits a ``rows x cols`` board under ``first_click``."""
    limit = max_mines(rows, cols, first_click)
    if not 0 <= mines <= limit:
        raise ValueError(
            f"{mines} mines cannot fit a {rows}x{cols} board with first_click={first_click!r}: "
            f"use 0 to {limit} mines, or a bigger board"
        )


def _check_size(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


@overload
def new_board(
    rows: str,
    cols: None = None,
    mines: None = None,
    *,
    density: None = None,
    seed: int | None = None,
    first_click: FirstClick = "opening",
) -> Board: ...
@overload
def new_board(
    rows: int,
    cols: int | None = None,
    mines: int | None = None,
    *,
    density: float | None = None,
    seed: int | None = None,
    first_click: FirstClick = "opening",
) -> Board: ...
def new_board(
    rows: int | str,
    cols: int | None = None,
    mines: int | None = None,
    *,
    density: float | None = None,
    seed: int | None = None,
    first_click: FirstClick = "opening",
) -> Board:
    """A new game, status ``"ready"``.

    ``new_board(16, 16, 40)``, ``new_board("expert")`` (presets: ``LEVELS``) or
    ``new_board(20, 20, density=0.15)``. ``cols`` defaults to ``rows`` (a square board).

    ``first_click`` says what the first reveal may hit:
    ``"opening"`` (default) the first cell and its neighbours are mine-free; ``"safe"`` only the first
    cell is; ``"any"`` the mines are placed now and the first click may lose; ``"no-guess"`` the board
    can be solved from the first click by deduction alone.

    Mines are drawn from ``seed`` on the first reveal, so the same seed and first click give the same
    board. Without a seed one is drawn at random and kept in ``board.seed`` so the game can be replayed.
    """
    if isinstance(rows, str):
        if rows not in LEVELS:
            raise ValueError(f"unknown level {rows!r}: use one of {', '.join(LEVELS)}")
        if cols is not None or mines is not None or density is not None:
            raise TypeError(f"the {rows!r} preset sets the size and mines; pass no cols/mines/density")
        rows, cols, mines = LEVELS[rows]
    rows = _check_size("rows", rows)
    cols = rows if cols is None else _check_size("cols", cols)
    if first_click not in FIRST_CLICK_POLICIES:
        raise ValueError(
            f"unknown first_click {first_click!r}: use one of {', '.join(FIRST_CLICK_POLICIES)}"
        )
    if (mines is None) == (density is None):
        raise TypeError("give exactly one of mines= (a count) or density= (a ratio between 0 and 1)")
    if density is not None:
        if isinstance(density, bool) or not isinstance(density, (int, float)):
            raise TypeError(f"density must be a number between 0 and 1, not {density!r}")
        if not 0 <= density < 1:
            raise ValueError(f"density must be at least 0 and below 1, not {density}")
        mines = min(round(density * rows * cols), max_mines(rows, cols, first_click))
    assert mines is not None
    if isinstance(mines, bool) or not isinstance(mines, int):
        raise TypeError(f"mines must be an int, not {type(mines).__name__} {mines!r}")
    check_mine_count(rows, cols, mines, first_click)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, not {seed!r}")
    states = bytes(rows * cols)
    if first_click == "any":
        field = _draw_minefield(rows, cols, mines, seed, "any", excluded=())
        return Board(rows, cols, mines, states, field)
    return Board(rows, cols, mines, states, PendingMines(seed, first_click))


def _draw_minefield(
    rows: int, cols: int, mines: int, seed: int, first_click: str, excluded: tuple[int, ...]
) -> Minefield:
    """Mines drawn uniformly from the cells not in ``excluded``, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    skip = set(excluded)
    candidates = [i for i in range(rows * cols) if i not in skip] if skip else range(rows * cols)
    mask = bytearray(rows * cols)
    for i in rng.sample(candidates, mines):
        mask[i] = 1
    return Minefield(rows, cols, bytes(mask), seed, first_click)


def place_mines(board: Board, first: int) -> Board:
    """``board`` with its pending mines placed for a first reveal at flat index ``first``."""
    pending = board.minefield
    if not isinstance(pending, PendingMines):
        return board
    rows, cols = board.rows, board.cols
    if pending.first_click == "no-guess":
        from .noguess import no_guess_minefield

        field = no_guess_minefield(rows, cols, board.mines, pending.seed, first)
    else:
        excluded = block(rows, cols, first) if pending.first_click == "opening" else (first,)
        field = _draw_minefield(rows, cols, board.mines, pending.seed, pending.first_click, excluded)
    return Board(rows, cols, board.mines, board.states, field)


def _check_move(board: Board, pos: Position) -> int:
    if not isinstance(board, Board):
        raise TypeError(f"expected a Board, not {type(board).__name__}")
    index = board.index(pos)
    if board.over:
        raise GameOverError(
            f"the game is {board.status}: no more moves; start a new game (new_board) or undo"
        )
    return index


def reveal(board: Board, pos: Position) -> Board:
    """Reveal the cell at ``pos``; a zero opens its whole region (the cascade).

    Revealing a mine loses. Revealing the last safe cell wins, and the remaining mines become flagged.
    Revealing a flagged or already revealed cell changes nothing.
    """
    index = _check_move(board, pos)
    if board.states[index] != COVERED:
        return board
    board = place_mines(board, index)
    return _open(board, (index,))


def toggle_flag(board: Board, pos: Position) -> Board:
    """Flag a covered cell, or unflag a flagged one. A revealed cell is left alone."""
    index = _check_move(board, pos)
    state = board.states[index]
    if state == REVEALED:
        return board
    states = bytearray(board.states)
    states[index] = FLAGGED if state == COVERED else COVERED
    return Board(board.rows, board.cols, board.mines, bytes(states), board.minefield)


def chord(board: Board, pos: Position) -> Board:
    """On a revealed number whose flagged neighbours equal it, reveal its other covered neighbours.

    A wrong flag means a mine is among them, so the chord loses, as in the real game. Anywhere else
    (a covered cell, a zero, a number with too few or too many flags) nothing changes.
    """
    index = _check_move(board, pos)
    if board.states[index] != REVEALED:
        return board
    number = board.counts[index]
    around = neighbour_indices(board.rows, board.cols, index)
    flagged = sum(1 for j in around if board.states[j] == FLAGGED)
    targets = tuple(j for j in around if board.states[j] == COVERED)
    if number == 0 or flagged != number or not targets:
        return board
    return _open(board, targets)


def _open(board: Board, targets: tuple[int, ...]) -> Board:
    """Reveal ``targets`` in order (mines placed), cascading through zeros; stop at the first mine."""
    assert isinstance(board.minefield, Minefield)
    rows, cols = board.rows, board.cols
    mask = board.minefield.mask
    for k, index in enumerate(targets):
        if mask[index]:
            lost = bytearray(_cascade(board, targets[:k]))  # the earlier targets were safe
            lost[index] = REVEALED
            return Board(rows, cols, board.mines, bytes(lost), board.minefield, index)
    states = _cascade(board, targets)
    if states.count(REVEALED) == rows * cols - board.mines:
        states = _flag_all_mines(states, mask)
    return Board(rows, cols, board.mines, states, board.minefield)


def _cascade(board: Board, starts: tuple[int, ...]) -> bytes:
    """The cell states after revealing the safe cells ``starts`` and flooding through zeros.

    Works on a grid framed by a border of revealed cells, so the flood needs no bounds checks.
    Flagged cells stop the flood (a flag protects its cell).
    """
    assert isinstance(board.minefield, Minefield)
    rows, cols = board.rows, board.cols
    width = cols + 2
    states = bytearray(pad(board.states, rows, cols, REVEALED))
    counts = board.minefield.padded_counts
    offsets = (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1)
    stack: list[int] = []
    push = stack.append
    pop = stack.pop
    for index in starts:
        p = (index // cols + 1) * width + index % cols + 1
        if states[p] == COVERED:
            states[p] = REVEALED
            if counts[p] == 0:
                push(p)
    while stack:
        p = pop()
        for offset in offsets:
            q = p + offset
            if states[q] == COVERED:
                states[q] = REVEALED
                if counts[q] == 0:
                    push(q)
    return unpad(states, rows, cols)


def _flag_all_mines(states: bytes, mask: bytes) -> bytes:
    """``states`` with every mine flagged (used when the game is won)."""
    key = int.from_bytes(states, "big") | int.from_bytes(mask, "big")  # COVERED(0)|1 == FLAGGED
    return key.to_bytes(len(states), "big")
