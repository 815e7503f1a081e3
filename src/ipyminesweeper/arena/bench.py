"""Benchmarks: play many seeded games with a strategy, in parallel, and report the win rate honestly.

Game ``i`` of a run with seed ``s`` is ``new_board(rows, cols, mines, seed=s + i, first_click=...)``,
so a run is reproducible and two strategies benchmarked with the same seed play the same boards (paired).
Games run through any :class:`concurrent.futures.Executor` (``executor=``); by default a process pool
over every core. Results do not depend on the executor or on how the games are chunked.
"""

from __future__ import annotations

import math
import os
import pickle
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from ..engine import new_board
from ..engine.escape import terminal_text
from ..engine.geometry import check_position
from ..strategies import BUILTINS, STRATEGIES, Strategy, resolve, strategy_name
from .games import FirstMove, Level, conventional_first_move, parse_level, play_game
from .progress import Progress, progress_reporter

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "BenchResult",
    "RunOptions",
    "RunTally",
    "SerialExecutor",
    "benchmark",
    "check_options",
    "executor_for",
    "wilson",
]

T = TypeVar("T")

Z95 = 1.959963984540054


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default): ``(low, high)``."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class BenchResult:
    """The outcome of :func:`benchmark`. ``win_rate`` with its 95% Wilson interval ``ci``."""

    strategy: str
    level: str
    rows: int
    cols: int
    mines: int
    first_click: str
    first_move: str
    seed: int
    games: int
    wins: int
    seconds: float
    cpu_seconds: float
    mean_moves: float
    mean_guesses: float
    outcomes: bytes = field(default=b"", repr=False, compare=False)
    """One byte per game, in seed order: 1 won, 0 lost (for paired comparisons)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time (all workers together)."""
        return self.games / self.seconds if self.seconds > 0 else math.inf

    @property
    def games_per_cpu_second(self) -> float:
        """Games per second of one worker's time (the speed on one core)."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else math.inf

    def as_dict(self) -> dict[str, Any]:
        low, high = self.ci
        return {
            "strategy": self.strategy,
            "level": self.level,
            "first_click": self.first_click,
            "first_move": self.first_move,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci_low": low,
            "ci_high": high,
            "games_per_second": self.games_per_second,
            "games_per_cpu_second": self.games_per_cpu_second,
            "mean_moves": self.mean_moves,
            "mean_guesses": self.mean_guesses,
            "seed": self.seed,
        }

    def __str__(self) -> str:
        low, high = self.ci
        return (
            f"{terminal_text(self.strategy)} on {self.level} ({self.rows}x{self.cols}, {self.mines} mines), "
            f"first click {self.first_click} at {self.first_move}: "
            f"won {self.wins}/{self.games} = {self.win_rate:.2%} "
            f"(95% CI {low:.2%} to {high:.2%}); {self.games_per_second:.1f} games/s "
            f"({self.games_per_cpu_second:.1f}/s per core); mean {self.mean_moves:.1f} moves, "
            f"{self.mean_guesses:.2f} guesses; seeds {self.seed}..{self.seed + self.games - 1}"
        )


@dataclass
class RunTally:
    """The games of a run as they end, in any order: one byte per game in seed order (1 won, 0 lost),
    and the moves and guesses of them all. :meth:`result` makes the run's :class:`BenchResult`."""

    games: int
    outcomes: bytearray = field(init=False, repr=False)
    moves: int = 0
    guesses: int = 0
    done: int = 0

    def __post_init__(self) -> None:
        self.outcomes = bytearray(self.games)

    def add(self, game: int, won: bool, moves: int, guesses: int) -> None:
        """Game ``game`` of the run (from 0) ended, ``won`` or not, after ``moves`` moves and ``guesses``."""
        self.outcomes[game] = 1 if won else 0
        self.moves += moves
        self.guesses += guesses
        self.done += 1

    def result(
        self,
        label: str,
        level: tuple[str, int, int, int],
        first_click: str,
        first_move: FirstMove,
        seed: int,
        seconds: float,
        cpu_seconds: float,
    ) -> BenchResult:
        """The run's result: ``level`` as :func:`~.games.parse_level` gives it, ``first_move`` None for
        the conventional cell, ``seconds`` of wall-clock time and ``cpu_seconds`` of the workers' time."""
        _, rows, cols, _ = level
        move = conventional_first_move(rows, cols, first_click) if first_move is None else first_move
        return BenchResult(
            label,
            *level,  # its name, rows, cols and mines: the fields after the strategy
            first_click=first_click,
            first_move=str(move).replace(" ", ""),
            seed=seed,
            games=self.games,
            wins=sum(self.outcomes),
            seconds=seconds,
            cpu_seconds=cpu_seconds,
            mean_moves=self.moves / self.games,
            mean_guesses=self.guesses / self.games,
            outcomes=bytes(self.outcomes),
        )


