"""Shared by the accessibility tests of every host (JupyterLab, Notebook 7, marimo, the offline site).

- **axe-core**: ``load_axe`` puts axe (the npm package, a devDependency of js/package.json: ``make js-deps``
  installs it) into a page; ``Scanner`` runs it on one widget's root at a time (an element handle, so a root
  inside marimo's shadow root works too) with the WCAG 2.2 AA tags, saves a picture of each state, and
  ``check`` fails with everything it found. Scoping each scan to the widget's root leaves the host's own
  page (JupyterLab's, Notebook 7's, marimo's chrome) out: this project answers for the widget only.
- **game states**: ``scan_game_states`` plays a widget of a known seed through a new game, its panels open,
  a move, a hint with the probability overlay, an old board from the history, a loss and (on a second
  widget) a win, predicting each board with the engine, and scans each state.
- **by ear**: ``Listener`` plays a widget from its accessibility tree, its live region and keys only, deciding
  with ``exact``; ``api_game`` plays the same seed through the Python API; ``check_same_games`` compares them.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ipyms_browser import a_mine

from ipyminesweeper import Board, Minesweeper, Move, View, exact, reveal
from ipyminesweeper.widget.stats import MemoryStats

# --------------------------------------------------------------------------------------------------
# axe-core
# --------------------------------------------------------------------------------------------------

AXE = Path(__file__).resolve().parents[2] / "js/node_modules/axe-core/axe.min.js"
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# JupyterLab 4's body (`.jp-ThemedContainer`) is 0 px high with `overflow: hidden` (the shell is placed
# absolutely inside it), so axe takes every text in the page for clipped and skips `color-contrast` on all
# of it (checked: the rule then sees only the form fields). While axe runs, the scan lifts that clip (the
# shell fills the window: nothing moves), so that the contrast of the widget's text, the cells' numbers
# included, is checked. (Notebook 7 and the offline site are JupyterLab's shell too; in marimo it changes
# nothing.)
UNCLIP = "body { overflow: visible !important; }"

# Rules switched off, rule id -> why. Empty: every WCAG 2.2 A/AA rule of axe applies, in every host.
EXCEPTIONS: dict[str, str] = {}

# Violations accepted on one element, "rule element" (the element by its last class) -> why it is not a
# failure of the WCAG criterion. Any other violation, of the same rule on another element included, fails.
# Empty since issue 55: the one accepted before (scrollable-region-focusable on the 1000x1000 board's box) is
# undecided now that the cells can take the focus, and reviewed below.
ACCEPTED: dict[str, str] = {}

# What axe cannot decide and leaves for a person ("incomplete"), "rule element" -> what a person checked
# (the element by its last class). Anything else undecided fails the test, until someone looks and names it.
SYMBOLS = (
    "the history's arrows and the zoom's minus and plus show a symbol, not words, so WCAG 2.5.3 "
    "(label in name) has no visible text to match: their names say what the symbol does"
)
REVIEWED: dict[str, str] = {
    **{
        f"label-content-name-mismatch .ipyms-{name}": SYMBOLS
        for name in ("history-back", "history-forward", "zoom-out", "zoom-in", "review-prev", "review-next")
    },
    "scrollable-region-focusable .ipyms-board-wrap": "a board larger than its box scrolls with the keyboard "
    "cursor: the widget's root, its one tab stop (the APG grid's), takes the arrows, Page and Home/End keys "
    "and the board scrolls to keep the cursor's cell in sight (test_grid_keys_on_a_virtual_board, "
    "test_cursor_is_not_hidden_under_the_labels), so the region is operable by keyboard (WCAG 2.1.1). Its "
    "cells can take the focus (tabindex -1: a screen reader leaving browse mode on one focuses it, issue 55) "
    "but are no tab stops, and axe, which asks for a tab stop inside every box that scrolls, leaves that "
    "undecided. It was a violation, accepted, before the cells could take the focus. On the 1000x1000 board "
    "only, after a hint, from an old board and after a loss: axe applies the rule only where it finds "
    "content in the drawn cells just outside the box",
    "color-contrast .ipyms-zoom-out": "its only text is the minus sign, which axe does not measure; it has "
    "the text colour of the other buttons, which axe measured",
    "color-contrast .ipyms-message": "with the panels open the picker, a dialog over the board, covers the "
    "status line (its 24 px targets made it taller), and axe does not measure text under another "
    "element; the line's colours are measured in every other state",
}

# The rules that must have passed somewhere, so that a scan is known to have looked at the grid, its
# labels and the numbers' colours (not at an empty element).
MUST_PASS = frozenset({"aria-required-children", "aria-required-parent", "color-contrast"})

AXE_JS = """async ([root, tags, off, unclip]) => {
  const rules = Object.fromEntries(off.map(id => [id, {enabled: false}]));
  const options = {runOnly: {type: 'tag', values: tags}, rules, elementRef: true};
  const style = document.createElement('style');
  style.textContent = unclip;
  document.head.append(style);
  const result = await axe.run(root, options).finally(() => style.remove());
  const contrast = [...result.passes, ...result.violations].filter(r => r.id === 'color-contrast');
  // a number is a span in its cell (aria-hidden: the cell's name is read, and axe measures its colours still)
  const cells = contrast.flatMap(r => r.nodes).filter(n => n.element.closest('.ipyms-cell')).length;
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
}"""


# ARIA 1.3's text alternatives of aria-rowindex and aria-colindex, which axe 4.14 does not know yet (its
# aria-valid-attr would call them invalid names): a string each, on cells (gridcell inherits them from cell)
# and rows, as https://w3c.github.io/aria/#aria-colindextext says. The cells carry them (a space: the cell's
# name says its coordinates, in the board's 0-based numbering, so that no screen reader adds its 1-based
# index: issue 55, docs/accessibility.md). This teaches axe the two attributes and where they are allowed;
# every rule still runs, and a misspelt or misplaced attribute still fails. They are defined as axe defines
# every string attribute of ARIA 1.2 it knows (aria-label, aria-valuetext, aria-roledescription, ...): a
# string, allowed to be empty or blank.
ARIA_13_INDEX_TEXTS = ("aria-colindextext", "aria-rowindextext")
ARIA_13_JS = """(names) => {
  const standards = axe.utils.getStandards();
  const ariaAttrs = Object.fromEntries(names.map(name => [name, {type: 'string', allowEmpty: true}]));
  const ariaRoles = Object.fromEntries(['cell', 'gridcell', 'row', 'columnheader', 'rowheader'].map(role =>
    [role, {allowedAttrs: [...(standards.ariaRoles[role].allowedAttrs || []), ...names]}]));
  axe.configure({standards: {ariaAttrs, ariaRoles}});
  return Object.keys(axe.utils.getStandards().ariaAttrs).filter(name => names.includes(name)).length;
}"""


def load_axe(page: Any) -> None:
    """Put axe-core into ``page`` (once per page load), with ARIA 1.3's index texts (ARIA_13_JS)."""
    assert AXE.exists(), f"{AXE} is missing: run `make js-deps` (npm ci in js/)"
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("() => typeof axe.run") == "function"
    assert page.evaluate(ARIA_13_JS, list(ARIA_13_INDEX_TEXTS)) == len(ARIA_13_INDEX_TEXTS)


