"""Head to head on the same hidden boards: a strategy against a reference solver, paired game by game.

    python -m benchmarks versus boards --start safe --games 20000 --seed S --out boards.jsonl
        [--level expert | --size 16x30x99] [--first R,C]
    python -m benchmarks versus play --boards boards.jsonl --out exact.jsonl [--strategy exact]
        [--shard K/N] [--limit N] [--progress K]
    python -m benchmarks versus compare --a exact.jsonl --b java.jsonl [--names exact,java] [--json]
    python -m benchmarks versus moves --boards boards.jsonl --out M1.jsonl   (then: versus same --a M1 --b M2)

``boards`` writes a boards file (``benchmarks/boards_file.py``: the same boards as the JavaScript harness
of Hill's solver draws for the same seeds). ``play`` plays each board through the users' path, the
board's first click revealed and then ``play(board, strategy)``, and writes one line per game:
``{"seed", "won", "cpu_s", "moves", "guesses"}`` (``cpu_s``: this process's CPU time for ``play``; the
moves after the first click, and how many of them were guesses). An existing ``--out`` file is
continued: boards already in it are skipped, so a stopped run resumes; ``--shard K/N`` plays every
N-th board from the K-th (0-based), to run one process per core. ``compare`` pairs two solvers' results
files by seed (``benchmarks/paired.py``) and prints both win rates, the paired difference with its 95%
interval, the boards won by one only, and the speed ratio. Reference results come from Hill's solvers
(``benchmarks/hill/README.md``); they cannot be fetched in CI, so this is a benchmark, not a test.
``moves`` writes every move of each game and ``same`` checks that two such files agree move for move:
the check that a change for speed leaves the moves alone.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ipyminesweeper import LEVELS, STRATEGIES, Strategy, play

from .boards_file import STARTS, BoardSpec, generate, read_boards, to_board, write_boards
from .paired import GameResult, pair, read_results

__all__ = ["main", "play_one", "resolve_strategy"]


def resolve_strategy(name: str) -> Strategy:
    """A registered strategy by name, or ``module:function``."""
    if name in STRATEGIES:
        return STRATEGIES[name]
    module, sep, attr = name.partition(":")
    if not sep:
        raise SystemExit(f"unknown strategy {name!r}: one of {sorted(STRATEGIES)} or module:function")
    fn: Strategy = getattr(importlib.import_module(module), attr)
    return fn


def play_one(spec: BoardSpec, strategy: Strategy) -> GameResult:
    """Play one board: the first click, then ``play(board, strategy)`` timed in CPU seconds."""
    board = to_board(spec)
    t0 = time.process_time()
    final, moves = play(board, strategy)
    cpu = time.process_time() - t0
    return GameResult(spec.seed, final.status == "won", cpu, len(moves), sum(m.is_guess for m in moves))


def _pair_of_ints(text: str, sep: str) -> tuple[int, int]:
    a, _, b = text.partition(sep)
    return int(a), int(b)


def _size(args: argparse.Namespace) -> tuple[int, int, int]:
    if args.size:
        rows, cols, mines = (int(x) for x in args.size.lower().split("x"))
        return rows, cols, mines
    return LEVELS[args.level]


def cmd_boards(args: argparse.Namespace) -> None:
    rows, cols, mines = _size(args)
    if args.first:
        first = _pair_of_ints(args.first, ",")
    elif args.start == "safe":
        first = (0, 0)
    else:
        first = (3, 3) if rows * cols > 256 else (2, 2)
    boards = (generate(args.seed + i, rows, cols, mines, first, args.start) for i in range(args.games))
    n = write_boards(args.out, boards)
    print(
        f"{n} boards {rows}x{cols}/{mines}, {args.start} start at {first}, seeds "
        f"{args.seed}..{args.seed + n - 1} -> {args.out}"
    )


def cmd_play(args: argparse.Namespace) -> None:
    strategy = resolve_strategy(args.strategy)
    boards = read_boards(args.boards)
    shard, shards = _pair_of_ints(args.shard, "/")
    if not 0 <= shard < shards:
        raise SystemExit(f"--shard K/N needs 0 <= K < N, not {args.shard}")
    todo = boards[shard::shards]
    out = Path(args.out)
    done = {g.seed for g in read_results(out)} if out.exists() else set()
    todo = [b for b in todo if b.seed not in done][: args.limit]
    won = played = 0
    cpu = 0.0
    with open(out, "a", encoding="utf-8") as f:
        for spec in todo:
            game = play_one(spec, strategy)
            f.write(game.to_json() + "\n")
            f.flush()
            played += 1
            won += game.won
            cpu += game.cpu_s
            if args.progress and played % args.progress == 0:
                print(
                    f"{played}/{len(todo)} won {won} ({won / played:.2%}), {played / cpu:.2f} games/CPU-s",
                    file=sys.stderr,
                    flush=True,
                )
    rate = f"{won / played:.2%}" if played else "-"
    speed = f"{played / cpu:.2f} games/CPU-s" if cpu else ""
    print(f"{played} games ({len(done)} already in {out}), won {won} ({rate}), {speed}")


def cmd_compare(args: argparse.Namespace) -> None:
    name_a, _, name_b = args.names.partition(",")
    paired = pair(read_results(args.a), read_results(args.b), name_a, name_b or "B")
    if args.json:
        print(json.dumps(paired.summary(), indent=1))
    else:
        print("\n".join(paired.report()))


def game_moves(spec: BoardSpec, strategy: Strategy) -> str:
    """Every move of ``strategy`` on a board after its first click, as ``action r,c`` joined by ``;``."""
    _, moves = play(to_board(spec), strategy)
    return ";".join(f"{m.action[0]}{m.pos[0]},{m.pos[1]}" for m in moves)


def cmd_moves(args: argparse.Namespace) -> None:
    strategy = resolve_strategy(args.strategy)
    boards = read_boards(args.boards)[: args.limit]
    t0 = time.process_time()
    with open(args.out, "w", encoding="utf-8") as f:
        for spec in boards:
            f.write(json.dumps({"seed": spec.seed, "moves": game_moves(spec, strategy)}) + "\n")
    print(f"{len(boards)} games' moves in {time.process_time() - t0:.1f} CPU s -> {args.out}")


def read_moves(path: str) -> dict[int, str]:
    """A file of :func:`cmd_moves`: each board's moves by seed."""
    with open(path, encoding="utf-8") as f:
        return {d["seed"]: d["moves"] for d in map(json.loads, filter(str.strip, f))}


