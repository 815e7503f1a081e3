"""A class tournament: a folder of strategy files, one command, a leaderboard no file can break.

Each student hands in one file, ``<name>.py``, that defines ``strategy(view) -> Move`` (the function of
notebook 03). The teacher collects the files in a folder and runs::

    python -m ipyminesweeper.classroom tournament strategies/ --games 200 --with simple exact

Every strategy plays the same seeded boards (game ``i`` uses seed ``SEED + i``). Each file runs in a
process of its own, started fresh in an empty folder with a copy of the file, under limits
(:mod:`ipyminesweeper.arena.entry`): the referee, this process, holds the boards, sends the strategy
views only and plays the moves it gets back. A file that does not load, has no ``strategy``, raises
(even ``SystemExit``), makes an illegal move, hangs, crashes or answers too much is not ranked: the
leaderboard says why, and on which game (its seed), so its author can replay it. Guesses are counted
from the exact probabilities, not from what a strategy says. Ctrl+C stops the run and shows the
leaderboard so far. Every name and message is shown as text, never as Markdown or HTML.

On Linux a file can use its own folder and Python's, and no other file (where Landlock is enabled); on
macOS and Windows it keeps the process, the folder and the time limits, with fewer other limits
(the sandbox module says which). ``sandbox=False`` plays everything in this process: trusted code only.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..arena import BenchResult, parse_level
from ..arena.entry import Limits, Sandboxed, missing_strategy
from ..arena.progress import Progress
from ..arena.referee import Failure, InProcess, Interrupted, Player, referee
from ..arena.sandbox import WorkerError
from ..arena.worker import defined_functions
from ..charts import win_rates
from ..engine import FIRST_CLICK_POLICIES
from ..engine.escape import html_text, markdown_text
from ..strategies import BUILTINS, STRATEGIES, Strategy

__all__ = [
    "Entry",
    "Leaderboard",
    "Limits",
    "class_tournament",
    "entries",
    "load_strategies",
    "main",
    "strategy_in",
]

Source = Strategy | str | Path
"""An entry: a strategy file (a Path), a built-in's name, a function (trusted: played in this
process), or any other str: the sentence saying why there is no strategy."""

GUESS_NOTE = (
    "A guess is a reveal (or a chord) of a cell that may be a mine by the exact probabilities, "
    "whatever the move says."
)


@dataclass(frozen=True)
class Entry:
    """One student's line: the result, or why there is none (``problem``, and its ``kind``: see
    :class:`~ipyminesweeper.arena.sandbox.WorkerError`, or ``illegal``, ``interrupted``, ``not played``)."""

    name: str
    result: BenchResult | None = None
    problem: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Leaderboard:
    """The entries, ranked: most games won first (ties by name), then the ones with a problem.
    ``sandbox``: the limits each entry's process ran under (empty: played in this process)."""

    entries: tuple[Entry, ...]
    level: str
    games: int
    seed: int
    sandbox: tuple[str, ...] = ()
    interrupted: bool = False

    @property
    def ranked(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.result is not None)

    @property
    def problems(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.result is None)

    def _title(self) -> str:
        stopped = (
            "Stopped by Ctrl+C: the entries that had finished, then the rest. " if self.interrupted else ""
        )
        return (
            f"{stopped}Class tournament: {self.games} {self.level} games each, seeds {self.seed} to "
            f"{self.seed + self.games - 1}, the same boards for everyone."
        )

    def _where(self) -> str:
        if not self.sandbox:
            return "Every entry played in this process."
        return f"Each entry played in a process of its own: {', '.join(self.sandbox)}."

    def _rows(self) -> list[tuple[str, ...]]:
        rows: list[tuple[str, ...]] = []
        for rank, entry in enumerate(self.ranked, 1):
            r = entry.result
            assert r is not None
            low, high = r.ci
            won, interval = f"{r.wins} / {r.games}", f"{low:.1%} to {high:.1%}"
            rows.append((str(rank), entry.name, won, f"{r.win_rate:.1%}", interval, f"{r.mean_guesses:.2f}"))
        return rows

    def to_markdown(self) -> str:
        """The leaderboard as Markdown; every name and message escaped (:func:`markdown_text`)."""
        lines = [
            self._title(),
            "",
            "| rank | strategy | games won | win rate | 95% interval | guesses per game |",
            "|---:|---|---:|---:|---|---:|",
        ]
        for rank, name, *numbers in self._rows():
            lines.append(f"| {rank} | {markdown_text(name)} | {' | '.join(numbers)} |")
        lines += ["", GUESS_NOTE]
        if self.problems:
            lines += ["", "Not ranked:", "", "| strategy | why |", "|---|---|"]
            lines += [f"| {markdown_text(e.name)} | {markdown_text(e.problem)} |" for e in self.problems]
        return "\n".join([*lines, "", self._where()])

    def to_html(self) -> str:
        """The leaderboard as an HTML fragment; every name and message escaped (:func:`html_text`)."""
        head = ("rank", "strategy", "games won", "win rate", "95% interval", "guesses per game")
        parts = [
            f"<p>{html_text(self._title())}</p>",
            _html_table(head, self._rows()),
            f"<p>{GUESS_NOTE}</p>",
        ]
        if self.problems:
            rows = [(e.name, e.problem) for e in self.problems]
            parts += ["<p>Not ranked:</p>", _html_table(("strategy", "why"), rows)]
        return "\n".join([*parts, f"<p>{html_text(self._where())}</p>"])

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = ["<tr>" + "".join(f"<th>{html_text(h)}</th>" for h in head) + "</tr>"]
    cells += ["<tr>" + "".join(f"<td>{html_text(c)}</td>" for c in row) + "</tr>" for row in rows]
    return "<table>" + "".join(cells) + "</table>"


