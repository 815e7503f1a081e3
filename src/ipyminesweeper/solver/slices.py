"""Work over millions of cells in slices, so that no single C call holds the GIL for long.

``dict.fromkeys(map(...))`` or ``frozenset(map(...))`` over a 2000x2000 board's cells is one C call of
about a second, and while it runs no other thread of the process runs Python: a kernel that works out the
probability overlay in the background could not answer the browser meanwhile. Cut into slices of
:data:`SLICE` items, each call is a few milliseconds, and between two of them the interpreter can hand the
GIL to the thread that answers (its switch interval is 5 ms). The results are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Set
from itertools import islice
from typing import Any, TypeVar, overload

__all__ = [
    "SLICE",
    "add_in_slices",
    "ascending_in_slices",
    "frozen_in_slices",
    "in_slices",
    "update_in_slices",
]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

SLICE = 1 << 15
"""Items per C call: a few milliseconds of work."""


def in_slices(items: Iterable[T]) -> Iterator[list[T]]:
    """``items`` as lists of at most :data:`SLICE`, in order."""
    it = iter(items)
    while part := list(islice(it, SLICE)):
        yield part


def _parts(items: Collection[T]) -> Iterable[Collection[T]]:
    """``items`` whole when it fits one slice (no copy, no generator: the solver's hot path on
    ordinary boards), else :func:`in_slices`."""
    return (items,) if len(items) <= SLICE else in_slices(items)


@overload
def frozen_in_slices(items: Collection[T]) -> frozenset[T]: ...
@overload
def frozen_in_slices(items: Collection[T], key: Callable[[T], K]) -> frozenset[K]: ...
def frozen_in_slices(items: Collection[Any], key: Callable[[Any], Any] | None = None) -> frozenset[Any]:
    """``frozenset(map(key, items))`` (``frozenset(items)`` without a key), a slice at a time when
    ``items`` is longer than one slice."""
    if len(items) <= SLICE:
        return frozenset(items if key is None else map(key, items))
    out: set[Any] = set()
    for part in in_slices(items if key is None else map(key, items)):
        out.update(part)
    return frozenset(out)


def update_in_slices(target: dict[K, V], keys: Collection[T], key: Callable[[T], K], value: V) -> None:
    """``target.update(dict.fromkeys(map(key, keys), value))``, a slice at a time."""
    for part in _parts(keys):
        target.update(dict.fromkeys(map(key, part), value))


def add_in_slices(target: set[T], items: Collection[T]) -> None:
    """``target.update(items)``, a slice at a time."""
    for part in _parts(items):
        target.update(part)


def ascending_in_slices(first: Set[int], second: Set[int], bound: int) -> list[int]:
    """``sorted(first | second)`` for two disjoint sets of numbers in ``range(bound)``; past one slice,
    read off ``range(bound)`` a slice at a time (no sort of millions in one call)."""
    if len(first) + len(second) <= SLICE:
        return sorted(first | second)
    out: list[int] = []
    for start in range(0, bound, SLICE):
        part = range(start, min(bound, start + SLICE))
        out.extend(sorted([*filter(first.__contains__, part), *filter(second.__contains__, part)]))
    return out
