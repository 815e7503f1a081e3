"""notebooks/marimo/01-play.py under `marimo run`, in Debian's Chromium.

marimo renders the widget inside a shadow root, re-runs the cells that read `game` only when the front
end writes a synced traitlet, and marks its dark theme with `body.dark`. So this test clicks (real mouse),
right-clicks and types inside the shadow root, checks that the dependent cell's output follows each
move (status, move count and the board as text, which must be the engine's), and that the widget takes
marimo's dark theme, then the light one, with no page reload.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from ipyms_a11y import Scanner, game_state_labels, load_axe, scan_game_states
from ipyms_browser import cell

# tests/ is on sys.path (pytest puts the folder of tests/conftest.py there)
from chromium import artifacts_dir
from conftest import SCREENSHOTS, free_port, new_page
from ipyminesweeper import new_board, reveal, toggle_flag

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "marimo" / "01-play.py"
SEED = 2024  # the notebook's: Minesweeper("beginner", seed=2024)
START_TIMEOUT = 180


@contextmanager
def marimo_run(notebook: Path, home: Path) -> Iterator[str]:
    """`marimo run notebook` on a free loopback port, with marimo's dark theme in a config of its own under
    ``home``; yields its URL."""
    config = home / "config" / "marimo"
    config.mkdir(parents=True)
    # marimo's own dark theme, while the browser says it prefers light: the widget must follow marimo.
    (config / "marimo.toml").write_text('[display]\ntheme = "dark"\n')
    env = os.environ.copy()
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"), HOME=str(home))
    port = free_port()
    log = (home / "marimo.log").open("wb")
    cmd = [sys.executable, "-m", "marimo", "run", str(notebook), "--headless", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--no-token"]
    proc = subprocess.Popen(
        cmd, env=env, cwd=home, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"marimo exited: {(home / 'marimo.log').read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url, timeout=5) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"marimo did not answer: {(home / 'marimo.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()


@pytest.fixture(scope="module")
def marimo_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("marimo")
    with marimo_run(NOTEBOOK, tmp_path_factory.mktemp("marimo")) as url:
        yield url


def shot(page: Any, name: str, locator: Any = None) -> None:
    path = artifacts_dir("browser") / f"{name}.png"
    page.mouse.move(1, 1)
    (locator or page).screenshot(path=str(path), animations="disabled")
    SCREENSHOTS.append(path)
    print(f"screenshot: {path}")


def dependent_output(page: Any) -> Any:
    """The output of the cell that reads `game` (it prints `status: ... · moves: N`)."""
    return page.get_by_text("moves:").first


def wait_moves(page: Any, moves: int, status: str) -> None:
    page.wait_for_function(
        """([moves, status]) => {
          const t = document.body.innerText;
          return t.includes(`moves: ${moves}`) && t.includes(`status: ${status}`);
        }""",
        arg=[moves, status],
        timeout=60_000,
    )


def board_text(page: Any) -> str:
    """The board as the dependent cell prints it (`game.board.view.to_text()`)."""
    return str(page.locator("pre", has_text="\n").filter(has_not_text="moves:").first.inner_text()).strip()


def test_marimo_click_dependent_cell_and_dark_mode(browser: Any, marimo_url: str) -> None:
    context, page, errors = new_page(browser)
    try:
        page.goto(marimo_url, timeout=120_000)
        root = page.locator(".ipyms-root")
        root.wait_for(timeout=120_000)
        page.wait_for_function(
            "() => document.querySelector('marimo-anywidget, [data-cell-role]') !== null"
            " || document.body.innerText.includes('moves:')",
            timeout=60_000,
        )
        wait_moves(page, 0, "ready")
        # Inside a shadow root: document.querySelector cannot see the board, Playwright's locators can.
        assert page.evaluate("() => document.querySelector('.ipyms-root') === null")

        # Dark: marimo's theme (body.dark) while the browser prefers light.
        assert page.evaluate("() => document.body.classList.contains('dark')"), "marimo is not dark"
        assert root.get_attribute("data-theme") == "dark"
        bg = root.evaluate("e => getComputedStyle(e).backgroundColor")
        assert bg in ("rgb(31, 36, 43)",), f"the widget is not dark in marimo's dark theme: {bg}"

        # A real left click inside the shadow root reveals, and the dependent cell re-runs.
        board = new_board("beginner", seed=SEED)
        expected = reveal(board, (4, 4))
        cell(page, 4, 4).click()
        page.wait_for_function(
            "() => true", timeout=1000
        )  # let the click's request go out before waiting on marimo's re-run
        wait_moves(page, 1, "playing")
        assert board_text(page) == expected.view.to_text()
        assert cell(page, 4, 4).get_attribute("data-state") == expected.view[(4, 4)]
        shot(page, "marimo-dark-after-click")

        # A right click flags (no context menu); the keyboard plays inside the shadow root too.
        covered = next(p for p in expected.positions() if expected.view[p] == ".")
        expected = toggle_flag(expected, covered)
        cell(page, *covered).click(button="right")
        wait_moves(page, 2, "playing")
        assert board_text(page) == expected.view.to_text()
        root.focus()
        page.keyboard.press("f")  # the cursor is on the flagged cell: F unflags it
        expected = toggle_flag(expected, covered)
        wait_moves(page, 3, "playing")
        assert board_text(page) == expected.view.to_text()
        focused = root.evaluate("e => e.getRootNode().activeElement === e")
        assert focused, "the widget root lost focus inside its shadow root"

        # marimo switches to light (body.light): the widget follows without a reload.
        # marimo marks its theme with body classes and data-theme; switch them as its theme menu does.
        assert page.evaluate("() => document.body.dataset.theme") == "dark"
        page.evaluate(
            "() => { document.body.className = 'light light-theme'; document.body.dataset.theme = 'light'; }"
        )
        page.wait_for_function(
            "el => el.dataset.theme === 'light'", arg=root.element_handle(), timeout=10_000
        )
        bg = root.evaluate("e => getComputedStyle(e).backgroundColor")
        assert bg == "rgb(233, 237, 242)", f"not the light palette: {bg}"
        shot(page, "marimo-light-after-theme-switch")
    finally:
        if errors.page_errors:
            print("\n".join(errors.page_errors))
        context.close()
    errors.check()


# Two widgets of the same seed in one marimo notebook: one is lost, the other won.
A11Y_NOTEBOOK = """import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from ipyminesweeper import Minesweeper

    lose = mo.ui.anywidget(Minesweeper("beginner", seed=8))
    win = mo.ui.anywidget(Minesweeper("beginner", seed=8))
    mo.vstack([lose, win])
    return


