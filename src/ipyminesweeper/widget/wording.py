"""How the widget words what it shows around the strategies' reasons, in one place: the end of a game,
the help a game had, and a step of the history. Positions are written ``(row,col)``, as in the reasons
(:func:`~ipyminesweeper.engine.format_position`); the reasons themselves are the strategies' words
(:mod:`ipyminesweeper.play.wording`, :mod:`ipyminesweeper.solver.wording`).
"""

from __future__ import annotations

from ..engine import Position, format_position

__all__ = [
    "BOARD_SET",
    "NO_SAFE_CELL",
    "START",
    "assistance",
    "game_over",
    "move_by",
    "no_safe_yet",
    "strategy_stopped",
]

START = "the start"
"""The first step of a history."""
BOARD_SET = "a board set from code"
"""A step of the history made by ``w.board = ...``."""

NO_SAFE_CELL = "no covered cell is certainly safe: every one of them may hide a mine"
"""What the scan key K (``NextSafe``) says when the exact solver proves no covered cell safe."""


def no_safe_yet(first_click: str) -> str:
    """What K says before the first move: the first click decides (``first_click``: the board's rule)."""
    if first_click == "any":
        return "no cell is certainly safe before the first move: the first click may lose"
    return (
        f"no cell is proved safe before the first move; the first click is safe (first click: {first_click})"
    )


def _count(n: int, one: str, many: str) -> str:
    return "" if n == 0 else f"1 {one}" if n == 1 else f"{n} {many}"


def assistance(
    undos_after_loss: int, hints: int, autoplayer_moves: int, boards_set: int, rewinds: int, overlay: bool
) -> str:
    """``"1 undo after a loss, 2 hints"``: what helped a game, or ``""``."""
    parts = [
        _count(undos_after_loss, "undo after a loss", "undos after a loss"),
        _count(hints, "hint", "hints"),
        _count(autoplayer_moves, "autoplayer move", "autoplayer moves"),
        _count(boards_set, "board set from code", "boards set from code"),
        _count(rewinds, "resume from history", "resumes from history"),
        "the probability overlay" if overlay else "",
    ]
    return ", ".join(p for p in parts if p)


def game_over(won: bool, seconds: int, helped: str) -> str:
    """The end-of-game message: ``"won in 41 s"``, ``"lost after 41 s (assisted: 2 hints)"``."""
    text = f"won in {seconds} s" if won else f"lost after {seconds} s"
    return f"{text} (assisted: {helped})" if helped else text


def move_by(who: str | None, action: str, pos: Position, reason: str = "") -> str:
    """A move in the history: ``"exact: reveal (4,7): (4,7) is safe: ..."`` (``who`` None: the player)."""
    said = f": {reason}" if reason else ""
    return f"{who or 'you'}: {action} {format_position(pos)}{said}"


def strategy_stopped(who: str, seconds: float, why: str, limit: float, autoplaying: bool) -> str:
    """Why the autoplayer's strategy (``who``: ``"your strategy 'mine'"``) was stopped after ``seconds``
    (0: between two moves): ``why`` is ``"time limit"`` (``limit`` seconds), ``"interrupt"`` or
    ``"dropped"`` (a Pause came first; ``autoplaying``: a new autoplayer did)."""
    if why == "time limit":
        text = f"{who} ran for {seconds:.1f} s, past the time limit of {limit:g} s (w.strategy_time_limit)"
    elif why == "interrupt":
        text = "interrupted" + (f" while {who} had run for {seconds:.1f} s" if seconds else "")
    else:
        text = f"{'a new autoplayer' if autoplaying else 'the Pause'} stopped {who} after {seconds:.1f} s"
    if why != "dropped":
        text += ": the autoplayer stopped"
    if seconds:
        text += "; its move is dropped, the game is unchanged, and its thread is told to stop"
    return text
