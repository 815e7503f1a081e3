"""Notebook 02's metric: write 3BV, the fewest left clicks that clear a board, as a flood fill and a count.

``check_bbbv(fn)`` compares ``fn(board)`` with :func:`~ipyminesweeper.engine.metrics.bbbv` on mine
layouts from 1x1 to 6x6, the smallest first: boards without a zero, boards whose numbers all touch an
opening, and boards with both openings and numbers apart from them. The counterexample shows the layout
and the clicks 3BV counts, one letter per click.
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from string import ascii_lowercase

from ..engine import Board
from ..engine.metrics import bbbv, bbbv_clicks
from .draws import Source
from .foreign import type_name
from .limits import call
from .needs import recorded
from .report import Check, Counterexample, Panel, note_panel
from .search import SEED, Verdict, function_name, require_function, run_check

__all__ = ["BBBV", "check_bbbv", "clicks_panel", "draw_mines", "layout_panel"]

BBBV = (
    "no zero: one click per safe cell",
    "one click per opening, however big, and its border comes with it",
    "a number on no opening's border is one more click",
)
"""The properties of ``check_bbbv``, one per kind of layout: no opening; openings whose borders hold
every number; openings and numbers apart from them."""


@recorded
def check_bbbv(fn: Callable[[Board], int], tries: int = 300, *, seed: int = SEED) -> Check:
    """Compare ``fn(board)`` with the engine's 3BV on small mine layouts, the smallest first."""
    require_function(fn, "check_bbbv", "(board) -> int")
    name = function_name(fn)

    def judge(board: Board) -> Verdict:
        expected = bbbv(board)
        clicks = bbbv_clicks(board)
        kind = _kind(board, clicks)
        labels = (BBBV[kind].partition(":")[0],)
        got = call(fn, board)
        text = f"{name}(board)"
        panels = (layout_panel(board), clicks_panel(board, clicks, expected))
        if got.raised:
            summary = f"it {got.failure}"
            found = Counterexample(
                text,
                summary,
                (*panels, note_panel("yours", summary)),
                (board,),
                got.error,
                expected,
                got.trace,
            )
            return Verdict(found, labels, (BBBV[kind],))
        value = got.value
        if isinstance(value, bool) or not isinstance(value, Integral):
            summary = f"it returned {type_name(value)}, not a whole number"
            found = Counterexample(
                text, summary, (*panels, note_panel("yours", f"{value!r:.200}")), (board,), value, expected
            )
            return Verdict(found, labels, (BBBV[kind],))
        if int(value) == expected:
            return Verdict(None, labels, (BBBV[kind],))
        summary = f"it returned {int(value)}; the board's 3BV is {expected}"
        found = Counterexample(text, summary, panels, (board,), int(value), expected, marks="the clicks")
        return Verdict(found, labels, (BBBV[kind],))

    return run_check("bbbv", fn, draw_mines, judge, tries, properties=BBBV, seed=seed)


SIDES = (1, 2, 3, 4, 5, 6)
"""The rows and the columns of the layouts tried."""


def draw_mines(source: Source) -> Board:
    """A mine layout from 1x1 to 6x6, with no mine up to about one cell in three: sparse ones have
    openings, dense ones numbers apart from them. Every layout keeps a safe cell."""
    rows, cols = source.choice(SIDES), source.choice(SIDES)  # every size from the start: few are small
    mines = source.cells(rows, cols, rows * cols // 3)
    if len(mines) == rows * cols:
        mines -= {(0, 0)}
    return Board.from_text(
        "\n".join("".join("*" if (r, c) in mines else "." for c in range(cols)) for r in range(rows))
    )


def _kind(board: Board, clicks: tuple[frozenset[tuple[int, int]], ...]) -> int:
    """The index in :data:`BBBV` of the property a layout with these clicks puts to the test."""
    openings = [cells for cells in clicks if board.count(next(iter(cells))) == 0]
    if not openings:
        return 0
    return 2 if len(openings) < len(clicks) else 1


def layout_panel(board: Board) -> Panel:
    """The layout with every cell shown: ``*`` a mine, ``0``-``8`` a safe cell's number."""
    grid = tuple(
        tuple("*" if board.is_mine((r, c)) else str(board.count((r, c))) for c in range(board.cols))
        for r in range(board.rows)
    )
    return Panel("board", grid, note=f"{board.rows}x{board.cols}, {board.mines} mines")


def clicks_panel(board: Board, clicks: tuple[frozenset[tuple[int, int]], ...], expected: int) -> Panel:
    """The clicks 3BV counts: the cells of one click share a letter (an opening's zeros, or a number on
    no opening's border); ``*`` a mine, ``-`` a cell some opening's click reveals."""
    letter = {pos: ascii_lowercase[i % 26] for i, cells in enumerate(clicks) for pos in cells}
    grid = tuple(
        tuple(letter.get((r, c), "*" if board.is_mine((r, c)) else "-") for c in range(board.cols))
        for r in range(board.rows)
    )
    return Panel("3BV's clicks", grid, note=f"3BV = {expected}")
