"""A game's history: every board since the start, as an immutable sequence, stored as moves.

Keeping every board would cost ``rows * cols`` bytes a move (10,000 flag toggles on 100 x 100 hold
100 MB). A :class:`History` keeps the start board and the moves instead, plus a whole board every
:data:`CHECKPOINT` turns; any board is rebuilt from the checkpoint before it by replaying at most that
many moves, which the rules make cheap and exact. To the reader it is simply a tuple of boards:
``len(history)``, ``history[i]``, ``history[-1]``, iteration and slicing all work, and nothing changes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from ..engine import Board
from ..play import Move, apply_move

__all__ = ["CHECKPOINT", "History", "Turn"]

CHECKPOINT = 64
"""A whole board is kept every this many turns (and wherever a move cannot be replayed)."""


@dataclass(frozen=True)
class Turn:
    """One step of a game: the ``move`` played, who chose it, and, at checkpoints, the ``board`` after it.

    ``move`` is None when a board was set directly (``w.board = ...``); ``strategy`` is the name of the
    strategy that chose the move, or None for the player.
    """

    move: Move | None
    strategy: str | None = None
    board: Board | None = field(default=None, repr=False)


@dataclass(frozen=True, repr=False)
class History(Sequence[Board]):
    """The boards of one game, oldest first: ``history[0]`` is the start, ``history[-1]`` the current one.

    Start one with :meth:`begin` and grow it with :meth:`add`; both return a new history. ``current`` is
    the last board, kept so that reading the live game never replays anything.
    """

    start: Board
    turns: tuple[Turn, ...]
    current: Board

    @classmethod
    def begin(cls, board: Board) -> History:
        """A history of one board."""
        if not isinstance(board, Board):
            raise TypeError(f"a history starts with a Board, not {type(board).__name__}")
        return cls(board, (), board)

    def add(self, board: Board, move: Move | None = None, strategy: str | None = None) -> History:
        """This history with ``board`` appended, reached by ``move`` (None: set directly)."""
        before = self.current
        replayable = move is not None and board.minefield is before.minefield
        keep = not replayable or (len(self.turns) + 1) % CHECKPOINT == 0
        turn = Turn(move, strategy, board if keep else None)
        return History(self.start, (*self.turns, turn), board)

    def undo(self) -> History:
        """This history without its last turn (the same history when there is none)."""
        if not self.turns:
            return self
        return History(self.start, self.turns[:-1], self._rebuild(len(self.turns) - 1))

    def upto(self, index: int) -> History:
        """The history of the game up to board ``index`` (a branch point for "resume from here")."""
        index = range(len(self))[index]
        return History(self.start, self.turns[:index], self[index])

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
            return tuple(self)[index]
        position = range(len(self))[index]  # IndexError for a bad index, negative indices allowed
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

    def _rebuild(self, position: int) -> Board:
        """Board ``position``: the nearest stored board at or before it, then the moves after that."""
        base, board = 0, self.start
        for k in range(position, 0, -1):
            stored = self.turns[k - 1].board
            if stored is not None:
                base, board = k, stored
                break
        for turn in self.turns[base:position]:
            board = apply_move(board, _replayable(turn))
        return board


def _replayable(turn: Turn) -> Move:
    assert turn.move is not None, "a turn without a move always stores its board"
    return turn.move
