"""Fixtures for the offline JupyterLite site and the static HTML export, in Debian's Chromium.

- ``play_notebooks``: the notebooks to test with: the repository's ``notebooks/`` when it has
  ``01-play.ipynb``, else (or with ``IPYMS_LITE_STANDIN=1``) a small stand-in ``01-play.ipynb`` in a
  temporary folder.
- ``lite_site``: ``scripts/build_lite.py`` (which reuses an up-to-date ``dist/lite``).
- ``lite_url``: ``python -m http.server 0 --bind 127.0.0.1`` (as ``make serve-lite``).
- ``browser``: Chromium via Playwright with every host but 127.0.0.1 unresolvable.
- ``offline_page``: a fresh page that records every request which does not stay on the machine and
  every page error; ``OfflinePage.check()`` fails the test on either.

The browser tests skip only when Chromium is missing; screenshots go to ``artifacts_dir("lite")``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# the browser tests' shared helpers (ipyms_a11y: axe and the by-ear player)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from _lite_support import PLAY, ROOT, SCREENSHOTS, SCRIPTS, OfflinePage, local_only, run_script, serve

from chromium import BASE_ARGS, OFFLINE_ARGS, chromium_path

BUILD_TIMEOUT = 1800  # seconds; a cold build downloads Pyodide and about 20 wheels

# A stand-in for notebooks/01-play.ipynb while it does not exist: same variable name, same widget.
STANDIN_CELLS = [
    'import sys\nif sys.platform == "emscripten":  # JupyterLite: install the widget from the site\n'
    "    %pip install -q ipyminesweeper",
    "from ipyminesweeper import Minesweeper\nw = Minesweeper(size=16, mines=40, seed=2026)\nw",
    'game = Minesweeper("beginner", seed=3)\ngame.reveal(4, 4)\ngame',
    "w.status, len(w.history)",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the browser tests of this folder, and only them, when Chromium is not installed."""
    if chromium_path() is not None:
        return
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="no Chromium at /usr/bin/chromium: run `make browser`")
    for item in items:
        if here in Path(str(item.fspath)).parents and item.get_closest_marker("browser"):
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SCREENSHOTS:
        terminalreporter.write_sep("-", "lite / export screenshots")
        for path in SCREENSHOTS:
            terminalreporter.write_line(str(path))


@pytest.fixture(scope="session")
def play_notebooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of notebooks that has 01-play.ipynb (the repository's, when it exists)."""
    if (ROOT / "notebooks" / PLAY).is_file() and not os.environ.get("IPYMS_LITE_STANDIN"):
        return ROOT / "notebooks"
    folder = tmp_path_factory.mktemp("standin-notebooks")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in STANDIN_CELLS]
    nbformat.write(nb, folder / PLAY)
    return folder


@pytest.fixture(scope="session")
def lite_site(play_notebooks: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: dist/lite for the repository's notebooks (reused when up to date)."""
    if play_notebooks == ROOT / "notebooks":
        output = ROOT / "dist" / "lite"
        sources = [play_notebooks]
    else:  # the stand-in, and the repository's other notebooks
        output = tmp_path_factory.mktemp("lite") / "site"
        others = [p for p in sorted((ROOT / "notebooks").glob("*.ipynb")) if p.name != PLAY]
        sources = [play_notebooks / PLAY, *others]
    seconds = run_script(
        [
            str(SCRIPTS / "build_lite.py"),
            "--output",
            str(output),
            "--notebooks",
            *map(str, sources),
        ],
        BUILD_TIMEOUT,
    )
    print(f"lite site ready in {seconds:.1f} s: {output}")
    assert (output / "files" / PLAY).is_file(), f"{PLAY} is not on the site"
    return output


@pytest.fixture(scope="session")
def lite_url(lite_site: Path) -> Iterator[str]:
    """The site served by `python -m http.server` on a free loopback port."""
    with serve(lite_site) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Module scope: a live sync Playwright keeps an asyncio loop running in the main thread, which
    # would break later tests that run their own loop (the widget's autoplayer tests).
    path = chromium_path()
    assert path is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=[*BASE_ARGS, *OFFLINE_ARGS])
        yield browser
        browser.close()


@pytest.fixture
def offline_page(browser: Browser) -> Iterator[OfflinePage]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    result = OfflinePage(page=page, allowed=local_only)
    # context-level, so that the service worker's and the kernel worker's requests count too
    context.on("request", lambda request: result.record(request.url))
    context.on("requestfailed", lambda request: result.failed.append(request.url))
    page.on("pageerror", lambda error: result.page_errors.append(str(error)))
    yield result
    context.close()
