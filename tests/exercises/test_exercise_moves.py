"""Notebook 02's checkers (chord, toggle_flag, replay): the reference passes; the mistakes students
really make fail, each with a small counterexample (5x5 at most), drawn as HTML and as text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import reduce
from itertools import accumulate

import pytest
from _wrong import assert_caught, assert_passes, checked, counterexample_of

from ipyminesweeper import Board, CellState, Position, chord, reveal, toggle_flag
from ipyminesweeper.exercises import check_chord, check_replay, check_toggle_flag, replay
from ipyminesweeper.exercises.generate import Rule

pytestmark = pytest.mark.slow

Moves = list[tuple[Rule, Position]]
Around = Callable[[Board, Position], Sequence[Position]]

REVEALED, FLAGGED, COVERED = CellState.REVEALED, CellState.FLAGGED, CellState.COVERED


# --- chord ---------------------------------------------------------------------------------------------


def solution_chord(board: Board, pos: Position) -> Board:
    """Notebook 02's folded solution."""
    if board.state(pos) is not REVEALED:
        return board
    number = board.count(pos)
    around = board.neighbours(pos)
    flags = sum(1 for p in around if board.state(p) is FLAGGED)
    if number == 0 or flags != number:
        return board
    covered = [p for p in around if board.state(p) is COVERED]

    def reveal_unless_over(b: Board, p: Position) -> Board:
        return b if b.status in ("won", "lost") else reveal(b, p)

    return reduce(reveal_unless_over, covered, board)


def _chord_with(
    board: Board,
    pos: Position,
    *,
    zero_rule: bool = True,
    stop: bool = True,
    check_revealed: bool = True,
    around: Around | None = None,
    same: bool = True,
) -> Board:
    if check_revealed and board.state(pos) is not REVEALED:
        return board
    number = board.count(pos)
    near = board.neighbours(pos) if around is None else around(board, pos)
    flags = sum(1 for p in near if board.state(p) is FLAGGED)
    if (zero_rule and number == 0) or (flags != number if same else flags < number):
        return board
    covered = [p for p in near if board.state(p) is COVERED]
    step: Rule = (lambda b, p: b if b.over else reveal(b, p)) if stop else reveal
    return reduce(step, covered, board)


def chord_without_the_zero_rule(board: Board, pos: Position) -> Board:
    """Forgets that a 0 chords nothing: a covered cell next to a revealed 0 (a flag taken back after
    the cascade) gets revealed."""
    return _chord_with(board, pos, zero_rule=False)


def chord_that_goes_on_after_a_loss(board: Board, pos: Position) -> Board:
    """reduce(reveal, ...): after a wrong flag the next reveal is on a lost board and raises."""
    return _chord_with(board, pos, stop=False)


def chord_on_covered_cells(board: Board, pos: Position) -> Board:
    """Forgets to check that the cell is revealed (board.count works on any cell)."""
    return _chord_with(board, pos, check_revealed=False)


