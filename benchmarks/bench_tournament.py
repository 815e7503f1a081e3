"""The class tournament's speed with and without the sandbox: games per second, and their ratio (issue 30).

One run plays the same entries on the same seeds twice: each in a worker process of its own (the
sandbox: a fresh ``python -I``, views and moves over a pipe, every answer timed) and all in this process
(``sandbox=False``). The entries: ``simple`` and ``exact`` (built-ins) and a student's file that plays
simple. Both runs count guesses the referee's way (the exact probabilities), so the ratio is the cost of
the process, the pipe and the clock alone. The results must be identical; the run says so.

``IPYMS_BENCH_TOURNAMENT_GAMES`` sets the games per entry (default 200), ``IPYMS_BENCH_TOURNAMENT_LEVEL``
the level (default beginner). Two rates: the games alone (each entry's own games/s, as the leaderboard
times them) and the whole run (starting the workers included).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from ipyminesweeper.classroom.class_tournament import Leaderboard, class_tournament

STUDENT = "from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['simple']\n"


def _run(folder: Path, games: int, level: str, sandbox: bool) -> tuple[Leaderboard, float]:
    entries: dict[str, object] = {"simple": "simple", "exact": "exact", "student": folder / "student.py"}
    start = time.perf_counter()
    board = class_tournament(entries, level, games, seed=0, sandbox=sandbox)  # type: ignore[arg-type]
    return board, time.perf_counter() - start


def _rates(board: Leaderboard, wall: float) -> tuple[float, float]:
    """Games per second of the games alone (the referee's clock per entry) and of the whole run."""
    played = sum(e.result.games for e in board.ranked if e.result)
    inside = sum(e.result.seconds for e in board.ranked if e.result)
    return played / inside, played / wall


def _same(a: Leaderboard, b: Leaderboard) -> bool:
    def key(board: Leaderboard) -> list[tuple[object, ...]]:
        return [
            (e.name, e.result.wins, e.result.outcomes, e.result.mean_moves, e.result.mean_guesses)
            for e in board.ranked
            if e.result
        ]

    return key(a) == key(b) and not a.problems and not b.problems


def main() -> None:
    games = int(os.environ.get("IPYMS_BENCH_TOURNAMENT_GAMES") or 200)
    level = os.environ.get("IPYMS_BENCH_TOURNAMENT_LEVEL") or "beginner"
    print(
        f"[tournament] simple, exact and a student's file, {games} {level} games each, seeds 0..{games - 1}"
    )
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "student.py").write_text(STUDENT, encoding="utf-8")
        here, here_wall = _run(Path(folder), games, level, sandbox=False)
        boxed, boxed_wall = _run(Path(folder), games, level, sandbox=True)
    (here_games, here_all), (boxed_games, boxed_all) = _rates(here, here_wall), _rates(boxed, boxed_wall)
    print("| run | games/s (games alone) | games/s (whole run) | seconds |")
    print("|---|---:|---:|---:|")
    print(f"| in this process | {here_games:.1f} | {here_all:.1f} | {here_wall:.2f} |")
    print(f"| sandboxed | {boxed_games:.1f} | {boxed_all:.1f} | {boxed_wall:.2f} |")
    print(
        f"sandboxed / in process: {boxed_games / here_games:.2f} (games alone), "
        f"{boxed_all / here_all:.2f} (whole run); results identical: {'yes' if _same(here, boxed) else 'NO'}"
    )
    for entry in boxed.ranked:
        mine = next(e for e in here.ranked if e.name == entry.name)
        if entry.result and mine.result:
            print(
                f"  {entry.name}: {mine.result.games_per_second:.1f} games/s in process, "
                f"{entry.result.games_per_second:.1f} sandboxed"
            )


if __name__ == "__main__":
    main()
