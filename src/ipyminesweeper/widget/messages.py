"""The messages a session understands, and how the browser's JSON becomes one of them.

Every change to a widget is a message: a click in the browser and a call such as ``w.reveal(3, 4)`` both
become ``Reveal((3, 4))``, handed to :func:`~ipyminesweeper.widget.session_update.update`. Messages are plain
frozen values, so a game can be replayed, logged or tested by listing them.

A message checks its own fields when it is made, as a ``Board`` does: ``SetDelay(-1)`` raises a
:class:`MessageError` (a ValueError), ``Reveal("a1")`` a TypeError. Those checks are written here only;
``update`` checks what depends on the session (a cell on the board, a strategy in the menu). Each message
also says, once, how the browser names it (``action``, and the JSON fields it takes) or which traitlet it
sets (``setting``): :func:`decode` and :func:`setting_message` read those, so no other table lists them.

The browser is untrusted: :func:`decode` accepts exactly the documented JSON shapes and raises for anything
else, quoting at most a few words of what it got.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine import Board, GameSpec, Position
from ..engine.errors import quote
from ..engine.geometry import as_position
from ..strategies import BUILTINS, STRATEGIES, Strategy
from .constants import MAX_CELL, MAX_REQUEST_ID, MIN_CELL
from .link import MAX_LINK, MODES, SharedGame, read_link
from .session import Problem
from .stats import Stats

__all__ = [
    "ECHO_LIMIT",
    "FRONTEND_WRITABLE",
    "MAX_DELAY",
    "MAX_TIME_LIMIT",
    "MESSAGES",
    "NAME_LIMIT",
    "SETTINGS",
    "STOP_REASONS",
    "AddStrategy",
    "AutoStep",
    "Autoplay",
    "BadInput",
    "Cancel",
    "CellMessage",
    "Chord",
    "Flag",
    "FromBrowser",
    "GameMessage",
    "Hint",
    "Live",
    "Message",
    "MessageError",
    "NewGame",
    "NewGameOf",
    "NextSafe",
    "OpenGame",
    "Pause",
    "Rejected",
    "Resume",
    "Resync",
    "Reveal",
    "RuntimeMessage",
    "Scrub",
    "SelectStrategy",
    "SetBoard",
    "SetCellSize",
    "SetDelay",
    "SetLabels",
    "SetQuestionMarks",
    "SetTimeLimit",
    "ShareLink",
    "ShowProbabilities",
    "ShowReview",
    "StatsChanged",
    "Step",
    "StrategyStopped",
    "Undo",
    "check_request",
    "decode",
    "decode_requests",
    "from_browser",
    "setting_message",
]

ECHO_LIMIT = 200
"""At most this many characters of the browser's input are echoed back in an error."""
REQUEST_LIMIT = 64
"""The most requests one ``requests`` update may carry (the browser keeps only the unanswered ones)."""
MAX_DELAY = 10.0
"""The longest pause between two autoplayer moves, in seconds."""
MAX_TIME_LIMIT = 3600.0
"""The longest time limit of a strategy's move (``Minesweeper.strategy_time_limit``), in seconds."""
NAME_LIMIT = 60
"""The longest strategy name a session accepts."""
REQUEST_FIELDS = 8
"""The most fields one request may have (``id``, ``action`` and its arguments)."""
TEXT_LIMIT = 100
"""The longest string a request may hold (a level name, a first-click rule, a field name), but for a
link's code (:data:`LONG_FIELDS`)."""
LONG_FIELDS = {("open_link", "code"): MAX_LINK}
"""The fields that may hold a longer string, by action: the game of a link (``open_link``)."""


class MessageError(ValueError):
    """A message that cannot apply: malformed, or not allowed in the current state. Nothing changed."""


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise MessageError(problem)


