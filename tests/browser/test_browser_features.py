"""End to end in JupyterLab: the player's and teacher's features (issue 11), each with a screenshot.

Picker, statistics after a won and an assisted game, the cells of a reason, hint, the history slider
with resume, zoom, the help panel, keys after a toolbar click, copy as text and "?" marks. Each step
is checked against the kernel (a probe cell prints the Python side) and saved as a picture.
"""

from __future__ import annotations

from typing import Any

import pytest
from ipyms_browser import cell, wait_status, win_by_clicks

from ipyminesweeper import Board

pytestmark = pytest.mark.browser

CELLS = [
    "from ipyminesweeper import Minesweeper\nw = Minesweeper('beginner', seed=8)\nw",
    "import json\n"
    "print('PROBE ' + json.dumps({'board': w.board.to_text(), 'status': w.status, 'level': w.level,\n"
    "    'first_click': w.first_click, 'history': len(w.history), 'viewing': w.viewing,\n"
    "    'hint': w.hint_move, 'cell_size': w.cell_size, 'summary': w.summary, 'marks': w.marks,\n"
    "    'text': w.text, 'stats': [s.__dict__ for s in w.stats.table()],\n"
    "    'last_move': w.last_move}))",
    # a game whose first moves by `simple` all follow from a number (a fresh seed from the face may give a
    # board where no rule applies and the step reveals a mine: the reason would then name no cells)
    "w.new_game(seed=9)",
]


def _widget(lab: Any) -> Any:
    return lab.page.locator(".ipyms-root").first


