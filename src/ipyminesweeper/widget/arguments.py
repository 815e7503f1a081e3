"""The arguments of ``Minesweeper(...)`` and its methods, read and checked: the start board, a position
written two ways, and keywords with a "did you mean" for a misspelt one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..engine import Board, BoardOptions, GameSpec, Position, new_board
from ..engine.geometry import as_position

__all__ = ["BOARD_PARAMETERS", "PARAMETERS", "check_keywords", "given_board", "position_of"]


def given_board(level: str | Board | None, board: Board | None, options: Mapping[str, Any]) -> Board:
    """The start board for the constructor's (and ``new_game``'s) arguments. A board given whole is
    taken as it is; everything else goes to :meth:`GameSpec.parse`, which checks it."""
    given = {k: v for k, v in options.items() if v is not None}
    if isinstance(level, Board):
        if board is not None:
            raise TypeError("give the board once: Minesweeper(board) or Minesweeper(board=board)")
        board, level = level, None
    if board is None:
        return new_board(GameSpec.parse(level=level, **given))
    if not isinstance(board, Board):
        raise TypeError(f"board must be an ipyminesweeper Board, not {type(board).__name__}")
    if level is not None or given:
        raise TypeError(
            "a given board already has its size, mines, seed and first-click rule: pass nothing "
            f"else (got {', '.join(f'{k}=' for k in given) or 'a level'})"
        )
    return board


def position_of(method: str, row: object, col: object) -> Position:
    """The position of ``w.reveal(3, 4)`` or ``w.reveal((3, 4))``, or an error that shows both."""
    if col is None:
        if isinstance(row, int) and not isinstance(row, bool):
            raise TypeError(
                f"row {row} needs a column: write w.{method}({row}, col) or w.{method}(({row}, col))"
            )
        return as_position(row)
    return as_position((row, col))


BOARD_PARAMETERS = ("level", "board", *BoardOptions.__annotations__)
"""The keyword arguments of ``new_game(...)``: a level, a board, or new_board's options."""
PARAMETERS = (*BOARD_PARAMETERS, "strategy", "delay", "stats_store", "awaits_link")
"""The keyword arguments of ``Minesweeper(...)`` besides the widget's traits."""

_SPELLINGS = {"width": "cols", "height": "rows", "columns": "cols", "n_mines": "mines", "bombs": "mines"}


def check_keywords(
    kwargs: Mapping[str, Any], allowed: Iterable[str], call: str, valid: Sequence[str], more: str = ""
) -> None:
    """A TypeError for a keyword ``call`` does not take, naming the ``valid`` ones (and ``more``)."""
    allowed = set(allowed)
    unknown = sorted(k for k in kwargs if k not in allowed)
    if not unknown:
        return
    name = unknown[0]
    close = _SPELLINGS.get(name) or next(iter(difflib.get_close_matches(name, valid, 1)), None)
    hint = f" (did you mean {close}=?)" if close else ""
    raise TypeError(f"{call} got an unexpected keyword argument {name!r}{hint}: use {', '.join(valid)}{more}")
