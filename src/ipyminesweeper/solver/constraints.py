"""Constraints read from a player's view.

Only the view is read: ``rows``, ``cols``, ``mines`` and ``cells`` (the view alphabet). Digits are
revealed
numbers; every other character (``.``, ``f``, and the end-of-game letters) is a covered unknown:
player flags
are not trusted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, filterfalse
from operator import attrgetter
from typing import Final, NamedTuple, Protocol

from ..engine import Board
from ..engine.geometry import Position, format_position, neighbour_table
from .interior import Interior
from .memo import ViewKey, ViewMemo

_ALPHABET = frozenset(".f012345678*XFx")
_COVERED = frozenset(".f*XFx")
_POSITIVE = frozenset("12345678")
# the bytes of a covered and a flagged cell, and of the digits 0 and 8
_DOT: Final = ord(".")
_FLAG: Final = ord("f")
_ZERO: Final = ord("0")
_EIGHT: Final = ord("8")

__all__ = [
    "Constraint",
    "ConstraintSystem",
    "InconsistentViewError",
    "Propagated",
    "ViewLike",
    "clear_cache",
    "number_constraints",
    "position_table",
    "read_cells",
    "read_view",
    "revealed_since",
    "view_error",
    "view_key",
]


class InconsistentViewError(ValueError):
    """The view admits no mine layout (its numbers contradict each other or the mine count)."""


class ViewLike(Protocol):
    """What the solver reads from a view. Nothing about where the mines are."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...

    @property
    def mines(self) -> int: ...

    @property
    def cells(self) -> str: ...


@lru_cache(maxsize=64)
def position_table(rows: int, cols: int) -> tuple[Position, ...]:
    """``(row, col)`` of every flat index (cached per shape)."""
    return tuple((r, c) for r in range(rows) for c in range(cols))


class Constraint(NamedTuple):
    """``value`` mines among the covered ``cells`` (flat indices), per the number at ``source``."""

    source: int
    value: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class ConstraintSystem:
    """Everything the solver needs from a view, as flat indices (``index = row * cols + col``).
    ``interior``: the covered cells no number touches, as one value (covered minus frontier)."""

    rows: int
    cols: int
    mines: int
    covered: tuple[int, ...]
    constraints: tuple[Constraint, ...]
    frontier: frozenset[int]
    interior: Interior

    def pos(self, index: int) -> Position:
        return divmod(index, self.cols)

    def label(self, index: int) -> str:
        return format_position(divmod(index, self.cols))


def view_error(view: object, who: str) -> TypeError | None:
    """What is wrong with ``view`` as the ``view`` argument of ``who``, as an error; None when it has
    what a view has. A Board (which knows where the mines are) gets told to pass ``board.view``."""
    if isinstance(view, Board):
        return TypeError(
            f"view: {who} reads the player's view, not the Board (which knows where the mines are): "
            "pass board.view. A strategy, and the solver, see only board.view"
        )
    if not all(hasattr(view, name) for name in ("rows", "cols", "mines", "cells")):
        return TypeError(f"view: {who} needs a View (such as board.view), not {type(view).__name__}")
    return None


def view_key(view: ViewLike) -> ViewKey:
    """``(rows, cols, mines, cells)`` of ``view``: what the solver reads, checked, and its memo's key."""
    error = view_error(view, "the solver")
    if error:
        raise error
    rows, cols, mines, cells = view.rows, view.cols, view.mines, view.cells
    if any(isinstance(x, bool) or not isinstance(x, int) for x in (rows, cols, mines)):
        raise TypeError("view: view.rows, view.cols and view.mines must be ints")
    if not isinstance(cells, str):
        raise TypeError(f"view.cells must be a str, not {type(cells).__name__}")
    if rows < 0 or cols < 0 or len(cells) != rows * cols:
        raise ValueError(f"view.cells has {len(cells)} characters; a {rows}x{cols} view needs {rows * cols}")
    if mines < 0:
        raise ValueError(f"view.mines must be >= 0, not {mines}")
    return rows, cols, mines, cells


