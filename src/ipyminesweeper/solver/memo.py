"""The one memo of the solver (and so of ``exact``): what was worked out from the last few views.

A player's next view is the last one with a few cells revealed, so what the solver worked out from that
one (its constraints, the fast rules' closure) is most of the next answer: :func:`~.constraints.read_cells`
and :func:`~.closure.proved_safe` work it out from the view kept last, around the cells that changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["ViewKey", "ViewMemo"]

T = TypeVar("T")
ViewKey = tuple[int, int, int, str]
"""A view as a memo's key: its rows, columns, mines and cells."""


class ViewMemo(Generic[T]):
    """Values worked out from views, by :data:`ViewKey`, as ``functools.lru_cache`` keeps them: ``size`` at
    most, the least recently used forgotten first. Each call holds the memo's lock: threads may share it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[ViewKey, T] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: ViewKey) -> T | None:
        """The value kept for the view ``key``, or None."""
        with self.lock:
            value = self.kept.get(key)
            if value is not None:
                self.kept.move_to_end(key)
            return value

    def put(self, key: ViewKey, value: T) -> None:
        """Keep ``value`` for the view ``key``."""
        with self.lock:
            self.kept[key] = value
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def last(self, key: ViewKey, *, take: bool = False) -> tuple[str, T] | None:
        """The cells and value of the view kept last with the rows, columns and mines of ``key``, or None;
        ``take``: forgotten here (for a caller that changes the value to make the next one)."""
        with self.lock:
            for kept in reversed(self.kept):
                if kept[:3] == key[:3]:
                    return kept[3], self.kept.pop(kept) if take else self.kept[kept]
            return None

    def clear(self) -> None:
        """Forget every value."""
        with self.lock:
            self.kept.clear()
