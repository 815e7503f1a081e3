"""Statistics as data: each finished game is a :class:`GameResult`; :class:`Stats` is what they add up to.

For each level and first-click rule: games played and won, the best and the median time, the current
and best streak, and the best 3BV/s and efficiency. Best times, 3BV/s and efficiencies count only games
won without any help (no undo after a loss, hint, autoplayer move, board set from code, overlay, or a game
opened from a link); the median counts every win. The two columns say so ("best (no help)", "median (all
wins)"), in the widget's panel and here. Each game keeps its own figures (3BV, clicks, ...:
:class:`~ipyminesweeper.engine.GameMetrics`), and the statistics keep the newest game (``last``). A game
that ends twice (lost, undone, then won) keeps only its last result, which counts as the newest game.

The rule for what one more game changes is written once, as :meth:`Tally.add`. A store keeps the games
(:class:`StatsStore`: ``add(result)``, ``load()``, ``notice()``); the widget is given one:

- :class:`MemoryStats`, the games in memory: for tests and notebooks,
  ``Minesweeper(..., stats=MemoryStats())``;
- :class:`~ipyminesweeper.widget.stats_file.StatsFile`, an SQLite file that survives the kernel (the
  default).

:class:`GameLog` is the pure value under :class:`MemoryStats` (the games, oldest first, with
:func:`record`), and the reference the file is tested against.
"""

from __future__ import annotations

import math
import statistics
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..engine import LEVELS, ClickCounts, GameMetrics
from ..engine.escape import markdown_text
from ..engine.pickling import CheckedPickle

__all__ = [
    "MAX_LOG",
    "GameLog",
    "GameResult",
    "LevelStats",
    "MemoryStats",
    "Stats",
    "StatsStore",
    "Tally",
    "check_metrics",
    "level_name",
    "record",
    "tally",
]

MAX_LOG = 10_000
"""A :class:`GameLog` in memory keeps the most recent games only (the file keeps every game)."""
MAX_TEXT = 1000
"""The longest text field of a :class:`GameResult` (game id, level, first-click rule, assistance)."""
MAX_SECONDS = 10**9


def level_name(rows: int, cols: int, mines: int) -> str:
    """``"beginner"``, ``"intermediate"``, ``"expert"`` or ``"16x30/99"`` for any other board."""
    for name, shape in LEVELS.items():
        if shape == (rows, cols, mines):
            return name
    return f"{rows}x{cols}/{mines}"


@dataclass(frozen=True)
class GameResult(CheckedPickle):
    """One finished game. ``game`` identifies it (a game that ends again replaces its earlier result).

    Every field is checked on construction (and on unpickling): a ValueError or TypeError names it.
    """

    game: str
    level: str
    first_click: str
    won: bool
    seconds: float
    assisted: str = ""
    """What helped, as in the end message ("1 hint, 30 autoplayer moves"), or "" for an honest game."""
    finished_at: int = 0
    """Epoch milliseconds."""
    metrics: GameMetrics | None = None
    """The game's figures: 3BV, clicks, 3BV/s, efficiency... (None: not known, as for games recorded
    before issue 58)."""

    def __post_init__(self) -> None:
        for name in ("game", "level", "first_click", "assisted"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise TypeError(f"a game result's {name} is a str, not {type(value).__name__}")
            if len(value) > MAX_TEXT or (name != "assisted" and not value):
                raise ValueError(f"a game result's {name} has 1 to {MAX_TEXT} characters, not {len(value)}")
        if not isinstance(self.won, bool):
            raise TypeError(f"a game result's won is a bool, not {type(self.won).__name__}")
        seconds = self.seconds
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"a game result's seconds is a number, not {type(seconds).__name__}")
        if not (math.isfinite(seconds) and 0 <= seconds < MAX_SECONDS):
            raise ValueError(f"a game result's seconds is from 0 to {MAX_SECONDS:,}, not {seconds!r}")
        when = self.finished_at
        if isinstance(when, bool) or not isinstance(when, int) or not 0 <= when < 2**63:
            raise ValueError(f"a game result's finished_at is epoch milliseconds, not {when!r}")
        if self.metrics is not None:
            check_metrics(self.metrics)
            if self.metrics.won != self.won:
                raise ValueError("a game result's metrics say the game was won as the result does")

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV/s: the 3BV solved over the game's seconds (None: no figures, or no time)."""
        m = self.metrics
        rate = None if m is None or not self.seconds else m.solved_bbbv / self.seconds
        return rate if rate is not None and rate < MAX_SECONDS else None  # a time of 1e-300 s: no rate

    @property
    def efficiency(self) -> float | None:
        """3BV over clicks (None: no figures, or no click)."""
        return None if self.metrics is None else self.metrics.efficiency

    @property
    def honest(self) -> bool:
        """Whether the game was played without any help."""
        return not self.assisted


