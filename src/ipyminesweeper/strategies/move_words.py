"""How the strategies word their moves: every sentence they give as a move's reason, in one place.

A position is written one way everywhere, ``(row,col)`` (:func:`~ipyminesweeper.engine.format_position`);
numbers, lists of cells, plurals and percentages come from the solver's wording
(:mod:`ipyminesweeper.solver.sentences`), so a reason reads the same whichever strategy gives it. The
solver words its own deductions (why a cell is safe or a mine); this module words the rest: the naive
rules of ``simple``, the scores of ``scored``, and how ``exact`` clicks first, unflags and guesses.
"""

from __future__ import annotations

from ..engine import Position, format_position
from ..solver.sentences import number, percent, plural, some_cells

__all__ = [
    "NO_COVERED_CELL",
    "endgame_search",
    "first_click",
    "first_covered",
    "forced_pair",
    "guessed",
    "in_no_layout",
    "last_covered",
    "lowest_score",
    "mine_by_count",
    "pair_guess",
    "random_cell",
    "region_search",
    "safe_by_flags",
    "safest_flagged",
    "score_zero",
    "unflag",
]

NO_COVERED_CELL = "no covered cell is left"


def unflag(pos: Position, why: str) -> str:
    """The one way a strategy says it unflags a cell it means to reveal: ``"unflag (2,3), to reveal it
    next: ..."``."""
    return f"unflag {format_position(pos)}, to reveal it next: {why}"


def safe_by_flags(pos: Position, value: int, at: Position) -> str:
    """``simple``'s first rule: the number at ``at`` has all its flags."""
    return (
        f"{format_position(pos)} is safe: {number(value, at)} already has {plural(value, 'flag')} around it"
    )


def mine_by_count(pos: Position, value: int, at: Position) -> str:
    """``simple``'s second rule: the number at ``at`` has as many covered cells as its value."""
    return (
        f"{format_position(pos)} is a mine: {number(value, at)} has exactly {plural(value, 'covered cell')}"
        " around it"
    )


def first_covered(pos: Position) -> str:
    """``simple``'s blind guess."""
    return f"no rule applies: reveal the first covered cell {format_position(pos)}"


def score_zero(pos: Position) -> str:
    """``scored``: a cell every number around it leaves free."""
    return f"{format_position(pos)} scores 0: every number around it has all its flags"


def lowest_score(pos: Position, score: float, scored: int) -> str:
    """``scored``: the cell with the lowest summed score of ``scored`` cells."""
    return (
        f"{format_position(pos)} has the lowest score, {score:.2f} (the sum of missing mines / "
        f"covered cells over the numbers around it), of {scored} scored cells"
    )


def random_cell(pos: Position) -> str:
    """``scored``'s random pick, with no number to score by."""
    return f"no number to score by: reveal a random cell {format_position(pos)}"


def first_click(pos: Position) -> str:
    """``exact``'s first click."""
    return (
        f"first click at {format_position(pos)}: near the corner but clear of the edges, so its opening "
        "leaves few cells stranded"
    )


def in_no_layout(pos: Position) -> str:
    """A safe cell the analysis found without a reason of its own."""
    return f"{format_position(pos)} is safe: it is a mine in no layout that fits the view"


def safest_flagged() -> str:
    """Only flagged cells are left: the safest is unflagged."""
    return "it is the safest covered cell"


def last_covered(pos: Position, p: float) -> str:
    return f"{format_position(pos)} is the last covered cell: P(mine) = {percent(p)}"


def endgame_search(pos: Position, p: float, layouts: int, win: float) -> str:
    """The exact search over every layout left in the endgame."""
    return (
        f"{format_position(pos)} is a guess: P(mine) = {percent(p)}; looking ahead"
        f" through all {layouts} layouts that fit, revealing it wins {percent(win)} of the"
        " time, the best"
    )


def region_search(pos: Position, p: float, cells: int, layouts: int, win: float) -> str:
    """The exact search over a closed-off group of cells."""
    return (
        f"{format_position(pos)} is a guess: P(mine) = {percent(p)}; it lies"
        f" in a closed-off group of {cells} covered cells that nothing else on the board can"
        f" shed light on, so it must be guessed sooner or later; looking ahead through its"
        f" {layouts} layouts, revealing it first solves the group {percent(win)} of"
        " the time, the best"
    )


def forced_pair(pos: Position, other: Position) -> str:
    """A 50/50 no move can ever tell apart."""
    return (
        f"{format_position(pos)} is a forced guess: it and {format_position(other)} hold one mine"
        " between them, and no cell left to reveal can tell which; a 50/50 that has to be taken"
        " sooner or later, so take it now"
    )


def pair_guess(pos: Position, other: Position, p: float) -> str:
    """Two cells holding at most one mine that nothing can tell apart."""
    return (
        f"{format_position(pos)} is a guess: P(mine) = {percent(p)}; it and {format_position(other)}"
        " hold at most one mine, and no cell left to reveal can tell them apart: if one is a mine"
        " the game needs this 50/50 sooner or later, and if neither is it is safe, so take it now"
    )


def guessed(
    pos: Position,
    p: float,
    lowest: float | None,
    tie: int,
    *,
    dead: bool,
    likely: int,
    proves: tuple[Position, ...],
    safety: float,
    weight: float = 1.0,
) -> str:
    """Why the look-ahead picked ``pos``: its risk (``lowest``, when another cell is less risky; ``tie``
    cells as risky), what it likely shows and proves, the chance of two safe moves and the long-term
    ``weight`` its score got (above 1: it could be half of a later 50/50)."""
    why = f"{format_position(pos)} is a guess: P(mine) = {percent(p)}"
    shared = f", shared by {tie} cells" if tie > 1 else ""
    why += f" (the lowest is {percent(lowest)})" if lowest is not None else f", the lowest{shared}"
    if dead:
        why += "; it can only show one number, but no live cell is as good"
    elif likely == 0:
        why += "; if safe it most likely shows a 0 and opens up"
    else:
        why += f"; if safe it most likely shows a {likely}"
        if proves:
            why += f", which would prove {some_cells(proves)} safe"
    why += f"; {percent(safety)} chance this guess and the next move are both safe"
    if weight > 1.0:
        by = percent(weight - 1.0) if weight - 1.0 >= 0.001 else "less than 0.1%"
        why += f"; weighed up by {by} because it could be half of a 50/50 later, which revealing it"
        why += " now rules out"
    return why
