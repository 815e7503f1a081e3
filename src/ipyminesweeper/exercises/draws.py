"""Where an example's choices come from: a seeded list, or Hypothesis.

Every example a check tries is built by one function of a :class:`Source` (``layout(source)``,
``situation(source)``...): the board-building rules are written once. A check first tries a fixed number of
examples drawn from a :class:`SeededSource` (``random.Random`` with a fixed seed), so the examples tried,
their number and the verdict are the same with every Hypothesis version. When one of them fails, the same
function runs under Hypothesis (:func:`strategy_of`) to shrink the failure to a smaller board.

A seeded source starts small and grows, as QuickCheck's size parameter does: early examples are tiny
boards (where most mistakes already show), later ones use the whole range. After a failure, the smallest
examples of all are tried in order, as SmallCheck does (:func:`smallest_examples`): every example whose
choices add up to 0, then to 1, and so on, so the first one that fails is the smallest, or close to it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator, Sequence
from random import Random
from typing import Any, Generic, Protocol, TypeVar, cast

from hypothesis import strategies as st

from ..engine import Position

__all__ = [
    "PlannedSource",
    "RejectedDraw",
    "SeededSource",
    "Source",
    "examples_once",
    "kept_once",
    "seeded_examples",
    "smallest_examples",
    "smallest_once",
    "strategy_of",
]

T = TypeVar("T")
E = TypeVar("E")


class RejectedDraw(Exception):
    """An example that does not fit (a view with too many covered cells): draw another."""


class Source(Protocol):
    """The choices an example is made of."""

    def integer(self, low: int, high: int) -> int:
        """An int from ``low`` to ``high``, both included."""
        ...

    def one_in(self, n: int) -> bool:
        """True one time in ``n`` (a coin that does not grow with the size)."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (not empty)."""
        ...

    def cells(self, rows: int, cols: int, most: int, least: int = 0) -> frozenset[Position]:
        """``least`` to ``most`` distinct positions of a ``rows x cols`` grid."""
        ...

    def subset(self, options: Sequence[T], size: int) -> frozenset[T]:
        """``size`` distinct elements of ``options``."""
        ...

    def reject(self) -> None:
        """Give up on this example (raises)."""
        ...

    def part(self, build: Callable[..., E], *args: Any) -> E:
        """``build(self, *args)``, drawn as one part of the example (Hypothesis shrinks it as a unit)."""
        ...


class HypothesisSource:
    """Choices drawn by Hypothesis inside ``st.composite``: they shrink towards the low end."""

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))

    def one_in(self, n: int) -> bool:
        return self._draw(st.integers(0, n - 1)) == n - 1

    def choice(self, options: Sequence[T]) -> T:
        return self._draw(st.sampled_from(options))

    def cells(self, rows: int, cols: int, most: int, least: int = 0) -> frozenset[Position]:
        cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
        return self._draw(st.frozensets(cell, min_size=least, max_size=most))

    def subset(self, options: Sequence[T], size: int) -> frozenset[T]:
        return self._draw(st.frozensets(st.sampled_from(options), min_size=size, max_size=size))

    def reject(self) -> None:
        from hypothesis import reject

        reject()

    def part(self, build: Callable[..., E], *args: Any) -> E:
        return self._draw(strategy_of(build, *args))


class SeededSource:
    """Choices from ``random.Random``, each scaled by ``size`` (0 to 1) towards its low end."""

    def __init__(self, random: Random, size: float) -> None:
        self._random = random
        self._size = size

    def integer(self, low: int, high: int) -> int:
        return low + self._random.randint(0, round((high - low) * self._size))

    def one_in(self, n: int) -> bool:
        return self._random.randrange(n) == 0

    def choice(self, options: Sequence[T]) -> T:
        return options[self._random.randrange(len(options))]

    def cells(self, rows: int, cols: int, most: int, least: int = 0) -> frozenset[Position]:
        wanted = self.integer(least, most)
        found: set[Position] = set()
        for _ in range(wanted):  # independent cells, as Hypothesis draws them: repeats fall together
            found.add((self._random.randrange(rows), self._random.randrange(cols)))
        while len(found) < least:
            found.add((self._random.randrange(rows), self._random.randrange(cols)))
        return frozenset(found)

    def subset(self, options: Sequence[T], size: int) -> frozenset[T]:
        return frozenset(self._random.sample(list(options), size))

    def reject(self) -> None:
        raise RejectedDraw

    def part(self, build: Callable[..., E], *args: Any) -> E:
        return build(self, *args)


