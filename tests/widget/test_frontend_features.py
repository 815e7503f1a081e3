"""The player's and teacher's features in the shipped front end, round trips through the real widget.

Same harness as test_frontend.py (the bundle in a bare Chromium page, requests delivered to Python and
the synced state pushed back); the JupyterLab end-to-end version is tests/browser/test_browser_features.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import test_frontend

from ipyminesweeper import Minesweeper, Move, View

pytestmark = pytest.mark.browser

browser = test_frontend.browser  # the same fixtures: one Chromium per module, a page per widget
make = test_frontend.make


def playing(seed: int = 8, **kw: Any) -> Minesweeper:
    w = Minesweeper("beginner", seed=seed, **kw)
    w.reveal(4, 4)
    return w


def test_the_picker_starts_a_level_or_a_custom_game_and_shows_errors_inline(make: Any) -> None:
    w = playing()
    h = make(w)
    page = h.page
    page.locator(".ipyms-picker-toggle").click()
    assert page.locator(".ipyms-picker").is_visible()
    assert page.locator(".ipyms-picker input[value='beginner']").is_checked()
    assert "beginner 9\u00d79, 10 mines · opening" in page.locator(".ipyms-picker-current").inner_text()
    h.shot("picker")
    page.locator(".ipyms-picker input[value='expert']").check()
    page.locator(".ipyms-first-click").select_option("safe")
    page.locator(".ipyms-start").click()
    h.pump()
    h.pump()
    assert (w.level, w.first_click, w.rows, w.cols) == ("expert", "safe", 16, 30)
    assert page.locator(".ipyms-picker").is_hidden(), "a game that starts closes the picker"
    assert page.locator(".ipyms-cell").count() == 480
    # custom: the page checks the engine's own limits (from the shared table) and says what is wrong
    page.locator(".ipyms-picker-toggle").click()
    for rows, cols, mines, why in [
        ("", "9", "10", "rows is empty: type a number"),
        ("ten", "9", "10", "rows = ten is not a number"),
        ("9.5", "9", "10", "rows = 9.5 is not a whole number"),
        ("9", "9", "-3", "mines = -3: the number of mines cannot be negative"),
        ("0", "9", "10", "rows = 0: a board has at least 1 row"),
        (
            "2001",
            "2000",
            "10",
            "2001\u00d72000 is 4,002,000 cells: the most is 4,000,000 (2000\u00d72000, say)",
        ),
    ]:
        page.locator(".ipyms-custom-rows").fill(rows)
        page.locator(".ipyms-custom-cols").fill(cols)
        page.locator(".ipyms-custom-mines").fill(mines)
        page.locator(".ipyms-start").click()
        assert page.locator(".ipyms-picker-error").inner_text() == why
    assert page.locator(".ipyms-picker input[value='custom']").is_checked(), "typing a size picks Custom"
    page.locator(".ipyms-custom-rows").fill("10")
    page.locator(".ipyms-custom-cols").fill("10")
    page.locator(".ipyms-custom-mines").fill("95")
    page.locator(".ipyms-first-click").select_option("opening")  # keeps 3x3 free: at most 91 mines
    page.locator(".ipyms-start").click()
    h.pump()
    h.pump()
    assert page.locator(".ipyms-picker-error").inner_text() == (
        '95 mines do not fit 10\u00d710 with a first click "opening": at most 91'
    )
    assert page.locator(".ipyms-picker").is_visible() and w.rows == 16
    h.shot("picker-error")
    page.locator(".ipyms-custom-mines").fill("12")
    page.locator(".ipyms-start").click()
    h.pump()
    h.pump()
    assert (w.rows, w.cols, w.mines, w.level) == (10, 10, 12, "10x10/12")
    assert page.locator(".ipyms-picker").is_hidden()


def test_labels_and_the_cells_of_a_reason(make: Any) -> None:
    w = playing()
    h = make(w)
    page = h.page
    assert page.locator(".ipyms-col-labels").is_hidden(), "no labels until help is used"
    move = w.step("simple")
    h.pump()
    assert page.locator(".ipyms-col-labels span").count() == 9
    assert page.locator(".ipyms-col-labels").is_visible() and page.locator(".ipyms-row-labels").is_visible()
    assert page.locator(".ipyms-row-labels span").all_inner_texts() == [str(i) for i in range(9)]
    numbers = [
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
        for c in page.locator(".ipyms-why-number").all()
    ]
    cells = [
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-col")))
        for c in page.locator(".ipyms-why-cell").all()
    ]
    assert numbers == list(move.numbers) and sorted(cells) == sorted(move.constrained)
    assert f"({move.pos[0]},{move.pos[1]})" in page.locator(".ipyms-reason").inner_text()
    h.shot("reason-cells")


def test_hint_marks_the_move_without_playing_it(make: Any) -> None:
    w = playing()
    h = make(w)
    page = h.page
    before = w.board
    page.locator(".ipyms-hint").click()
    h.pump()
    assert w.board is before and len(w.history) == 2
    hinted = page.locator(".ipyms-hint-cell")
    assert hinted.count() == 1
    r, c = w.hint_move["row"], w.hint_move["col"]
    assert (hinted.get_attribute("data-row"), hinted.get_attribute("data-col")) == (str(r), str(c))
    assert page.locator(".ipyms-reason").inner_text().startswith("Hint: ")
    h.shot("hint")
    page.locator(".ipyms-root").focus()
    page.keyboard.press("s")
    h.pump()
    assert page.locator(".ipyms-hint-cell").count() == 0 and len(w.history) == 3


def test_the_history_slider_scrubs_read_only_and_resumes(make: Any) -> None:
    w = playing()
    for _ in range(4):
        w.step("simple")
    h = make(w)
    page = h.page
    live = w.board
    slider = page.locator(".ipyms-history-slider")
    assert slider.get_attribute("max") == "5" and slider.input_value() == "5"
    slider.fill("2")
    h.pump()
    assert w.viewing == 2 and w.board is live, "scrubbing never changes the live board"
    cells = page.evaluate(
        "[...document.querySelectorAll('.ipyms-cell')].map((c) => c.dataset.state).join('')"
    )
    assert cells == w.history[2].view.cells
    assert page.locator(".ipyms-history-text").inner_text().startswith("Move 2 of 5: simple:")
    assert slider.input_value() == "2", "the thumb stays on the board shown"
    for name in ("step", "hint", "play"):  # read-only: nothing plays on a board of the past
        assert page.locator(f".ipyms-{name}").is_disabled(), name
    h.mouse(0, 0, 0)
    h.pump()
    assert w.board is live and "looking back" in w.error
    h.shot("history")
    page.locator(".ipyms-root").focus()
    page.keyboard.press("[")
    h.pump()
    assert w.viewing == 1
    page.locator(".ipyms-resume").click()
    h.pump()
    assert len(w.history) == 2 and w.viewing == -1 and w.board == w.history[1]
    assert w.session.assistance.rewinds == 1


def test_zoom_keeps_cells_legible(make: Any) -> None:
    w = Minesweeper(size=60, mines=400, seed=1)
    h = make(w, width=600)
    page = h.page
    width: Callable[[], float] = lambda: page.locator(".ipyms-cell").first.bounding_box()["width"]  # noqa: E731
    first, second = (h.cell(0, c).bounding_box() for c in (0, 1))
    assert first["width"] == 24 and first["height"] == 24, "fitted cells are 24 px at least (WCAG 2.5.8)"
    assert second["x"] - first["x"] == 24, "no gap between cells of 20 px or more"
    for _ in range(2):
        page.locator(".ipyms-zoom-out").click()
        h.pump()
    assert w.cell_size == 16 and page.locator(".ipyms-zoom-out").is_disabled(), "the player may zoom out"
    first, second = (h.cell(0, c).bounding_box() for c in (0, 1))
    assert first["width"] >= 16 and first["height"] >= 16, "a cell is never drawn under 16 px"
    assert second["x"] - first["x"] == 17, "the 1 px gap of small cells comes on top: a 17 px pitch"
    page.locator(".ipyms-zoom-in").click()
    h.pump()
    assert w.cell_size == 20 and width() >= 19
    for _ in range(20):
        if page.locator(".ipyms-zoom-in").is_disabled():
            break
        page.locator(".ipyms-zoom-in").click()
        h.pump()
    assert w.cell_size == 64 and page.locator(".ipyms-zoom-in").is_disabled()
    h.shot("zoomed")


def test_help_panel_and_board_keys_after_a_toolbar_click(make: Any) -> None:
    w = playing()
    h = make(w)
    page = h.page
    page.locator(".ipyms-root").focus()
    page.keyboard.press("?")
    assert page.locator(".ipyms-help-panel").is_visible()
    assert "hint" in page.locator(".ipyms-help-panel").inner_text()
    h.shot("help")
    page.keyboard.press("Escape")
    assert page.locator(".ipyms-help-panel").is_hidden()
    page.locator(".ipyms-stats-toggle").click()  # focus is now on a toolbar button
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    cursor = page.locator(".ipyms-cursor")
    assert cursor.count() == 1 and page.locator(".ipyms-root.ipyms-kbd").count() == 1
    page.keyboard.press("h")
    h.pump()
    assert w.hint_move, "H works after a click on a toolbar button"
    page.locator(".ipyms-face").click()
    h.pump()
    page.keyboard.press("Space")  # reveals at the cursor, after a click on the face
    h.pump()
    assert w.status == "playing"


def test_copy_as_text(make: Any) -> None:
    w = playing()
    h = make(w)
    page = h.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator(".ipyms-copy").click()
    page.wait_for_selector(".ipyms-root[data-copied='yes']")
    assert page.evaluate("navigator.clipboard.readText()") == w.text
    page.evaluate("navigator.clipboard.writeText('')")
    page.locator(".ipyms-root").focus()
    page.keyboard.press("Control+c")
    page.wait_for_function("async () => (await navigator.clipboard.readText()).length > 0")
    assert page.evaluate("navigator.clipboard.readText()") == w.text


def test_question_marks_cycle_in_the_browser(make: Any) -> None:
    w = playing()
    w.question_marks = True
    h = make(w)
    r, c = next(p for p in w.board.positions() if w.board.view[p] == ".")
    for expected in ("f", "?", "."):
        h.mouse(r, c, 2)
        h.pump()
        shown = (
            "?"
            if h.cell(r, c).get_attribute("class").count("ipyms-marked")
            else h.cell(r, c).get_attribute("data-state")
        )
        assert shown == expected
    assert w.mines_left == 10


def test_the_stats_panel_and_a_wide_counter(
    make: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))  # no game finished yet, whatever ran before
    w = Minesweeper(rows=40, cols=60, mines=1500, seed=2)
    h = make(w, width=900)
    page = h.page
    assert page.locator(".ipyms-counter").inner_text() == "1500"
    page.locator(".ipyms-stats-toggle").click()
    assert "no finished games yet" in page.locator(".ipyms-stats").inner_text()
    headers = page.locator(".ipyms-stats th").all_inner_texts()
    assert headers[4:6] == ["best (no help)", "median (all wins)"], (
        "two times, each says which wins it counts"
    )
    assert "the median counts every win" in page.locator(".ipyms-stats-note").inner_text()


def long_winded(view: View) -> Move:
    return Move("reveal", view.covered()[-1], "a long reason " * 40)


def test_the_height_stays_put_while_playing(make: Any) -> None:
    w = Minesweeper("beginner", seed=8)
    w.labels = False  # labels, when they come on, are a choice; here: the status and the reason lines
    h = make(w)
    page = h.page
    height: Callable[[], float] = lambda: page.locator(".ipyms-root").bounding_box()["height"]  # noqa: E731
    ready = height()
    h.mouse(4, 4, 0)
    h.pump()
    assert w.status == "playing" and height() == ready
    page.locator(".ipyms-step").click()
    h.pump()
    assert page.locator(".ipyms-reason").inner_text() and height() == ready
    w.step(long_winded)
    h.pump()
    assert height() == ready, "a long reason scrolls in its own line"


def long_flagger(view: View) -> Move:
    return Move("flag", next(p for p in reversed(view.covered()) if view[p] == "."), "a long reason " * 40)


def test_the_history_line_is_never_cut(make: Any) -> None:
    w = Minesweeper("beginner", seed=8)
    w.reveal(4, 4)
    w.step(long_flagger)
    w.step(long_flagger)
    h = make(w)
    page = h.page
    line = page.locator(".ipyms-history-text")
    assert line.inner_text() == "Move 3 of 3: the game now", "live: where the game is (the move is below)"
    page.locator(".ipyms-history-back").click()
    h.pump()
    text = line.inner_text()
    assert text.startswith("Move 2 of 3: long_flagger: flag") and text.count("a long reason") >= 20
    assert line.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "every line of it is shown"
    h.shot("history-long-line")


def test_the_speed_slider_is_labelled_and_shows_its_value(make: Any) -> None:
    w = Minesweeper("beginner", seed=8)
    h = make(w)
    page = h.page
    slider = page.get_by_label("Speed")
    assert slider.evaluate("e => e.classList.contains('ipyms-speed')"), (
        "the slider's accessible name is Speed"
    )
    assert page.locator(".ipyms-speed-value").inner_text() == "0.25 s per move"
    assert slider.get_attribute("aria-valuetext") == "0.25 s per move"
    slider.fill("0")
    assert page.locator(".ipyms-speed-value").inner_text() == "2 s per move", "the value follows the thumb"
    slider.dispatch_event("change")
    h.pump()
    assert w.delay == 2.0
    assert slider.get_attribute("aria-valuetext") == "2 s per move"
