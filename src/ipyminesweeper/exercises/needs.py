"""Which of a student's functions have passed their check in this kernel, and ``needs``: a cell that
uses an exercise not finished yet says so in one sentence, and Run All goes on.

Every ``check_*`` of the course records its verdict for the function it was given (:func:`recorded`).
A notebook cell that demonstrates a student's function wraps the demonstration::

    with needs(my_replay):
        history = my_replay(small, game_moves)
        ...

While ``my_replay`` has not passed its check, an error inside the block is the unfinished exercise's,
not the cell's: the block stops, one sentence names the function to finish, and no traceback is shown.
Once it has passed, the block runs as plain code: an error there is a real one, with its traceback.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["has_passed", "needs", "record", "recorded"]

P = ParamSpec("P")
R = TypeVar("R")

_BY_FUNCTION: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
_BY_ID: dict[int, tuple[Any, bool]] = {}  # functions that take no weak reference, kept alive


def record(fn: object, passed: bool) -> None:
    """Remember the verdict of the latest check of ``fn``."""
    try:
        _BY_FUNCTION[fn] = passed
    except TypeError:
        _BY_ID[id(fn)] = (fn, passed)


def recorded(check: Callable[P, R]) -> Callable[P, R]:
    """``check``, recording its verdict (its truth) for the function it is given first."""

    @functools.wraps(check)
    def checking(*args: P.args, **kwargs: P.kwargs) -> R:
        verdict = check(*args, **kwargs)
        if args:
            record(args[0], bool(verdict))
        return verdict

    return checking


def has_passed(fn: object) -> bool:
    """Whether the latest check of ``fn`` in this kernel passed (False if it was never checked)."""
    try:
        return _BY_FUNCTION.get(fn, False)
    except TypeError:
        kept = _BY_ID.get(id(fn))
        return kept is not None and kept[0] is fn and kept[1]


def _name(fn: object) -> str:
    return str(getattr(fn, "__name__", None) or type(fn).__name__)


def unfinished(functions: tuple[object, ...]) -> str:
    """The sentence for a block that needs ``functions``, the ones that have not passed their check."""
    names = [f"`{_name(fn)}`" for fn in functions if not has_passed(fn)]
    if not names:
        return ""
    which = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb = "has" if len(names) == 1 else "have"
    return (
        f"This cell needs {which}, which {verb} not passed {'its' if len(names) == 1 else 'their'} check "
        "yet: finish that exercise first, then run this cell again."
    )


class needs:  # lower case: a context manager read as a sentence, ``with needs(my_replay):``
    """Run a block that uses the student's ``functions``: while one of them has not passed its check, an
    error in the block stops it with one sentence naming what to finish first, and no traceback."""

    def __init__(self, *functions: object) -> None:
        self.functions = functions

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: object) -> bool:
        if error is None or not isinstance(error, Exception):
            return False
        sentence = unfinished(self.functions)
        if sentence:
            print(sentence)
        return bool(sentence)