def examples_once(
    build: Callable[[Source], E], count: int, key: Callable[[E], Hashable] = lambda e: e, seed: int = 17
) -> tuple[E, ...]:
    """:func:`seeded_examples` as a tuple, made once per kernel: they are the same every time, and a
    student runs a check again after each fix (making them was most of a passing check's time)."""
    try:
        found = _KEPT.get((_same(build), count, _same(key), seed))
    except TypeError:  # an argument that cannot be a key (a list): made afresh
        return tuple(seeded_examples(build, count, key, seed))
    if found is None:
        found = tuple(seeded_examples(build, count, key, seed))
        if len(_KEPT) >= KEPT_EXAMPLES:
            _KEPT.pop(next(iter(_KEPT)))  # the oldest
        _KEPT[(_same(build), count, _same(key), seed)] = found
    return cast("tuple[E, ...]", found)


KEPT_EXAMPLES = 64
"""How many lists of examples a kernel keeps (a check's, or a grader's seed per student)."""

_KEPT: dict[Hashable, tuple[Any, ...]] = {}


def _same(fn: Callable[..., Any]) -> Hashable:
    """What makes two builders (or keys) the same: a ``partial`` by its function and arguments, a
    function by its code when it closes over nothing, else the object itself."""
    if isinstance(fn, functools.partial):
        return (_same(fn.func), fn.args, tuple(sorted(fn.keywords.items())))
    code: Hashable | None = getattr(fn, "__code__", None)
    if code is not None and not getattr(fn, "__closure__", None) and not getattr(fn, "__defaults__", None):
        return code
    return fn


class PlannedSource:
    """Choices read from a plan: the ``i``-th choice is ``plan[i]`` above its low end (0 past the plan's
    end). A plan whose choice is out of its range is no example (:class:`RejectedDraw`), nor is one that
    asks for more than :attr:`MOST_CHOICES`."""

    MOST_CHOICES = 200

    def __init__(self, plan: tuple[int, ...]) -> None:
        self.plan = plan
        self.used = 0

    def next(self, most: int) -> int:
        """The next choice, from 0 to ``most``."""
        i, self.used = self.used, self.used + 1
        if self.used > self.MOST_CHOICES:
            raise RejectedDraw
        value = self.plan[i] if i < len(self.plan) else 0
        if value > most:
            raise RejectedDraw
        return value

    def integer(self, low: int, high: int) -> int:
        return low + self.next(high - low)

    def one_in(self, n: int) -> bool:
        return self.next(1) == 1

    def choice(self, options: Sequence[T]) -> T:
        return options[self.next(len(options) - 1)]

    def cells(self, rows: int, cols: int, most: int, least: int = 0) -> frozenset[Position]:
        wanted = least + self.next(most - least)
        found = frozenset((self.next(rows - 1), self.next(cols - 1)) for _ in range(wanted))
        if len(found) < wanted:  # a repeat: the plan with distinct cells is its own example
            raise RejectedDraw
        return found

    def subset(self, options: Sequence[T], size: int) -> frozenset[T]:
        left = list(options)
        return frozenset(left.pop(self.next(len(left) - 1)) for _ in range(size))

    def reject(self) -> None:
        raise RejectedDraw

    def part(self, build: Callable[..., E], *args: Any) -> E:
        return build(self, *args)