class SerialExecutor(Executor):
    """An executor that runs each task at once in the calling thread (no parallelism, no pickling)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller via the future
            future.set_exception(exc)
        return future


ChunkResult = tuple[list[tuple[bool, int, int]], float]
"""What :func:`_run_chunk` gives: each game's (won, moves, guesses), and the time taken."""


def _run_chunk(
    strategy: Strategy | str,
    level: tuple[int, int, int],
    seeds: tuple[int, int],
    first_click: str,
    first_move: FirstMove,
) -> ChunkResult:
    """Games ``seeds[0]`` to ``seeds[1] - 1``: their (won, moves, guesses) and the time taken."""
    start = time.process_time()
    out = []
    for seed in range(*seeds):
        g = play_game(strategy, level, seed, first_click, first_move)
        out.append((g.won, g.moves, g.guesses))
    return out, time.process_time() - start


def _portable(strategy: Strategy | str, executor: Executor) -> Strategy | str:
    """What to send to workers: a built-in by name, anything else as itself.

    A ``ProcessPoolExecutor`` sends it with plain pickle, by reference, so it is checked here for a
    clear error. Other executors send it their own way (a thread pool not at all; dask.distributed,
    Ray and loky with cloudpickle, by value, so a function of a notebook cell travels) and report
    their own errors."""
    name = strategy_name(strategy)
    if isinstance(strategy, str) or (name in BUILTINS and STRATEGIES[name] is strategy):
        resolve(name)
        return name
    if _plain_pickle_pool(executor):
        try:
            pickle.dumps(strategy)
        except Exception as exc:
            raise TypeError(
                f"strategy {name!r} cannot be sent to worker processes ({exc}); define it at the "
                "top level of a module, pass executor=SerialExecutor() (or jobs=1), or use an executor "
                "that sends functions by value, such as dask.distributed's client.get_executor()"
            ) from None
    return strategy


def _plain_pickle_pool(executor: Executor) -> bool:
    """Whether ``executor`` is a standard-library process pool (looked up without importing it)."""
    process = sys.modules.get("concurrent.futures.process")
    return process is not None and isinstance(executor, process.ProcessPoolExecutor)


def executor_for(games: int, jobs: int | None) -> Executor | None:
    """A process pool for ``games`` games over ``jobs`` workers (None: every core), or None where one is
    pointless or impossible (one worker, fewer than 4 games, Pyodide/JupyterLite, which has no
    processes): the games then run in this process. The caller shuts it down."""
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or games < 4 or sys.platform == "emscripten":
        return None
    try:
        from concurrent.futures import (
            ProcessPoolExecutor,  # not imported until needed: it loads multiprocessing
        )

        return ProcessPoolExecutor(max_workers=workers)
    except (NotImplementedError, OSError, ImportError):  # pragma: no cover - platform dependent
        return None


def _chunks(seed: int, games: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(100, math.ceil(games / (8 * max(1, workers)))))
    return [(s, min(s + size, seed + games)) for s in range(seed, seed + games, size)]


class RunOptions(TypedDict, total=False):
    """How the games of a run are played, besides which games they are: the keywords that
    :func:`benchmark` and :func:`~.tournament.tournament` take alike (see :func:`benchmark`)."""

    first_move: FirstMove
    executor: Executor | None
    progress: Progress
    jobs: int | None


