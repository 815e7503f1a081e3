"""What :func:`~ipyminesweeper.widget.session.update` asks the shell to do, as frozen data (Elm's ``Cmd``).

``update`` is pure: it reads no file, no clock and no random number. When a message needs one of those
(a finished game is recorded, a new game needs a fresh seed), ``update`` returns an *effect* next to the
new session, and the shell (:mod:`.widget`) performs it. An effect with an outcome sends it back as a
message, so what the shell did is again a value that ``update`` reads::

    session, effects = update(session, NewGameOf(), now=now)   # effects == (DrawSeed(NewGameOf(...)),)
    # the shell draws a seed and sends NewGameOf(..., seed=...) back

A test can therefore run a whole game through ``update`` and look at the effects it asked for, with no
kernel, no file and no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .messages import NewGameOf
from .stats import GameResult

__all__ = ["DrawSeed", "Effect", "LoadStats", "Log", "RecordResult", "ResendBoard", "ResendSettings"]


@dataclass(frozen=True)
class DrawSeed:
    """Draw a fresh 128-bit seed and send ``game`` back with it (``replace(game, seed=...)``)."""

    game: NewGameOf


@dataclass(frozen=True)
class RecordResult:
    """Add a finished game to the statistics store; the store's new summary comes back as ``StatsChanged``."""

    result: GameResult


@dataclass(frozen=True)
class LoadStats:
    """Read the statistics store; the summary comes back as ``StatsChanged``."""


@dataclass(frozen=True)
class Log:
    """Write ``text`` to the log: a warning, or, when a user strategy failed (``error`` chains what it
    raised), an error with that traceback."""

    text: str
    error: BaseException | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ResendSettings:
    """Send the player's settings to the browser again: it changed one that was refused, so its copy is
    no longer the session's."""


@dataclass(frozen=True)
class ResendBoard:
    """Send the browser the whole board again: it missed a change (a patch it could not apply)."""


Effect = DrawSeed | RecordResult | LoadStats | Log | ResendSettings | ResendBoard
"""Everything ``update`` may ask of the shell."""