def _require_type(condition: bool, problem: str) -> None:
    if not condition:
        raise TypeError(problem)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(seconds: object, name: str, highest: float, problem: str, *, positive: bool = False) -> float:
    """``seconds`` as a float, checked: a finite number from 0 (excluded if ``positive``) to ``highest``,
    else ``problem`` (with what was given)."""
    _require_type(
        isinstance(seconds, (int, float)) and not isinstance(seconds, bool),
        f"{name} is a number of seconds, not {quote(seconds)}",
    )
    assert isinstance(seconds, (int, float))
    above = seconds > 0 if positive else seconds >= 0
    _require(math.isfinite(seconds) and above and seconds <= highest, f"{problem}, not {quote(seconds)}")
    return float(seconds)


def _check_strategy(value: object, what: str) -> None:
    _require_type(
        value is None or isinstance(value, str) or callable(value),
        f"{what} takes a strategy name, a callable view -> Move, or None, not {quote(value)}",
    )


class Message:
    """A message to a session. Each is a frozen dataclass that checks its fields when it is made.

    ``action`` is its name in the browser's requests (None: the browser cannot send it), and
    ``browser_fields`` the JSON fields such a request may carry; ``setting`` is the traitlet it sets, for
    the player's settings, which both Python and the browser may write.
    """

    action: ClassVar[str | None] = None
    browser_fields: ClassVar[tuple[str, ...]] = ()
    setting: ClassVar[str | None] = None

    if TYPE_CHECKING:  # each message is a dataclass with fields of its own

        def __init__(self, *args: Any, **kwargs: Any) -> None: ...

    @classmethod
    def from_browser(cls, fields: dict[str, Any]) -> Message:
        """The message for a browser request's ``fields`` (checked by the message itself)."""
        return cls(**fields)


class GameMessage(Message):
    """A message of the game: a move, a setting, the autoplayer's timer, a reply of an effect.
    :func:`~ipyminesweeper.widget.session_update.update` takes these, and only these."""


class RuntimeMessage(Message):
    """A message to the runtime itself, not to the game: a browser request's wrapper, Cancel, Resync, the
    time limit, and the work under way (:mod:`.runtime_state`)."""


@dataclass(frozen=True)
class CellMessage(GameMessage):
    """A move on one cell, ``pos`` = ``(row, col)``; the browser sends ``row`` and ``col``."""

    pos: Position
    browser_fields = ("row", "col")

    def __post_init__(self) -> None:
        try:
            as_position(self.pos)
        except TypeError as error:
            raise TypeError(f"{type(self).__name__}: {error}") from None

    @classmethod
    def from_browser(cls, fields: dict[str, Any]) -> Message:
        pos: Any = (fields.get("row"), fields.get("col"))  # checked by __post_init__
        return cls(pos)


@dataclass(frozen=True)
class Reveal(CellMessage):
    """Reveal a cell (a zero opens its region)."""

    action = "reveal"


@dataclass(frozen=True)
class Flag(CellMessage):
    """Flag a covered cell, or unflag a flagged one."""

    action = "flag"


@dataclass(frozen=True)
class Chord(CellMessage):
    """Chord a revealed number whose flags are all placed."""

    action = "chord"


@dataclass(frozen=True)
class Undo(GameMessage):
    """Go back one move (after a loss too: the game then counts as assisted)."""

    action = "undo"


@dataclass(frozen=True)
class NewGame(GameMessage):
    """Start a new game on ``board`` (``w.new_game(board=...)``, or with a ``seed=``)."""

    board: Board

    def __post_init__(self) -> None:
        _require_type(isinstance(self.board, Board), f"NewGame needs a Board, not {quote(self.board)}")