def check_options(options: Mapping[str, object], call: str) -> None:
    """A TypeError for a keyword that is not one of :class:`RunOptions`, as Python's own for ``call``."""
    unknown = sorted(set(options) - RunOptions.__optional_keys__)
    if unknown:
        raise TypeError(f"{call} got an unexpected keyword argument {unknown[0]!r}")


def _checked_level(
    level_or_size: Level, games: int, seed: int, first_click: str, first_move: FirstMove
) -> tuple[str, int, int, int]:
    """The level of a run, once its arguments are checked: ``(name, rows, cols, mines)``."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    name, rows, cols, mines = parse_level(level_or_size)
    new_board(rows, cols, mines, seed=0, first_click=first_click)  # validates size/mines/policy
    if first_move is not None and first_move != "strategy":
        check_position(rows, cols, first_move)
    return name, rows, cols, mines


def _play_chunks(
    executor: Executor,
    play_chunk: Callable[[tuple[int, int]], ChunkResult],
    chunks: list[tuple[int, int]],
    tally: RunTally,
    report: Callable[[int, int], None] | None,
) -> float:
    """Play the ``chunks`` of seeds on ``executor``, adding their games to ``tally`` as they come back
    (the run starts at the first chunk's seed); the time the workers took, in all."""
    first = chunks[0][0]
    futures = {executor.submit(play_chunk, chunk): chunk for chunk in chunks}
    cpu = 0.0
    for future in as_completed(futures):
        lo, _ = futures[future]
        results, seconds = future.result()
        cpu += seconds
        for k, (won, moves, guesses) in enumerate(results):
            tally.add(lo - first + k, won, moves, guesses)
        if report is not None:
            report(tally.done, tally.games)
    return cpu


def benchmark(
    strategy: Strategy | str = "exact",
    level_or_size: Level = "beginner",
    games: int = 1000,
    seed: int = 0,
    first_click: str = "opening",
    *,
    label: str | None = None,
    **options: Unpack[RunOptions],
) -> BenchResult:
    """Play ``games`` seeded games (game ``i`` uses seed ``seed + i``) and measure the strategy.

    ``level_or_size``: ``"beginner"``, ``"intermediate"``, ``"expert"``, ``"ROWSxCOLSxMINES"`` or a
    ``(rows, cols, mines)`` tuple. ``first_click``: the board's policy (``"opening"``, ``"safe"``,
    ``"any"``, ``"no-guess"``). ``label`` names the result and the bar (default: the strategy's name).

    The keywords that say how the games are played (:class:`RunOptions`, which a tournament takes too):
    ``first_move``: ``None`` for the conventional cell (:func:`conventional_first_move`), a position, or
    ``"strategy"``. ``executor``: any ``concurrent.futures.Executor`` (not shut down here), such as
    dask.distributed's ``client.get_executor()`` for a cluster; by default a ``ProcessPoolExecutor``
    with ``jobs`` workers (all cores). ``jobs=1`` runs in this process. With an executor of your own,
    ``jobs`` only sizes the tasks (about eight per worker, at most 100 games each). A process pool needs
    a user strategy that plain pickle can send (importable); dask.distributed sends one from a notebook
    cell by value. ``progress``: ``True`` for a progress bar (stderr, or a widget in Jupyter), or a
    callable ``(done, total)``.
    """
    check_options(options, "benchmark()")
    first_move, given, jobs = options.get("first_move"), options.get("executor"), options.get("jobs")
    level = _checked_level(level_or_size, games, seed, first_click, first_move)
    label = strategy_name(strategy) if label is None else label
    own = executor_for(games, jobs) if given is None else None
    executor = given or own or SerialExecutor()
    workers = jobs if jobs is not None else (os.cpu_count() or 1)  # sizes the chunks
    payload = _portable(strategy, executor)
    play_chunk = partial(_run_chunk, payload, level[1:], first_click=first_click, first_move=first_move)
    report = progress_reporter(options.get("progress", False), games, f"{label} {level[0]}")
    tally = RunTally(games)
    start = time.perf_counter()
    try:
        cpu = _play_chunks(executor, play_chunk, _chunks(seed, games, workers), tally, report)
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    return tally.result(label, level, first_click, first_move, seed, time.perf_counter() - start, cpu)
