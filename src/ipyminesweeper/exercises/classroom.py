"""A class tournament: a folder of strategy files, one command, a leaderboard.

Each student hands in one file, ``<name>.py``, that defines ``strategy(view) -> Move`` (the function of
notebook 03). The teacher collects the files in a folder and runs::

    python -m ipyminesweeper.exercises tournament strategies/ --games 200

Every strategy plays the same seeded boards (game ``i`` uses seed ``SEED + i``). A file that does not load,
has no ``strategy`` function, or whose strategy raises or makes an illegal move is not ranked: the
leaderboard says why, and on which game, so its author can fix it. The leaderboard is Markdown (ranked by
games won, with the 95% interval), and ``--chart FILE`` writes the Vega-Lite chart of notebook 03.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..arena import BenchResult, benchmark
from ..charts import win_rates
from ..engine import FIRST_CLICK_POLICIES
from ..play import STRATEGIES, Strategy

__all__ = ["Entry", "Leaderboard", "class_tournament", "load_strategies", "main"]


@dataclass(frozen=True)
class Entry:
    """One student's line: the result, or why there is none."""

    name: str
    result: BenchResult | None = None
    problem: str = ""


@dataclass(frozen=True)
class Leaderboard:
    """The entries, ranked: most games won first (ties by name), then the ones with a problem."""

    entries: tuple[Entry, ...]
    level: str
    games: int
    seed: int

    @property
    def ranked(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.result is not None)

    @property
    def problems(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.result is None)

    def to_markdown(self) -> str:
        lines = [
            f"Class tournament: {self.games} {self.level} games each, seeds {self.seed} to "
            f"{self.seed + self.games - 1}, the same boards for everyone.",
            "",
            "| rank | strategy | games won | win rate | 95% interval | guesses per game |",
            "|---:|---|---:|---:|---|---:|",
        ]
        for rank, entry in enumerate(self.ranked, 1):
            r = entry.result
            assert r is not None
            low, high = r.ci
            lines.append(
                f"| {rank} | {entry.name} | {r.wins} / {r.games} | {r.win_rate:.1%} | "
                f"{low:.1%} to {high:.1%} | {r.mean_guesses:.2f} |"
            )
        lines += ["", "A guess is a reveal whose Move does not say it is safe (probability 0.0)."]
        if self.problems:
            lines += ["", "Not ranked:", ""]
            lines += [f"- {entry.name}: {entry.problem}" for entry in self.problems]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"ipyminesweeper_class_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_strategies(folder: str | Path) -> dict[str, Strategy | str]:
    """``{name: strategy}`` for every ``*.py`` file of ``folder`` (sorted by name); a file that cannot
    be used maps to a sentence saying why (a ``str`` that is not a built-in strategy's name)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder: {folder} is not a folder of strategy files")
    found: dict[str, Strategy | str] = {}
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        try:
            module = _load(path)
        except Exception as exc:  # a student's file: anything may go wrong in it
            found[path.stem] = f"{path.name} does not load: {type(exc).__name__}: {exc}"
            continue
        strategy = getattr(module, "strategy", None)
        if not callable(strategy):
            found[path.stem] = f"{path.name} defines no function strategy(view){_named_otherwise(module)}"
        else:
            found[path.stem] = strategy
    return found


def _named_otherwise(module: ModuleType) -> str:
    """A hint when the file defines its function under another name (notebook 03's ``careful``)."""
    names = [
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")
    ]
    if not names:
        return ""
    return f"; it defines {', '.join(names)}: add `strategy = {names[-1]}` at its end"


def class_tournament(
    strategies: Mapping[str, Strategy | str],
    level: str = "beginner",
    games: int = 200,
    seed: int = 0,
    first_click: str = "opening",
) -> Leaderboard:
    """Play every strategy on the same boards, one after the other in this process; a strategy that
    fails is reported, not ranked. A value that is a built-in strategy's name plays that strategy."""
    entries = []
    for name, strategy in strategies.items():
        if isinstance(strategy, str) and strategy not in STRATEGIES:
            entries.append(Entry(name, problem=strategy))
            continue
        try:
            result = benchmark(strategy, level, games, seed, first_click, jobs=1)
        except Exception as exc:  # a student's strategy may raise anything; an illegal move too
            entries.append(
                Entry(name, problem=_first_failure(strategy, level, games, seed, first_click, exc))
            )
            continue
        entries.append(Entry(name, result))
    ranked = sorted(
        (e for e in entries if e.result is not None),
        key=lambda e: (-e.result.wins if e.result else 0, e.name),
    )
    return Leaderboard((*ranked, *(e for e in entries if e.result is None)), level, games, seed)


def _first_failure(
    strategy: Strategy | str, level: str, games: int, seed: int, first_click: str, error: Exception
) -> str:
    """Why a strategy is not ranked: its error, and the first game (its seed) that shows it, so its
    author can replay that game (``new_board(level, seed=...)``)."""
    for i in range(games):
        try:
            benchmark(strategy, level, 1, seed + i, first_click, jobs=1)
        except Exception as exc:  # the same student code as above, one game at a time
            return f"game {i + 1} (seed {seed + i}): {type(exc).__name__}: {exc}"
    return f"{type(error).__name__}: {error}"  # failed in the run, but on no game alone: say so as it was


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.exercises tournament FOLDER [--games N] [--level L] ...``."""
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.exercises",
        description="A class tournament: every strategy file of a folder on the same seeded boards.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("tournament", help="rank the strategy files of a folder")
    play.add_argument("folder", help="a folder of <name>.py files, each defining strategy(view)")
    play.add_argument("--games", type=int, default=200, help="games per strategy (default 200)")
    play.add_argument("--level", default="beginner", help="beginner, intermediate, expert (default beginner)")
    play.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    play.add_argument("--first-click", default="opening", choices=FIRST_CLICK_POLICIES)
    play.add_argument(
        "--with",
        dest="builtins",
        nargs="*",
        default=[],
        choices=sorted(STRATEGIES),
        help="built-in strategies to race too, as yardsticks (e.g. --with simple exact)",
    )
    play.add_argument("--chart", type=Path, help="also write the Vega-Lite chart (JSON) to this file")
    args = parser.parse_args(argv)
    try:
        strategies = load_strategies(args.folder)
    except ValueError as exc:
        parser.error(str(exc))
    strategies.update({f"({name})": name for name in args.builtins})
    if not strategies:
        parser.error(f"no strategy files (*.py) in {args.folder}")
    board = class_tournament(strategies, args.level, args.games, args.seed, args.first_click)
    print(board.to_markdown())
    if args.chart is not None and board.ranked:
        rows = [(e.name, e.result.wins, e.result.games, e.result.ci) for e in board.ranked if e.result]
        chart = win_rates(rows, f"{args.games} {args.level} games each")
        args.chart.write_text(json.dumps(dict(chart.spec), indent=1), encoding="utf-8")
        print(f"\nchart: {args.chart}", file=sys.stderr)
    return 0
