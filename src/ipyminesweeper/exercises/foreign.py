"""What the grader holds of a value made in a student's process: a name, a picture, never the object.

The grader runs a student's functions in a process of their own
(:mod:`ipyminesweeper.classroom.grading`) and reads back their answers as plain data
(:mod:`ipyminesweeper.classroom.wire`). Boards, views, moves, numbers, strings and containers come back
as the real thing, checked on the way in. Anything else, an object of the student's own class, comes back as
a :class:`Foreign`: its type's name and its ``repr`` as that process wrote them, a handle to send it back
with, and the one attribute a check reads of such objects (06's ``Game.history``). An exception comes
back as the built-in of that name when there is one (an ``AssertionError`` is still one), else as a
:class:`ForeignError`. No method of the student's ever runs in the grader's process.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

__all__ = ["ABSENT", "Foreign", "ForeignError", "foreign_error", "type_name"]

ABSENT: Any = None
"""What :attr:`Foreign.history` is when the object has no such attribute."""


@dataclass(frozen=True, eq=False)
class Foreign:
    """An object of the student's process: ``type_name`` and ``text`` (its repr) as that process said,
    ``handle`` to send it back as an argument, and its ``history`` (decoded) if it has one. Two are the
    same object when their handles are equal; nothing else about them is known."""

    type_name: str
    text: str
    handle: int | None = None
    history: Any = ABSENT

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Foreign) and self.handle is not None and self.handle == other.handle

    def __hash__(self) -> int:
        return hash(("Foreign", self.handle))


class ForeignError(Exception):
    """An exception raised in the student's process whose type is not a built-in one: its type's name
    as that process said it (:func:`type_name`), and its message."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(message)
        self.type_name = type_name


def foreign_error(name: str, message: str) -> Exception:
    """The exception a student's process reported: the built-in exception of that name (an
    ``AssertionError`` is still one, and ``except AssertionError`` still catches it), else a
    :class:`ForeignError` carrying the name."""
    kind = getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, Exception) and kind.__module__ == "builtins":
        try:
            return kind(message) if message else kind()
        except Exception:  # a built-in with another signature (UnicodeDecodeError): by its name
            pass
    return ForeignError(name, message)


def type_name(value: object) -> str:
    """The name of ``value``'s type as its author wrote it: for a value of a student's process, the name
    that process gave."""
    if isinstance(value, (Foreign, ForeignError)):
        return value.type_name
    return type(value).__name__
