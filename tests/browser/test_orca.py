"""A real screen reader: Orca plays two games in JupyterLab by keys alone; its speech is asserted (issue 55).

``orca_scenario`` holds the scenario and ``orca_checks`` the tests, shared with the offline site
(tests/lite/test_lite_orca.py); here the ``heard`` fixture plays it in JupyterLab: Playwright only writes,
opens and runs a notebook of the two widgets, and from then on every key is a real one (``xdotool``). Orca's
speech is saved to ``artifacts/orca/``: ``orca-speech.txt`` (one utterance a line), ``orca-steps.txt`` (the
steps with their keys and times) and Orca's whole debug log.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from orca_checks import *  # noqa: F403 (the tests, each run against this module's heard)
from orca_desktop import missing_packages
from orca_scenario import SOURCE, Heard, Opened, listen

from conftest import JupyterServer, NotebookPage, PageErrors

if TYPE_CHECKING:
    from playwright.sync_api import Page

MISSING = missing_packages()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        bool(MISSING), reason=f"Orca's desktop is not installed: make orca ({' '.join(MISSING)})"
    ),
]
SECONDS = 240  # the whole scenario (desktop, Chromium, notebook, two games), at most


def open_notebook(page: Page, server: JupyterServer) -> NotebookPage:
    server.reset_user_state()
    server.write_notebook("orca.ipynb", [SOURCE])
    nb = NotebookPage(page, server, PageErrors())
    page.on("pageerror", lambda exc: nb.errors.page_errors.append(f"pageerror: {exc}"))
    nb.open("orca.ipynb")
    nb.run_all()
    page.wait_for_function(
        "() => document.querySelectorAll('.ipyms-root .ipyms-board[role=grid]').length === 2"
    )
    return nb


@pytest.fixture(scope="module")
def heard(tmp_path_factory: pytest.TempPathFactory, lab_server: JupyterServer) -> Iterator[Heard]:
    """Orca's desktop, Chromium on it, the notebook in JupyterLab, the scenario played."""

    def open_widgets(page: Page) -> Opened:
        nb = open_notebook(page, lab_server)
        return Opened(nb.screenshot, nb.errors.check)

    try:
        result = listen(tmp_path_factory.mktemp("orca-desktop"), "orca", open_widgets)
    finally:
        lab_server.shutdown_kernels()
    result.limit = SECONDS
    yield result
