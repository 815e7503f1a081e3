"""Issue 20 in JupyterLab: a request that takes long shows what the kernel works on, with a Cancel that
works, while the kernel answers cells; a Pause stops a strategy that never returns."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from ipyms_browser import game_cells

if TYPE_CHECKING:
    from conftest import NotebookPage

pytestmark = pytest.mark.browser

WIDGET = "Minesweeper(size=9, mines=10, seed=8)"
NEVER = """
def never(view):
    while True:
        pass

w.reveal(4, 4)
w.register_strategy("never", never)
w.strategy = "never"
"""


def test_a_hint_that_never_comes_shows_busy_and_cancel_stops_it(lab: NotebookPage) -> None:
    page = lab.page
    cells = game_cells(WIDGET)
    lab.server.write_notebook("busy.ipynb", [cells[0], NEVER, cells[1]])
    lab.open("busy.ipynb")
    lab.run_all()
    root = page.locator(".ipyms-root")
    root.wait_for()
    page.wait_for_selector('.ipyms-root[data-status="playing"]')

    page.locator(".ipyms-hint").click()
    page.wait_for_selector(".ipyms-busy:not([hidden])")
    page.wait_for_function("() => document.querySelector('.ipyms-busy-text').innerText.includes(': 1 s')")
    assert page.locator(".ipyms-busy-text").inner_text().startswith("working on hint")
    state = lab.probe(2)  # the kernel answers a cell while the strategy thinks
    assert state["history"] == 2
    lab.screenshot("lab-light-busy", root)

    page.locator(".ipyms-cancel").click()
    page.wait_for_selector(".ipyms-busy", state="hidden")
    error = page.locator(".ipyms-error")
    error.wait_for()
    assert re.match(r"cancelled: hint after \d+\.\d s; the game is as it was$", error.inner_text())
    assert lab.probe(2)["history"] == 2
    lab.screenshot("lab-light-cancelled", root)

    # Play a strategy that never returns, then Pause: it stops, and the widget says which one and how long.
    page.locator(".ipyms-play").click()
    page.wait_for_selector('.ipyms-play[aria-pressed="true"]')
    page.wait_for_timeout(1300)
    page.locator(".ipyms-play").click()
    page.wait_for_selector('.ipyms-play[aria-pressed="false"]')
    page.wait_for_function(
        "t => document.querySelector('.ipyms-error').innerText.includes(t)",
        arg="the Pause stopped your strategy 'never'",
    )
    assert lab.probe(2)["history"] == 2
