"""The basic round trip in Notebook 7: the widget renders, a click reaches Python, the DOM follows."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from ipyms_browser import MINES, SEED, SIZE, cell, game_cells, start_board, wait_dom_cells

from ipyminesweeper import toggle_flag

if TYPE_CHECKING:
    from conftest import NotebookPage

pytestmark = pytest.mark.browser


def test_notebook7_round_trip(notebook7: NotebookPage) -> None:
    page = notebook7.page
    widget = f"Minesweeper(size={SIZE}, mines={MINES}, seed={SEED})"
    notebook7.server.write_notebook("nb7.ipynb", game_cells(widget))
    notebook7.open("nb7.ipynb")
    notebook7.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")

    expected = start_board((4, 11))
    cell(page, 4, 11).click()
    wait_dom_cells(page, expected.view.cells)
    assert notebook7.probe(1)["board"] == expected.to_text()

    covered = next(p for p in expected.positions() if expected.view[p] == ".")
    expected = toggle_flag(expected, covered)
    cell(page, *covered).click(button="right")
    wait_dom_cells(page, expected.view.cells)
    assert notebook7.probe(1)["board"] == expected.to_text()
    notebook7.screenshot("notebook7-light-in-progress")
