"""Board.changed and View.changed: the next board checked in proportion to the change (issue 19).

The rules make every next board with ``Board.changed``. These tests check that what it makes is exactly
what the full constructor makes of the same fields (the same board, the same counts, the same view), that
it refuses what the constructor refuses, with the constructor's words, and that a board from outside (the
constructor, pickling) is still checked whole.
"""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import EXAMPLES, games, play

from ipyminesweeper import Board, BoardError, View, chord, new_board, reveal, toggle_flag
from ipyminesweeper.engine import place_mines
from ipyminesweeper.engine.board import CellCounts
from ipyminesweeper.engine.cells import COVERED, FLAGGED, REVEALED
from ipyminesweeper.engine.rules import BULK
from ipyminesweeper.engine.view import view_from_keys


def rebuilt(board: Board) -> Board:
    """The same board made by the full constructor (every cell checked, nothing cached)."""
    return Board(board.rows, board.cols, board.mines, board.states, board.minefield, board.exploded_index)


def fresh_counts(board: Board) -> CellCounts:
    return rebuilt(board).cell_counts


@given(games())
@EXAMPLES
def test_the_rules_make_what_the_constructor_makes(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    board, moves = game
    history = play(board, moves)
    for before, after in itertools.pairwise(history):
        before.view  # noqa: B018  (a view in hand: the next one is redrawn from it)
        whole = rebuilt(after)
        assert after == whole and after.status == whole.status
        assert after.cell_counts == fresh_counts(after)
        assert after.view == view_from_keys(after.rows, after.cols, after.mines, after.status, after.keys)
        assert (after.view.revealed, after.view.flags) == (whole.view.revealed, whole.view.flags)


@given(games(), st.data())
@EXAMPLES
def test_any_change_is_made_or_refused_as_the_constructor_would(
    game: tuple[Board, list],  # type: ignore[type-arg]
    data: st.DataObject,
) -> None:
    """Arbitrary changes (not only the rules'), forged ones included: changed() makes exactly the board the
    constructor makes of the changed states, or refuses with the constructor's words when it refuses."""
    board = play(*game)[-1]
    n = board.rows * board.cols
    any_state = st.sampled_from([COVERED, FLAGGED, REVEALED])
    cells = data.draw(st.lists(st.tuples(st.integers(0, n - 1), any_state)))
    exploded = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    states = bytearray(board.states)
    for index, state in cells:
        states[index] = state
    try:
        whole = Board(board.rows, board.cols, board.mines, bytes(states), board.minefield, exploded)
    except BoardError as refused:
        with pytest.raises(BoardError) as also:
            board.changed(cells, exploded_index=exploded)
        assert str(also.value) == str(refused)
        return
    after = board.changed(cells, exploded_index=exploded)
    assert after == whole and after.cell_counts == whole.cell_counts and after.status == whole.status
    assert after.view == whole.view


@given(games(), st.integers(1, 4))
@EXAMPLES
def test_a_view_read_now_and_then_is_the_view(game: tuple[Board, list], every: int) -> None:  # type: ignore[type-arg]
    """Boards whose view nobody read pass the redraw on: a view read later is still the board's view."""
    board, moves = game
    history = play(board, moves)
    history[0].view  # noqa: B018
    for k, after in enumerate(history[1:], 1):
        if k % every == 0:
            assert after.view == view_from_keys(after.rows, after.cols, after.mines, after.status, after.keys)


def test_a_cascade_over_many_cells_is_the_board_cell_by_cell() -> None:
    """A flood over more than one cell in BULK is checked whole: the same board, counts and view."""
    board = place_mines(new_board(60, 60, density=0.05, seed=2), 1830)
    board.view  # noqa: B018
    opened = reveal(board, (30, 30))
    flooded = opened.cell_counts.revealed
    assert flooded * BULK > 60 * 60, "a cascade big enough to be made whole"
    cells = [(i, REVEALED) for i in range(3600) if opened.states[i] == REVEALED]
    assert opened == board.changed(cells) == rebuilt(opened)
    assert opened.cell_counts == fresh_counts(opened) and opened.view == rebuilt(opened).view


def test_a_chord_that_floods_and_then_hits_a_mine_is_lost_whole() -> None:
    """A wrong flag: the chord opens its safe cells (a flood past one cell in BULK), then the mine."""
    board = place_mines(new_board(40, 40, 20, seed=1, first_click="safe"), 0)
    number = next(
        i
        for i in range(1600)
        if board.counts[i] == 1
        and not board.mask[i]
        and any(board.mask[j] for j in neighbours(board, i))
        and any(not board.mask[j] and not board.counts[j] for j in neighbours(board, i))
    )
    around = neighbours(board, number)
    mine = next(j for j in around if board.mask[j])
    wrong = next(j for j in around if not board.mask[j] and board.counts[j])
    opened = reveal(board, divmod(number, 40))
    flagged = toggle_flag(opened, divmod(wrong, 40))
    lost = chord(flagged, divmod(number, 40))
    assert lost.status == "lost" and lost.exploded_index == mine
    assert lost.cell_counts.revealed * BULK > 1600 and lost == rebuilt(lost)


def neighbours(board: Board, index: int) -> list[int]:
    r, c = divmod(index, board.cols)
    return [
        (r + dr) * board.cols + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < board.rows and 0 <= c + dc < board.cols
    ]


def playing() -> Board:
    return reveal(new_board(9, 9, 10, seed=4, first_click="any"), (0, 0))


def test_changed_refuses_what_the_constructor_refuses() -> None:
    board = new_board(9, 9, 10, seed=4, first_click="any")
    safe = next(i for i in range(81) if not board.mask[i])
    mine = board.mask.index(1)
    cases: list[tuple[Any, Any, str]] = [
        ([(81, REVEALED)], None, "index from 0 to 80"),
        ([(True, REVEALED)], None, "index from 0 to 80"),
        ([(safe, 3)], None, "0 .covered., 1 .flagged. or 2"),
        ([(safe, 1.0)], None, "0 .covered., 1 .flagged. or 2"),
        ([(mine, REVEALED)], None, "a revealed cell holds a mine, but exploded_index is None"),
        ([(safe, REVEALED)], safe, "exploded_index must be the one revealed mine"),
        ([(safe, REVEALED)], 99, "exploded_index must be None or a cell index"),
    ]
    for cells, exploded, says in cases:
        with pytest.raises(BoardError, match=says):
            board.changed(cells, exploded_index=exploded)
    every_safe = [(i, REVEALED) for i in range(81) if not board.mask[i]]
    with pytest.raises(BoardError, match="every mine flagged") as changed:
        board.changed(every_safe)
    states = bytearray(board.states)
    for i, s in every_safe:
        states[i] = s
    with pytest.raises(BoardError, match="every mine flagged") as whole:
        Board(9, 9, 10, bytes(states), board.minefield)
    assert str(changed.value) == str(whole.value)
    pending = new_board(9, 9, 10, seed=4)
    with pytest.raises(BoardError, match="not placed"):
        pending.changed([(0, REVEALED)])
    assert pending.changed([(0, FLAGGED)]).flags == 1


def test_changed_keeps_the_board_it_starts_from() -> None:
    board = playing()
    before = (board.states, board.cell_counts, board.view)
    covered = board.states.index(COVERED)
    after = board.changed([(covered, FLAGGED)])
    assert (board.states, board.cell_counts, board.view) == before
    assert after.flags == board.flags + 1 and after.view.flags == board.view.flags + 1
    assert after.changed([(covered, COVERED)]) == board
    assert board.changed([]) == board and board.changed([(covered, COVERED)]) == board


def test_a_board_from_outside_is_still_checked_whole() -> None:
    """The constructor and pickling check every cell: Board.changed is no way around them."""
    board = playing()
    mine = board.mask.index(1)
    states = bytearray(board.states)
    states[mine] = REVEALED
    with pytest.raises(BoardError, match="exploded_index is None"):
        Board(board.rows, board.cols, board.mines, bytes(states), board.minefield)
    forged = pickle.dumps(board).replace(board.states, bytes(states))
    with pytest.raises(BoardError, match="exploded_index is None"):
        pickle.loads(forged)
    flagged = toggle_flag(board, divmod(mine, 9))
    assert pickle.loads(pickle.dumps(flagged)) == flagged


def test_view_changed_checks_the_live_view_it_makes() -> None:
    view = playing().view
    covered = view.cells.index(".")
    assert view.changed({covered: "f"}, "playing").flags == view.flags + 1
    with pytest.raises(ValueError, match="cannot hold the character"):
        view.changed({covered: "*"}, "playing")
    with pytest.raises(ValueError, match="unknown view cell"):
        view.changed({covered: "?"}, "playing")
    with pytest.raises(ValueError, match="index from 0"):
        view.changed({81: "f"}, "playing")
    with pytest.raises(ValueError, match="a ready view has no revealed cell"):
        view.changed({}, "ready")
    only = View(1, 3, 0, "playing", "1..")
    with pytest.raises(ValueError, match="a playing view has a revealed cell"):
        only.changed({0: "."}, "playing")
    assert View(1, 3, 0, "playing", "12.").changed({0: "."}, "playing").revealed == 1
    full = View(1, 3, 2, "playing", "1..")
    with pytest.raises(ValueError, match="mines must be an int from 0 to the 1"):
        full.changed({1: "1"}, "playing")
    with pytest.raises(ValueError, match="a lost view has exactly one exploded mine"):  # built whole
        view.changed({covered: "*"}, "lost")
