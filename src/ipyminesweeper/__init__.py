"""ipyminesweeper: Minesweeper as immutable data and pure functions, a Jupyter widget, and an autoplayer.

>>> import ipyminesweeper as ms
>>> board = ms.new_board(9, 9, 10, seed=1)
>>> board = ms.reveal(board, (4, 4))
>>> board.status
'playing'
"""

from .board import Board, BoardError, CellState, GameOverError
from .geometry import Position
from .rules import LEVELS, chord, max_mines, new_board, reveal, toggle_flag
from .view import View

__version__ = "0.1.0"

__all__ = [
    "LEVELS",
    "Board",
    "BoardError",
    "CellState",
    "GameOverError",
    "Position",
    "View",
    "__version__",
    "chord",
    "max_mines",
    "new_board",
    "reveal",
    "toggle_flag",
]
