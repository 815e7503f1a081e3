"""Every Board is valid: forged fields either make a board that round-trips and renders, or a BoardError.

The forger starts from a plausible board (a mine mask, states that mostly respect it) and then, half of
the time, corrupts one field with the kind of value a careless caller or a hostile saved file would hold.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import MAX_CELLS, Board, BoardError, new_board, reveal
from ipyminesweeper.engine import Minefield, PendingMines

POLICIES = ("opening", "safe", "any", "no-guess")
BAD_VALUES: list[Any] = [None, True, -1, 0, 1.5, "3", 10**7, 2**130, [1], b"\x01"]

Spoil = Callable[[Any], Any]
CORRUPTIONS: list[tuple[str, Spoil]] = [
    *[
        (f, lambda _old, v=v: v)
        for f in ("rows", "cols", "mines", "exploded", "seed", "policy")
        for v in BAD_VALUES
    ],
    ("rows", lambda old: old + 1),
    ("cols", lambda old: old - 1),
    ("mines", lambda old: old + 1),
    ("mines", lambda old: old - 1),
    ("exploded", lambda _old: 0),
    ("seed", lambda _old: -1),
    ("seed", lambda _old: 2**128),
    *[("policy", lambda _old, v=v: v) for v in ("maybe", "", "OPENING", "no_guess", "safe ")],
    ("states", bytearray),
    ("states", lambda old: old + b"\x00"),
    ("states", lambda old: old[:-1]),
    ("states", lambda old: old[:-1] + b"\x07"),
    ("states", lambda old: old[:-1] + b"\x03"),
    ("states", list),
    ("states", lambda old: old.decode()),
    ("mask", lambda old: old if old is None else bytearray(old)),
    ("mask", lambda old: old if old is None else old + b"\x00"),
    ("mask", lambda old: old if old is None else old[:-1] + b"\x02"),
    ("mask", lambda old: old if old is None else list(old)),
    ("mask", lambda _old: "1"),
]
"""(field, how to spoil it): the bad values a careless caller or a hostile saved file would hold."""


@st.composite
def forged(draw: st.DrawFn) -> dict[str, Any]:
    """The raw fields of a board: plausible, then (half the time) one field corrupted."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    n = rows * cols
    pending = draw(st.booleans()) and draw(st.booleans())
    fields: dict[str, Any] = {"rows": rows, "cols": cols, "exploded": None, "pending": pending}
    if pending:
        fields["seed"] = draw(st.integers(0, 2**128 - 1))
        fields["policy"] = draw(st.sampled_from(POLICIES))
        fields["states"] = bytes(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
        fields["mines"] = draw(st.integers(0, n))
    else:
        mask = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        states = [draw(st.sampled_from([0, 0, 1, 1, 2] if mine else [0, 1, 2, 2, 2])) for mine in mask]
        if any(mask) and draw(st.booleans()):  # a lost game: one revealed mine
            blown = draw(st.sampled_from([i for i, m in enumerate(mask) if m]))
            states = [0 if (m and s == 2) else s for m, s in zip(mask, states, strict=True)]
            states[blown] = 2
            fields["exploded"] = blown
        else:
            states = [0 if (m and s == 2) else s for m, s in zip(mask, states, strict=True)]
        fields["mask"] = bytes(mask)
        fields["states"] = bytes(states)
        fields["mines"] = sum(mask)
        fields["seed"] = draw(st.none() | st.integers(0, 2**128 - 1))
        fields["policy"] = draw(st.sampled_from(POLICIES))
    corruption = draw(st.sampled_from([None, *CORRUPTIONS]))
    if corruption is not None:
        field, spoil = corruption
        fields[field] = spoil(fields.get(field))
    return fields


def build(f: dict[str, Any]) -> Board:
    """A Board from forged fields, through the public constructors only."""
    if f["pending"]:
        field: Minefield | PendingMines = PendingMines(f["seed"], f["policy"])
    else:
        field = Minefield(f["rows"], f["cols"], f["mask"], f["seed"], f["policy"])
    return Board(f["rows"], f["cols"], f["mines"], f["states"], field, f["exploded"])


def check_valid(board: Board) -> None:
    """What every valid board must do: round-trip through text and JSON, and render."""
    assert Board.from_text(board.to_text()) == board
    again = Board.from_json(board.to_json())
    assert again == board and again.seed == board.seed and again.first_click == board.first_click
    assert dataclasses.replace(board) == board
    assert pickle.loads(pickle.dumps(board)) == board, "unpickled through the same check"
    view = board.view
    assert len(view.cells) == board.rows * board.cols
    if not board.over:
        assert set(view.cells) <= set(".f012345678"), "no mine shows while the game is on"
    assert repr(board) and str(board) and board._repr_html_()
    assert hash(board) == hash(Board.from_json(board.to_json()))


@settings(max_examples=1200, deadline=None)
@given(forged())
def test_a_forged_board_is_valid_or_a_board_error(fields: dict[str, Any]) -> None:
    try:
        board = build(fields)
    except BoardError:
        return
    check_valid(board)


def test_the_forger_makes_both_kinds() -> None:
    """Against a forger that only ever fails (or only succeeds): count both outcomes on 2,000 boards."""
    outcomes = {"valid": 0, "rejected": 0}
    for seed in range(2000):
        fields = _recipe(random.Random(seed))
        try:
            board = build(fields)
        except BoardError:
            outcomes["rejected"] += 1
            continue
        check_valid(board)
        outcomes["valid"] += 1
    assert outcomes["valid"] > 400 and outcomes["rejected"] > 400, outcomes


def _recipe(rng: random.Random) -> dict[str, Any]:
    """A simpler forger driven by a plain seeded generator, to count how often each outcome happens."""
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    n = rows * cols
    mask = [int(rng.random() < 0.3) for _ in range(n)]
    states = [rng.choice([0, 1, 2]) if not m else rng.choice([0, 1]) for m in mask]
    f: dict[str, Any] = {
        "rows": rows,
        "cols": cols,
        "mines": sum(mask),
        "states": bytes(states),
        "mask": bytes(mask),
        "exploded": None,
        "pending": False,
        "seed": rng.choice([None, rng.randrange(2**128)]),
        "policy": rng.choice(POLICIES),
    }
    if rng.random() < 0.5:
        field, spoil = rng.choice(CORRUPTIONS)
        f[field] = spoil(f[field])
    return f


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (
            lambda: Board(3, 3, 1, bytearray(9), Minefield(3, 3, bytes([1] + [0] * 8))),  # type: ignore[arg-type]
            "states must be bytes",
        ),
        (lambda: Board(3, 3, 1, bytes([7] + [0] * 8), Minefield(3, 3, bytes([1] + [0] * 8))), "states bytes"),
        (lambda: Board(-1, 3, 0, b"", PendingMines(1, "safe")), "rows must be at least 1"),
        (lambda: Board(0, 0, 0, b"", PendingMines(1, "safe")), "rows must be at least 1"),
        (lambda: Board(3, 3, 1, bytes(9), Minefield(3, 3, bytes([1] + [0] * 8)), 5), "exploded_index"),
        (
            lambda: Board(3, 3, 1, bytes([2] + [0] * 8), Minefield(3, 3, bytes([1] + [0] * 8))),
            "exploded_index",
        ),
        (lambda: Board(3, 3, 2, bytes(9), Minefield(3, 3, bytes([1] + [0] * 8))), "mines says 2"),
        (lambda: Board(3, 3, 9, bytes(9), PendingMines(1, "safe")), "mines must be an int from 0 to 8"),
        (lambda: Board(3, 3, 1, bytes(9), PendingMines(-5, "safe")), "seed must be between"),
        (lambda: Board(3, 3, 1, bytes(9), PendingMines(2**128, "safe")), "seed must be between"),
        (lambda: Board(3, 3, 1, bytes(9), "nope"), "minefield must be"),  # type: ignore[arg-type]
        (
            lambda: Board(2, 2, 1, bytes([2, 2, 2, 0]), Minefield(2, 2, bytes([0, 0, 0, 1]))),
            "every mine flagged",
        ),
        (lambda: Board(True, 3, 0, bytes(3), PendingMines(1, "safe")), "rows must be an int"),
    ],
)
def test_each_invariant_names_its_field(make: Any, field: str) -> None:
    with pytest.raises(BoardError, match=field):
        make()


