"""Binomial coefficients for the counting of layouts: exact, and cheap on the largest boards.

The cells away from every number (the *interior*) hold the mines the numbers leave in ``C(I, k)`` ways.
On a 1000x1000 board ``I`` is about a million and ``C(I, 150000)`` has some 140,000 digits: one
``math.comb`` of it takes most of a second, and one analysis asks for dozens of its neighbours
(``C(I, k - 1)``, ``C(I - 3, k)``, ...). :func:`binomial` keeps the last few large values it made and
walks from the nearest one to the value asked for, one exact step at a time
(``C(n, k + 1) = C(n, k) * (n - k) / (k + 1)`` and its three siblings), so each neighbour costs a
multiplication and a division by small numbers. A large value with no kept one near is built from its
prime factors (Kummer: the power of ``p`` in ``C(n, k)`` is the number of carries when ``k`` and
``n - k`` are added in base ``p``), multiplied in a balanced tree: ``C(4000000, 600000)`` in 0.35 s
where ``math.comb`` takes 9.7 s, holding the interpreter all along. The values are the same integers
``math.comb`` gives.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import compress
from math import comb, isqrt

__all__ = ["binomial", "binomials_down"]

DIRECT = 4096
"""Up to this ``n``, or this ``min(k, n - k)``, ``math.comb`` is quick enough: it is called directly."""
WALK = 256
"""The most steps walked from a kept value; farther away, the value is made afresh."""
KEPT = 16
"""How many large values are kept to walk from."""
BY_PRIMES = 65536
"""From this ``n`` on, a value with no kept one near is built from its prime factors."""

_kept: OrderedDict[tuple[int, int], int] = OrderedDict()
_lock = threading.Lock()


def binomial(n: int, k: int) -> int:
    """``C(n, k)``, the ways to choose ``k`` of ``n`` cells; 0 when ``k < 0`` or ``k > n``."""
    if not 0 <= k <= n:
        return 0
    if n <= DIRECT or min(k, n - k) <= DIRECT:  # math.comb is quick when either side is small
        return comb(n, k)
    with _lock:
        nearest = min(_kept, key=lambda key: abs(key[0] - n) + abs(key[1] - k), default=None)
        start = None if nearest is None else (nearest, _kept[nearest])
    if start is not None and abs(start[0][0] - n) + abs(start[0][1] - k) <= WALK:
        (n0, k0), value = start
        value = _walk(n0, k0, value, n, k)
    else:
        value = _by_primes(n, k) if n >= BY_PRIMES else comb(n, k)
    with _lock:
        _kept[(n, k)] = value
        _kept.move_to_end((n, k))
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return value


def binomials_down(n: int, k: int, count: int) -> tuple[int, ...]:
    """``C(n, k - t)`` for ``t = 0..count - 1``: :func:`binomial` once, then one exact step each
    (``C(n, j - 1) = C(n, j) * j / (n - j + 1)``), the same integers."""
    out = [0] * count
    t = max(0, k - n)  # C(n, k - t) is 0 while k - t > n
    j = k - t
    if t >= count or j < 0:
        return tuple(out)
    value = binomial(n, j)
    while True:
        out[t] = value
        t += 1
        if t >= count or j == 0:
            return tuple(out)
        value = value * j // (n - j + 1)
        j -= 1


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


def _by_primes(n: int, k: int) -> int:
    """``C(n, k)`` as the product of its prime powers."""
    rest = n - k
    factors = []
    for p in _primes_up_to(n):
        power, q = 0, p
        while q <= n:
            power += n // q - k // q - rest // q
            q *= p
        if power:
            factors.append(p**power)
    while len(factors) > 1:  # a balanced product: big numbers meet big numbers only at the top
        pairs = zip(factors[::2], factors[1::2], strict=False)  # an odd one out waits at the end
        factors = [a * b for a, b in pairs] + factors[len(factors) & ~1 :]
    return factors[0] if factors else 1


def _primes_up_to(n: int) -> list[int]:
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = b"\x00\x00"
    for p in range(2, isqrt(n) + 1):
        if sieve[p]:
            sieve[p * p :: p] = bytes(len(range(p * p, n + 1, p)))
    return list(compress(range(n + 1), sieve))  # the loop in C (and mypyc cannot iterate a bytearray)


def clear() -> None:
    """Forget the kept values (for benchmarks measuring cold calls)."""
    with _lock:
        _kept.clear()
