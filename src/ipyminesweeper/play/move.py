"""A strategy's move, how it is checked against a board, and how it is played.

A strategy is any callable ``strategy(view) -> Move``. It sees only the player's :class:`View`: the grid
size, the mine total, the status and the cells in the view alphabet (``.`` covered, ``f`` flagged,
``0``-``8`` revealed). It never sees the mines, so a strategy cannot cheat even by accident.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..engine import (
    Board,
    GameOverError,
    Position,
    View,
    chord,
    format_position,
    idle_move,
    reveal,
    toggle_flag,
)
from ..engine.errors import quote
from ..engine.geometry import as_position, neighbour_table
from ..solver.constraints import ViewLike, view_error

__all__ = [
    "ACTIONS",
    "Action",
    "InvalidMoveError",
    "Move",
    "Strategy",
    "apply_move",
    "check_move",
    "evidence",
    "explained_later",
    "playable",
    "validate_move",
]

Action = Literal["reveal", "flag", "chord"]
ACTIONS: tuple[str, ...] = ("reveal", "flag", "chord")


@dataclass(frozen=True)
class Move:
    """One move of a strategy: what to do, where, why, and what the strategy knew.

    ``probability`` is ``0.0`` for a move the strategy knows is safe, ``1.0`` for flagging a certain
    mine, a value in between for a guess, and ``None`` when the strategy does not know. A strategy that
    ranks cells by some other measure puts it in ``score`` instead (it is not a probability).
    ``numbers`` are the revealed numbers the reason rests on and ``constrained`` the covered cells they
    constrain: the widget highlights both, in two styles.

    A strategy may leave ``reason``, ``numbers`` and ``constrained`` to be worked out when first read
    (:func:`explained_later`): equality, hashing, ``repr`` and pickling use them as if they were given.

    Every field is checked when the move is made: ``Move("reveal", 3, 4)`` raises a TypeError that says
    to write ``Move('reveal', (3, 4))``.
    """

    action: Action
    pos: Position
    reason: str = ""
    probability: float | None = None
    score: float | None = None
    numbers: tuple[Position, ...] = ()
    constrained: tuple[Position, ...] = ()

    def __post_init__(self) -> None:
        check_move(self.action, self.pos, self.probability, self.score, self.reason)
        if not isinstance(self.reason, str):
            raise TypeError(f"a Move's reason is a str, not {quote(self.reason)}")
        for name in ("numbers", "constrained"):
            cells = getattr(self, name)
            if not isinstance(cells, tuple):
                raise TypeError(f"a Move's {name} is a tuple of (row, col) positions, not {quote(cells)}")
            for pos in cells:
                as_position(pos)

    def fields(self) -> tuple[Any, ...]:
        """``(action, pos, reason, probability, score, numbers, constrained)``."""
        return (
            self.action,
            self.pos,
            self.reason,
            self.probability,
            self.score,
            self.numbers,
            self.constrained,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    @property
    def is_guess(self) -> bool:
        """A reveal that is not known to be safe (probability unknown or above zero)."""
        return self.action == "reveal" and self.probability != 0.0

    def __str__(self) -> str:
        where = format_position(self.pos)
        return f"{self.action} {where}: {self.reason}" if self.reason else f"{self.action} {where}"


def check_move(action: object, pos: object, probability: object, score: object, reason: object = "") -> None:
    """Raise a TypeError or ValueError that says how to write a :class:`Move` if a field is wrong."""
    if action not in ACTIONS:
        raise ValueError(f"a Move's action is one of {', '.join(map(repr, ACTIONS))}, not {quote(action)}")
    try:
        as_position(pos)
    except TypeError:
        if isinstance(pos, int) and isinstance(reason, int):
            example = f"Move({action!r}, ({pos}, {reason}))"
        else:
            example = f"Move({action!r}, (row, col), reason)"
        raise TypeError(
            f"a Move's pos is a (row, col) tuple of two ints, not {quote(pos)}: write {example}"
        ) from None
    if probability is not None and not (_finite(probability) and 0 <= probability <= 1):  # type: ignore[operator]
        raise ValueError(f"a Move's probability is a number from 0 to 1, or None, not {quote(probability)}")
    if score is not None and not _finite(score):
        raise ValueError(f"a Move's score is a finite number or None, not {quote(score)}")


def _finite(x: object) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:  # an int too large for a float
        return False


Explanation = tuple[str, tuple[Position, ...], tuple[Position, ...]]
"""A move's ``(reason, numbers, constrained)``."""