def entries(folder: str | Path) -> dict[str, Path]:
    """``{name: file}`` for every ``<name>.py`` of ``folder``, sorted by name, unread (a file whose name
    starts with ``_`` is a helper, not an entry)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder: {folder} is not a folder of strategy files")
    return {path.stem: path for path in sorted(folder.glob("*.py")) if not path.name.startswith("_")}


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"ipyminesweeper_class_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def strategy_in(path: Path) -> Strategy | str:
    """The ``strategy`` of the file ``path``, imported into **this** process, or a sentence saying why
    there is none. For a file you trust: it can do anything here."""
    try:
        module = _load(path)
    except Exception as exc:  # a student's file: anything may go wrong in it
        return f"{path.name} does not load: {type(exc).__name__}: {exc}"
    strategy = getattr(module, "strategy", None)
    return strategy if callable(strategy) else missing_strategy(path.name, defined_functions(module))


def load_strategies(folder: str | Path) -> dict[str, Strategy | str]:
    """``{name: strategy}`` for every ``*.py`` file of ``folder``, imported into **this** process; a file
    that cannot be used maps to a sentence saying why. For files you trust: a file can do anything
    here (end the run, hang it, read the boards). :func:`class_tournament` with the folder itself runs
    each file in a process of its own instead."""
    return {name: strategy_in(path) for name, path in entries(folder).items()}


def _player(source: Source, sandbox: bool, limits: Limits, games: int, folder: Path | None) -> Player:
    """How ``source`` plays: in a worker process (a file or a built-in, with ``sandbox``), or here."""
    if isinstance(source, Path):
        if sandbox:
            return Sandboxed(source, limits, games, keep_out=folder)
        loaded = strategy_in(source)
        if isinstance(loaded, str):
            raise WorkerError("load", loaded)
        return InProcess(loaded)
    if isinstance(source, str) and source in BUILTINS and sandbox:
        return Sandboxed(source, limits, games)
    return InProcess(source)  # a function, or a strategy you registered: your own code, played here


def _entry(name: str, outcome: BenchResult | Failure) -> Entry:
    if isinstance(outcome, Failure):
        return Entry(name, problem=str(outcome), kind=outcome.kind)
    return Entry(name, outcome)


@dataclass(frozen=True)
class _Run:
    """What every entry of one tournament plays under."""

    level: str
    games: int
    seed: int
    first_click: str
    limits: Limits
    sandbox: bool
    progress: Progress
    folder: Path | None


def _play(name: str, source: Source, run: _Run) -> tuple[Entry, list[str]]:
    """One entry's line, and the limits its process reported (none in this process)."""
    if isinstance(source, str) and source not in STRATEGIES:
        return _entry(name, Failure("load", source)), []
    player: Player | None = None
    try:
        player = _player(source, run.sandbox, run.limits, run.games, run.folder)
        if isinstance(player, Sandboxed):
            player.start()
        outcome = referee(
            player, run.level, run.games, run.seed, run.first_click, label=name, progress=run.progress
        )
    except WorkerError as error:
        outcome = Failure(error.kind, error.message)
    finally:
        if isinstance(player, Sandboxed):
            player.close()
    return _entry(name, outcome), player.held if isinstance(player, Sandboxed) else []


def _check(level: str, games: int, first_click: str) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, not {games!r}")
    parse_level(level)
    if first_click not in FIRST_CLICK_POLICIES:
        raise ValueError(f"first_click is one of {', '.join(FIRST_CLICK_POLICIES)}, not {first_click!r}")


