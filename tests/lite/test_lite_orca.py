"""A real screen reader in the offline site: Orca plays the same two games by keys alone (issue 55).

The scenario and the tests are JupyterLab's (tests/browser/orca_scenario.py, orca_checks.py); here the
``heard`` fixture plays them in the offline JupyterLite site, the widget's Python in Pyodide: Playwright
opens 01-play, runs its first cell (it installs the widget from the site) and a new cell that shows the two
widgets, with every host but 127.0.0.1 unresolvable; from then on every key is a real one (``xdotool``).
Orca's speech is saved to ``artifacts/lite-orca/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _lite_support import PLAY, OfflinePage, local_only
from orca_checks import *  # noqa: F403 (the tests, each run against this module's heard)
from orca_desktop import missing_packages
from orca_scenario import LEVEL, SEED, Heard, Opened, listen
from playwright.sync_api import Page
from test_lite_site import ACTION_TIMEOUT_MS, wait_for_kernel

from chromium import OFFLINE_ARGS

MISSING = missing_packages()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        bool(MISSING), reason=f"Orca's desktop is not installed: make orca ({' '.join(MISSING)})"
    ),
]
SECONDS = 300  # the whole scenario, Pyodide's start included, at most
LINE = (  # SOURCE in one line: the cell is typed
    "from ipyminesweeper import Minesweeper; "
    f"first, second = Minesweeper({LEVEL!r}, seed={SEED}), Minesweeper({LEVEL!r}, seed={SEED}); "
    "display(first, second)"
)


def open_in_the_site(page: Page, lite_url: str) -> OfflinePage:
    """01-play in the offline site, its first cell run (the widget installed), then LINE in a new cell; the
    focus left just before the first widget."""
    offline = OfflinePage(page=page, allowed=local_only)
    page.context.on("request", lambda request: offline.record(request.url))
    page.on("pageerror", lambda error: offline.page_errors.append(str(error)))
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    page.goto(f"{lite_url}lab/index.html?path={PLAY}")
    page.wait_for_selector("#jp-main-statusbar")
    wait_for_kernel(page)
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Enter")  # the first cell installs the widget from the site
    # a new cell at the end, its source inserted at once: typed key by key, its hundreds of caret events keep
    # Orca busy long after (it then speaks the Tab onto the board late, or not at all)
    page.locator(".jp-Notebook .jp-Cell").last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(LINE)
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('.ipyms-root .ipyms-board[role=grid]').length === 2",
        timeout=ACTION_TIMEOUT_MS * 5,
    )
    # the focus just before the first widget (its root, then Shift+Tab): the scenario's Tab comes onto it
    page.locator(".ipyms-root").first.focus()
    page.keyboard.press("Shift+Tab")
    return offline


@pytest.fixture(scope="module")
def heard(tmp_path_factory: pytest.TempPathFactory, lite_url: str) -> Iterator[Heard]:
    """Orca's desktop, Chromium on it (offline), the two widgets in the site, the scenario played."""

    def open_widgets(page: Page) -> Opened:
        offline = open_in_the_site(page, lite_url)
        return Opened(offline.screenshot, offline.check)

    result = listen(
        tmp_path_factory.mktemp("orca-lite"), "lite-orca", open_widgets, args=OFFLINE_ARGS, enter_most=3
    )
    result.limit = SECONDS
    yield result
