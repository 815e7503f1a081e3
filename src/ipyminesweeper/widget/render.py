"""What the browser gets: the synced traitlets, as a pure function of the session (Elm's ``view``).

Every value the browser sees comes from here, the problem to show, the statistics table, the frozen timer,
and, from the runtime's state, the last request answered, what the kernel is busy with, and the board's
version and last patch (:mod:`.board_wire`); the runtime only sets the traitlets to what :func:`render`
says.
Nothing here reads the mines: every value comes from the view of the board on screen (which shows no
mine while the game is on), from strategy moves (which were computed from views), and from the session's
own settings. So a saved notebook re-renders from this state alone, and the browser never learns where a
mine is before the game ends.
"""

from __future__ import annotations

import html
import traceback
from functools import lru_cache
from typing import Any

from ..engine import GameMetrics, Position, View
from ..solver import InconsistentViewError, analyse
from ..strategies import ReviewRow
from . import phrases
from .constants import SNAPSHOT_NOTE
from .history import Turn
from .link import DEFAULT_SITE, link_url
from .runtime_state import IDLE, RuntimeState
from .session import Problem, Session
from .session_update import StrategyError, describe_turn
from .stats import level_name

__all__ = [
    "FALLBACK_CELLS",
    "REASON_LIMIT",
    "SNAPSHOT_NOTE",
    "SYNCED",
    "TRACEBACK_LIMIT",
    "error_details",
    "metrics_state",
    "move_state",
    "overlay",
    "render",
    "review_state",
    "snapshot_html",
]

REASON_LIMIT = 300
"""A strategy's reason is cut to this many characters in the synced ``last_move`` and ``hint_move``."""
TRACEBACK_LIMIT = 4000
"""A failing user strategy's traceback is shown in the widget, cut to this many characters (its end)."""

SYNCED = (
    "rows",
    "cols",
    "mines",
    "first_click",
    "level",
    "cells",
    "cells_version",
    "board_patch",
    "mines_left",
    "started_at",
    "ended_at",
    "can_undo",
    "summary",
    "strategies",
    "strategy",
    "last_move",
    "hint_move",
    "show_probabilities",
    "probabilities",
    "autoplaying",
    "delay",
    "labels",
    "cell_size",
    "question_marks",
    "marks",
    "history_length",
    "viewing",
    "history_step",
    "stats_table",
    "game_metrics",
    "reviewing",
    "shared_link",
    "awaits_link",
    "elapsed",
    "error",
    "error_details",
    "handled",
    "busy",
    "status",
)
"""Every synced traitlet Python writes, in the order they are sent (``status`` comes last); the browser
writes the player's settings too, and ``requests``, its input channel."""


def render(session: Session, state: RuntimeState = IDLE) -> dict[str, Any]:
    """The value of every synced traitlet for ``session`` and the runtime's ``state`` (by default idle:
    no request answered, no work under way; see :data:`SYNCED`)."""
    board = session.shown
    view = session.screen  # the board shown, or the reviewed move's view
    live = session.viewing is None
    index = len(session.history) - 1 if live else session.viewing
    assert index is not None
    settings = session.settings
    showing = settings.show_probabilities and not board.view.over
    return {
        "rows": view.rows,
        "cols": view.cols,
        "mines": view.mines,
        "first_click": board.first_click,
        "level": level_name(board.rows, board.cols, board.mines),
        "cells": view.cells,
        "cells_version": state.wire.version,
        "board_patch": state.wire.patch or b"",
        "mines_left": view.flags_left,
        "started_at": session.started_at,
        "ended_at": session.ended_at,
        "can_undo": live and len(session.history) > 1,
        "summary": session.summary,
        "strategies": list(session.strategy_names),
        "strategy": session.strategy,
        "last_move": move_state(session.last_move, view) if live else {},
        "hint_move": move_state(session.hint, view) if live else {},
        "show_probabilities": settings.show_probabilities,
        "probabilities": overlay(view) if showing else {},
        "autoplaying": session.autoplaying,
        "delay": settings.delay,
        "labels": session.labels_shown,
        "cell_size": settings.cell_size,
        "question_marks": settings.question_marks,
        "marks": sorted(session.marks) if live else [],
        "history_length": len(session.history),
        "viewing": -1 if live else index,
        "history_step": _history_step(session, index, view),
        "stats_table": _stats_table(session),
        "game_metrics": metrics_state(session.metrics),
        "reviewing": review_state(session),
        "shared_link": _shared_link(session),
        "awaits_link": session.awaits_link,
        "elapsed": session.elapsed,
        "error": "" if session.problem is None else session.problem.text,
        "error_details": error_details(session.problem),
        "handled": state.handled,
        "busy": _busy(state),
        "status": board.view.status,  # the game's, while a reviewed move's board is on screen too
    }