if __name__ == "__main__":
    app.run()
"""


def test_axe_in_marimo(browser: Any, tmp_path: Path) -> None:
    """axe on the widget inside marimo's shadow root, in marimo's dark theme: the seven states of
    ``scan_game_states``. Each scan covers the widget's root only (axe is handed the element inside the
    shadow root): marimo's own page is marimo's, not this project's."""
    pytest.importorskip("marimo")
    notebook = tmp_path / "a11y.py"
    notebook.write_text(A11Y_NOTEBOOK)
    home = tmp_path / "home"
    home.mkdir()
    with marimo_run(notebook, home) as url:
        context, page, errors = new_page(browser)
        try:
            page.goto(url, timeout=120_000)
            roots = page.locator(".ipyms-root")
            # (Playwright's locators pierce the shadow roots; document.querySelectorAll does not)
            roots.nth(1).locator(".ipyms-cell").first.wait_for(timeout=120_000)
            assert roots.count() == 2
            assert roots.nth(0).get_attribute("data-theme") == "dark"
            load_axe(page)
            page.set_viewport_size({"width": 1280, "height": 1800})  # the 9x9 with its panels open in view
            scanner = Scanner(page, lambda name, locator: shot(page, name, locator))
            board = new_board("beginner", seed=8)
            scan_game_states(scanner, page, "marimo", (roots.nth(0), board), (roots.nth(1), board), (4, 4))
            assert scanner.scanned == game_state_labels("marimo")
            scanner.check(contrast_cells=30)
        finally:
            context.close()
    errors.check()