def check_metrics(m: object) -> None:
    """A TypeError or ValueError unless ``m`` is a GameMetrics of whole, non-negative counts (and its
    seconds, if any, a finite non-negative number)."""
    if not isinstance(m, GameMetrics) or not isinstance(m.clicks, ClickCounts):
        raise TypeError(f"a game result's metrics are a GameMetrics, not {type(m).__name__}")
    c = m.clicks
    counts = (m.bbbv, m.solved_bbbv, m.zini, c.left, c.right, c.chord, *_effective(c))
    if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**31 for n in counts):
        raise ValueError(f"a game result's metrics are whole numbers from 0, not {counts}")
    if m.seconds is not None and not (isinstance(m.seconds, (int, float)) and 0 <= m.seconds < MAX_SECONDS):
        raise ValueError(f"a game result's metrics have seconds from 0 to {MAX_SECONDS:,}, not {m.seconds!r}")


def _effective(c: ClickCounts) -> tuple[int, int, int]:
    return c.left_effective, c.right_effective, c.chord_effective


def _best(best: float | None, value: float | None) -> float | None:
    """The higher of a best so far and a new value (None: none)."""
    if value is None:
        return best
    return value if best is None else max(best, value)


@dataclass(frozen=True)
class Tally:
    """The running totals of one level and first-click rule: everything but the median."""

    played: int = 0
    won: int = 0
    best_seconds: float | None = None
    """The best time of a game won without help."""
    streak: int = 0
    best_streak: int = 0
    best_bbbv_per_second: float | None = None
    """The best 3BV/s of a game won without help."""
    best_efficiency: float | None = None
    """The best efficiency (3BV / clicks) of a game won without help."""

    def add(
        self,
        won: bool,
        seconds: float,
        honest: bool,
        bbbv_per_second: float | None = None,
        efficiency: float | None = None,
    ) -> Tally:
        """The totals with one more game after the others: ``won`` or lost, in ``seconds``, ``honest``
        (without help) or not, with its 3BV/s and efficiency where known."""
        best, rate, ratio = self.best_seconds, self.best_bbbv_per_second, self.best_efficiency
        if won and honest:
            best = seconds if best is None else min(best, seconds)
            rate, ratio = _best(rate, bbbv_per_second), _best(ratio, efficiency)
        streak = self.streak + 1 if won else 0
        longest = max(self.best_streak, streak)
        return Tally(self.played + 1, self.won + won, best, streak, longest, rate, ratio)

    def add_result(self, r: GameResult) -> Tally:
        """The totals with the game ``r`` after the others."""
        return self.add(r.won, r.seconds, r.honest, r.bbbv_per_second, r.efficiency)


def tally(results: Iterable[GameResult]) -> Tally:
    """The totals of ``results``, oldest first."""
    total = Tally()
    for r in results:
        total = total.add_result(r)
    return total


@dataclass(frozen=True)
class LevelStats:
    """The statistics of one level and first-click policy."""

    level: str
    first_click: str
    played: int
    won: int
    best_seconds: float | None
    """The fastest win without help."""
    median_seconds: float | None
    """The median time of every win, helped or not (the column says "all wins")."""
    streak: int
    best_streak: int
    best_bbbv_per_second: float | None = None
    """The best 3BV/s of a win without help."""
    best_efficiency: float | None = None
    """The best efficiency (3BV / clicks) of a win without help."""

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def tally(self) -> Tally:
        """Its totals: everything but the median."""
        return Tally(
            self.played,
            self.won,
            self.best_seconds,
            self.streak,
            self.best_streak,
            self.best_bbbv_per_second,
            self.best_efficiency,
        )

    @classmethod
    def of(cls, level: str, first_click: str, totals: Tally, median: float | None) -> LevelStats:
        """A level's statistics from its totals and its median winning time."""
        return cls(
            level,
            first_click,
            totals.played,
            totals.won,
            totals.best_seconds,
            median,
            totals.streak,
            totals.best_streak,
            totals.best_bbbv_per_second,
            totals.best_efficiency,
        )


