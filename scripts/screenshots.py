#!/usr/bin/env python
"""Regenerate the README's screenshots (docs/images/*.png) from a real JupyterLab.

Starts JupyterLab in temporary folders (the browser tests' fixtures: tests/browser/conftest.py), drives
it with Playwright and Debian's Chromium (/usr/bin/chromium, `make browser`), plays seeded games by real
clicks and toolbar buttons, and saves an element screenshot of the widget for each image:

- widget-light.png: a game in progress in the light theme with a hint shown: the hinted cell, the number
  its reason rests on and the cells that number constrains outlined, the reason under the toolbar, the
  row/column labels and the toolbar;
- widget-history.png: the history slider moved back: an earlier board, read-only (dashed frame), the move
  that made it, and "Resume from here";
- widget-dark-probabilities.png: the probability overlay in the dark theme, after a few autoplayer steps,
  with the last move's reason;
- widget-won.png: a won game with the Stats panel open (the games played before it included).

Usage: python scripts/screenshots.py [--output docs/images] [--only NAME ...]
Each PNG is optimised losslessly when Pillow is installed and should stay under 150 KB.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests"), str(ROOT)]

from ipyms_browser import cell, wait_status, win_by_clicks  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from chromium import BASE_ARGS, chromium_path  # noqa: E402

# the browser tests' fixtures, as plain functions: the JupyterLab server, a page, the notebook helpers
from conftest import NotebookPage, new_page, start_server  # noqa: E402
from ipyminesweeper import Board  # noqa: E402

LIMIT = 150_000  # bytes per image
PROBE = "import json\nprint('PROBE ' + json.dumps({'board': w.board.to_text()}))"


def notebook(widget: str) -> list[str]:
    return [f"from ipyminesweeper import Minesweeper\nw = {widget}\nw", PROBE]


def board_of(lab: NotebookPage) -> Board:
    return Board.from_text(lab.probe(1)["board"])


def start(lab: NotebookPage, name: str, widget: str) -> Any:
    lab.server.write_notebook(name, notebook(widget))
    lab.open(name)
    lab.run_all()
    lab.page.wait_for_selector(".ipyms-root .ipyms-cell")
    return lab.page.locator(".ipyms-root").first


def save(lab: NotebookPage, widget: Any, path: Path) -> None:
    page = lab.page
    page.mouse.move(1, 1)  # no hover effect in the picture
    widget.scroll_into_view_if_needed()
    widget.screenshot(path=str(path), animations="disabled")
    optimise(path)
    size = path.stat().st_size
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {size:,} bytes")
    if size > LIMIT:
        print(f"  warning: over {LIMIT:,} bytes", file=sys.stderr)


def optimise(path: Path) -> None:
    """Lossless re-encode with Pillow when it is installed (a smaller file, the same pixels)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as im:
        im.load()
        im.save(path, optimize=True)


# --------------------------------------------------------------------------------------------------
# The pictures
# --------------------------------------------------------------------------------------------------


def light_hint(lab: NotebookPage, out: Path) -> None:
    """A game in progress, light theme: the player flagged a mine, then asked `simple` for a hint."""
    page = lab.page
    widget = start(lab, "light.ipynb", "Minesweeper('intermediate', seed=27)")
    cell(page, 8, 8).click()
    wait_status(page, "playing")
    flag = cell(page, 3, 6)
    flag.click(button="right")
    page.wait_for_function("el => el.dataset.state === 'f'", arg=flag.element_handle())
    page.locator(".ipyms-strategy").select_option("simple")
    page.locator(".ipyms-hint").click()
    page.wait_for_selector(".ipyms-hint-cell")
    page.wait_for_selector(".ipyms-why-number")
    save(lab, widget, out / "widget-light.png")


def step(lab: NotebookPage, times: int) -> None:
    """Click Step ``times`` times, each time waiting for the move to reach the history."""
    page = lab.page
    for _ in range(times):
        before = int(page.locator(".ipyms-history-slider").get_attribute("max") or 0)
        page.locator(".ipyms-step").click()
        page.wait_for_function("n => +document.querySelector('.ipyms-history-slider').max > n", arg=before)


def history(lab: NotebookPage, out: Path) -> None:
    """The history slider moved back to an autoplayer move: read-only, with Resume from here."""
    page = lab.page
    widget = start(lab, "history.ipynb", "Minesweeper('intermediate', seed=29)")
    cell(page, 8, 8).click()
    wait_status(page, "playing")
    page.locator(".ipyms-strategy").select_option("simple")
    step(lab, 5)
    page.locator(".ipyms-history-slider").fill("3")
    page.wait_for_selector(".ipyms-root[data-viewing='3']")
    page.wait_for_selector(".ipyms-why-number")
    save(lab, widget, out / "widget-history.png")


def dark_probabilities(lab: NotebookPage, out: Path) -> None:
    """The probability overlay in JupyterLab's dark theme, after a few moves of `exact`."""
    page = lab.page
    widget = start(lab, "dark.ipynb", "Minesweeper('intermediate', seed=3)")
    lab.set_theme("JupyterLab Dark")
    page.wait_for_selector(".ipyms-root[data-theme='dark']")
    cell(page, 8, 8).click()
    wait_status(page, "playing")
    step(lab, 4)
    page.locator(".ipyms-probabilities").check()
    page.wait_for_selector(".ipyms-cell[data-prob='guess']")
    save(lab, widget, out / "widget-dark-probabilities.png")


def won_with_stats(lab: NotebookPage, out: Path) -> None:
    """Three beginner games by clicks (a loss, then two wins), the last one won, the Stats panel open."""
    page = lab.page
    widget = start(lab, "won.ipynb", "Minesweeper('beginner', seed=5)")
    cell(page, 4, 4).click()
    wait_status(page, "playing")
    board = board_of(lab)
    mine = next(p for p in board.positions() if board.is_mine(p))
    cell(page, *mine).click()
    wait_status(page, "lost")
    for _ in range(2):
        page.locator(".ipyms-face").click()
        wait_status(page, "ready")
        cell(page, 4, 4).click()
        wait_status(page, "playing")
        win_by_clicks(lab.page, board_of(lab))
        wait_status(lab.page, "won")
    page.locator(".ipyms-stats-toggle").click()
    page.wait_for_function(
        "() => document.querySelector('.ipyms-stats tbody').textContent.includes('2 (67%)')"
    )
    save(lab, widget, out / "widget-won.png")


IMAGES: dict[str, Callable[[NotebookPage, Path], None]] = {
    "widget-light": light_hint,
    "widget-history": history,
    "widget-dark-probabilities": dark_probabilities,
    "widget-won": won_with_stats,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--only", nargs="*", choices=sorted(IMAGES), help="only these images")
    args = parser.parse_args(argv)
    if chromium_path() is None:
        print("no Chromium: run `make browser` (apt-get install chromium)", file=sys.stderr)
        return 1
    args.output.mkdir(parents=True, exist_ok=True)
    names = args.only or list(IMAGES)
    with tempfile.TemporaryDirectory(prefix="ipyms-shots-") as tmp:
        server = start_server("lab", Path(tmp) / "lab")
        env: dict[str, str | float | bool] = {
            **os.environ,
            "XDG_CONFIG_HOME": f"{tmp}/config",
            "XDG_CACHE_HOME": f"{tmp}/cache",
        }
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=BASE_ARGS, env=env)
                for name in names:
                    server.reset_user_state()
                    context, page, errors = new_page(browser)
                    try:
                        IMAGES[name](NotebookPage(page, server, errors), args.output)
                    finally:
                        context.close()
                        server.shutdown_kernels()
                    errors.check()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
