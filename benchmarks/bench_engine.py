"""Engine speed: new game + first reveal, single actions on expert, and cascade throughput."""

from __future__ import annotations

import random
import statistics
import time

from ipyminesweeper import Board, chord, new_board, reveal, toggle_flag
from ipyminesweeper.engine import Minefield, place_mines

from .figures import build, record
from .timing import measure


def _expert_positions(count: int) -> list[Board]:
    """Seeded expert games a few moves in: each has covered cells, a flag to toggle and a chord."""
    boards: list[Board] = []
    seed = 0
    while len(boards) < count:
        seed += 1
        board = reveal(new_board("expert", seed=seed), (8, 15))
        if board.status == "playing":
            boards.append(board)
    return boards


def _chordable(board: Board) -> tuple[Board, tuple[int, int]] | None:
    """The board with the right flags around one revealed number, and that number's position."""
    for pos in board.positions():
        if board.view[pos] in "12345678":
            mines = [q for q in board.neighbours(pos) if board.is_mine(q)]
            covered = [q for q in board.neighbours(pos) if board.view[q] == "." and not board.is_mine(q)]
            if covered:
                for q in mines:
                    board = toggle_flag(board, q)
                return board, pos
    return None


def main() -> None:
    print(f"Engine ({build()} build, one core)")
    rng = random.Random(1)
    first = measure(
        "expert: new_board + first reveal",
        lambda: rng.randrange(1 << 30),
        lambda s: reveal(new_board("expert", seed=s), (8, 15)),
        300,
    )
    print(first.line("us"))
    record("engine", first.name, first.median * 1e6, "us", better="lower", guard=True)
    boards = _expert_positions(200)
    covered = [(b, rng.choice([p for p in b.positions() if b.view[p] == "."])) for b in boards]
    chords = [c for c in (_chordable(b) for b in boards) if c]
    for name, rule, cases in [
        ("expert: reveal (one cell)", reveal, covered),
        ("expert: toggle_flag", toggle_flag, covered),
        ("expert: chord", chord, chords),
    ]:
        it = iter(cases * 3)
        timing = measure(name, it.__next__, lambda a, r=rule: r(*a), 3 * len(cases))  # type: ignore[misc]
        print(timing.line("us", "< 100 us"))
        record("engine", name, timing.median * 1e6, "us", better="lower", guard=True)

    rates = []
    for seed in range(5):
        big = place_mines(new_board(1000, 1000, density=0.05, seed=seed), 500_500)
        assert isinstance(big.minefield, Minefield)
        _ = big.minefield.padded_counts  # derived once per layout, like any first reveal
        start = time.perf_counter()
        opened = reveal(big, (500, 500))
        rates.append(opened.states.count(2) / (time.perf_counter() - start))
    median, low, high = (x / 1e6 for x in (statistics.median(rates), min(rates), max(rates)))
    label = "cascade, 1000x1000 at 5% density"
    print(
        f"{label:<44} median {median:9.2f} M cells/s   range {low:.2f} - {high:.2f}"
        f"   n={len(rates)}   target >= 2 M cells/s"
    )
    record("engine", label, median, "M cells/s", better="higher", guard=True)
    start = time.perf_counter()
    fresh = place_mines(new_board(1000, 1000, density=0.05, seed=9), 500_500)
    opened = reveal(fresh, (500, 500))
    rate = opened.states.count(2) / (time.perf_counter() - start) / 1e6
    print(f"{'  the same, incl. placing and counting mines':<44} {rate:16.2f} M cells/s")
    record("engine", "cascade, incl. placing and counting mines", rate, "M cells/s", better="higher")


if __name__ == "__main__":
    main()
