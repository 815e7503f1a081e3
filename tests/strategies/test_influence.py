"""Hill's long-term risk (``strategies/influence.py``): a cell's 50/50 influence, as his JSMinesweeper
counts it.

The reference numbers are those his solver printed for the same position (its verbose log, run through
``benchmarks/hill/js``): expert board 4100000001 of ``benchmarks/boards_file.py`` after the first click
at (0, 0), a 1 in the corner.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TypedDict

import pytest

from ipyminesweeper import View, analyse, exact, step
from ipyminesweeper.engine import Position
from ipyminesweeper.strategies.guess import one_region
from ipyminesweeper.strategies.influence import INFLUENCE_WEIGHT, fifty_fifty_influence, influence_factor
from ipyminesweeper.strategies.move_words import guessed

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.boards_file import generate, to_board


class _GuessDetails(TypedDict):
    """The keyword arguments of guessed that these tests keep the same."""

    dead: bool
    likely: int
    proves: tuple[Position, ...]
    safety: float


def _corner_one() -> View:
    return to_board(generate(4100000001, 16, 30, 99, (0, 0), "safe")).view


def test_the_factor_is_his_on_a_real_position() -> None:
    view = _corner_one()
    assert view.cells[:2] == "1."
    a = analyse(view)
    # his log: "50/50 influence = 1.0215838" for the far corners, 1.0041229 next to the 1 (6 decimals)
    for pos, his in (((0, 29), 1.0215838), ((15, 0), 1.0215838), ((0, 2), 1.0041229), ((2, 0), 1.0041229)):
        assert influence_factor(view, a, pos) == pytest.approx(his, abs=2e-6)
    # a cell inside the board: its pairs and blocks have covered cells all round, more than 3 of them
    assert influence_factor(view, a, (8, 15)) == 1.0


def test_the_influence_is_capped_and_weighs_the_safe_layouts() -> None:
    view = _corner_one()
    a = analyse(view)
    influence = fifty_fifty_influence(view, a, (0, 29))
    as_mine = a.layouts_with([(0, 29)])
    assert 0 < influence <= min(as_mine, a.layouts - as_mine)
    factor = influence_factor(view, a, (0, 29))
    assert factor == pytest.approx(1 + INFLUENCE_WEIGHT * influence / (a.layouts - as_mine))


def test_a_fifty_fifty_already_formed_counts_in_full() -> None:
    # the two 1s need one mine between the two cells below them, at the board's edge: a 50/50 in every
    # layout, counted once, with the first cell the mine
    view = View.from_text("11\n..", mines=1)
    a = analyse(view)
    assert fifty_fifty_influence(view, a, (1, 0)) == a.layouts_with([(1, 0)]) == 1
    assert influence_factor(view, a, (1, 0)) == pytest.approx(1 + INFLUENCE_WEIGHT)


def test_exact_weighs_influence_while_the_revealed_cells_are_one_region() -> None:
    # (against the variants that weigh never and always: tests/benchmarks/test_variants_weighs.py)
    move = exact(_corner_one())
    assert move.pos == (0, 29)  # his solvers' pick: a far corner
    assert "weighed up by 2.2% because it could be half of a 50/50 later" in move.reason
    # board 4100000002 after exact's first guess: two regions, so the look-ahead alone decides
    board = step(to_board(generate(4100000002, 16, 30, 99, (0, 0), "safe")), exact)[0]
    assert not one_region(board.view)
    move = exact(board.view)
    assert move.pos == (0, 27) and "weighed up" not in move.reason


def test_one_region_is_the_start_of_a_game() -> None:
    assert one_region(View.from_text("...\n...", mines=1))  # nothing revealed yet
    assert one_region(_corner_one())  # the first click's number alone
    assert one_region(View.from_text("01.\n01.\n...", mines=1))  # an opening: one region
    assert not one_region(View.from_text("1..\n...\n..1", mines=2))  # a guess away from it
    assert one_region(View.from_text("1..\n.1.\n..1", mines=2))  # diagonal neighbours join up


def test_the_reason_words_a_tiny_weight_plainly() -> None:
    common: _GuessDetails = {"dead": False, "likely": 1, "proves": (), "safety": 0.7}
    assert "weighed up" not in guessed((0, 0), 0.2, None, 1, **common)
    tiny = guessed((0, 0), 0.2, None, 1, weight=1 + 1e-9, **common)
    assert "weighed up by less than 0.1% because" in tiny
    assert "weighed up by 2.2% because" in guessed((0, 0), 0.2, None, 1, weight=1.0216, **common)
