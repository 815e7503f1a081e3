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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from ..engine import LEVELS, Board, Position, new_board, reveal
from ..engine.geometry import check_position
from .exact import opening_cell
from .move import InvalidMoveError, Move, Strategy, apply_move, validate_move
from .progress import Progress, progress_reporter
from .registry import BUILTINS, STRATEGIES, resolve, strategy_name

__all__ = [
    "BenchResult",
    "GameResult",
    "InvalidMoveError",
    "SerialExecutor",
    "Table",
    "benchmark",
    "conventional_first_move",
    "parse_level",
    "play_game",
    "tournament",
    "wilson",
]

Level = str | tuple[int, int, int]
FirstMove = Position | Literal["strategy"] | None
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


def parse_level(level: Level) -> tuple[str, int, int, int]:
    """``"expert"``, ``"16x30x99"``, ``"16x30/99"`` or ``(rows, cols, mines)``.

    Returns ``(name, rows, cols, mines)``."""
    if isinstance(level, str):
        if level in LEVELS:
            rows, cols, mines = LEVELS[level]
            return level, rows, cols, mines
        parts = level.replace("/", "x").split("x")
        if len(parts) == 3 and all(p.strip().isdigit() for p in parts):
            rows, cols, mines = (int(p) for p in parts)
            return f"{rows}x{cols}/{mines}", rows, cols, mines
        raise ValueError(f"unknown level {level!r}: use {', '.join(LEVELS)} or ROWSxCOLSxMINES")
    if (
        isinstance(level, tuple)
        and len(level) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) for x in level)
    ):
        rows, cols, mines = level
        return f"{rows}x{cols}/{mines}", rows, cols, mines
    raise TypeError(f"a level is a name or a (rows, cols, mines) tuple, not {level!r}")


def conventional_first_move(rows: int, cols: int, first_click: str) -> Position:
    """The first click the published win rates use: :func:`~ipyminesweeper.strategies.opening_cell`
    when the first click opens a region (``"opening"``, ``"no-guess"``), the corner ``(0, 0)`` when it
    is only safe (``"safe"``, ``"any"``)."""
    if first_click in ("opening", "no-guess"):
        return opening_cell(rows, cols)
    return (0, 0)


@dataclass(frozen=True)
class GameResult:
    """One game: won or not, how many moves the strategy made, how many were guesses."""

    seed: int
    won: bool
    moves: int
    guesses: int


def play_game(
    strategy: Strategy | str,
    level: Level,
    seed: int,
    first_click: str = "opening",
    first_move: FirstMove = None,
    max_moves: int | None = None,
) -> GameResult:
    """Play one seeded game to the end.

    ``first_move``: ``None`` plays :func:`conventional_first_move`, a position plays that cell, and
    ``"strategy"`` lets the strategy choose. The first click is not counted as a guess unless
    ``first_click="any"`` (where it can lose). A strategy that has not finished after ``max_moves``
    moves (default: four per cell) loses.
    """
    _, rows, cols, mines = parse_level(level)
    board = new_board(rows, cols, mines, seed=seed, first_click=first_click)
    limit = 4 * rows * cols if max_moves is None else max_moves
    fn = resolve(strategy)
    name = strategy_name(strategy)
    moves = guesses = 0
    if first_move != "strategy":
        pos = conventional_first_move(rows, cols, first_click) if first_move is None else first_move
        board = reveal(board, pos)
        moves = 1
        guesses = 1 if first_click == "any" else 0
    while not board.over and moves < limit:
        ready = board.status == "ready"
        board, move = _step(board, fn, name)
        moves += 1
        if move.is_guess and not (ready and first_click != "any"):
            guesses += 1
    return GameResult(seed, board.status == "won", moves, guesses)


