"""Certain cells with reasons, by the rules of :mod:`.reasoner` alone (no enumeration).

:func:`deduce` applies the single-point, pair and global-count rules to a whole view, to a fixpoint.
Flags are not trusted: only mines deduced here count as known.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from ..engine.geometry import Position
from .constraints import ConstraintSystem, ViewLike, read_cells, view_key
from .memo import ViewMemo
from .reasoner import Reasoner
from .sentences import ReasonsByCell

__all__ = ["Deductions", "deduce", "deduce_system"]


@dataclass(frozen=True)
class Deductions:
    """Cells known for certain, each with a reason. Unpacks like the pair ``(safe, mines)``."""

    safe: AbstractSet[Position]
    mines: AbstractSet[Position]
    reasons: Mapping[Position, str] = field(default_factory=dict)
    numbers: Mapping[Position, tuple[Position, ...]] = field(default_factory=dict)
    """The revealed numbers each certain cell follows from (none for the global count alone)."""

    def __hash__(self) -> int:  # the mappings are derived from the two sets, which are hashable
        return hash((self.safe, self.mines))

    def __iter__(self) -> Iterator[AbstractSet[Position]]:
        return iter((self.safe, self.mines))

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


def deduce_system(system: ConstraintSystem) -> Deductions:
    """:func:`deduce` on constraints already read."""
    state = Reasoner(system.constraints, system.cols, covered=system.covered, mines=system.mines).run()
    pos = system.pos
    cols = system.cols
    reasons = ReasonsByCell(
        [pos(i) for i in (*state.safe, *state.mines)], lambda p: state.reason(p[0] * cols + p[1])
    )
    numbers = {pos(i): tuple(pos(s) for s in sources) for i, sources in state.sources.items()}
    return Deductions(
        frozenset(pos(i) for i in state.safe), frozenset(pos(i) for i in state.mines), reasons, numbers
    )


def deduce(view: ViewLike) -> Deductions:
    """Certain cells found by the fast rules (single point, pairs, global count), with reasons.

    Cheap (no enumeration) but incomplete: :func:`ipyminesweeper.solver.certain_moves` falls back on
    the exact analysis. Raises ``InconsistentViewError`` if the rules run into a contradiction. Kept
    for the last few views (``exact`` words a move from them whenever it is read).
    """
    key = view_key(view)
    found = _DEDUCED.get(key)
    if found is None:
        found = deduce_system(read_cells(*key))
        _DEDUCED.put(key, found)
    return found


_DEDUCED: ViewMemo[Deductions] = ViewMemo(4)  # the deductions of the last views asked about
