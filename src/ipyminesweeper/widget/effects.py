"""What :func:`.session_update.update` asks the runtime to do, as frozen data (Elm's ``Cmd``).

``update`` is pure: it reads no file, no clock and no random number. When a message needs one of those
(a finished game is recorded, a new game needs a fresh seed), ``update`` returns an *effect* next to the
new session. Each effect carries the message that reports its result, as Elm's commands do, and says how
it is performed (:meth:`perform`), so the runtime (:mod:`.runtime`) performs any effect with one
loop: ``for reply in effect.perform(world): run(reply)``::

    session, effects = update(session, NewGameOf(), now=now)   # effects == (DrawSeed(NewGameOf(...)),)
    # the runtime draws a seed and runs NewGameOf(..., seed=...)

A test can therefore run a whole game through ``update`` and look at the effects it asked for, with no
kernel, no file and no randomness.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..engine.minefield import new_seed
from .messages import SETTINGS, FromBrowser, Message, NewGameOf, StatsChanged
from .stats import GameResult, Stats, StatsStore

__all__ = [
    "DrawSeed",
    "Effect",
    "LoadStats",
    "Log",
    "RecordResult",
    "ResendBoard",
    "ResendSettings",
    "RunWaiting",
    "StatsStore",
    "World",
]

logger = logging.getLogger("ipyminesweeper.widget.widget")


class World(Protocol):
    """What effects act on: the statistics store, and the browser's copy of the synced traitlets."""

    @property
    def store(self) -> StatsStore:
        """The statistics store."""
        ...

    def resend(self, names: Iterable[str]) -> None:
        """Send the synced traitlets ``names`` again, as they are."""
        ...


Replies = tuple[Message, ...]


@dataclass(frozen=True)
class DrawSeed:
    """Draw a fresh 128-bit seed; the reply is ``game`` with it (``replace(game, seed=...)``)."""

    game: NewGameOf

    def perform(self, world: World) -> Replies:
        """The game, with a seed."""
        return (replace(self.game, seed=new_seed()),)


@dataclass(frozen=True)
class RecordResult:
    """Add a finished game to the statistics store; the reply is the store's new summary."""

    result: GameResult
    reply: Callable[[Stats, str], Message] = StatsChanged

    def perform(self, world: World) -> Replies:
        """The statistics after ``result``, and what the store has to say."""
        stats = world.store.add(self.result)
        return (self.reply(stats, world.store.notice()),)


@dataclass(frozen=True)
class LoadStats:
    """Read the statistics store; the reply is its summary."""

    reply: Callable[[Stats, str], Message] = StatsChanged

    def perform(self, world: World) -> Replies:
        """The statistics, and what the store has to say."""
        return (self.reply(world.store.load(), world.store.notice()),)


@dataclass(frozen=True)
class Log:
    """Write ``text`` to the log: a warning, or, when a user strategy failed (``error`` chains what it
    raised), an error with that traceback. No reply."""

    text: str
    error: BaseException | None = field(default=None, compare=False)

    def perform(self, world: World) -> Replies:
        """Nothing comes back."""
        cause = None if self.error is None else self.error.__cause__
        if cause is None:
            logger.warning("ipyminesweeper: %s", self.text)
        else:
            logger.error("ipyminesweeper: %s", self.text, exc_info=cause)
        return ()


@dataclass(frozen=True)
class ResendSettings:
    """Send the player's settings to the browser again: it changed one that was refused, so its copy is
    no longer the session's. No reply."""

    def perform(self, world: World) -> Replies:
        """Nothing comes back."""
        world.resend(sorted(SETTINGS))
        return ()


@dataclass(frozen=True)
class ResendBoard:
    """Send the browser the whole board again: it missed a change (a patch it could not apply). No reply."""

    def perform(self, world: World) -> Replies:
        """Nothing comes back."""
        world.resend(["cells", "cells_version"])
        return ()


@dataclass(frozen=True)
class RunWaiting:
    """Run the browser's ``requests`` that waited for the work that has just ended: they are the replies."""

    requests: tuple[FromBrowser, ...]

    def perform(self, world: World) -> Replies:
        """The requests, in the order they came."""
        return self.requests


Effect = DrawSeed | RecordResult | LoadStats | Log | ResendSettings | ResendBoard | RunWaiting
"""Everything ``update`` may ask of the runtime."""
