"""Seeds: 128 random bits by default, reproducible when given, refused when they cannot round-trip."""

from __future__ import annotations

from typing import Any

import pytest

from ipyminesweeper import SEED_BITS, Board, new_board, reveal


def test_default_seeds_are_128_random_bits() -> None:
    seeds = [new_board(9, 9, 10).seed for _ in range(300)]
    assert len(set(seeds)) == 300
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    assert max(s.bit_length() for s in seeds) >= SEED_BITS - 2  # type: ignore[union-attr]
    assert sum(s.bit_length() > 100 for s in seeds) > 290  # type: ignore[union-attr]


@pytest.mark.parametrize("first_click", ["opening", "safe", "any", "no-guess"])
def test_an_explicit_seed_replays_the_same_game(first_click: str) -> None:
    def game(seed: int) -> bytes:
        return reveal(new_board("intermediate", seed=seed, first_click=first_click), (7, 7)).mask

    assert game(2**SEED_BITS - 1) == game(2**SEED_BITS - 1)
    assert game(5) == game(5) and game(5) != game(6)


def test_the_layout_depends_on_everything_that_shapes_the_game() -> None:
    a = reveal(new_board(16, 16, 40, seed=9), (3, 3)).mask
    assert a != reveal(new_board(16, 16, 40, seed=9), (3, 4)).mask
    assert a != reveal(new_board(16, 16, 40, seed=9, first_click="safe"), (3, 3)).mask
    assert a[:100] != reveal(new_board(16, 16, 41, seed=9), (3, 3)).mask[:100]


@pytest.mark.parametrize(
    ("seed", "error"),
    [
        (-1, ValueError),
        (2**SEED_BITS, ValueError),
        (10**5000, ValueError),
        (1.5, TypeError),
        (True, TypeError),
        ("7", TypeError),
    ],
    ids=["negative", "2**128", "10**5000", "float", "bool", "str"],
)
def test_a_seed_that_cannot_round_trip_is_refused(seed: Any, error: type) -> None:
    with pytest.raises(error, match="seed must be"):
        new_board(9, 9, 10, seed=seed)


def test_the_largest_seed_round_trips_through_text_and_json() -> None:
    b = new_board(9, 9, 10, seed=2**SEED_BITS - 1)
    assert Board.from_text(b.to_text()) == b and Board.from_text(b.to_text()).seed == b.seed
    assert Board.from_json(b.to_json()).seed == b.seed
    played = reveal(b, (4, 4))
    assert Board.from_json(played.to_json()).seed == 2**SEED_BITS - 1