def axe(page: Any, root: Any) -> dict[str, Any]:
    """axe on the widget whose root is the locator ``root``: its violations (rule, impact, nodes, one for
    each distinct failure), the rules that passed with their node counts, what it left for a person to
    review (``incomplete``: rule and element) and how many cells' contrast it measured."""
    return dict(page.evaluate(AXE_JS, [root.element_handle(), WCAG22_AA, list(EXCEPTIONS), UNCLIP]))


class Scanner:
    """Scans widgets in named states and keeps what axe found; ``check`` fails with all of it.

    ``screenshot(name, locator)`` saves a picture of each state scanned (as ``a11y-<label>``)."""

    def __init__(self, page: Any, screenshot: Callable[[str, Any], object]) -> None:
        self.page = page
        self.screenshot = screenshot
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.scanned: list[str] = []
        self.passed: set[str] = set()
        self.contrast_cells = 0
        self.undecided: dict[str, set[str]] = {}
        self.accepted: dict[str, set[str]] = {}

    def scan(self, label: str, root: Any) -> None:
        self.page.mouse.move(1, 1)
        root.scroll_into_view_if_needed()
        # axe skips the contrast and the label-in-name of what is out of the window: all of it must be in
        box, height = root.bounding_box(), self.page.viewport_size["height"]
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (
            f"{label}: the widget ({box}) does not fit in the window ({height} px high), so axe would skip "
            "part of it: make the window higher"
        )
        self.screenshot(f"a11y-{label}", root)
        self.scanned.append(label)
        result = axe(self.page, root)
        self.passed |= set(result["passes"])
        self.contrast_cells += result["contrastCells"]
        for rule in result["incomplete"]:
            self.undecided.setdefault(rule, set()).add(label)
        print(
            f"axe {label}: {len(result['violations'])} violations, {len(result['passes'])} rules passed, "
            f"{result['contrastCells']} cells' contrast checked, to review: {result['incomplete']}"
        )
        found = [v for v in result["violations"] if not self._accept(label, v)]
        if found:
            self.found[label] = found

    def _accept(self, label: str, violation: dict[str, Any]) -> bool:
        """Whether every node of ``violation`` is named in ``ACCEPTED`` (then it is kept, by label)."""
        names = {f"{violation['id']} .{target.split('.')[-1]}" for _, target in violation["distinct"]}
        if not names <= ACCEPTED.keys():
            return False
        for name in names:
            self.accepted.setdefault(name, set()).add(label)
            print(f"axe {label}: accepted {name} (see ACCEPTED)")
        return True

    def check(self, contrast_cells: int = 50) -> None:
        """Fail on any violation or unreviewed undecided result, or if axe did not really look."""
        assert self.found == {}, "axe found:\n" + json.dumps(self.found, indent=1)
        unreviewed = {rule: sorted(where) for rule, where in self.undecided.items() if rule not in REVIEWED}
        assert unreviewed == {}, f"axe could not decide these: look, then name them in REVIEWED: {unreviewed}"
        assert self.passed >= MUST_PASS, f"axe never passed {sorted(MUST_PASS - self.passed)}"
        assert self.contrast_cells > contrast_cells, (
            f"axe checked the contrast of only {self.contrast_cells} cells' numbers"
        )


