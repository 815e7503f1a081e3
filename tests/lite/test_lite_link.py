"""A game shared by a link, opened in the offline site (issue 58): Chromium, Pyodide, nothing but 127.0.0.1.

The link is made here, in CPython (``w.link(site=...)``, the site's own address): the game is in its
fragment. The browser opens it: JupyterLite opens the shared-game notebook, whose cells are run (Run All),
and its widget sends the game of the page's address to its Python, which reads it, checks it and opens it.

- a finished game's link opens on its review, the same review as here: its summary, each move's board; axe
  finds nothing on the widget with the Review panel open, and the widget is saved as a picture;
- a broken link (its code cut short) is refused with a sentence in the widget's error line, and the
  widget's game stays the new game it showed before.
"""

from __future__ import annotations

from typing import Any

import pytest
from _lite_support import OfflinePage
from ipyms_a11y import Scanner, load_axe
from playwright.sync_api import Page
from test_lite_a11y import shot
from test_lite_site import ACTION_TIMEOUT_MS, run_all, wait_for_kernel

from ipyminesweeper import Minesweeper
from ipyminesweeper.widget.link import NOTEBOOK
from ipyminesweeper.widget.stats import MemoryStats

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def lost_expert() -> Minesweeper:
    """An expert game lost by revealing covered cells in reading order after the first click."""
    w = Minesweeper("expert", seed=4, stats_store=MemoryStats())
    w.reveal(7, 14)
    while not w.board.over:
        w.reveal(divmod(w.cells.index("."), w.cols))
    return w


def open_link(page: Page, link: str) -> Any:
    """Open ``link`` (an address of the site), run the notebook, and return the widget's root."""
    page.goto(link)
    page.wait_for_selector("#jp-main-statusbar")
    wait_for_kernel(page)
    run_all(page)
    root = page.locator(".ipyms-root").first
    root.wait_for(timeout=ACTION_TIMEOUT_MS)
    return root


def test_a_finished_game_s_link_opens_its_review_offline(lite_url: str, offline_page: OfflinePage) -> None:
    w = lost_expert()
    review = w.review()
    link = w.link(site=lite_url)
    assert link.startswith(f"{lite_url}lab/index.html?path={NOTEBOOK}#game=1.")
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 1400})
    root = open_link(page, link)
    panel = root.locator(".ipyms-review")
    panel.wait_for(state="visible", timeout=ACTION_TIMEOUT_MS * 3)  # the moves replayed, then rated
    assert root.locator(".ipyms-review-summary").inner_text() == f"Review: {w.reviewing['summary']}"
    assert root.get_attribute("data-status") == "lost"
    first = review.rows[0]
    cells = root.locator(".ipyms-cell")
    page.wait_for_function("n => document.querySelectorAll('.ipyms-root .ipyms-cell').length === n", arg=480)
    assert "".join(cells.evaluate_all("cs => cs.map(c => c.dataset.state)")) == first.view.cells
    root.focus()
    page.keyboard.press("x")  # the first move not as good as the solver's
    mistake = next(r for r in review.rows if not r.good)
    text = root.locator(".ipyms-review-text")
    page.wait_for_function(
        "([el, t]) => el.textContent === t",
        arg=[text.element_handle(), f"move {mistake.number} of {len(review.rows)}: {mistake.verdict}"],
        timeout=ACTION_TIMEOUT_MS,
    )
    load_axe(page)
    scanner = Scanner(page, shot)
    scanner.scan("lite-review-16x30", root)
    scanner.check(contrast_cells=5)
    offline_page.check()


def test_a_broken_link_is_refused_and_the_widget_keeps_its_game(
    lite_url: str, offline_page: OfflinePage
) -> None:
    w = Minesweeper("beginner", seed=3, stats_store=MemoryStats())
    w.reveal(4, 4)
    cut = w.link(site=lite_url)[:-6]  # the end of the code lost in a copy
    page = offline_page.page
    root = open_link(page, cut)
    error = root.locator(".ipyms-error")
    error.wait_for(state="visible", timeout=ACTION_TIMEOUT_MS * 3)
    assert error.inner_text().startswith("cannot open this link: the game in this link")
    assert root.get_attribute("data-status") == "ready", "the widget's own new game, as it was"
    assert root.locator(".ipyms-cell[data-state='.']").count() == 16 * 16
    shot("lite-broken-link", root)
    offline_page.check()