def _resolved(move: Move, index: int) -> Any:
    state = move.__dict__
    done = state.get("_done")
    if done is None:
        explain = state.get("_explain")
        if explain is None:  # another thread has just worked it out
            done = state["_done"]
        else:
            done = state["_done"] = explain()
            state.pop("_explain", None)  # the view it captured is no longer needed
    return done[index]


class _ExplainedLater(Move):
    """A :class:`Move` whose reason, numbers and constrained are worked out when first read."""

    def __init__(
        self,
        action: Action,
        pos: Position,
        reason: str = "",
        probability: float | None = None,
        score: float | None = None,
        numbers: tuple[Position, ...] = (),
        constrained: tuple[Position, ...] = (),
        *,
        explain: Callable[[], Explanation] | None = None,
    ) -> None:
        check_move(action, pos, probability, score)
        state = self.__dict__
        state.update(action=action, pos=pos, probability=probability, score=score)
        if explain is None:  # given (dataclasses.replace makes one this way)
            state["_done"] = (reason, numbers, constrained)
        else:
            state["_explain"] = explain

    reason = property(lambda self: _resolved(self, 0))
    numbers = property(lambda self: _resolved(self, 1))
    constrained = property(lambda self: _resolved(self, 2))

    def __repr__(self) -> str:
        return repr(Move(*self.fields()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, self.fields())


def explained_later(
    action: Action, pos: Position, probability: float | None, explain: Callable[[], Explanation]
) -> Move:
    """A :class:`Move` whose ``(reason, numbers, constrained)`` are ``explain()``, called when one of
    them is first read (most callers never read them). ``explain`` must be pure: the move is equal to
    the plain ``Move`` with those fields."""
    return _ExplainedLater(action, pos, probability=probability, explain=explain)


Strategy = Callable[[View], Move]
"""A strategy: the player's view in, one move out."""


class InvalidMoveError(ValueError):
    """A strategy returned something that is not a legal, useful move on the board."""


def evidence(
    view: ViewLike, pos: Position, numbers: tuple[Position, ...] | None = None
) -> tuple[tuple[Position, ...], tuple[Position, ...]]:
    """What a move's highlight shows on ``view``: the numbers it rests on (``numbers``, or else the
    revealed numbers next to ``pos``) and the covered cells those numbers constrain. For
    :attr:`Move.numbers` and :attr:`Move.constrained`."""
    cols, cells = view.cols, view.cells
    table = neighbour_table(view.rows, cols)
    if numbers is None:
        numbers = tuple(divmod(j, cols) for j in table[pos[0] * cols + pos[1]] if "1" <= cells[j] <= "8")
    covered = sorted({k for r, c in numbers for k in table[r * cols + c] if cells[k] in ".f"})
    return numbers, tuple(divmod(k, cols) for k in covered)


def playable(view: View) -> tuple[int, int, str]:
    """``(rows, cols, cells)`` of a view a strategy can play on; GameOverError once the game is over."""
    error = view_error(view, "a strategy")
    if error:
        raise error
    rows, cols, cells = view.rows, view.cols, view.cells
    if len(cells) != rows * cols:
        raise ValueError(f"a {rows}x{cols} view has {rows * cols} cells, not {len(cells)}")
    if view.status not in ("ready", "playing"):
        raise GameOverError(f"the game is {view.status}: a strategy has nothing to play")
    return rows, cols, cells


def validate_move(board: Board, move: object, who: str = "the strategy") -> Move:
    """Check that ``move`` is a :class:`Move` that changes ``board``; raise InvalidMoveError if not."""
    if not isinstance(move, Move):
        raise InvalidMoveError(f"{who} returned {quote(move)}, not a Move(action, pos, reason, probability)")
    try:
        board.index(move.pos)
    except (TypeError, ValueError) as exc:
        raise InvalidMoveError(f"{who} returned a bad position: {exc}") from None
    idle = idle_move(board, move.action, move.pos)
    if idle is not None:
        raise InvalidMoveError(f"{who} tried to {move.action} {format_position(move.pos)}, but {idle}")
    return move


def apply_move(board: Board, move: Move) -> Board:
    """The board after a validated move."""
    if move.action == "reveal":
        return reveal(board, move.pos)
    if move.action == "flag":
        return toggle_flag(board, move.pos)
    return chord(board, move.pos)