def _busy(state: RuntimeState) -> str:
    """What the kernel works on for the browser, and for how long: ``"working on hint: 3 s"``, or ""."""
    work = state.work
    if work is None or work.autoplay:
        return ""
    return f"working on {work.what}: {work.seconds} s"


def error_details(problem: Problem | None) -> str:
    """The traceback of a failing user strategy (its last :data:`TRACEBACK_LIMIT` characters), or ""."""
    error = None if problem is None else problem.error
    if not isinstance(error, StrategyError) or error.__cause__ is None:
        return ""
    cause = error.__cause__
    return "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))[-TRACEBACK_LIMIT:]


def _stats_table(session: Session) -> list[dict[str, Any]]:
    """The statistics summary as rows, the current level and first-click rule first."""
    board = session.board
    current = (level_name(board.rows, board.cols, board.mines), board.first_click)
    rows = sorted(session.stats.rows, key=lambda s: (s.level, s.first_click) != current)
    return [
        {
            "level": s.level,
            "first_click": s.first_click,
            "played": s.played,
            "won": s.won,
            "best_seconds": s.best_seconds,
            "median_seconds": s.median_seconds,
            "streak": s.streak,
            "best_streak": s.best_streak,
            "best_bbbv_per_second": s.best_bbbv_per_second,
            "best_efficiency": s.best_efficiency,
        }
        for s in rows
    ]


def metrics_state(m: GameMetrics | None) -> dict[str, Any]:
    """A finished game's figures as JSON (``{}``: none): each one, and the line the Stats panel shows."""
    if m is None:
        return {}
    c = m.clicks
    ratios = {
        "bbbv_per_second": m.bbbv_per_second,
        "efficiency": m.efficiency,
        "ioe": m.ioe,
        "correctness": m.correctness,
        "throughput": m.throughput,
    }
    return {
        "bbbv": m.bbbv,
        "solved_bbbv": m.solved_bbbv,
        "zini": m.zini,
        "clicks": {"left": c.left, "right": c.right, "chord": c.chord, "effective": c.effective},
        "seconds": m.seconds,
        **{k: None if v is None else round(v, 4) for k, v in ratios.items()},
        "text": phrases.metrics_text(m),
    }


def _row_state(row: ReviewRow, count: int, view: View) -> dict[str, Any]:
    """One reviewed move as JSON: where, its kind and verdict, and the solver's move (its reason cut)."""
    best = row.best
    better = not row.good and best.pos != row.pos
    reason = best.reason if len(best.reason) <= REASON_LIMIT else best.reason[: REASON_LIMIT - 1] + "…"
    p = row.probability
    return {
        "number": row.number,
        "action": row.action,
        "row": row.pos[0],
        "col": row.pos[1],
        "kind": row.kind,
        "good": row.good,
        "probability": None if p is None else round(p, 4),
        "text": phrases.review_move(row.number, count, row.verdict),
        "best": {
            "action": best.action,
            "row": best.pos[0],
            "col": best.pos[1],
            "reason": reason,
            "probability": None if row.best_probability is None else round(row.best_probability, 4),
            "numbers": _on_board(best.numbers, view),
        },
        "better": better,
        "seconds": row.seconds,
    }


def review_state(session: Session) -> dict[str, Any]:
    """The review panel as JSON (``{}`` while it is closed): the summary, the game's figures, the moves
    not as good as the solver's (by index), and the move shown."""
    done = session.reviewed
    if done is None or not done.shown:
        return {}
    rows = done.review.rows
    out: dict[str, Any] = {
        "index": done.index,
        "count": len(rows),
        "summary": phrases.review_summary(done.review),
        "metrics": phrases.metrics_text(done.review.metrics or session.metrics),
        "mistakes": [k for k, row in enumerate(rows) if not row.good][:1000],
    }
    if rows:
        out["move"] = _row_state(rows[done.index], len(rows), rows[done.index].view)
    return out


def _shared_link(session: Session) -> dict[str, Any]:
    """The link made last: its mode and its address on the default site (the browser puts its own site in
    when it is the offline site itself)."""
    shared = session.shared
    if shared is None:
        return {}
    return {"mode": shared.mode, "url": link_url(shared.code, DEFAULT_SITE)}


