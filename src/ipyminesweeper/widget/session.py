"""The widget's model: the :class:`Session`, one frozen value of the game as a player or a teacher would
name it (the history, the settings, the strategy, the autoplayer, the hint, the statistics, the clock),
and its parts.

Only :func:`.session_update.update` makes a new session from an old one.
What the runtime keeps for itself (the work under way, the requests waiting, the board on the wire) is a
value of its own, :class:`~ipyminesweeper.widget.runtime_state.RuntimeState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import Board, GameMetrics, Replay, View
from ..strategies import Review, Strategy
from . import phrases
from .history import History, Turn
from .stats import Stats

__all__ = [
    "ERROR_LIMIT",
    "Assistance",
    "AutoplayRun",
    "Problem",
    "Reviewed",
    "Session",
    "Settings",
    "Shared",
    "problem_of",
]

ERROR_LIMIT = 300
"""The problem the widget shows is cut to this many characters (the browser's input is echoed in 200)."""


@dataclass(frozen=True)
class Problem:
    """Why the last message was rejected, as the widget shows it (``text``, at most :data:`ERROR_LIMIT`
    characters). ``error`` is the exception itself: ``w.last_error``, and the traceback of a failing user
    strategy; it takes no part in comparisons."""

    text: str
    error: BaseException | None = field(default=None, compare=False)


def problem_of(error: BaseException) -> Problem:
    """The problem to show for ``error``: its message, cut to :data:`ERROR_LIMIT` characters."""
    text = str(error)
    return Problem(text if len(text) <= ERROR_LIMIT else text[: ERROR_LIMIT - 1] + "…", error)


@dataclass(frozen=True)
class AutoplayRun:
    """A run of the autoplayer: its ``strategy`` (a name, a callable, or None: the selected one) and how
    many ``moves_left`` (None: until the game ends)."""

    strategy: str | Strategy | None = None
    moves_left: int | None = None


@dataclass(frozen=True)
class Assistance:
    """How a game was helped along. Best times count only games with no assistance at all."""

    undos_after_loss: int = 0
    hints: int = 0
    autoplayer_moves: int = 0
    boards_set: int = 0
    rewinds: int = 0
    overlay: bool = False
    opened: bool = False
    """The game was opened from a link or a replay file: its first moves are someone else's."""

    def __bool__(self) -> bool:
        return bool(
            self.undos_after_loss
            or self.hints
            or self.autoplayer_moves
            or self.boards_set
            or self.rewinds
            or self.overlay
            or self.opened
        )

    def describe(self) -> str:
        """``"1 undo after a loss, 2 hints"``: what helped, or ``""``."""
        return phrases.assistance(
            self.undos_after_loss,
            self.hints,
            self.autoplayer_moves,
            self.boards_set,
            self.rewinds,
            self.overlay,
            self.opened,
        )


@dataclass(frozen=True)
class Settings:
    """The player's choices, kept from one game to the next.

    ``labels`` None means automatic: row and column labels appear once the autoplayer, a hint or the
    overlay is used. ``cell_size`` 0 means: fit the output's width (never below :data:`~.constants.MIN_CELL`).
    """

    show_probabilities: bool = False
    delay: float = 0.25
    labels: bool | None = None
    cell_size: int = 0
    question_marks: bool = False


@dataclass(frozen=True)
class Reviewed:
    """The review of the finished game (:func:`~ipyminesweeper.strategies.review`), the move ``index`` shown
    (0-based), and whether the panel is ``shown``. Kept while the game stays as it is."""

    review: Review
    index: int = 0
    shown: bool = True


@dataclass(frozen=True)
class Shared:
    """The link made last (:mod:`.link`): its ``code`` and ``mode``."""

    code: str
    mode: str


@dataclass(frozen=True)
class Session:
    """The game, as the widget knows it. Change it only with :func:`.session_update.update`.

    ``viewing`` is the index of the history board the time-travel slider shows (None: the live game);
    ``marks`` the covered cells (flat indices) the player marked "?"; ``autoplay`` the autoplayer's run
    (None: it does not run); ``started_at``, ``ended_at`` and ``moved_at`` (the last move) are epoch
    milliseconds, 0 until the game starts, ends or moves. ``stats`` is the statistics summary the store
    sent last, and ``problem`` why the last message was rejected (None: it was not).

    ``idle`` counts the clicks that changed nothing (left, right, chord: the players' wasted clicks);
    ``metrics`` are the finished game's figures (3BV, clicks, ...; None while it is on); ``reviewed`` its
    review; ``source`` the replay a game was opened from (a link's, a file's: it has the times and the
    wasted clicks; None once a move is played); ``shared`` the link made last; ``awaits_link`` says that
    the widget opens the game in its page's address (``Minesweeper.from_page()``).
    """

    history: History
    strategies: tuple[tuple[str, Strategy], ...]
    strategy: str
    settings: Settings = field(default_factory=Settings)
    last_move: Turn | None = None
    hint: Turn | None = None
    viewing: int | None = None
    marks: frozenset[int] = frozenset()
    autoplay: AutoplayRun | None = None
    assistance: Assistance = field(default_factory=Assistance)
    started_at: int = 0
    ended_at: int = 0
    moved_at: int = 0
    stats: Stats = field(default_factory=Stats)
    problem: Problem | None = None
    idle: tuple[int, int, int] = (0, 0, 0)
    metrics: GameMetrics | None = None
    reviewed: Reviewed | None = None
    source: Replay | None = None
    shared: Shared | None = None
    awaits_link: bool = False

    @property
    def autoplaying(self) -> bool:
        """Whether the autoplayer runs."""
        return self.autoplay is not None

    @property
    def board(self) -> Board:
        """The current (live) board."""
        return self.history.current

    @property
    def shown(self) -> Board:
        """The board on screen: the live one, or the history board the slider points at."""
        return self.board if self.viewing is None else self.history[self.viewing]

    @property
    def view(self) -> View:
        """What the player sees of the live game."""
        return self.history.current.view

    @property
    def screen(self) -> View:
        """The view on screen: the reviewed move's, the history board's the slider points at, or the live
        game's."""
        reviewed = self.reviewed
        if reviewed is not None and reviewed.shown and reviewed.review.rows:
            return reviewed.review.rows[reviewed.index].view
        return self.shown.view

    @property
    def strategy_names(self) -> tuple[str, ...]:
        """The names in the strategy menu, in order."""
        return tuple(name for name, _ in self.strategies)

    def strategy_named(self, name: str) -> Strategy | None:
        """The strategy called ``name`` in this session's menu, or None."""
        return next((fn for known, fn in self.strategies if known == name), None)

    @property
    def labels_shown(self) -> bool:
        """Whether row and column labels are on: the player's choice, else once help was used."""
        if self.settings.labels is not None:
            return self.settings.labels
        a = self.assistance
        return bool(a.autoplayer_moves or a.hints or a.overlay or self.hint or self.last_move)

    @property
    def seconds(self) -> float:
        """Seconds of play, from the first reveal to the end (0 until the game has ended)."""
        return (self.ended_at - self.started_at) / 1000 if self.ended_at else 0.0

    @property
    def elapsed(self) -> float:
        """Seconds of play at the last move (the end, once the game is over): a saved copy's frozen timer."""
        if not self.started_at:
            return 0.0
        return max(0, (self.ended_at or self.moved_at) - self.started_at) / 1000

    @property
    def summary(self) -> str:
        """The end-of-game message: ``"won in 41 s"``, ``"won in 41 s (assisted: 2 hints)"``, or ``""``."""
        status = self.board.status
        if status not in ("won", "lost"):
            return ""
        # whole seconds completed, as the browser's LED timer counts them (js/helpers.js elapsedSeconds)
        return phrases.game_over(status == "won", int(self.seconds), self.assistance.describe())
