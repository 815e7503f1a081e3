"""probabilities() agrees with ms-toollib's ``cal_probability_onboard`` to 1e-6 (skipped without it).

ms-toollib (in the ``dev`` group) is the reference of ``benchmarks/bench_speed.py``; this checks the board
encoding that benchmark uses (rows of ints: ``0``-``8`` numbers, ``10`` covered, ``11`` a flag), so that
its timings compare the same computation. Positions: seeded games at three sizes, played by our own
probabilities (every safe cell, else the least likely mine), every position along the way.
"""

from __future__ import annotations

import pytest

from ipyminesweeper import View, new_board, reveal
from ipyminesweeper.solver import probabilities

ms_toollib = pytest.importorskip("ms_toollib")

TOLERANCE = 1e-6


def ms_board(view: View, flag: int = 10) -> list[list[int]]:
    cols, cells = view.cols, view.cells
    return [
        [
            (flag if ch == "f" else 10) if ch in ".f" else ord(ch) - 48
            for ch in cells[r * cols : (r + 1) * cols]
        ]
        for r in range(view.rows)
    ]


def assert_agree(view: View, flag: int = 10) -> None:
    ours = probabilities(view)
    grid, _ = ms_toollib.cal_probability_onboard(ms_board(view, flag), view.mines)
    for (r, c), p in ours.items():
        assert abs(p - grid[r][c]) <= TOLERANCE, f"({r},{c}): ours {p}, ms-toollib {grid[r][c]}\n{view}"
    for i, ch in enumerate(view.cells):  # ms-toollib gives revealed cells 0
        if ch.isdigit():
            assert grid[i // view.cols][i % view.cols] == 0


def seeded_positions(rows: int, cols: int, mines: int, seeds: range) -> list[View]:
    out = []
    for seed in seeds:
        board = reveal(new_board(rows, cols, mines, seed=seed, first_click="safe"), (0, 0))
        while board.status == "playing":
            view = board.view
            out.append(view)
            probs = probabilities(view)
            safe = sorted(p for p, q in probs.items() if q == 0)
            for pos in safe or [min(probs, key=lambda p: (probs[p], p))]:
                if board.status == "playing":
                    board = reveal(board, pos)
    return out


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "seeds"),
    [(9, 9, 10, range(7000, 7030)), (16, 16, 40, range(7100, 7115)), (16, 30, 99, range(7200, 7220))],
    ids=["beginner", "intermediate", "expert"],
)
def test_seeded_games_agree(rows: int, cols: int, mines: int, seeds: range) -> None:
    views = seeded_positions(rows, cols, mines, seeds)
    assert len(views) >= len(seeds)
    for view in views:
        assert_agree(view)


def test_small_positions_and_flags_agree() -> None:
    # a corner 1: its three neighbours share one mine, the five others the other
    assert_agree(View.from_text("1..\n...\n...", mines=2))
    # nothing revealed: every cell mines / cells
    view = View(3, 4, 3, "ready", "." * 12)
    grid, _ = ms_toollib.cal_probability_onboard(ms_board(view), 3)
    assert all(abs(p - 0.25) <= TOLERANCE for row in grid for p in row)
    # flags: neither solver trusts them (here two flags next to a 1 cannot both be mines)
    flagged = View.from_text("1f.\nf..", mines=2)
    assert_agree(flagged, flag=10)
    assert_agree(flagged, flag=11)
