"""A game's history: every board since the start, as an immutable sequence, stored as moves.

Keeping every board would cost ``rows * cols`` bytes a move (10,000 flag toggles on 100 x 100 hold
100 MB). A :class:`History` keeps the start board and the moves instead, plus a whole board every
:data:`CHECKPOINT` turns; any board is rebuilt from the checkpoint before it by replaying at most that
many moves, which the rules make cheap and exact. To the reader it is simply a tuple of boards:
``len(history)``, ``history[i]``, ``history[-1]``, iteration and slicing all work, and nothing changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from ..engine import Board
from ..engine.errors import quote
from ..engine.pickling import CheckedPickle
from ..strategies import Move, apply_move

__all__ = ["CHECKPOINT", "History", "Turn", "Turns", "checked_index"]

CHECKPOINT = 64
"""A whole board is kept every this many turns (and wherever a move cannot be replayed)."""


@dataclass(frozen=True)
class Turn(CheckedPickle):
    """One step of a game: the ``move`` played, who chose it, and, at checkpoints, the ``board`` after it.

    ``move`` is None when a board was set directly (``w.board = ...``); ``strategy`` is the name of the
    strategy that chose the move, or None for the player.
    """

    move: Move | None
    strategy: str | None = None
    board: Board | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.move is not None and not isinstance(self.move, Move):
            raise TypeError(f"a turn's move is a Move or None, not {type(self.move).__name__}")
        if self.strategy is not None and not isinstance(self.strategy, str):
            raise TypeError(f"a turn's strategy is a name or None, not {type(self.strategy).__name__}")
        if self.board is not None and not isinstance(self.board, Board):
            raise TypeError(f"a turn's board is a Board or None, not {type(self.board).__name__}")
        if self.move is None and self.board is None:
            raise ValueError("a turn without a move (a board set directly) stores its board")


@dataclass(frozen=True, repr=False)
class Turns(Sequence[Turn]):
    """The turns of a game, oldest first: an immutable sequence that grows in constant time.

    A plain tuple would be copied whole at every move, so a move would cost more the longer the game.
    ``Turns`` keeps the full ``chunks`` of :data:`CHECKPOINT` turns, shared by every history that holds
    them, and a short ``tail``: :meth:`append` copies at most one chunk, and turn ``i`` is two index
    lookups away. Build one from a list of turns with :meth:`of`.
    """

    chunks: tuple[tuple[Turn, ...], ...] = ()
    tail: tuple[Turn, ...] = ()

    def __post_init__(self) -> None:
        if type(self.chunks) is not tuple or type(self.tail) is not tuple:
            raise TypeError("Turns holds tuples: use Turns.of(turns) to build one from a list")
        if len(self.tail) >= CHECKPOINT or (self.chunks and len(self.chunks[-1]) != CHECKPOINT):
            raise ValueError(f"Turns keeps chunks of exactly {CHECKPOINT} turns: use Turns.of(turns)")

    @classmethod
    def of(cls, turns: Iterable[Turn]) -> Turns:
        """The turns of ``turns``, in order (each must be a :class:`Turn`)."""
        items = tuple(turns)
        for turn in items:
            if not isinstance(turn, Turn):
                raise TypeError(f"a history holds Turns, not {type(turn).__name__}")
        cut = len(items) - len(items) % CHECKPOINT
        return cls(tuple(items[i : i + CHECKPOINT] for i in range(0, cut, CHECKPOINT)), items[cut:])

    def append(self, turn: Turn) -> Turns:
        """These turns and ``turn`` after them."""
        if not isinstance(turn, Turn):
            raise TypeError(f"a history holds Turns, not {type(turn).__name__}")
        if len(self.tail) == CHECKPOINT - 1:
            return Turns((*self.chunks, (*self.tail, turn)), ())
        return Turns(self.chunks, (*self.tail, turn))

    def __len__(self) -> int:
        return len(self.chunks) * CHECKPOINT + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> Turn: ...
    @overload
    def __getitem__(self, index: slice) -> Turns: ...
    def __getitem__(self, index: int | slice) -> Turn | Turns:
        if isinstance(index, slice):
            positions = range(len(self))[index]
            if positions.step == 1 and positions.start == 0:  # a prefix: the whole chunks are shared
                whole, rest = divmod(len(positions), CHECKPOINT)
                cut = self.chunks[whole] if whole < len(self.chunks) else self.tail
                return Turns(self.chunks[:whole], cut[:rest])
            return Turns.of(self[i] for i in positions)
        position = checked_index(index, len(self), "turns", "turn")
        chunk, offset = divmod(position, CHECKPOINT)
        return self.chunks[chunk][offset] if chunk < len(self.chunks) else self.tail[offset]

    def __iter__(self) -> Iterator[Turn]:
        for chunk in self.chunks:
            yield from chunk
        yield from self.tail

    def __repr__(self) -> str:
        return f"<Turns: {len(self)}>"

    def __reduce__(self) -> tuple[Any, tuple[tuple[Turn, ...]]]:
        return Turns.of, (tuple(self),)


@dataclass(frozen=True, repr=False)
class History(CheckedPickle, Sequence[Board]):
    """The boards of one game, oldest first: ``history[0]`` is the start, ``history[-1]`` the current one.

    Start one with :meth:`begin` and grow it with :meth:`add`; both return a new history. ``current`` is
    the last board, kept so that reading the live game never replays anything. Adding a move costs the
    same at move 50,000 as at move 1, and ``history[i]`` or a slice rebuilds only the boards asked for.
    """

    start: Board
    turns: Turns
    current: Board

    def __post_init__(self) -> None:
        for name, value, kind in (
            ("start", self.start, Board),
            ("turns", self.turns, Turns),
            ("current", self.current, Board),
        ):
            if not isinstance(value, kind):
                raise TypeError(f"a history's {name} is a {kind.__name__}, not {type(value).__name__}")

    @classmethod
    def begin(cls, board: Board) -> History:
        """A history of one board."""
        if not isinstance(board, Board):
            raise TypeError(f"a history starts with a Board, not {type(board).__name__}")
        return cls(board, Turns(), board)

    def add(self, board: Board, move: Move | None = None, strategy: str | None = None) -> History:
        """This history with ``board`` appended, reached by ``move`` (None: set directly)."""
        before = self.current
        replayable = move is not None and board.minefield is before.minefield
        keep = not replayable or (len(self.turns) + 1) % CHECKPOINT == 0
        turn = Turn(None if move is None else move.kept(), strategy, board if keep else None)
        return History(self.start, self.turns.append(turn), board)

    def undo(self) -> History:
        """This history without its last turn (the same history when there is none)."""
        if not self.turns:
            return self
        return History(self.start, self.turns[:-1], self._rebuild(len(self.turns) - 1))

    def upto(self, index: int) -> History:
        """The history of the game up to board ``index`` (a branch point for "resume from here")."""
        position = checked_index(index, len(self), "history", "board")
        return History(self.start, self.turns[:position], self[position])

    @property
    def moves(self) -> tuple[Move | None, ...]:
        """The move that led to each board after the first (None where a board was set directly)."""
        return tuple(turn.move for turn in self.turns)

    # --- the Sequence protocol ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return 1 + len(self.turns)

    @overload
    def __getitem__(self, index: int) -> Board: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Board, ...]: ...
    def __getitem__(self, index: int | slice) -> Board | tuple[Board, ...]:
        if isinstance(index, slice):
            positions = range(len(self))[index]
            ordered = sorted(positions)
            built = dict(zip(ordered, self._boards(ordered), strict=True))
            return tuple(built[p] for p in positions)
        position = checked_index(index, len(self), "history", "board")
        if position == len(self.turns):
            return self.current
        return self._rebuild(position)

    def __iter__(self) -> Iterator[Board]:
        board = self.start
        yield board
        for turn in self.turns:
            board = turn.board if turn.board is not None else apply_move(board, _replayable(turn))
            yield board

    def __repr__(self) -> str:
        return f"<History of {len(self)} boards, now {self.current.status}>"

    def _boards(self, positions: list[int]) -> Iterator[Board]:
        """The boards at ``positions`` (ascending): each from the one before when that is nearer."""
        last, board = -1, self.start
        for position in positions:
            if position == len(self.turns):
                board = self.current
            elif last >= 0 and position - last <= CHECKPOINT:
                for k in range(last, position):
                    turn = self.turns[k]
                    board = turn.board if turn.board is not None else apply_move(board, _replayable(turn))
            else:
                board = self._rebuild(position)
            last = position
            yield board

    def _rebuild(self, position: int) -> Board:
        """Board ``position``: the nearest stored board at or before it, then the moves after that."""
        base, board = 0, self.start
        for k in range(position, 0, -1):  # a board is stored every CHECKPOINT turns: a short search
            stored = self.turns[k - 1].board
            if stored is not None:
                base, board = k, stored
                break
        for k in range(base, position):
            board = apply_move(board, _replayable(self.turns[k]))
        return board


def checked_index(index: object, length: int, what: str, items: str) -> int:
    """``index`` (negative counts from the end) as a position in ``range(length)``, else an IndexError
    (or TypeError) that names the valid range: ``checked_index(1, 1, "history", "board")`` says "history
    index 1 is out of range: the history has 1 board, index 0 (or -1 from the end)"."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"a {what} index is an int, not {type(index).__name__} {quote(index)}")
    if not -length <= index < length:
        if length == 0:
            raise IndexError(f"{what} index {quote(index)} is out of range: there are no {items}s")
        valid = "index 0 (or -1" if length == 1 else f"indices 0 to {length - 1} (or -{length} to -1"
        raise IndexError(
            f"{what} index {quote(index)} is out of range: the {what} has {length} {items}"
            f"{'' if length == 1 else 's'}, {valid} from the end)"
        )
    return index % length


def _replayable(turn: Turn) -> Move:
    assert turn.move is not None, "a turn without a move always stores its board"
    return turn.move
