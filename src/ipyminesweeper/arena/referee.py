"""The referee: it holds the boards, asks a player for moves on the views, and judges the guesses itself.

A player is a strategy (``view -> Move``) with a clock it can restart at each game: a function of this
process (:class:`InProcess`) or a strategy file in a process of its own (:class:`~.entry.Sandboxed`).
Either way the games are :func:`~.games.play_game`'s, so a player's wins and moves are those of
:func:`~.bench.benchmark` on the same seeds. Only the guesses are counted differently: a move is a guess
when the exact probabilities (:func:`ipyminesweeper.solver.probabilities`) give a cell it reveals a
chance of being a mine, whatever the move says about itself.

The first thing a player does wrong ends its run: a :class:`Failure` says what, on which game and seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from ..engine import View
from ..solver import certain_moves, probabilities
from ..strategies import InvalidMoveError, Move, Strategy, StrategyError, resolve, strategy_name
from ..strategies.game import REASON_LIMIT
from .bench import BenchResult, RunTally
from .games import Level, parse_level, play_game
from .progress import Progress, progress_reporter
from .sandbox import WorkerError

__all__ = ["Failure", "InProcess", "Interrupted", "Player", "referee", "risky"]


class Interrupted(KeyboardInterrupt):
    """Ctrl+C during a player's run: the game (from 1) and its seed, for a partial leaderboard."""

    def __init__(self, game: int, seed: int) -> None:
        super().__init__(f"interrupted during game {game} (seed {seed})")
        self.game, self.seed = game, seed


class Player(Protocol):
    """A strategy with a clock: ``new_game()`` before each game, then ``player(view) -> Move``."""

    __name__: str

    def __call__(self, view: View, /) -> Move: ...

    def new_game(self) -> None: ...


class InProcess:
    """A strategy called in this process: no limits (it can hang or end the run); for trusted code."""

    def __init__(self, strategy: Strategy | str) -> None:
        self.strategy = resolve(strategy)
        self.__name__ = strategy_name(strategy)

    def __call__(self, view: View, /) -> Move:
        return self.strategy(view)

    def new_game(self) -> None:
        """Nothing to reset: a function of this process has no clock."""


@dataclass(frozen=True)
class Failure:
    """Why a player is not ranked: ``kind`` (see :class:`WorkerError`, or ``illegal``), what happened,
    and the game (from 1) and seed it happened on (None: before the first game)."""

    kind: str
    message: str
    game: int | None = None
    seed: int | None = None

    def __str__(self) -> str:
        where = "before game 1" if self.game is None else f"game {self.game} (seed {self.seed})"
        return f"{where}: {self.message}"


def risky(view: View, move: Move) -> bool:
    """Whether ``move`` on ``view`` may hit a mine, by the exact probabilities: a reveal of a cell, or a
    chord around covered cells, that is not certainly safe. A flag is never a guess."""
    if move.action == "flag":
        return False
    cells = (
        [move.pos] if move.action == "reveal" else [n for n in view.neighbours(move.pos) if view[n] == "."]
    )
    if not cells:
        return False
    if set(cells) <= certain_moves(view).safe:  # the fast rules (or the exact analysis) prove them safe
        return False
    chances = probabilities(view)
    return any(chances.get(cell, 0.0) > 0 for cell in cells)


def _failure(error: Exception) -> tuple[str, str]:
    """The kind and the sentence of a player's failed move."""
    if isinstance(error, InvalidMoveError):
        return "illegal", str(error)
    cause = error.__cause__
    if isinstance(cause, WorkerError):
        return cause.kind, cause.message
    return "error", str(error)


def referee(
    player: Player,
    level: Level = "beginner",
    games: int = 100,
    seed: int = 0,
    first_click: str = "opening",
    *,
    label: str | None = None,
    progress: Progress = False,
) -> BenchResult | Failure:
    """Play ``games`` seeded games (game ``i`` on seed ``seed + i``) with ``player``, the board held
    here, and count its guesses by the exact probabilities (:func:`risky`). Returns the result, or the
    :class:`Failure` that ended the run. Ctrl+C raises :class:`Interrupted` (a KeyboardInterrupt)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, not {games!r}")
    name, rows, cols, mines = parse_level(level)
    label = player.__name__ if label is None else label
    report = progress_reporter(progress, games, f"{label} {name}")
    tally = RunTally(games)
    start = time.perf_counter()
    for i in range(games):
        try:
            player.new_game()
            game = play_game(player, (rows, cols, mines), seed + i, first_click, guess=risky)
        except (StrategyError, InvalidMoveError) as error:
            kind, message = _failure(error)
            return Failure(kind, _cut(message), i + 1, seed + i)
        except WorkerError as error:  # raised by new_game: the player cannot play at all
            return Failure(error.kind, _cut(error.message), i + 1, seed + i)
        except KeyboardInterrupt:
            raise Interrupted(i + 1, seed + i) from None
        tally.add(i, game.won, game.moves, game.guesses)
        if report is not None:
            report(i + 1, games)
    elapsed = time.perf_counter() - start
    return tally.result(label, (name, rows, cols, mines), first_click, None, seed, elapsed, elapsed)


def _cut(text: str, limit: int = 2 * REASON_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
