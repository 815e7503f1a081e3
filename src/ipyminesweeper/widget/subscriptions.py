"""Which timers a session needs, as data (Elm's ``subscriptions``): a pure function of the session.

The shell (:mod:`.widget`) compares the answer with the timers it runs after every change of the
session, starts the new ones and stops the ones no longer asked for. So nothing but the session decides
whether the autoplayer runs: Play, Pause, the end of the game, a new game, a look back through the history,
a failing strategy and the move limit all act by changing the session.

There is no clock timer: the browser counts the seconds itself from the synced ``started_at``, and the
time comes into ``update`` with each message (``now=``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import AutoStep, Message
from .session import Session

__all__ = ["Every", "subscriptions"]


@dataclass(frozen=True)
class Every:
    """A timer: send ``message`` at once, then ``seconds`` after each one was handled, while asked for."""

    seconds: float
    message: Message


def subscriptions(session: Session) -> tuple[Every, ...]:
    """The timers ``session`` needs: the autoplayer's, while it runs (its delay between two moves)."""
    if session.autoplaying:
        return (Every(session.settings.delay, AutoStep()),)
    return ()
