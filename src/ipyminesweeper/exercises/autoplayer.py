"""Notebook 03's exercise: a strategy that is a function of the view and never guesses needlessly.

``check_strategy(fn)`` asks ``fn`` for a move on the views of boards in play with a covered cell left and,
then on views where wrong flags cover every covered cell (the only moves are to take a flag back). The
exact probabilities (:func:`~ipyminesweeper.probabilities`) are the referee. Its properties
(:data:`STRATEGY`):

- no reveal of a cell that might be a mine while some covered cell is certainly safe;
- a legal :class:`~ipyminesweeper.Move` on that board, never an exception;
- the same view gets the same move again (no randomness, nothing remembered between calls);
- no flag on a cell that is certainly safe, and no reveal of a certain mine;
- no certainty it does not have: a ``probability`` of 0 for a cell that might be a mine, or of 1 for a
  cell that might be safe, is wrong (a leaderboard counts a claimed 0 as "not a guess");
- progress: a flag it puts is not taken back at once (a strategy that only toggles flags never ends).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ..engine import Board, Position, View, toggle_flag
from ..solver import probabilities
from ..strategies import InvalidMoveError, Move, validate_move
from .draws import Source
from .generate import draw_board, every_board_in_play
from .limits import Outcome, call
from .needs import recorded
from .report import Check, Counterexample, note_panel, numbers_panel, view_panel, where
from .search import SEED, EverySmall, Verdict, combine, function_name, require_function, run_check

__all__ = ["STRATEGY", "check_strategy"]

STRATEGY = (
    "no guess while a covered cell is certainly safe",
    "a legal move, never an exception",
    "the same view gets the same move",
    "no flag on a certainly safe cell",
    "no reveal of a certain mine",
    "no claimed certainty (a probability of 0 or 1) that is wrong",
    "no flag put and taken back at once",
)
"""The properties of ``check_strategy``."""

GUESS, LEGAL, SAME, FLAG_SAFE, REVEAL_MINE, CLAIM, PROGRESS = STRATEGY

SMALL_CELLS = 4
"""A failing check tries every view in play of at most this many cells first (974 views): a mistake
that shows on so few cells is shown on the fewest there are."""


@recorded
def check_strategy(fn: Callable[[View], Move], tries: int = 250, *, seed: int = SEED) -> Check:
    """Check that ``fn(view)`` is a legal move, deterministic, honest about certainty, never a needless
    guess, a flag on a safe cell or a reveal of a mine, and never toggles one flag forever."""
    require_function(fn, "check_strategy", "(view) -> Move")
    judge = _judge(fn)
    main = run_check(
        "strategy",
        fn,
        _board_with_a_covered_cell,
        judge,
        tries,
        properties=STRATEGY,
        key=_view,
        seed=seed,
        every_small=EverySmall(_small_with_a_covered_cell, SMALL_CELLS, _cells),
    )
    flagged = run_check(
        "strategy",
        fn,
        _every_covered_cell_flagged,
        judge,
        max(1, tries // 5),
        properties=STRATEGY,
        key=_view,
        seed=seed,
        every_small=EverySmall(_small_with_every_covered_cell_flagged, SMALL_CELLS, _cells),
    )
    return combine(main, flagged)


def _judge(fn: Callable[[View], Move]) -> Callable[[Board], Verdict]:
    name = function_name(fn)

    def judge(board: Board) -> Verdict:
        view = board.view
        text = f"{name}(view)"
        first = call(fn, view)
        if first.raised:
            return Verdict(_failed(text, view, first, f"it {first.failure}"), (), (LEGAL,))
        try:
            move = validate_move(board, first.value, "it")
        except InvalidMoveError as error:
            return Verdict(_failed(text, view, first, f"{error}"), (), (LEGAL,))
        again = call(fn, View(view.rows, view.cols, view.mines, view.status, view.cells))
        if again.raised or not isinstance(again.value, Move) or _where(again.value) != _where(move):
            said = again.describe_error() if again.raised else _describe(again.value)
            summary = (
                f"the same view got two different moves: {_describe(move)}, then {said}. A strategy "
                "must be a function of the view: no randomness, nothing remembered between calls"
            )
            return Verdict(_failed(text, view, first, summary), (), (LEGAL, SAME), SAME)
        verdict = _judged_by_risk(text, view, move)
        if verdict.counterexample is None and move.action == "flag":
            return _judged_progress(fn, text, board, move, verdict)
        return verdict

    return judge


def _judged_by_risk(text: str, view: View, move: Move) -> Verdict:
    """The properties the exact probabilities decide: needless guesses, flags on safe cells, reveals of
    mines, and false certainty."""
    risk = probabilities(view)
    safe = [pos for pos, p in risk.items() if p == 0 and view[pos] == "."]
    labels = ("a covered cell was certainly safe",) if safe else ("no covered cell was certainly safe",)
    tests = (LEGAL, SAME, GUESS, FLAG_SAFE, REVEAL_MINE, CLAIM)
    p = risk.get(move.pos)
    covered = view[move.pos] == "."
    if safe and move.action == "reveal" and p is not None and p > 0:
        summary = (
            f"it reveals {where(move.pos)}, a guess (P(mine) = {p:.0%}), while {where(safe[0])} is "
            "certainly safe (0%)"
        )
        return Verdict(_risky(text, view, move, risk, summary, safe), labels, tests, GUESS)
    if move.action == "flag" and covered and p == 0:
        summary = f"it flags {where(move.pos)}, which is certainly safe (P(mine) = 0%)"
        return Verdict(_risky(text, view, move, risk, summary), labels, tests, FLAG_SAFE)
    if move.action == "reveal" and p == 1:
        summary = f"it reveals {where(move.pos)}, which is certainly a mine (P(mine) = 100%)"
        return Verdict(_risky(text, view, move, risk, summary), labels, tests, REVEAL_MINE)
    claimed = move.probability
    if p is not None and move.action != "chord" and claimed in (0, 1) and claimed != p:
        summary = (
            f"its move says P(mine) = {claimed:.0%} at {where(move.pos)}, but that cell is "
            f"{'a mine' if claimed == 1 else 'safe'} only in some layouts (P(mine) = {p:.1%})"
        )
        return Verdict(_risky(text, view, move, risk, summary), labels, tests, CLAIM)
    return Verdict(None, labels, tests)


def _judged_progress(
    fn: Callable[[View], Move], text: str, board: Board, move: Move, verdict: Verdict
) -> Verdict:
    """A flag toggled, then the view asked again: the same flag toggled back is a loop."""
    after = toggle_flag(board, move.pos).view
    then = call(fn, after)
    tests = (*verdict.tests, PROGRESS)
    if then.raised or not isinstance(then.value, Move) or _where(then.value) != _where(move):
        return Verdict(None, verdict.labels, tests)
    undo = "takes it back" if board.view[move.pos] == "." else "puts it back"
    summary = (
        f"it toggles the flag at {where(move.pos)}, and on the view after that it {undo}: played, "
        "these two moves repeat forever"
    )
    found = _failed(text, board.view, Outcome(move), summary)
    return Verdict(found, verdict.labels, tests, PROGRESS)


def _risky(
    text: str,
    view: View,
    move: Move,
    risk: Mapping[Position, float],
    summary: str,
    marked: list[Position] | None = None,
) -> Counterexample:
    panels = (
        view_panel("view, your move in blue", view, focus=move.pos, note=_describe(move)),
        numbers_panel("probabilities", view, risk, frozenset(marked or ())),
    )
    marks = "the certainly safe cells" if marked else "no cell"
    return Counterexample(text, summary, panels, (view,), move, marked, marks=marks)


def _board_with_a_covered_cell(source: Source) -> Board:
    board = draw_board(source)
    if "." not in board.view.cells:
        source.reject()
    return board


def _every_covered_cell_flagged(source: Source) -> Board:
    """A board with a flag on every covered cell: some are wrong, yet the game is on."""
    board = draw_board(source)
    for pos in board.covered():
        board = toggle_flag(board, pos)
    return board


def _small_with_a_covered_cell() -> Iterator[Board]:
    return (board for board in every_board_in_play(SMALL_CELLS) if "." in board.view.cells)


def _small_with_every_covered_cell_flagged() -> Iterator[Board]:
    return (board for board in every_board_in_play(SMALL_CELLS) if "." not in board.view.cells)


def _cells(board: Board) -> int:
    return board.rows * board.cols


def _view(board: Board) -> View:
    return board.view


def _where(move: Move) -> tuple[str, object]:
    return move.action, move.pos


def _describe(move: object) -> str:
    if isinstance(move, Move):
        return f"{move.action} {where(move.pos)}" if isinstance(move.pos, tuple) else repr(move)
    return f"{move!r:.80}"


def _failed(text: str, view: View, got: Outcome, summary: str) -> Counterexample:
    shown = got.failure if got.raised else _describe(got.value)
    focus = got.value.pos if isinstance(got.value, Move) and _on(view, got.value.pos) else None
    return Counterexample(
        text,
        summary,
        (view_panel("view, your move in blue", view, focus=focus, note=shown), note_panel("yours", shown)),
        (view,),
        got.error if got.raised else got.value,
        None,
        got.trace,
    )


def _on(view: View, pos: object) -> bool:
    return (
        isinstance(pos, tuple)
        and len(pos) == 2
        and all(isinstance(x, int) for x in pos)
        and 0 <= pos[0] < view.rows
        and 0 <= pos[1] < view.cols
    )
