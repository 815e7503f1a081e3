"""The fast rules' closure kept from one view to the next, updated around the cells that changed.

A player's next view usually differs from the last by a few covered cells turned into numbers (a
reveal, a cascade) and flags put down or taken up (the solver does not trust flags, so those change
nothing). :class:`KeptClosure` keeps the :class:`~.rules.Reasoner` of the last view and, for such a
view, tells it which cells were revealed and which numbers appeared; for anything else (a new game, an
undo, another board) it starts again from the whole view. The rules are sound and monotone, so either
way the cells decided are exactly those :func:`~.deduce.deduce` decides on the view; only the notes of
which rule decided a cell may differ (callers word reasons with :func:`~.deduce.deduce`).
"""

from __future__ import annotations

from ..engine.geometry import neighbour_table
from .constraints import InconsistentViewError, ViewLike, number_constraints, read_view, revealed_since
from .rules import Reasoner

__all__ = ["KeptClosure", "revealed_since"]


class KeptClosure:
    """The fast rules (single point, pairs, global count) to a fixpoint on the last view given.

    :meth:`update` returns the :class:`~.rules.Reasoner` of a view: the kept one, told what changed,
    when the view extends the last one (same size and mine count; covered cells revealed as numbers,
    flags toggled), else a new one. Not thread-safe: one caller at a time (hold a lock).
    """

    def __init__(self) -> None:
        self.shape = (-1, -1, -1)  # rows, cols, mines of the kept view
        self.cells = ""
        self.reasoner: Reasoner | None = None

    def clear(self) -> None:
        """Forget the kept view."""
        self.reasoner = None
        self.cells = ""
        self.shape = (-1, -1, -1)

    def update(self, view: ViewLike) -> Reasoner:
        """The Reasoner of ``view`` after :meth:`~.rules.Reasoner.run`. Raises what
        :func:`~.deduce.deduce` raises on ``view`` (``InconsistentViewError``, ``ValueError``)."""
        rows, cols, mines, cells = view.rows, view.cols, view.mines, view.cells
        state = self.reasoner
        if state is not None and (rows, cols, mines) == self.shape:
            if cells == self.cells:
                return state
            changed = revealed_since(self.cells, cells)
            if changed is not None:
                self.reasoner = None  # until the update is done (an error leaves nothing half-done)
                try:
                    self.advance(state, cells, rows, cols, mines, changed)
                except InconsistentViewError:
                    pass  # worked out again from the view below, which raises as deduce would
                else:
                    self.reasoner, self.cells = state, cells
                    return state
        self.clear()
        system = read_view(view)
        state = Reasoner(system.constraints, cols, covered=system.covered, mines=system.mines).run()
        self.shape, self.cells, self.reasoner = (rows, cols, mines), cells, state
        return state

    @staticmethod
    def advance(state: Reasoner, cells: str, rows: int, cols: int, mines: int, revealed: list[int]) -> None:
        """Tell ``state`` that the cells ``revealed`` now show their numbers in ``cells``; run it."""
        if not revealed:
            return
        state.reveal(revealed)
        state.add(number_constraints(cells, cols, revealed, neighbour_table(rows, cols)))
        if mines > len(state.is_covered):
            raise InconsistentViewError(f"the view has {mines} mines but fewer covered cells")
        state.run()
