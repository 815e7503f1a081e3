"""Game review (issue 58): ``review(game)`` of one expert game, in CPython; the target is 1 s.

Two kinds of game, both reviewed cold (the solver's caches cleared before each run, as a player's first
review would be):

- a human's: the expert EVF of tests/replays/files (334 clicks, many of them chords and wasted clicks),
  loaded once through ms_toollib (skipped without it);
- exact's own: seeded expert games played by ``exact`` (every move a reveal, the longest games).

Prints the median and spread of the time of one review; records them (``benchmarks/figures.json``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ipyminesweeper import new_board, play, review
from ipyminesweeper.solver.probabilities import clear_caches

from .figures import record
from .timing import measure

EVF = Path(__file__).resolve().parents[1] / "tests" / "replays" / "files" / "test_subject.evf"
RUNS = 15
SEEDS = range(1, 8)


def _cold(game: object) -> object:
    clear_caches()
    return game


def main() -> None:
    print("[review] review(game) of one expert game, the solver's caches cleared each time; target <= 1 s")
    if importlib.util.find_spec("ms_toollib") is not None:
        from ipyminesweeper import load_replay

        human = load_replay(EVF)
        timing = measure(
            f"a human's expert game ({len(human.clicks)} clicks)", lambda: _cold(human), review, RUNS
        )
        print(timing.line("ms", "<= 1000 ms"))
        record("review", timing.name, timing.median * 1e3, "ms", better="lower")
    else:
        print("(ms_toollib is not installed: the human's EVF game is skipped)")
    games = [play(new_board("expert", seed=s), "exact") for s in SEEDS]
    moves = sorted(len(m) for _, m in games)
    it = iter(games * (RUNS // len(games) + 1))
    timing = measure(
        f"exact's expert games ({moves[0]}-{moves[-1]} moves)", lambda: _cold(next(it)), review, RUNS
    )
    print(timing.line("ms", "<= 1000 ms"))
    record("review", "exact's expert games", timing.median * 1e3, "ms", better="lower")
