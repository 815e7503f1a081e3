"""Accessibility in the offline JupyterLite site (issue 28): axe-core, and seeded games won by ear.

The same checks as in JupyterLab (tests/browser/ipyms_a11y.py holds them), with the Python of the widget
running in Pyodide in the browser:

- **axe-core** with the WCAG 2.2 AA tags on each widget's root (JupyterLite's own page is JupyterLab's, not
  this project's): the seven states of ``scan_game_states`` (a new game, the panels open, a move, a hint with
  the probability overlay, an old board from the history, a loss, a win), zero violations.
- **by ear**: 20 seeded beginner games, on one page and one kernel (starting Pyodide is the slow part),
  played from the accessibility tree, the live region and keys alone and decided by ``exact``; the same
  seeds are played in this process through the Python API, and game by game the ending, the number of
  moves and the final board must be the same. The figures go to docs/accessibility.md.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from _lite_support import PLAY, OfflinePage
from ipyms_a11y import (
    Game,
    Listener,
    Scanner,
    api_game,
    check_same_games,
    game_state_labels,
    load_axe,
    scan_game_states,
)
from playwright.sync_api import Page
from test_lite_site import ACTION_TIMEOUT_MS, add_cell, wait_for_kernel

from chromium import artifacts_dir
from ipyminesweeper import new_board

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEVEL = "beginner"
SEEDS = tuple(range(1, 1 + int(os.environ.get("IPYMS_EAR_GAMES", "20"))))
MOVE_TIMEOUT_S = 60.0  # one move through the Pyodide kernel, on a busy 2-core machine


def shot(name: str, locator: Any) -> None:
    path = artifacts_dir("lite") / f"{name}.png"
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(path), animations="disabled")
    print(f"screenshot: {path}")


def open_with(page: Page, lite_url: str, source: str, widgets: int) -> float:
    """Open 01-play, install the widget (its first cell), run ``source`` (one line) in a new cell at the
    end and wait until it shows ``widgets`` boards. Returns the seconds that took."""
    started = time.monotonic()
    page.goto(f"{lite_url}lab/index.html?path={PLAY}")
    page.wait_for_selector("#jp-main-statusbar")
    wait_for_kernel(page)
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Enter")  # the first cell installs the widget from the site
    add_cell(page, source)
    page.wait_for_function(
        "n => document.querySelectorAll('.ipyms-root .ipyms-board[role=grid]').length === n",
        arg=widgets,
        timeout=ACTION_TIMEOUT_MS * 5,
    )
    return time.monotonic() - started


def test_axe_in_the_offline_site(lite_url: str, offline_page: OfflinePage) -> None:
    page = offline_page.page
    page.set_viewport_size({"width": 1280, "height": 1800})  # the 9x9 with its panels open in view
    source = (
        "from ipyminesweeper import Minesweeper; "
        "lose, win = Minesweeper('beginner', seed=8), Minesweeper('beginner', seed=8); display(lose, win)"
    )
    print(f"kernel and widgets: {open_with(page, lite_url, source, 2):.0f} s")
    load_axe(page)
    scanner = Scanner(page, shot)
    roots, board = page.locator(".ipyms-root"), new_board("beginner", seed=8)
    scan_game_states(scanner, page, "lite", (roots.nth(0), board), (roots.nth(1), board), (4, 4))
    assert scanner.scanned == game_state_labels("lite")
    scanner.check(contrast_cells=30)
    offline_page.check()


def test_win_by_ear_in_the_offline_site(lite_url: str, offline_page: OfflinePage) -> None:
    """Seeded beginner games played in the offline site from the accessibility tree and keys only, and the
    same games played by the Python API here: the same ending, moves and final board, game by game."""
    page = offline_page.page
    source = (
        "from ipyminesweeper import Minesweeper; "
        f"games = [Minesweeper({LEVEL!r}, seed=s) for s in {list(SEEDS)!r}]; display(*games)"
    )
    setup = open_with(page, lite_url, source, len(SEEDS))
    started = time.monotonic()
    roots = page.locator(".ipyms-root")
    by_ear: list[Game] = []
    for index, seed in enumerate(SEEDS):
        game = Listener(page, roots.nth(index), move_timeout=MOVE_TIMEOUT_S).play(seed)
        by_ear.append(game)
        print(f"seed {seed:2}: by ear {game.status} in {game.moves} moves; {game.said!r}")
        if game.status == "won" and sum(g.status == "won" for g in by_ear) == 1:
            shot("lite-by-ear-won", roots.nth(index))
    seconds = time.monotonic() - started
    by_api = [api_game(LEVEL, seed) for seed in SEEDS]
    ear_wins = sum(g.status == "won" for g in by_ear)
    api_wins = sum(g.status == "won" for g in by_api)
    print(
        f"offline site, {len(SEEDS)} {LEVEL} games, seeds {SEEDS[0]}-{SEEDS[-1]}: won by ear {ear_wins}, by "
        f"the Python API {api_wins}; {sum(g.moves for g in by_ear)} moves by ear in {seconds:.0f} s "
        f"(kernel and boards {setup:.0f} s before)"
    )
    check_same_games(by_ear, by_api)
    offline_page.check()
