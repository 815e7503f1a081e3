"""Issue 4 in JupyterLab: the Step button, Play/Pause and the probabilities overlay."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from ipyms_browser import MINES, SEED, SIZE, dom_cells, game_cells, wait_dom_cells

from ipyminesweeper import Board, probabilities

if TYPE_CHECKING:
    from conftest import NotebookPage

pytestmark = pytest.mark.browser


def test_step_play_pause_and_probabilities(lab: NotebookPage) -> None:
    page = lab.page
    widget = f"Minesweeper(size={SIZE}, mines={MINES}, seed={SEED}, delay=0.2)"
    lab.server.write_notebook("autoplay.ipynb", game_cells(widget))
    lab.open("autoplay.ipynb")
    lab.run_all()
    root = page.locator(".ipyms-root")
    root.wait_for()

    # Step: one move, played by Python, shown with its reason and highlighted.
    page.locator(".ipyms-step").click()
    page.wait_for_selector('.ipyms-root[data-status="playing"]')
    page.wait_for_selector(".ipyms-cell.ipyms-last-move")
    state = lab.probe(1)
    assert state["history"] == 2
    assert dom_cells(page) == state["cells"]
    reason = page.locator(".ipyms-reason").inner_text().strip()
    assert reason, "the last move's reason is not shown"
    page.locator(".ipyms-step").click()
    page.wait_for_function("r => document.querySelector('.ipyms-reason').innerText.trim() !== r", arg=reason)
    state = lab.probe(1)
    assert state["history"] == 3
    wait_dom_cells(page, state["cells"])

    # Probabilities overlay: every covered cell shows exactly what probabilities(view) says.
    page.locator(".ipyms-probabilities").check()
    page.wait_for_selector(".ipyms-cell[data-probability]")
    board = Board.from_text(state["board"])
    expected = probabilities(board.view)
    shown = page.eval_on_selector_all(
        ".ipyms-cell[data-probability]",
        "els => els.map(e => [+e.dataset.row, +e.dataset.col, +e.dataset.probability])",
    )
    assert {(r, c) for r, c, _ in shown} == set(expected)
    for r, c, p in shown:
        assert p == pytest.approx(expected[(r, c)], abs=1e-3), (r, c)
    lab.screenshot("lab-light-probabilities", root)
    lab.set_theme("JupyterLab Dark")
    lab.screenshot("lab-dark-probabilities", root)
    lab.set_theme("JupyterLab Light")

    # Play, then Pause: the autoplayer moves on its own and stops when paused.
    play = page.locator(".ipyms-play")
    revealed = sum(ch not in ".f" for ch in state["cells"])
    play.click()
    page.wait_for_selector('.ipyms-play[aria-pressed="true"]')
    page.wait_for_function(
        """n => [...document.querySelectorAll('.ipyms-cell')]
                 .filter(c => !'.f'.includes(c.dataset.state)).length > n + 3
               || ['won', 'lost'].includes(document.querySelector('.ipyms-root').dataset.status)""",
        arg=revealed,
    )
    if root.get_attribute("data-status") == "playing":
        play.click()
        page.wait_for_selector('.ipyms-play[aria-pressed="false"]')
        first = lab.probe(1)
        assert first["autoplaying"] is False
        second = lab.probe(1)
        assert second["history"] == first["history"], "the autoplayer kept playing after Pause"
        wait_dom_cells(page, second["cells"])
        lab.screenshot("lab-light-paused", root)
        # Play to the end of the game.
        play.click()
    page.wait_for_function(
        "() => ['won', 'lost'].includes(document.querySelector('.ipyms-root').dataset.status)",
        timeout=180_000,
    )
    page.wait_for_selector('.ipyms-play[aria-pressed="false"]')
    final = lab.probe(1)
    assert final["status"] in ("won", "lost") and final["autoplaying"] is False
    wait_dom_cells(page, final["cells"])
    assert page.locator(".ipyms-cell[data-probability]").count() == 0
    lab.screenshot(f"lab-light-autoplay-{final['status']}", root)
