"""End to end in JupyterLab: mouse, loss, win, dark theme, keyboard and notebook shortcuts.

The engine is deterministic, so the test process computes (pure Python, same seed) exactly what each
click must produce and compares it with the kernel's ``w.board`` (re-running a probe cell) and with
the DOM.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest
from ipyms_browser import (
    MINES,
    SEED,
    SIZE,
    a_mine,
    cell,
    dom_cells,
    game_cells,
    start_board,
    wait_dom_cells,
    wait_status,
    winning_clicks,
)

from ipyminesweeper import Board, reveal, toggle_flag

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from conftest import NotebookPage

pytestmark = pytest.mark.browser

FIRST = (7, 7)


def _open_game(nb: NotebookPage, name: str) -> None:
    nb.server.write_notebook(name, game_cells(f"Minesweeper(size={SIZE}, mines={MINES}, seed={SEED})"))
    nb.open(name)
    nb.run_all()
    nb.page.wait_for_selector(".ipyms-root .ipyms-cell")


def _widget(nb: NotebookPage) -> Locator:
    return nb.page.locator(".ipyms-root").first


def _at(cursor: Locator) -> tuple[int, int]:
    """The row and column of the cell the cursor is on."""
    row, col = cursor.get_attribute("data-row"), cursor.get_attribute("data-col")
    assert row is not None and col is not None, "the cursor's cell has no data-row and data-col"
    return int(row), int(col)


def _play_to_win(nb: NotebookPage, board: Board) -> Board:
    for pos in winning_clicks(board):
        board = reveal(board, pos)
        cell(nb.page, *pos).click()
        wait_dom_cells(nb.page, board.view.cells)
    return board


def test_mouse_loss_win_and_themes(lab: NotebookPage) -> None:
    page = lab.page
    _open_game(lab, "game.ipynb")
    assert page.locator(".ipyms-cell").count() == SIZE * SIZE
    assert page.locator(".ipyms-counter").inner_text().strip() == f"{MINES:03d}"
    assert lab.probe(1)["status"] == "ready"

    # Left click: Python's board is exactly the engine's answer, and so is the DOM.
    expected = start_board(FIRST)
    cell(page, *FIRST).click()
    wait_dom_cells(page, expected.view.cells)
    state = lab.probe(1)
    assert state["board"] == expected.to_text()
    assert state["status"] == "playing" == page.locator(".ipyms-root").get_attribute("data-status")

    # Right click flags (a covered mine next to the opening), without a context menu.
    mine = a_mine(expected)
    expected = toggle_flag(expected, mine)
    cell(page, *mine).click(button="right")
    wait_dom_cells(page, expected.view.cells)
    assert page.locator(".lm-Menu").count() == 0 or not page.locator(".lm-Menu").first.is_visible()
    assert "flag" in (cell(page, *mine).get_attribute("aria-label") or "")
    assert page.locator(".ipyms-counter").inner_text().strip() == f"{MINES - 1:03d}"
    state = lab.probe(1)
    assert state["board"] == expected.to_text() and state["mines_left"] == MINES - 1
    lab.screenshot("lab-light-in-progress", _widget(lab))

    # A loss: click another known mine.
    boom = a_mine(expected)
    expected = reveal(expected, boom)
    assert expected.status == "lost"
    cell(page, *boom).click()
    wait_status(page, "lost")
    wait_dom_cells(page, expected.view.cells)
    assert page.locator(".ipyms-face").get_attribute("data-face") == "lost"
    assert cell(page, *boom).get_attribute("data-state") == "X"
    state = lab.probe(1)
    assert state["status"] == "lost" and state["board"] == expected.to_text()
    lab.screenshot("lab-light-loss", _widget(lab))
    # No more moves until a new game.
    cell(page, 0, 0).click()
    assert lab.probe(1)["board"] == expected.to_text()

    # New game from the face, then a win with a scripted move list (layout read from Python).
    page.locator(".ipyms-face").click()
    wait_status(page, "ready")
    cell(page, *FIRST).click()
    wait_status(page, "playing")
    board = Board.from_text(lab.probe(1)["board"])
    board = _play_to_win(lab, board)
    wait_status(page, "won")
    assert page.locator(".ipyms-face").get_attribute("data-face") == "won"
    state = lab.probe(1)
    assert state["status"] == "won" and state["board"] == board.to_text()
    assert page.locator(".ipyms-counter").inner_text().strip() == "000"
    lab.screenshot("lab-light-win", _widget(lab))

    # Dark theme: the same win, then a game in progress and a loss.
    lab.set_theme("JupyterLab Dark")
    lab.screenshot("lab-dark-win", _widget(lab))
    lab.screenshot("lab-dark-page")
    page.locator(".ipyms-face").click()
    wait_status(page, "ready")
    cell(page, *FIRST).click()
    wait_status(page, "playing")
    board = Board.from_text(lab.probe(1)["board"])
    board = toggle_flag(board, a_mine(board))
    cell(page, *next(p for p in board.positions() if board.view[p] == "f")).click(button="right")
    wait_dom_cells(page, board.view.cells)
    lab.screenshot("lab-dark-in-progress", _widget(lab))
    boom = a_mine(board)
    board = reveal(board, boom)
    cell(page, *boom).click()
    wait_status(page, "lost")
    wait_dom_cells(page, board.view.cells)
    lab.screenshot("lab-dark-loss", _widget(lab))
    assert dom_cells(page) == board.view.cells


def test_keyboard_and_no_notebook_shortcuts(lab: NotebookPage) -> None:
    page = lab.page
    _open_game(lab, "keys.ipynb")
    root = page.locator(".ipyms-root")
    root.focus()
    before = lab.notebook_state()

    page.keyboard.press("ArrowRight")
    cur = page.locator(".ipyms-cell.ipyms-cursor")
    assert cur.count() == 1
    r0, c0 = _at(cur)
    target = (min(r0 + 2, SIZE - 1), max(c0 - 1, 0))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")
    assert _at(cur) == target

    # Enter reveals at the cursor: exactly the engine's board.
    expected = start_board(target)
    page.keyboard.press("Enter")
    wait_dom_cells(page, expected.view.cells)

    # F flags a covered cell: walk the cursor to one.
    covered = next(p for p in expected.positions() if expected.view[p] == ".")
    cr, cc = _at(cur)
    for _ in range(abs(covered[0] - cr)):
        page.keyboard.press("ArrowDown" if covered[0] > cr else "ArrowUp")
    for _ in range(abs(covered[1] - cc)):
        page.keyboard.press("ArrowRight" if covered[1] > cc else "ArrowLeft")
    expected = toggle_flag(expected, covered)
    page.keyboard.press("f")
    wait_dom_cells(page, expected.view.cells)
    page.keyboard.press("f")  # and unflags it
    expected = toggle_flag(expected, covered)
    wait_dom_cells(page, expected.view.cells)
    # C on a covered cell is a harmless no-op chord; Space reveals.
    page.keyboard.press("c")
    if not expected.is_mine(covered):
        expected = reveal(expected, covered)
        page.keyboard.press("Space")
        wait_dom_cells(page, expected.view.cells)
    lab.screenshot("lab-light-keyboard-cursor", _widget(lab))

    # JupyterLab's notebook shortcuts must not fire while the widget has focus. (Z is not in this list:
    # it is the widget's undo key, checked in test_browser_features.)
    for key in ["a", "b", "m", "y", "j", "k", "x", "d", "d", "Shift+ArrowDown", "Enter"]:
        if key == "Enter":
            continue  # Enter would reveal; already checked above
        page.keyboard.press(key)
    after = lab.notebook_state()
    assert after == before, f"notebook changed under widget keys: {before} -> {after}"
    assert lab.probe(1)["board"] == expected.to_text()

    # N starts a new game.
    root.focus()
    page.keyboard.press("n")
    wait_status(page, "ready")
    assert set(dom_cells(page)) == {"."}
    assert lab.probe(1)["status"] == "ready"

    # The board stops only its own keys: the host's shortcuts still work while it has the focus.
    # Ctrl+S saves the notebook (the file on disk gets the outputs the tests wrote none of) ...
    path = lab.server.root / "keys.ipynb"
    assert not any(c.get("outputs") for c in json.loads(path.read_text())["cells"])
    root.focus()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 30
    while not any(c.get("outputs") for c in json.loads(path.read_text())["cells"]):
        assert time.monotonic() < deadline, "Ctrl+S on the board did not save the notebook"
        time.sleep(0.25)
    assert root.evaluate("e => e.getRootNode().activeElement === e"), "the board keeps the focus"
    # ... and Ctrl+Shift+C opens the command palette.
    page.keyboard.press("Control+Shift+c")
    page.wait_for_selector(".lm-CommandPalette-input", state="visible")
    page.keyboard.press("Escape")
    assert lab.notebook_state()["count"] == before["count"]
