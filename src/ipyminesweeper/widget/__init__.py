"""The widget: an Elm-style shell around the engine.

- :mod:`.session`: the model (a frozen ``Session``) and ``update(session, message) -> (session,
  effects)``, the only place where state changes;
- :mod:`.messages`: the messages (``Reveal``, ``Flag``, ``Step``, ...), from Python calls and the browser;
- :mod:`.effects`: what ``update`` asks the shell to do (draw a seed, record a game, log), as data;
- :mod:`.subscriptions`: which timers a session needs (the autoplayer's);
- :mod:`.render`: the synced traitlets as a pure function of the session;
- :mod:`.widget`: ``Minesweeper``, the thin anywidget shell.
"""

from .effects import DrawSeed, Effect, LoadStats, Log, RecordResult, ResendSettings
from .history import History, Turn
from .messages import (
    AddStrategy,
    AutoStep,
    BadInput,
    Chord,
    Flag,
    FromBrowser,
    Hint,
    Live,
    Message,
    MessageError,
    NewGame,
    NewGameOf,
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
    StatsChanged,
    Step,
    Undo,
)
from .session import (
    Assistance,
    Autoplay,
    Problem,
    Session,
    Settings,
    StrategyError,
    start,
    update,
    update_all,
)
from .stats import GameResult, LevelStats, Stats
from .subscriptions import Every, subscriptions
from .widget import Minesweeper

__all__ = [
    "AddStrategy",
    "Assistance",
    "AutoStep",
    "Autoplay",
    "BadInput",
    "Chord",
    "DrawSeed",
    "Effect",
    "Every",
    "Flag",
    "FromBrowser",
    "GameResult",
    "Hint",
    "History",
    "LevelStats",
    "Live",
    "LoadStats",
    "Log",
    "Message",
    "MessageError",
    "Minesweeper",
    "NewGame",
    "NewGameOf",
    "Pause",
    "Play",
    "Problem",
    "RecordResult",
    "ResendSettings",
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
    "StatsChanged",
    "Step",
    "StrategyError",
    "Turn",
    "Undo",
    "start",
    "subscriptions",
    "update",
    "update_all",
]
