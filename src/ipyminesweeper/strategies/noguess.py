"""No-guess boards: mine layouts that deduction alone solves from the first click.

:func:`no_guess_placement` is the placement of ``first_click="no-guess"``: the engine cannot make these
boards itself (it knows no solver), so the package root registers it with
:func:`~ipyminesweeper.engine.register_placement`. In the spirit of Simon Tatham's Mines: draw a layout
with the first click's 3x3 block free, play it with certain moves only (the exact solver's safe cells,
never a guess) and, where that gets stuck, move a mine from the edge of the known region to somewhere
unseen (or the reverse) and carry on. When a layout is solved to the end it is checked once more from a
fresh start. Everything is drawn from a ``random.Random`` seeded by the board's seed, so the same seed
and first click give the same board.

The search has a work budget, counted in cells examined (a board's cells, once per solving pass), so it
ends the same way on every machine: past :data:`WORK_BUDGET` it stops with a :class:`NoGuessError` that
says so and offers the "safe" first click instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from ..engine import Board, Minefield, open_cells
from ..engine.cells import COVERED, REVEALED
from ..engine.geometry import block, neighbour_table
from ..engine.minefield import mine_count_error
from ..engine.placement import seeded_random
from ..solver import analyse, local_rules

__all__ = ["WORK_BUDGET", "NoGuessError", "is_no_guess", "no_guess_minefield", "no_guess_placement"]

ATTEMPTS = 40  # fresh layouts tried before giving up
WORK_BUDGET = 600_000
"""The most cells a no-guess search examines (a board's cells, once per solving pass): about 25 s on a
2-core laptop. A 100 x 100 board with 2,000 mines needs 60,000 to 770,000; 16 x 30 with 99 mines, 13,000."""


class NoGuessError(ValueError):
    """No no-guess layout was found (the board is too dense for deduction alone)."""


def _solve(board: Board) -> Board:
    """Reveal certain-safe cells until none is left (no guesses). The board's mines are placed."""
    table = neighbour_table(board.rows, board.cols)
    cols = board.cols
    mines: set[int] = set()
    cells = board.view.cells
    dirty = {i for i, ch in enumerate(cells) if "1" <= ch <= "8"}
    while not board.over:
        safe, found = local_rules(cells, board.rows, cols, dirty, mines)
        mines |= found
        if not safe:
            a = analyse(board.view, explain=False)
            mines.update(r * cols + c for r, c in a.mines)
            safe = frozenset(r * cols + c for r, c in a.safe if cells[r * cols + c] == ".")
            if not safe:
                return board
        board = open_cells(board, tuple(sorted(safe)))
        old, cells = cells, board.view.cells
        dirty = _changed_numbers(old, cells, table)
    return board


def _changed_numbers(old: str, new: str, table: Sequence[tuple[int, ...]]) -> set[int]:
    """Numbers to re-examine: newly revealed cells and the revealed numbers around them."""
    out: set[int] = set()
    step = 32
    for lo in range(0, len(new), step):
        if old[lo : lo + step] == new[lo : lo + step]:
            continue  # compared at C speed: most of the grid has not changed
        for i in range(lo, min(lo + step, len(new))):
            if old[i] != new[i]:
                out.add(i)
                out.update(table[i])
    return out


def _start(rows: int, cols: int, mines: int, mask: bytearray, first: int, seed: int) -> Board:
    field = Minefield(rows, cols, bytes(mask), seed, "no-guess")
    board = Board(rows, cols, mines, bytes(rows * cols), field)
    return open_cells(board, (first,))


def is_no_guess(field: Minefield, first: int) -> bool:
    """Whether certain moves alone win the game on ``field`` from a first click at flat ``first``."""
    mines = field.mask.count(1)
    board = Board(field.rows, field.cols, mines, bytes(field.rows * field.cols), field)
    if field.mask[first]:
        return False
    return _solve(open_cells(board, (first,))).status == "won"


def no_guess_minefield(
    rows: int, cols: int, mines: int, seed: int, first: int, *, budget: int | None = None
) -> Minefield:
    """A ``rows x cols`` layout of ``mines`` mines, none in the 3x3 block around flat index ``first``,
    that certain moves solve from a first click at ``first``. Reproducible from ``seed``.

    Raises :class:`NoGuessError` if none is found (on very dense boards), or none within ``budget``
    cells examined (default :data:`WORK_BUDGET`).
    """
    budget = WORK_BUDGET if budget is None else budget
    error = mine_count_error(rows, cols, mines, "no-guess")
    if error:
        raise error
    n = rows * cols
    spent = 0

    def solve(board: Board) -> Board:
        nonlocal spent
        spent += n
        if spent > budget:
            raise NoGuessError(
                f"no layout of {mines} mines on {rows}x{cols} that deduction alone solves from "
                f"{divmod(first, cols)} was found within the work budget ({budget:,} cells examined): "
                "play it with first_click='safe' (the first click is still safe), or with fewer mines"
            )
        return _solve(board)

    table = neighbour_table(rows, cols)
    free = set(block(rows, cols, first))
    candidates = [i for i in range(n) if i not in free]
    rng = seeded_random("no-guess", seed, f"{rows}x{cols}", mines, first)
    for _ in range(ATTEMPTS):
        mask = bytearray(n)
        for i in rng.sample(candidates, mines):
            mask[i] = 1
        board = solve(_start(rows, cols, mines, mask, first, seed))
        for _ in range(4 * n):
            if board.status == "won":
                # the perturbations happened mid-solve: check from a fresh first click
                board = solve(_start(rows, cols, mines, mask, first, seed))
                if board.status == "won":
                    return Minefield(rows, cols, bytes(mask), seed, "no-guess")
            if not _move_a_mine(mask, board.states, table, free, rng):
                break  # nothing to move: try a fresh layout
            board = solve(_with_mines(board, mask, seed, table))
    raise NoGuessError(
        f"found no layout of {mines} mines on {rows}x{cols} that deduction alone solves from "
        f"{divmod(first, cols)}: use fewer mines or another first_click"
    )


def _move_a_mine(
    mask: bytearray, states: bytes, table: Sequence[tuple[int, ...]], free: set[int], rng: Random
) -> bool:
    """Move one mine of ``mask`` from the edge of the known region (a covered cell next to a revealed
    one) to a hidden safe cell, or else from a hidden cell to a safe one on the edge; never into or out
    of ``free``. False when there is neither move to make."""
    n = len(states)
    seen = [False] * n  # next to a revealed cell
    for i in range(n):
        if states[i] == REVEALED:
            for j in table[i]:
                seen[j] = True
    edge = [i for i in range(n) if states[i] != REVEALED and seen[i] and i not in free]
    hidden = [i for i in range(n) if states[i] != REVEALED and not seen[i] and i not in free]
    edge_mines = [i for i in edge if mask[i]]
    hidden_safe = [i for i in hidden if not mask[i]]
    if edge_mines and hidden_safe:  # move a mine off the edge of the known region
        src, dst = rng.choice(edge_mines), rng.choice(hidden_safe)
    else:
        hidden_mines = [i for i in hidden if mask[i]]
        edge_safe = [i for i in edge if not mask[i]]
        if not (hidden_mines and edge_safe):
            return False
        src, dst = rng.choice(hidden_mines), rng.choice(edge_safe)
    mask[src], mask[dst] = 0, 1
    return True


def _with_mines(board: Board, mask: bytearray, seed: int, table: Sequence[tuple[int, ...]]) -> Board:
    """``board``'s cells over the mines of ``mask``: the revealed zeros that now have covered
    neighbours are opened, as a cascade would have."""
    rows, cols, states = board.rows, board.cols, board.states
    field = Minefield(rows, cols, bytes(mask), seed, "no-guess")
    board = Board(rows, cols, board.mines, states, field)
    zeros = tuple(
        i
        for i in range(rows * cols)
        if states[i] == REVEALED and field.counts[i] == 0 and any(states[j] == COVERED for j in table[i])
    )
    return open_cells(board, zeros) if zeros else board


def no_guess_placement(rows: int, cols: int, mines: int, seed: int, first: int | None) -> Minefield:
    """The "no-guess" placement: it needs the first click."""
    if first is None:
        raise ValueError('first_click="no-guess" places the mines on the first reveal, which it needs')
    return no_guess_minefield(rows, cols, mines, seed, first)
