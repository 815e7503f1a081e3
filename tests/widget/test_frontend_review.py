"""Issue 58 in the shipped front end: the Review panel by keyboard and by mouse, what the live region says
of it, the link copied, and the game's figures in the Stats panel. Same harness as test_frontend.py (the
bundle in a bare Chromium page, round trips through the real widget); screenshots in light and dark go to
``artifacts/widget/review-*.png``. The JupyterLab and offline-site versions are tests/browser/ and
tests/lite/."""

from __future__ import annotations

from typing import Any

import pytest
import test_frontend

from ipyminesweeper import Board, Minesweeper
from ipyminesweeper.widget.stats import MemoryStats

pytestmark = pytest.mark.browser

browser = test_frontend.browser
make = test_frontend.make


def lost_expert() -> Minesweeper:
    """An expert game lost by revealing covered cells in reading order after the first click: moves of
    every kind of verdict, the last a guess."""
    w = Minesweeper("expert", seed=4, stats_store=MemoryStats())
    w.reveal(7, 14)
    while not w.board.over:
        w.reveal(divmod(w.cells.index("."), w.cols))
    return w


def said(page: Any) -> str:
    return str(page.locator(".ipyms-announce").inner_text()).strip()


@pytest.mark.parametrize("dark", [False, True])
def test_the_review_panel_by_keyboard_alone(make: Any, dark: bool) -> None:
    w = lost_expert()
    h = make(w, dark=dark, width=900)
    page = h.page
    page.locator(".ipyms-root").focus()
    panel = page.locator(".ipyms-review")
    assert panel.is_hidden()
    page.keyboard.press("e")
    assert h.pump() == [{"action": "review"}]
    h.pump()
    assert panel.is_visible() and w.reviewing["index"] == 0
    summary = page.locator(".ipyms-review-summary").inner_text()
    assert summary.startswith("Review: ") and "accuracy" in summary
    assert said(page).startswith(f"review: {w.reviewing['summary']}. move 1 of ")
    review = w.review()
    assert page.locator(".ipyms-cell[data-state='*']").count() == 0, "the first move's view: no mine"
    page.keyboard.press("x")  # the next move not as good as the solver's
    h.pump()
    first = review.rows[w.reviewing["index"]]
    assert not first.good
    assert said(page).startswith(f"move {first.number} of {len(review.rows)}: {first.verdict}")
    r, c = first.pos
    assert "ipyms-reviewed-cell" in (h.cell(r, c).get_attribute("class") or "")
    if first.best.pos != first.pos:
        br, bc = first.best.pos
        assert "ipyms-better-cell" in (h.cell(br, bc).get_attribute("class") or ""), "the solver's cell"
    h.shot(f"review-{'dark' if dark else 'light'}")
    page.keyboard.press("]")
    h.pump()
    assert w.reviewing["index"] == first.number  # the move after it (index = number)
    page.keyboard.press("[")
    h.pump()
    assert w.reviewing["index"] == first.number - 1
    page.keyboard.press("Escape")
    h.pump()
    assert panel.is_hidden() and w.reviewing == {} and said(page) == "review closed: back to the game"
    assert page.locator(".ipyms-cell[data-state='X']").count() == 1, "back on the lost game"


def test_the_review_panel_by_mouse_and_the_figures_in_the_stats(make: Any) -> None:
    w = lost_expert()
    h = make(w, width=900)
    page = h.page
    button = page.locator(".ipyms-review-toggle")
    assert button.is_enabled()
    button.click()
    h.pump()
    h.pump()
    assert page.locator(".ipyms-review").is_visible() and button.get_attribute("aria-pressed") == "true"
    assert page.locator(".ipyms-review-prev").is_disabled()
    page.locator(".ipyms-review-next").click()
    h.pump()
    assert w.reviewing["index"] == 1
    assert page.locator(".ipyms-review-position").inner_text() == f"move 2 of {w.reviewing['count']}"
    assert page.locator(".ipyms-history-back").is_disabled(), "the history waits while the review is open"
    page.locator(".ipyms-review-close").click()
    h.pump()
    assert page.locator(".ipyms-review").is_hidden()
    page.locator(".ipyms-stats-toggle").click()
    assert page.locator(".ipyms-stats-game").inner_text().startswith("This game: 3BV ")
    headers = page.locator(".ipyms-stats th").all_inner_texts()
    assert headers[-2:] == ["best 3BV/s", "best efficiency"]  # wins without help: the note says so


def test_the_review_button_waits_for_the_end_of_the_game(make: Any) -> None:
    """The button is disabled while the game is on; E asks anyway, and the error line (an alert) says why."""
    w = Minesweeper("beginner", seed=8, stats_store=MemoryStats())
    w.reveal(4, 4)
    h = make(w)
    page = h.page
    assert page.locator(".ipyms-review-toggle").is_disabled()
    page.locator(".ipyms-root").focus()
    page.keyboard.press("e")
    assert h.pump() == [{"action": "review"}]
    assert page.locator(".ipyms-error").inner_text().startswith("the review comes once the game is over")
    assert w.reviewing == {} and page.locator(".ipyms-review").is_hidden()


def test_l_copies_a_link_and_the_widget_shows_it(make: Any) -> None:
    w = Minesweeper("beginner", seed=8, stats_store=MemoryStats())
    w.reveal(4, 4)
    h = make(w)
    page = h.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator(".ipyms-root").focus()
    page.keyboard.press("l")
    assert h.pump() == [{"action": "link"}]
    h.pump()
    link = page.locator(".ipyms-link-text").input_value()
    assert link == w.shared_link["url"] and "#game=1." in link
    page.wait_for_function("() => document.querySelector('.ipyms-announce').textContent.trim() !== ''")
    assert said(page) in (
        "copied a link to this game's moves",
        "copying failed: the link is under the board, to select and copy",
    )
    game = Minesweeper.from_link(link, stats_store=MemoryStats())
    assert tuple(game.history) == tuple(w.history)


def test_a_link_refused_is_said_in_the_error_line_and_nothing_is_copied(make: Any) -> None:
    """A board written by hand has no seed: while its game is on, its link would show its mines."""
    w = Minesweeper(board=Board.from_text("*....\n.....\n.....\n....*\n....."), stats_store=MemoryStats())
    w.reveal(2, 2)
    assert w.status == "playing"
    h = make(w)
    page = h.page
    page.locator(".ipyms-link-button").click()
    h.pump()
    h.pump()
    assert "no seed" in page.locator(".ipyms-error").inner_text()
    assert page.locator(".ipyms-link-line").is_hidden()
