"""The engine: Minesweeper's values and rules, in the standard library only, importing nothing above it.

Modules, bottom up: ``errors``, ``geometry`` (positions, neighbours, the size cap), ``cells`` (cell
states and their text tables), ``minefield`` (mine layouts, levels, policies, seeds), ``placement``
(where the mines go, per first-click policy), ``spec`` (the kind of a game, checked), ``notation`` (text
and JSON readers), ``view`` (what a player sees), ``board`` (the validated ``Board``) and ``rules``
(the pure moves).
"""

from .board import Board
from .cells import CellState, Status
from .errors import BoardError, GameOverError
from .geometry import MAX_CELLS, Position, format_position
from .minefield import FIRST_CLICK_POLICIES, LEVELS, SEED_BITS, Minefield, PendingMines, max_mines
from .placement import Placement, register_placement
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
    "GameOverError",
    "GameSpec",
    "Minefield",
    "PendingMines",
    "Placement",
    "Position",
    "Status",
    "View",
    "chord",
    "format_position",
    "idle_move",
    "max_mines",
    "new_board",
    "open_cells",
    "place_mines",
    "register_placement",
    "reveal",
    "toggle_flag",
]
