"""Values between the grader and a student's process, as plain JSON: never an object, either way.

The grader (:mod:`.grading`) calls a student's functions in a process of their own (:mod:`.notebook_worker`).
It sends the arguments with :func:`encode_argument` and the student's process decodes them with
:func:`decode_argument`; the student's answer goes back with :func:`encode_answer` and the grader
rebuilds it with :func:`decode_answer`, which checks everything it reads:

- a board goes as its JSON form (:meth:`Board.to_dict`), a view as its fields, a move as its fields, and
  each is built afresh on the other side by its own constructor, which checks it: a subclass of
  ``Board`` with an ``__eq__`` of its own arrives as a plain ``Board`` of the cells it holds;
- numbers, strings, ``None`` and containers (tuples, lists, dicts, sets: subclasses as their contents)
  go as themselves, within a depth and a size;
- the library's functions go by name, either way (``reveal``, a broken rule of
  :data:`~..exercises.laws.MUTANTS`), the student's by the name their notebook binds them to;
- anything else the student's process made stays there: the grader gets a
  :class:`~..exercises.foreign.Foreign` (a type name, a ``repr``, a handle to send it back, and its
  ``history`` if it has one: notebook 06's checks read a ``Game``'s history and nothing else).
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Board, BoardError, View
from ..exercises.foreign import ABSENT, Foreign
from ..exercises.laws import Rules
from ..strategies import Move

__all__ = [
    "DEPTH",
    "ITEMS",
    "Handles",
    "Malformed",
    "StudentName",
    "decode_answer",
    "decode_argument",
    "encode_answer",
    "encode_argument",
    "shown",
]

DEPTH = 12
"""How deeply containers may nest in a value sent either way."""

ITEMS = 20_000
"""How many numbers, strings and containers a value may hold in all."""

TEXT = 100_000
"""The longest string sent as itself (a longer one is shown by its length)."""

SHOWN = 300
"""The longest ``repr`` kept of an object that stays in the student's process."""

BIG = 10**18
"""The largest int sent as itself."""

READ = ("history",)
"""The attributes of a student's own objects that a check reads (06's ``Game.history``)."""


class Malformed(ValueError):
    """An answer the grader cannot read as a value: not the shape :func:`encode_answer` writes, a board
    that is not valid, too deep, too large."""


@dataclass(frozen=True)
class StudentName:
    """A function or class of the student's notebook, sent as the name it is bound to there."""

    name: str


def shown(value: object) -> str:
    """``repr(value)``, at most :data:`SHOWN` characters, or a sentence when repr itself fails."""
    try:
        text = repr(value)
    except Exception:  # a student's __repr__
        return f"<a {type(value).__name__} whose repr raised>"
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _function_name(fn: object) -> str | None:
    """``module:qualname`` of a function of this package (a rule, a mutant), else None."""
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if isinstance(module, str) and isinstance(name, str) and module.startswith("ipyminesweeper."):
        return f"{module}:{name}"
    return None


def encode_argument(value: object) -> Any:
    """An argument of a check's call, as JSON (the grader's side). Raises TypeError for a value no
    check sends."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Board):
        return {"board": value.to_dict()}
    if isinstance(value, View):
        return {"view": [value.rows, value.cols, value.mines, value.status, value.cells]}
    if isinstance(value, tuple):
        return {"tuple": [encode_argument(item) for item in value]}
    if isinstance(value, list):
        return {"list": [encode_argument(item) for item in value]}
    if isinstance(value, Rules):
        names = ("reveal", "toggle_flag", "chord")
        return {"rules": {name: encode_argument(getattr(value, name)) for name in names}}
    if isinstance(value, Foreign) and value.handle is not None:
        return {"handle": value.handle}
    student = getattr(value, "student_name", None)
    if isinstance(student, StudentName):
        return {"name": student.name}
    name = _function_name(value)
    if name is not None and callable(value):
        return {"function": name}
    raise TypeError(f"a check sends no {type(value).__name__} to a student's process")


def _is_library_function(name: str, value: object) -> bool:
    """Whether ``name`` is where ``value`` lives: one of the library's own functions (a rule, a mutant)."""
    try:
        return _library_function(name) is value
    except (Malformed, ImportError, AttributeError):
        return False