def cmd_same(args: argparse.Namespace) -> None:
    a, b = read_moves(args.a), read_moves(args.b)
    if a.keys() != b.keys():
        raise SystemExit(f"the files hold different boards ({len(a)} and {len(b)})")
    differ = sorted(s for s in a if a[s] != b[s])
    moves = sum(len(m.split(";")) for m in a.values() if m)
    if differ:
        raise SystemExit(f"moves differ on {len(differ)} of {len(a)} games, first on board {differ[0]}")
    print(f"the same moves on all {len(a)} games ({moves:,} moves)")


def _winners(args: argparse.Namespace) -> dict[int, str]:
    """The boards only one of A (exact) and B (the other solver) won, and who won each."""
    paired = pair(read_results(args.a), read_results(args.b), "exact", "hill")
    only_a, only_b = paired.only
    return {**{s: "exact" for s in only_a}, **{s: "hill" for s in only_b}}


def cmd_discordant(args: argparse.Namespace) -> None:
    winners = _winners(args)
    n = write_boards(args.out, (b for b in read_boards(args.boards) if b.seed in winners))
    hill = sum(w == "hill" for w in winners.values())
    print(f"{n} boards won by one only ({n - hill} by A only, {hill} by B only) -> {args.out}")


def cmd_study(args: argparse.Namespace) -> None:
    from .discordant import read_traces, study, summary, to_json

    winners = _winners(args)
    found = study(read_boards(args.boards), winners, read_traces(args.trace))
    with open(args.out, "w", encoding="utf-8") as f:
        for d in found:
            f.write(to_json(d) + "\n")
    print("\n".join(summary(found)))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks versus", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("boards", help="write a boards file")
    b.add_argument("--start", choices=STARTS, required=True)
    b.add_argument("--games", type=int, required=True)
    b.add_argument("--seed", type=int, required=True, help="board i gets seed SEED + i")
    b.add_argument("--level", choices=sorted(LEVELS), default="expert")
    b.add_argument("--size", help="ROWSxCOLSxMINES instead of --level")
    b.add_argument("--first", help="R,C (default: (0,0) for safe, (3,3) on expert, else (2,2))")
    b.add_argument("--out", required=True)
    b.set_defaults(run=cmd_boards)

    g = sub.add_parser("play", help="play a strategy on every board of a file")
    g.add_argument("--boards", required=True)
    g.add_argument("--out", required=True, help="results file (continued if it exists)")
    g.add_argument("--strategy", default="exact", help="a registered name or module:function")
    g.add_argument("--shard", default="0/1", help="K/N: every N-th board from the K-th (0-based)")
    g.add_argument("--limit", type=int, default=None, help="at most this many games")
    g.add_argument("--progress", type=int, default=0, help="a line on stderr every K games")
    g.set_defaults(run=cmd_play)

    c = sub.add_parser("compare", help="pair two results files by seed")
    c.add_argument("--a", nargs="+", required=True, help="results of solver A (shards: several files)")
    c.add_argument("--b", nargs="+", required=True, help="results of solver B")
    c.add_argument("--names", default="A,B", help="NAME_A,NAME_B")
    c.add_argument("--json", action="store_true", help="print every figure as JSON")
    c.set_defaults(run=cmd_compare)

    m = sub.add_parser("moves", help="every move of a strategy on each board (for versus same)")
    m.add_argument("--boards", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--strategy", default="exact")
    m.add_argument("--limit", type=int, default=None)
    m.set_defaults(run=cmd_moves)

    q = sub.add_parser("same", help="check two moves files hold the same moves, game for game")
    q.add_argument("--a", required=True)
    q.add_argument("--b", required=True)
    q.set_defaults(run=cmd_same)

    d = sub.add_parser("discordant", help="the boards only one of two solvers won, as a boards file")
    d.add_argument("--boards", required=True)
    d.add_argument("--a", nargs="+", required=True, help="exact's results")
    d.add_argument("--b", nargs="+", required=True, help="the other solver's results")
    d.add_argument("--out", required=True)
    d.set_defaults(run=cmd_discordant)

    s = sub.add_parser("study", help="the first differing guess on each discordant board, classified")
    s.add_argument("--boards", required=True, help="the discordant boards")
    s.add_argument("--a", nargs="+", required=True, help="exact's results")
    s.add_argument("--b", nargs="+", required=True, help="the other solver's results")
    s.add_argument("--trace", required=True, help="the other solver's trace (benchmarks/hill, --trace)")
    s.add_argument("--out", required=True, help="one JSON line per board")
    s.set_defaults(run=cmd_study)
    return p


def main(argv: Sequence[str] | None = None) -> None:
    """Run a subcommand; with none (``python -m benchmarks`` runs every suite) say how to use it."""
    if not argv:
        print("[versus] head-to-head on a boards file: python -m benchmarks versus {boards,play,compare} -h")
        return
    args = parser().parse_args(list(argv))
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
