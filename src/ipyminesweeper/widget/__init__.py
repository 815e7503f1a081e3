"""The widget: an Elm-style shell around the engine.

- :mod:`.session`: the model (a frozen ``Session``) and ``update(session, message)``, the only place
  where state changes;
- :mod:`.messages`: the messages (``Reveal``, ``Flag``, ``Step``, ...), from Python calls and the browser;
- :mod:`.render`: the synced traitlets as a pure function of the session;
- :mod:`.widget`: ``Minesweeper``, the thin anywidget shell.
"""

from .history import History, Turn
from .messages import (
    AddStrategy,
    Chord,
    Flag,
    Message,
    MessageError,
    NewGame,
    Pause,
    Play,
    Reveal,
    SelectStrategy,
    SetBoard,
    SetDelay,
    ShowProbabilities,
    Step,
    Undo,
)
from .session import Assistance, Session, StrategyError, start, update
from .widget import Minesweeper

__all__ = [
    "AddStrategy",
    "Assistance",
    "Chord",
    "Flag",
    "History",
    "Message",
    "MessageError",
    "Minesweeper",
    "NewGame",
    "Pause",
    "Play",
    "Reveal",
    "SelectStrategy",
    "Session",
    "SetBoard",
    "SetDelay",
    "ShowProbabilities",
    "Step",
    "StrategyError",
    "Turn",
    "Undo",
    "start",
    "update",
]
