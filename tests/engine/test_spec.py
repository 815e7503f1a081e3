"""GameSpec (engine/spec.py): the one reader of the kind of a game, for new_board, the widget, the picker's
message and the session."""

from __future__ import annotations

import pytest

import ipyminesweeper.widget.session_update as game
from ipyminesweeper import LEVELS, GameSpec, new_board
from ipyminesweeper.widget.effects import DrawSeed
from ipyminesweeper.widget.messages import MessageError, NewGameOf
from ipyminesweeper.widget.session_update import start, update


def test_every_form_reads_to_one_spec() -> None:
    assert GameSpec.parse("expert") == GameSpec.parse(level="expert") == GameSpec(*LEVELS["expert"])
    assert GameSpec.parse(16, 30, 99) == GameSpec.parse(rows=16, cols=30, mines=99)
    assert GameSpec.parse(size=10, density=0.2, first_click="safe") == GameSpec(10, 10, 20, "safe")
    assert GameSpec.parse() == GameSpec(16, 16, 40) and GameSpec.parse(size=16).mines == 40
    assert GameSpec.parse(seed=7).seed == 7 and GameSpec(9, 9, 10).level == "beginner"


def test_what_is_left_out_comes_from_the_game_it_replaces() -> None:
    like = GameSpec(20, 30, 100, "any", seed=5)
    assert GameSpec.parse(like=like) == GameSpec(20, 30, 100, "any"), "the seed is never taken"
    assert GameSpec.parse(first_click="safe", like=like) == GameSpec(20, 30, 100, "safe")
    assert GameSpec.parse("beginner", like=like) == GameSpec(9, 9, 10, "any")
    with pytest.raises(TypeError, match="need a size"):
        GameSpec.parse(density=0.1, like=like)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"level": "huge"},
        {"rows": 0, "cols": 5},
        {"rows": 5, "cols": 5, "mines": 25},
        {"first_click": "maybe"},
        {"seed": -1},
        {"size": 3, "rows": 3},
        {"mines": 3, "density": 0.1, "size": 9},
    ],
)
def test_new_board_and_the_spec_refuse_alike(kwargs: dict[str, object]) -> None:
    with pytest.raises((TypeError, ValueError)) as spec_error:
        GameSpec.parse(**kwargs)  # type: ignore[arg-type]
    with pytest.raises((TypeError, ValueError)) as board_error:
        new_board(**kwargs)  # type: ignore[arg-type]
    assert str(spec_error.value) == str(board_error.value)


def test_a_spec_builds_its_board() -> None:
    spec = GameSpec(9, 9, 10, "opening", seed=3)
    assert new_board(spec) == new_board(9, 9, 10, seed=3) and new_board(spec).seed == 3
    with pytest.raises(TypeError, match="takes nothing else"):
        new_board(spec, mines=3)


def test_the_pickers_message_is_read_with_the_spec_and_no_board_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(MessageError, match="unknown level"):
        NewGameOf(level="huge")
    s = start(new_board(9, 9, 10, seed=1, first_click="safe"))

    def built(*args: object, **kwargs: object) -> None:
        raise AssertionError("a board was built to check the kind")

    monkeypatch.setattr(game, "new_board", built)
    _, effects = update(s, NewGameOf(rows=5, cols=5, mines=24))
    assert effects == (DrawSeed(NewGameOf(None, 5, 5, 24, "safe")),), "the current game's first click"
    with pytest.raises(ValueError, match="cannot fit"):
        update(s, NewGameOf(rows=5, cols=5, mines=25))