# --------------------------------------------------------------------------------------------------
# Game states, in any host (a root locator; no document.querySelector, which cannot see a shadow root)
# --------------------------------------------------------------------------------------------------

SLOW_MS = 240_000  # a move on a 1000x1000 board, or in Pyodide on a busy machine

VIEW_JS = """([root, cells, cols]) => {
  const drawn = root.querySelectorAll('.ipyms-cell');
  if (!drawn.length) return false;
  for (const c of drawn) if (c.dataset.state !== cells[+c.dataset.row * cols + +c.dataset.col]) return false;
  return true;
}"""


def root_cell(root: Any, pos: tuple[int, int]) -> Any:
    return root.locator(f'.ipyms-cell[data-row="{pos[0]}"][data-col="{pos[1]}"]')


def wait_view(page: Any, root: Any, board: Board, timeout: int = SLOW_MS) -> None:
    """Wait until every cell the widget ``root`` draws shows ``board``'s view."""
    page.wait_for_function(
        VIEW_JS, arg=[root.element_handle(), board.view.cells, board.cols], timeout=timeout
    )


def wait_root_status(page: Any, root: Any, status: str, timeout: int = SLOW_MS) -> None:
    page.wait_for_function(
        "([root, s]) => root.dataset.status === s", arg=[root.element_handle(), status], timeout=timeout
    )


def click(page: Any, root: Any, board: Board, pos: tuple[int, int]) -> Board:
    """Click the covered cell ``pos`` of ``board`` (what the widget shows) and wait until the widget shows
    the board the engine predicts; returns it."""
    after = reveal(board, pos)
    root_cell(root, pos).click()
    wait_view(page, root, after)
    wait_root_status(page, root, after.status)
    return after


GAME_STATES = ("new", "panels", "move", "hint", "history", "lost", "won")


def game_state_labels(name: str) -> list[str]:
    """What ``scan_game_states`` scans, in order."""
    return [f"{name}-{state}" for state in GAME_STATES]


PANEL_TOGGLES = (".ipyms-picker-toggle", ".ipyms-stats-toggle", ".ipyms-help-toggle")


def scan_panels(scanner: Scanner, root: Any, label: str) -> None:
    """Open the picker, the statistics and the help of the widget ``root`` at once, scan, close them."""
    for toggle in PANEL_TOGGLES:
        root.locator(toggle).click()
    root.locator(".ipyms-picker").wait_for(state="visible")
    root.locator(".ipyms-help-panel").wait_for(state="visible")
    scanner.scan(label, root)
    root.locator(".ipyms-picker-close").click()
    for toggle in PANEL_TOGGLES[1:]:
        root.locator(toggle).click()
    root.locator(".ipyms-help-panel").wait_for(state="hidden")