def _step(board: Board, fn: Strategy, name: str) -> tuple[Board, Move]:
    move = validate_move(board, fn(board.view), f"strategy {name!r}")
    return apply_move(board, move), move


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
            f"{self.strategy} on {self.level} ({self.rows}x{self.cols}, {self.mines} mines), "
            f"first click {self.first_click} at {self.first_move}: "
            f"won {self.wins}/{self.games} = {self.win_rate:.2%} "
            f"(95% CI {low:.2%} to {high:.2%}); {self.games_per_second:.1f} games/s "
            f"({self.games_per_cpu_second:.1f}/s per core); mean {self.mean_moves:.1f} moves, "
            f"{self.mean_guesses:.2f} guesses; seeds {self.seed}..{self.seed + self.games - 1}"
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


def _run_chunk(
    strategy: Strategy | str,
    level: tuple[int, int, int],
    seeds: tuple[int, int],
    first_click: str,
    first_move: FirstMove,
) -> tuple[list[tuple[bool, int, int]], float]:
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


def _default_executor(workers: int) -> Executor | None:
    """A process pool of ``workers``, or None where one is pointless or impossible (one worker;
    Pyodide/JupyterLite, which has no processes): the games then run in this process."""
    if workers <= 1 or sys.platform == "emscripten":
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


def benchmark(
    strategy: Strategy | str = "exact",
    level_or_size: Level = "beginner",
    games: int = 1000,
    seed: int = 0,
    first_click: str = "opening",
    first_move: FirstMove = None,
    executor: Executor | None = None,
    progress: Progress = False,
    jobs: int | None = None,
) -> BenchResult:
    """Play ``games`` seeded games (game ``i`` uses seed ``seed + i``) and measure the strategy.

    ``level_or_size``: ``"beginner"``, ``"intermediate"``, ``"expert"``, ``"ROWSxCOLSxMINES"`` or a
    ``(rows, cols, mines)`` tuple. ``first_click``: the board's policy (``"opening"``, ``"safe"``,
    ``"any"``, ``"no-guess"``). ``first_move``: ``None`` for the conventional cell
    (:func:`conventional_first_move`), a position, or ``"strategy"``.

    ``executor``: any ``concurrent.futures.Executor`` (not shut down here), such as dask.distributed's
    ``client.get_executor()`` for a cluster; by default a ``ProcessPoolExecutor`` with ``jobs`` workers
    (all cores). ``jobs=1`` runs in this process. With an executor of your own, ``jobs`` only sizes the
    tasks (about eight per worker, at most 100 games each). A process pool needs a user strategy that
    plain pickle can send (importable); dask.distributed sends one from a notebook cell by value.
    ``progress``: ``True`` for a progress bar (stderr, or a widget in Jupyter), or a callable
    ``(done, total)``.
    """
    return _benchmark(
        strategy, level_or_size, games, seed, first_click, first_move, executor, progress, jobs, None
    )


