"""Binomial coefficients for the counting of layouts: exact, and cheap on the largest boards.

The cells away from every number (the *interior*) hold the mines the numbers leave in ``C(I, k)`` ways.
On a 1000x1000 board ``I`` is about a million and ``C(I, 150000)`` has some 140,000 digits: one
``math.comb`` of it takes most of a second, and one analysis asks for dozens of its neighbours
(``C(I, k - 1)``, ``C(I - 3, k)``, ...). :func:`binomial` keeps the last few large values it made and
walks from the nearest one to the value asked for, one exact step at a time
(``C(n, k + 1) = C(n, k) * (n - k) / (k + 1)`` and its three siblings), so each neighbour costs a
multiplication and a division by small numbers. The values are the same integers ``math.comb`` gives.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from math import comb

__all__ = ["binomial"]

DIRECT = 4096
"""Up to this ``n``, ``math.comb`` is quick enough: it is called directly."""
WALK = 256
"""The most steps walked from a kept value; farther away, ``math.comb`` starts afresh."""
KEPT = 16
"""How many large values are kept to walk from."""

_kept: OrderedDict[tuple[int, int], int] = OrderedDict()
_lock = threading.Lock()


def binomial(n: int, k: int) -> int:
    """``C(n, k)``, the ways to choose ``k`` of ``n`` cells; 0 when ``k < 0`` or ``k > n``."""
    if not 0 <= k <= n:
        return 0
    if n <= DIRECT:
        return comb(n, k)
    with _lock:
        nearest = min(_kept, key=lambda key: abs(key[0] - n) + abs(key[1] - k), default=None)
        start = None if nearest is None else (nearest, _kept[nearest])
    if start is not None and abs(start[0][0] - n) + abs(start[0][1] - k) <= WALK:
        (n0, k0), value = start
        value = _walk(n0, k0, value, n, k)
    else:
        value = comb(n, k)
    with _lock:
        _kept[(n, k)] = value
        _kept.move_to_end((n, k))
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return value


def _walk(n0: int, k0: int, value: int, n: int, k: int) -> int:
    """``C(n, k)`` from ``value = C(n0, k0)``, both with ``0 <= k <= n``: k down first, then n, then k
    up, so every value on the way is a nonzero binomial and every division is exact."""
    while k0 > k:
        value = value * k0 // (n0 - k0 + 1)
        k0 -= 1
    while n0 < n:
        value = value * (n0 + 1) // (n0 + 1 - k0)
        n0 += 1
    while n0 > n:
        value = value * (n0 - k0) // n0
        n0 -= 1
    while k0 < k:
        value = value * (n0 - k0) // (k0 + 1)
        k0 += 1
    return value


def clear() -> None:
    """Forget the kept values (for benchmarks measuring cold calls)."""
    with _lock:
        _kept.clear()
