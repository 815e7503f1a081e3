"""Pickling that goes through the constructor, so an unpickled value is checked like a new one; and the
one way to make an always-valid value without its constructor's check (:func:`assembled`).

A frozen dataclass pickles, by default, as "make an empty object, then fill its ``__dict__``": the
check in ``__post_init__`` never runs, so a tampered pickle can hold a board no rule could reach. The
always-valid classes (``Board``, ``View``, ``Minefield``, ...) derive from :class:`CheckedPickle`, which
uses these two functions instead:

- ``__reduce__`` returns :func:`constructor_reduce`: the pickle is a call of the class with its fields,
  so unpickling runs the same check as ``Board(...)``; derived values (cached properties) are not pickled;
- ``__setstate__`` is :func:`restore_state`: a pickle in the default form (older versions, or one
  written by hand) is rebuilt through the constructor too, and anything but the fields is refused.
"""

from __future__ import annotations

import dataclasses
from functools import cache, cached_property
from typing import Any, TypeVar

from .errors import BoardError, quote

__all__ = ["CheckedPickle", "assembled", "constructor_reduce", "init_fields", "restore_state"]

T = TypeVar("T")


def constructor_reduce(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """``(class, fields)``: what ``__reduce__`` returns, so unpickling calls the checked constructor."""
    kind: type = type(value)
    return kind, tuple(getattr(value, name) for name in init_fields(kind))


def restore_state(value: Any, state: object) -> None:
    """Fill ``value`` (a fresh, empty instance) from a pickled ``__dict__``, checked by the constructor.

    Cached derived values in ``state`` are dropped (they are computed again); any other unknown key, a
    missing field or a field the constructor refuses raises :class:`BoardError` (or the class's own
    ValueError), and nothing is set.
    """
    cls: type = type(value)
    name = cls.__name__
    if not isinstance(state, dict):
        raise BoardError(f"a pickled {name} holds a dict of its fields, not {type(state).__name__}")
    fields = init_fields(cls)
    for key in state:
        if key not in fields and not isinstance(getattr(cls, str(key), None), cached_property):
            raise BoardError(f"a pickled {name} has an unknown field {quote(key)}")
    missing = [f for f in fields if f not in state]
    if missing:
        raise BoardError(f"a pickled {name} lacks the field(s) {', '.join(missing)}")
    checked = cls(**{f: state[f] for f in fields})  # the constructor's own check
    _written(value, {f: getattr(checked, f) for f in fields})


class CheckedPickle:
    """Base of a frozen dataclass that pickles through its constructor: unpickling runs its check."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return constructor_reduce(self)

    def __setstate__(self, state: object) -> None:
        restore_state(self, state)


def assembled(cls: type[T], /, **attributes: Any) -> T:
    """An instance of the frozen dataclass ``cls`` without running its check: only for a value its maker
    has checked itself, in proportion to a change (``Board.changed``). ``attributes``: every field, in
    order, then values of its cached properties the maker worked out (a board's status, its view)."""
    kind: type = cls
    names, derived = _names(kind)
    given = tuple(attributes)
    if given != names and (given[: len(names)] != names or not derived.issuperset(given[len(names) :])):
        raise TypeError(
            f"a {kind.__name__} is assembled from {', '.join(names)}, not {', '.join(given)} (after "
            f"the fields may come values derived from them: {', '.join(sorted(derived))})"
        )
    value: T = object.__new__(cls)
    _written(value, attributes)
    return value


def _written(value: object, attributes: dict[str, Any]) -> None:
    """Give a value just made with ``object.__new__`` its ``attributes``: the one place in the engine that
    writes a value's attributes (as a frozen dataclass's ``__init__`` does, with ``object.__setattr__``)."""
    object.__setattr__(value, "__dict__", attributes)


@cache
def init_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields ``cls.__init__`` takes, in order; worked out once per class."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


@cache
def _names(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """The fields of ``cls``, in order, and the names of its cached properties (values derived from them)."""
    return init_fields(cls), frozenset(
        n for n in dir(cls) if isinstance(getattr(cls, n, None), cached_property)
    )