def _too_big(value: int, index: int, cols: int, covered: int) -> str:
    r, c = divmod(index, cols)
    return f"the {value} at ({r},{c}) has only {covered} covered neighbour{'' if covered == 1 else 's'}"


def read_view(view: ViewLike) -> ConstraintSystem:
    """Read the constraints of ``view``.

    Raises ``InconsistentViewError`` for contradictions visible locally (a number larger than its
    covered neighbours, or more mines than covered cells); the others are found by counting.
    The readings of the last few views are kept (a strategy often reads the same view twice).
    """
    return read_cells(*view_key(view))


def clear_cache() -> None:
    """Forget the kept readings (for benchmarks that measure cold calls)."""
    _READINGS.clear()


_READINGS: ViewMemo[ConstraintSystem] = ViewMemo(8)  # the readings of the last views
_MOST_CHANGED = 64  # beyond this many newly revealed cells, read the whole view
_BY_SOURCE = attrgetter("source")  # a Constraint's sort key (a C-level getter: no Python call per item)


def read_cells(rows: int, cols: int, mines: int, cells: str) -> ConstraintSystem:
    """The constraints of a view given by its fields (see :func:`read_view`): kept; a view that reveals a
    few cells of the one read last (the next move) is read from it, around the cells that changed."""
    key = (rows, cols, mines, cells)
    system = _READINGS.get(key)
    if system is None:
        last = _READINGS.last(key)
        if last is not None:
            system = _read_around(last[1], last[0], cells)
        if system is None:
            system = _read_all(rows, cols, mines, cells)
        _READINGS.put(key, system)
    return system


def revealed_since(old: str, new: str) -> list[int] | None:
    """The cells covered in ``old`` (``.`` or ``f``) that ``new`` shows as numbers, in reading order;
    ``None`` if ``new`` differs from ``old`` in any other way than those and flags (``.`` <-> ``f``), or
    if either holds a character outside ASCII (no view does).

    Finds the first and the last cell that differ at C speed (the two views' bytes as integers, XORed),
    and looks only at the cells between them: one or a few for a move."""
    if not isinstance(new, str) or len(new) != len(old) or not (old.isascii() and new.isascii()):
        return None
    before, after = old.encode("ascii"), new.encode("ascii")
    diff = int.from_bytes(before, "big") ^ int.from_bytes(after, "big")  # the first cell in the top byte
    out: list[int] = []
    if not diff:
        return out
    n = len(before)
    first = n - (diff.bit_length() + 7) // 8
    last = n - 1 - ((diff & -diff).bit_length() - 1) // 8
    for i in range(first, last + 1):
        o, c = before[i], after[i]
        if o == c:
            continue
        if o != _DOT and o != _FLAG:
            return None
        if _ZERO <= c <= _EIGHT:
            out.append(i)
        elif c != _DOT and c != _FLAG:
            return None
    return out


def _read_around(parent: ConstraintSystem, old: str, cells: str) -> ConstraintSystem | None:
    """:func:`_read_all` of ``cells``, from the ``parent`` system of ``old`` when ``cells`` only reveals
    a few of its covered cells (and toggles flags); None otherwise, or if the view would be found
    inconsistent (the whole reading then raises)."""
    rows, cols = parent.rows, parent.cols
    revealed = revealed_since(old, cells)
    if revealed is None or len(revealed) > _MOST_CHANGED:
        return None
    if not revealed:
        return parent
    gone = set(revealed)
    covered = tuple(filterfalse(gone.__contains__, parent.covered))  # filterfalse: the loop runs in C
    if parent.mines > len(covered):
        return None
    table = neighbour_table(rows, cols)
    touched = {n for r in revealed for n in table[r]}
    constraints: list[Constraint] = []
    for con in parent.constraints:
        if con.source in touched:
            rest = tuple(c for c in con.cells if c not in gone)
            if con.value > len(rest):
                return None
            if not rest:
                continue
            con = Constraint(con.source, con.value, rest)
        constraints.append(con)
    frontier = set(parent.frontier) - gone
    for r in revealed:
        nbrs = tuple(j for j in table[r] if cells[j] in _COVERED)
        value = ord(cells[r]) - 48
        if value > len(nbrs):
            return None
        if nbrs:
            constraints.append(Constraint(r, value, nbrs))
            frontier.update(nbrs)
    constraints.sort(key=_BY_SOURCE)
    edge = frozenset(frontier)
    interior = Interior(cells, edge, len(covered) - len(edge))
    return ConstraintSystem(rows, cols, parent.mines, covered, tuple(constraints), edge, interior)


