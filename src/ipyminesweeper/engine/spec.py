"""The kind of a game as one checked value: its size, mines, first-click rule and seed (a :class:`GameSpec`).

:meth:`GameSpec.parse` is the one reader of the ways a game can be asked for: a level (``"expert"``), a
size and mines (``rows``, ``cols``, ``mines``, or ``size=`` and ``density=``), a first-click rule and a
seed, with what is left out taken from another game (``like=``) or from the defaults. ``new_board``, the
widget's constructor and ``new_game``, the picker's ``NewGameOf`` message and the session all call it.
Every argument is checked before anything is allocated, and a spec can only be made valid.

>>> GameSpec.parse("expert")
GameSpec(rows=16, cols=30, mines=99, first_click='opening', seed=None)
>>> GameSpec.parse(size=10, density=0.2, first_click="safe").mines
20
>>> GameSpec.parse(first_click="any", like=GameSpec(9, 9, 10)).level
'beginner'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from .board import Board
from .errors import quote
from .geometry import shape_error

if TYPE_CHECKING:
    from typing_extensions import Unpack

from .minefield import FIRST_CLICK_POLICIES, LEVELS, max_mines, mine_count_error, policy_error, seed_error

__all__ = ["DEFAULT_DENSITY", "GameOptions", "GameSpec"]


class GameOptions(TypedDict, total=False):
    """What asks for a game besides ``rows``, ``cols`` and ``mines`` (``new_board`` reads the same)."""

    level: str | None
    size: int | None
    density: float | None
    seed: int | None
    first_click: str | None


DEFAULT_DENSITY = 40 / 256
"""The share of mines when a size is given without ``mines=`` or ``density=`` (intermediate's)."""


@dataclass(frozen=True)
class GameSpec:
    """A kind of game: ``rows`` x ``cols`` with ``mines``, the ``first_click`` rule, and the ``seed`` the
    mines are drawn from (None: a fresh one is drawn when the board is made). Checked when it is made."""

    rows: int
    cols: int
    mines: int
    first_click: str = "opening"
    seed: int | None = None

    def __post_init__(self) -> None:
        problem = (
            shape_error(self.rows, self.cols)
            or policy_error(self.first_click)
            or mine_count_error(self.rows, self.cols, self.mines, self.first_click)
            or (None if self.seed is None else seed_error(self.seed))
        )
        if problem is not None:
            raise problem

    @property
    def level(self) -> str | None:
        """The name of the classic level this game is (``"expert"``), or None."""
        return next(
            (name for name, kind in LEVELS.items() if kind == (self.rows, self.cols, self.mines)), None
        )

    @classmethod
    def of(cls, board: Board) -> GameSpec:
        """The kind of game ``board`` is (its seed included)."""
        return cls(board.rows, board.cols, board.mines, board.first_click, board.seed)

    @classmethod
    def parse(
        cls,
        rows: int | str | None = None,
        cols: int | None = None,
        mines: int | None = None,
        *,
        like: GameSpec | None = None,
        **options: Unpack[GameOptions],
    ) -> GameSpec:
        """The game these arguments ask for (``new_board``'s meanings); a TypeError or ValueError says what
        is wrong. What is left out comes from ``like`` (its size and mines when no size, level, mines or
        density is given, and its first-click rule), else from the defaults: an intermediate game, with
        the first click ``"opening"``. The seed is never taken from ``like``."""
        level, size, density = options.get("level"), options.get("size"), options.get("density")
        seed, first_click = options.get("seed"), options.get("first_click")
        if isinstance(rows, str):  # new_board("expert")
            if level is not None:
                raise TypeError(f"give the level once: new_board({rows!r}) or new_board(level={rows!r})")
            level, rows = rows, None
        if first_click is None:
            first_click = "opening" if like is None else like.first_click
        if like is not None and level is None and not _given(r=rows, c=cols, m=mines, s=size, d=density):
            rows, cols, mines = like.rows, like.cols, like.mines
        rows, cols, mines, density = _shape(rows, cols, mines, level, size, density)
        error = shape_error(rows, cols, ("size", "size") if size is not None else ("rows", "cols"))
        if error:
            raise error
        assert isinstance(rows, int) and isinstance(cols, int)
        if policy_error(first_click) is not None:
            rules = ", ".join(FIRST_CLICK_POLICIES)
            raise ValueError(f"unknown first_click {quote(first_click)}: use one of {rules}")
        if mines is not None and density is not None:
            raise TypeError("give mines= (a count) or density= (a ratio between 0 and 1), not both")
        if density is not None:
            mines = _mines_of(density, rows, cols, first_click)
        assert mines is not None
        return cls(rows, cols, mines, first_click, seed)  # checks the mines and the seed


def _shape(
    rows: int | None,
    cols: int | None,
    mines: int | None,
    level: str | None,
    size: int | None,
    density: float | None,
) -> tuple[int, int, int | None, float | None]:
    """Rows, columns, mines and density from a level, a size or rows and columns (nothing: intermediate)."""
    if level is not None:
        if not isinstance(level, str):
            hint = " (did you mean size=...?)" if isinstance(level, int) else ""
            raise TypeError(f"level is a level name ({', '.join(LEVELS)}), not {quote(level)}{hint}")
        if level not in LEVELS:
            raise ValueError(f"unknown level {quote(level)}: use one of {', '.join(LEVELS)}")
        given = _given(rows=rows, cols=cols, mines=mines, size=size, density=density)
        if given:
            raise TypeError(f"the {level!r} level sets the size and mines: do not also pass {given}")
        rows, cols, mines = LEVELS[level]
    if size is not None:
        if rows is not None or cols is not None:
            raise TypeError("give either size= (a square board) or rows and cols, not both")
        rows = cols = size
    if rows is None:
        given = _given(cols=cols, mines=mines, density=density)
        if given:
            raise TypeError(f"{given} need a size: pass size= or rows and cols (e.g. new_board(9, 9, 10))")
        rows, cols, mines = LEVELS["intermediate"]
    if mines is None and density is None:
        density = DEFAULT_DENSITY
    return rows, rows if cols is None else cols, mines, density


def _mines_of(density: object, rows: int, cols: int, first_click: str) -> int:
    """The mine count of a ``density`` (a ratio from 0 to below 1), at most what fits."""
    if isinstance(density, bool) or not isinstance(density, (int, float)):
        raise TypeError(f"density must be a number between 0 and 1, not {quote(density)}")
    if not 0 <= density < 1:
        raise ValueError(f"density must be at least 0 and below 1, not {density}")
    return min(round(density * rows * cols), max_mines(rows, cols, first_click))


def _given(**arguments: object) -> str:
    """The names of the arguments that were given (not None), for an error message: "mines=, size="."""
    return ", ".join(f"{name}=" for name, value in arguments.items() if value is not None)
