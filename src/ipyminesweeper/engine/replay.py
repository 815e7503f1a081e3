"""A recorded game: the boards one after another and the clicks between them, checked when made.

A :class:`Replay` is what a replay file holds (:mod:`.rawvf`, and the formats of other programs) and what
the metrics (:mod:`.metrics`) and the game review read. ``boards[0]`` is the board before the first
click and ``boards[i + 1]`` the board after ``clicks[i]``; a click that changes nothing (a *wasted* click,
as players count them) leaves the same board. Every way of making one checks that each board follows
from the one before by its click under the rules, and raises :class:`ReplayError` naming the click
that does not.

Three ways to make one: :meth:`Replay.from_clicks` (a start board and clicks), :meth:`Replay.from_boards`
(a sequence of boards, such as a widget's history: the clicks are worked out from what changed) and
``Replay(boards, clicks)`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from .board import Board
from .cells import REVEALED
from .errors import quote
from .geometry import Position, as_position, format_position, neighbour_table
from .minefield import Minefield
from .rules import chord, reveal, toggle_flag

__all__ = ["CLICK_KINDS", "Click", "ClickKind", "Replay", "ReplayError", "as_replay", "click_board"]

ClickKind = Literal["left", "right", "chord"]
CLICK_KINDS: tuple[str, ...] = ("left", "right", "chord")
"""A left click reveals, a right click flags or unflags, a chord (both buttons, or the middle one) opens
the covered neighbours of a number whose flags match it."""


class ReplayError(ValueError):
    """A replay that does not parse, or that contradicts itself (a click off the board, mines that
    contradict the numbers it shows, a board that does not follow from the one before). The message
    names what is wrong and where."""


@dataclass(frozen=True)
class Click:
    """One click of a recorded game: its ``kind`` (see :data:`CLICK_KINDS`), the cell ``pos`` and the
    ``time`` in seconds since the recording started, or None where it is not known."""

    kind: ClickKind
    pos: Position
    time: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in CLICK_KINDS:
            raise ValueError(f"a click's kind is one of {', '.join(CLICK_KINDS)}, not {quote(self.kind)}")
        try:
            as_position(self.pos)
        except TypeError as error:
            raise TypeError(f"a click's pos: {error}") from None
        time = self.time
        if time is not None and (
            isinstance(time, bool) or not isinstance(time, (int, float)) or not math.isfinite(time)
        ):
            raise ValueError(f"a click's time is a finite number of seconds or None, not {quote(time)}")

    def __str__(self) -> str:
        when = "" if self.time is None else f" at {self.time:.3f} s"
        return f"{self.kind} click on {format_position(self.pos)}{when}"


def click_board(board: Board, click: Click) -> Board:
    """The board after ``click`` under the rules: a left click reveals, a right click flags or unflags,
    a chord chords. A click that changes nothing returns ``board`` itself. Raises as the rules do (a
    position off the board, a finished game)."""
    if click.kind == "left":
        return reveal(board, click.pos)
    if click.kind == "right":
        return toggle_flag(board, click.pos)
    return chord(board, click.pos)


@dataclass(frozen=True, repr=False)
class Replay:
    """A recorded game: ``boards[0]`` before the first click, ``boards[i + 1]`` after ``clicks[i]``.

    ``player`` and ``program`` say who played it and with what, where known; ``duration`` is the game's
    time in seconds as the recording states it (None: the clicks' times tell it, if they have any).
    Checked when made: a :class:`ReplayError` names the first click whose board does not follow.
    """

    boards: tuple[Board, ...]
    clicks: tuple[Click, ...]
    player: str = ""
    program: str = ""
    duration: float | None = None

    def __post_init__(self) -> None:
        if type(self.boards) is not tuple or not all(isinstance(b, Board) for b in self.boards):
            raise TypeError("a replay's boards are a tuple of Boards")
        if type(self.clicks) is not tuple or not all(isinstance(c, Click) for c in self.clicks):
            raise TypeError("a replay's clicks are a tuple of Clicks")
        if len(self.boards) != len(self.clicks) + 1:
            raise ReplayError(
                f"a replay has one board more than clicks: {len(self.boards)} boards, "
                f"{len(self.clicks)} clicks"
            )
        for name in ("player", "program"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"a replay's {name} is a str, not {quote(getattr(self, name))}")
        duration = self.duration
        if duration is not None and (
            isinstance(duration, bool) or not isinstance(duration, (int, float)) or not duration >= 0
        ):
            raise ValueError(f"a replay's duration is seconds (>= 0) or None, not {quote(duration)}")
        for i, (click, before, after) in enumerate(self.steps()):
            problem = _step_problem(before, click, after)
            if problem:
                raise ReplayError(f"click {i + 1} ({click}): {problem}")

    @classmethod
    def from_clicks(
        cls,
        start: Board,
        clicks: Iterable[Click],
        *,
        player: str = "",
        program: str = "",
        duration: float | None = None,
    ) -> Replay:
        """The game of ``clicks`` played from ``start``. A click off the board, or one after the game
        ended, is a :class:`ReplayError` that names it."""
        if not isinstance(start, Board):
            raise TypeError(f"a replay starts from a Board, not {type(start).__name__}")
        boards = [start]
        done: list[Click] = []
        for i, click in enumerate(clicks):
            if not isinstance(click, Click):
                raise TypeError(f"click {i + 1} is a Click, not {type(click).__name__}")
            problem = _click_problem(boards[-1], click)
            if problem:
                raise ReplayError(f"click {i + 1} ({click}): {problem}")
            boards.append(click_board(boards[-1], click))
            done.append(click)
        return cls(tuple(boards), tuple(done), player, program, duration)

    @classmethod
    def from_boards(cls, boards: Iterable[Board], *, player: str = "", program: str = "") -> Replay:
        """The game whose successive boards are ``boards`` (a widget's ``history``, say): each change is
        one click, worked out from what changed (a flag toggled is a right click; cells revealed are a
        left click where one reveal explains them, else a chord). Boards equal to the one before are
        skipped. A board that no single click makes from the one before is a :class:`ReplayError`.
        Mines placed by the first reveal are placed on the first board too (its view is the same)."""
        given = list(boards)
        if not given or not all(isinstance(b, Board) for b in given):
            raise TypeError("a game's boards are a non-empty sequence of Boards")
        kept = [given[0]]
        for board in given[1:]:
            if board != kept[-1]:
                kept.append(board)
        if not kept[0].placed and kept[-1].placed:  # the first reveal placed the mines: place them before
            kept = [b if b.placed else _with_mines_of(b, kept[-1]) for b in kept]
        clicks = [_click_between(kept[i], kept[i + 1], i + 1) for i in range(len(kept) - 1)]
        return cls(tuple(kept), tuple(clicks), player, program)

    def steps(self) -> Iterator[tuple[Click, Board, Board]]:
        """Each click with the board before it and the board after it, in order."""
        return zip(self.clicks, self.boards[:-1], self.boards[1:], strict=True)

    @property
    def start(self) -> Board:
        """The board before the first click."""
        return self.boards[0]

    @property
    def final(self) -> Board:
        """The board after the last click."""
        return self.boards[-1]

    def __repr__(self) -> str:
        board = self.final
        return (
            f"<Replay {board.rows}x{board.cols}, {board.mines} mines, {len(self.clicks)} clicks, "
            f"{board.status}>"
        )


def _click_problem(board: Board, click: Click) -> str | None:
    """Why ``click`` cannot be played on ``board`` (off the board, or after the end); None if it can."""
    row, col = click.pos
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        return (
            f"{format_position(click.pos)} is off the {board.rows}x{board.cols} board "
            f"(rows 0..{board.rows - 1}, columns 0..{board.cols - 1})"
        )
    if board.over:
        return f"it comes after the game was {board.status}"
    return None


def _step_problem(before: Board, click: Click, after: Board) -> str | None:
    """Why ``after`` is not the board ``click`` makes of ``before``; None when it is."""
    problem = _click_problem(before, click)
    if problem:
        return problem
    if click_board(before, click) != after:
        return "the board after it is not the board the rules make of the one before"
    return None


def _with_mines_of(board: Board, later: Board) -> Board:
    """``board`` (mines not placed yet) with the mines of ``later``, a board of the same game."""
    field = later.minefield
    if not isinstance(field, Minefield) or (later.rows, later.cols, later.mines) != (
        board.rows,
        board.cols,
        board.mines,
    ):
        raise ReplayError("the boards are not of one game: their sizes or mine counts differ")
    return Board(board.rows, board.cols, board.mines, board.states, field)


def _click_between(before: Board, after: Board, number: int) -> Click:
    """The one click that makes ``after`` of ``before`` (see :meth:`Replay.from_boards`)."""
    if (before.rows, before.cols, before.mines) != (after.rows, after.cols, after.mines):
        raise ReplayError(f"board {number + 1} is not of the same game as board {number}")
    if before.placed and after.placed and before.minefield != after.minefield:
        raise ReplayError(f"board {number + 1} has other mines than board {number}")
    for click in _candidates(before, after):
        if not before.over and click_board(before, click) == after:
            return click
    raise ReplayError(f"board {number + 1} does not follow from board {number} by one click")


def _candidates(before: Board, after: Board) -> list[Click]:
    """The clicks that may make ``after`` of ``before``: a right click where one flag changed; else a
    left click on a newly revealed cell (a zero, or the only one), then chords on the numbers revealed
    before next to the newly revealed cells."""
    old, new = before.states, after.states
    changed = [i for i in range(len(old)) if old[i] != new[i]]
    cols = before.cols
    if len(changed) == 1 and REVEALED not in (old[changed[0]], new[changed[0]]):
        return [Click("right", divmod(changed[0], cols))]
    opened = [i for i in changed if new[i] == REVEALED]
    counts = after.counts
    zeros = [i for i in opened if counts[i] == 0 and not after.mask[i]]
    lefts = zeros[:1] if zeros else opened if len(opened) == 1 else []
    table = neighbour_table(before.rows, cols)
    numbers = sorted({j for i in opened for j in table[i] if old[j] == REVEALED and counts[j]})
    chords = [Click("chord", divmod(j, cols)) for j in numbers]
    return [Click("left", divmod(i, cols)) for i in lefts] + chords


_CLICK_OF: dict[object, ClickKind] = {"reveal": "left", "flag": "right", "chord": "chord"}


def _is_move(move: object) -> bool:
    """A strategy's move (``Move``): an ``action`` ("reveal", "flag", "chord") and a ``pos``."""
    return getattr(move, "action", None) in _CLICK_OF and isinstance(getattr(move, "pos", None), tuple)


def as_replay(game: object, who: str = "as_replay") -> Replay:
    """A game as a :class:`Replay`: a replay itself; ``(final_board, moves)`` as ``play`` returns it
    (the moves played from the covered board of its mines, which must end on ``final_board``); or a
    sequence of boards such as a widget's ``history`` (:meth:`Replay.from_boards`). ``who`` names the
    caller in a TypeError."""
    if isinstance(game, Replay):
        return game
    if isinstance(game, tuple) and len(game) == 2 and isinstance(game[0], Board):
        final, moves = game
        if isinstance(moves, tuple) and all(_is_move(m) for m in moves):
            return _from_moves(final, moves, who)
    if isinstance(game, Sequence) and not isinstance(game, (str, bytes)) and len(game) > 0:
        boards = list(game)
        if all(isinstance(board, Board) for board in boards):
            return Replay.from_boards(boards)
    raise TypeError(
        f"{who}(game): game is what play returns (board, moves), a sequence of boards (a widget's "
        f"history) or a Replay, not {type(game).__name__}"
    )


def _from_moves(final: Board, moves: tuple[object, ...], who: str) -> Replay:
    """The replay of ``moves`` played from the covered board of ``final``'s mines; it must end on
    ``final``."""
    if not moves:
        return Replay((final,), ())
    start = Board(final.rows, final.cols, final.mines, bytes(final.rows * final.cols), final.minefield)
    clicks = [Click(_CLICK_OF[getattr(m, "action")], getattr(m, "pos")) for m in moves]  # noqa: B009
    replay = Replay.from_clicks(start, clicks)
    if replay.final != final:
        raise ReplayError(
            f"{who}(game): these moves, played from a covered board, do not end on this board (was the "
            "game started from a board with cells already open?): give its history of boards instead"
        )
    return replay
