"""Notebook 02's exercises: write ``chord``, ``toggle_flag`` and ``replay`` (a game as a fold).

Each check plays the student's function against the engine's own on boards a real game reaches, from
1x1 to 6x6: right and wrong flags, flags taken back after a reveal, cascades, wins and losses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import reduce
from typing import Any

from ..engine import Board, CellState, Position, chord, toggle_flag
from .draws import Source
from .foreign import type_name
from .generate import Rule, draw_board, draw_game, draw_position, draw_situation, every_board_in_play
from .limits import Outcome, call
from .needs import recorded
from .report import Check, Counterexample, Panel, board_panel, count, note_panel, where
from .search import SEED, EverySmall, Verdict, function_name, require_function, run_check

__all__ = [
    "CHORD",
    "REPLAY",
    "TOGGLE_FLAG",
    "board_difference",
    "check_chord",
    "check_replay",
    "check_toggle_flag",
    "compare_boards",
    "replay",
]

TRIES = 250

SMALL_CELLS = 3
"""A failing check of a move tries every board in play of at most this many cells first, at each of
its positions (654 in all): a mistake that shows on so few cells is shown on the fewest there are."""

TOGGLE_FLAG = ("a covered cell gets a flag", "a flag is taken away", "a revealed cell is left as it is")
"""The properties of ``check_toggle_flag``, one per state of the cell."""

CHORD = (
    "it does nothing unless the number has exactly its flags around it",
    "it reveals the covered neighbours when the flags match",
    "a wrong flag loses the game",
    "flags are never revealed",
)
"""The properties of ``check_chord``: three kinds of position, and one rule for all of them."""

REPLAY = (
    "no moves: the history is the start alone",
    "one more board per move",
    "the history stops when the game ends",
    "the list of moves is left as it was",
)
"""The properties of ``check_replay``."""


@recorded
def check_chord(fn: Callable[[Board, Position], Board], tries: int = TRIES, *, seed: int = SEED) -> Check:
    """Compare ``fn(board, pos)`` with :func:`~ipyminesweeper.chord` on boards still in play."""
    require_function(fn, "check_chord", "(board, pos) -> Board")
    return _check_move("chord", chord, fn, tries, seed)


@recorded
def check_toggle_flag(
    fn: Callable[[Board, Position], Board], tries: int = TRIES, *, seed: int = SEED
) -> Check:
    """Compare ``fn(board, pos)`` with :func:`~ipyminesweeper.toggle_flag` on boards still in play."""
    require_function(fn, "check_toggle_flag", "(board, pos) -> Board")
    return _check_move("toggle_flag", toggle_flag, fn, tries, seed)


def _board_and_position(source: Source) -> tuple[Board, Position]:
    board = source.part(draw_board)
    return board, source.part(draw_position, board)


def _check_move(name: str, reference: Rule, fn: Rule, tries: int, seed: int) -> Check:
    properties = CHORD if reference is chord else TOGGLE_FLAG

    def judge(example: tuple[Board, Position]) -> Verdict:
        board, pos = example
        expected = reference(board, pos)
        labels = [f"{name} left the board unchanged" if expected == board else f"{name} changed the board"]
        if expected.status == "lost":
            labels.append(f"{name} lost the game")
        got = call(fn, board, pos)
        call_text = f"{function_name(fn)}(board, {pos})"
        found = board_difference(call_text, name, board, pos, got, expected)
        if reference is chord:
            return _chord_verdict(board, expected, got, found, tuple(labels))
        kind = TOGGLE_FLAG[(CellState.COVERED, CellState.FLAGGED, CellState.REVEALED).index(board.state(pos))]
        return Verdict(found, tuple(labels), (kind,))

    build = draw_situation if reference is chord else _board_and_position
    small = EverySmall(_every_small_situation, SMALL_CELLS, _situation_cells)
    return run_check(name, fn, build, judge, tries, properties=properties, seed=seed, every_small=small)


def _every_small_situation() -> Iterator[tuple[Board, Position]]:
    return ((board, pos) for board in every_board_in_play(SMALL_CELLS) for pos in board.positions())


def _situation_cells(situation: tuple[Board, Position]) -> int:
    return situation[0].rows * situation[0].cols


def _chord_verdict(
    board: Board, expected: Board, got: Outcome, found: Counterexample | None, labels: tuple[str, ...]
) -> Verdict:
    """Which of :data:`CHORD` the example tests, and which it breaks: a flag gone from yours breaks
    the last one, whatever kind of position it was."""
    kind = CHORD[0] if expected == board else CHORD[2] if expected.status == "lost" else CHORD[1]
    mine = got.value
    if not isinstance(mine, Board):
        return Verdict(found, labels, (kind,))
    flag = CellState.FLAGGED.value
    lost_flags = (
        found is not None  # (equal boards keep their flags)
        and (mine.rows, mine.cols) == (board.rows, board.cols)
        and any(b == flag and a != flag for b, a in zip(board.states, mine.states, strict=True))
    )
    return Verdict(found, labels, (kind, CHORD[3]), CHORD[3] if lost_flags else kind)


def board_difference(
    call_text: str, reference: str, board: Board, pos: Position | None, got: Outcome, expected: Board
) -> Counterexample | None:
    """None when ``got`` is the expected board; else a counterexample showing the start, yours and the
    expected board with the differing cells marked."""
    start = board_panel("start", board, focus=pos)
    if got.raised:
        return Counterexample(
            call_text,
            f"it {got.failure}, where {reference} returns a {expected.status} board",
            (start, note_panel("yours", got.failure), board_panel("expected", expected)),
            (board, pos),
            got.error,
            expected,
            got.trace,
        )
    value = got.value
    if not isinstance(value, Board):
        return Counterexample(
            call_text,
            f"it returned {type_name(value)} {value!r:.60}, not a Board",
            (start, note_panel("yours", f"{value!r:.200}"), board_panel("expected", expected)),
            (board, pos),
            value,
            expected,
        )
    if value == expected:
        return None
    marked, summary = compare_boards(value, expected)
    return Counterexample(
        call_text,
        summary,
        (start, board_panel("yours", value, marked), board_panel("expected", expected, marked)),
        (board, pos),
        value,
        expected,
    )


def compare_boards(got: Board, expected: Board) -> tuple[frozenset[Position], str]:
    """The cells that differ, and a sentence on how the two boards differ."""
    if (got.rows, got.cols) != (expected.rows, expected.cols):
        return (
            frozenset(),
            f"yours is {got.rows}x{got.cols}, the expected board {expected.rows}x{expected.cols}",
        )
    mine, theirs = _grid(got), _grid(expected)
    marked = frozenset((r, c) for r in range(got.rows) for c in range(got.cols) if mine[r][c] != theirs[r][c])
    if marked:
        cells = f"{count(len(marked), 'cell')} {'differs' if len(marked) == 1 else 'differ'}"
        status = (
            f"; yours is {got.status}, expected {expected.status}" if got.status != expected.status else ""
        )
        return marked, f"{cells}{status}"
    if got == expected:
        return marked, "the same board"
    if got.placed != expected.placed:
        return marked, "the same cells, but the mines of one of the boards are not placed yet"
    return marked, f"the same cells, but {'; '.join(_hidden_differences(got, expected))}"


def _hidden_differences(got: Board, expected: Board) -> list[str]:
    """How two boards with the same cells differ. A placed board's text shows every field, so only
    the header of boards whose mines are not placed yet can differ: the mines, the seed, the rule."""
    found = []
    if got.mines != expected.mines:
        found.append(f"yours has {count(got.mines, 'mine')} to place, the expected board {expected.mines}")
    if got.seed != expected.seed:
        found.append(f"the seed that will place its mines is {got.seed}, expected {expected.seed}")
    if got.first_click != expected.first_click:
        found.append(f"first_click is {got.first_click!r}, expected {expected.first_click!r}")
    return found


def _grid(board: Board) -> list[str]:
    return board.to_text().splitlines()[0 if board.placed else 1 :]


def replay(start: Board, moves: Sequence[tuple[Rule, Position]]) -> tuple[Board, ...]:
    """The reference ``replay``: the start and the board after each move, as a fold. The history stops
    when the game ends: moves after the end are left out (a move on a finished board is an error)."""

    def one_more(history: tuple[Board, ...], move: tuple[Rule, Position]) -> tuple[Board, ...]:
        board = history[-1]
        if board.over:
            return history
        function, pos = move
        return (*history, function(board, pos))

    return reduce(one_more, moves, (start,))


@recorded
def check_replay(
    fn: Callable[[Board, list[tuple[Rule, Position]]], tuple[Board, ...]],
    tries: int = 300,
    *,
    seed: int = SEED,
) -> Check:
    """Compare ``fn(start, moves)`` with :func:`replay`: the whole history, as a tuple of boards."""
    require_function(fn, "check_replay", "(start, moves) -> tuple of boards")

    def judge(example: tuple[Board, list[tuple[Rule, Position]]]) -> Verdict:
        start, moves = example
        expected = replay(start, moves)
        got = call(fn, start, list(moves))
        given = got.after[1]  # the list as the call left it
        labels = [
            "the game ended before its last move"
            if len(expected) < len(moves) + 1
            else "no move after the end"
        ]
        kind = REPLAY[0] if not moves else REPLAY[2] if len(expected) < len(moves) + 1 else REPLAY[1]
        found = _history_difference(fn, start, moves, given, got, expected)
        breaks = REPLAY[3] if given != moves else kind
        return Verdict(found, tuple(labels), (kind, REPLAY[3]), breaks)

    def key(example: tuple[Board, list[tuple[Rule, Position]]]) -> Any:
        start, moves = example
        return start, tuple(moves)

    return run_check("replay", fn, draw_game, judge, tries, properties=REPLAY, key=key, seed=seed)


def _move_text(move: tuple[Rule, Position]) -> str:
    function, pos = move
    return f"{function_name(function)} {where(pos)}"


def _history_difference(
    fn: Callable[..., Any],
    start: Board,
    moves: list[tuple[Rule, Position]],
    given: list[tuple[Rule, Position]],
    got: Outcome,
    expected: tuple[Board, ...],
) -> Counterexample | None:
    """None when ``fn`` returned the ``expected`` history and left the list of moves (``given``, as
    ``moves`` before the call) as it was; else a counterexample saying how it went wrong."""
    listed = ", ".join(_move_text(m) for m in moves) or "no moves"
    call_text = f"{function_name(fn)}(start, [{listed}])"
    first = board_panel("start", start)
    ends = board_panel(f"expected: the last of {count(len(expected), 'board')}", expected[-1])
    if got.raised:
        return Counterexample(
            call_text,
            f"it {got.failure}",
            (first, note_panel("yours", got.failure), ends),
            (start, moves),
            got.error,
            expected,
            got.trace,
        )
    if given != moves:
        return Counterexample(
            call_text,
            f"it changed the list of moves it was given: {count(len(moves), 'move')} before the call, "
            f"{len(given)} after (a function that takes a list must not change it)",
            (
                first,
                note_panel("the moves after the call", ", ".join(_move_text(m) for m in given) or "none"),
            ),
            (start, moves),
            got.value,
            expected,
        )
    value = got.value
    if not isinstance(value, tuple) or not all(isinstance(b, Board) for b in value):
        what = type_name(value) if not isinstance(value, tuple) else "a tuple holding something else"
        return Counterexample(
            call_text,
            f"it returned {what}, not a tuple of boards (the start, then one board per move)",
            (first, note_panel("yours", f"{value!r:.300}"), ends),
            (start, moves),
            value,
            expected,
        )
    if value == expected:
        return None
    return _history_mismatch(call_text, first, ends, start, moves, value, expected)


def _history_mismatch(
    call_text: str,
    first: Panel,
    ends: Panel,
    start: Board,
    moves: list[tuple[Rule, Position]],
    value: tuple[Board, ...],
    expected: tuple[Board, ...],
) -> Counterexample:
    """The counterexample for a history of boards ``value`` that is not the ``expected`` one: a board
    that differs (the first), or a history too long or too short. ``first`` shows the start, ``ends``
    the expected last board."""
    index = next(
        (i for i, (a, b) in enumerate(zip(value, expected, strict=False)) if a != b),
        min(len(value), len(expected)),
    )
    if index >= len(value) or index >= len(expected):
        longer = "more" if len(value) > len(expected) else "fewer"
        summary = (
            f"yours has {count(len(value), 'board')}, {longer} than the {len(expected)} expected: the start, "
            "then one board per move until the game ends"
        )
        panels: tuple[Panel, ...] = (
            first,
            board_panel(f"yours: the last of {count(len(value), 'board')}", value[-1])
            if value
            else note_panel("yours", "()"),
            ends,
        )
        return Counterexample(call_text, summary, panels, (start, moves), value, expected)
    marked, how = compare_boards(value[index], expected[index])
    move = f"after move {index} ({_move_text(moves[index - 1])})" if index else "the start"
    return Counterexample(
        call_text,
        f"board {index} ({move}) differs: {how}",
        (
            board_panel(f"board {index - 1}", expected[index - 1]) if index else first,
            board_panel(f"yours: board {index}", value[index], marked),
            board_panel(f"expected: board {index}", expected[index], marked),
        ),
        (start, moves),
        value,
        expected,
    )
