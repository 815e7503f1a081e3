"""From a recording's mouse events to clicks: the mouse of the classic game, as replay files record it.

Replay formats record the mouse, not the moves: a button pressed (``lc``, ``rc``, ``mc``; ``sc`` a left
press with Shift held), released (``lr``, ``rr``, ``mr``) or moved (``mv``), with the time and the cell
under the pointer. :func:`replay_from_mouse` turns them into the :class:`~.replay.Click` values of a
:class:`~.replay.Replay`, as the classic game does:

- a left press then its release is a left click, on the cell under the release;
- a right press flags or unflags the cell under it at once (a right click);
- both buttons down together, then either released, is a chord on the cell under the release; the other
  button's release then does nothing; a Shift-left (``sc``) or a middle click is a chord too;
- a flag then a slide onto a number to chord (the "1.5 click") is a right click and a chord;
- a right press on a revealed cell is a (wasted) right click when released, unless it starts a chord.

A press or release off the board clicks no cell (as in the RAWVF reference parser; ms_toollib counts a
left release there as one more wasted left click). Events after the game ended are ignored. With
question marks on (``marks``), a right click on a flag makes it a question mark (here: unflags it); one
on a question mark would clear it, which these boards cannot show: it is refused with a
:class:`~.replay.ReplayError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .board import Board
from .cells import COVERED, FLAGGED, REVEALED
from .replay import Click, ClickKind, Replay, ReplayError, click_board

__all__ = ["MOUSE_ACTIONS", "MouseEvent", "replay_from_mouse"]

MOUSE_ACTIONS: tuple[str, ...] = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "sc", "cc", "pf")
"""Move; left, right and middle press and release; a left press with Shift held; the second button
pressed while the other is down (``cc``, as EVF records it); a flag placed before the game's recording
started (``pf``: a right click)."""


@dataclass(frozen=True)
class MouseEvent:
    """One mouse event: ``time`` in seconds (None: not known), ``action`` (one of
    :data:`MOUSE_ACTIONS`) and the cell ``(row, col)`` under the pointer (off the board where the
    pointer was). ``where`` names it in an error (a line of a file, say)."""

    time: float | None
    action: str
    row: int
    col: int
    where: str = ""


@dataclass
class _Buttons:
    """Which buttons are down, and whether a chord is armed or has just fired."""

    left: bool = False
    right: bool = False
    middle: bool = False
    shift: bool = False
    both: bool = False
    fired: bool = False
    questions: set[tuple[int, int]] = field(default_factory=set)


def _press(buttons: _Buttons, action: str) -> ClickKind | None:
    """Update ``buttons`` for a press; the click it makes (a right press flags at once), if any."""
    if action == "mc":
        buttons.middle, buttons.left, buttons.right = True, False, False
        buttons.shift = buttons.both = buttons.fired = False
        return None
    if buttons.middle:
        return None
    if action == "pf":
        return "right"
    if action == "cc":
        buttons.left = buttons.right = buttons.both = True
        buttons.shift = False
        return None
    if action == "rc":
        buttons.right = True
        if buttons.left:
            buttons.both = True
            return None
        return "right"
    buttons.left, buttons.shift = True, action == "sc"
    buttons.both = buttons.right
    return None


def _release(buttons: _Buttons, action: str) -> ClickKind | None:
    """Update ``buttons`` for a release; the click it makes, if any."""
    if action == "mr":
        if not buttons.middle:
            return None
        buttons.middle = False
        return "chord"
    if action == "lr" and buttons.left:
        buttons.left = False
        if buttons.shift or buttons.both:
            buttons.shift, buttons.both, buttons.fired = False, False, buttons.right
            return "chord"
        if buttons.fired:
            buttons.fired = False
            return None
        return "left"
    if action == "rr" and buttons.right:
        buttons.right = False
        if buttons.left:
            buttons.both, buttons.fired = False, True
            return "chord"
        buttons.fired = False
    return None


_PRESSES = frozenset(("lc", "rc", "mc", "sc", "cc", "pf"))


class _Mouse:
    """Mouse events in, the clicks they make on a board out (see the module's rules)."""

    def __init__(self, start: Board, marks: bool) -> None:
        self.board = start
        self.marks = marks
        self.buttons = _Buttons()
        self.clicks: list[Click] = []
        self.held: Click | None = None  # a right press on a revealed cell: a click only if no chord follows

    def feed(self, event: MouseEvent) -> None:
        if event.action not in MOUSE_ACTIONS:
            raise ReplayError(f"{event.where or 'an event'}: unknown mouse action {event.action!r}")
        if event.action == "mv":
            return
        buttons, board = self.buttons, self.board
        pressed = event.action in _PRESSES
        kind = _press(buttons, event.action) if pressed else _release(buttons, event.action)
        inside = 0 <= event.row < board.rows and 0 <= event.col < board.cols
        if kind == "chord":
            self.held = None
        elif event.action == "rr" and self.held is not None:
            self._play(self.held, event.where)
            self.held = None
        if kind is None or not inside:  # off the board: a press or release there clicks no cell
            return
        click = Click(kind, (event.row, event.col), event.time)
        if kind == "right" and board.states[event.row * board.cols + event.col] == REVEALED:
            self.held = click
            return
        self._play(click, event.where)

    def _play(self, click: Click, where: str) -> None:
        if click.kind == "right" and self.marks:
            _mark(self.buttons, self.board, click.pos, where)
        self.board = click_board(self.board, click)
        self.clicks.append(click)


def replay_from_mouse(
    start: Board,
    events: Iterable[MouseEvent],
    *,
    marks: bool = False,
    player: str = "",
    program: str = "",
    duration: float | None = None,
) -> Replay:
    """The :class:`~.replay.Replay` of the mouse ``events`` played on ``start`` (see the module's rules);
    a :class:`~.replay.ReplayError` names an event that is not a click the board can take."""
    mouse = _Mouse(start, marks)
    for event in events:
        if mouse.board.over:
            break
        mouse.feed(event)
    return Replay.from_clicks(start, mouse.clicks, player=player, program=program, duration=duration)


def _mark(buttons: _Buttons, board: Board, pos: tuple[int, int], where: str) -> None:
    """Question marks: a right click on a flag makes a question mark; one on a question mark is refused."""
    covered = board.states[pos[0] * board.cols + pos[1]] == COVERED
    if pos in buttons.questions and covered:
        raise ReplayError(
            f"{where or 'an event'}: a right click clears the question mark at row {pos[0]}, column "
            f"{pos[1]}; question marks are not part of these games"
        )
    if board.states[pos[0] * board.cols + pos[1]] == FLAGGED:
        buttons.questions.add(pos)
