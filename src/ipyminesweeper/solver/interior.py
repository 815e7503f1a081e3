"""The interior as one value: the covered cells that no number touches, "covered minus frontier".

On a board of millions of cells almost every covered cell is interior, and every one of them has the same
probability. So the analysis never lists them: :class:`Interior` is the view's covered cells (every
character that is not a digit) minus a few excluded ones (the frontier, and the cells taken out since),
made in time that grows with the frontier, not with the board. Asking whether a cell is interior, or how
many there are, costs O(1); only iterating walks the board. :class:`Positions` shows a set of flat indices
as ``(row, col)`` positions, :class:`Joined` is the union of two disjoint sets (the cells decided by the
numbers, and the interior when the mine count decides it too), and :class:`Probabilities` maps every
covered cell to its probability: the listed ones, then the interior's, all the same.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, Mapping, Set
from itertools import chain, islice
from typing import Any

from ..engine.geometry import Position

__all__ = ["CellSet", "Interior", "Joined", "Positions", "Probabilities", "lowest_risks"]

DIGITS = "012345678"


def _covered_count(cells: str) -> int:
    """How many cells of ``cells`` are covered (not a digit), counted at C speed."""
    return len(cells) - sum(cells.count(d) for d in DIGITS)


def lowest_risks(listed: list[float], inner: int, interior_p: float, count: int) -> list[float]:
    """The ``count`` lowest of the probabilities ``listed`` and ``inner`` interior cells' ``interior_p``,
    in increasing order (fewer if there are fewer). Sorts ``listed`` in place."""
    listed.extend([interior_p] * min(count, inner))
    listed.sort()
    return listed[:count]


class CellSet(Set[Any]):
    """A set that is not a frozenset: the operators of ``collections.abc.Set``, each written out, so that
    a compiled (mypyc) subclass has them too; their results are frozensets."""

    __slots__ = ()

    def __eq__(self, other: object) -> Any:
        return Set.__eq__(self, other)

    def __ne__(self, other: object) -> Any:
        return Set.__ne__(self, other)

    def __le__(self, other: Any) -> Any:
        return Set.__le__(self, other)

    def __lt__(self, other: Any) -> Any:
        return Set.__lt__(self, other)

    def __ge__(self, other: Any) -> Any:
        return Set.__ge__(self, other)

    def __gt__(self, other: Any) -> Any:
        return Set.__gt__(self, other)

    def __and__(self, other: Any) -> Any:
        return Set.__and__(self, other)

    def __rand__(self, other: Any) -> Any:
        return Set.__and__(self, other)

    def __or__(self, other: Any) -> Any:
        return Set.__or__(self, other)

    def __ror__(self, other: Any) -> Any:
        return Set.__or__(self, other)

    def __sub__(self, other: Any) -> Any:
        return Set.__sub__(self, other)

    def __rsub__(self, other: Any) -> Any:
        if not isinstance(other, Iterable):
            return NotImplemented
        return frozenset(value for value in other if value not in self)

    def __xor__(self, other: Any) -> Any:
        return Set.__xor__(self, other)

    def __rxor__(self, other: Any) -> Any:
        return Set.__xor__(self, other)

    def __hash__(self) -> int:  # a frozenset's: equal sets, equal hashes (walks the set, as it must)
        return hash(frozenset(self))

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        return frozenset(it)


class Interior(CellSet):
    """The covered cells of a view (flat indices of the characters of ``cells`` that are not digits)
    that are not ``excluded``, every one of which is covered."""

    __slots__ = ("cells", "excluded", "size")

    def __init__(self, cells: str, excluded: frozenset[int], size: int = -1) -> None:
        self.cells = cells
        self.excluded = excluded
        self.size = _covered_count(cells) - len(excluded) if size < 0 else size

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int) or not 0 <= index < len(self.cells):
            return False
        return self.cells[index] not in DIGITS and index not in self.excluded

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[int]:
        excluded = self.excluded
        for index, char in enumerate(self.cells):
            if char not in DIGITS and index not in excluded:
                yield index

    def without(self, cells: Iterable[int]) -> Interior:
        """This interior less ``cells`` (covered cells of the same view): the work is theirs, not the
        board's."""
        gone = {i for i in cells if i in self}
        if not gone:
            return self
        return Interior(self.cells, self.excluded | gone, self.size - len(gone))

    def __eq__(self, other: object) -> Any:
        if isinstance(other, Interior) and other.cells is self.cells and other.excluded == self.excluded:
            return True
        return Set.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self))

    def __repr__(self) -> str:
        return f"<interior: {self.size} covered cells away from every number>"