def chord_with_off_by_one_neighbours(board: Board, pos: Position) -> Board:
    """range(-1, 1) instead of range(-1, 2): misses the row below and the column to the right."""

    def around(b: Board, p: Position) -> list[Position]:
        r, c = p
        return [
            (r + dr, c + dc)
            for dr in range(-1, 1)
            for dc in range(-1, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < b.rows and 0 <= c + dc < b.cols
        ]

    return _chord_with(board, pos, around=around)


def chord_ignoring_flags(board: Board, pos: Position) -> Board:
    """Forgets the flags: chords every revealed number."""
    if board.state(pos) is not REVEALED or board.count(pos) == 0:
        return board
    covered = [p for p in board.neighbours(pos) if board.state(p) is COVERED]
    return reduce(lambda b, p: b if b.over else reveal(b, p), covered, board)


def chord_with_too_many_flags(board: Board, pos: Position) -> Board:
    """flags >= number instead of flags == number."""
    return _chord_with(board, pos, same=False)


def chord_in_reverse_order(board: Board, pos: Position) -> Board:
    """Reveals the neighbours bottom-right first: after a wrong flag another mine explodes first."""

    def around(b: Board, p: Position) -> tuple[Position, ...]:
        return tuple(reversed(b.neighbours(p)))

    return _chord_with(board, pos, around=around)


WRONG_CHORDS = [
    chord_without_the_zero_rule,
    chord_that_goes_on_after_a_loss,
    chord_on_covered_cells,
    chord_with_off_by_one_neighbours,
    chord_ignoring_flags,
    chord_with_too_many_flags,
    chord_in_reverse_order,
]


def test_the_chord_solution_passes() -> None:
    assert_passes(check_chord(solution_chord), "chord changed the board")
    assert_passes(check_chord(chord), "chord lost the game")


@pytest.mark.parametrize("wrong", WRONG_CHORDS, ids=lambda f: f.__name__)
def test_a_wrong_chord_fails(wrong: Rule) -> None:
    assert_caught(checked(check_chord, wrong), wrong)


def test_a_chord_that_raises_is_shown_with_its_traceback() -> None:
    check = checked(check_chord, chord_that_goes_on_after_a_loss)
    example = counterexample_of(check)
    assert "GameOverError" in example.summary and "chord_that_goes_on_after_a_loss" in example.traceback
    board = example.board
    assert board is not None
    assert board.rows * board.cols <= 6, board  # a 2x3 board shows it
    assert "Traceback" in str(check) and "traceback of your function" in check._repr_html_()


def chord_that_takes_the_flags_back(board: Board, pos: Position) -> Board:
    """Chords, then takes back every flag around the number: flags are never the chord's to change."""
    after = chord(board, pos)
    if after.over or after == board:
        return after
    flagged = [p for p in board.neighbours(pos) if after.state(p) is CellState.FLAGGED]
    return reduce(toggle_flag, flagged, after)


def test_a_chord_that_takes_flags_away_breaks_the_flags_rule() -> None:
    check = checked(check_chord, chord_that_takes_the_flags_back)
    held = {p.name: p.held for p in check.properties}
    assert held == {
        "it does nothing unless the number has exactly its flags around it": True,
        "it reveals the covered neighbours when the flags match": True,
        "a wrong flag loses the game": True,
        "flags are never revealed": False,
    }


# --- toggle_flag -----------------------------------------------------------------------------------------


def solution_toggle_flag(board: Board, pos: Position) -> Board:
    """The folded solution: one byte changes, through dataclasses.replace."""
    i = board.index(pos)
    state = board.states[i]
    if state == REVEALED.value:
        return board
    new = COVERED.value if state == FLAGGED.value else FLAGGED.value
    return replace(board, states=board.states[:i] + bytes([new]) + board.states[i + 1 :])


def _set(board: Board, i: int, value: int) -> Board:
    return replace(board, states=board.states[:i] + bytes([value]) + board.states[i + 1 :])


def toggle_flag_on_revealed_cells(board: Board, pos: Position) -> Board:
    i = board.index(pos)
    return _set(board, i, COVERED.value if board.states[i] == FLAGGED.value else FLAGGED.value)


def toggle_flag_that_never_unflags(board: Board, pos: Position) -> Board:
    i = board.index(pos)
    return board if board.states[i] == REVEALED.value else _set(board, i, FLAGGED.value)


def toggle_flag_with_rows_for_cols(board: Board, pos: Position) -> Board:
    """row * rows + col: right on square boards only."""
    i = pos[0] * board.rows + pos[1]
    if not 0 <= i < len(board.states) or board.states[i] == REVEALED.value:
        return board
    return _set(board, i, COVERED.value if board.states[i] == FLAGGED.value else FLAGGED.value)


def toggle_flag_with_row_and_col_swapped(board: Board, pos: Position) -> Board:
    col, row = pos
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        return board
    return solution_toggle_flag(board, (row, col))


def toggle_flag_refusing_more_flags_than_mines(board: Board, pos: Position) -> Board:
    """ "You cannot have more flags than mines": the real counter goes negative instead."""
    if board.state(pos) is COVERED and board.flags_left <= 0:
        return board
    return solution_toggle_flag(board, pos)


def toggle_flag_cycling_states(board: Board, pos: Position) -> Board:
    """covered -> flagged -> revealed: a state machine one step too far."""
    i = board.index(pos)
    if board.states[i] == REVEALED.value:
        return board
    return _set(board, i, board.states[i] + 1)


WRONG_TOGGLES = [
    toggle_flag_on_revealed_cells,
    toggle_flag_that_never_unflags,
    toggle_flag_with_rows_for_cols,
    toggle_flag_with_row_and_col_swapped,
    toggle_flag_refusing_more_flags_than_mines,
    toggle_flag_cycling_states,
]


def test_the_toggle_flag_solution_passes() -> None:
    assert_passes(check_toggle_flag(solution_toggle_flag), "toggle_flag changed the board")
    assert_passes(check_toggle_flag(toggle_flag), "toggle_flag left the board unchanged")


@pytest.mark.parametrize("wrong", WRONG_TOGGLES, ids=lambda f: f.__name__)
def test_a_wrong_toggle_flag_fails(wrong: Rule) -> None:
    assert_caught(check_toggle_flag(wrong), wrong)


# --- replay ----------------------------------------------------------------------------------------------


def solution_replay(start: Board, moves: Moves) -> tuple[Board, ...]:
    """The folded solution: a fold whose value is the history so far."""

    def one_more(history: tuple[Board, ...], move: tuple[Rule, Position]) -> tuple[Board, ...]:
        board = history[-1]
        if board.over:
            return history
        function, pos = move
        return (*history, function(board, pos))

    return reduce(one_more, moves, (start,))


def replay_without_the_start(start: Board, moves: Moves) -> tuple[Board, ...]:
    history: list[Board] = []
    board = start
    for function, pos in moves:
        if board.over:
            break
        board = function(board, pos)
        history.append(board)
    return tuple(history)


def replay_as_reduce(start: Board, moves: Moves) -> Board:
    """The final board only: reduce where accumulate was meant."""
    return reduce(lambda b, m: b if b.over else m[0](b, m[1]), moves, start)


def replay_that_goes_on_after_the_end(start: Board, moves: Moves) -> tuple[Board, ...]:
    return tuple(accumulate(moves, lambda b, m: m[0](b, m[1]), initial=start))


def replay_that_empties_the_moves(start: Board, moves: Moves) -> tuple[Board, ...]:
    history = [start]
    while moves:
        function, pos = moves.pop(0)
        if history[-1].over:
            break
        history.append(function(history[-1], pos))
    return tuple(history)


def replay_returning_a_list(start: Board, moves: Moves) -> list[Board]:
    return list(solution_replay(start, moves))


def replay_stopping_one_board_early(start: Board, moves: Moves) -> tuple[Board, ...]:
    history = [start]
    for function, pos in moves:
        board = function(history[-1], pos)
        if board.over:
            break
        history.append(board)
    return tuple(history)


def replay_revealing_every_move(start: Board, moves: Moves) -> tuple[Board, ...]:
    return solution_replay(start, [(reveal, pos) for _, pos in moves])


WRONG_REPLAYS = [
    replay_without_the_start,
    replay_as_reduce,
    replay_that_goes_on_after_the_end,
    replay_that_empties_the_moves,
    replay_returning_a_list,
    replay_stopping_one_board_early,
    replay_revealing_every_move,
]


def test_the_replay_solution_passes() -> None:
    assert_passes(check_replay(solution_replay), "the game ended before its last move")
    assert_passes(check_replay(replay), "no move after the end")


@pytest.mark.parametrize("wrong", WRONG_REPLAYS, ids=lambda f: f.__name__)
def test_a_wrong_replay_fails(wrong: Callable[[Board, Moves], object]) -> None:
    assert_caught(checked(check_replay, wrong), wrong)


def test_a_replay_that_changes_its_input_is_told_so() -> None:
    check = checked(check_replay, replay_that_empties_the_moves)
    assert "changed the list of moves" in counterexample_of(check).summary


def test_checks_refuse_what_is_not_a_function() -> None:
    with pytest.raises(TypeError, match=r"check_chord\(fn\) needs a function \(board, pos\) -> Board"):
        check_chord("chord")  # type: ignore[arg-type]  # a name, not a function, on purpose
    assert isinstance(toggle_flag(Board.from_text("."), (0, 0)), Board)
