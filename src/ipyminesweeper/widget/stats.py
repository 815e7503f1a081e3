"""Statistics as data: every finished game is a :class:`GameResult`, and :class:`Stats` is their record.

Everything is derived from the list of results: games played and won, best and median times, and the
current and best streak, per level and first-click policy. Best times count only games won without any
help (no undo after a loss, hint, autoplayer move, board set from code, or overlay). Adding a result is a
pure function (:func:`record`); a game that ends twice (lost, undone, then won) keeps only its last result.

The widget keeps the record in a documented JSON file (:data:`STATS_FORMAT`) under the user's Jupyter data
directory; :func:`stats_from_json` refuses anything malformed, so a corrupt file reads as no statistics.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Any

from ..engine import LEVELS

__all__ = [
    "MAX_RESULTS",
    "STATS_FORMAT",
    "GameResult",
    "LevelStats",
    "Stats",
    "level_name",
    "record",
    "stats_from_json",
]

STATS_FORMAT = "ipyminesweeper/stats"
MAX_RESULTS = 10_000
"""The record keeps the most recent games only."""


def level_name(rows: int, cols: int, mines: int) -> str:
    """``"beginner"``, ``"intermediate"``, ``"expert"`` or ``"16x30/99"`` for any other board."""
    for name, shape in LEVELS.items():
        if shape == (rows, cols, mines):
            return name
    return f"{rows}x{cols}/{mines}"


@dataclass(frozen=True)
class GameResult:
    """One finished game. ``game`` identifies it (a game that ends again replaces its earlier result)."""

    game: str
    level: str
    first_click: str
    won: bool
    seconds: float
    assisted: str = ""
    """What helped, as in the end message ("1 hint, 30 autoplayer moves"), or "" for an honest game."""
    finished_at: int = 0
    """Epoch milliseconds."""


@dataclass(frozen=True)
class LevelStats:
    """The statistics of one level and first-click policy."""

    level: str
    first_click: str
    played: int
    won: int
    best_seconds: float | None
    median_seconds: float | None
    streak: int
    best_streak: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class Stats:
    """The record of finished games, oldest first, and what follows from it."""

    results: tuple[GameResult, ...] = field(default=())

    def of(self, level: str, first_click: str) -> LevelStats:
        """The statistics of one level (``"expert"``, ``"10x10/15"``, ...) and first-click policy."""
        games = [r for r in self.results if r.level == level and r.first_click == first_click]
        wins = [r for r in games if r.won]
        honest = [r.seconds for r in wins if not r.assisted]
        streak = best = 0
        for r in games:
            streak = streak + 1 if r.won else 0
            best = max(best, streak)
        return LevelStats(
            level,
            first_click,
            played=len(games),
            won=len(wins),
            best_seconds=min(honest) if honest else None,
            median_seconds=statistics.median(r.seconds for r in wins) if wins else None,
            streak=streak,
            best_streak=best,
        )

    @property
    def levels(self) -> tuple[tuple[str, str], ...]:
        """Every (level, first_click) played, in order of first play."""
        return tuple(dict.fromkeys((r.level, r.first_click) for r in self.results))

    def table(self) -> tuple[LevelStats, ...]:
        """One :class:`LevelStats` per level and policy played."""
        return tuple(self.of(level, policy) for level, policy in self.levels)

    def to_json(self) -> str:
        """The documented JSON form: ``{"format": ..., "version": 1, "games": [ {...}, ... ]}``."""
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
            for r in self.results
        ]
        return json.dumps({"format": STATS_FORMAT, "version": 1, "games": games}, indent=1)

    def __repr__(self) -> str:
        return f"<Stats of {len(self.results)} games>"

    def _repr_markdown_(self) -> str:
        lines = [
            "| level | first click | played | won | best | median | streak | best streak |",
            "|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for s in self.table():
            best = "" if s.best_seconds is None else f"{s.best_seconds:.0f} s"
            median = "" if s.median_seconds is None else f"{s.median_seconds:.0f} s"
            lines.append(
                f"| {s.level} | {s.first_click} | {s.played} | {s.won} | {best} | {median} | "
                f"{s.streak} | {s.best_streak} |"
            )
        return "\n".join(lines) if self.results else "No finished games yet."


def record(stats: Stats, result: GameResult) -> Stats:
    """``stats`` with ``result`` added, replacing an earlier result of the same game; the newest kept."""
    kept = tuple(r for r in stats.results if r.game != result.game)
    return Stats((*kept, result)[-MAX_RESULTS:])


def stats_from_json(text: str) -> Stats:
    """Read :meth:`Stats.to_json` output; ValueError for anything that is not a valid record."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ValueError(f"not a statistics file: {error}") from None
    if not isinstance(data, dict) or data.get("format") != STATS_FORMAT or data.get("version") != 1:
        raise ValueError(f"not a statistics file (expected format {STATS_FORMAT!r}, version 1)")
    games = data.get("games")
    if not isinstance(games, list):
        raise ValueError("a statistics file has a list of games")
    results = []
    for g in games[-MAX_RESULTS:]:
        ok = (
            isinstance(g, dict)
            and all(isinstance(g.get(k), str) for k in ("game", "level", "first_click", "assisted"))
            and isinstance(g.get("won"), bool)
            and isinstance(g.get("seconds"), (int, float))
            and not isinstance(g.get("seconds"), bool)
            and 0 <= g["seconds"] < 10**9
            and isinstance(g.get("finished_at"), int)
            and not isinstance(g.get("finished_at"), bool)
        )
        if not ok:
            raise ValueError(f"a malformed game in the statistics file: {str(g)[:120]}")
        results.append(
            GameResult(
                g["game"],
                g["level"],
                g["first_click"],
                g["won"],
                float(g["seconds"]),
                g["assisted"],
                g["finished_at"],
            )
        )
    return Stats(tuple(results))
