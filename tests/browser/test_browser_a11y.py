"""axe-core in a real JupyterLab: WCAG 2.2 AA on the widget, so that it stays at zero violations.

axe-core (the npm package, a devDependency of js/package.json: ``make js-deps`` installs it) is loaded
into the page and run on each widget's root with the WCAG 2.2 AA tags, on a beginner (9x9) and an expert
(16 rows x 30 columns) board, in the light and the dark theme, in these states: a new game; the picker,
statistics and help panels open; a game in progress with a hint, the probability overlay and an old board
shown from the history; a loss; the lost game's Review panel (16x30); a win. Every state is scanned and
saved as a picture before the test asserts, so one run reports every violation. Exceptions, each with its
reason, are in ``EXCEPTIONS``, ``ACCEPTED`` and ``REVIEWED`` (tests/browser/ipyms_a11y.py, shared with the
other hosts' scans).

The same scan in Notebook 7 and on a 1000x1000 board (of which only a window is drawn): a new game, the
panels open, a move, a hint with the overlay, an old board, a loss and a win. (marimo's is in
test_browser_marimo.py, the offline site's in tests/lite/test_lite_a11y.py.)
"""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import pytest
from ipyms_a11y import (
    Scanner,
    game_state_labels,
    load_axe,
    scan_game_states,
    scan_hint_and_history,
    scan_panels,
)
from ipyms_browser import a_mine, cell

from ipyminesweeper import Board, new_board

pytestmark = pytest.mark.browser

BEGINNER, EXPERT = 0, 1  # the widgets' order on the page
CELLS = [
    "from ipyminesweeper import Minesweeper\nw = Minesweeper('beginner', seed=8)\nw",
    "e = Minesweeper('expert', seed=5)\ne",
    "import json\nprint('PROBE ' + json.dumps({'w': w.board.to_text(), 'e': e.board.to_text()}))",
]
PROBE = 2


def _scan(lab: Any, scanner: Scanner, name: str, *indices: int) -> None:
    """Scan widgets ``indices`` in the state ``name`` (labelled with their size)."""
    for index in indices:
        scanner.scan(f"{name}-{'9x9' if index == BEGINNER else '16x30'}", _root(lab, index))


def _open(lab: Any) -> None:
    lab.server.write_notebook("a11y.ipynb", CELLS)
    lab.open("a11y.ipynb")
    lab.run_all()
    lab.page.wait_for_function("() => document.querySelectorAll('.ipyms-root .ipyms-board').length === 2")
    load_axe(lab.page)


def _root(lab: Any, index: int) -> Any:
    return lab.page.locator(".ipyms-root").nth(index)


def _wait(lab: Any, index: int, selector: str) -> None:
    """Wait until widget ``index``'s root matches ``selector`` (e.g. ``[data-status='won']``)."""
    lab.page.wait_for_function(
        "([i, s]) => document.querySelectorAll('.ipyms-root')[i]?.matches(s)", arg=[index, selector]
    )


def _click(lab: Any, index: int, pos: tuple[int, int]) -> None:
    """Click a covered cell and wait until it is no longer covered."""
    target = cell(_root(lab, index), *pos)
    target.click()
    lab.page.wait_for_function("el => el.dataset.state !== '.'", arg=target.element_handle())


def _first_click(lab: Any, index: int, pos: tuple[int, int]) -> Board:
    """A new game on widget ``index``, its first click, and the board as Python has it."""
    _root(lab, index).locator(".ipyms-face").click()
    _wait(lab, index, "[data-status='ready']")
    _click(lab, index, pos)
    _wait(lab, index, "[data-status='playing']")
    return Board.from_text(lab.probe(PROBE)["w" if index == BEGINNER else "e"])


def _in_progress(lab: Any, scanner: Scanner, theme: str) -> None:
    """Expert: a first click, two steps of the autoplayer, then a hint with the overlay and an old board
    (``scan_hint_and_history``, as in the other hosts)."""
    root = _root(lab, EXPERT)
    _first_click(lab, EXPERT, (8, 15))
    slider = root.locator(".ipyms-history-slider")
    for n in (2, 3):
        root.locator(".ipyms-step").click()
        lab.page.wait_for_function("([el, n]) => +el.max >= n", arg=[slider.element_handle(), n])
    scan_hint_and_history(scanner, lab.page, root, f"{theme}-16x30")


