"""Write tests/golden/wire.json: the board's wire form for a few views, as Python writes it.

Both sides read the file: tests/widget/test_board_wire_golden.py checks that Python still writes these
bytes, and js/wire.test.js that the front end writes and reads the same. Regenerate it on purpose, when
the format changes (``python scripts/wire_golden.py``), and say why in the commit.

Views are stored run-length encoded ("3.,1f" is "...f") to keep the file small.
"""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path
from typing import Any

from ipyminesweeper import new_board, reveal, toggle_flag
from ipyminesweeper.widget.board_wire import PACKED_FROM, board_change, wire_cells

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "wire.json"


def runs(cells: str) -> str:
    """``cells`` run-length encoded: each run's length, then its character ("3.,1f" is "...f")."""
    return ",".join(f"{len(list(group))}{ch}" for ch, group in groupby(cells))


def views() -> list[tuple[str, str, str]]:
    """(name, before, after): moves of real games, and the edge cases of the format."""
    board = reveal(new_board(16, 16, 40, seed=7), (8, 8))
    cascade = next(
        p for p in board.positions() if board.view[p] == "." and not board.is_mine(p) and board.count(p) == 0
    )
    flagged = next(p for p in board.positions() if board.view[p] == "." and board.is_mine(p))
    big = new_board(150, 120, 2_000, seed=4)
    opened = reveal(big, (75, 60))
    return [
        ("a flag", "....", ".f.."),
        ("a cascade on 16x16", board.view.cells, reveal(board, cascade).view.cells),
        ("a flag on 16x16", board.view.cells, toggle_flag(board, flagged).view.cells),
        ("a gap over 127 cells (a two-byte varint)", "." * 300, "." * 299 + "f"),
        ("an odd run and an even run", "." * 10, "123" + "." * 3 + "45" + ".."),
        ("a new shape", "....", "......"),
        ("a patch as big as the view", "....", "1111"),
        ("the first click on 150x120", big.view.cells, opened.view.cells),
    ]


def golden() -> dict[str, Any]:
    """The golden cases: patches (board_change from version 4) and whole views (wire_cells)."""
    patches = []
    for name, before, after in views():
        change = board_change(before, after, 4, whole=False)
        assert change is not None
        patch = None if change.patch is None else change.patch.hex()
        patches.append(
            {"name": name, "before": runs(before), "after": runs(after), "version": 4, "patch": patch}
        )
    covered = "." * PACKED_FROM
    big = reveal(new_board(150, 120, 2_000, seed=4), (75, 60)).view.cells
    whole = [
        {"name": name, "cells": runs(cells), "wire": wire_cells(cells)}
        for name, cells in [
            ("a small board stays readable", "." * (PACKED_FROM - 1)),
            ("a new big game", covered),
            ("a big board after its first click", big),
            ("a big view with a few scattered changes", "1." * 16 + "." * (PACKED_FROM - 64) + "1." * 16),
        ]
    ]
    return {"packed_from": PACKED_FROM, "patches": patches, "whole": whole}


if __name__ == "__main__":
    cases = golden()
    lines = [
        f'"{key}": [\n' + ",\n".join(json.dumps(c) for c in cases[key]) + "\n]"
        for key in ("patches", "whole")
    ]
    GOLDEN.write_text(f'{{"packed_from": {PACKED_FROM},\n' + ",\n".join(lines) + "}\n")
    print(f"wrote {GOLDEN}")