@dataclass(frozen=True)
class NewGameOf(GameMessage):
    """Start a new game of a kind: a ``level``, or ``rows``, ``cols`` and ``mines``, and ``first_click``;
    what is left out stays as in the current game (:meth:`spec` reads it with the engine's
    :meth:`~ipyminesweeper.engine.spec.GameSpec.parse`).

    Without a ``seed``, :func:`.session_update.update` checks the kind and asks the runtime for a fresh
    seed (the ``DrawSeed`` effect), which sends this message back with every field filled.
    """

    level: str | None = None
    rows: int | None = None
    cols: int | None = None
    mines: int | None = None
    first_click: str | None = None
    seed: int | None = None
    action = "new_game"
    browser_fields = ("level", "rows", "cols", "mines", "first_click")

    def __post_init__(self) -> None:
        for name in ("level", "first_click"):
            value = getattr(self, name)
            _require_type(
                value is None or isinstance(value, str), f"a new game's {name} is a str, not {quote(value)}"
            )
        size = (self.rows, self.cols, self.mines)
        for name, value in zip(("rows", "cols", "mines"), size, strict=True):
            _require_type(
                value is None or _is_int(value), f"a new game's {name} is an int, not {quote(value)}"
            )
        _require(
            self.level is None or size == (None, None, None),
            f"the {self.level!r} level sets the size and mines: give no rows, cols or mines",
        )
        _require(
            sum(v is not None for v in size) in (0, 3),
            "a new game of another size needs rows, cols and mines",
        )
        try:  # the level and the seed; the rest is checked against the game it replaces (spec)
            GameSpec.parse(level=self.level, seed=self.seed)
        except ValueError as error:
            raise MessageError(str(error)) from None

    def spec(self, like: GameSpec) -> GameSpec:
        """The game this message asks for, what it leaves out taken from ``like`` (the current game's)."""
        return GameSpec.parse(
            self.rows,
            self.cols,
            self.mines,
            level=self.level,
            seed=self.seed,
            first_click=self.first_click,
            like=like,
        )

    @classmethod
    def of(cls, spec: GameSpec) -> NewGameOf:
        """The message for the game ``spec`` (every field filled)."""
        return cls(None, spec.rows, spec.cols, spec.mines, spec.first_click, spec.seed)


@dataclass(frozen=True)
class SetBoard(GameMessage):
    """Replace the current board by ``board`` (``w.board = ...``): it joins the history."""

    board: Board

    def __post_init__(self) -> None:
        _require_type(isinstance(self.board, Board), f"w.board must be a Board, not {quote(self.board)}")


@dataclass(frozen=True)
class Step(GameMessage):
    """Play one move of a strategy: a name from the session's menu, a callable, or None (the selected).
    The autoplayer stops."""

    strategy: str | Strategy | None = None
    action = "step"

    def __post_init__(self) -> None:
        _check_strategy(self.strategy, "Step")


@dataclass(frozen=True)
class Hint(GameMessage):
    """Show the move a strategy (None: the selected one) would play, without playing it."""

    strategy: str | Strategy | None = None
    action = "hint"

    def __post_init__(self) -> None:
        _check_strategy(self.strategy, "Hint")


@dataclass(frozen=True)
class NextSafe(CellMessage):
    """Show, as a hint, the first cell after ``pos`` (in reading order, then around) that the exact solver
    proves safe from the player's view: the scan key K moves the cursor there. Counts as a hint."""

    action = "next_safe"


@dataclass(frozen=True)
class Scrub(GameMessage):
    """Look at board ``index`` of the history (read-only); the last index is the live game."""

    index: int
    action = "scrub"
    browser_fields = ("index",)

    def __post_init__(self) -> None:
        _require_type(_is_int(self.index), f"a history index is an int, not {quote(self.index)}")


@dataclass(frozen=True)
class Live(GameMessage):
    """Stop looking back: show the live game again (from the history, or from the review)."""

    action = "live"


@dataclass(frozen=True)
class Resync(RuntimeMessage):
    """The browser missed a change of the board (see :mod:`.board_wire`): send it the whole board again."""

    action = "resync"


@dataclass(frozen=True)
class Resume(GameMessage):
    """Continue the game from the board the slider shows (a new branch; the game counts as assisted)."""

    action = "resume"


@dataclass(frozen=True)
class SelectStrategy(GameMessage):
    """Choose the strategy that Step and Play use."""

    name: str
    setting = "strategy"

    def __post_init__(self) -> None:
        _require_type(isinstance(self.name, str), f"a strategy name is a str, not {quote(self.name)}")


