"""The exercises' plumbing, quickly (the wrong-solution tests are in the other test_exercise_* files):
a Check is truthy or holds a drawn counterexample, the same function gets the same verdict twice, a
function that raises is shown with its own traceback, and `import ipyminesweeper` stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest
from _wrong import checked, counterexample_of
from hypothesis import HealthCheck, given, settings

from ipyminesweeper import Board, CellState, Position, View, chord, reveal
from ipyminesweeper.exercises import boards, check_chord, games, layouts, situations, views
from ipyminesweeper.exercises.generate import Rule


def test_importing_the_package_does_not_import_hypothesis() -> None:
    code = "import sys, ipyminesweeper; print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # slow on a busy machine
@given(boards())
def test_boards_are_in_play_and_small(board: Board) -> None:
    assert board.status in ("ready", "playing")
    assert board.rows <= 6 and board.cols <= 6


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # slow on a busy machine
@given(layouts())
def test_layouts_are_ready(board: Board) -> None:
    assert board.status == "ready"


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # slow on a busy machine
@given(views(max_unknown=8))
def test_small_views_have_few_unknown_cells(view: View) -> None:
    assert sum(ch in ".f" for ch in view.cells) <= 8


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # slow on a busy machine
@given(games())
def test_games_are_moves_on_the_board(game: tuple[Board, list[tuple[Rule, Position]]]) -> None:
    start, moves = game
    assert all(0 <= r < start.rows and 0 <= c < start.cols for _, (r, c) in moves)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # slow on a busy machine
@given(situations())
def test_situations_are_positions_on_the_board(example: tuple[Board, Position]) -> None:
    board, (r, c) = example
    assert 0 <= r < board.rows and 0 <= c < board.cols


def chord_on_covered_cells(board: Board, pos: Position) -> Board:
    """Forgets to check that the cell is revealed."""
    around = board.neighbours(pos)
    flags = sum(1 for p in around if board.state(p) is CellState.FLAGGED)
    if board.count(pos) == 0 or flags != board.count(pos):
        return board
    for p in around:
        if board.state(p) is CellState.COVERED and not board.over:
            board = reveal(board, p)
    return board


def test_the_same_function_gets_the_same_verdict() -> None:
    first = checked(check_chord, chord_on_covered_cells, tries=60)  # the one the next test looks at
    second = check_chord(chord_on_covered_cells, tries=60)  # searched again
    assert not first and second is not first and str(first) == str(second)


def test_a_check_draws_its_counterexample() -> None:
    check = checked(check_chord, chord_on_covered_cells, tries=60)
    example = counterexample_of(check)
    assert example.call.startswith("chord_on_covered_cells(board, (")
    assert [p.caption for p in example.panels] == ["start", "yours", "expected"]
    assert example.got != example.expected == chord(*example.inputs)
    assert any(p.marked for p in example.panels) and any(p.focus for p in example.panels)
    text, page = str(check), check._repr_html_()
    assert text.startswith("✗ chord_on_covered_cells fails the chord check: 3 of 4 properties hold.")
    assert "[" in text and "<" in text  # the differing cells, and the cell of the move
    assert "outline:2px solid #d92d20" in page and "outline:2px solid #2563eb" in page


def raising_chord(board: Board, pos: Position) -> Board:
    nothing: dict[Position, Board] = {}
    return nothing[pos]  # KeyError


def test_a_function_that_raises_is_a_difference_with_its_traceback() -> None:
    check = check_chord(raising_chord, tries=20)
    example = counterexample_of(check)
    assert example.summary.startswith("it raised KeyError")
    lines = example.traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "raising_chord" in lines[1] and "search.py" not in example.traceback  # starts in your code
    assert example.board is not None
    assert example.board.rows * example.board.cols == 1  # a 1x1 board is enough


def test_a_passing_check_says_what_it_tried() -> None:
    check = check_chord(chord, tries=60)
    assert check and check.counterexample is None and check.tried > 20
    assert str(check).startswith(f"✓ chord passes the chord check: {check.tried} examples tried.")


def test_a_check_needs_a_function() -> None:
    with pytest.raises(TypeError, match=r"needs a function"):
        check_chord(None)  # type: ignore[arg-type]  # not a function, on purpose
