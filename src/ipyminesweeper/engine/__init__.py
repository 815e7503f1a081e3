"""The engine: Minesweeper's values and rules, in the standard library only, importing nothing above it.

Modules, bottom up: ``errors``, ``geometry`` (positions, neighbours, the size cap), ``cells`` (cell
states and their text tables), ``minefield`` (mine layouts, levels, policies, seeds), ``placement``
(where the mines go, per first-click policy), ``spec`` (the kind of a game, checked), ``notation`` (text
and JSON readers), ``view`` (what a player sees), ``board`` (the validated ``Board``) and ``rules``
(the pure moves); then the recorded game: ``replay`` (``Replay``, ``Click``: the boards and the clicks
between them), ``metrics`` (3BV, ZiNi, clicks, efficiency and the rest), ``mouse`` (a recording's mouse
events to clicks) and ``rawvf`` (the RAWVF replay format, read and written).
"""

from .board import Board
from .cells import CellState, Status
from .errors import BoardError, GameOverError
from .geometry import MAX_CELLS, Position, format_position
from .metrics import ClickCounts, GameMetrics, bbbv, game_metrics, zini
from .minefield import FIRST_CLICK_POLICIES, LEVELS, SEED_BITS, Minefield, PendingMines, max_mines
from .placement import Placement, register_placement
from .replay import Click, ClickKind, Replay, ReplayError
from .rules import (
    BoardOptions,
    chord,
    idle_move,
    new_board,
    open_cells,
    place_mines,
    reveal,
    toggle_flag,
)
from .spec import DEFAULT_DENSITY, GameSpec
from .view import View

__all__ = [
    "DEFAULT_DENSITY",
    "FIRST_CLICK_POLICIES",
    "LEVELS",
    "MAX_CELLS",
    "SEED_BITS",
    "Board",
    "BoardError",
    "BoardOptions",
    "CellState",
    "Click",
    "ClickCounts",
    "ClickKind",
    "GameMetrics",
    "GameOverError",
    "GameSpec",
    "Minefield",
    "PendingMines",
    "Placement",
    "Position",
    "Replay",
    "ReplayError",
    "Status",
    "View",
    "bbbv",
    "chord",
    "format_position",
    "game_metrics",
    "idle_move",
    "max_mines",
    "new_board",
    "open_cells",
    "place_mines",
    "register_placement",
    "reveal",
    "toggle_flag",
    "zini",
]