@dataclass(frozen=True)
class AddStrategy(GameMessage):
    """Add a strategy to the session's menu (and select it if asked)."""

    name: str
    strategy: Strategy
    select: bool = False

    def __post_init__(self) -> None:
        name = self.name
        _require_type(isinstance(name, str), f"a strategy name is a str, not {quote(name)}")
        _require(
            len(name.strip()) > 0 and len(name) <= NAME_LIMIT,
            f"a strategy name is a non-empty str of at most {NAME_LIMIT} characters, not {quote(name)}",
        )
        _require_type(
            callable(self.strategy),
            f"strategy {quote(name)} must be callable (view -> Move), not {quote(self.strategy)}",
        )
        _require_type(isinstance(self.select, bool), f"select is True or False, not {quote(self.select)}")
        _require(
            name not in BUILTINS or STRATEGIES[name] is self.strategy,
            f"{name!r} is a built-in strategy; pick another name",
        )


@dataclass(frozen=True)
class ShowProbabilities(GameMessage):
    """Turn the probability overlay on or off (on counts as assistance)."""

    on: bool
    setting = "show_probabilities"

    def __post_init__(self) -> None:
        _require_type(isinstance(self.on, bool), f"show_probabilities is True or False, not {quote(self.on)}")


@dataclass(frozen=True)
class SetDelay(GameMessage):
    """Seconds between two autoplayer moves, from 0 to :data:`MAX_DELAY`."""

    seconds: float
    setting: ClassVar[str] = "delay"

    def __post_init__(self) -> None:
        problem = f"delay must be a number of seconds from 0 to {MAX_DELAY:g}"
        object.__setattr__(self, "seconds", _seconds(self.seconds, "delay", MAX_DELAY, problem))


@dataclass(frozen=True)
class SetLabels(GameMessage):
    """Row and column labels: on, off, or None (automatic: on once help was used)."""

    on: bool | None
    setting: ClassVar[str] = "labels"

    def __post_init__(self) -> None:
        _require_type(
            self.on is None or isinstance(self.on, bool),
            f"labels is True, False or None, not {quote(self.on)}",
        )


@dataclass(frozen=True)
class SetCellSize(GameMessage):
    """The zoom: a cell size in CSS pixels, from :data:`MIN_CELL` to :data:`MAX_CELL`, or 0 to fit the
    output's width."""

    pixels: int
    setting: ClassVar[str] = "cell_size"

    def __post_init__(self) -> None:
        px = self.pixels
        _require_type(_is_int(px), f"a cell size is an int, not {quote(px)}")
        _require(
            px == 0 or MIN_CELL <= px <= MAX_CELL,
            f"a cell size is 0 (fit) or {MIN_CELL} to {MAX_CELL} pixels, not {quote(px)}",
        )


@dataclass(frozen=True)
class SetQuestionMarks(GameMessage):
    """Whether a right click cycles flag -> "?" -> covered (off by default, as in Windows)."""

    on: bool
    setting = "question_marks"

    def __post_init__(self) -> None:
        _require_type(isinstance(self.on, bool), f"question_marks is True or False, not {quote(self.on)}")


@dataclass(frozen=True)
class Autoplay(GameMessage):
    """Start the autoplayer with ``strategy`` (None: the selected one) for ``moves`` moves (None: to the
    end). While it plays, the session subscribes to a timer that sends :class:`AutoStep`."""

    strategy: str | Strategy | None = None
    moves: int | None = None
    action = "play"

    def __post_init__(self) -> None:
        _check_strategy(self.strategy, "Autoplay")
        moves = self.moves
        _require_type(moves is None or _is_int(moves), f"moves is an int or None, not {quote(moves)}")
        _require(moves is None or moves >= 0, f"moves must not be negative, not {quote(moves)}")


@dataclass(frozen=True)
class Pause(GameMessage):
    """Stop the autoplayer."""

    action = "pause"


@dataclass(frozen=True)
class ShowReview(GameMessage):
    """Show the review of the finished game at move ``index`` (0-based; None: the move shown last, else the
    first). The first one computes it (the exact solver rates every move: slow work); the others step
    through it."""

    index: int | None = None
    action = "review"
    browser_fields = ("index",)

    def __post_init__(self) -> None:
        index = self.index
        _require_type(index is None or _is_int(index), f"a review's move index is an int, not {quote(index)}")
        _require(index is None or index >= 0, f"a review's move index is 0 or more, not {quote(index)}")