def scan_hint_and_history(scanner: Scanner, page: Any, root: Any, name: str) -> None:
    """On a game in progress: scan ``<name>-hint`` (a hint and the probability overlay shown), then
    ``<name>-history`` (the board before the last move); back to the live game. The board is unchanged."""
    root.locator(".ipyms-hint").click()
    root.locator(".ipyms-hint-cell").wait_for(timeout=SLOW_MS)
    root.locator(".ipyms-probabilities").check()
    root.locator(".ipyms-cell[data-probability]").first.wait_for(timeout=SLOW_MS)
    scanner.scan(f"{name}-hint", root)
    root.locator(".ipyms-probabilities").uncheck()
    root.locator(".ipyms-history-back").click()
    page.wait_for_function("root => root.dataset.viewing !== ''", arg=root.element_handle(), timeout=SLOW_MS)
    scanner.scan(f"{name}-history", root)
    root.locator(".ipyms-live").click()
    page.wait_for_function("root => root.dataset.viewing === ''", arg=root.element_handle(), timeout=SLOW_MS)


def scan_game_states(
    scanner: Scanner,
    page: Any,
    name: str,
    lose: tuple[Any, Board],
    win: tuple[Any, Board],
    first: tuple[int, int],
) -> None:
    """Scan ``<name>-new``, ``-panels``, ``-move``, ``-hint``, ``-history`` and ``-lost`` on the widget of
    ``lose`` (root locator, the board it starts with), then ``-won`` on the widget of ``win``: a first
    click at ``first`` in each, a mine clicked in the first, every safe cell still covered clicked in the
    second (in reading order). The host must show the widget with its panels open whole (``Scanner.scan``).
    """
    root, board = lose
    scanner.scan(f"{name}-new", root)
    scan_panels(scanner, root, f"{name}-panels")
    board = click(page, root, board, first)
    assert board.status == "playing"
    scanner.scan(f"{name}-move", root)
    scan_hint_and_history(scanner, page, root, name)
    board = click(page, root, board, a_mine(board))
    assert board.status == "lost"
    scanner.scan(f"{name}-lost", root)
    root, board = win
    board = click(page, root, board, first)
    for pos in board.positions():
        if board.status != "playing":
            break
        if not board.is_mine(pos) and board.view[pos] == ".":
            board = click(page, root, board, pos)
    assert board.status == "won"
    scanner.scan(f"{name}-won", root)


# --------------------------------------------------------------------------------------------------
# By ear
# --------------------------------------------------------------------------------------------------

MOVE_TIMEOUT_S = 30.0
WIN_FLOOR = 0.7  # exact wins about 90% of beginner games: fewer than 70% is a bug, not bad luck

# A cell's name as the widget writes it (js/helpers.js cellLabel), and the words of js/helpers.js
# describeCell back to the view's alphabet (numbers are said as digits: "row 0, column 3: 2").
CELL_NAME = re.compile(r'gridcell "row (\d+), column (\d+): ([^",]+)(?:, [^"]*)?"')
WORDS = {
    "covered": ".",
    "flagged": "f",
    "empty": "0",
    "mine": "*",
    "exploded mine": "X",
    "flagged mine": "F",
    "wrong flag": "x",
    **{str(n): str(n) for n in range(1, 9)},
}
KEY = {"reveal": "Enter", "flag": "f", "chord": "c"}


@dataclass
class Game:
    seed: int
    status: str
    moves: int
    board: str  # the final view as text (mines shown)
    said: str = ""  # the live region at the end


