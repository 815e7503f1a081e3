"""The widget: an Elm-style shell around the engine.

- :mod:`.session_update`: the model (a frozen ``Session``) and ``update(session, message) -> (session,
  effects)``, the only place where state changes;
- :mod:`.messages`: the messages (``Reveal``, ``Flag``, ``Step``, ...), from Python calls and the browser;
- :mod:`.effects`: what ``update`` asks the runtime to do (draw a seed, record a game, log), as data;
- :mod:`.subscriptions`: which timers a session needs (the autoplayer's);
- :mod:`.render`: the synced traitlets as a pure function of the session;
- :mod:`.runtime`: the anywidget that performs the effects; :mod:`.widget`: ``Minesweeper``, its API;
- :mod:`.link`: a game in a link (``w.link()``, ``Minesweeper.from_link``), read back and checked.
"""

from . import effects, messages
from .effects import *  # noqa: F403 (every effect, as listed in effects.__all__)
from .history import History, Turn
from .link import LinkError, SharedGame, read_link
from .messages import *  # noqa: F403 (every message, as listed in messages.__all__)
from .runtime_state import RuntimeState, runtime_update
from .session import Assistance, AutoplayRun, Problem, Reviewed, Session, Settings, Shared
from .session_update import StrategyError, start, update, update_all
from .stats import GameResult, LevelStats, Stats
from .subscriptions import Every, subscriptions
from .widget import Minesweeper

__all__ = [
    "Assistance",
    "AutoplayRun",
    "Every",
    "GameResult",
    "History",
    "LevelStats",
    "LinkError",
    "Minesweeper",
    "Problem",
    "Reviewed",
    "RuntimeState",
    "Session",
    "Settings",
    "Shared",
    "SharedGame",
    "Stats",
    "StrategyError",
    "Turn",
    "read_link",
    "runtime_update",
    "start",
    "subscriptions",
    "update",
    "update_all",
]
__all__ += effects.__all__
__all__ += messages.__all__