@dataclass(frozen=True)
class ShareLink(GameMessage):
    """Make the link of this game (:mod:`.link`), in ``mode`` (``"board"``, ``"moves"`` or ``"review"``;
    None: its review once it is over, else its moves): the widget shows it, and the browser copies it."""

    mode: str | None = None
    action = "link"
    browser_fields = ("mode",)

    def __post_init__(self) -> None:
        mode = self.mode
        _require_type(mode is None or isinstance(mode, str), f"a link's mode is a str, not {quote(mode)}")
        _require(
            mode is None or mode in MODES, f"a link's mode is one of {', '.join(MODES)}, not {quote(mode)}"
        )


@dataclass(frozen=True)
class OpenGame(GameMessage):
    """Open a shared game (a link's, or a replay file's) in place of this one: its board, its moves or its
    review (its :attr:`~.link.SharedGame.mode`). The browser sends a link's code, ``{"action":
    "open_link", "code": ...}``, which is read and checked here (:func:`.link.read_link`): a broken one
    changes nothing and says why."""

    game: SharedGame
    action = "open_link"
    browser_fields = ("code",)

    def __post_init__(self) -> None:
        game = self.game
        _require_type(isinstance(game, SharedGame), f"OpenGame needs a SharedGame, not {quote(game)}")

    @classmethod
    def from_browser(cls, fields: dict[str, Any]) -> Message:
        code = fields.get("code")
        if not isinstance(code, str):
            raise TypeError(f"open_link takes the link's code, a str, not {quote(code)}")
        try:
            return cls(read_link(code))
        except ValueError as error:
            raise MessageError(f"cannot open this link: {error}") from None


@dataclass(frozen=True)
class Cancel(RuntimeMessage):
    """Stop the work the kernel does for an earlier request (the widget's Cancel, shown while it works):
    that request is answered with "cancelled", and the game is as it was."""

    action = "cancel"


@dataclass(frozen=True)
class AutoStep(GameMessage):
    """The autoplayer's timer fired: play its next move (nothing, if it has stopped meanwhile)."""


@dataclass(frozen=True)
class SetTimeLimit(RuntimeMessage):
    """How long, in seconds, a strategy may think over one autoplayer move (0 excluded, at most an hour)."""

    seconds: float

    def __post_init__(self) -> None:
        problem = f"strategy_time_limit is from 0 to {MAX_TIME_LIMIT:g} seconds (not 0)"
        limit = _seconds(self.seconds, "strategy_time_limit", MAX_TIME_LIMIT, problem, positive=True)
        object.__setattr__(self, "seconds", limit)


STOP_REASONS = ("time limit", "interrupt", "dropped")
"""Why the runtime stopped a strategy: past its time limit, the kernel's interrupt, or its move came too late
(a Pause or a new autoplayer came first)."""


@dataclass(frozen=True)
class StrategyStopped(GameMessage):
    """The runtime stopped the autoplayer's ``strategy`` after it had thought for ``seconds`` (see
    :data:`STOP_REASONS`; ``limit`` is the time limit, in seconds). Its move is dropped and the session is
    as it was; past the time limit or on an interrupt the autoplayer stops too."""

    strategy: str
    seconds: float
    why: str
    limit: float = 0.0

    def __post_init__(self) -> None:
        _require_type(isinstance(self.strategy, str), "strategy is a strategy's name")
        _require(self.why in STOP_REASONS, f"why is one of {', '.join(STOP_REASONS)}, not {quote(self.why)}")
        for name, value in (("seconds", self.seconds), ("limit", self.limit)):
            _require_type(
                isinstance(value, (int, float)) and not isinstance(value, bool), f"{name} is a number"
            )
            _require(math.isfinite(value) and value >= 0, f"{name} is a finite number, not {quote(value)}")


