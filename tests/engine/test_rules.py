"""Unit tests for the pure rules: new_board, reveal (+cascade), toggle_flag, chord, win and loss."""

from __future__ import annotations

import pytest

from ipyminesweeper import (
    LEVELS,
    Board,
    CellState,
    GameOverError,
    chord,
    idle_move,
    max_mines,
    new_board,
    reveal,
    toggle_flag,
)
from ipyminesweeper.engine.geometry import neighbour_positions

SMALL = """
.*...
.....
.....
"""


def board(text: str) -> Board:
    return Board.from_text(text)


# --- new_board -----------------------------------------------------------------------------------------


def test_new_board_is_ready_and_unplaced() -> None:
    b = new_board(16, 16, 40, seed=1)
    assert (b.rows, b.cols, b.mines, b.status) == (16, 16, 40, "ready")
    assert not b.placed
    assert b.seed == 1 and b.first_click == "opening"
    assert b.view.cells == "." * 256


@pytest.mark.parametrize(("level", "shape"), LEVELS.items())
def test_presets(level: str, shape: tuple[int, int, int]) -> None:
    b = new_board(level, seed=0)
    assert (b.rows, b.cols, b.mines) == shape


def test_expert_is_16_rows_by_30_cols() -> None:
    assert LEVELS["expert"] == (16, 30, 99)


def test_square_by_default_and_rectangular_boards() -> None:
    assert (new_board(7, mines=3, seed=0).cols) == 7
    b = reveal(new_board(4, 11, 5, seed=3), (2, 9))
    assert (b.rows, b.cols, b.mines) == (4, 11, 5)
    assert b.status in ("playing", "won")


def test_density_gives_a_mine_ratio() -> None:
    assert new_board(20, 20, density=0.15, seed=1).mines == 60
    assert new_board(10, 10, density=0.0, seed=1).mines == 0


def test_seed_none_draws_and_keeps_a_seed() -> None:
    b = new_board(9, 9, 10)
    assert isinstance(b.seed, int)
    again = reveal(new_board(9, 9, 10, seed=b.seed), (4, 4))
    assert reveal(b, (4, 4)) == again


@pytest.mark.parametrize("first", [(0, 0), (4, 4), (8, 8), (0, 8), (3, 7)])
def test_opening_first_click_has_no_mine_around(first: tuple[int, int]) -> None:
    for seed in range(30):
        b = reveal(new_board(9, 9, 30, seed=seed), first)
        assert b.count(first) == 0
        assert not b.is_mine(first)
        assert all(not b.is_mine(p) for p in b.neighbours(first))
        assert b.status in ("playing", "won")


def test_safe_first_click_only_protects_the_cell() -> None:
    touched = 0
    for seed in range(40):
        b = reveal(new_board(9, 9, 40, seed=seed, first_click="safe"), (4, 4))
        assert not b.is_mine((4, 4)) and b.status != "lost"
        touched += b.count((4, 4)) > 0
    assert touched > 0  # with 40 mines a neighbour is often mined: only the cell itself is protected


def test_any_places_mines_at_creation_and_may_lose_at_once() -> None:
    results = set()
    for seed in range(60):
        b = new_board(5, 5, 12, seed=seed, first_click="any")
        assert b.placed and b.status == "ready"
        results.add(reveal(b, (2, 2)).status)
    assert "lost" in results


