"""Wrong input, fuzzed over the public API (issue 17 item 6): every public function and widget method,
called with a wrong type or value in one of its arguments, either works (the value was fine after all)
or raises a TypeError or a ValueError (BoardError, GameOverError, InvalidMoveError are ValueErrors;
indexing may raise an IndexError, as Python's sequences do) whose message is a sentence, never Python's
own words for a crash inside ("'NoneType' object is not subscriptable", "unhashable type"), nor an
AttributeError; and the call changes nothing: the board, the arguments and the widget's session are as
they were."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipyminesweeper import (
    Board,
    Move,
    analyse,
    certain_moves,
    chord,
    deduce,
    exact,
    max_mines,
    new_board,
    probabilities,
    reveal,
    scored,
    simple,
    step,
    toggle_flag,
)
from ipyminesweeper.widget import Minesweeper

EXAMPLES = 1200

# Python's words for a crash inside a function: a clear error never says these.
CRASH_WORDS = (
    "has no attribute",
    "index out of range",
    "not subscriptable",
    "unsupported operand",
    "is not iterable",
    "cannot unpack",
    "not supported between instances",
    "object is not callable",
    "unhashable type",
    "missing 1 required positional argument",
)

_BOARD = reveal(new_board("beginner", seed=7), (4, 4))  # in play: numbers, covered cells, a view
_LOST = reveal(Board.from_text("*.\n.."), (0, 0))
_WIDGET = Minesweeper("beginner", seed=7)
_WIDGET.reveal((4, 4))

wrong_values = st.one_of(
    st.sampled_from(
        [
            None,
            "",
            "3,4",
            "beginner!",
            [3, 4],
            (3,),
            (3, 4, 5),
            (-1, 0),
            (0, -1),
            (99, 99),
            (1.5, 2),
            (True, 0),
            ("3", "4"),
            (None, None),
            ((3, 4), 5),
            3,
            -1,
            0,
            10**30,
            3.5,
            math.nan,
            math.inf,
            True,
            b"\x00\x01",
            {},
            {"rows": 9},
            set(),
            object(),
            _BOARD,
            _BOARD.view,
            _LOST,
            Move("reveal", (0, 0)),
            print,
        ]
    ),
    st.text(max_size=12),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(-3, 12), max_size=3),
    st.tuples(st.integers(-3, 12), st.integers(-3, 12)),
)

# Each call puts the wrong value x in one argument; the others are right.
CALLS: dict[str, Callable[[Any], Any]] = {
    "reveal(board, x)": lambda x: reveal(_BOARD, x),
    "reveal(x, pos)": lambda x: reveal(x, (0, 0)),
    "reveal(board, 3, x)": lambda x: reveal(_BOARD, 3, x),  # type: ignore[call-arg]
    "toggle_flag(board, x)": lambda x: toggle_flag(_BOARD, x),
    "chord(board, x)": lambda x: chord(_BOARD, x),
    "reveal(lost, x)": lambda x: reveal(_LOST, x),
    "new_board(x)": lambda x: new_board(x),
    "new_board(x, 9, 10)": lambda x: new_board(x, 9, 10),
    "new_board(9, 9, x)": lambda x: new_board(9, 9, x),
    "new_board(size=x)": lambda x: new_board(size=x),
    "new_board(size=9, density=x)": lambda x: new_board(size=9, density=x),
    "new_board(9, 9, 10, seed=x)": lambda x: new_board(9, 9, 10, seed=x),
    "new_board(9, 9, 10, first_click=x)": lambda x: new_board(9, 9, 10, first_click=x),
    "max_mines(x, 9, 'safe')": lambda x: max_mines(x, 9, "safe"),
    "max_mines(9, 9, x)": lambda x: max_mines(9, 9, x),
    "Board.from_text(x)": lambda x: Board.from_text(x),
    "Board.from_json(x)": lambda x: Board.from_json(x),
    "Board.from_dict(x)": lambda x: Board.from_dict(x),
    "board.view[x]": lambda x: _BOARD.view[x],
    "board.state(x)": lambda x: _BOARD.state(x),
    "board.neighbours(x)": lambda x: _BOARD.neighbours(x),
    "probabilities(x)": lambda x: probabilities(x),
    "certain_moves(x)": lambda x: certain_moves(x),
    "analyse(x)": lambda x: analyse(x),
    "deduce(x)": lambda x: deduce(x),
    "simple(x)": lambda x: simple(x),
    "scored(x)": lambda x: scored(x),
    "exact(x)": lambda x: exact(x),
    "step(board, x)": lambda x: step(_BOARD, x),
    "step(x)": lambda x: step(x),
    "Move(x, pos)": lambda x: Move(x, (0, 0)),
    "Move('reveal', x)": lambda x: Move("reveal", x),
    "Move('reveal', pos, x)": lambda x: Move("reveal", (0, 0), x),
    "Move('reveal', pos, 'why', x)": lambda x: Move("reveal", (0, 0), "why", x),
    "w.reveal(x)": lambda x: _WIDGET.reveal(x),
    "w.flag(x)": lambda x: _WIDGET.flag(x),
    "w.chord(x)": lambda x: _WIDGET.chord(x),
    "w.reveal(3, x)": lambda x: _WIDGET.reveal(3, x),
    "w.history[x]": lambda x: _WIDGET.history[x],
    "w.step(x)": lambda x: _WIDGET.step(x),
    "w.send(x)": lambda x: _WIDGET.send(x),
    "Minesweeper(x)": lambda x: Minesweeper(x),
    "Minesweeper(size=x)": lambda x: Minesweeper(size=x),
    "Minesweeper(seed=x)": lambda x: Minesweeper(seed=x),
    "Minesweeper(strategy=x)": lambda x: Minesweeper(strategy=x),
}


def _snapshot(x: Any) -> Any:
    try:
        return copy.deepcopy(x)
    except Exception:  # a value that cannot be copied (e.g. a builtin): compared by identity below
        return x


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.sampled_from(sorted(CALLS)), wrong_values)
def test_wrong_input_gets_a_clear_error_and_changes_nothing(name: str, x: Any) -> None:
    before = (_BOARD, _LOST, _WIDGET.session)
    kept = _snapshot(x)
    expected: tuple[type[Exception], ...] = (TypeError, ValueError)
    if "[x]" in name:  # indexing: an IndexError or KeyError is the protocol (for, in), with a sentence
        expected += (LookupError,)
    try:
        CALLS[name](x)
    except expected as error:
        message = str(error)
        assert message and len(message) > 10, f"{name} with {x!r}: {type(error).__name__}({message!r})"
        crash = [w for w in CRASH_WORDS if w in message]
        assert not crash, f"{name} with {x!r}: a crash inside, not a clear error: {message}"
        assert _WIDGET.session is before[2], f"{name} with {x!r} raised but changed the widget"
    except Exception as error:  # anything else is a crash
        pytest.fail(f"{name} with {x!r} raised {type(error).__name__}: {error}")
    assert before[:2] == (_BOARD, _LOST)
    if kept is not x and isinstance(x, (list, dict, set)):
        assert x == kept, f"{name} changed its argument {kept!r} into {x!r}"
    if _WIDGET.session is not before[2]:  # a call that worked: put the widget back for the next example
        _restore()


def _restore() -> None:
    global _WIDGET
    _WIDGET = Minesweeper("beginner", seed=7)
    _WIDGET.reveal((4, 4))


def test_the_fuzz_reaches_every_call() -> None:
    """Every call in the table can fail with a clear error: one known wrong value each."""
    for call in CALLS.values():
        with pytest.raises((TypeError, ValueError)):
            call(object())
