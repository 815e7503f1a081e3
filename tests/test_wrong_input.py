"""Wrong input, fuzzed over the public API (issue 17 item 6): every public function and widget method,
called with a wrong type or value in one of its arguments, either works (the value was fine after all)
or raises a TypeError or a ValueError (BoardError, GameOverError, InvalidMoveError are ValueErrors;
indexing may raise an IndexError, as Python's sequences do) whose message is a sentence that names the
argument that was wrong (its parameter, or a word the table below maps to it: a "position"), never
Python's own words for a crash inside ("'NoneType' object is not subscriptable", "unhashable type"), nor
an AttributeError; and the call changes nothing: the board, the arguments and the widget's session are
as they were."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipyminesweeper import (
    Board,
    Move,
    analyse,
    bbbv,
    certain_moves,
    chord,
    deduce,
    exact,
    max_mines,
    new_board,
    probabilities,
    reveal,
    review,
    scored,
    simple,
    step,
    toggle_flag,
)
from ipyminesweeper.engine import GameOverError
from ipyminesweeper.engine.errors import quote
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

# Each call puts the wrong value x in one argument (the others are right), and says how an error message
# names that argument: its parameter's name first, then any word that names it as plainly (a position is
# also a "position", new_board's first argument a "level", what Board.from_json reads a "saved board").
POSITION = ("pos", "position")
CALLS: dict[str, tuple[Callable[[Any], Any], tuple[str, ...]]] = {
    "reveal(board, x)": (lambda x: reveal(_BOARD, x), POSITION),
    "reveal(x, pos)": (lambda x: reveal(x, (0, 0)), ("board",)),
    "reveal(board, 3, x)": (lambda x: reveal(_BOARD, 3, x), POSITION),  # type: ignore[arg-type]
    "toggle_flag(board, x)": (lambda x: toggle_flag(_BOARD, x), POSITION),
    "chord(board, x)": (lambda x: chord(_BOARD, x), POSITION),
    "reveal(lost, x)": (lambda x: reveal(_LOST, x), POSITION),
    "new_board(x)": (lambda x: new_board(x), ("rows", "level")),
    "new_board(x, 9, 10)": (lambda x: new_board(x, 9, 10), ("rows", "level")),
    "new_board(9, 9, x)": (lambda x: new_board(9, 9, x), ("mines",)),
    "new_board(size=x)": (lambda x: new_board(size=x), ("size",)),
    "new_board(size=9, density=x)": (lambda x: new_board(size=9, density=x), ("density",)),
    "new_board(9, 9, 10, seed=x)": (lambda x: new_board(9, 9, 10, seed=x), ("seed",)),
    "new_board(9, 9, 10, first_click=x)": (lambda x: new_board(9, 9, 10, first_click=x), ("first_click",)),
    "max_mines(x, 9, 'safe')": (lambda x: max_mines(x, 9, "safe"), ("rows",)),
    "max_mines(9, 9, x)": (lambda x: max_mines(9, 9, x), ("first_click",)),
    # the text's content: the row, the cell or the header line of it that is wrong
    "Board.from_text(x)": (lambda x: Board.from_text(x), ("text", "row", "cell", "cells", "header")),
    "Board.from_json(x)": (lambda x: Board.from_json(x), ("text", "JSON", "saved board")),
    "Board.from_dict(x)": (lambda x: Board.from_dict(x), ("data", "saved board")),
    "board.view[x]": (lambda x: _BOARD.view[x], POSITION),
    "board.state(x)": (lambda x: _BOARD.state(x), POSITION),
    "board.neighbours(x)": (lambda x: _BOARD.neighbours(x), POSITION),
    "probabilities(x)": (lambda x: probabilities(x), ("view",)),
    "certain_moves(x)": (lambda x: certain_moves(x), ("view",)),
    "analyse(x)": (lambda x: analyse(x), ("view",)),
    "deduce(x)": (lambda x: deduce(x), ("view",)),
    "simple(x)": (lambda x: simple(x), ("view",)),
    "scored(x)": (lambda x: scored(x), ("view",)),
    "exact(x)": (lambda x: exact(x), ("view",)),
    "step(board, x)": (lambda x: step(_BOARD, x), ("strategy",)),
    "bbbv(x)": (lambda x: bbbv(x), ("board",)),
    "review(x)": (lambda x: review(x), ("game",)),
    "step(x)": (lambda x: step(x), ("board",)),
    "Move(x, pos)": (lambda x: Move(x, (0, 0)), ("action",)),
    "Move('reveal', x)": (lambda x: Move("reveal", x), ("pos",)),
    "Move('reveal', pos, x)": (lambda x: Move("reveal", (0, 0), x), ("reason",)),
    "Move('reveal', pos, 'why', x)": (lambda x: Move("reveal", (0, 0), "why", x), ("probability",)),
    "w.reveal(x)": (lambda x: _WIDGET.reveal(x), ("row", "position")),
    "w.flag(x)": (lambda x: _WIDGET.flag(x), ("row", "position")),
    "w.chord(x)": (lambda x: _WIDGET.chord(x), ("row", "position")),
    "w.reveal(3, x)": (lambda x: _WIDGET.reveal(3, x), ("col", "column", "position")),
    "w.history[x]": (lambda x: _WIDGET.history[x], ("index",)),
    "w.step(x)": (lambda x: _WIDGET.step(x), ("strategy",)),
    "w.send(x)": (lambda x: _WIDGET.send(x), ("message",)),
    "Minesweeper(x)": (lambda x: Minesweeper(x), ("level",)),
    "Minesweeper(size=x)": (lambda x: Minesweeper(size=x), ("size",)),
    "Minesweeper(seed=x)": (lambda x: Minesweeper(seed=x), ("seed",)),
    "Minesweeper(strategy=x)": (lambda x: Minesweeper(strategy=x), ("strategy",)),
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
    run, _ = CALLS[name]
    try:
        run(x)
    except expected as error:
        _check_message(name, x, error)
        assert _WIDGET.session is before[2], f"{name} with {x!r} raised but changed the widget"
    except Exception as error:  # anything else is a crash
        pytest.fail(f"{name} with {x!r} raised {type(error).__name__}: {error}")
    assert before[:2] == (_BOARD, _LOST)
    if kept is not x and isinstance(x, (list, dict, set)):
        assert x == kept, f"{name} changed its argument {kept!r} into {x!r}"
    if _WIDGET.session is not before[2]:  # a call that worked: put the widget back for the next example
        _restore()


def _check_message(name: str, x: Any, error: Exception) -> None:
    """``error``'s message is a sentence, not a crash inside, and it names the argument x was passed as
    (or, for a finished game, the board: ``reveal(lost, x)`` with a good position blames the board)."""
    message = str(error)
    assert message and len(message) > 10, f"{name} with {x!r}: {type(error).__name__}({message!r})"
    crash = [w for w in CRASH_WORDS if w in message]
    assert not crash, f"{name} with {x!r}: a crash inside, not a clear error: {message}"
    names = ("board",) if isinstance(error, GameOverError) else CALLS[name][1]
    assert _says_any(message, x, names), (
        f"{name} with {x!r}: the message does not name {' or '.join(names)}: {message}"
    )


def _says_any(message: str, x: Any, words: tuple[str, ...]) -> bool:
    """Whether ``message`` says one of ``words`` as a word of its own, not only inside the value ``x`` it
    quotes, nor in "(row, col)" (what every position is, whichever argument was wrong), nor as a part of
    a longer name (``board.view`` is not the board)."""
    text = message.replace("(row, col)", " ")
    for shown in {repr(x), quote(x)}:
        text = text.replace(shown, " ")
    return any(re.search(rf"(?<![\w.]){re.escape(word)}(?!\w|\.\w)", text) for word in words)


def _restore() -> None:
    global _WIDGET
    _WIDGET = Minesweeper("beginner", seed=7)
    _WIDGET.reveal((4, 4))


def test_the_fuzz_reaches_every_call() -> None:
    """Every call in the table can fail with a clear error that names its argument: one known wrong
    value each."""
    x = object()
    for name, (run, _) in CALLS.items():
        with pytest.raises((TypeError, ValueError)) as raised:
            run(x)
        _check_message(name, x, raised.value)


@pytest.mark.parametrize(
    ("message", "words", "says"),
    [
        ("seed must be an int, not str 'x'", ("seed",), True),
        ("a position is a (row, col) tuple of two ints, not 3", ("col",), False),  # the shape, not a name
        ("unknown level 'rows'", ("rows",), False),  # the value quoted, not a name
        ("view: pass board.view", ("board",), False),  # board.view is not the board
        ("not a saved board: expected ...", ("saved board",), True),
    ],
)
def test_a_message_names_a_word_of_its_own(message: str, words: tuple[str, ...], says: bool) -> None:
    assert _says_any(message, "rows", words) is says
