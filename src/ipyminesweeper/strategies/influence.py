"""Long-term risk: how often a cell could end up in a 50/50 later, if it is not revealed now.

A covered cell that is revealed now can never be half of a 50/50 later; one left covered may. Two cells
side by side form a 50/50 when one holds a mine, the other does not, and every covered cell at their
two ends is a mine: no number can then tell them apart. Four cells in a 2x2 block do the same with
mines on one diagonal and every covered cell at the block's outer corners a mine. The count of
layouts in which such a pattern forms around a cell is its *50/50 influence*; David Hill's
JSMinesweeper weighs a guess's secondary safety by ``1 + 0.9 * influence / (layouts where the cell is
safe)`` (``LongTermRiskHelper.findTileInfluence`` and ``secondarySafetyAnalysis`` in
``solver_main.js``), so that among nearly equal guesses the one that also settles a likely 50/50 wins.

Which patterns count, as he counts them: the pairs the cell is in (to its left and right, above and
below), each counted with the first cell of the pair the mine, and the largest of the four 2x2 blocks
it is in; a pattern counts only when none of its outer cells is revealed, at most 3 of them are not
known mines, and there are mines enough for it. The total is at most the
layouts where the cell is a mine, and at most those where it is safe.
"""

from __future__ import annotations

from ..engine import Position
from ..solver import Analysis, ViewLike

__all__ = ["INFLUENCE_WEIGHT", "fifty_fifty_influence", "influence_factor"]

INFLUENCE_WEIGHT = 0.9  # score *= 1 + INFLUENCE_WEIGHT * influence / (layouts where the cell is safe)
PAIR_OUTSIDE = 3  # a pair counts when at most this many of its end cells are not known mines
BLOCK_OUTSIDE = 3  # a 2x2 block counts when at most this many of its corner cells are not known mines


class _Board:
    """The view's covered cells and known mines, read once per guess."""

    def __init__(self, view: ViewLike, a: Analysis) -> None:
        self.rows, self.cols, self.cells, self.a = view.rows, view.cols, view.cells, a
        self.mines_left = a.total_mines - len(a.mines)

    def on(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def covered(self, r: int, c: int) -> bool:
        return self.cells[r * self.cols + c] in ".f"

    def open_cell(self, r: int, c: int) -> bool:
        """Covered and not a known mine (it can still be either)."""
        return self.on(r, c) and self.covered(r, c) and (r, c) not in self.a.mines

    def pattern(self, mines: list[Position], safe: list[Position], outside: list[Position], most: int) -> int:
        """Layouts with ``mines`` mines, ``safe`` safe and every covered ``outside`` cell a mine."""
        missing = []
        for r, c in outside:
            if not self.on(r, c):
                continue
            if not self.covered(r, c):
                return 0  # a revealed number there would tell the cells apart
            if (r, c) not in self.a.mines:
                missing.append((r, c))
        if len(missing) > most or len(missing) + len(mines) > self.mines_left:
            return 0
        return self.a.layouts_with(missing + mines, safe)

    def pair(self, r: int, c: int, dr: int, dc: int) -> int:
        """The pair (r, c) and the next cell along (dr, dc), with (r, c) the mine."""
        r2, c2 = r + dr, c + dc
        if not (self.open_cell(r, c) and self.open_cell(r2, c2)):
            return 0
        if dr == 0:  # side by side: the three cells at each end
            outside = [(r + k, c - 1) for k in (-1, 0, 1)] + [(r + k, c + 2) for k in (-1, 0, 1)]
        else:  # one above the other
            outside = [(r - 1, c + k) for k in (-1, 0, 1)] + [(r + 2, c + k) for k in (-1, 0, 1)]
        return self.pattern([(r, c)], [(r2, c2)], outside, PAIR_OUTSIDE)

    def block(self, r: int, c: int) -> int:
        """The 2x2 block with top-left (r, c), mines on its main diagonal."""
        cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        if not all(self.open_cell(*p) for p in cells):
            return 0
        corners = [(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)]
        return self.pattern([(r, c), (r + 1, c + 1)], [(r, c + 1), (r + 1, c)], corners, BLOCK_OUTSIDE)


def _patterns(view: ViewLike, a: Analysis, pos: Position) -> int:
    b = _Board(view, a)
    r, c = pos
    pairs = b.pair(r, c, 0, 1) + b.pair(r, c - 1, 0, 1) + b.pair(r, c, 1, 0) + b.pair(r - 1, c, 1, 0)
    return pairs + max(b.block(r, c), b.block(r, c - 1), b.block(r - 1, c), b.block(r - 1, c - 1))


def fifty_fifty_influence(view: ViewLike, a: Analysis, pos: Position) -> int:
    """The layouts in which ``pos`` takes part in a 50/50 that could form later in ``view`` (analysed as
    ``a``; see the module)."""
    total = _patterns(view, a, pos)
    if not total:
        return 0
    as_mine = a.layouts_with([pos])
    return min(total, as_mine, a.layouts - as_mine)


def influence_factor(view: ViewLike, a: Analysis, pos: Position) -> float:
    """``1 + INFLUENCE_WEIGHT * influence / (layouts where pos is safe)``: the weight of its safety."""
    total = _patterns(view, a, pos)
    if not total:
        return 1.0
    as_mine = a.layouts_with([pos])
    safe = a.layouts - as_mine
    return 1.0 + INFLUENCE_WEIGHT * min(total, as_mine, safe) / safe
