"""The rules of Minesweeper as pure functions from a board to a new board.

Nothing here mutates its input: every function returns a fresh
:class:`~ipyminesweeper.engine.board.Board`, made with :meth:`Board.changed` from the cells a move
changed (checked in proportion to them). Randomness comes only from an explicit seed, through the
placement registered for the board's first-click policy.
"""

from __future__ import annotations

from typing import TypedDict

from .board import Board
from .cells import COVERED, FLAGGED, REVEALED
from .errors import game_over, quote
from .geometry import Position, check_position, neighbour_indices, spread_position_error
from .minefield import (
    Minefield,
    PendingMines,
    new_seed,
    pad,
    unpad,
)
from .placement import placement_for
from .spec import DEFAULT_DENSITY, GameSpec
from .view import View

__all__ = [
    "DEFAULT_DENSITY",
    "BoardOptions",
    "GameSpec",
    "chord",
    "idle_move",
    "new_board",
    "open_cells",
    "place_mines",
    "reveal",
    "toggle_flag",
]


class BoardOptions(TypedDict, total=False):
    """The keywords that describe a new board, besides its level: what :func:`new_board`,
    ``Minesweeper(...)`` and ``Minesweeper.new_game(...)`` all take, with :func:`new_board`'s meanings."""

    rows: int | None
    cols: int | None
    mines: int | None
    size: int | None
    density: float | None
    seed: int | None
    first_click: str | None


def new_board(
    rows: int | str | GameSpec | None = None,
    cols: int | None = None,
    mines: int | None = None,
    *,
    level: str | None = None,
    size: int | None = None,
    density: float | None = None,
    seed: int | None = None,
    first_click: str | None = None,
) -> Board:
    """A new game, status ``"ready"``; it takes what :class:`~ipyminesweeper.Minesweeper` takes.

    ``new_board("expert")`` or ``new_board(level="expert")`` (a level of ``LEVELS``),
    ``new_board(16, 16, 40)`` or ``new_board(rows=16, cols=30, mines=99)``,
    ``new_board(size=16, mines=40)`` (a square board), and ``density=0.15`` instead of a mine count.
    With a size but neither ``mines`` nor ``density``, the density is intermediate's
    (:data:`DEFAULT_DENSITY`); with nothing at all, an intermediate game.

    ``first_click`` says what the first reveal may hit:
    ``"opening"`` (default) the first cell and its neighbours are mine-free; ``"safe"`` only the first
    cell is; ``"any"`` the mines are placed now and the first click may lose; ``"no-guess"`` the board
    can be solved from the first click by deduction alone.

    Mines are drawn from ``seed`` on the first reveal, so the same seed and first click give the same
    board. Without a seed a fresh 128-bit one is drawn and kept in ``board.seed``, so the game can be
    replayed but not guessed. Every argument is checked before anything is allocated.
    """
    if isinstance(rows, GameSpec):  # new_board(spec)
        given = (cols, mines, level, size, density, seed, first_click)
        if any(v is not None for v in given):
            raise TypeError("a GameSpec already says everything: new_board(spec) takes nothing else")
        spec = rows
    else:
        spec = GameSpec.parse(
            rows, cols, mines, level=level, size=size, density=density, seed=seed, first_click=first_click
        )
    rows, cols, mines, first_click = spec.rows, spec.cols, spec.mines, spec.first_click
    seed = new_seed() if spec.seed is None else spec.seed
    place = placement_for(first_click)  # a missing placement fails here, before the game starts
    states = bytes(rows * cols)
    if first_click == "any":
        return Board(rows, cols, mines, states, place(rows, cols, mines, seed, None))
    return Board(rows, cols, mines, states, PendingMines(seed, first_click))


def place_mines(board: Board, first: int) -> Board:
    """``board`` with its pending mines placed for a first reveal at flat index ``first``."""
    pending = board.minefield
    if not isinstance(pending, PendingMines):
        return board
    place = placement_for(pending.first_click)
    field = place(board.rows, board.cols, board.mines, pending.seed, first)
    return Board(board.rows, board.cols, board.mines, board.states, field)


