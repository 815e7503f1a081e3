"""Strategies: they read only the view, their certain moves are really certain, and stepping is pure."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import Board, GameOverError, View, new_board, reveal, toggle_flag
from ipyminesweeper.arena import play
from ipyminesweeper.solver import analyse, certain_moves, local_rules
from ipyminesweeper.strategies import (
    STRATEGIES,
    InvalidMoveError,
    Move,
    Scored,
    Strategy,
    exact,
    exact_flags,
    opening_cell,
    register_strategy,
    scored,
    simple,
    step,
)
from ipyminesweeper.strategies.endgame import best_endgame_move

BUILTIN: list[Strategy] = [simple, scored, exact, exact_flags]


class BareView:
    """A view with exactly the five fields a player sees; reading anything else fails the test."""

    __slots__ = ("cells", "cols", "mines", "rows", "status")

    def __init__(self, view: View) -> None:
        self.rows, self.cols, self.mines = view.rows, view.cols, view.mines
        self.status, self.cells = view.status, view.cells

    def __getattr__(self, name: str) -> object:  # only called for missing attributes
        raise AssertionError(f"a strategy read view.{name}, which a player's view does not have")


def random_position(seed: int, level: str = "beginner", reveals: int = 3) -> Board:
    """A seeded game after a few random safe reveals (positions no strategy chose)."""
    rng = random.Random(seed)
    board = reveal(new_board(level, seed=seed), (rng.randrange(9), rng.randrange(9)))
    for _ in range(reveals):
        covered = [p for p in board.covered() if not board.is_mine(p)]
        if board.over or not covered:
            break
        board = reveal(board, rng.choice(covered))
    return board


@pytest.mark.parametrize("strategy", BUILTIN, ids=lambda s: getattr(s, "__name__", repr(s)))
def test_strategies_read_only_the_players_view(strategy: Strategy) -> None:
    for seed in range(15):
        board = random_position(seed)
        if board.over:
            continue
        move = strategy(board.view)
        assert strategy(BareView(board.view)) == move  # type: ignore[arg-type]
        # the same view with the mines elsewhere: a strategy cannot tell the difference
        assert not hasattr(board.view, "minefield") and not hasattr(board.view, "mask")


def test_strategies_play_on_a_fresh_view() -> None:
    view = new_board("expert", seed=1).view
    assert exact(view) == Move("reveal", opening_cell(16, 30), exact(view).reason, None)
    assert opening_cell(16, 30) == (3, 3) and opening_cell(9, 9) == (2, 2)
    assert opening_cell(2, 3) == (0, 1)
    for strategy in BUILTIN:
        assert strategy(BareView(view)).action == "reveal"  # type: ignore[arg-type]


def _check_claims(board: Board, moves: list[Move]) -> int:
    claims = 0
    for move in moves:
        if move.probability == 0.0:
            assert not board.is_mine(move.pos), f"claimed safe but a mine: {move}\n{board}"
            assert "safe" in move.reason
            claims += 1
        elif move.probability == 1.0:
            assert board.is_mine(move.pos), f"claimed a mine but safe: {move}\n{board}"
            claims += 1
    return claims


def test_exact_certain_moves_are_really_certain_in_played_games() -> None:
    """Thousands of positions from seeded games: every claimed-safe (or mine) cell checked."""
    claims = positions = 0
    for level, games in (("beginner", 150), ("intermediate", 25)):
        for seed in range(games):
            board = reveal(new_board(level, seed=seed), opening_cell(9, 9))
            while not board.over:
                move = exact_flags(board.view)
                positions += 1
                claims += _check_claims(board, [move])
                board = toggle_flag(board, move.pos) if move.action == "flag" else reveal(board, move.pos)
    assert positions > 2000 and claims > 2000


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.tuples(st.integers(3, 10), st.integers(3, 10)),
    density=st.floats(0.05, 0.35),
    reveals=st.integers(0, 12),
)
def test_exact_certain_moves_are_safe_on_random_positions(
    seed: int, size: tuple[int, int], density: float, reveals: int
) -> None:
    rows, cols = size
    rng = random.Random(seed)
    board = new_board(rows, cols, density=density, seed=seed, first_click="safe")
    board = reveal(board, (rng.randrange(rows), rng.randrange(cols)))
    for _ in range(reveals):
        covered = [p for p in board.covered() if not board.is_mine(p)]
        if board.over or not covered:
            break
        board = reveal(board, rng.choice(covered))
    if board.over:
        return
    _check_claims(board, [exact_flags(board.view)])
    proved = certain_moves(board.view, complete=True)  # every cell the solver calls certain
    assert not any(board.is_mine(p) for p in proved.safe)
    assert all(board.is_mine(p) for p in proved.mines)
    move = exact(board.view)
    if move.probability == 0.0:
        assert not board.is_mine(move.pos)
    # the fast local rules used by the benchmarks are sound too
    cells = board.view.cells
    safe, mines = local_rules(cells, rows, cols, range(rows * cols))
    assert all(not board.mask[i] for i in safe)
    assert all(board.mask[i] for i in mines)
    # the endgame look-ahead enumerates exactly the solver's layouts, and reports true probabilities
    a = analyse(board.view)
    if a.layouts <= 200:
        proven = {r * cols + c for r, c in a.mines}
        found = a.layout_list(200)
        assert found is not None and len(found[1]) == a.layouts
        assert all(board.mask[i] for i in proven)
        truth = frozenset(i for i in found[0] if board.mask[i])
        assert truth in found[1]
        end = best_endgame_move(board.view, a)
        if end is not None:
            assert end.probability == pytest.approx(a.probabilities[end.pos])
            assert 0 < end.win <= 1 - end.probability + 1e-12


def test_simple_follows_the_single_point_rules() -> None:
    # The 1 at (0,0) touches one covered cell: flag it.
    view = View.from_text("1..", mines=1)
    move = simple(view)
    assert (move.action, move.pos, move.probability) == ("flag", (0, 1), 1.0)
    # The 1 at (0,2) already has its flag: reveal its other neighbour.
    view = View.from_text("1f1.", mines=1)
    move = simple(view)
    assert move.action == "reveal" and move.probability == 0.0 and move.pos == (0, 3)
    # nothing applies: the first covered cell, a guess
    view = View.from_text("...\n...", mines=1)
    assert simple(view) == Move("reveal", (0, 0), simple(view).reason, None)


def test_scored_sums_scores_and_falls_back_reproducibly() -> None:
    # column 2 covered, one mine: (0,2) scores 1/2 + 1/3, (1,2) 1/2 + 1/3 + 1/2, (2,2) 1/3 + 1/2
    view = View.from_text("01.\n01.\n01.", mines=1)
    move = scored(view)
    assert move.pos == (0, 2) and move.action == "reveal"  # a tie with (2,2): reading order
    assert move.score == pytest.approx(5 / 6) and move.probability is None  # a score, not a probability
    assert move.numbers == ((0, 1), (1, 1))
    fresh = new_board(9, 9, 10, seed=1).view
    assert scored(fresh) == scored(fresh)  # a pure function of the view
    picks = {Scored(seed)(fresh).pos for seed in range(10)}
    assert len(picks) > 1  # the seed is really used
    assert Scored(3) == Scored(3) and Scored(3)(fresh) == Scored(3)(fresh)
    assert scored(View.from_text("00.\n00.\n000", mines=0)).probability == 0.0


def test_exact_guesses_the_safest_cell() -> None:
    # A 1 with three covered neighbours in a corner region; mines elsewhere are much likelier to be far
    board = reveal(new_board("intermediate", seed=4), (3, 3))
    while not board.over:
        view = board.view
        move = exact(view)
        if move.probability:
            from ipyminesweeper.solver import probabilities

            probs = probabilities(view)
            assert move.probability == pytest.approx(min(probs.values()))
            assert "guess" in move.reason
            return
        board, _ = step(board)
    pytest.skip("no guess needed on this board")  # pragma: no cover


# --- step / play ---------------------------------------------------------------------------------


def test_step_is_pure_and_returns_the_move() -> None:
    board = new_board("beginner", seed=2)
    text = board.to_text()
    new, move = step(board, "exact")
    assert board.to_text() == text and board.status == "ready"
    assert new.status in ("playing", "won") and move.pos == (2, 2)
    again, move2 = step(board, exact)
    assert again == new and move2 == move


def _garbage(result: object):  # type: ignore[no-untyped-def]
    def strategy(view: object) -> object:
        return result

    return strategy


@pytest.mark.parametrize(
    "result, message",
    [
        (None, "not a Move"),
        (("reveal", (0, 0)), "not a Move"),
        (Move("reveal", (9, 0)), "off the board"),
        (Move("reveal", (4, 4)), "already revealed"),
        (Move("chord", (0, 0)), "not a revealed number"),
        (Move("flag", (4, 4)), "revealed"),
    ],
)
def test_step_rejects_garbage_and_changes_nothing(result: object, message: str) -> None:
    board = reveal(new_board(9, 9, 10, seed=7), (4, 4))
    assert board.view[(4, 4)] != "." and board.view[(0, 0)] == "."
    before = board.to_text()
    with pytest.raises(InvalidMoveError, match=message):
        step(board, _garbage(result))
    assert board.to_text() == before


@pytest.mark.parametrize(
    ("make", "error", "says"),
    [
        (lambda: Move("reveal", 3, 4), TypeError, r"write Move\('reveal', \(3, 4\)\)"),  # type: ignore[arg-type]
        (lambda: Move("reveal", [3, 4]), TypeError, r"write Move\('reveal', \(row, col\), reason\)"),  # type: ignore[arg-type]
        (lambda: Move("reveal", (0, 0.5)), TypeError, "a Move's pos is a"),  # type: ignore[arg-type]
        (lambda: Move("reveal", (True, 0)), TypeError, "a Move's pos is a"),
        (lambda: Move("explode", (0, 0)), ValueError, "a Move's action is one of 'reveal', 'flag', 'chord'"),  # type: ignore[arg-type]
        (lambda: Move("reveal", (0, 0), reason=3), TypeError, "a Move's reason is a str"),  # type: ignore[arg-type]
        (lambda: Move("reveal", (0, 0), probability=1.5), ValueError, "probability is a number from 0 to 1"),
        (lambda: Move("reveal", (0, 0), probability="low"), ValueError, "probability"),  # type: ignore[arg-type]
        (lambda: Move("flag", (0, 0), score="high"), ValueError, "a Move's score is a finite number or None"),  # type: ignore[arg-type]
        (lambda: Move("flag", (0, 0), score=10**400), ValueError, "score is a finite number"),
        (lambda: Move("flag", (0, 0), score=float("nan")), ValueError, "score is a finite number"),
        (lambda: Move("flag", (0, 0), numbers=[(1, 1)]), TypeError, "numbers is a tuple"),  # type: ignore[arg-type]
        (lambda: Move("flag", (0, 0), constrained=((1, "a"),)), TypeError, "position"),  # type: ignore[arg-type]
    ],
)
def test_a_move_checks_its_fields_when_it_is_made(make: Any, error: type, says: str) -> None:
    with pytest.raises(error, match=says):
        make()


def test_step_rejects_revealing_a_flag_and_a_useless_chord() -> None:
    board = toggle_flag(reveal(new_board(9, 9, 10, seed=7), (4, 4)), (0, 0))
    with pytest.raises(InvalidMoveError, match="flagged"):
        step(board, _garbage(Move("reveal", (0, 0))))
    numbers = [p for p in board.positions() if board.view[p] in "12345678"]
    with pytest.raises(InvalidMoveError, match="chord"):
        step(board, _garbage(Move("chord", numbers[0])))


def test_step_on_a_finished_game_raises() -> None:
    board, _ = play(new_board("beginner", seed=0), exact)
    assert board.over
    with pytest.raises(GameOverError):
        step(board, exact)


def test_play_stops_at_max_moves_and_at_the_end() -> None:
    board = new_board("intermediate", seed=5)
    partial, moves = play(board, simple, max_moves=3)
    assert len(moves) == 3 or partial.over
    final, moves = play(board, simple)
    assert final.over and len(moves) >= 1


def test_exact_flags_flags_proved_mines_and_wins_the_same() -> None:
    flagged = 0
    for seed in range(10):
        board = new_board("beginner", seed=seed)
        a, _ = play(board, exact)
        b, moves = play(board, exact_flags)
        assert a.status == b.status
        for move in moves:
            if move.action == "flag":
                assert b.is_mine(move.pos) and move.probability == 1.0
                flagged += 1
    assert flagged > 0


def test_register_strategy() -> None:
    def mine(view: object) -> Move:
        return simple(view)  # type: ignore[arg-type]

    try:
        assert register_strategy("test-mine", mine) is mine
        assert STRATEGIES["test-mine"] is mine
        _board, move = step(new_board("beginner", seed=1), "test-mine")
        assert move.pos == (0, 0)
        with pytest.raises(ValueError, match="built-in"):
            register_strategy("exact", mine)
        with pytest.raises(ValueError, match="already"):
            register_strategy("test-mine", simple)
        register_strategy("test-mine", simple, replace=True)
        with pytest.raises(TypeError):
            register_strategy("x", 3)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="unknown strategy"):
            step(new_board("beginner", seed=1), "no-such-strategy")
    finally:
        STRATEGIES.pop("test-mine", None)


def test_move_is_frozen_and_explains_itself() -> None:
    move = Move("reveal", (1, 2), "(1,2) is safe: because", 0.0)
    with pytest.raises(AttributeError):
        move.pos = (0, 0)  # type: ignore[misc]
    assert str(move) == "reveal (1,2): (1,2) is safe: because"
    assert not move.is_guess and replace(move, probability=0.2).is_guess


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.tuples(st.integers(1, 7), st.integers(1, 7)),
    density=st.floats(0.0, 0.35),
    first_click=st.sampled_from(["opening", "safe", "any", "no-guess"]),
    name=st.sampled_from(["simple", "scored", "exact", "exact-flags"]),
)
def test_every_builtin_finishes_any_small_game(
    seed: int, size: tuple[int, int], density: float, first_click: str, name: str
) -> None:
    rows, cols = size
    try:
        board = new_board(rows, cols, density=density, seed=seed, first_click=first_click)
        final, moves = play(board, name, max_moves=4 * rows * cols)
    except ValueError as exc:  # a no-guess layout may not exist on a tiny dense board
        assert "deduction alone" in str(exc)
        return
    assert final.over, f"{name} did not finish:\n{final}"
    if first_click == "no-guess" and name == "exact":
        assert final.status == "won" and not any(m.is_guess for m in moves[1:])


def test_exact_ignores_player_flags_and_unflags_a_proved_safe_cell() -> None:
    board = reveal(new_board("beginner", seed=3), (2, 2))
    # flag every covered safe cell next to the opening: wrong flags the strategy must see through
    wrong = [p for p in board.covered() if not board.is_mine(p)]
    for p in wrong:
        board = toggle_flag(board, p)
    board, move = step(board, exact)
    assert move.action == "flag" and move.probability == 0.0
    r, c = move.pos
    assert move.reason.startswith(f"unflag ({r},{c}), to reveal it next: ({r},{c}) is safe: ")
    assert not board.is_mine(move.pos) and board.view[move.pos] == "."


@pytest.mark.parametrize("strategy", [simple, scored, exact])
def test_unflagging_is_worded_one_way(strategy: Any) -> None:
    """With only flagged cells left, every strategy unflags one, in the same words."""
    board = reveal(new_board("beginner", seed=3), (2, 2))
    for p in board.covered():
        board = toggle_flag(board, p)
    move = strategy(board.view)
    r, c = move.pos
    assert move.action == "flag" and move.reason.startswith(f"unflag ({r},{c}), to reveal it next: ")
    assert strategy is exact or move.reason.endswith("no covered cell is left")
    final, _ = play(board, exact)
    assert final.over


def test_simple_names_the_number_and_the_cells_of_its_reason() -> None:
    move = simple(View.from_text("1f1.", mines=1))
    assert move.numbers == ((0, 2),) and move.constrained == ((0, 3), (0, 1))
    move = simple(View.from_text("1..", mines=1))
    assert move.numbers == ((0, 0),) and move.constrained == ((0, 1),)
