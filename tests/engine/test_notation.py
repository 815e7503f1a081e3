"""Boards as data: text notation, JSON, reprs, views, queries, immutability."""

from __future__ import annotations

import dataclasses
import json

import pytest

from ipyminesweeper import Board, BoardError, View, new_board, reveal, toggle_flag

LOST = "1X1..\n.....\n..f.."


def test_text_round_trips_every_cell_kind() -> None:
    text = "*.f.\nF...\n111.\n001*"
    b = Board.from_text(text)
    assert b.to_text() == text
    assert b.mines == 3 and b.status == "playing"


def test_unplaced_board_text_has_a_header_and_round_trips() -> None:
    b = toggle_flag(new_board(3, 4, 2, seed=7, first_click="safe"), (0, 0))
    text = b.to_text()
    assert text == "# mines=2 seed=7 first_click=safe\nf...\n....\n...."
    assert Board.from_text(text) == b


def test_lost_board_round_trips_with_its_exploded_mine() -> None:
    b = Board.from_text(LOST)
    assert b.status == "lost" and b.exploded == (0, 1)
    assert Board.from_text(b.to_text()) == b


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "at least one row"),
        ("..\n...", "row 1 has 3 cells but row 0 has 2"),
        ("..\n.?", r"\(1,1\): unknown cell '\?'"),
        ("*3\n..", r"\(0,1\): the digit 3 is wrong, that cell touches 1 mine"),
        ("X.\n.X", r"\(1,1\): a second exploded mine"),
        ("# mines=2 seed=1 first_click=safe\n*.", "no mines placed yet"),
        ("# mines=9 seed=1 first_click=opening\n..\n..", "mines must be an int from 0 to 3"),
        ("# mines=2 seed=1 first_click=opening\n..\n..", "cannot fit"),
        ("# mines=x seed=1 first_click=safe\n..", "non-negative integer"),
        ("# size=3\n..", "expected 'mines=N"),
        ("# mines=1\n..", "lacks first_click, seed"),
        ("# mines=1 seed=1 first_click=maybe\n..\n..", "first_click must be one of"),
        ("# mines=1 seed=1 mines=2 first_click=safe\n..\n..", "expected 'mines=N"),
        ("..\n.9", "unknown cell '9'"),
    ],
)
def test_malformed_text_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        Board.from_text(text)


def test_from_text_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        Board.from_text(b"..")  # type: ignore[arg-type]


def test_json_round_trips_placed_and_unplaced_boards() -> None:
    for b in [
        new_board("expert", seed=3),
        reveal(new_board("expert", seed=3), (8, 8)),
        Board.from_text(LOST),
        new_board(5, 5, 5, seed=1, first_click="any"),
    ]:
        again = Board.from_json(b.to_json())
        assert again == b
        assert again.seed == b.seed and again.first_click == b.first_click
        assert again.status == b.status


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: "not json{", "not valid JSON"),
        (lambda d: json.dumps([1, 2]), "JSON object"),
        (lambda d: json.dumps({**d, "format": "chess"}), "not a saved board"),
        (lambda d: json.dumps({**d, "version": 99}), "not a saved board"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "grid"}), "lacks the field"),
        (lambda d: json.dumps({**d, "grid": "....."}), "'grid' has the wrong type"),
        (lambda d: json.dumps({**d, "grid": [1, 2]}), "list of strings"),
        (lambda d: json.dumps({**d, "rows": 3}), "the grid holds"),
        (lambda d: json.dumps({**d, "seed": "seven"}), "'seed' has the wrong type"),
        (lambda d: json.dumps({**d, "seed": -1}), "seed must be between 0 and 2\\*\\*128"),
        (lambda d: json.dumps({**d, "first_click": "x"}), "first_click must be one of"),
        (lambda d: json.dumps({**d, "grid": ["..3.", "....", "....", "...."]}), "digit 3 is wrong"),
    ],
)
def test_corrupt_json_is_rejected_clearly(mutate: object, message: str) -> None:
    b = reveal(new_board(4, 4, 2, seed=1, first_click="safe"), (0, 0))
    data = json.loads(b.to_json())
    with pytest.raises(BoardError, match=message):
        Board.from_json(mutate(data))  # type: ignore[operator]


def test_view_has_no_mine_information_while_playing() -> None:
    b = reveal(new_board("expert", seed=5), (8, 8))
    fields = {f.name for f in dataclasses.fields(View)}
    assert fields == {"rows", "cols", "mines", "status", "cells"}
    assert set(b.view.cells) <= set(".f012345678")
    assert "*" not in b.view.to_text()


def test_view_text_round_trips() -> None:
    for b in [reveal(new_board(9, 9, 10, seed=2), (4, 4)), Board.from_text(LOST)]:
        again = View.from_text(b.view.to_text(), mines=b.mines)
        assert again == b.view


def test_view_rejects_mine_characters_while_playing() -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        View(1, 2, 1, "playing", "*1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("." * 20_000_000, "at most 12,004,096 characters"),
        (".\n" * 4_000_001, "the limit is 4,000,000"),
        ("...\n.?.", r"\(1,1\): unknown view cell '\?'"),
        ("..\n.", "row 1 has 1 cells"),
        ("\n \n", "at least one row"),
    ],
)
def test_a_view_text_is_refused_by_size_before_it_is_read(text: str, message: str) -> None:
    """The size cap comes first: 20 M characters are refused unread (they took 32 s before the cap)."""
    with pytest.raises(ValueError, match=message):
        View.from_text(text, mines=1)


def test_reprs_are_readable_and_hide_the_mines() -> None:
    b = reveal(new_board(5, 5, 3, seed=2), (2, 2))
    text = repr(b)
    assert text.startswith("<Board 5x5, 3 mines, playing:")
    assert "*" not in text
    assert str(b) == b.view.to_text()
    assert repr(new_board(100, 100, 10, seed=1)) == "<Board 100x100, 10 mines, ready>"


def test_html_repr_is_a_static_table() -> None:
    html = reveal(new_board(5, 5, 3, seed=2), (2, 2))._repr_html_()
    assert html.startswith("<table") and html.count("<tr>") == 5 and html.count("<td") == 25
    assert "5&times;5, 3 mines, playing" in html


def test_queries() -> None:
    b = reveal(new_board(4, 4, 2, seed=1, first_click="safe"), (0, 0))
    assert b.neighbours((0, 0)) == ((0, 1), (1, 0), (1, 1))
    assert len(b.neighbours((1, 1))) == 8
    assert set(b.covered()) == {p for p in b.positions() if b.view[p] == "."}
    assert b.flags_left == 2
    assert len(list(b.positions())) == 16


def test_boards_are_frozen_and_hashable() -> None:
    b = new_board(9, 9, 10, seed=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.rows = 3  # type: ignore[misc]
    assert len({b, new_board(9, 9, 10, seed=1), new_board(9, 9, 10, seed=2)}) == 2


def test_undo_is_taking_an_older_value() -> None:
    history: tuple[Board, ...] = (new_board("beginner", seed=3),)
    history += (reveal(history[-1], (4, 4)),)
    history += (toggle_flag(history[-1], (0, 0)),)
    assert history[-2].state((0, 0)).name == "COVERED"
    assert history[0].status == "ready"