def move_state(turn: Turn | None, view: View) -> dict[str, Any]:
    """A strategy's move as JSON: where, why (cut to :data:`REASON_LIMIT`), and the cells its reason uses."""
    if turn is None or turn.move is None:
        return {}
    move = turn.move
    reason = move.reason if len(move.reason) <= REASON_LIMIT else move.reason[: REASON_LIMIT - 1] + "…"
    return {
        "action": move.action,
        "row": move.pos[0],
        "col": move.pos[1],
        "reason": reason,
        "probability": None if move.probability is None else round(float(move.probability), 4),
        "score": None if move.score is None else round(float(move.score), 4),
        "strategy": turn.strategy,
        "numbers": _on_board(move.numbers, view),
        "constrained": _on_board(move.constrained, view),
    }


def _on_board(cells: tuple[Position, ...], view: View) -> list[list[int]]:
    """The positions that are on the board, as ``[row, col]`` pairs (at most one per cell, 64 at most)."""
    out: list[list[int]] = []
    for pos in dict.fromkeys(cells):
        if (
            isinstance(pos, tuple)
            and len(pos) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pos)
            and 0 <= pos[0] < view.rows
            and 0 <= pos[1] < view.cols
        ):
            out.append([pos[0], pos[1]])
    return out[:64]


def _history_step(session: Session, index: int, view: View) -> dict[str, Any]:
    """How board ``index`` of the history was reached, for the time-travel slider."""
    turn = session.history.turns[index - 1] if index > 0 else None
    step: dict[str, Any] = {"index": index, "text": describe_turn(turn)[: REASON_LIMIT + 40]}
    if turn is not None and turn.move is not None:
        moved = move_state(turn, view)
        step.update({k: moved[k] for k in ("row", "col", "numbers", "constrained") if moved[k] != []})
    return step


ELSEWHERE = "*"
"""The overlay's key for every covered or flagged cell it does not list: the cells away from every number."""


@lru_cache(maxsize=8)
def overlay(view: View) -> dict[str, float]:
    """The probability overlay: flat index (a str, for JSON) -> P(mine), for the covered and flagged
    cells next to a number (the frontier), and under :data:`ELSEWHERE` the one probability
    that every other covered or flagged cell shares: the numbers cannot tell those cells apart. So the
    message grows with the frontier, not with the board (a 1000x1000 board after its first click: a
    few hundred entries, not a million)."""
    try:
        a = analyse(view, explain=False)
    except InconsistentViewError:  # a board set by hand can contradict itself; show nothing
        return {}
    probs, cols = a.probabilities, view.cols
    listed = {str(r * cols + c): round(probs[r, c], 4) for r, c in sorted(a.frontier)}
    if a.interior:
        listed[ELSEWHERE] = round(probs[next(iter(a.interior))], 4)
    return listed


FALLBACK_CELLS = 1024
"""Boards up to this many cells get their cells drawn in the HTML fallback (about 4 KB at most)."""

_GLYPHS = str.maketrans(
    {".": "\u25a0", "f": "\u2691", "0": "\u00b7", "*": "\u2731", "X": "\u2739", "F": "\u2691", "x": "\u2717"}
)


def snapshot_html(session: Session) -> str:
    """The small text/html fallback saved with the notebook: the player's view as text, and a note.

    Shown where widgets do not render (GitHub, nbviewer without widget state, an email). Covered cells
    are squares, flags flags, revealed zeros dots; mines appear only once the game is over (it reads the
    view). A few KB at most: bigger boards get the note only.
    """
    view = session.view
    left = "" if view.over else f", {view.flags_left} left"
    facts = f"{view.rows}x{view.cols}, {view.mines} mines, {view.status}{left}"
    if session.summary:
        facts += f", {session.summary}"
    grid = ""
    if view.rows * view.cols <= FALLBACK_CELLS:
        cells = view.cells.translate(_GLYPHS)
        lines = (" ".join(cells[r * view.cols : (r + 1) * view.cols]) for r in range(view.rows))
        grid = f'<pre style="margin:0 0 4px;line-height:1.15">{html.escape(chr(10).join(lines))}</pre>'
    return (
        '<div class="ipyms-snapshot" style="display:inline-block;padding:6px 10px;'
        'border:1px solid #8888;border-radius:8px;font:13px/1.3 monospace">'
        f"{grid}<div><b>Minesweeper</b> {html.escape(facts)}</div>"
        f'<div style="opacity:.75"><i>{SNAPSHOT_NOTE}</i></div></div>'
    )
