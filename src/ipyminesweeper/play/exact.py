"""``exact``: certain moves first, then the safest guess by exact probabilities, each move explained.

The strategy reads only the player's view. Certain cells come from the solver
(:mod:`ipyminesweeper.solver`); when there are none it guesses, weighing each candidate's chance of being
safe against its chance of making progress.
"""

from __future__ import annotations

from ..engine import Position, View, format_position
from ..solver import Analysis, analyse, deduce
from .guess import guess
from .move import Move, evidence, playable

__all__ = ["exact", "exact_flags", "opening_cell"]


def opening_cell(rows: int, cols: int) -> Position:
    """The first click of :func:`exact` on a fresh board: near a corner, clear of the edges.

    ``(2, 2)`` on boards of up to 256 cells (beginner, intermediate), ``(3, 3)`` on bigger ones
    (expert), clamped onto small boards. With a first click that opens a 3x3 block
    (``first_click="opening"``) this leaves few unreachable edge cells; the published win rates for
    "opening" starts use these cells.
    """
    d = 2 if rows * cols <= 256 else 3
    return (min(d, (rows - 1) // 2), min(d, (cols - 1) // 2))


def _first_move(rows: int, cols: int) -> Move:
    pos = opening_cell(rows, cols)
    return Move(
        "reveal",
        pos,
        f"first click at {format_position(pos)}: near the corner but clear of the edges, so its opening "
        "leaves few cells stranded",
        None,
    )


def _certain_reveals(view: View, *, first_only: bool = False) -> tuple[list[Move], Analysis | None]:
    """Moves revealing every cell the fast rules (or, failing them, the exact count) prove safe, in
    reading order (only the first with ``first_only``). Also returns the analysis, when one was needed.
    """
    cols, cells = view.cols, view.cells
    d = deduce(view)
    safe = sorted(p for p in d.safe if cells[p[0] * cols + p[1]] in ".f")
    analysis = None
    reasons = d.reasons
    if not safe:
        analysis = analyse(view)
        safe = sorted(p for p in analysis.safe if cells[p[0] * cols + p[1]] in ".f")
        reasons = analysis.reasons
    moves = []
    for pos in safe[:1] if first_only else safe:
        why = reasons.get(
            pos, f"{format_position(pos)} is safe: it is a mine in no layout that fits the view"
        )
        numbers, constrained = evidence(view.rows, cols, cells, pos, d.numbers.get(pos))
        if cells[pos[0] * cols + pos[1]] == "f":
            why = f"unflag {format_position(pos)}: {why}"
            moves.append(Move("flag", pos, why, 0.0, numbers=numbers, constrained=constrained))
        else:
            moves.append(Move("reveal", pos, why, 0.0, numbers=numbers, constrained=constrained))
    return moves, analysis


def _exact_moves(view: View, *, flags: bool = False, first_only: bool = False) -> list[Move]:
    """Every move :func:`exact` would make before it next needs to think: all certain reveals, or a
    guess. Playing them in order (skipping cells a cascade already opened) is the same game as calling
    :func:`exact` once per move."""
    rows, cols, cells = playable(view)
    if view.status == "ready" or not any("0" <= ch <= "8" for ch in cells):
        return [_first_move(rows, cols)]
    moves, analysis = _certain_reveals(view, first_only=first_only)
    if moves:
        return moves
    if analysis is None:  # pragma: no cover - no safe cell means the exact count has run
        analysis = analyse(view)
    if flags:
        unflagged = sorted(p for p in analysis.mines if cells[p[0] * cols + p[1]] == ".")
        if unflagged:
            return [Move("flag", p, analysis.reasons.get(p, ""), 1.0) for p in unflagged]
    return [guess(rows, cols, view.mines, cells, analysis)]


def exact(view: View) -> Move:
    """The default strategy: certain moves first, then the safest guess by exact probabilities.

    1. On a fresh board: :func:`opening_cell` (``(2,2)`` or ``(3,3)``).
    2. A cell the solver proves safe (single-point, subset and global-count rules; failing those, the
       exact count over every consistent layout): reveal it. The reason says why.
    3. Otherwise guess (:mod:`ipyminesweeper.play.guess`): a forced 50/50 first; with at most 1,000
       layouts left, an exact endgame search for the reveal most likely to win; else, among the cells
       almost as safe as the safest, the one most likely to be safe *and* to leave a safe next move
       (a second-order look-ahead), live cells before dead ones.

    It never flags (flags cost moves and do not help it); :func:`exact_flags` does, to show its
    reasoning.
    """
    return _exact_moves(view, first_only=True)[0]


def exact_flags(view: View) -> Move:
    """:func:`exact`, but it also flags every mine it has proved before it guesses (slower to play;
    the same wins)."""
    return _exact_moves(view, flags=True, first_only=True)[0]