class Listener:
    """One widget as a screen-reader user meets it: its grid's names, its cursor's name, its live region.

    ``move_timeout`` is how long one move may take to show (Pyodide on a busy machine is slower)."""

    def __init__(self, page: Any, root: Any, move_timeout: float = MOVE_TIMEOUT_S) -> None:
        self.page = page
        self.root = root
        self.grid = root.get_by_role("grid")
        self.region = root.locator(".ipyms-announce")
        self.move_timeout = move_timeout
        assert self.region.get_attribute("role") == "status"

    def names(self) -> str:
        return str(self.grid.aria_snapshot())

    def view(self, snapshot: str, mines: int) -> View:
        """The player's view, from the cells' names alone."""
        cells = {(int(r), int(c)): WORDS[word] for r, c, word in CELL_NAME.findall(snapshot)}
        rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
        assert len(cells) == rows * cols, f"{len(cells)} cells named, not {rows}x{cols}"
        text = "\n".join("".join(cells[r, c] for c in range(cols)) for r in range(rows))
        return View.from_text(text, mines=mines)

    def said(self) -> str:
        return str(self.region.inner_text()).strip()

    def cursor(self) -> tuple[int, int, str]:
        """The cursor's cell as a screen reader reads it: the name of the aria-activedescendant."""
        cell_id = self.root.get_attribute("aria-activedescendant")
        found = CELL_NAME.search(self.root.locator(f'[id="{cell_id}"]').aria_snapshot())
        assert found, f"the cursor {cell_id!r} has no cell name"
        return int(found[1]), int(found[2]), WORDS[found[3]]

    def hear(self, key: str | None, pattern: str) -> str:
        """Press ``key`` (if any) and wait until the live region says something matching ``pattern``."""
        if key:
            self.page.keyboard.press(key)
        deadline = time.monotonic() + self.move_timeout
        while not re.search(pattern, said := self.said()):
            assert time.monotonic() < deadline, f"after {key} the live region said {said!r}, not /{pattern}/"
            self.page.wait_for_timeout(20)
        return said

    def go(self, target: tuple[int, int], cols: int) -> None:
        """Walk the cursor to ``target`` with the grid's keys: rows by arrows, columns by arrows or from
        Home/End, whichever is fewer presses; then check the cursor's name says ``target``."""
        r0, c0, _ = self.cursor()
        r, c = target
        keys = ["ArrowDown" if r > r0 else "ArrowUp"] * abs(r - r0)
        ways = [
            ["ArrowRight" if c > c0 else "ArrowLeft"] * abs(c - c0),
            ["Home"] + ["ArrowRight"] * c,
            ["End"] + ["ArrowLeft"] * (cols - 1 - c),
        ]
        for key in keys + min(ways, key=len):
            self.page.keyboard.press(key)
        assert self.cursor()[:2] == target, f"the cursor is at {self.cursor()}, not {target}"

    def play(self, seed: int) -> Game:
        """Play one game to its end, by ear."""
        self.root.focus()
        self.page.keyboard.press("Control+Home")
        heard = self.hear("t", r"\d+ mines? left")
        mines = int(re.search(r"(-?\d+) mines? left", heard)[1])  # type: ignore[index]
        snapshot, moves = self.names(), 0
        view = self.view(snapshot, mines)
        while not view.over:
            assert moves < view.rows * view.cols, f"seed {seed}: no end after {moves} moves"
            move: Move = exact(view)
            self.go(move.pos, view.cols)
            self.page.keyboard.press(KEY[move.action])
            moves += 1
            deadline = time.monotonic() + self.move_timeout
            while (now := self.names()) == snapshot:
                assert time.monotonic() < deadline, f"seed {seed}: {move} changed nothing in the grid"
                self.page.wait_for_timeout(20)
            snapshot, view = now, self.view(now, mines)
        said = self.hear(None, r"\b(won|lost)\b")  # the end of the game, said at once
        return Game(seed, view.status, moves, view.to_text(), said)


def api_game(level: str, seed: int) -> Game:
    """The same seeded game, played in this process by the same strategy through the widget's Python API."""
    w = Minesweeper(level, seed=seed, stats_store=MemoryStats())
    moves = 0
    while not w.board.over:
        w.step("exact")
        moves += 1
    return Game(seed, w.board.status, moves, w.board.view.to_text())


def check_same_games(by_ear: list[Game], by_api: list[Game]) -> None:
    """Game by game, the same ending, moves and final board; each ending heard; most games won."""
    assert [(g.seed, g.status, g.moves) for g in by_ear] == [(g.seed, g.status, g.moves) for g in by_api]
    assert [g.board for g in by_ear] == [g.board for g in by_api], "the final boards differ"
    for game in by_ear:
        assert re.search(rf"\b{game.status}\b", game.said), f"seed {game.seed}: heard {game.said!r}"
    assert sum(g.status == "won" for g in by_ear) >= WIN_FLOOR * len(by_ear)
