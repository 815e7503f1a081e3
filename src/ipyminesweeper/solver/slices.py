"""Work over millions of cells in slices, so that no single C call holds the GIL for long.

``dict.fromkeys(map(...))`` or ``frozenset(map(...))`` over a 2000x2000 board's cells is one C call of
about a second, and while it runs no other thread of the process runs Python: a kernel that works out the
probability overlay in the background could not answer the browser meanwhile. Cut into slices of
:data:`SLICE` items, each call is a few milliseconds, and between two of them the interpreter can hand the
GIL to the thread that answers (its switch interval is 5 ms). The results are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, TypeVar, overload

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


@overload
def frozen_in_slices(items: Sequence[T]) -> frozenset[T]: ...
@overload
def frozen_in_slices(items: Sequence[T], key: Callable[[T], K]) -> frozenset[K]: ...
def frozen_in_slices(items: Sequence[Any], key: Callable[[Any], Any] | None = None) -> frozenset[Any]:
    """``frozenset(map(key, items))`` (``frozenset(items)`` without a key), a slice at a time when
    ``items`` is longer than one slice."""
    mapped = items if key is None else map(key, items)
    if len(items) <= SLICE:
        return frozenset(mapped)
    out: set[Any] = set()
    for part in in_slices(mapped):
        out.update(part)
    return frozenset(out)


def update_in_slices(target: dict[K, V], keys: Sequence[T], key: Callable[[T], K], value: V) -> None:
    """``target.update(dict.fromkeys(map(key, keys), value))``, a slice at a time when ``keys`` is longer
    than one slice."""
    if len(keys) <= SLICE:
        target.update(dict.fromkeys(map(key, keys), value))
        return
    for part in in_slices(keys):
        target.update(dict.fromkeys(map(key, part), value))