@dataclass(frozen=True)
class StatsChanged(GameMessage):
    """The statistics store's summary, one row per level and first-click rule (an effect's outcome), and
    what the store has to say, once (a file it moved aside, statistics kept in memory only), or ""."""

    stats: Stats
    notice: str = ""

    def __post_init__(self) -> None:
        _require_type(isinstance(self.stats, Stats), f"StatsChanged needs a Stats, not {quote(self.stats)}")
        _require_type(isinstance(self.notice, str), f"a notice is a str, not {quote(self.notice)}")


@dataclass(frozen=True)
class Rejected(GameMessage):
    """A message the runtime could not apply, or whose result it could not show: the game stays as it was
    and shows ``problem``, the log gets ``log``, and with ``stop`` the autoplayer stops too."""

    problem: Problem
    log: str
    stop: bool = False

    def __post_init__(self) -> None:
        _require_type(
            isinstance(self.problem, Problem), f"Rejected needs a Problem, not {quote(self.problem)}"
        )
        _require_type(isinstance(self.log, str), f"a log line is a str, not {quote(self.log)}")


@dataclass(frozen=True)
class BadInput(RuntimeMessage):
    """Input from the browser that is not a message (malformed JSON, a field it may not set)."""

    problem: str

    def __post_init__(self) -> None:
        _require_type(isinstance(self.problem, str), f"a problem is a str, not {quote(self.problem)}")


@dataclass(frozen=True)
class FromBrowser(RuntimeMessage):
    """``messages`` sent by the browser, applied all or nothing. Unlike a call from Python, a rejected
    one does not raise: the session keeps the problem, which the widget shows. ``request`` is the id of
    the request they answer (the synced ``handled``), or None for a change of the player's settings."""

    messages: tuple[Message, ...]
    request: int | None = None

    def __post_init__(self) -> None:
        _require_type(
            isinstance(self.messages, tuple) and all(isinstance(m, Message) for m in self.messages),
            f"FromBrowser needs a tuple of messages, not {quote(self.messages)}",
        )
        request = self.request
        _require_type(request is None or _is_int(request), f"a request id is an int, not {quote(request)}")


def _every_message(base: type[Message]) -> list[type[Message]]:
    out = []
    for cls in base.__subclasses__():
        out += [cls, *_every_message(cls)]
    return out


MESSAGES: tuple[type[Message], ...] = tuple(
    cls for cls in _every_message(Message) if cls not in (GameMessage, RuntimeMessage)
)
"""Every kind of message written here (the runtime's own work messages are in :mod:`.runtime_state`)."""
BROWSER_MESSAGES: dict[str, type[Message]] = {cls.action: cls for cls in MESSAGES if cls.action is not None}
"""The messages the browser may send, by ``action`` (see ``docs/architecture.md``)."""
SETTING_MESSAGES: dict[str, type[Message]] = {cls.setting: cls for cls in MESSAGES if cls.setting is not None}
SETTINGS = frozenset(SETTING_MESSAGES)
"""The player's settings: traitlets that Python code and the browser may both set."""
FRONTEND_WRITABLE = SETTINGS | {"requests"}
"""The only traitlets the browser may set: the settings and its input channel (the rest is Python -> JS)."""


def decode(content: object) -> Message:
    """The message for one JSON object sent by the browser; a MessageError or TypeError for anything else.

    ``{"action": "reveal" | "flag" | "chord", "row": int, "col": int}``, ``{"action": "scrub", "index":
    int}``, ``{"action": "new_game"}`` with optional ``level`` or ``rows``/``cols``/``mines``, and
    ``first_click`` (a :class:`NewGameOf`: its seed comes later, from the runtime), and
    ``{"action": "undo" | "step" | "hint" | "live" | "resume" | "play" | "pause"}``, and
    ``{"action": "next_safe", "row": int, "col": int}`` (the cursor: a hint of the next certainly safe cell),
    ``{"action": "review"}`` with an optional ``index``, ``{"action": "link"}``
    with an optional ``mode``, and ``{"action": "open_link", "code": str}`` (a link's game, read here).
    """
    if not isinstance(content, dict):
        raise MessageError(f"expected a JSON object, got {type(content).__name__}")
    action = content.get("action")
    if not isinstance(action, str) or action not in BROWSER_MESSAGES:
        known = ", ".join(BROWSER_MESSAGES)
        raise MessageError(f"unknown action {quote(action, ECHO_LIMIT)}; use one of {known}")
    kind = BROWSER_MESSAGES[action]
    fields = {key: value for key, value in content.items() if key != "action"}
    extra = sorted(quote(key, 40) for key in fields if key not in kind.browser_fields)
    if extra:
        raise MessageError(f"{action!r} takes no {quote(', '.join(extra), 100)}")
    return kind.from_browser(fields)