def test_same_seed_and_first_click_same_board() -> None:
    a = reveal(new_board("expert", seed=99), (7, 7))
    b = reveal(new_board("expert", seed=99), (7, 7))
    c = reveal(new_board("expert", seed=99), (0, 0))
    assert a == b and hash(a) == hash(b)
    assert a.mask != c.mask


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((0, 5, 1), {}, ValueError, "rows must be at least 1"),
        ((5, -1, 1), {}, ValueError, "cols must be at least 1"),
        ((5.0, 5, 1), {}, TypeError, "rows must be an int"),
        ((5, 5, 17), {}, ValueError, "cannot fit"),
        ((9, 9, 73), {}, ValueError, "use 0 to 72 mines"),
        ((9, 9, 81), {"first_click": "safe"}, ValueError, "use 0 to 80"),
        ((3, 3, -1), {}, ValueError, "cannot fit"),
        ((9, 9, 10), {"first_click": "sometimes"}, ValueError, "unknown first_click"),
        ((9, 9, 10), {"density": 0.1}, TypeError, "not both"),
        ((9, 9), {"density": 1.5}, ValueError, "density must be"),
        ((9, 9, True), {}, TypeError, "mines must be an int"),
        (("huge",), {}, ValueError, "unknown level"),
        (("expert", 3), {}, TypeError, "level sets the size"),
        ((9, 9, 10), {"seed": "x"}, TypeError, "seed must be"),
        ((), {"size": "expert"}, TypeError, "size must be an int"),  # size= is a number, never a level
        ((), {"size": 3000}, ValueError, r"a 3000x3000 board \(size=3000\) has 9,000,000 cells"),
        ((3000, 2000, 1), {}, ValueError, r"a 3000x2000 board \(rows x cols\) has"),
        ((1, 9, 10), {}, ValueError, r"10 mines cannot fit a 1x9 board \(rows x cols\)"),
    ],
)
def test_new_board_rejects_bad_input(
    args: tuple[object, ...], kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        new_board(*args, **kwargs)  # type: ignore[arg-type]


def test_max_mines_depends_on_the_policy() -> None:
    assert max_mines(9, 9, "opening") == 72
    assert max_mines(2, 2, "opening") == 0
    assert max_mines(1, 5, "opening") == 2
    assert max_mines(9, 9, "safe") == 80
    assert max_mines(9, 9, "any") == 80


def test_densest_opening_board_still_opens() -> None:
    b = reveal(new_board(9, 9, 72, seed=5), (0, 0))
    assert b.status == "playing"
    assert not b.is_mine((0, 0))


# --- reveal and the cascade ----------------------------------------------------------------------------


def test_reveal_number_opens_one_cell() -> None:
    b = reveal(board(SMALL), (0, 0))
    assert b.state((0, 0)) is CellState.REVEALED
    assert b.view[(0, 0)] == "1"
    assert b.states.count(2) == 1


def test_reveal_zero_cascades_through_zeros_and_their_rims() -> None:
    b = reveal(board(SMALL), (2, 4))
    assert b.view.to_text() == "..100\n11100\n00000"
    assert b.status == "playing"


def test_cascade_stops_at_flags() -> None:
    flagged = toggle_flag(board(SMALL), (2, 0))
    b = reveal(flagged, (2, 4))
    assert b.state((2, 0)) is CellState.FLAGGED
    assert b.view[(2, 1)] == "0"


def test_reveal_mine_loses_and_shows_everything() -> None:
    start = toggle_flag(board(SMALL), (2, 2))  # a wrong flag
    b = reveal(start, (0, 1))
    assert b.status == "lost"
    assert b.exploded == (0, 1)
    assert b.view.to_text() == ".X...\n.....\n..x.."
    assert b.to_text() == ".X...\n.....\n..f.."


def test_loss_shows_unflagged_and_flagged_mines() -> None:
    b = board("*..\n...\n..*\n..*")
    b = toggle_flag(b, (2, 2))
    b = reveal(b, (0, 0))
    assert b.view.to_text() == "X..\n...\n..F\n..*"


def test_reveal_on_revealed_or_flagged_is_a_no_op() -> None:
    b = reveal(board(SMALL), (0, 0))
    assert reveal(b, (0, 0)) is b
    f = toggle_flag(b, (2, 2))
    assert reveal(f, (2, 2)) is f


def test_win_when_every_safe_cell_is_revealed_and_mines_get_flagged() -> None:
    b = reveal(board(SMALL), (2, 4))
    assert b.status == "playing"
    b = reveal(b, (0, 0))
    assert b.status == "won"
    assert b.to_text() == "1F100\n11100\n00000"
    assert b.flags_left == 0
    assert b.view.to_text() == "1F100\n11100\n00000"


def test_flags_are_not_required_to_win() -> None:
    b = board("*.\n..")
    for pos in [(0, 1), (1, 0), (1, 1)]:
        b = reveal(b, pos)
    assert b.status == "won"


def test_zero_mine_board_wins_at_once() -> None:
    b = reveal(new_board(4, 6, 0, seed=0), (1, 1))
    assert b.status == "won"
    assert b.view.cells == "0" * 24


def test_moves_after_the_end_raise_and_change_nothing() -> None:
    lost = reveal(board(SMALL), (0, 1))
    before = lost.to_text()
    for move in (reveal, toggle_flag, chord):
        with pytest.raises(GameOverError, match="no more moves"):
            move(lost, (2, 2))
    assert lost.to_text() == before
    won = reveal(reveal(board(SMALL), (2, 4)), (0, 0))
    with pytest.raises(GameOverError):
        reveal(won, (0, 0))


@pytest.mark.parametrize(
    ("pos", "error"),
    [
        ((3, 0), ValueError),
        ((0, 5), ValueError),
        ((-1, 0), ValueError),
        ((0.5, 1), TypeError),
        ((True, 1), TypeError),
        ([0, 1], TypeError),
        ((0,), TypeError),
        ("a1", TypeError),
        (None, TypeError),
    ],
)
def test_bad_positions_are_rejected_everywhere(pos: object, error: type[Exception]) -> None:
    b = board(SMALL)
    for move in (reveal, toggle_flag, chord):
        with pytest.raises(error):
            move(b, pos)  # type: ignore[arg-type]
    with pytest.raises(error):
        b.state(pos)  # type: ignore[arg-type]


def test_off_board_message_says_the_range() -> None:
    with pytest.raises(ValueError, match=r"rows go 0\.\.2 and columns 0\.\.4"):
        reveal(board(SMALL), (9, 9))


def test_rules_reject_non_boards() -> None:
    with pytest.raises(TypeError, match=r"reveal\(board, pos\): board must be a Board, not str"):
        reveal("not a board", (0, 0))  # type: ignore[arg-type]


# --- flags ---------------------------------------------------------------------------------------------


def test_toggle_flag_round_trip_and_counter() -> None:
    b = new_board(9, 9, 10, seed=0)
    f = toggle_flag(b, (0, 0))
    assert f.state((0, 0)) is CellState.FLAGGED
    assert f.flags_left == 9 and f.view[(0, 0)] == "f"
    assert toggle_flag(f, (0, 0)) == b
    assert f.status == "ready"


def test_flag_on_revealed_cell_is_a_no_op() -> None:
    b = reveal(board(SMALL), (0, 0))
    assert toggle_flag(b, (0, 0)) is b


def test_over_flagging_makes_the_counter_negative() -> None:
    b = board("*.\n..")
    for pos in [(0, 0), (0, 1), (1, 0)]:
        b = toggle_flag(b, pos)
    assert b.flags_left == -2


# --- chord ---------------------------------------------------------------------------------------------


def test_chord_reveals_the_other_neighbours_when_flags_match() -> None:
    b = reveal(board(SMALL), (1, 1))
    b = toggle_flag(b, (0, 1))
    b = chord(b, (1, 1))
    assert b.view.to_text() == "1F100\n11100\n00000"
    assert b.status == "won"


def test_chord_without_matching_flags_is_a_no_op() -> None:
    b = reveal(board(SMALL), (1, 1))
    assert chord(b, (1, 1)) is b  # no flags
    over = toggle_flag(toggle_flag(b, (0, 1)), (0, 0))
    assert chord(over, (1, 1)) is over  # too many flags
    covered = board(SMALL)
    assert chord(covered, (1, 1)) is covered  # not revealed


def test_chord_with_a_wrong_flag_loses() -> None:
    b = reveal(board(SMALL), (1, 1))
    b = toggle_flag(b, (0, 0))  # wrong: the mine is at (0, 1)
    b = chord(b, (1, 1))
    assert b.status == "lost"
    assert b.exploded == (0, 1)
    assert b.view[(0, 0)] == "x"


def test_chord_on_zero_is_a_no_op() -> None:
    b = reveal(board(SMALL), (2, 4))
    assert chord(b, (2, 4)) is b


def test_chord_with_no_covered_neighbour_is_a_no_op_and_idle_move_says_why() -> None:
    b = board("1F1..\n111..\n....*")  # the corner 1 has its flag and no covered neighbour left
    assert chord(b, (0, 0)) is b
    assert idle_move(b, "chord", (0, 0)) == (
        "the 1 has 1 flag(s) and 0 covered cell(s) around it; "
        "a chord needs exactly as many flags as the number and a covered cell"
    )
    assert idle_move(b, "chord", (1, 1)) is None  # (1,1) still has covered neighbours
    assert idle_move(b, "reveal", (0, 1)) == "it is flagged (unflag it first)"
    assert idle_move(b, "reveal", (0, 0)) == "it is already revealed"
    assert idle_move(b, "flag", (0, 0)) == "it is revealed"
    assert idle_move(b, "flag", (0, 1)) is None  # unflagging changes the board
    assert idle_move(b, "chord", (2, 0)) == "it is not a revealed number"
    with pytest.raises(ValueError, match="unknown action 'dig'"):
        idle_move(b, "dig", (0, 0))
    with pytest.raises(ValueError, match="off the board"):
        idle_move(b, "reveal", (3, 0))
    lost = reveal(b, (2, 4))
    with pytest.raises(GameOverError):
        idle_move(lost, "reveal", (2, 0))


# --- the seeds' examples -------------------------------------------------------------------------------


def test_elm_seed_neighbour_counts_and_chord() -> None:
    # A 3x3 with one mine in the middle: every other cell shows 1; flagging it and chording any
    # number opens the rest.
    b = board("...\n.*.\n...")
    assert all(b.count(p) == 1 for p in b.positions() if p != (1, 1))
    b = toggle_flag(reveal(b, (0, 0)), (1, 1))
    b = chord(b, (0, 0))
    assert b.view.to_text() == "11.\n1f.\n..."
    for pos in [(0, 1), (1, 0), (2, 1)]:
        b = chord(b, pos)
    assert b.status == "won"


def test_haskell_seed_mine_ratio_and_uncover_all_zero_region() -> None:
    b = new_board(10, 10, density=0.1, seed=4)
    assert b.mines == 10
    opened = reveal(b, (5, 5))
    zeros = [p for p in opened.positions() if opened.view[p] == "0"]
    for p in zeros:  # every revealed zero has its neighbours revealed
        assert all(opened.state(q) is CellState.REVEALED for q in neighbour_positions(10, 10, p))


def test_clojure_seed_win_predicate() -> None:
    b = board("*.\n..")
    for pos in [(0, 1), (1, 0), (1, 1)]:
        assert b.status != "won"
        b = reveal(b, pos)
    assert b.status == "won"


def test_blazor_seed_status_sequence_and_mines_after_first_move() -> None:
    b = new_board(8, 8, 10, seed=11)
    assert b.status == "ready" and not any(b.mask)
    b = reveal(b, (0, 0))
    assert b.status == "playing" and sum(b.mask) == 10
    mine = next(p for p in b.positions() if b.is_mine(p))
    assert reveal(b, mine).status == "lost"
