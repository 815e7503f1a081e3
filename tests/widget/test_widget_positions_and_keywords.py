"""The widget's API teaches (issue 17 item 6): positions as the engine writes them, and unknown keywords
named."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from ipywidgets import Layout

from ipyminesweeper import Minesweeper, chord, new_board, reveal, toggle_flag


@pytest.mark.parametrize("method", ["reveal", "flag"])
def test_a_method_takes_row_and_col_or_one_tuple(method: str) -> None:
    spread, paired = Minesweeper("beginner", seed=3), Minesweeper("beginner", seed=3)
    after_spread = getattr(spread, method)(3, 4)
    after_paired = getattr(paired, method)((3, 4))
    assert after_spread == after_paired
    rule = reveal if method == "reveal" else toggle_flag
    assert after_paired == rule(new_board("beginner", seed=3), (3, 4))


def test_chord_takes_one_tuple_too() -> None:
    w = Minesweeper("beginner", seed=3)
    w.reveal((4, 4))
    number = next(p for p in w.board.positions() if w.view[p] in "12345678")
    assert w.chord(number) == chord(w.board, number)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda w: w.reveal(3),
            r"row 3 needs a column: write w\.reveal\(3, col\) or w\.reveal\(\(3, col\)\)",
        ),
        (lambda w: w.flag([3, 4]), r"not the list \[3, 4\]: write \(3, 4\)"),
        (lambda w: w.chord("3,4"), r"a position is a \(row, col\) tuple of two ints"),
        (lambda w: w.reveal((3, 4), 5), r"a position is a \(row, col\) tuple of two ints"),
        (lambda w: w.reveal(True, 4), r"a position is a \(row, col\) tuple of two ints"),
    ],
)
def test_a_wrong_position_says_how_to_write_it_and_changes_nothing(
    call: Callable[[Minesweeper], object], message: str
) -> None:
    w = Minesweeper("beginner", seed=3)
    before = w.session
    with pytest.raises(TypeError, match=message):
        call(w)
    assert w.session == before


@pytest.mark.parametrize(
    ("kwargs", "hint"),
    [
        ({"width": 30, "height": 16}, "did you mean rows=?"),  # the first unknown, by name
        ({"width": 30}, "did you mean cols=?"),
        ({"height": 16}, "did you mean rows=?"),
        ({"mine": 10}, "did you mean mines=?"),
        ({"colour": "red"}, ""),
    ],
)
def test_an_unknown_keyword_is_named_with_the_valid_ones(kwargs: dict[str, Any], hint: str) -> None:
    with pytest.raises(TypeError) as error:
        Minesweeper(**kwargs)
    text = str(error.value)
    assert f"unexpected keyword argument {sorted(kwargs)[0]!r}" in text
    assert hint in text
    for name in ("level", "size", "rows", "cols", "mines", "seed", "first_click", "layout"):
        assert name in text


def test_ipywidgets_own_traits_still_pass() -> None:
    w = Minesweeper("beginner", seed=1, layout=Layout(width="300px"))
    assert w.layout.width == "300px"
