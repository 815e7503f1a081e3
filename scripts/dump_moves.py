"""Dump every move of the built-in strategies on seeded games, to compare two versions of the code.

    python scripts/dump_moves.py OUT.jsonl.gz [--games N]

Each line is one game: strategy, level, seed, first move, then every move as
``[action, [row, col], reason, probability, score, numbers, constrained]`` and the final status.
Run it on two commits (``PYTHONPATH=<other checkout>/src``) and compare the files with ``--compare``:
it prints the games whose moves differ and the reasons that changed wording (same move otherwise).
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import sys
from typing import Any

import ipyminesweeper as ms

LEVELS = (("beginner", 9, 9, 10), ("intermediate", 16, 16, 40), ("expert", 16, 30, 99))
STRATEGIES = ("simple", "scored", "exact")


def play_one(strategy: str, level: tuple[str, int, int, int], seed: int) -> dict[str, Any]:
    """One seeded game: every fifth seed lets the strategy choose the first click."""
    name, rows, cols, mines = level
    board = ms.new_board(rows, cols, mines, seed=seed, first_click="opening")
    first = None
    if seed % 5:
        first = [rows // 2, cols // 2]
        board = ms.reveal(board, tuple(first))
    moves = []
    while not board.over and len(moves) < 4 * rows * cols:
        board, move = ms.step(board, strategy)
        moves.append(
            [
                move.action,
                list(move.pos),
                move.reason,
                move.probability,
                move.score,
                [list(p) for p in move.numbers],
                [list(p) for p in move.constrained],
            ]
        )
    return {
        "strategy": strategy,
        "level": name,
        "seed": seed,
        "first": first,
        "moves": moves,
        "status": board.status,
    }


def dump(out: str, games: int) -> None:
    per_level = [games * 2 // 5, games * 2 // 5, games - 2 * (games * 2 // 5)]
    with gzip.open(out, "wt") as f:
        for strategy in STRATEGIES:
            for level, n in zip(LEVELS, per_level, strict=True):
                for seed in range(70_000, 70_000 + n):
                    f.write(json.dumps(play_one(strategy, level, seed)) + "\n")
                print(strategy, level[0], n, "games", file=sys.stderr, flush=True)


def load(path: str) -> dict[tuple[str, str, int], dict[str, Any]]:
    with gzip.open(path, "rt") as f:
        return {(g["strategy"], g["level"], g["seed"]): g for g in map(json.loads, f)}


def compare(a_path: str, b_path: str) -> int:
    a, b = load(a_path), load(b_path)
    if a.keys() != b.keys():
        print("the two files have different games")
        return 1
    games = collections.Counter()
    moves = collections.Counter()
    differ = collections.Counter()
    wins = collections.Counter()
    worded: collections.Counter[tuple[str, str]] = collections.Counter()
    for key in sorted(a):
        ga, gb = a[key], b[key]
        games[key[0]] += 1
        moves[key[0]] += len(ga["moves"])
        wins[key[0], "before"] += ga["status"] == "won"
        wins[key[0], "after"] += gb["status"] == "won"
        same_play = [m[:2] + m[3:] for m in ga["moves"]] == [m[:2] + m[3:] for m in gb["moves"]]
        if not same_play or ga["status"] != gb["status"]:
            differ[key[0]] += 1
            print("moves differ:", key)
            continue
        for ma, mb in zip(ga["moves"], gb["moves"], strict=True):
            if ma[2] != mb[2]:
                worded[ma[2], mb[2]] += 1
    for s in sorted(games):
        print(
            f"{s}: {games[s]} games, {moves[s]} moves, {differ[s]} games with different moves; "
            f"won {wins[s, 'before']} before, {wins[s, 'after']} after"
        )
    print(f"{sum(worded.values())} moves worded differently ({len(worded)} distinct rewordings):")
    for (ra, rb), n in worded.most_common(40):
        print(f"  {n} x\n    before: {ra}\n    after:  {rb}")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=510)
    parser.add_argument("--compare", metavar="OTHER")
    args = parser.parse_args()
    if args.compare:
        return compare(args.out, args.compare)
    dump(args.out, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