def class_tournament(
    strategies: str | Path | Mapping[str, Source],
    level: str = "beginner",
    games: int = 200,
    seed: int = 0,
    first_click: str = "opening",
    *,
    limits: Limits | None = None,
    sandbox: bool = True,
    progress: Progress = False,
) -> Leaderboard:
    """Play every entry on the same boards, one after the other, and rank them.

    ``strategies``: a folder of strategy files, or ``{name: source}`` where a source is a file (a Path),
    a built-in's name, a function of yours (played in this process), or a sentence saying why the
    entry has no strategy (what :func:`load_strategies` gives for a broken file). Files and built-ins
    run each in a process of its own, under ``limits`` (:class:`Limits`); ``sandbox=False`` plays them
    all in this process instead (trusted code only: the benchmark's reference). ``progress``: a bar per
    entry (True), or a callable ``(done, total)``. Ctrl+C (the notebook's stop button) ends the run and
    returns the leaderboard so far, the entry it stopped marked ``interrupted``.
    """
    _check(level, games, first_click)
    if sandbox and sys.platform == "emscripten":
        raise ValueError("the class tournament runs each file in a process, which JupyterLite cannot start")
    folder = Path(strategies) if isinstance(strategies, (str, Path)) else None
    sources = dict(entries(folder)) if folder is not None else dict(strategies)  # type: ignore[arg-type]
    run = _Run(level, games, seed, first_click, limits or Limits(), sandbox, progress, folder)
    done: list[Entry] = []
    held: list[str] = []
    names = list(sources)
    try:
        for name in names:
            entry, facts = _play(name, sources[name], run)
            done.append(entry)
            held = held or facts
    except KeyboardInterrupt as stop:
        where = (
            f"during game {stop.game} (seed {stop.seed})" if isinstance(stop, Interrupted) else "as it loaded"
        )
        done.append(Entry(names[len(done)], problem=f"interrupted by Ctrl+C {where}", kind="interrupted"))
        rest = names[len(done) :]
        done += [Entry(n, problem="not played: the run was stopped", kind="not played") for n in rest]
    ranked = sorted((e for e in done if e.result is not None), key=lambda e: (-_wins(e), e.name))
    unranked = tuple(e for e in done if e.result is None)
    stopped = any(e.kind == "interrupted" for e in unranked)
    return Leaderboard((*ranked, *unranked), level, games, seed, tuple(held), stopped)


def _wins(entry: Entry) -> int:
    return entry.result.wins if entry.result is not None else -1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.classroom",
        description="A class tournament: every strategy file of a folder on the same seeded boards, "
        "each in a process of its own.",
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
    default = Limits()
    limits = play.add_argument_group("limits of each entry (the referee's clock)")
    limits.add_argument("--move-seconds", type=float, default=default.move_seconds, help="to answer one view")
    limits.add_argument(
        "--game-seconds", type=float, default=default.game_seconds, help="for one game's moves"
    )
    limits.add_argument("--start-seconds", type=float, default=default.start_seconds, help="to load the file")
    limits.add_argument("--memory-mb", type=int, default=default.memory_mb, help="memory of its process, MiB")
    limits.add_argument("--answer-bytes", type=int, default=default.answer_bytes, help="size of one answer")
    play.add_argument("--chart", type=Path, help="also write the Vega-Lite chart (JSON) to this file")
    play.add_argument("--html", type=Path, help="also write the leaderboard as HTML to this file")
    play.add_argument("--no-progress", action="store_true", help="no progress bar (stderr)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.classroom tournament FOLDER [--games N] [--level L] ...``: prints the
    leaderboard; 130 if Ctrl+C stopped it (the leaderboard so far is printed)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        limits = Limits(
            args.move_seconds, args.game_seconds, args.start_seconds, args.memory_mb, args.answer_bytes
        )
        sources: dict[str, Source] = dict(entries(args.folder))
    except ValueError as exc:
        parser.error(str(exc))
    sources.update({f"({name})": name for name in args.builtins})
    if not sources:
        parser.error(f"no strategy files (*.py) in {args.folder}")
    board = class_tournament(
        sources,
        args.level,
        args.games,
        args.seed,
        args.first_click,
        limits=limits,
        progress=not args.no_progress,
    )
    print(board.to_markdown())
    if args.html is not None:
        args.html.write_text(board.to_html(), encoding="utf-8")
    if args.chart is not None and board.ranked:
        rows = [(e.name, e.result.wins, e.result.games, e.result.ci) for e in board.ranked if e.result]
        chart = win_rates(rows, f"{args.games} {args.level} games each")
        args.chart.write_text(json.dumps(dict(chart.spec), indent=1), encoding="utf-8")
        print(f"\nchart: {args.chart}", file=sys.stderr)
    return 130 if board.interrupted else 0
