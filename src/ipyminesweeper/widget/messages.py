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
from .stats import Stats

__all__ = [
    "ECHO_LIMIT",
    "FRONTEND_WRITABLE",
    "SETTINGS",
    "AddStrategy",
    "AutoStep",
    "BadInput",
    "Chord",
    "Flag",
    "FromBrowser",
    "Hint",
    "Live",
    "Message",
    "MessageError",
    "NewGame",
    "NewGameOf",
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
    "StatsChanged",
    "Step",
    "Undo",
    "decode",
    "decode_requests",
    "decode_state",
    "from_browser",
    "setting_message",
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
    """Start a new game on ``board`` (``w.new_game(board=...)``, or with a ``seed=``)."""

    board: Board


@dataclass(frozen=True)
class NewGameOf:
    """Start a new game of a kind: a ``level``, or ``rows``, ``cols`` and ``mines``, and ``first_click``;
    what is left out stays as in the current game.

    Without a ``seed``, :func:`~ipyminesweeper.widget.session.update` checks the kind and asks the shell
    for a fresh seed (the ``DrawSeed`` effect), which sends this message back with every field filled.
    """

    level: str | None = None
    rows: int | None = None
    cols: int | None = None
    mines: int | None = None
    first_click: str | None = None
    seed: int | None = None


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
    """Start the autoplayer with ``strategy`` (None: the selected one) for ``moves`` moves (None: to the
    end). While it plays, the session subscribes to a timer that sends :class:`AutoStep`."""

    strategy: str | Strategy | None = None
    moves: int | None = None


@dataclass(frozen=True)
class Pause:
    """Stop the autoplayer."""


@dataclass(frozen=True)
class AutoStep:
    """The autoplayer's timer fired: play its next move (nothing, if it has stopped meanwhile)."""


@dataclass(frozen=True)
class StatsChanged:
    """The statistics store's summary, one row per level and first-click rule (an effect's outcome)."""

    stats: Stats


@dataclass(frozen=True)
class BadInput:
    """Input from the browser that is not a message (malformed JSON, a field it may not set)."""

    problem: str


@dataclass(frozen=True)
class FromBrowser:
    """``messages`` sent by the browser, applied all or nothing. Unlike a call from Python, a rejected
    one does not raise: the session keeps the problem, which the widget shows. ``request`` is the id of
    the request they answer (the synced ``handled``), or None for a change of the player's settings."""

    messages: tuple[Message, ...]
    request: int | None = None


Message = (
    Reveal
    | Flag
    | Chord
    | Undo
    | NewGame
    | NewGameOf
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
    | AutoStep
    | StatsChanged
    | BadInput
    | FromBrowser
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


def decode(content: object) -> Message:
    """The message for one JSON object sent by the browser; MessageError for anything malformed.

    ``{"action": "reveal" | "flag" | "chord", "row": int, "col": int}``, ``{"action": "scrub", "index":
    int}``, ``{"action": "new_game"}`` with optional ``level`` or ``rows``/``cols``/``mines``, and
    ``first_click`` (a :class:`NewGameOf`: its seed comes later, from the shell), and
    ``{"action": "undo" | "step" | "hint" | "live" | "resume" | "play" | "pause"}``.
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
        return NewGameOf(**fields)
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


def setting_message(name: str, value: Any) -> Message:
    """The message that sets the player's setting ``name`` (one of :data:`SETTINGS`) to ``value``."""
    if name == "strategy" and isinstance(value, str):
        return SelectStrategy(value)
    if name == "delay" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return SetDelay(float(value))
    if name == "show_probabilities" and isinstance(value, bool):
        return ShowProbabilities(value)
    if name == "labels" and (value is None or isinstance(value, bool)):
        return SetLabels(value)
    if name == "cell_size" and isinstance(value, int) and not isinstance(value, bool):
        return SetCellSize(value)
    if name == "question_marks" and isinstance(value, bool):
        return SetQuestionMarks(value)
    raise MessageError(f"the browser may not set {quote(name, 40)} to {quote(value, 80)}")


def decode_state(state: dict[str, Any]) -> list[Message]:
    """The messages for a state update from the browser, which may set only the player's settings."""
    return [setting_message(key, value) for key, value in state.items()]


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


def from_browser(sync_data: object, handled: int) -> tuple[list[FromBrowser], list[Any] | None]:
    """The messages for one state update from the browser (never raises): its settings first, then one
    :class:`FromBrowser` per new request (id above ``handled``); and the ``requests`` list to keep (None
    when there is none, or when it was refused). A malformed update, or a request that is not a message,
    becomes :class:`BadInput`, which the session shows and which changes nothing else."""
    try:
        if not isinstance(sync_data, dict):
            raise MessageError(f"a state update must be an object, got {type(sync_data).__name__}")
        settings = {key: value for key, value in sync_data.items() if key != "requests"}
        fresh = decode_requests(sync_data["requests"], handled) if "requests" in sync_data else []
        changes = tuple(decode_state(settings))
    except MessageError as error:
        return [FromBrowser((BadInput(str(error)),))], None
    kept = sync_data.get("requests")
    out = [FromBrowser(changes)] if changes else []
    for ident, content in fresh:
        try:
            message = decode(content)
        except MessageError as error:
            message = BadInput(str(error))
        out.append(FromBrowser((message,), ident))
    return out, kept