def test_picker_stats_reasons_hint_history_zoom_help_keys_copy_marks(lab: Any) -> None:
    page = lab.page
    lab.server.write_notebook("features.ipynb", CELLS)
    lab.open("features.ipynb")
    lab.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    widget = _widget(lab)

    def beginner_stats() -> dict[str, Any]:
        """This level's statistics (other tests of the session share the statistics file)."""
        rows = [s for s in lab.probe(1)["stats"] if (s["level"], s["first_click"]) == ("beginner", "opening")]
        return rows[0] if rows else {"played": 0, "won": 0, "best_seconds": None}

    base = beginner_stats()

    # --- an honest win: the stats panel counts it, with a best time -----------------------------------
    cell(page, 4, 4).click()
    wait_status(page, "playing")
    board = Board.from_text(lab.probe(1)["board"])
    win_by_clicks(lab.page, board)
    wait_status(page, "won")
    assert "You won in" in page.locator(".ipyms-message").inner_text()
    assert "assisted" not in page.locator(".ipyms-message").inner_text()
    honest = beginner_stats()
    assert (honest["played"], honest["won"]) == (base["played"] + 1, base["won"] + 1)
    assert honest["best_seconds"] is not None
    page.locator(".ipyms-stats-toggle").click()
    page.wait_for_function(
        "() => document.querySelector('.ipyms-stats tbody td')?.textContent === 'beginner'"
    )
    lab.screenshot("features-stats-after-a-win", widget)

    # --- an assisted game: a hint (the board does not change), then the rest by clicks ------------------
    page.locator(".ipyms-face").click()
    wait_status(page, "ready")
    cell(page, 4, 4).click()
    wait_status(page, "playing")
    before = lab.probe(1)
    page.locator(".ipyms-hint").click()
    page.wait_for_selector(".ipyms-hint-cell")
    state = lab.probe(1)
    assert state["board"] == before["board"] and state["history"] == before["history"]
    hint = state["hint"]
    hinted = page.locator(".ipyms-hint-cell")
    assert (hinted.get_attribute("data-row"), hinted.get_attribute("data-col")) == (
        str(hint["row"]),
        str(hint["col"]),
    )
    assert page.locator(".ipyms-reason").inner_text().startswith("Hint: ")
    assert page.locator(".ipyms-col-labels span").count() == 9, "labels come on once help is used"
    lab.screenshot("features-hint", widget)
    win_by_clicks(lab.page, Board.from_text(state["board"]))
    wait_status(page, "won")
    assert "(assisted: 1 hint)" in page.locator(".ipyms-message").inner_text()
    # (other tests of this session share the statistics file: read this level's row)
    stats = next(
        s for s in lab.probe(1)["stats"] if (s["level"], s["first_click"]) == ("beginner", "opening")
    )
    assert stats["won"] >= 2 and stats["played"] >= 2
    # (the row counts the session's other beginner games too, lost ones included)
    won = f"{stats['won']} ({round(100 * stats['won'] / stats['played'])}%)"
    page.wait_for_function(
        "won => document.querySelector('.ipyms-stats tbody').textContent.includes(won)", arg=won
    )
    lab.screenshot("features-stats-after-an-assisted-win", widget)
    page.locator(".ipyms-stats-toggle").click()

    # --- the cells of a reason: simple's move names its number and the cells it constrains -------------
    lab.run_cell(2)
    wait_status(page, "ready")
    cell(page, 4, 4).click()
    wait_status(page, "playing")
    page.locator(".ipyms-strategy").select_option("simple")
    page.locator(".ipyms-step").click()
    page.wait_for_selector(".ipyms-why-number")
    last = lab.probe(1)["last_move"]
    numbers = page.locator(".ipyms-why-number")
    assert [
        [int(numbers.nth(i).get_attribute("data-row")), int(numbers.nth(i).get_attribute("data-col"))]
        for i in range(numbers.count())
    ] == last["numbers"]
    assert page.locator(".ipyms-why-cell").count() == len(last["constrained"]) > 0
    lab.screenshot("features-reason-cells", widget)
    for _ in range(3):
        page.locator(".ipyms-step").click()
        page.wait_for_function("n => +document.querySelector('.ipyms-history-slider').max >= n", arg=2)

    # --- the history slider: scrub back (read-only), then resume from there ----------------------------
    live = lab.probe(1)
    length = live["history"]
    slider = page.locator(".ipyms-history-slider")
    page.wait_for_function("n => +document.querySelector('.ipyms-history-slider').max === n", arg=length - 1)
    slider.fill("2")
    page.wait_for_selector(".ipyms-root[data-viewing='2']")
    state = lab.probe(1)
    assert state["viewing"] == 2 and state["board"] == live["board"], "scrubbing never changes the game"
    assert page.locator(".ipyms-history-text").inner_text().startswith(f"Move 2 of {length - 1}:")
    # the thumb stays on the board shown (an update of another trait arriving before the answer once put it
    # back at the live end)
    assert slider.input_value() == "2"
    lab.screenshot("features-history-slider", widget)
    page.locator(".ipyms-resume").click()
    page.wait_for_selector(".ipyms-root[data-viewing='']")
    state = lab.probe(1)
    assert state["history"] == 3 and state["viewing"] == -1

    # --- keys after a toolbar click, the help panel -----------------------------------------------------
    page.locator(".ipyms-stats-toggle").click()
    page.locator(".ipyms-stats-toggle").click()
    before_nb = lab.notebook_state()  # (a click in an output makes its cell active: that is Lab's)
    page.keyboard.press("?")
    assert page.locator(".ipyms-help-panel").is_visible()
    lab.screenshot("features-help", widget)
    page.keyboard.press("Escape")
    page.keyboard.press("h")
    page.wait_for_selector(".ipyms-hint-cell")
    page.keyboard.press("ArrowDown")
    assert page.locator(".ipyms-cursor").count() == 1
    assert lab.notebook_state() == before_nb, "no notebook shortcut saw a key"

    # --- zoom ---------------------------------------------------------------------------------------
    size = cell(page, 0, 0).bounding_box()["width"]
    page.locator(".ipyms-zoom-in").click()
    page.locator(".ipyms-zoom-in").click()
    page.wait_for_function(
        "w => document.querySelector('.ipyms-cell').getBoundingClientRect().width > w + 4", arg=size
    )
    assert lab.probe(1)["cell_size"] >= 32
    lab.screenshot("features-zoomed", widget)

    # --- copy as text -------------------------------------------------------------------------------
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator(".ipyms-copy").click()
    page.wait_for_selector(".ipyms-root[data-copied='yes']")
    assert page.evaluate("navigator.clipboard.readText()") == lab.probe(1)["text"]

    # --- the picker: an impossible custom game is refused inline, expert with a safe first click starts --
    page.locator(".ipyms-picker-toggle").click()
    page.locator(".ipyms-custom-rows").fill("5")
    page.locator(".ipyms-custom-cols").fill("5")
    page.locator(".ipyms-custom-mines").fill("20")
    page.locator(".ipyms-first-click").select_option("opening")
    page.locator(".ipyms-start").click()
    page.wait_for_function(
        "() => document.querySelector('.ipyms-picker-error').textContent"
        ".includes('20 mines do not fit 5\\u00d75')"
    )
    lab.screenshot("features-picker-error", widget)
    page.locator(".ipyms-picker input[value='expert']").check()
    page.locator(".ipyms-first-click").select_option("safe")
    page.locator(".ipyms-question-marks").check()
    page.locator(".ipyms-start").click()
    page.wait_for_function("() => document.querySelectorAll('.ipyms-cell').length === 480")
    state = lab.probe(1)
    assert (state["level"], state["first_click"]) == ("expert", "safe")
    assert page.locator(".ipyms-picker").is_hidden()

    # --- "?" marks: a right click cycles flag, ?, covered; a mark is not a flag ------------------------
    cell(page, 0, 0).click()
    wait_status(page, "playing")
    board = Board.from_text(lab.probe(1)["board"])
    spot = next(p for p in board.positions() if board.view[p] == ".")
    target = cell(page, *spot)
    target.click(button="right")
    page.wait_for_function("el => el.dataset.state === 'f'", arg=target.element_handle())
    target.click(button="right")
    page.wait_for_function("el => el.classList.contains('ipyms-marked')", arg=target.element_handle())
    assert target.inner_text() == "?" and page.locator(".ipyms-counter").inner_text().strip() == "099"
    lab.screenshot("features-question-mark", widget)
    target.click(button="right")
    page.wait_for_function("el => !el.classList.contains('ipyms-marked')", arg=target.element_handle())
    assert lab.probe(1)["marks"] == []