def _lose_and_win(lab: Any, scanner: Scanner, theme: str) -> None:
    """Both boards lost (a click on a mine), then the beginner board won by clicks."""
    for index, pos in ((BEGINNER, (4, 4)), (EXPERT, (8, 15))):
        board = _first_click(lab, index, pos)
        cell(_root(lab, index), *a_mine(board)).click()
        _wait(lab, index, "[data-status='lost']")
    _scan(lab, scanner, f"{theme}-lost", BEGINNER, EXPERT)
    _review(lab, scanner, theme)
    board = _first_click(lab, BEGINNER, (4, 4))
    for pos in board.positions():
        if not board.is_mine(pos) and cell(_root(lab, BEGINNER), *pos).get_attribute("data-state") == ".":
            _click(lab, BEGINNER, pos)
    _wait(lab, BEGINNER, "[data-status='won']")
    _scan(lab, scanner, f"{theme}-won", BEGINNER)


def _review(lab: Any, scanner: Scanner, theme: str) -> None:
    """The lost expert game's Review panel (issue 58), at its first move, scanned; then closed."""
    root = _root(lab, EXPERT)
    root.locator(".ipyms-review-toggle").click()
    root.locator(".ipyms-review").wait_for(state="visible")
    _scan(lab, scanner, f"{theme}-review", EXPERT)
    root.locator(".ipyms-review-close").click()
    root.locator(".ipyms-review").wait_for(state="hidden")


def test_axe_wcag22_aa_light_and_dark(lab: Any) -> None:
    lab.page.set_viewport_size({"width": 1280, "height": 1800})  # the 9x9 with its panels open in view
    _open(lab)
    scanner = Scanner(lab.page, lab.screenshot)
    for theme in ("light", "dark"):
        if theme == "dark":
            lab.set_theme("JupyterLab Dark")
            for index in (BEGINNER, EXPERT):
                _root(lab, index).locator(".ipyms-face").click()
                _wait(lab, index, "[data-status='ready']")
        _scan(lab, scanner, f"{theme}-new", BEGINNER, EXPERT)
        scan_panels(scanner, _root(lab, BEGINNER), f"{theme}-panels-9x9")
        _in_progress(lab, scanner, theme)
        _lose_and_win(lab, scanner, theme)
    assert len(scanner.scanned) == 2 * 9
    scanner.check()


# Two widgets of the same seed: one is lost, the other won (the same first click, so the same mines).
TWO_BEGINNERS = [
    "from ipyminesweeper import Minesweeper\n"
    "lose, win = Minesweeper('beginner', seed=8), Minesweeper('beginner', seed=8)\n"
    "display(lose, win)"
]


def test_axe_in_notebook7(notebook7: Any) -> None:
    """Notebook 7 (its own page, not JupyterLab's): the seven states of ``scan_game_states``. Each scan
    covers the widget's root only: Notebook 7's header, toolbar and menus are Jupyter's, not this
    project's."""
    page = notebook7.page
    page.set_viewport_size({"width": 1280, "height": 1800})  # the 9x9 with its panels open in view
    notebook7.server.write_notebook("a11y-nb7.ipynb", TWO_BEGINNERS)
    notebook7.open("a11y-nb7.ipynb")
    notebook7.run_all()
    page.wait_for_function("() => document.querySelectorAll('.ipyms-root .ipyms-board').length === 2")
    load_axe(page)
    scanner = Scanner(page, notebook7.screenshot)
    roots, board = page.locator(".ipyms-root"), new_board("beginner", seed=8)
    scan_game_states(scanner, page, "nb7", (roots.nth(0), board), (roots.nth(1), board), (4, 4))
    assert scanner.scanned == game_state_labels("nb7")
    scanner.check(contrast_cells=30)


BIG = 1000
BIG_CELLS = [
    "from ipyminesweeper import Minesweeper\n"
    f"big = Minesweeper(rows={BIG}, cols={BIG}, mines=150_000, seed=99)\nbig",
    # one mine: the first click opens every other cell, a win on a board of a million cells
    f"one = Minesweeper(rows={BIG}, cols={BIG}, mines=1, seed=99)\none",
]


