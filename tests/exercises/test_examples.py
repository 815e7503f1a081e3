"""Where a check's examples come from: the seeded ones made once per kernel, the same as made afresh;
the smallest ones in order of size, as SmallCheck enumerates them."""

from __future__ import annotations

from collections.abc import Hashable
from functools import partial

from ipyminesweeper import Board, Position
from ipyminesweeper.exercises.draws import (
    PlannedSource,
    RejectedDraw,
    examples_once,
    seeded_examples,
    smallest_examples,
)
from ipyminesweeper.exercises.generate import Rule, draw_game, draw_layout, draw_view

Game = tuple[Board, list[tuple[Rule, Position]]]


def test_the_examples_made_once_are_the_ones_made_afresh_and_are_reused() -> None:
    build = partial(draw_view, max_rows=4, max_cols=5, max_unknown=8)
    first = examples_once(build, 50)
    assert first == tuple(seeded_examples(build, 50))
    again = examples_once(partial(draw_view, max_rows=4, max_cols=5, max_unknown=8), 50)  # a new partial
    assert again is first
    assert examples_once(build, 50, seed=18) != first  # another seed, other examples


def test_examples_with_a_list_in_them_are_reused_by_their_key_s_code() -> None:
    def key(example: Game) -> Hashable:
        return example[0], tuple(example[1])

    def same_key(example: Game) -> Hashable:
        return example[0], tuple(example[1])

    made = examples_once(draw_game, 30, key)
    assert examples_once(draw_game, 30, key) is made
    assert examples_once(draw_game, 30, same_key) is not made  # another function: its own examples


def test_the_smallest_examples_come_first() -> None:
    boards = list(smallest_examples(draw_layout, plans=300))
    cells = [b.rows * b.cols for b in boards]
    assert cells[0] == 1 and boards[0].to_text() == "."
    assert cells[:3] == sorted(cells[:3])
    assert len({b for b in boards}) == len(boards)  # distinct
    assert max(cells) <= 6  # 300 plans reach boards of a few cells only


def test_a_plan_out_of_range_is_no_example() -> None:
    source = PlannedSource((3,))
    try:
        source.integer(0, 2)
    except RejectedDraw:
        pass
    else:
        raise AssertionError("a choice of 3 from 0..2 was taken")
    assert PlannedSource(()).integer(4, 9) == 4  # past the plan: the low end
