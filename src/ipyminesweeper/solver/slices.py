"""Work over millions of cells in slices, so that no single C call holds the GIL for long.

``dict.fromkeys(map(...))`` or ``frozenset(map(...))`` over a 2000x2000 board's cells is one C call of
about a second, and while it runs no other thread of the process runs Python: a kernel that works out the
probability overlay in the background could not answer the browser meanwhile. Cut into slices of
:data:`SLICE` items, each call is a few milliseconds, and between two of them the interpreter can hand the
GIL to the thread that answers (its switch interval is 5 ms). The results are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TypeVar

__all__ = ["SLICE", "frozen_in_slices", "in_slices", "update_in_slices"]

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


def frozen_in_slices(items: Iterable[T]) -> frozenset[T]:
    """``frozenset(items)``, built a slice at a time."""
    out: set[T] = set()
    for part in in_slices(items):
        out.update(part)
    return frozenset(out)


def update_in_slices(target: dict[K, V], keys: Iterable[T], key: Callable[[T], K], value: V) -> None:
    """``target.update(dict.fromkeys(map(key, keys), value))``, a slice at a time."""
    for part in in_slices(keys):
        target.update(dict.fromkeys(map(key, part), value))