def _read_all(rows: int, cols: int, mines: int, cells: str) -> ConstraintSystem:
    stray = set(cells) - _ALPHABET
    if stray:
        raise ValueError(f"view.cells holds characters outside the view alphabet: {sorted(stray)}")
    table = neighbour_table(rows, cols)
    is_covered = list(map(_COVERED.__contains__, cells))  # map and compress: the loops run in C
    covered = tuple(compress(range(len(cells)), is_covered))
    # covered neighbours of each number, gathered from the smaller side: early in a game from the few
    # revealed cells, late from the few covered ones (either way each list is in reading order)
    around: defaultdict[int, list[int]] = defaultdict(list)
    if 2 * len(covered) > len(cells):
        for i in filterfalse(is_covered.__getitem__, range(len(cells))):
            nbrs = [j for j in table[i] if is_covered[j]]
            if nbrs:
                around[i] = nbrs
    else:
        for j in covered:
            for i in table[j]:
                if not is_covered[i]:
                    around[i].append(j)
    constraints: list[Constraint] = []
    for i in sorted(around):
        nbrs = around[i]
        value = ord(cells[i]) - 48
        if value > len(nbrs):
            raise InconsistentViewError(_too_big(value, i, cols, len(nbrs)))
        constraints.append(Constraint(i, value, tuple(nbrs)))
    # numbers with no covered neighbour must be 0
    lonely = set(compress(range(len(cells)), map(_POSITIVE.__contains__, cells))) - around.keys()
    if lonely:
        i = min(lonely)
        raise InconsistentViewError(_too_big(ord(cells[i]) - 48, i, cols, 0))
    frontier = set().union(*around.values())
    if mines > len(covered):
        raise InconsistentViewError(f"the view has {mines} mines but only {len(covered)} covered cells")
    edge = frozenset(frontier)
    interior = Interior(cells, edge, len(covered) - len(edge))  # covered minus frontier, as one value
    return ConstraintSystem(rows, cols, mines, covered, tuple(constraints), edge, interior)


def number_constraints(
    cells: str, cols: int, numbers: Iterable[int], table: Sequence[Sequence[int]], mines: Collection[int] = ()
) -> list[Constraint]:
    """The constraints of the revealed ``numbers`` only (flat indices), with the covered cells in
    ``mines`` taken out as known mines. For rules applied around a change, not to the whole view."""
    out: list[Constraint] = []
    for i in sorted(numbers):
        ch = cells[i]
        if not "0" <= ch <= "8":
            continue
        value = ord(ch) - 48
        around: list[int] = []
        for j in table[i]:
            if cells[j] in _COVERED:
                if j in mines:
                    value -= 1
                else:
                    around.append(j)
        if around or value:
            out.append(Constraint(i, value, tuple(around)))
    return out


@dataclass(frozen=True)
class Propagated:
    """A system after unit propagation: ``safe``/``mines`` are decided cells; ``system`` constrains
    the rest (numbers reduced by the decided mines, ``system.mines`` the mines left)."""

    system: ConstraintSystem
    safe: frozenset[int]
    mines: frozenset[int]
