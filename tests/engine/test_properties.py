"""Property tests: the game's invariants hold on random boards under random sequences of moves."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import (
    Board,
    CellState,
    GameOverError,
    View,
    chord,
    idle_move,
    max_mines,
    new_board,
    reveal,
    toggle_flag,
)

EXAMPLES = settings(max_examples=200, deadline=None)

Rule = Callable[[Board, tuple[int, int]], Board]
RULES: dict[str, Rule] = {"reveal": reveal, "flag": toggle_flag, "chord": chord}


@st.composite
def games(draw: st.DrawFn) -> tuple[Board, list[tuple[str, tuple[int, int]]]]:
    """A fresh board and a list of moves on it."""
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(1, 12))
    first_click = draw(st.sampled_from(["opening", "safe", "any"]))
    mines = draw(st.integers(0, max_mines(rows, cols, first_click)))
    seed = draw(st.integers(0, 2**32 - 1))
    board = new_board(rows, cols, mines, seed=seed, first_click=first_click)
    position = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    # Reveals are the most common move, as in real play.
    action = st.sampled_from(["reveal", "reveal", "reveal", "flag", "chord"])
    moves = draw(st.lists(st.tuples(action, position), max_size=30))
    return board, moves


def play(board: Board, moves: list[tuple[str, tuple[int, int]]]) -> list[Board]:
    """Every board of the game, stopping when it ends."""
    history = [board]
    for action, pos in moves:
        if history[-1].over:
            break
        history.append(RULES[action](history[-1], pos))
    return history


def check_invariants(b: Board, ever_flagged: frozenset[tuple[int, int]] = frozenset()) -> None:
    n = b.rows * b.cols
    revealed = b.states.count(CellState.REVEALED.value)
    # Every revealed digit equals the true count; only an exploded mine is a revealed mine.
    for pos in b.positions():
        if b.state(pos) is CellState.REVEALED and not b.is_mine(pos):
            assert b.view[pos] == str(b.count(pos)) or b.over
            assert b.count(pos) == sum(b.is_mine(q) for q in b.neighbours(pos))
    # Every revealed zero has all its neighbours revealed. A flag protects its cell from the cascade
    # (as in the classic game), so a cell the player flagged and later unflagged may stay covered.
    for pos in b.positions():
        if b.state(pos) is CellState.REVEALED and not b.is_mine(pos) and b.count(pos) == 0:
            for q in b.neighbours(pos):
                assert b.state(q) is CellState.REVEALED or q in ever_flagged
    # won exactly when every safe cell is revealed.
    assert (b.status == "won") == (b.placed and revealed == n - b.mines and b.exploded is None)
    # A lost board holds exactly one exploded (revealed) mine.
    revealed_mines = sum(1 for p in b.positions() if b.is_mine(p) and b.state(p) is CellState.REVEALED)
    assert revealed_mines == (1 if b.status == "lost" else 0)
    # The view hides the mines while the game is on.
    if not b.over:
        assert set(b.view.cells) <= set(".f012345678")
    if b.status == "won":
        assert all(b.state(p) is CellState.FLAGGED for p in b.positions() if b.is_mine(p))
    assert b.mines == (sum(b.mask) if b.placed else b.mines)


@EXAMPLES
@given(games())
def test_invariants_hold_after_every_move(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    ever_flagged: set[tuple[int, int]] = set()
    for b in play(*game):
        ever_flagged |= {p for p in b.positions() if b.state(p) is CellState.FLAGGED}
        check_invariants(b, frozenset(ever_flagged))


@EXAMPLES
@given(games())
def test_rules_never_mutate_their_input(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    board, moves = game
    for action, pos in moves:
        snapshot = (board.states, board.minefield, board.exploded_index, board.to_text())
        try:
            after = RULES[action](board, pos)
        except GameOverError:
            after = board
        assert (board.states, board.minefield, board.exploded_index, board.to_text()) == snapshot
        board = after


@EXAMPLES
@given(games())
def test_text_and_json_round_trip(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    for b in play(*game):
        assert Board.from_text(b.to_text()) == b
        again = Board.from_json(b.to_json())
        assert again == b and again.seed == b.seed and again.status == b.status
        assert View.from_text(b.view.to_text(), mines=b.mines).cells == b.view.cells


@EXAMPLES
@given(games())
def test_same_seed_and_moves_give_the_same_board(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    board, moves = game
    replay = new_board(board.rows, board.cols, board.mines, seed=board.seed, first_click=board.first_click)
    assert play(replay, moves) == play(board, moves)


@EXAMPLES
@given(games())
def test_moves_after_the_end_raise_and_change_nothing(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    last = play(*game)[-1]
    if not last.over:
        return
    for rule in RULES.values():
        try:
            rule(last, (0, 0))
        except GameOverError:
            pass
        else:  # pragma: no cover - the assertion is the failure
            raise AssertionError("a move on a finished game did not raise")


@EXAMPLES
@given(games())
def test_idle_move_says_why_exactly_when_a_move_changes_nothing(game: tuple[Board, list]) -> None:  # type: ignore[type-arg]
    """idle_move is the one statement of legality: it names a reason exactly when the rule leaves the
    board as it is, for every action on every cell of every board of the game."""
    for board in play(*game):
        if board.over:
            continue
        for action, rule in RULES.items():
            for pos in board.positions():
                why = idle_move(board, action, pos)
                assert (rule(board, pos) == board) == (why is not None), (action, pos, why)