def _library_function(name: object) -> Callable[..., Any]:
    if not isinstance(name, str) or not name.startswith("ipyminesweeper.") or name.count(":") != 1:
        raise Malformed(f"not a function of the library: {shown(name)}")
    return _found(name)


@functools.lru_cache(maxsize=256)
def _found(name: str) -> Callable[..., Any]:
    """The library's function ``module:qualname`` (looked up once: a law's rules are sent with every
    call)."""
    module, _, qualname = name.partition(":")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not callable(found):
        raise Malformed(f"{name} is not a function")
    return found  # type: ignore[no-any-return]


def decode_argument(data: Any, resolve: Callable[[Mapping[str, Any]], Any]) -> Any:
    """An argument as the student's process rebuilds it; ``resolve`` turns ``{"name": ...}`` and
    ``{"handle": ...}`` into the objects of the notebook they name."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise Malformed(f"not an argument: {shown(data)}")
    ((kind, inner),) = data.items()
    if kind == "board":
        return Board.from_dict(inner)
    if kind == "view":
        return View(*inner)
    if kind in ("tuple", "list"):
        items = [decode_argument(item, resolve) for item in inner]
        return tuple(items) if kind == "tuple" else items
    if kind == "rules":
        return Rules(**{name: decode_argument(rule, resolve) for name, rule in inner.items()})
    if kind == "function":
        return _library_function(inner)
    if kind in ("name", "handle"):
        return resolve(data)
    raise Malformed(f"not an argument: {shown(data)}")


class Handles:
    """The student's process's own objects that the grader holds a handle to, by number."""

    def __init__(self) -> None:
        self.objects: list[Any] = []
        self.numbers: dict[int, int] = {}  # id(object) -> its handle; the list keeps the object alive

    def handle(self, value: object) -> int:
        number = self.numbers.get(id(value))
        if number is None:
            number = self.numbers[id(value)] = len(self.objects)
            self.objects.append(value)
        return number

    def get(self, number: object) -> Any:
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(self.objects):
            raise Malformed(f"no object has the handle {shown(number)}")
        return self.objects[number]

    def clear(self) -> None:
        self.objects.clear()
        self.numbers.clear()


class _Budget:
    """What a value may still hold while it is encoded or decoded: :data:`ITEMS` in all."""

    def __init__(self) -> None:
        self.left = ITEMS

    def take(self, depth: int) -> None:
        self.left -= 1
        if self.left < 0:
            raise Malformed(f"a value of more than {ITEMS:,} parts")
        if depth > DEPTH:
            raise Malformed(f"a value nested more than {DEPTH} deep")


def encode_answer(value: object, handles: Handles) -> Any:
    """The student's function's answer, as JSON (the student's process's side): see the module."""
    return _encoded(value, handles, _Budget(), 0)


def _encoded(value: object, handles: Handles, budget: _Budget, depth: int) -> Any:
    budget.take(depth)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value) if -BIG <= value <= BIG else _object(value, handles, budget, depth)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else {"float": repr(float(value))}
    if isinstance(value, str):
        text = str(value)
        return text if len(text) <= TEXT else _object(value, handles, budget, depth)
    if isinstance(value, Board):
        return {"board": Board.to_dict(value)}
    if isinstance(value, View):
        return {"view": [value.rows, value.cols, value.mines, value.status, value.cells]}
    if isinstance(value, Move):
        return {"move": _move_fields(value)}
    if isinstance(value, (tuple, list, set, frozenset)):
        kind = "tuple" if isinstance(value, tuple) else "list" if isinstance(value, list) else "set"
        return {kind: [_encoded(item, handles, budget, depth + 1) for item in value]}
    name = _function_name(value)
    if name is not None and _is_library_function(name, value):
        return {"function": name}
    if isinstance(value, dict):
        pairs = list(value.items())
        return {
            "dict": [
                [_encoded(k, handles, budget, depth + 1), _encoded(v, handles, budget, depth + 1)]
                for k, v in pairs
            ]
        }
    return _object(value, handles, budget, depth)


def _move_fields(move: Move) -> list[Any]:
    fields = (move.action, move.pos, move.reason, move.probability, move.score)
    return [_plain(field) for field in fields] + [
        [_plain(pos) for pos in move.numbers],
        [_plain(pos) for pos in move.constrained],
    ]


def _plain(value: object) -> Any:
    """A field of a move, as JSON (a position as a list)."""
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if (
        value is None
        or isinstance(value, (bool, int, str))
        or (isinstance(value, float) and math.isfinite(value))
    ):
        return value
    return shown(value)


def _object(value: object, handles: Handles, budget: _Budget, depth: int) -> Any:
    """An object that stays in the student's process: its type, repr, handle and read attributes."""
    out: dict[str, Any] = {
        "type": type(value).__name__[:80],
        "repr": shown(value),
        "handle": handles.handle(value),
    }
    for name in READ:
        try:
            found = getattr(value, name)
        except AttributeError:
            continue
        out[name] = _encoded(found, handles, budget, depth + 1)
    return {"object": out}


