"""The messages a session understands, and how the browser's JSON becomes one of them.

Every change to a widget is a message: a click in the browser and a call such as ``w.reveal(3, 4)`` both
become ``Reveal((3, 4))``, handed to :func:`~ipyminesweeper.widget.session.update`. Messages are plain
frozen values, so a game can be replayed, logged or tested by listing them.

The browser is untrusted: :func:`decode` accepts exactly the documented JSON shapes and raises
:class:`MessageError` (a ValueError) for anything else, quoting at most a few words of what it got.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import Board, Position
from ..engine.errors import quote
from ..play import Strategy

__all__ = [
    "ECHO_LIMIT",
    "AddStrategy",
    "Chord",
    "Flag",
    "Message",
    "MessageError",
    "NewGame",
    "Pause",
    "Play",
    "Reveal",
    "SelectStrategy",
    "SetBoard",
    "SetDelay",
    "ShowProbabilities",
    "Step",
    "Undo",
    "decode",
    "decode_requests",
    "decode_state",
]

ECHO_LIMIT = 200
"""At most this many characters of the browser's input are echoed back in an error."""
REQUEST_LIMIT = 64
"""The most requests one ``requests`` update may carry (the browser keeps only the unanswered ones)."""


class MessageError(ValueError):
    """A message that cannot apply: malformed, or not allowed in the current state. Nothing changed."""


@dataclass(frozen=True)
class Reveal:
    """Reveal a cell (a zero opens its region)."""

    pos: Position


@dataclass(frozen=True)
class Flag:
    """Flag a covered cell, or unflag a flagged one."""

    pos: Position


@dataclass(frozen=True)
class Chord:
    """Chord a revealed number whose flags are all placed."""

    pos: Position


@dataclass(frozen=True)
class Undo:
    """Go back one move (after a loss too: the game then counts as assisted)."""


@dataclass(frozen=True)
class NewGame:
    """Start again from ``board`` (the shell draws the seed, so that update stays pure)."""

    board: Board


@dataclass(frozen=True)
class SetBoard:
    """Replace the current board by ``board`` (``w.board = ...``): it joins the history."""

    board: Board


@dataclass(frozen=True)
class Step:
    """Play one move of a strategy: a name from the session's menu, a callable, or None (the selected)."""

    strategy: str | Strategy | None = None


@dataclass(frozen=True)
class SelectStrategy:
    """Choose the strategy that Step and Play use."""

    name: str


@dataclass(frozen=True)
class AddStrategy:
    """Add a strategy to the session's menu (and select it if asked)."""

    name: str
    strategy: Strategy
    select: bool = False


@dataclass(frozen=True)
class ShowProbabilities:
    """Turn the probability overlay on or off (on counts as assistance)."""

    on: bool


@dataclass(frozen=True)
class SetDelay:
    """Seconds between two autoplayer moves."""

    seconds: float


@dataclass(frozen=True)
class Play:
    """Start the autoplayer with ``strategy`` (None: the selected one); the shell's timer then sends Steps."""

    strategy: str | Strategy | None = None


@dataclass(frozen=True)
class Pause:
    """Stop the autoplayer."""


Message = (
    Reveal
    | Flag
    | Chord
    | Undo
    | NewGame
    | SetBoard
    | Step
    | SelectStrategy
    | AddStrategy
    | ShowProbabilities
    | SetDelay
    | Play
    | Pause
)

_CELL_MESSAGES: dict[str, type[Reveal | Flag | Chord]] = {"reveal": Reveal, "flag": Flag, "chord": Chord}
_PLAIN_MESSAGES: dict[str, type[Undo | Step | Play | Pause]] = {
    "undo": Undo,
    "step": Step,
    "play": Play,
    "pause": Pause,
}
BROWSER_ACTIONS = (*_CELL_MESSAGES, "new_game", *_PLAIN_MESSAGES)


def decode(content: object, new_game: NewGame) -> Message:
    """The message for one JSON object sent by the browser; MessageError for anything malformed.

    ``{"action": "reveal" | "flag" | "chord", "row": int, "col": int}`` and
    ``{"action": "new_game" | "undo" | "step" | "play" | "pause"}``. ``new_game`` is the message a
    "new_game" action stands for (the shell makes it, with a fresh seed).
    """
    if not isinstance(content, dict):
        raise MessageError(f"expected a JSON object, got {type(content).__name__}")
    action = content.get("action")
    if not isinstance(action, str) or action not in BROWSER_ACTIONS:
        raise MessageError(
            f"unknown action {quote(action, ECHO_LIMIT)}; use one of {', '.join(BROWSER_ACTIONS)}"
        )
    allowed = {"action", "row", "col"} if action in _CELL_MESSAGES else {"action"}
    extra = sorted(quote(key, 40) for key in content if key not in allowed)
    if extra:
        raise MessageError(f"{action!r} takes no {quote(', '.join(extra), 100)}")
    if action in _CELL_MESSAGES:
        row, col = content.get("row"), content.get("col")
        if (
            not (isinstance(row, int) and isinstance(col, int))
            or isinstance(row, bool)
            or isinstance(col, bool)
        ):
            raise MessageError(
                f"{action!r} needs integer row and col, got {quote(row, 40)} and {quote(col, 40)}"
            )
        return _CELL_MESSAGES[action]((row, col))
    if action == "new_game":
        return new_game
    return _PLAIN_MESSAGES[action]()


def decode_state(state: dict[str, Any]) -> list[Message]:
    """The messages for a state update from the browser, which may set only the three user settings."""
    out: list[Message] = []
    for key, value in state.items():
        if key == "strategy" and isinstance(value, str):
            out.append(SelectStrategy(value))
        elif key == "delay" and isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(SetDelay(float(value)))
        elif key == "show_probabilities" and isinstance(value, bool):
            out.append(ShowProbabilities(value))
        else:
            raise MessageError(f"the browser may not set {quote(key, 40)} to {quote(value, 80)}")
    return out


def decode_requests(value: object, after: int) -> list[tuple[int, object]]:
    """The browser's new requests: ``(id, content)`` for each ``requests`` entry with an id above ``after``.

    The browser sends its input by writing the ``requests`` traitlet (so that marimo, which reacts only
    to traitlets written by the front end, re-runs the cells that read the widget): a list of
    ``{"id": int, "action": ..., ...}``, ids increasing, holding every request Python has not answered
    yet (``handled`` is the last id answered). The ids make a resent request harmless. Each content is
    then checked by :func:`decode`. Raises MessageError for a malformed list; nothing is applied then.
    """
    if not isinstance(value, list):
        raise MessageError(f"requests must be a JSON list, got {type(value).__name__}")
    if len(value) > REQUEST_LIMIT:
        raise MessageError(f"requests holds {len(value)} entries; at most {REQUEST_LIMIT} are accepted")
    out: list[tuple[int, object]] = []
    last = 0
    for entry in value:
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, int) or isinstance(ident, bool) or ident <= last:
            raise MessageError(
                f"each request is an object with an increasing positive integer id, got {quote(entry, 80)}"
            )
        last = ident
        assert isinstance(entry, dict)
        if ident > after:
            out.append((ident, {k: v for k, v in entry.items() if k != "id"}))
    return out
