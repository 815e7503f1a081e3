"""Command line: ``python -m ipyminesweeper bench|tournament ...`` (also the ``ipyminesweeper`` script).

Examples::

    python -m ipyminesweeper bench --strategy exact --level expert --games 5000
    python -m ipyminesweeper bench --level intermediate --first-click safe --jobs 2
    python -m ipyminesweeper tournament --strategies simple scored exact --level beginner --games 2000

A user strategy can be named as ``module:function`` (the module must be importable).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..engine import FIRST_CLICK_POLICIES
from ..engine.escape import terminal_text
from ..strategies import STRATEGIES, Strategy
from .bench import SerialExecutor, benchmark
from .games import FirstMove
from .tournament import tournament


def _strategy(text: str) -> Strategy | str:
    if text in STRATEGIES:
        return text
    if ":" in text:
        module, _, attr = text.partition(":")
        try:
            fn = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise argparse.ArgumentTypeError(f"cannot load strategy {text!r}: {exc}") from None
        if not callable(fn):
            raise argparse.ArgumentTypeError(f"{text!r} is not callable")
        return fn  # type: ignore[no-any-return]
    raise argparse.ArgumentTypeError(
        f"unknown strategy {text!r}: use one of {', '.join(sorted(STRATEGIES))} or module:function"
    )


def _first_move(text: str) -> FirstMove:
    if text == "strategy":
        return "strategy"
    try:
        r, c = (int(x) for x in text.replace("(", "").replace(")", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--first-move takes ROW,COL or 'strategy', not {text!r}") from None
    return (r, c)


def compiled_modules() -> list[str]:
    """The modules of this ipyminesweeper that are compiled (by mypyc), by dotted name; none in the pure
    build (the default wheel, the offline site, an editable install)."""
    package = Path(__file__).resolve().parents[1]
    return sorted(
        ".".join(("ipyminesweeper", *path.relative_to(package).parts[:-1], path.name.partition(".")[0]))
        for path in package.rglob("*")
        if path.name.endswith(tuple(EXTENSION_SUFFIXES))
    )


def built_as() -> str:
    """``pure Python`` or ``compiled with mypyc (N modules)``: how this ipyminesweeper was built."""
    compiled = compiled_modules()
    return f"compiled with mypyc ({len(compiled)} modules)" if compiled else "pure Python"


def _version() -> str:
    try:
        number = version("ipyminesweeper")
    except PackageNotFoundError:  # a source tree on the path
        number = "(not installed)"
    return f"ipyminesweeper {number}, {built_as()}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ipyminesweeper", description="Benchmark Minesweeper strategies on seeded games."
    )
    parser.add_argument("--version", action="version", version=_version(), help="the version and the build")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--level",
            default="beginner",
            help="beginner, intermediate, expert or ROWSxCOLSxMINES (default beginner)",
        )
        p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
        p.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
        p.add_argument(
            "--first-click",
            default="opening",
            choices=FIRST_CLICK_POLICIES,
            help="board policy for the first click (default opening)",
        )
        p.add_argument(
            "--first-move",
            type=_first_move,
            default=None,
            help="ROW,COL of the first click, or 'strategy' (default: (2,2)/(3,3) for opening, "
            "the corner for safe)",
        )
        p.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
        p.add_argument("--no-progress", action="store_true", help="no progress bar")

    b = sub.add_parser("bench", help="benchmark one strategy")
    b.add_argument("--strategy", type=_strategy, default="exact", help="default exact")
    common(b)
    t = sub.add_parser("tournament", help="race several strategies on the same boards")
    t.add_argument(
        "--strategies",
        type=_strategy,
        nargs="+",
        default=["simple", "scored", "exact"],
        help="default: simple scored exact",
    )
    common(t)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    executor = SerialExecutor() if args.jobs == 1 else None
    try:
        common = {
            "games": args.games,
            "seed": args.seed,
            "first_click": args.first_click,
            "first_move": args.first_move,
            "executor": executor,
            "progress": not args.no_progress,
            "jobs": args.jobs,
        }
        if args.command == "bench":
            result = benchmark(args.strategy, args.level, **common)
            low, high = result.ci
            print(f"strategy     {terminal_text(result.strategy)}")
            print(f"board        {result.level} ({result.rows}x{result.cols}, {result.mines} mines)")
            print(f"first click  {result.first_click} at {result.first_move}")
            print(f"games        {result.games} (seeds {result.seed}..{result.seed + result.games - 1})")
            print(f"won          {result.wins} = {result.win_rate:.2%}")
            print(f"95% CI       {low:.2%} to {high:.2%} (Wilson)")
            print(
                f"speed        {result.games_per_second:.1f} games/s "
                f"({result.games_per_cpu_second:.1f} games/s per core)"
            )
            print(f"mean moves   {result.mean_moves:.1f}")
            print(f"mean guesses {result.mean_guesses:.2f}")
        else:
            table = tournament(args.strategies, args.level, **common)
            print(table.to_markdown())
    except (ValueError, TypeError) as exc:
        print(f"ipyminesweeper: error: {exc}", file=sys.stderr)
        return 2
    return 0