def decode_answer(data: Any) -> Any:
    """The student's answer as the grader holds it (see the module); raises :class:`Malformed` for
    anything :func:`encode_answer` does not write, or a board, view or move that is not valid."""
    try:
        return _decoded(data, _Budget(), 0)
    except (BoardError, TypeError, ValueError, KeyError, IndexError) as wrong:
        if isinstance(wrong, Malformed):
            raise
        raise Malformed(f"{type(wrong).__name__}: {wrong}") from None


def _decoded(data: Any, budget: _Budget, depth: int) -> Any:
    budget.take(depth)
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise Malformed(f"not a value: {shown(data)}")
    ((kind, inner),) = data.items()
    if kind == "float" and inner in ("nan", "inf", "-inf"):
        return float(inner)
    if kind == "board":
        return Board.from_dict(inner)
    if kind == "view":
        return View(*_list(inner, 5))
    if kind == "move":
        return _move(_list(inner, 7))
    if kind in ("tuple", "list", "set"):
        items = [_decoded(item, budget, depth + 1) for item in _list(inner)]
        return tuple(items) if kind == "tuple" else items if kind == "list" else _set(items)
    if kind == "dict":
        return {
            _key(_decoded(k, budget, depth + 1)): _decoded(v, budget, depth + 1) for k, v in _pairs(inner)
        }
    if kind == "object":
        return _foreign(inner, budget, depth)
    if kind == "function":
        return _library_function(inner)
    raise Malformed(f"not a value: {shown(data)}")


def _list(data: Any, length: int | None = None) -> list[Any]:
    if not isinstance(data, list) or (length is not None and len(data) != length):
        raise Malformed(f"not a list{'' if length is None else f' of {length}'}: {shown(data)}")
    return data


def _pairs(data: Any) -> list[tuple[Any, Any]]:
    return [(pair[0], pair[1]) for pair in (_list(item, 2) for item in _list(data))]


def _key(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        raise Malformed(f"a dict key that cannot be one: {shown(value)}") from None
    return value


def _set(items: list[Any]) -> set[Any]:
    return {_key(item) for item in items}


def _position(data: Any) -> Any:
    return tuple(data) if isinstance(data, list) else data


def _move(fields: list[Any]) -> Move:
    action, pos, reason, probability, score, numbers, constrained = fields
    return Move(
        action,
        _position(pos),
        reason,
        probability,
        score,
        tuple(_position(p) for p in _list(numbers)),
        tuple(_position(p) for p in _list(constrained)),
    )


def _foreign(data: Any, budget: _Budget, depth: int) -> Foreign:
    if not isinstance(data, dict):
        raise Malformed(f"not an object: {shown(data)}")
    kind, text, handle = data.get("type"), data.get("repr"), data.get("handle")
    if not (isinstance(kind, str) and isinstance(text, str) and isinstance(handle, int)):
        raise Malformed(f"not an object: {shown(data)}")
    history = _decoded(data["history"], budget, depth + 1) if "history" in data else ABSENT
    return Foreign(kind[:80], text[:SHOWN], handle, history)
