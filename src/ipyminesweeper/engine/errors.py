"""The engine's errors (both ``ValueError`` subclasses), and how a bad value is quoted in one."""

from __future__ import annotations

__all__ = ["BoardError", "GameOverError", "game_over", "quote"]


class BoardError(ValueError):
    """A board (or board notation) that breaks one of the invariants; the message names the field."""


class GameOverError(ValueError):
    """A move on a board whose game has ended (won or lost)."""


def game_over(status: str, then: str = "") -> GameOverError:
    """The error for a move on a game that is ``status`` ("won" or "lost"); ``then``: what to do instead."""
    return GameOverError(f"the game on this board is {status}: no more moves{then}")


def quote(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error message never echoes a huge input back."""
    if isinstance(value, int) and value.bit_length() > 256:
        return f"<an int of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
