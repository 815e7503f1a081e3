"""Play seeded games with the built-in strategies, record every move, and compare records.

    python scripts/dump_moves.py --golden                    # regenerate tests/golden/moves.jsonl.xz
    python scripts/dump_moves.py --check [FILE]              # replay FILE (default: the golden file)
    python scripts/dump_moves.py OUT.jsonl.gz [--seeds N]    # N seeds per level, rule and start
    python scripts/dump_moves.py A.jsonl.gz --compare B.jsonl.gz

This module is the one place that plays seeded games and records their moves: the golden-moves test
(``tests/golden/test_golden_moves.py``) replays the golden file with it, and ``--compare`` compares two
dumps made on two commits (``PYTHONPATH=<other checkout>/src``).

The games: each strategy (``simple``, ``scored``, ``exact``) on beginner, intermediate and expert, with the
``"safe"`` and the ``"opening"`` first-click rule, from both starts (the strategy chooses the first click,
or the first click is given: ``(seed % rows, seed * 7 % cols)``), on seeds 70000, 70001, ...
Each line of a dump is one game: what it is (strategy, level and size, rule, seed, given first click),
every move as ``[action, [row, col], reason, probability, score, numbers, constrained]`` and the final
status. A file that already holds the same games is not written again.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import lzma
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import ipyminesweeper as ms
from ipyminesweeper.engine import format_position

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "moves.jsonl.xz"
GOLDEN_SEEDS = 25
"""Seeds per strategy, level, rule and start in the golden file: 3 x 2 x 2 x 25 = 300 games a strategy."""
REGENERATE = "make golden"
FIRST_SEED = 70_000
LEVELS = (("beginner", 9, 9, 10), ("intermediate", 16, 16, 40), ("expert", 16, 30, 99))
STRATEGIES = ("simple", "scored", "exact")
RULES = ("safe", "opening")

Record = dict[str, Any]
"""One game as a line of a dump: the JSON object :func:`play` returns."""


class Game(NamedTuple):
    """One seeded game: who plays, on what board, and the given first click (``None``: the strategy's)."""

    strategy: str
    level: str
    rows: int
    cols: int
    mines: int
    rule: str
    seed: int
    first: tuple[int, int] | None

    def __str__(self) -> str:
        start = "its own first click" if self.first is None else f"first click {format_position(self.first)}"
        return f"{self.strategy} {self.level} {self.rule} seed {self.seed} ({start})"


def games(seeds: int) -> Iterator[Game]:
    """Every game of a dump: ``seeds`` seeds for each strategy, level, first-click rule and start."""
    for strategy in STRATEGIES:
        for level, rows, cols, mines in LEVELS:
            for rule in RULES:
                for given in (False, True):
                    for seed in range(FIRST_SEED, FIRST_SEED + seeds):
                        first = (seed % rows, seed * 7 % cols) if given else None
                        yield Game(strategy, level, rows, cols, mines, rule, seed, first)


def game_of(record: Record) -> Game:
    """The game a record is of."""
    first = record["first"]
    return Game(
        record["strategy"],
        record["level"],
        record["rows"],
        record["cols"],
        record["mines"],
        record["rule"],
        record["seed"],
        None if first is None else (first[0], first[1]),
    )


def move_record(move: ms.Move) -> list[Any]:
    """A move as JSON: ``[action, [row, col], reason, probability, score, numbers, constrained]``."""
    return [
        move.action,
        list(move.pos),
        move.reason,
        move.probability,
        move.score,
        [list(p) for p in move.numbers],
        [list(p) for p in move.constrained],
    ]


def play(game: Game) -> Record:
    """Play one game to its end (or to ``4 * rows * cols`` moves) and record it."""
    board = ms.new_board(game.rows, game.cols, game.mines, seed=game.seed, first_click=game.rule)
    if game.first is not None:
        board = ms.reveal(board, game.first)
    moves: list[list[Any]] = []
    while not board.over and len(moves) < 4 * game.rows * game.cols:
        board, move = ms.step(board, game.strategy)
        moves.append(move_record(move))
    first = None if game.first is None else list(game.first)
    return {**game_fields(game), "first": first, "moves": moves, "status": board.status}


def game_fields(game: Game) -> Record:
    """A game's fields as JSON, in the order of :class:`Game`."""
    return dict(zip(Game.__annotations__, game, strict=True))


def write(path: Path, records: Iterable[Record]) -> bool:
    """Write a dump, one record a line, unless the file already holds these records: whether it wrote.

    Compressed as the name says: ``.xz`` (the golden file: about half of gzip's size) or ``.gz``.
    """
    text = "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records).encode()
    if path.exists() and decompress(path) == text:
        return False
    if path.suffix == ".xz":
        path.write_bytes(lzma.compress(text, preset=9))
    else:
        path.write_bytes(gzip.compress(text, mtime=0))
    return True


def decompress(path: Path) -> bytes:
    """The text of a dump, ``.xz`` or ``.gz``."""
    data = path.read_bytes()
    return lzma.decompress(data) if path.suffix == ".xz" else gzip.decompress(data)


def read(path: Path) -> list[Record]:
    """The records of a dump, in order."""
    return [json.loads(line) for line in decompress(path).splitlines()]


def dump(path: Path, seeds: int) -> None:
    """Play every game of ``games(seeds)`` and write the dump (if it changed), with progress on stderr."""
    per_strategy = len(LEVELS) * len(RULES) * 2 * seeds

    def played() -> Iterator[Record]:
        for n, game in enumerate(games(seeds), 1):
            yield play(game)
            if n % per_strategy == 0:
                print(f"{game.strategy}: {per_strategy} games", file=sys.stderr, flush=True)

    wrote = write(path, played())
    print(f"{path}: {'written' if wrote else 'unchanged, not written'}", file=sys.stderr)


def describe(move: list[Any] | None) -> str:
    """A recorded move in one line: action, position, probability or score, reason."""
    if move is None:
        return "no move (the game is over)"
    action, pos, reason, probability, score = move[:5]
    odds = f" p={probability!r}" if probability is not None else ""
    odds += f" score={score!r}" if score is not None else ""
    return f"{action} {format_position(tuple(pos))}{odds}: {reason}"


def highlights(move: list[Any]) -> str:
    """A recorded move's highlighted cells: the numbers its reason rests on and the cells they constrain."""
    numbers, constrained = (
        " ".join(format_position(tuple(p)) for p in cells) or "none" for cells in move[5:]
    )
    return f"numbers {numbers}; constrained {constrained}"


def what_differs(a: list[Any] | None, b: list[Any] | None) -> str:
    """How a recorded move differs from the one played now (neither ``None``: both games went on)."""
    if a is None or b is None or a[:2] != b[:2]:
        return "is another move"
    if a[2] != b[2]:
        return "is the same move with another reason" + ("" if a[3:] == b[3:] else ", probability or cells")
    return "is the same move and reason with another probability, score or highlighted cells"


def first_difference(expected: Record, actual: Record) -> str | None:
    """Where two records of one game first differ, in words (``None`` if they are the same)."""
    if expected == actual:
        return None
    moves_a, moves_b = expected["moves"], actual["moves"]
    for n in range(max(len(moves_a), len(moves_b))):
        a = moves_a[n] if n < len(moves_a) else None
        b = moves_b[n] if n < len(moves_b) else None
        if a != b:
            said = f"move {n + 1} of {len(moves_a)} {what_differs(a, b)}\n"
            said += f"  expected: {describe(a)}\n  actual:   {describe(b)}"
            if a is not None and b is not None and a[5:] != b[5:]:
                said += f"\n  expected highlights: {highlights(a)}\n  actual highlights:   {highlights(b)}"
            return said
    if expected["status"] != actual["status"]:
        return f"the same moves, but the game ends {actual['status']!r}, not {expected['status']!r}"
    keys = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
    return f"the same moves; the records differ in {', '.join(keys)} (an older format?)"


def replay(expected: Iterable[Record]) -> list[tuple[Game, str]]:
    """Play every game of ``expected`` again: ``(game, first difference)`` for each game that differs.

    A game that raises counts as different, with the exception as its difference.
    """
    differ = []
    for record in expected:
        game = game_of(record)
        try:
            difference = first_difference(record, play(game))
        except Exception as error:
            difference = f"playing it raised {type(error).__name__}: {error}"
        if difference is not None:
            differ.append((game, difference))
    return differ


def check(path: Path) -> int:
    """Replay a dump with the code on the path; print every game that differs. 1 if any does."""
    differ = replay(read(path))
    for game, difference in differ:
        print(f"{game}: {difference}\n")
    print(f"{len(differ)} games differ from {path} (played by {ms.__file__})")
    return 1 if differ else 0


def compare(a_path: Path, b_path: Path) -> int:
    """Compare two dumps of the same games: the games whose play differs, and the reasons reworded."""
    a = {game_of(r): r for r in read(a_path)}
    b = {game_of(r): r for r in read(b_path)}
    if a.keys() != b.keys():
        print("the two files have different games")
        return 1
    count: collections.Counter[str] = collections.Counter()
    worded: collections.Counter[tuple[str, str]] = collections.Counter()
    for game, ga in a.items():
        gb = b[game]
        s = game.strategy
        count[s] += 1
        count[s + " moves"] += len(ga["moves"])
        count[s + " won before"] += ga["status"] == "won"
        count[s + " won after"] += gb["status"] == "won"
        same_play = [m[:2] + m[3:] for m in ga["moves"]] == [m[:2] + m[3:] for m in gb["moves"]]
        if not same_play or ga["status"] != gb["status"]:
            count[s + " differ"] += 1
            print(f"moves differ: {game}")
            continue
        worded.update(
            (ma[2], mb[2]) for ma, mb in zip(ga["moves"], gb["moves"], strict=True) if ma[2] != mb[2]
        )
    summarise(count, worded)
    return 1 if any(count[s + " differ"] for s in STRATEGIES) else 0


def summarise(count: collections.Counter[str], worded: collections.Counter[tuple[str, str]]) -> None:
    """Print :func:`compare`'s totals per strategy and the most frequent rewordings."""
    for s in STRATEGIES:
        if count[s]:
            print(
                f"{s}: {count[s]} games, {count[s + ' moves']} moves, {count[s + ' differ']} games with "
                f"different moves; won {count[s + ' won before']} before, {count[s + ' won after']} after"
            )
    print(f"{sum(worded.values())} moves worded differently ({len(worded)} distinct rewordings):")
    for (ra, rb), n in worded.most_common(40):
        print(f"  {n} x\n    before: {ra}\n    after:  {rb}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", nargs="?", type=Path, help="the dump to write (or to compare)")
    parser.add_argument("--seeds", type=int, default=GOLDEN_SEEDS, help="seeds per level, rule and start")
    parser.add_argument("--compare", metavar="OTHER", type=Path, help="compare OUT with OTHER")
    parser.add_argument("--golden", action="store_true", help=f"regenerate {GOLDEN.name}")
    parser.add_argument("--check", action="store_true", help="replay OUT (default: the golden file)")
    args = parser.parse_args()
    if args.golden:
        dump(GOLDEN, GOLDEN_SEEDS)
    elif args.check:
        return check(args.out or GOLDEN)
    elif args.out is None:
        parser.error("give OUT, or --golden, or --check")
    elif args.compare:
        return compare(args.out, args.compare)
    else:
        dump(args.out, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