def _playable_index(move: str, board: Board, pos: Position, more: tuple[object, ...]) -> int:
    if not isinstance(board, Board):
        hint = " (a strategy sees board.view; moves take the board)" if isinstance(board, View) else ""
        raise TypeError(f"{move}(board, pos): board must be a Board, not {type(board).__name__}{hint}")
    if more:
        raise spread_position_error(move, pos, more)
    index = check_position(board.rows, board.cols, pos)
    if board.status in ("won", "lost"):
        raise game_over(board.status, "; start a new game (new_board) or undo")
    return index


def idle_move(board: Board, action: str, pos: Position) -> str | None:
    """Why ``action`` (``"reveal"``, ``"flag"`` or ``"chord"``) at ``pos`` would change nothing on
    ``board``, in words (``"it is already revealed"``); None when it is a move that changes the board.

    The one statement of which moves do something: :func:`reveal`, :func:`toggle_flag` and :func:`chord`
    leave the board as it is exactly when this says why, and a strategy's move is checked with it.
    A position off the board or a finished game raise, as the moves do.
    """
    return _idle(board, action, _playable_index("idle_move", board, pos, ()))


def _idle(board: Board, action: str, index: int) -> str | None:
    state = board.states[index]
    if action == "reveal":
        if state == FLAGGED:
            return "it is flagged (unflag it first)"
        return "it is already revealed" if state == REVEALED else None
    if action == "flag":
        return "it is revealed" if state == REVEALED else None
    if action != "chord":
        raise ValueError(f"unknown action {quote(action)}: use reveal, flag or chord")
    number = board.counts[index] if state == REVEALED else 0
    if not number:
        return "it is not a revealed number"
    around = neighbour_indices(board.rows, board.cols, index)
    flags = sum(1 for j in around if board.states[j] == FLAGGED)
    covered = sum(1 for j in around if board.states[j] == COVERED)
    if flags != number or not covered:
        return (
            f"the {number} has {flags} flag(s) and {covered} covered cell(s) around it; a chord needs"
            " exactly as many flags as the number and a covered cell"
        )
    return None


def reveal(board: Board, pos: Position, *more: object) -> Board:
    """Reveal the cell at ``pos``; a zero opens its whole region (the cascade).

    Revealing a mine loses. Revealing the last safe cell wins, and the remaining mines become flagged.
    Revealing a flagged or already revealed cell changes nothing (:func:`idle_move` says why).
    """
    index = _playable_index("reveal", board, pos, more)
    if _idle(board, "reveal", index):
        return board
    return open_cells(place_mines(board, index), (index,))


def toggle_flag(board: Board, pos: Position, *more: object) -> Board:
    """Flag a covered cell, or unflag a flagged one. A revealed cell is left alone."""
    index = _playable_index("toggle_flag", board, pos, more)
    state = board.states[index]
    if state == REVEALED:  # idle (see idle_move)
        return board
    return board.changed([(index, FLAGGED if state == COVERED else COVERED)])


def chord(board: Board, pos: Position, *more: object) -> Board:
    """On a revealed number whose flagged neighbours equal it, reveal its other covered neighbours.

    A wrong flag means a mine is among them, so the chord loses at the first mine in reading order, as in
    the real game. Anywhere else (a covered cell, a zero, a number with too few or too many flags, or no
    covered cell left around it) nothing changes.
    """
    index = _playable_index("chord", board, pos, more)
    if _idle(board, "chord", index):
        return board
    around = neighbour_indices(board.rows, board.cols, index)
    return open_cells(board, tuple(j for j in around if board.states[j] == COVERED))


def open_cells(board: Board, targets: tuple[int, ...]) -> Board:
    """Reveal the covered cells ``targets`` (flat indices) in order, cascading through zeros.

    The board's mines must be placed. Opening stops at the first mine, which loses; opening the last
    safe cell wins and flags every mine. This is the one place where cells are revealed: :func:`reveal`
    and :func:`chord` call it, and so may a solver that opens many proven-safe cells at once.
    """
    field = board.minefield
    if not isinstance(field, Minefield):
        raise ValueError("open_cells needs a board whose mines are placed (reveal places them)")
    mask, states = field.mask, board.states
    for k, index in enumerate(targets):
        if mask[index] and states[index] == COVERED:
            return _opened(board, targets[:k], index)  # the earlier targets were safe
    return _opened(board, targets, None)