def setting_message(name: str, value: Any) -> Message:
    """The message that sets the player's setting ``name`` (one of :data:`SETTINGS`) to ``value``."""
    kind = SETTING_MESSAGES.get(name)
    if kind is None:
        raise MessageError(f"the browser may not set {quote(name, 40)} (only {', '.join(sorted(SETTINGS))})")
    return kind(value)


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
        if not isinstance(ident, int) or isinstance(ident, bool) or not last < ident <= MAX_REQUEST_ID:
            raise MessageError(
                f"each request is an object with an id, increasing, from 1 to {MAX_REQUEST_ID:,} "
                f"(2**53 - 1, where JavaScript still counts exactly), got {quote(entry, 80)}"
            )
        check_request(entry)
        assert isinstance(entry, dict)
        last = ident
        if ident > after:
            out.append((ident, {k: v for k, v in entry.items() if k != "id"}))
    return out


def check_request(entry: object) -> None:
    """MessageError unless ``entry`` is a small flat JSON object of strict JSON values: at most
    :data:`REQUEST_FIELDS` fields, each a short string, a boolean, null, an integer JavaScript counts
    exactly or a finite number (no NaN or infinity, which would make every later state message invalid)."""
    if not isinstance(entry, dict) or len(entry) > REQUEST_FIELDS:
        raise MessageError(
            f"each request is a JSON object of at most {REQUEST_FIELDS} fields, got {quote(entry, 80)}"
        )
    longest = {key: size for (action, key), size in LONG_FIELDS.items() if entry.get("action") == action}
    for key, value in entry.items():
        strict = (
            value is None
            or isinstance(value, bool)
            or (isinstance(value, str) and len(value) <= longest.get(key, TEXT_LIMIT))
            or (isinstance(value, int) and -MAX_REQUEST_ID <= value <= MAX_REQUEST_ID)
            or (isinstance(value, float) and math.isfinite(value))
        )
        if not (isinstance(key, str) and len(key) <= TEXT_LIMIT and strict):
            raise MessageError(
                f"a request's fields are short strings, booleans, null or finite numbers (strict JSON), "
                f"got {quote(key, 40)}: {quote(value, 80)}"
            )


def from_browser(sync_data: object, handled: int) -> tuple[list[FromBrowser], list[Any] | None]:
    """The messages for one state update from the browser (never raises): its settings first, then one
    :class:`FromBrowser` per new request (id above ``handled``); and the ``requests`` list to keep (None
    when there is none, or when it was refused). A malformed update, or a request that is not a message,
    becomes :class:`BadInput`, which the session shows and which changes nothing else."""
    try:
        if not isinstance(sync_data, dict):
            raise MessageError(f"a state update must be an object, got {type(sync_data).__name__}")
        fresh = decode_requests(sync_data["requests"], handled) if "requests" in sync_data else []
        changes = tuple(setting_message(k, v) for k, v in sync_data.items() if k != "requests")
    except (TypeError, ValueError) as error:
        return [FromBrowser((BadInput(str(error)),))], None
    out = [FromBrowser(changes)] if changes else []
    for ident, content in fresh:
        try:
            message = decode(content)
        except (TypeError, ValueError) as error:
            message = BadInput(str(error))
        out.append(FromBrowser((message,), ident))
    return out, sync_data.get("requests")
