"""Statistics as data: each finished game is a :class:`GameResult`; :class:`Stats` is what they add up to.

For each level and first-click rule: games played and won, the best and the median time, and the current
and best streak. Best times count only games won without any help (no undo after a loss, hint, autoplayer
move, board set from code, or overlay); the median counts every win. The two columns say so ("best (no
help)", "median (all wins)"), in the widget's panel and here. A game that ends twice (lost, undone, then
won) keeps only its last result, which counts as the newest game.

The rule for what one more game changes is written once, as :meth:`Tally.add`. Two stores fold it:

- :class:`GameLog`, a pure value (the games in memory, oldest first, with :func:`record`), used where no
  database can be written and as the reference the database is tested against;
- the SQLite database of :mod:`ipyminesweeper.widget.stats_file`, which keeps one row per game and one
  ``Tally`` per level, so that reading the statistics never reads every game.

:func:`log_from_json` reads the JSON file of earlier versions (:data:`STATS_FORMAT`), refusing anything
malformed or oversized.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import LEVELS
from ..engine.escape import markdown_text
from ..engine.pickling import CheckedPickle

__all__ = [
    "MAX_JSON_BYTES",
    "MAX_LOG",
    "STATS_FORMAT",
    "GameLog",
    "GameResult",
    "LevelStats",
    "Stats",
    "Tally",
    "level_name",
    "log_from_json",
    "record",
    "tally",
]

STATS_FORMAT = "ipyminesweeper/stats"
MAX_LOG = 10_000
"""A :class:`GameLog` in memory keeps the most recent games only (the database keeps every game)."""
MAX_JSON_BYTES = 16_000_000
"""The largest statistics JSON read (earlier versions wrote at most 10,000 games, about 2 MB)."""
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

    @property
    def honest(self) -> bool:
        """Whether the game was played without any help."""
        return not self.assisted


@dataclass(frozen=True)
class Tally:
    """The running totals of one level and first-click rule: everything but the median."""

    played: int = 0
    won: int = 0
    best_seconds: float | None = None
    """The best time of a game won without help."""
    streak: int = 0
    best_streak: int = 0

    def add(self, won: bool, seconds: float, honest: bool) -> Tally:
        """The totals with one more game after the others: ``won`` or lost, in ``seconds``, ``honest``
        (without help) or not."""
        best = self.best_seconds
        if won and honest:
            best = seconds if best is None else min(best, seconds)
        streak = self.streak + 1 if won else 0
        return Tally(self.played + 1, self.won + won, best, streak, max(self.best_streak, streak))


def tally(results: Iterable[GameResult]) -> Tally:
    """The totals of ``results``, oldest first."""
    total = Tally()
    for r in results:
        total = total.add(r.won, r.seconds, r.honest)
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

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

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
        )


@dataclass(frozen=True)
class Stats:
    """The statistics shown: one :class:`LevelStats` per level and first-click rule, in order of first play.

    ``note`` says where they come from when it is not the statistics database (kept in memory only).
    """

    rows: tuple[LevelStats, ...] = ()
    note: str = field(default="", compare=False)

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
            "| best streak |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for s in self.rows:
            best = "" if s.best_seconds is None else f"{int(s.best_seconds)} s"  # whole seconds, as the LED
            median = "" if s.median_seconds is None else f"{int(s.median_seconds)} s"
            lines.append(
                f"| {s.level} | {s.first_click} | {s.played} | {s.won} | {best} | {median} | "
                f"{s.streak} | {s.best_streak} |"
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
        return Stats(tuple(rows), note)

    def to_json(self) -> str:
        """The JSON of earlier versions: ``{"format": ..., "version": 1, "games": [ {...}, ... ]}``."""
        games = [
            {
                "game": r.game,
                "level": r.level,
                "first_click": r.first_click,
                "won": r.won,
                "seconds": r.seconds,
                "assisted": r.assisted,
                "finished_at": r.finished_at,
            }
            for r in self.games
        ]
        return json.dumps({"format": STATS_FORMAT, "version": 1, "games": games}, indent=1)

    def __repr__(self) -> str:
        return f"<GameLog of {len(self.games)} games>"


def record(log: GameLog, result: GameResult) -> GameLog:
    """``log`` with ``result`` added as the newest game, replacing an earlier result of the same game."""
    kept = tuple(r for r in log.games if r.game != result.game)
    return replace(log, games=(*kept, result)[-MAX_LOG:])


def log_from_json(data: str | bytes) -> GameLog:
    """Read :meth:`GameLog.to_json` output; ValueError for anything that is not a valid record.

    Input longer than :data:`MAX_JSON_BYTES` is refused before it is parsed.
    """
    if len(data) > MAX_JSON_BYTES:
        raise ValueError(f"a statistics file is at most {MAX_JSON_BYTES:,} bytes; this one has {len(data):,}")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        parsed: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ValueError(f"not a statistics file: {str(error)[:200]}") from None
    if not isinstance(parsed, dict) or parsed.get("format") != STATS_FORMAT or parsed.get("version") != 1:
        raise ValueError(f"not a statistics file (expected format {STATS_FORMAT!r}, version 1)")
    games = parsed.get("games")
    if not isinstance(games, list):
        raise ValueError("a statistics file has a list of games")
    newest: dict[str, GameResult] = {}  # in order of last result, as record() keeps them
    for g in games:
        if not isinstance(g, dict) or set(g) != set(_FIELDS):
            raise ValueError(f"a malformed game in the statistics file: {str(g)[:120]}")
        try:
            result = GameResult(**{k: g[k] for k in _FIELDS})
        except (TypeError, ValueError) as error:
            raise ValueError(f"a malformed game in the statistics file: {error}") from None
        newest.pop(result.game, None)
        newest[result.game] = result
    return GameLog(tuple(newest.values())[-MAX_LOG:])


_FIELDS = ("game", "level", "first_click", "won", "seconds", "assisted", "finished_at")