BULK = 32
"""A move that reveals more than one cell in ``BULK`` of the board makes the next board whole, checked at C
speed (``Board(...)``), rather than cell by cell (``Board.changed``): the same checks, at a lower cost."""


def _opened(board: Board, starts: tuple[int, ...], exploded: int | None) -> Board:
    """``board`` with the safe cells ``starts`` revealed and the flood through zeros, then the mine
    ``exploded`` (if any) revealed: that game is lost."""
    rows, cols, states = board.rows, board.cols, board.states
    counts = board.counts
    if len(starts) == 1 and counts[starts[0]]:  # one number (the usual reveal): nothing floods
        opened = [starts[0]] if states[starts[0]] == COVERED else []
    elif all(counts[i] for i in starts):  # only numbers: nothing floods
        opened = list(dict.fromkeys(i for i in starts if states[i] == COVERED))
    else:
        padded, flooded = _flood(board, starts)
        if len(flooded) * BULK > rows * cols:
            whole = bytearray(unpad(padded, rows, cols))
            if exploded is not None:
                whole[exploded] = REVEALED
            return _made_whole(board, whole, exploded)
        width = cols + 2
        opened = [(p // width - 1) * cols + p % width - 1 for p in flooded]
    if exploded is not None:
        return board.changed([(i, REVEALED) for i in [*opened, exploded]], exploded_index=exploded)
    if board.cell_counts.revealed + len(opened) == rows * cols - board.mines:  # won
        whole = bytearray(states)
        for i in opened:
            whole[i] = REVEALED
        return _made_whole(board, whole, None)
    return board.changed([(i, REVEALED) for i in opened])


def _made_whole(board: Board, states: bytearray, exploded: int | None) -> Board:
    """The next board of ``board`` with every cell's state given, checked whole by the constructor; on a
    won game (every safe cell revealed, nothing exploded) every mine is flagged."""
    mask = board.mask
    if exploded is None and states.count(REVEALED) == board.rows * board.cols - board.mines:
        return Board(
            board.rows, board.cols, board.mines, _flag_every_mine(bytes(states), mask), board.minefield
        )
    return Board(board.rows, board.cols, board.mines, bytes(states), board.minefield, exploded)


def _flood(board: Board, starts: tuple[int, ...]) -> tuple[bytearray, list[int]]:
    """Reveal the safe cells ``starts`` and flood through zeros, on the board's cell states framed by a
    border of revealed cells (so the flood needs no bounds checks): the framed states after, and the
    framed indices of the cells revealed, in the order they open. Flagged cells stop the flood (a flag
    protects its cell)."""
    assert isinstance(board.minefield, Minefield)
    rows, cols = board.rows, board.cols
    width = cols + 2
    states = bytearray(pad(board.states, rows, cols, REVEALED))
    padded_counts = board.minefield.padded_counts
    offsets = (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1)
    opened: list[int] = []
    record = opened.append
    stack: list[int] = []
    push = stack.append
    pop = stack.pop
    for index in starts:
        p = (index // cols + 1) * width + index % cols + 1
        if states[p] == COVERED:
            states[p] = REVEALED
            record(p)
            if padded_counts[p] == 0:
                push(p)
    while stack:
        p = pop()
        for offset in offsets:
            q = p + offset
            if states[q] == COVERED:
                states[q] = REVEALED
                record(q)
                if padded_counts[q] == 0:
                    push(q)
    return states, opened


def _flag_every_mine(states: bytes, mask: bytes) -> bytes:
    """``states`` with every mine flagged (used when the game is won)."""
    key = int.from_bytes(states, "big") | int.from_bytes(mask, "big")  # COVERED(0) | 1 == FLAGGED
    return key.to_bytes(len(states), "big")
