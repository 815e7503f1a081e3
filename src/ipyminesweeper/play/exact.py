"""``exact``: certain moves first, then the safest guess by exact probabilities, each move explained.

The strategy reads only the player's view. Certain cells come from the solver
(:mod:`ipyminesweeper.solver`); when there are none it guesses, weighing each candidate's chance of being
safe against its chance of making progress.

It is a pure function of the view, made fast for the way it is called, once per move of a game: it
keeps the fast rules' conclusions about the last view (:class:`~ipyminesweeper.solver.closure.KeptClosure`)
and updates them around the cells that changed. The cells they decide do not depend on that history,
so neither does the move; its reason is worked out from the view alone, when first read.
"""

from __future__ import annotations

import re
import threading
from functools import partial

from ..engine import Position, View
from ..solver import analyse, deduce
from ..solver.closure import KeptClosure
from ..solver.rules import Reasoner
from . import wording
from .guess import EXACT_RULE, GuessRule, guess, reveal_or_unflag
from .move import Action, Explanation, Move, evidence, explained_later, playable

__all__ = ["ExactStrategy", "exact", "exact_flags", "next_safe", "opening_cell"]

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


def _first_move(view: View) -> Move:
    pos = opening_cell(view.rows, view.cols)
    return reveal_or_unflag(view, pos, wording.first_click(pos), None)


def _explain_certain(view: View, pos: Position) -> Explanation:
    """The reason, numbers and constrained cells of the certain move at ``pos``, worked out from the
    view alone: the fast rules' reason if they prove some covered cell safe, else the exact analysis's."""
    cols, cells = view.cols, view.cells
    d = deduce(view)
    fast = any(cells[r * cols + c] in ".f" for r, c in d.safe)
    reasons = d.reasons if fast else analyse(view).reasons  # as the move was chosen
    why = reasons.get(pos, wording.in_no_layout(pos))
    numbers, constrained = evidence(view, pos, d.numbers.get(pos))
    if cells[pos[0] * cols + pos[1]] == "f":
        why = wording.unflag(pos, why)
    return why, numbers, constrained


def _certain(view: View, cell: int) -> Move:
    """Reveal (or unflag) the covered ``cell``, proved safe; explained when first read."""
    pos = divmod(cell, view.cols)
    action: Action = "flag" if view.cells[cell] == "f" else "reveal"
    return explained_later(action, pos, 0.0, partial(_explain_certain, view, pos))


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


def _exact_move(view: View, rules: Reasoner, *, flags: bool, rule: GuessRule) -> Move:
    """:func:`exact`'s move, given the fast rules' closure on ``view`` (not on a fresh board)."""
    if rules.pending:  # the first covered cell, in reading order, that the fast rules prove safe
        return _certain(view, min(rules.pending))
    cols, cells = view.cols, view.cells
    analysis = analyse(view)
    safe = [r * cols + c for r, c in analysis.safe if cells[r * cols + c] in ".f"]
    if safe:
        return _certain(view, min(safe))
    if flags:
        unflagged = sorted(p for p in analysis.mines if cells[p[0] * cols + p[1]] == ".")
        if unflagged:
            return Move("flag", unflagged[0], analysis.reasons.get(unflagged[0], ""), 1.0)
    return guess(view, analysis, rule)


class ExactStrategy:
    """A strategy ``view -> Move`` that keeps the fast rules' closure of the last view it was given.

    :data:`exact` and :data:`exact_flags` are the two instances. Each call is a pure function of the
    view (the kept closure only saves work: it decides the cells a fresh one would); one position is
    kept, under a lock (a caller that finds it taken works from scratch). Pickled by reference, as
    the module-level name it is bound to. ``rule``: experiments with the guess rule
    (:class:`~.guess.GuessRule`), none in these two.
    """

    def __init__(self, name: str, doc: str, *, flags: bool, rule: GuessRule = EXACT_RULE) -> None:
        self.__name__ = self.__qualname__ = name
        self.__module__ = __name__
        self.__doc__ = doc
        self.flags = flags
        self.rule = rule  # experiments with the guess rule, none by default: see guess.GuessRule
        self.kept = KeptClosure()
        self.lock = threading.Lock()

    def __call__(self, view: View) -> Move:
        _, _, cells = playable(view)
        if view.status == "ready" or _NUMBER.search(cells) is None:
            return _first_move(view)
        if self.lock.acquire(blocking=False):
            try:
                rules = self.kept.update(view)
                pending = min(rules.pending) if rules.pending else None
            finally:
                self.lock.release()
            if pending is not None:
                return _certain(view, pending)
            return _exact_move(view, rules, flags=self.flags, rule=self.rule)
        kept = KeptClosure().update(view)
        return _exact_move(view, kept, flags=self.flags, rule=self.rule)

    def clear(self) -> None:
        """Forget the kept position (the next call works from the whole view)."""
        with self.lock:
            self.kept.clear()

    def __reduce__(self) -> str:
        return self.__name__

    def __repr__(self) -> str:
        return f"<strategy {self.__module__}.{self.__name__}>"


exact = ExactStrategy(
    "exact",
    """The default strategy: certain moves first, then the safest guess by exact probabilities.

    1. On a fresh board: :func:`opening_cell` (``(2,2)`` or ``(3,3)``).
    2. A cell the solver proves safe (single-point, subset and global-count rules; failing those, the
       exact count over every consistent layout): reveal it. The reason says why.
    3. Otherwise guess (:mod:`ipyminesweeper.play.guess`): an unavoidable pair first (a forced or
       pseudo 50/50 no reveal can settle); with at most 1,000 layouts left, an exact endgame search
       for the reveal most likely to win; the same search on a closed-off region that nothing else
       can inform (it must be guessed sooner or later); else, among the cells at least 0.9x as safe
       as the safest, the one most likely to be safe *and* to leave a safe next move (Hill's
       secondary safety), looked at a level deeper when the best two nearly tie, live cells before
       dead ones; while the revealed cells are one region, each score is weighed by how likely the
       cell is to be half of a 50/50 later (Hill's long-term risk).

    It never flags (flags cost moves and do not help it); :func:`exact_flags` does, to show its
    reasoning. It does not trust the player's flags either: a flagged cell it proves safe, or picks
    to reveal, it unflags first. It keeps what the rules found on the last view and updates it
    around the cells that changed (:class:`ExactStrategy`); the move and its reason depend on the
    view alone.
    """,
    flags=False,
)

exact_flags = ExactStrategy(
    "exact_flags",
    """:func:`exact`, but it also flags every mine it has proved before it guesses (slower to play;
    the same wins).""",
    flags=True,
)
