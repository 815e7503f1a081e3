"""axe-core in a real JupyterLab: WCAG 2.2 AA on the widget, so that it stays at zero violations.

axe-core (the npm package, a devDependency of js/package.json: ``make js-deps`` installs it) is loaded
into the page and run on each widget's root with the WCAG 2.2 AA tags, on a beginner (9x9) and an expert
(16 rows x 30 columns) board, in the light and the dark theme, in these states: a new game; the picker,
statistics and help panels open; a game in progress with a hint, the probability overlay and an old board
shown from the history; a loss; a win. Every state is scanned and saved as a picture before the test
asserts, so one run reports every violation. Exceptions, each with its reason, are in ``EXCEPTIONS``.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ipyms_browser import a_mine, cell

from ipyminesweeper import Board

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "js/node_modules/axe-core/axe.min.js"
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# JupyterLab 4's body (`.jp-ThemedContainer`) is 0 px high with `overflow: hidden` (the shell is placed
# absolutely inside it), so axe takes every text in the page for clipped and skips `color-contrast` on all
# of it (checked: the rule then sees only the form fields). While axe runs, the test lifts that clip (the
# shell fills the window: nothing moves), so that the contrast of the widget's text, the cells' numbers
# included, is checked.
UNCLIP = "body { overflow: visible !important; }"

# Rules switched off, rule id -> why. Empty: every WCAG 2.2 A/AA rule of axe applies.
EXCEPTIONS: dict[str, str] = {}

# What axe cannot decide and leaves for a person ("incomplete"), "rule element" -> what a person checked
# (the element by its last class). Anything else undecided fails the test, until someone looks and names it.
SYMBOLS = (
    "the history's arrows and the zoom's minus and plus show a symbol, not words, so WCAG 2.5.3 "
    "(label in name) has no visible text to match: their names say what the symbol does"
)
REVIEWED: dict[str, str] = {
    **{
        f"label-content-name-mismatch .ipyms-{name}": SYMBOLS
        for name in ("history-back", "history-forward", "zoom-out", "zoom-in")
    },
    "color-contrast .ipyms-zoom-out": "its only text is the minus sign, which axe does not measure; it has "
    "the text colour of the other buttons, which axe measured",
}

BEGINNER, EXPERT = 0, 1  # the widgets' order on the page
CELLS = [
    "from ipyminesweeper import Minesweeper\nw = Minesweeper('beginner', seed=8)\nw",
    "e = Minesweeper('expert', seed=5)\ne",
    "import json\nprint('PROBE ' + json.dumps({'w': w.board.to_text(), 'e': e.board.to_text()}))",
]
PROBE = 2


def _axe(page: Any, index: int) -> dict[str, Any]:
    """axe on widget ``index``: its violations (rule, impact, nodes, one for each distinct failure), the rules
    that passed with their node counts, and what it left for a person to review (``incomplete``: rule and
    element)."""
    found = page.evaluate(
        """async ([index, tags, off, unclip]) => {
          const root = document.querySelectorAll('.ipyms-root')[index];
          const rules = Object.fromEntries(off.map(id => [id, {enabled: false}]));
          const options = {runOnly: {type: 'tag', values: tags}, rules, elementRef: true};
          const style = document.createElement('style');
          style.textContent = unclip;
          document.head.append(style);
          const result = await axe.run(root, options).finally(() => style.remove());
          const contrast = [...result.passes, ...result.violations].filter(r => r.id === 'color-contrast');
          const cells = contrast.flatMap(r => r.nodes).filter(n => n.element.matches('.ipyms-cell')).length;
          const count = list => Object.fromEntries(list.map(r => [r.id, r.nodes.length]));
          return {
            violations: result.violations.map(v => ({
              id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.length,
              // one node for each different failure (e.g. each pair of colours)
              distinct: [...new Map(v.nodes.map(n => [n.failureSummary, n.target.join(' ')]))],
            })),
            passes: count(result.passes),
            incomplete: result.incomplete.flatMap(
              r => r.nodes.map(n => `${r.id} .${[...n.element.classList].pop()}`)),
            contrastCells: cells,
          };
        }""",
        [index, WCAG22_AA, list(EXCEPTIONS), UNCLIP],
    )
    return dict(found)


class Scanner:
    """Scans widgets in named states and keeps what axe found; ``check`` fails with all of it."""

    def __init__(self, lab: Any) -> None:
        self.lab = lab
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.scans = 0
        self.passed: set[str] = set()
        self.contrast_cells = 0
        self.undecided: dict[str, set[str]] = {}

    def scan(self, name: str, *indices: int) -> None:
        page = self.lab.page
        page.mouse.move(1, 1)
        for index in indices:
            root = page.locator(".ipyms-root").nth(index)
            label = f"{name}-{'9x9' if index == BEGINNER else '16x30'}"
            self.lab.screenshot(f"a11y-{label}", root)
            self.scans += 1
            result = _axe(page, index)
            self.passed |= set(result["passes"])
            self.contrast_cells += result["contrastCells"]
            for rule in result["incomplete"]:
                self.undecided.setdefault(rule, set()).add(label)
            print(
                f"axe {label}: {len(result['passes'])} rules passed, {result['contrastCells']} cells' "
                f"contrast checked, to review: {result['incomplete']}"
            )
            if result["violations"]:
                self.found[label] = result["violations"]

    def check(self) -> None:
        # axe really looked at the grid, its labels and the numbers' colours (not an empty element)
        assert {"aria-required-children", "aria-required-parent", "color-contrast"} <= self.passed
        assert self.contrast_cells > 50, "axe checked the contrast of the cells' numbers"
        assert self.found == {}, "axe found:\n" + json.dumps(self.found, indent=1)
        unreviewed = {rule: sorted(where) for rule, where in self.undecided.items() if rule not in REVIEWED}
        assert unreviewed == {}, f"axe could not decide these: look, then name them in REVIEWED: {unreviewed}"


def _open(lab: Any) -> None:
    lab.server.write_notebook("a11y.ipynb", CELLS)
    lab.open("a11y.ipynb")
    lab.run_all()
    lab.page.wait_for_function("() => document.querySelectorAll('.ipyms-root .ipyms-board').length === 2")
    assert AXE.exists(), f"{AXE} is missing: run `make js-deps` (npm ci in js/)"
    lab.page.add_script_tag(path=str(AXE))
    assert lab.page.evaluate("() => typeof axe.run") == "function"


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


def _panels(lab: Any, index: int, scanner: Scanner, name: str) -> None:
    """Open the picker, the statistics and the help of widget ``index``, scan, close them."""
    root = _root(lab, index)
    toggles = [".ipyms-picker-toggle", ".ipyms-stats-toggle", ".ipyms-help-toggle"]
    for sel in toggles:
        root.locator(sel).click()
    root.locator(".ipyms-picker").wait_for(state="visible")
    scanner.scan(name, index)
    root.locator(".ipyms-picker-close").click()
    for sel in toggles[1:]:
        root.locator(sel).click()


def _in_progress(lab: Any, scanner: Scanner, theme: str) -> None:
    """Expert: a first click, a hint, the overlay, two steps of the autoplayer, an old board shown."""
    root = _root(lab, EXPERT)
    _first_click(lab, EXPERT, (8, 15))
    root.locator(".ipyms-hint").click()
    root.locator(".ipyms-hint-cell").wait_for()
    root.locator(".ipyms-probabilities").check()
    root.locator(".ipyms-cell[data-probability]").first.wait_for()
    scanner.scan(f"{theme}-hint-overlay", EXPERT)
    root.locator(".ipyms-probabilities").uncheck()
    slider = root.locator(".ipyms-history-slider")
    for n in (2, 3):
        root.locator(".ipyms-step").click()
        lab.page.wait_for_function("([el, n]) => +el.max >= n", arg=[slider.element_handle(), n])
    root.locator(".ipyms-history-back").click()
    _wait(lab, EXPERT, ":not([data-viewing=''])")
    scanner.scan(f"{theme}-history", EXPERT)
    root.locator(".ipyms-live").click()
    _wait(lab, EXPERT, "[data-viewing='']")


def _lose_and_win(lab: Any, scanner: Scanner, theme: str) -> None:
    """Both boards lost (a click on a mine), then the beginner board won by clicks."""
    for index, pos in ((BEGINNER, (4, 4)), (EXPERT, (8, 15))):
        board = _first_click(lab, index, pos)
        cell(_root(lab, index), *a_mine(board)).click()
        _wait(lab, index, "[data-status='lost']")
    scanner.scan(f"{theme}-lost", BEGINNER, EXPERT)
    board = _first_click(lab, BEGINNER, (4, 4))
    for pos in board.positions():
        if not board.is_mine(pos) and cell(_root(lab, BEGINNER), *pos).get_attribute("data-state") == ".":
            _click(lab, BEGINNER, pos)
    _wait(lab, BEGINNER, "[data-status='won']")
    scanner.scan(f"{theme}-won", BEGINNER)


def test_axe_wcag22_aa_light_and_dark(lab: Any) -> None:
    _open(lab)
    scanner = Scanner(lab)
    for theme in ("light", "dark"):
        if theme == "dark":
            lab.set_theme("JupyterLab Dark")
            for index in (BEGINNER, EXPERT):
                _root(lab, index).locator(".ipyms-face").click()
                _wait(lab, index, "[data-status='ready']")
        scanner.scan(f"{theme}-new", BEGINNER, EXPERT)
        _panels(lab, BEGINNER, scanner, f"{theme}-panels")
        _in_progress(lab, scanner, theme)
        _lose_and_win(lab, scanner, theme)
    assert scanner.scans == 2 * 8
    scanner.check()


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