def smallest_examples(
    build: Callable[[Source], E],
    key: Callable[[E], Hashable] = lambda e: e,
    plans: int = 300,
    small: int = 400,
    top: float = 0.6,
    seed: int = 1,
) -> Iterator[E]:
    """The examples of ``build`` smallest first, the same every time: those whose choices add up to 0,
    then to 1, ... (each plan's successors raise one of the choices it made by 1) until ``plans`` plans
    are tried; then seeded ones whose size grows from 0 to ``top``, up to ``small`` distinct by ``key``
    in all."""
    queue: list[tuple[int, ...]] = [()]
    queued = set(queue)
    seen: set[Hashable] = set()
    for tried, plan in enumerate(queue):  # it grows as it is read: breadth first, by the choices' sum
        if tried >= plans:
            break
        source = PlannedSource(plan)
        try:
            example: E | None = build(source)
        except RejectedDraw:
            example = None
        made = min(source.used, PlannedSource.MOST_CHOICES)
        padded = plan + (0,) * (made - len(plan))
        for i in range(made):
            raised = list(padded)
            raised[i] += 1
            while raised and raised[-1] == 0:
                raised.pop()
            after = tuple(raised)
            if after not in queued:
                queued.add(after)
                queue.append(after)
        if example is not None and (k := key(example)) not in seen:
            seen.add(k)
            yield example
    random = Random(seed)  # then small random ones, growing slowly: where a mistake needs a few cells
    for _ in range(5 * small):
        if len(seen) >= small:
            return
        try:
            example = build(SeededSource(random, top * len(seen) / small))
        except RejectedDraw:
            continue
        if (k := key(example)) not in seen:
            seen.add(k)
            yield example


def smallest_once(
    build: Callable[[Source], E], key: Callable[[E], Hashable], plans: int, small: int
) -> Iterator[E]:
    """:func:`smallest_examples`, each made once per kernel: a failing check is run again after each
    fix, and making them was most of its time. Made as they are read (a check reads few of them)."""
    try:
        return kept_once(
            lambda: smallest_examples(build, key, plans, small), (_same(build), _same(key), plans, small)
        )
    except TypeError:  # an argument that cannot be a key: made afresh
        return smallest_examples(build, key, plans, small)


def kept_once(make: Callable[[], Iterator[E]], key: Hashable | None = None) -> Iterator[E]:
    """The items of ``make()``, made once per kernel as they are first read, kept under ``key`` (by
    default, ``make`` itself). A TypeError when ``key`` cannot be a key."""
    key = _same(make) if key is None else key
    kept = _KEPT_SMALLEST.get(key)
    if kept is None:
        kept = _KEPT_SMALLEST[key] = _KeptItems(make())
    return iter(cast("_KeptItems[E]", kept))


class _KeptItems(Generic[E]):
    """The items of an iterator, kept as they are first read: each iteration reads the kept ones, then
    goes on with the iterator."""

    def __init__(self, items: Iterator[E]) -> None:
        self.items = items
        self.kept: list[E] = []

    def __iter__(self) -> Iterator[E]:
        i = 0
        while True:
            if i < len(self.kept):
                yield self.kept[i]
            else:
                item = next(self.items, _END)
                if item is _END:
                    return
                self.kept.append(cast("E", item))
                yield cast("E", item)
            i += 1


_END = object()
_KEPT_SMALLEST: dict[Hashable, _KeptItems[Any]] = {}


def strategy_of(build: Callable[..., E], *args: Any) -> st.SearchStrategy[E]:
    """The Hypothesis strategy of ``build(source, *args)``: the same object for the same arguments, so
    that Hypothesis works out what it needs about a strategy once, not on every draw of every example."""
    try:
        return cast("st.SearchStrategy[E]", _kept_strategy(build, args))
    except TypeError:  # an argument that cannot be a key (a list): a strategy of its own
        return _new_strategy(build, args)


@functools.lru_cache(maxsize=512)
def _kept_strategy(build: Callable[..., Any], args: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return _new_strategy(build, args)


def _new_strategy(build: Callable[..., E], args: tuple[Any, ...]) -> st.SearchStrategy[E]:
    @st.composite
    def drawn(draw: st.DrawFn) -> E:
        return build(HypothesisSource(draw), *args)

    return drawn()


def seeded_examples(
    build: Callable[[Source], E], count: int, key: Callable[[E], Hashable] = lambda e: e, seed: int = 17
) -> Iterator[E]:
    """``count`` distinct examples (by ``key``) of ``build``, the same ones every time: the first ones
    small, growing to the full range by the middle."""
    random = Random(seed)
    seen: set[Hashable] = set()
    for _ in range(50 * count + 100):
        if len(seen) >= count:
            return
        size = min(1.0, 0.15 + len(seen) / max(1, count // 2))
        try:
            example = build(SeededSource(random, size))
        except RejectedDraw:
            continue
        k = key(example)
        if k not in seen:
            seen.add(k)
            yield example