def test_replace_is_checked_too() -> None:
    b = reveal(new_board(5, 5, 3, seed=1, first_click="safe"), (0, 0))
    with pytest.raises(BoardError, match="states"):
        dataclasses.replace(b, states=b.states[:-1])
    with pytest.raises(BoardError, match="exploded_index"):
        dataclasses.replace(b, exploded_index=b.index((0, 0)))


@pytest.mark.parametrize(
    ("rows", "cols"), [(10_000, 10_000), (2001, 2000), (10**12, 10**12), (MAX_CELLS + 1, 1)]
)
def test_the_size_cap_is_checked_before_anything_is_allocated(rows: int, cols: int) -> None:
    with pytest.raises(ValueError, match="the limit is 4,000,000"):
        new_board(rows, cols, 1)
    with pytest.raises(BoardError, match="the limit is 4,000,000"):
        Board(rows, cols, 1, b"", PendingMines(1, "safe"))


def test_the_biggest_board_allowed_works() -> None:
    b = new_board(2000, 2000, 1, seed=1)
    assert b.rows * b.cols == MAX_CELLS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"seed": ' + "9" * 5000 + "}", "too long for a board"),
        ("NaN", "not a number a board can hold"),
        ('"a string"', "JSON object"),
        (b"\xff\xfe", "not valid JSON"),
        (" " * (3 * MAX_CELLS + 5000), "at most"),
        (42, "JSON str or bytes"),
    ],
)
def test_hostile_json_is_a_board_error(text: Any, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board.from_json(text)


def test_wrong_json_types_are_board_errors() -> None:
    good = json.loads(reveal(new_board(4, 4, 2, seed=1, first_click="safe"), (0, 0)).to_json())
    bad: object
    for key in ("rows", "cols", "mines", "seed", "first_click", "placed", "grid"):
        for bad in (None, "x", 1.5, [], {}, True):
            if (key, bad) in (("seed", None), ("placed", True)):  # the values it already has
                continue
            with pytest.raises(BoardError):
                Board.from_json(json.dumps({**good, key: bad}))
