"""How the widget words what it shows around the strategies' reasons, in one place: the end of a game,
the help a game had, and a step of the history. Positions are written ``(row,col)``, as in the reasons
(:func:`~ipyminesweeper.engine.format_position`); the reasons themselves are the strategies' words
(:mod:`ipyminesweeper.play.wording`, :mod:`ipyminesweeper.solver.wording`).
"""

from __future__ import annotations

from ..engine import Position, format_position

__all__ = ["BOARD_SET", "START", "assistance", "game_over", "move_by"]

START = "the start"
"""The first step of a history."""
BOARD_SET = "a board set from code"
"""A step of the history made by ``w.board = ...``."""


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
