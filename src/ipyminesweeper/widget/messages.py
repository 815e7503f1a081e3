"""The messages a session understands, and how the browser's JSON becomes one of them.

Every change to a widget is a message: a click in the browser and a call such as ``w.reveal(3, 4)`` both
become ``Reveal((3, 4))``, handed to :func:`~ipyminesweeper.widget.session.update`. Messages are plain
frozen values, so a game can be replayed, logged or tested by listing them.

The browser is untrusted: :func:`decode` accepts exactly the documented JSON shapes and raises
:class:`MessageError` (a ValueError) for anything else, quoting at most a few words of what it got.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Board, Position
from ..engine.errors import quote
from ..play import Strategy

__all__ = [
    "ECHO_LIMIT",
    "FRONTEND_WRITABLE",
    "SETTINGS",
    "AddStrategy",
    "Chord",
    "Flag",
    "Hint",
    "Live",
    "Message",
    "MessageError",
    "NewGame",
    "Pause",
    "Play",
    "Resume",
    "Reveal",
    "Scrub",
    "SelectStrategy",
    "SetBoard",
    "SetCellSize",
    "SetDelay",
    "SetLabels",
    "SetQuestionMarks",
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
class Hint:
    """Show the move a strategy (None: the selected one) would play, without playing it."""

    strategy: str | Strategy | None = None


@dataclass(frozen=True)
class Scrub:
    """Look at board ``index`` of the history (read-only); the last index is the live game."""

    index: int


@dataclass(frozen=True)
class Live:
    """Stop looking back: show the live game again."""


@dataclass(frozen=True)
class Resume:
    """Continue the game from the board the slider shows (a new branch; the game counts as assisted)."""


@dataclass(frozen=True)
class SetLabels:
    """Row and column labels: on, off, or None (automatic: on once help was used)."""

    on: bool | None


@dataclass(frozen=True)
class SetCellSize:
    """The zoom: a cell size in CSS pixels, or 0 to fit the output's width."""

    pixels: int


@dataclass(frozen=True)
class SetQuestionMarks:
    """Whether a right click cycles flag -> "?" -> covered (off by default, as in Windows)."""

    on: bool


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
    | Hint
    | Scrub
    | Live
    | Resume
    | SelectStrategy
    | AddStrategy
    | ShowProbabilities
    | SetDelay
    | SetLabels
    | SetCellSize
    | SetQuestionMarks
    | Play
    | Pause
)

_CELL_MESSAGES: dict[str, type[Reveal | Flag | Chord]] = {"reveal": Reveal, "flag": Flag, "chord": Chord}
_PLAIN_MESSAGES: dict[str, type[Undo | Step | Hint | Live | Resume | Play | Pause]] = {
    "undo": Undo,
    "step": Step,
    "hint": Hint,
    "live": Live,
    "resume": Resume,
    "play": Play,
    "pause": Pause,
}
_FIELDS: dict[str, frozenset[str]] = {
    **{action: frozenset({"row", "col"}) for action in _CELL_MESSAGES},
    **{action: frozenset() for action in _PLAIN_MESSAGES},
    "scrub": frozenset({"index"}),
    "new_game": frozenset({"level", "rows", "cols", "mines", "first_click"}),
}
BROWSER_ACTIONS = tuple(_FIELDS)
"""Every action the browser may send, with the fields each may carry (see ``docs/architecture.md``)."""

NewGameMaker = Callable[..., NewGame]
"""What the shell gives :func:`decode` to start a game: keyword settings in, a ``NewGame`` (seeded) out."""


def decode(content: object, new_game: NewGameMaker) -> Message:
    """The message for one JSON object sent by the browser; MessageError for anything malformed.

    ``{"action": "reveal" | "flag" | "chord", "row": int, "col": int}``, ``{"action": "scrub", "index":
    int}``, ``{"action": "new_game"}`` with optional ``level`` or ``rows``/``cols``/``mines``, and
    ``first_click``, and ``{"action": "undo" | "step" | "hint" | "live" | "resume" | "play" | "pause"}``.
    ``new_game`` makes the game a "new_game" action asks for (the shell draws its seed).
    """
    if not isinstance(content, dict):
        raise MessageError(f"expected a JSON object, got {type(content).__name__}")
    action = content.get("action")
    if not isinstance(action, str) or action not in _FIELDS:
        known = ", ".join(BROWSER_ACTIONS)
        raise MessageError(f"unknown action {quote(action, ECHO_LIMIT)}; use one of {known}")
    fields = {key: value for key, value in content.items() if key != "action"}
    extra = sorted(quote(key, 40) for key in fields if key not in _FIELDS[action])
    if extra:
        raise MessageError(f"{action!r} takes no {quote(', '.join(extra), 100)}")
    if action in _CELL_MESSAGES:
        row, col = _integer(action, fields, "row"), _integer(action, fields, "col")
        return _CELL_MESSAGES[action]((row, col))
    if action == "scrub":
        return Scrub(_integer(action, fields, "index"))
    if action == "new_game":
        for key in ("rows", "cols", "mines"):
            if key in fields:
                _integer(action, fields, key)
        for key in ("level", "first_click"):
            if key in fields and not isinstance(fields[key], str):
                raise MessageError(f"'new_game' takes a str {key}, not {quote(fields[key], 40)}")
        return new_game(**fields)
    return _PLAIN_MESSAGES[action]()


def _integer(action: str, fields: dict[str, Any], key: str) -> int:
    value = fields.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MessageError(f"{action!r} needs an integer {key}, got {quote(value, 40)}")
    return value


SETTINGS = frozenset({"strategy", "delay", "show_probabilities", "labels", "cell_size", "question_marks"})
"""The player's settings: traitlets that Python code and the browser may both set."""
FRONTEND_WRITABLE = SETTINGS | {"requests"}
"""The only traitlets the browser may set: the settings and its input channel (the rest is Python -> JS)."""


def decode_state(state: dict[str, Any]) -> list[Message]:
    """The messages for a state update from the browser, which may set only the player's settings."""
    out: list[Message] = []
    for key, value in state.items():
        if key == "strategy" and isinstance(value, str):
            out.append(SelectStrategy(value))
        elif key == "delay" and isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(SetDelay(float(value)))
        elif key == "show_probabilities" and isinstance(value, bool):
            out.append(ShowProbabilities(value))
        elif key == "labels" and (value is None or isinstance(value, bool)):
            out.append(SetLabels(value))
        elif key == "cell_size" and isinstance(value, int) and not isinstance(value, bool):
            out.append(SetCellSize(value))
        elif key == "question_marks" and isinstance(value, bool):
            out.append(SetQuestionMarks(value))
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
