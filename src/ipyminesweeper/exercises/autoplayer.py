"""Notebook 03's exercise: a strategy that is a function of the view and never guesses needlessly.

``check_strategy(fn)`` asks ``fn`` for a move on the views of boards in play with a covered cell left
and, once those pass, on views where wrong flags cover every covered cell (then the only moves are to take
a flag back), and checks three things:
the move is a legal :class:`~ipyminesweeper.Move` on that board, the same view gets the same move again
(a strategy is a function: no hidden state, no randomness), and while some covered cell is certainly
safe (probability 0, from :func:`~ipyminesweeper.probabilities`) the move is not a reveal of a cell
that might be a mine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from ..engine import Board, View, toggle_flag
from ..play import InvalidMoveError, Move, validate_move
from ..solver import probabilities
from .generate import boards
from .report import Check, Counterexample, note_panel, numbers_panel, view_panel, where
from .search import Outcome, Verdict, call, function_name, require_function, run_check

__all__ = ["check_strategy"]


def check_strategy(fn: Callable[[View], Move], tries: int = 250) -> Check:
    """Check that ``fn(view)`` is a legal move, deterministic, and no guess while a 0% cell exists."""
    require_function(fn, "check_strategy", "(view) -> Move")
    name = function_name(fn)

    def judge(board: Board) -> Verdict:
        view = board.view
        text = f"{name}(view)"
        first = call(fn, view)
        if first.raised:
            return Verdict(_failed(text, view, first, f"it raised {first.describe_error()}"))
        try:
            move = validate_move(board, first.value, "it")
        except InvalidMoveError as error:
            return Verdict(_failed(text, view, first, f"{error}"))
        again = call(fn, View(view.rows, view.cols, view.mines, view.status, view.cells))
        if again.raised or not isinstance(again.value, Move) or _where(again.value) != _where(move):
            said = again.describe_error() if again.raised else _describe(again.value)
            return Verdict(
                _failed(
                    text,
                    view,
                    first,
                    f"the same view got two different moves: {_describe(move)}, then {said}. A strategy "
                    "must be a function of the view: no randomness, nothing remembered between calls",
                )
            )
        risk = probabilities(view)
        safe = [pos for pos, p in risk.items() if p == 0 and view[pos] == "."]
        labels = ("a covered cell was certainly safe",) if safe else ("no covered cell was certainly safe",)
        if safe and move.action == "reveal" and risk[move.pos] > 0:
            summary = (
                f"it reveals {where(move.pos)}, a guess (P(mine) = {risk[move.pos]:.0%}), while "
                f"{where(safe[0])} is certainly safe (0%)"
            )
            panels = (
                view_panel("view, your move in blue", view, focus=move.pos, note=_describe(move)),
                numbers_panel("probabilities", view, risk, frozenset(safe)),
            )
            marks = "the certainly safe cells"
            return Verdict(Counterexample(text, summary, panels, (view,), move, safe, marks=marks), labels)
        return Verdict(None, labels)

    with_covered = boards().filter(lambda board: "." in board.view.cells)
    main = run_check("strategy", fn, with_covered, judge, tries, _view)
    if not main:  # the lesson first: a guess while a cell is certainly safe, before the corner case
        return main
    flagged = run_check(
        "strategy", fn, boards().map(_every_covered_cell_flagged), judge, max(1, tries // 5), _view
    )
    if not flagged:
        return flagged
    counts = Counter(dict(main.counts)) + Counter(dict(flagged.counts))
    return replace(main, tried=main.tried + flagged.tried, counts=tuple(counts.most_common()))


def _view(board: Board) -> View:
    return board.view


def _every_covered_cell_flagged(board: Board) -> Board:
    """``board`` with a flag on every covered cell: some are wrong, yet the game is on."""
    for pos in board.covered():
        board = toggle_flag(board, pos)
    return board


def _where(move: Move) -> tuple[str, object]:
    return move.action, move.pos


def _describe(move: object) -> str:
    if isinstance(move, Move):
        return f"{move.action} {where(move.pos)}" if isinstance(move.pos, tuple) else repr(move)
    return f"{move!r:.80}"


def _failed(text: str, view: View, got: Outcome, summary: str) -> Counterexample:
    shown = f"raised {got.describe_error()}" if got.raised else _describe(got.value)
    focus = got.value.pos if isinstance(got.value, Move) and _on(view, got.value.pos) else None
    return Counterexample(
        text,
        summary,
        (view_panel("view, your move in blue", view, focus=focus, note=shown), note_panel("yours", shown)),
        (view,),
        got.error if got.raised else got.value,
        None,
        got.traceback,
    )


def _on(view: View, pos: object) -> bool:
    return (
        isinstance(pos, tuple)
        and len(pos) == 2
        and all(isinstance(x, int) for x in pos)
        and 0 <= pos[0] < view.rows
        and 0 <= pos[1] < view.cols
    )
