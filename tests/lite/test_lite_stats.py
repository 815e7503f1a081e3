"""The statistics store in the offline JupyterLite site (Pyodide, in Chromium): games are recorded with
their figures (3BV, clicks: issue 58), and
the widget's store says where they live (this Pyodide's stdlib has sqlite3: an SQLite file in the
browser's memory; without it, memory, with a notice). Either way nothing fails and nothing is lost in the
session."""

from __future__ import annotations

import re

import pytest
from _lite_support import PLAY, OfflinePage
from test_lite_site import ACTION_TIMEOUT_MS, wait_for_kernel

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CELL = (
    "from ipyminesweeper.widget.stats import GameResult; "
    "from ipyminesweeper.widget.stats_file import HAVE_SQLITE, StatsFile; "
    "from ipyminesweeper.engine import ClickCounts, GameMetrics; "
    "s = StatsFile(); "
    "[s.add(GameResult(f'lite-{i}', 'beginner', 'safe', i % 2 == 0, 3.0 + i, '', 0, "
    "GameMetrics(12, 12, 10, ClickCounts(10 + i, 2, 0, 10, 2, 0), 3.0 + i, i % 2 == 0))) for i in range(5)]; "
    "t = s.load().of('beginner', 'safe'); m = s.load().last.metrics; "
    "print('STATS', HAVE_SQLITE, t.played, t.won, t.median_seconds, round(t.best_efficiency, 4), "
    "m.clicks.left, repr(s.problem), '|', s.notice())"
)


def test_the_stats_store_works_in_the_lite_site(lite_url: str, offline_page: OfflinePage) -> None:
    page = offline_page.page
    page.goto(f"{lite_url}lab/index.html?path={PLAY}")
    page.wait_for_selector("#jp-main-statusbar")
    wait_for_kernel(page)
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Enter")  # the first cell installs the widget from the site
    page.locator(".jp-Notebook .jp-Cell").last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.type(CELL)
    page.keyboard.press("Shift+Enter")
    output = page.locator(".jp-OutputArea-output", has_text="STATS").last
    output.wait_for(timeout=ACTION_TIMEOUT_MS * 3)
    text = output.inner_text().strip()
    print(text)
    match = re.match(r"STATS (True|False) (\d+) (\d+) (\S+) (\S+) (\d+) '(.*)' \| ?(.*)", text, re.S)
    assert match, text
    have_sqlite, played, won, median, efficiency, left, problem, notice = match.groups()
    assert (played, won, median) == ("5", "3", "5.0"), "every game of the session is counted"
    # issue 58: each game's figures are kept (the newest's clicks read back), the best efficiency is the
    # best win's: 12 / (10 + 2) clicks
    assert (efficiency, left) == ("1.0", "14"), "the figures of the games, read back"
    if have_sqlite == "True":
        assert problem == "", f"sqlite3 is there, yet: {problem}"
    else:
        assert "no sqlite3" in problem and "memory" in notice
    offline_page.screenshot("lite-stats")
    offline_page.check()