def test_axe_on_a_1000x1000_board(lab: Any) -> None:
    """A 1000x1000 board, of which only a window is drawn (the whole board's aria-rowcount and -colcount, the
    drawn rows' aria-rowindex): the seven states of ``scan_game_states``, the win on a 1000x1000 board of one
    mine."""
    page = lab.page
    # the whole widget in view (Scanner.scan): its board is min(75vh, 900 px) high, the rest about 500 px,
    # and about 1,100 px more with its panels open
    page.set_viewport_size({"width": 1280, "height": 2400})
    lab.server.write_notebook("a11y-big.ipynb", BIG_CELLS)
    lab.open("a11y-big.ipynb")
    lab.run_all(timeout=240_000)
    page.wait_for_function(
        "() => document.querySelectorAll('.ipyms-root .ipyms-board').length === 2"
        " && document.querySelectorAll('.ipyms-root .ipyms-cell').length > 0",
        timeout=240_000,
    )
    load_axe(page)
    scanner = Scanner(page, lab.screenshot)
    roots = page.locator(".ipyms-root")
    lose = (roots.nth(0), new_board(BIG, BIG, 150_000, seed=99))
    win = (roots.nth(1), new_board(BIG, BIG, 1, seed=99))
    started = time.monotonic()
    scan_game_states(scanner, page, f"{BIG}x{BIG}", lose, win, (6, 6))
    print(f"{BIG}x{BIG}: seven states played and scanned in {time.monotonic() - started:.0f} s")
    assert roots.nth(0).locator(".ipyms-cell").count() < BIG * BIG / 100, "a window is drawn"
    scanner.check(contrast_cells=30)


