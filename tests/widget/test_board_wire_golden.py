"""The board's wire form against tests/golden/wire.json, which js/wire.test.js reads too: the same views give
the same bytes in Python and in JS (regenerate on purpose with ``python scripts/wire_golden.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipyminesweeper.widget.board_wire import (
    PACKED_FROM,
    apply,
    board_change,
    read_header,
    unpack_cells,
    wire_cells,
)

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "wire.json").read_text())


def view(runs: str) -> str:
    """A view from its run-length form ("3.,1f" is "...f")."""
    return "".join(run[-1] * int(run[:-1]) for run in runs.split(","))


@pytest.mark.parametrize("case", GOLDEN["patches"], ids=lambda c: c["name"])
def test_a_move_gives_the_golden_patch(case: dict[str, Any]) -> None:
    before, after = view(case["before"]), view(case["after"])
    change = board_change(before, after, case["version"], whole=False)
    assert change is not None and change.version == case["version"] + 1
    assert (None if change.patch is None else change.patch.hex()) == case["patch"]
    if change.patch is not None:
        produced, at = read_header(change.patch)
        assert produced == change.version and apply(before, change.patch[at:]) == after


@pytest.mark.parametrize("case", GOLDEN["whole"], ids=lambda c: c["name"])
def test_a_whole_view_travels_as_the_golden_text(case: dict[str, Any]) -> None:
    cells = view(case["cells"])
    assert wire_cells(cells) == case["wire"] and unpack_cells(case["wire"], len(cells)) == cells


def test_the_golden_file_covers_every_form() -> None:
    assert GOLDEN["packed_from"] == PACKED_FROM
    kinds = {case["patch"] is None for case in GOLDEN["patches"]}
    assert kinds == {True, False}, "patches and whole views"
    assert {case["wire"].startswith("~") for case in GOLDEN["whole"]} == {True, False}, "packed and readable"
