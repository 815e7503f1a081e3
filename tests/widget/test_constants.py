"""The one table of shared constants (ipyminesweeper.widget.constants): Python uses it, and the shipped
front end carries exactly it (js/constants.js, bundled by esbuild into static/widget.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ipyminesweeper
from ipyminesweeper import LEVELS, MAX_CELLS, Minesweeper, new_board
from ipyminesweeper.engine.minefield import FIRST_CLICK_POLICIES, max_mines
from ipyminesweeper.widget import constants, messages, render
from ipyminesweeper.widget.constants import frontend_table

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(ipyminesweeper.__file__).parent / "static"
sys.path.insert(0, str(ROOT / "scripts"))
from export_constants import TARGET, constants_module  # noqa: E402


def test_js_constants_is_the_exported_table() -> None:
    stale = "run `make js` (js/constants.js is stale)"
    assert TARGET.read_text(encoding="utf-8") == constants_module(), stale


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_shipped_bundle_carries_the_table() -> None:
    script = (
        "const src = require('fs').readFileSync(process.argv[1], 'utf8');"
        "import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'))"
        ".then((m) => process.stdout.write(JSON.stringify(m.CONSTANTS)));"
    )
    out = subprocess.run(
        ["node", "-e", script, str(STATIC / "widget.js")], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == frontend_table(), "run `make js` (static/widget.js is stale)"


def test_python_uses_the_same_values() -> None:
    table = frontend_table()
    assert table["levels"] == {k: list(v) for k, v in LEVELS.items()}
    assert table["board"]["max_cells"] == MAX_CELLS == 2000 * 2000
    assert set(table["first_clicks"]) == set(FIRST_CLICK_POLICIES) == set(table["first_click_text"])
    # messages imports the bounds from constants without exporting them: reach in to see they are the same
    checked = (messages.MIN_CELL, messages.MAX_CELL)  # type: ignore[attr-defined]
    assert checked == (constants.MIN_CELL, constants.MAX_CELL)
    assert render.SNAPSHOT_NOTE is constants.SNAPSHOT_NOTE
    w = Minesweeper(size=9, mines=10, seed=1)
    w.cell_size = constants.MIN_CELL
    with pytest.raises(Exception, match="cell size"):
        w.cell_size = constants.MIN_CELL - 1


def test_the_picker_rule_for_mines_is_the_engines() -> None:
    clear = frontend_table()["first_click_clear"]
    for first_click in FIRST_CLICK_POLICIES:
        for rows, cols in [(1, 1), (1, 7), (2, 2), (3, 5), (9, 9), (16, 30)]:
            side = clear[first_click]
            picker = rows * cols - min(rows, side) * min(cols, side)
            assert picker == max_mines(rows, cols, first_click)
            new_board(rows, cols, picker, first_click=first_click, seed=1)  # the picker's most starts
            with pytest.raises(ValueError):
                new_board(rows, cols, picker + 1, first_click=first_click, seed=1)
