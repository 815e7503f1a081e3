"""``exact``: certain moves first, then the safest guess by exact probabilities, each move explained.

The strategy reads only the player's view. Certain cells come from the solver
(:mod:`ipyminesweeper.solver`); when there are none it guesses, weighing each candidate's chance of being
safe against its chance of making progress.

It is a pure function of the view, made fast for the way it is called, once per move of a game: the
cells the fast rules prove safe come from :func:`~ipyminesweeper.solver.closure.proved_safe`, which
carries the closure of the last view on around the cells that changed (the solver's one memo). Those
cells do not depend on that history, so neither does the move; the reason of a certain move is worked
out from the view alone (:func:`explain_certain`), when it is read.
"""

from __future__ import annotations

import re
from functools import partial

from ..engine import Position, View
from ..solver import Analysis, analyse, deduce
from ..solver.closure import proved_safe
from . import move_words
from .guess import guess, reveal_or_unflag
from .move import Action, Explanation, Move, evidence, playable

__all__ = ["exact", "exact_flags", "explain_certain", "next_safe", "opening_cell", "settled"]

_NUMBER = re.compile("[0-8]")  # a revealed number in a view's cells (one search at C speed per move)


def opening_cell(rows: int, cols: int) -> Position:
    """The first click of :func:`exact` on a fresh board: near a corner, clear of the edges.

    ``(2, 2)`` on boards of up to 256 cells (beginner, intermediate), ``(3, 3)`` on bigger ones
    (expert), clamped onto small boards. With a first click that opens a 3x3 block
    (``first_click="opening"``) this leaves few unreachable edge cells; the published win rates for
    "opening" starts use these cells.
    """
    d = 2 if rows * cols <= 256 else 3
    return (min(d, (rows - 1) // 2), min(d, (cols - 1) // 2))


def explain_certain(view: View, pos: Position) -> Explanation:
    """The reason, numbers and constrained cells of :func:`exact`'s certain move at ``pos``, worked out
    from the view alone: the fast rules' reason if they prove some covered cell safe, else the exact
    analysis's."""
    cols, cells = view.cols, view.cells
    d = deduce(view)
    fast = any(cells[r * cols + c] in ".f" for r, c in d.safe)
    reasons = d.reasons if fast else analyse(view).reasons  # as the move was chosen
    why = reasons.get(pos, move_words.in_no_layout(pos))
    numbers, constrained = evidence(view, pos, d.numbers.get(pos))
    if cells[pos[0] * cols + pos[1]] == "f":
        why = move_words.unflag(pos, why)
    return why, numbers, constrained


def _certain(view: View, index: int) -> Move:
    """Reveal (or unflag) the covered cell ``index``, proved safe; explained when read."""
    pos = divmod(index, view.cols)
    action: Action = "flag" if view.cells[index] == "f" else "reveal"
    return Move(action, pos, probability=0.0, why=partial(explain_certain, view, pos))


def next_safe(view: View, after: Position) -> Move | None:
    r"""The first covered (or flagged) cell after ``after``, in reading order and around to the start
    (``after`` itself last), that the exact analysis proves safe: revealed (or unflagged), with its reason;
    None when no cell is certainly safe. Like :func:`exact`, it reads the player's view only.

    >>> from ipyminesweeper import View
    >>> view = View.from_text("1..\n...\n...", mines=2)
    >>> next_safe(view, (0, 0)) is None  # a mine next to the 1, another anywhere else: nothing is certain
    True
    >>> view = View.from_text("01.\n01.\n...", mines=1)
    >>> next_safe(view, (0, 0)).pos, next_safe(view, (2, 0)).pos
    ((2, 0), (2, 1))
    """
    _, cols, cells = playable(view)
    size = view.rows * cols
    start = after[0] * cols + after[1]
    safe = [r * cols + c for r, c in analyse(view).safe if cells[r * cols + c] in ".f"]
    if not safe:
        return None
    return _certain(view, min(safe, key=lambda cell: (cell - start - 1) % size))


def settled(view: View, *, flags: bool = False) -> Move | Analysis:
    """:func:`exact`'s move when it need not guess: the first click (:func:`opening_cell`), else a cell
    proved safe (the first in reading order the fast rules prove, else the exact count), else with
    ``flags`` a proved mine to flag; otherwise the view's analysis, to guess from."""
    _, _, cells = playable(view)
    if view.status == "ready" or _NUMBER.search(cells) is None:
        pos = opening_cell(view.rows, view.cols)
        return reveal_or_unflag(view, pos, move_words.first_click(pos), None)
    safe = proved_safe(view)
    if safe:
        return _certain(view, min(safe))
    cols, analysis = view.cols, analyse(view)
    proved = [r * cols + c for r, c in analysis.safe if cells[r * cols + c] in ".f"]
    if proved:
        return _certain(view, min(proved))
    if flags:
        unflagged = sorted(p for p in analysis.mines if cells[p[0] * cols + p[1]] == ".")
        if unflagged:
            return Move("flag", unflagged[0], analysis.reasons.get(unflagged[0], ""), 1.0)
    return analysis


def exact(view: View) -> Move:
    """The default strategy: certain moves first, then the safest guess by exact probabilities.

    1. On a fresh board: :func:`opening_cell` (``(2,2)`` or ``(3,3)``).
    2. A cell the solver proves safe (single-point, subset and global-count rules; failing those, the
       exact count over every consistent layout): reveal it. The reason says why.
    3. Otherwise guess (:mod:`ipyminesweeper.strategies.guess`): an unavoidable pair first (a forced or
       pseudo 50/50 no reveal can settle); with at most 1,000 layouts left, an exact endgame search
       for the reveal most likely to win; the same search on a closed-off region that nothing else
       can inform (it must be guessed sooner or later); else, among the cells at least 0.9x as safe
       as the safest, the one most likely to be safe *and* to leave a safe next move (Hill's
       secondary safety), looked at a level deeper when the best two nearly tie, live cells before
       dead ones; while the revealed cells are one region, each score is weighed by how likely the
       cell is to be half of a 50/50 later (Hill's long-term risk).

    It never flags (flags cost moves and do not help it); :func:`exact_flags` does, to show its
    reasoning. It does not trust the player's flags either: a flagged cell it proves safe, or picks
    to reveal, it unflags first. What the rules found on the last view is carried on to this one
    (:func:`~ipyminesweeper.solver.closure.proved_safe`); the move and its reason depend on the view
    alone.
    """
    found = settled(view)
    return found if isinstance(found, Move) else guess(view, found)


def exact_flags(view: View) -> Move:
    """:func:`exact`, but it also flags every mine it has proved before it guesses (slower to play;
    the same wins)."""
    found = settled(view, flags=True)
    return found if isinstance(found, Move) else guess(view, found)