def _benchmark(
    strategy: Strategy | str,
    level_or_size: Level,
    games: int,
    seed: int,
    first_click: str,
    first_move: FirstMove,
    executor: Executor | None,
    progress: Progress,
    jobs: int | None,
    label: str | None,
) -> BenchResult:
    """:func:`benchmark`, with ``label`` (default: the strategy's name) naming the row and the bar."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    name, rows, cols, mines = parse_level(level_or_size)
    new_board(rows, cols, mines, seed=0, first_click=first_click)  # validates size/mines/policy
    if first_move is not None and first_move != "strategy":
        check_position(rows, cols, first_move)
    label = strategy_name(strategy) if label is None else label
    fm = (
        str(conventional_first_move(rows, cols, first_click)).replace(" ", "")
        if first_move is None
        else str(first_move).replace(" ", "")
    )
    own = None
    if executor is None:
        workers = jobs if jobs is not None else (os.cpu_count() or 1)
        own = _default_executor(workers if games >= 4 else 1)
        executor = own or SerialExecutor()
    else:
        workers = jobs if jobs is not None else (os.cpu_count() or 1)  # only sizes the chunks
    payload = _portable(strategy, executor)
    report = progress_reporter(progress, games, f"{label} {name}")
    start = time.perf_counter()
    outcomes = bytearray(games)
    total_moves = total_guesses = done = 0
    cpu = 0.0
    try:
        futures = {
            executor.submit(_run_chunk, payload, (rows, cols, mines), ch, first_click, first_move): ch
            for ch in _chunks(seed, games, workers)
        }
        for future in as_completed(futures):
            lo, _ = futures[future]
            results, seconds = future.result()
            cpu += seconds
            for k, (won, moves, guesses) in enumerate(results):
                outcomes[lo - seed + k] = 1 if won else 0
                total_moves += moves
                total_guesses += guesses
            done += len(results)
            if report is not None:
                report(done, games)
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    elapsed = time.perf_counter() - start
    return BenchResult(
        strategy=label,
        level=name,
        rows=rows,
        cols=cols,
        mines=mines,
        first_click=first_click,
        first_move=fm,
        seed=seed,
        games=games,
        wins=sum(outcomes),
        seconds=elapsed,
        cpu_seconds=cpu,
        mean_moves=total_moves / games,
        mean_guesses=total_guesses / games,
        outcomes=bytes(outcomes),
    )


@dataclass(frozen=True)
class Table:
    """The results of a :func:`tournament`: one row per strategy, on the same boards."""

    results: tuple[BenchResult, ...]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One dict per strategy (ready for ``pandas.DataFrame(table.rows)`` or a plot)."""
        return [r.as_dict() for r in self.results]

    def __iter__(self) -> Iterator[BenchResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def head_to_head(self, a: str, b: str) -> tuple[int, int]:
        """Paired comparison: (boards ``a`` won and ``b`` lost, boards ``b`` won and ``a`` lost)."""
        ra = next(r for r in self.results if r.strategy == a)
        rb = next(r for r in self.results if r.strategy == b)
        only_a = sum(1 for x, y in zip(ra.outcomes, rb.outcomes, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(ra.outcomes, rb.outcomes, strict=True) if y and not x)
        return only_a, only_b

    def to_markdown(self) -> str:
        lines = [
            "| strategy | level | first click | games | win rate | 95% CI | games/s | moves | guesses |",
            "|---|---|---|---:|---:|---|---:|---:|---:|",
        ]
        for r in self.results:
            low, high = r.ci
            lines.append(
                f"| {r.strategy} | {r.level} | {r.first_click} {r.first_move} | {r.games} | "
                f"{r.win_rate:.2%} | {low:.2%} to {high:.2%} | {r.games_per_second:.1f} | "
                f"{r.mean_moves:.1f} | {r.mean_guesses:.2f} |"
            )
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


def tournament(
    strategies: Mapping[str, Strategy | str] | Sequence[Strategy | str] | Iterable[Strategy | str],
    level: Level = "beginner",
    games: int = 1000,
    seed: int = 0,
    first_click: str = "opening",
    first_move: FirstMove = None,
    executor: Executor | None = None,
    progress: Progress = False,
    jobs: int | None = None,
) -> Table:
    """Race strategies on the same boards (same seeds): a :class:`Table` with a row per strategy.

    ``strategies``: names, callables, or a dict ``{label: strategy}``.
    """
    if isinstance(strategies, Mapping):
        entries = list(strategies.items())
    else:
        entries = [(strategy_name(s), s) for s in strategies]
    if not entries:
        raise ValueError("a tournament needs at least one strategy")
    own = None
    if executor is None:
        workers = jobs if jobs is not None else (os.cpu_count() or 1)
        executor = own = _default_executor(workers if games >= 4 else 1)
    try:
        results = [
            _benchmark(strat, level, games, seed, first_click, first_move, executor, progress, jobs, label)
            for label, strat in entries
        ]
    finally:
        if own is not None:
            own.shutdown()
    return Table(tuple(results))
