"""How the solver words its reasons, in one place: every sentence that says why a cell is safe or a mine
(the deduction rules' and the exact analysis's), and the pieces the strategies layer's reasons are made of
(numbers, lists of cells, plurals, percentages). A position is written one way, ``(row,col)``
(:func:`~ipyminesweeper.engine.format_position`)."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set

from ..engine import Position, format_position

__all__ = [
    "ReasonsByCell",
    "cells",
    "contradiction",
    "counted",
    "decided",
    "every_layout",
    "interior",
    "join_words",
    "no_other_choice",
    "number",
    "pair",
    "percent",
    "plural",
    "single_point",
    "some_cells",
]


def plural(n: int, word: str) -> str:
    """``"1 mine"``, ``"2 mines"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def join_words(words: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def percent(p: float) -> str:
    """A probability as a percentage: ``"12.5%"``, and two significant digits below 0.1%."""
    if 0 < p < 0.001:
        return f"{p * 100:.2g}%"
    return f"{p * 100:.1f}%"


def cells(positions: Iterable[Position]) -> str:
    """``"(0,1), (0,2) and (1,2)"``."""
    return join_words([format_position(p) for p in positions])


def some_cells(positions: Sequence[Position], limit: int = 3) -> str:
    """The first ``limit`` cells and how many more: ``"(0,1), (0,2), (1,2) and 4 more"``."""
    words = [format_position(p) for p in positions[:limit]]
    if len(positions) > limit:
        words.append(f"{len(positions) - limit} more")
    return join_words(words)


def number(value: int, pos: Position) -> str:
    """A revealed number: ``"the 2 at (3,4)"``."""
    return f"the {value} at {format_position(pos)}"


def decided(pos: Position, mine: bool, why: str) -> str:
    """``"(3,4) is safe: why"`` or ``"(3,4) is a mine: why"``."""
    return f"{format_position(pos)} is {'a mine' if mine else 'safe'}: {why}"


# -- the deduction rules (solver.reasoner) ---------------------------------------------------------


def single_point(
    value: int, at: Position, need: int, known: list[Position], unknown: list[Position], every: bool
) -> str:
    """Why the number ``value`` at ``at`` decides its ``unknown`` cells: ``need`` mines still missing,
    ``known`` mines around it already; ``every``: its unknown cells are all its covered neighbours."""
    num = number(value, at)
    if need == 0:
        if known:
            noun = "mine" if len(known) == 1 else f"{len(known)} mines"
            return f"{num} already touches its {noun} at {cells(known)}"
        return f"{num} has no mine next to it"
    them = "it" if need == 1 else "them"
    if known:
        return (
            f"{num} touches {plural(len(known), 'known mine')} and needs {need} more;"
            f" only {cells(unknown)} can hold {them}"
        )
    if every:
        return f"{num} has exactly {plural(len(unknown), 'covered neighbour')}: {cells(unknown)}"
    return f"{num} needs {need} and only {cells(unknown)} can hold {them}"


def pair(
    a: tuple[int, Position, int],
    b: tuple[int, Position, int],
    shared: list[Position],
    only_a: list[Position],
    only_b: list[Position],
) -> str:
    """Why two numbers ``a`` and ``b`` (each ``(value, at, mines still needed)``) decide the cells they
    do not share."""
    (value_a, at_a, na), (value_b, at_b, nb) = a, b
    num_a, num_b = number(value_a, at_a), number(value_b, at_b)
    mines_a = plural(na, "mine" if na == value_a else "more mine")
    mines_b = plural(nb, "mine" if nb == value_b else "more mine")
    if not only_a:  # A's undecided cells are all B's: B's other cells are free
        return (
            f"{num_a} needs {mines_a} among {cells(shared)}; they all touch {num_b},"
            " which then needs no other mine"
        )
    if not only_b:  # B's undecided cells are all A's: A's other cells hold the rest
        return (
            f"{num_b} needs {mines_b} among {cells(shared)}; they all touch {num_a}, which"
            f" needs {na - nb} more, and only {cells(only_a)}"
            f" {'is' if len(only_a) == 1 else 'are'} left"
        )
    more_b = "" if nb == value_b else " more"
    return (
        f"{num_a} needs {mines_a}; at most {nb} can be among {cells(shared)}, which also touch"
        f" {num_b} (needing {nb}{more_b}), so {cells(only_a)} hold the rest and {num_b} is full"
    )


def counted(total: int, left: int, unknown: int) -> str:
    """The global count: every mine accounted for, or the mines left fill every unknown cell."""
    if left == 0:
        return f"all {plural(total, 'mine')} are accounted for"
    return f"the {plural(left, 'mine')} left must fill the {unknown} unknown cells"


# -- the exact analysis (solver.probabilities) ----------------------------------------------------


def no_other_choice() -> str:
    return "the numbers next to it leave no other choice"


def interior(mine: bool, total: int) -> str:
    """A cell away from every number, decided by the mine count alone."""
    if mine:
        return "the numbers leave exactly as many mines as there are covered cells away from them"
    return (
        f"the numbers need all {plural(total, 'mine')} next to them, so none is left for cells away from"
        " the numbers"
    )


def every_layout(mine: bool, numbers: Sequence[Position], total: int | None) -> str:
    """Every layout that fits the numbers (and, with ``total``, the mine count) decides the cell."""
    what = "a mine" if mine else "safe"
    if total is not None:
        return (
            f"with {plural(total, 'mine')} in total, every layout that fits the numbers at"
            f" {some_cells(numbers, 4)} makes it {what}"
        )
    return f"every layout of mines that fits the numbers at {some_cells(numbers, 4)} makes it {what}"


def contradiction(numbers: Sequence[Position]) -> str:
    return f"the numbers at {some_cells(numbers, 6)} contradict each other: no mine layout fits them"


class ReasonsByCell(Mapping[Position, str]):
    """Reasons by position, each worked out when it is first read (a strategy reads one of many).

    ``keys`` are listed; ``more`` (the interior, when the mine count decides it) is a set of further
    positions kept as it is: then ``keys`` are in reading order, and so is the iteration over both."""

    __slots__ = ("_done", "_keys", "_more", "_one")

    def __init__(
        self, keys: Iterable[Position], one: Callable[[Position], str], more: Set[Position] = frozenset()
    ) -> None:
        self._keys: dict[Position, None] = dict.fromkeys(keys)  # ordered, and a set
        self._more = more
        self._one = one
        self._done: dict[Position, str] = {}

    def __getitem__(self, key: Position) -> str:
        got = self._done.get(key)
        if got is None:
            if key not in self._keys and key not in self._more:
                raise KeyError(key)
            got = self._done[key] = self._one(key)
        return got

    def __contains__(self, key: object) -> bool:
        return key in self._keys or key in self._more

    def __iter__(self) -> Iterator[Position]:
        if not self._more:
            return iter(self._keys)
        return heapq.merge(self._keys, self._more)

    def __len__(self) -> int:
        return len(self._keys) + len(self._more)

    def __repr__(self) -> str:
        return repr(dict(self.items()))