@dataclass(frozen=True)
class Stats:
    """The statistics shown: one :class:`LevelStats` per level and first-click rule, in order of first play.

    ``note`` says where they come from when it is not the statistics database (kept in memory only);
    ``last`` is the newest game, with its figures (``last.metrics``).
    """

    rows: tuple[LevelStats, ...] = ()
    note: str = field(default="", compare=False)
    last: GameResult | None = None

    def of(self, level: str, first_click: str) -> LevelStats:
        """The statistics of one level (``"expert"``, ``"10x10/15"``, ...) and first-click policy."""
        for row in self.rows:
            if (row.level, row.first_click) == (level, first_click):
                return row
        return LevelStats.of(level, first_click, Tally(), None)

    @property
    def levels(self) -> tuple[tuple[str, str], ...]:
        """Every (level, first_click) played, in order of first play."""
        return tuple((row.level, row.first_click) for row in self.rows)

    @property
    def played(self) -> int:
        """Games played, over every level."""
        return sum(row.played for row in self.rows)

    def table(self) -> tuple[LevelStats, ...]:
        """One :class:`LevelStats` per level and policy played."""
        return self.rows

    def __repr__(self) -> str:
        return f"<Stats of {self.played} games>"

    def _repr_markdown_(self) -> str:
        lines = [
            "| level | first click | played | won | best (no help) | median (all wins) | streak "
            "| best streak | best 3BV/s | best efficiency |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for s in self.rows:
            best = "" if s.best_seconds is None else f"{int(s.best_seconds)} s"  # whole seconds, as the LED
            median = "" if s.median_seconds is None else f"{int(s.median_seconds)} s"
            rate = "" if s.best_bbbv_per_second is None else f"{s.best_bbbv_per_second:.2f}"
            ratio = "" if s.best_efficiency is None else f"{s.best_efficiency:.0%}"
            lines.append(
                f"| {s.level} | {s.first_click} | {s.played} | {s.won} | {best} | {median} | "
                f"{s.streak} | {s.best_streak} | {rate} | {ratio} |"
            )
        text = "\n".join(lines) if self.rows else "No finished games yet."
        return f"{text}\n\n{markdown_text(self.note)}" if self.note else text  # it may quote a path


@dataclass(frozen=True)
class GameLog:
    """Finished games in memory, oldest first (the most recent :data:`MAX_LOG`), and their statistics."""

    games: tuple[GameResult, ...] = ()

    def stats(self, note: str = "") -> Stats:
        """What the games add up to, level by level."""
        groups: dict[tuple[str, str], list[GameResult]] = {}
        for game in self.games:
            groups.setdefault((game.level, game.first_click), []).append(game)
        rows = []
        for (level, first_click), games in groups.items():
            wins = [g.seconds for g in games if g.won]
            median = statistics.median(wins) if wins else None
            rows.append(LevelStats.of(level, first_click, tally(games), median))
        return Stats(tuple(rows), note, self.games[-1] if self.games else None)

    def __repr__(self) -> str:
        return f"<GameLog of {len(self.games)} games>"


def record(log: GameLog, result: GameResult) -> GameLog:
    """``log`` with ``result`` added as the newest game, replacing an earlier result of the same game."""
    kept = tuple(r for r in log.games if r.game != result.game)
    return replace(log, games=(*kept, result)[-MAX_LOG:])


class StatsStore(Protocol):
    """Where finished games are kept: the widget records each with ``add`` and reads them with ``load``."""

    def load(self) -> Stats:
        """The statistics of every game recorded so far."""
        ...

    def add(self, result: GameResult) -> Stats:
        """Record ``result`` (replacing an earlier result of the same game); the statistics after it."""
        ...

    def notice(self) -> str:
        """What the store has to say since the last call (each notice once), or ""."""
        ...


class MemoryStats:
    """A :class:`StatsStore` in memory (the most recent :data:`MAX_LOG` games): it never touches a file.

    For tests and notebooks: ``Minesweeper(..., stats=MemoryStats())``. ``log`` is what it holds.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.log = GameLog()

    def add(self, result: GameResult) -> Stats:
        """Record ``result``; the statistics after it."""
        if not isinstance(result, GameResult):
            raise TypeError(f"add records a GameResult, not {type(result).__name__}")
        with self._lock:
            self.log = record(self.log, result)
            return self.log.stats()

    def load(self) -> Stats:
        """The statistics of the games recorded."""
        return self.log.stats()

    def notice(self) -> str:
        """Always "": nothing ever goes wrong in memory."""
        return ""

    def __repr__(self) -> str:
        return f"<MemoryStats of {len(self.log.games)} games>"
