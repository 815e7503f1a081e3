"""The fast rules' closure of a view, carried from one view to the next around the cells that changed.

A player's next view usually differs from the last by a few covered cells turned into numbers (a
reveal, a cascade) and flags put down or taken up (the solver does not trust flags, so those change
nothing). :func:`carried` tells the :class:`~.reasoner.Reasoner` of the last view which cells were revealed
and which numbers appeared; for anything else (a new game, an undo, another board) :func:`closure`
starts again from the whole view. The rules are sound and monotone, so either way the cells decided
are exactly those :func:`~.deduce.deduce` decides on the view; only the notes of which rule decided a
cell may differ (callers word reasons with :func:`~.deduce.deduce`). :func:`proved_safe` keeps the
closure of the view it was asked last, in the solver's memo (:mod:`.memo`).
"""

from __future__ import annotations

from ..engine.geometry import neighbour_table
from .constraints import InconsistentViewError, ViewLike, number_constraints, read_view, revealed_since
from .memo import ViewMemo
from .reasoner import Reasoner

__all__ = ["carried", "clear", "closure", "proved_safe", "revealed_since"]


def closure(view: ViewLike) -> Reasoner:
    """The fast rules (single point, pairs, global count) run to a fixpoint on the whole of ``view``.
    Raises what :func:`~.deduce.deduce` raises on ``view`` (``InconsistentViewError``, ``ValueError``)."""
    system = read_view(view)
    return Reasoner(system.constraints, system.cols, covered=system.covered, mines=system.mines).run()


def carried(state: Reasoner, old: str, view: ViewLike) -> Reasoner | None:
    """``state``, the closure of a view with the cells ``old`` and the size and mine count of ``view``,
    carried on to ``view``: told which of its covered cells ``view`` reveals, and run again. None (and
    ``state`` spoilt) if ``view`` does anything else (an undo, the end of a game) or contradicts the
    rules: the whole view's closure then decides, or says what is wrong."""
    cells = view.cells
    revealed = revealed_since(old, cells)
    if revealed is None:
        return None
    if not revealed:
        return state
    rows, cols, mines = view.rows, view.cols, view.mines
    try:
        state.reveal(revealed)
        state.add(number_constraints(cells, cols, revealed, neighbour_table(rows, cols)))
        if mines > len(state.is_covered):
            return None
        state.run()
    except InconsistentViewError:
        return None
    return state


_KEPT: ViewMemo[Reasoner] = ViewMemo(1)  # the closure of the view proved_safe was asked last


def proved_safe(view: ViewLike) -> frozenset[int]:
    """The covered cells of ``view`` the fast rules prove safe (flat indices): those :func:`~.deduce.deduce`
    proves safe, still covered or flagged. Worked out from the closure of the view asked last when
    ``view`` extends it (:func:`carried`), else from the whole view (:func:`closure`)."""
    key = (view.rows, view.cols, view.mines, view.cells)
    last = _KEPT.last(key, take=True)  # while it is carried on, no other caller sees it
    state = None
    if last is not None:
        old, kept = last
        state = kept if old == key[3] else carried(kept, old, view)
    if state is None:
        state = closure(view)
    safe = frozenset(state.pending)
    _KEPT.put(key, state)
    return safe


def clear() -> None:
    """Forget the kept closure (the next view is worked out whole)."""
    _KEPT.clear()
