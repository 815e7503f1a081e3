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
    Hint,
    Live,
    Message,
    MessageError,
    NewGame,
    Pause,
    Play,
    Resume,
    Reveal,
    Scrub,
    SelectStrategy,
    SetBoard,
    SetCellSize,
    SetDelay,
    SetLabels,
    SetQuestionMarks,
    ShowProbabilities,
    Step,
    Undo,
)
from .session import Assistance, Session, Settings, StrategyError, start, update
from .stats import GameResult, LevelStats, Stats
from .widget import Minesweeper

__all__ = [
    "AddStrategy",
    "Assistance",
    "Chord",
    "Flag",
    "GameResult",
    "Hint",
    "History",
    "LevelStats",
    "Live",
    "Message",
    "MessageError",
    "Minesweeper",
    "NewGame",
    "Pause",
    "Play",
    "Resume",
    "Reveal",
    "Scrub",
    "SelectStrategy",
    "Session",
    "SetBoard",
    "SetCellSize",
    "SetDelay",
    "SetLabels",
    "SetQuestionMarks",
    "Settings",
    "ShowProbabilities",
    "Stats",
    "Step",
    "StrategyError",
    "Turn",
    "Undo",
    "start",
    "update",
]