SAID_JS = """() => {
  window.__said = [];
  const region = document.querySelector('.ipyms-announce');
  new MutationObserver(() => window.__said.push([performance.now(), region.textContent.trim()]))
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def _said(lab: Any) -> list[tuple[float, str]]:
    return [(t, text) for t, text in lab.page.evaluate("() => window.__said") if text]


def _hear(lab: Any, key: str, pattern: str) -> str:
    """Press ``key`` on the board and wait until the live region says something matching ``pattern``."""
    count = len(_said(lab))
    lab.page.locator(".ipyms-root").first.focus()  # (a probe cell run in between took the focus)
    lab.page.keyboard.press(key)
    lab.page.wait_for_function(
        "([n, p]) => window.__said.filter(s => s[1].trim()).slice(n).some(s => new RegExp(p).test(s[1]))",
        arg=[count, pattern],
    )
    return next(text for _, text in reversed(_said(lab)) if re.search(pattern, text))


def test_play_by_ear(lab: Any) -> None:
    """Keys only, and what the live region and the cursor's label say: a move, the cells around the cursor,
    the counter and timer, a flag, a hint (its ring still under reduced motion); then autoplay, summarised
    at most once a second."""
    page = lab.page
    probe = "import json\nprint('PROBE ' + json.dumps({'w': w.board.to_text(), 'moves': len(w.history)}))"
    lab.server.write_notebook("ear.ipynb", [CELLS[0], probe])
    lab.open("ear.ipynb")
    lab.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    page.evaluate(SAID_JS)
    root = page.locator(".ipyms-root")
    root.focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowRight"):
        page.keyboard.press(key)
    cursor = root.get_attribute("aria-activedescendant")
    assert page.locator(f"#{cursor}").get_attribute("aria-label") == "row 2, column 1: covered"
    assert re.fullmatch(r"opened \d+ cells", _hear(lab, "Enter", "^opened"))
    board = Board.from_text(lab.probe(1)["w"])
    assert _hear(lab, "a", "^around").startswith("around (2,1): ")
    assert re.fullmatch(r"playing: 10 mines left, \d+ s", _hear(lab, "t", "^playing"))
    mine = a_mine(board)
    root.focus()
    for key in ["ArrowUp"] * 8 + ["Home"] + ["ArrowDown"] * mine[0] + ["ArrowRight"] * mine[1]:
        page.keyboard.press(key)
    assert _hear(lab, "f", "^flagged") == f"flagged ({mine[0]},{mine[1]}), 9 mines left"
    assert _hear(lab, "h", "^Hint: ").startswith("Hint: ")
    lab.screenshot("a11y-play-by-ear", root)
    # the hint's ring pulses, unless the system asks for reduced motion
    animation = "el => getComputedStyle(el).animationName"
    assert root.locator(".ipyms-hint-cell").evaluate(animation) == "ipyms-hint"
    page.emulate_media(reduced_motion="reduce")
    assert root.locator(".ipyms-hint-cell").evaluate(animation) == "none"
    lab.screenshot("a11y-reduced-motion", root)
    page.emulate_media(reduced_motion="no-preference")

    root.locator(".ipyms-speed").fill("57")  # 0.1 s per move: a few summaries before the end
    root.focus()
    start = len(_said(lab))
    page.keyboard.press("p")
    page.wait_for_selector(".ipyms-root[data-status='won'], .ipyms-root[data-status='lost']", timeout=60_000)
    page.wait_for_function("n => window.__said.length > n", arg=start)
    page.wait_for_timeout(1500)
    during = _said(lab)[start:]
    print("autoplay said:", during, "in", lab.probe(1)["moves"], "boards")
    assert re.search(r"won in \d+ s|lost: mine at \(\d+,\d+\)", during[-1][1])
    assert len(during) >= 2 and during[0][1].startswith("autoplay: "), during
    # (the end of the game is said at once, after the moves not yet said: the last one is not counted)
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(during[:-1])]
    assert all(gap >= 900 for gap in gaps), f"more than once a second: {during}"
    assert len({text for _, text in during}) == len(during), f"something said twice: {during}"


def test_grid_keys_on_a_virtual_board(lab: Any) -> None:
    """The APG grid's keys on a 300x300 board, of which only a window is drawn: Ctrl+End reaches the last
    cell, PageUp moves a screen of rows, Ctrl+Home the first cell; the cursor's cell is drawn, is the
    aria-activedescendant, and its aria-rowindex/-colindex are the whole board's."""
    page = lab.page
    lab.server.write_notebook(
        "grid.ipynb",
        [
            "from ipyminesweeper import Minesweeper\n"
            "w = Minesweeper(rows=300, cols=300, mines=9000, seed=3)\nw"
        ],
    )
    lab.open("grid.ipynb")
    lab.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    root = page.locator(".ipyms-root")
    assert page.locator(".ipyms-cell").count() < 300 * 300 / 10, "a window is drawn"

    def cursor() -> tuple[int, int, str, str, str]:
        cell_id = root.get_attribute("aria-activedescendant")
        el = page.locator(f"#{cell_id}")
        row = el.locator("xpath=ancestor::*[@role='row']")
        return (
            int(el.get_attribute("data-row")),
            int(el.get_attribute("data-col")),
            row.get_attribute("aria-rowindex"),
            el.get_attribute("aria-colindex"),
            el.get_attribute("aria-label"),
        )

    root.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Control+End")
    page.wait_for_function(
        "() => document.querySelector('.ipyms-root').getAttribute('aria-activedescendant')"
        "?.endsWith('-89999')"
    )
    assert cursor() == (299, 299, "300", "300", "row 299, column 299: covered")
    page.keyboard.press("PageUp")
    r, c, rowindex, colindex, _ = cursor()
    visible = page.evaluate(
        """() => {
          const [a, b] = document.querySelectorAll('.ipyms-row');
          const pitch = parseFloat(b.style.top) - parseFloat(a.style.top);
          return Math.floor(document.querySelector('.ipyms-board-wrap').clientHeight / pitch);
        }"""
    )
    assert (r, c) == (299 - (visible - 1), 299), "a screen of rows less one"
    assert (rowindex, colindex) == (str(r + 1), "300")
    lab.screenshot("a11y-grid-keys", root)
    page.keyboard.press("Control+Home")
    page.wait_for_function(
        "() => document.querySelector('.ipyms-root').getAttribute('aria-activedescendant')?.endsWith('-0')"
    )
    assert cursor()[:4] == (0, 0, "1", "1")
