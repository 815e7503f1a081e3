"""Which timers a session needs, as data (Elm's ``subscriptions``): a pure function of the session.

The runtime (:mod:`.runtime`) compares the answer with the timers it runs after every change of the
session, starts the new ones and stops the ones no longer asked for. So nothing but the session decides
whether the autoplayer runs: Autoplay, Pause, the end of the game, a new game, a look back through the
history, a failing strategy and the move limit all act by changing the session.

There is no clock timer: the browser counts the seconds itself from the synced ``started_at``, and the
time comes into ``update`` with each message (``now=``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import AutoStep, Message
from .runtime_state import IDLE, RuntimeState, Settle
from .session import Session

__all__ = ["Every", "subscriptions"]


SETTLE = 1.0
"""Seconds after the last move sent as a patch when the whole board goes again (:mod:`.board_wire`)."""


@dataclass(frozen=True)
class Every:
    """A timer: send ``message`` at once (or, ``later``, after ``seconds``), then ``seconds`` after each one
    was handled, while asked for."""

    seconds: float
    message: Message
    later: bool = False


def subscriptions(session: Session, state: RuntimeState = IDLE) -> tuple[Every, ...]:
    """The timers ``session`` and the runtime's ``state`` need: the autoplayer's, while it runs (its delay
    between two moves); and once moves went as patches, the whole board a second after the last one, so
    that the browser's copy of the state (what a saved notebook or a second view starts from) is whole
    again."""
    timers = []
    if session.autoplaying:
        timers.append(Every(session.settings.delay, AutoStep()))
    if state.wire.patch is not None:
        timers.append(Every(SETTLE, Settle(state.wire.version), later=True))
    return tuple(timers)
