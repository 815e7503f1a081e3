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
    "Explanation",
    "InvalidMoveError",
    "Move",
    "Strategy",
    "apply_move",
    "check_move",
    "evidence",
    "playable",
    "validate_move",
]

Action = Literal["reveal", "flag", "chord"]
ACTIONS: tuple[str, ...] = ("reveal", "flag", "chord")


Explanation = tuple[str, tuple[Position, ...], tuple[Position, ...]]
"""A move's ``(reason, numbers, constrained)``."""


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Move:
    """One move of a strategy: what to do, where, why, and what the strategy knew.

    ``Move(action, pos, reason, probability, score, numbers, constrained)``. ``probability`` is ``0.0``
    for a move the strategy knows is safe, ``1.0`` for flagging a certain mine, a value in between for a
    guess, and ``None`` when the strategy does not know. A strategy that ranks cells by some other
    measure puts it in ``score`` instead (it is not a probability). ``numbers`` are the revealed numbers
    the reason rests on and ``constrained`` the covered cells they constrain: the widget highlights
    both, in two styles.

    ``why`` holds ``(reason, numbers, constrained)``, or a pure function of nothing that works them out
    when they are read (``Move(action, pos, probability=p, why=f)``): ``exact`` words its certain moves
    only for whoever reads them. Either way the move compares, hashes, prints and pickles as the move
    given those three.

    Every field is checked when the move is made: ``Move("reveal", 3, 4)`` raises a TypeError that says
    to write ``Move('reveal', (3, 4))``.
    """

    action: Action
    pos: Position
    probability: float | None
    score: float | None
    why: Explanation | Callable[[], Explanation]

    __match_args__ = ("action", "pos", "reason", "probability", "score", "numbers", "constrained")

    def __init__(
        self,
        action: Action,
        pos: Position,
        reason: str | None = None,
        probability: float | None = None,
        score: float | None = None,
        numbers: tuple[Position, ...] | None = None,
        constrained: tuple[Position, ...] | None = None,
        *,
        why: Explanation | Callable[[], Explanation] = ("", (), ()),
    ) -> None:
        check_move(action, pos, probability, score, reason)
        if reason is not None or numbers is not None or constrained is not None or isinstance(why, tuple):
            given = why if isinstance(why, tuple) else why()  # dataclasses.replace names some of them
            why = (
                given[0] if reason is None else reason,
                given[1] if numbers is None else numbers,
                given[2] if constrained is None else constrained,
            )
            _check_explanation(why)
        fields = {"action": action, "pos": pos, "probability": probability, "score": score, "why": why}
        for name, value in fields.items():  # as a frozen dataclass's own __init__ does
            object.__setattr__(self, name, value)

    def explanation(self) -> Explanation:
        """``(reason, numbers, constrained)``: as given, or worked out now by ``why()``."""
        why = self.why
        return why if isinstance(why, tuple) else why()

    @property
    def reason(self) -> str:
        """Why the strategy makes this move, in words."""
        return self.explanation()[0]

    @property
    def numbers(self) -> tuple[Position, ...]:
        """The revealed numbers the reason rests on."""
        return self.explanation()[1]

    @property
    def constrained(self) -> tuple[Position, ...]:
        """The covered cells those numbers constrain."""
        return self.explanation()[2]

    def kept(self) -> Move:
        """This move with its explanation worked out and held: a move kept for long (a game's history)
        then holds nothing it was worked out from, such as a big board's view."""
        return self if isinstance(self.why, tuple) else Move(*self.fields())

    def fields(self) -> tuple[Any, ...]:
        """``(action, pos, reason, probability, score, numbers, constrained)``."""
        reason, numbers, constrained = self.explanation()
        return (self.action, self.pos, reason, self.probability, self.score, numbers, constrained)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in zip(self.__match_args__, self.fields(), strict=True))
        return f"Move({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, self.fields())

    @property
    def is_guess(self) -> bool:
        """A reveal that is not known to be safe (probability unknown or above zero)."""
        return self.action == "reveal" and self.probability != 0.0

    def __str__(self) -> str:
        where = format_position(self.pos)
        return f"{self.action} {where}: {self.reason}" if self.reason else f"{self.action} {where}"


def _check_explanation(why: Explanation) -> None:
    if not isinstance(why[0], str):
        raise TypeError(f"a Move's reason is a str, not {quote(why[0])}")
    for name, cells in (("numbers", why[1]), ("constrained", why[2])):
        if not isinstance(cells, tuple):
            raise TypeError(f"a Move's {name} is a tuple of (row, col) positions, not {quote(cells)}")
        for pos in cells:
            as_position(pos)


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