class Positions(CellSet):
    """The set of flat ``indices`` of a grid ``cols`` wide, seen as ``(row, col)`` positions."""

    __slots__ = ("cols", "indices")

    def __init__(self, indices: Interior, cols: int) -> None:
        self.indices = indices
        self.cols = cols

    def __contains__(self, pos: object) -> bool:
        if type(pos) is not tuple or len(pos) != 2:
            return False
        row, col = pos
        if not isinstance(row, int) or not isinstance(col, int) or not 0 <= col < self.cols or row < 0:
            return False
        return row * self.cols + col in self.indices

    def __len__(self) -> int:
        return len(self.indices)

    def __iter__(self) -> Iterator[Position]:
        cols = self.cols
        for index in self.indices:
            yield divmod(index, cols)

    def __eq__(self, other: object) -> Any:
        if isinstance(other, Positions) and other.cols == self.cols and other.indices == self.indices:
            return True
        return Set.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(frozenset(self))

    def __repr__(self) -> str:
        return f"<{len(self)} positions>"


class Joined(CellSet):
    """The union of two disjoint sets of positions, neither of them copied."""

    __slots__ = ("first", "second")

    def __init__(self, first: Set[Position], second: Set[Position]) -> None:
        self.first = first
        self.second = second

    def __contains__(self, pos: object) -> bool:
        return pos in self.first or pos in self.second

    def __len__(self) -> int:
        return len(self.first) + len(self.second)

    def __iter__(self) -> Iterator[Position]:
        return chain(self.first, self.second)

    def __repr__(self) -> str:
        return f"<{len(self)} positions>"


class Probabilities(Mapping[Position, float]):
    """Every covered cell's probability of a mine: the ``listed`` cells (the frontier and the cells the
    numbers decide), then the ``interior``'s cells, in reading order, each at ``interior_p``."""

    __slots__ = ("interior", "interior_p", "listed")

    def __init__(self, listed: dict[Position, float], interior: Positions, interior_p: float) -> None:
        self.listed = listed
        self.interior = interior
        self.interior_p = interior_p

    def __getitem__(self, pos: Position) -> float:
        found = self.listed.get(pos)
        if found is not None:
            return found
        if pos in self.interior:
            return self.interior_p
        raise KeyError(pos)

    def get(self, pos: Position, default: Any = None) -> Any:  # the mixin's goes through KeyError
        found = self.listed.get(pos)
        if found is not None:
            return found
        return self.interior_p if pos in self.interior else default

    def __contains__(self, pos: object) -> bool:
        return pos in self.listed or pos in self.interior

    def __iter__(self) -> Iterator[Position]:
        return chain(self.listed, self.interior)

    def lowest(self, view: str, count: int) -> list[float]:
        """The ``count`` lowest probabilities (fewer if there are fewer cells), in increasing order, of
        the covered unflagged cells (``'.'``) of ``view``, the characters of a view whose every ``'.'``
        cell this maps. The work grows with the listed cells, not with the interior."""
        cols = self.interior.cols
        listed = [p for (r, c), p in self.listed.items() if view[r * cols + c] == "."]
        return lowest_risks(listed, view.count(".") - len(listed), self.interior_p, count)

    def safest(self, view: str, count: int) -> list[tuple[float, Position]]:
        """The ``count`` safest covered unflagged cells (``'.'``) of ``view`` (as in :meth:`lowest`) with
        their probabilities, safest first, ties in reading order. The work grows with the listed cells
        and the first interior cells, not with the interior."""
        cols = self.interior.cols
        listed = [(p, pos) for pos, p in self.listed.items() if view[pos[0] * cols + pos[1]] == "."]
        inner = (pos for pos in self.interior if view[pos[0] * cols + pos[1]] == ".")
        listed += [(self.interior_p, pos) for pos in islice(inner, count)]  # reading order: the first tie
        listed.sort()
        return listed[:count]

    def __len__(self) -> int:
        return len(self.listed) + len(self.interior)

    def items(self) -> ItemsView[Position, float]:
        return _Items(self)

    def __eq__(self, other: object) -> Any:
        return Mapping.__eq__(self, other)

    def __ne__(self, other: object) -> Any:
        return not self == other if isinstance(other, Mapping) else NotImplemented

    def __repr__(self) -> str:
        return f"<probabilities of {len(self)} covered cells>"


class _Items(ItemsView[Position, float]):
    """``Probabilities.items()``: the listed cells' pairs, then the interior's, without a lookup each."""

    _mapping: Probabilities

    def __iter__(self) -> Iterator[tuple[Position, float]]:
        of = self._mapping
        yield from of.listed.items()
        p = of.interior_p
        for pos in of.interior:
            yield pos, p
