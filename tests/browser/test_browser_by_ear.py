"""Proof by play: seeded beginner games won by keys and the accessibility tree alone (issue 28).

The player here is what a screen-reader user has: the accessibility tree and one live region. Each move it
reads the grid (``aria_snapshot()``: every cell's name, "row 3, column 4: 2"), builds the player's
:class:`~ipyminesweeper.View` from those names only, asks the ``exact`` strategy for a move, walks the
cursor there with the grid's keys (checking the cursor's name, the root's ``aria-activedescendant``, as a
screen reader reads it) and presses Enter (or F, C). The mine count is heard from T, the end of the game
from the live region (``.ipyms-announce``, role=status). Nothing is read from the kernel's board or from
the cells' DOM attributes.

The same seeds are then played in this process by the same strategy through the Python API
(``Minesweeper(...).step("exact")``): game by game the ending, the number of moves and the final board
(mines shown) must be the same. The figures go to docs/accessibility.md.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from typing import Any

import pytest

from ipyminesweeper import Minesweeper, Move, View, exact
from ipyminesweeper.widget.stats import MemoryStats

pytestmark = pytest.mark.browser

LEVEL = "beginner"
SEEDS = tuple(range(1, 1 + int(os.environ.get("IPYMS_EAR_GAMES", "20"))))
WIN_FLOOR = 0.7  # exact wins about 90% of beginner games: fewer than 70% is a bug, not bad luck
MOVE_TIMEOUT_S = 30.0

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
    """One widget as a screen-reader user meets it: its grid's names, its cursor's name, its live region."""

    def __init__(self, page: Any, index: int) -> None:
        self.page = page
        self.root = page.locator(".ipyms-root").nth(index)
        self.grid = self.root.get_by_role("grid")
        self.region = self.root.locator(".ipyms-announce")
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
        found = CELL_NAME.search(self.page.locator(f'[id="{cell_id}"]').aria_snapshot())
        assert found, f"the cursor {cell_id!r} has no cell name"
        return int(found[1]), int(found[2]), WORDS[found[3]]

    def hear(self, key: str | None, pattern: str) -> str:
        """Press ``key`` (if any) and wait until the live region says something matching ``pattern``."""
        if key:
            self.page.keyboard.press(key)
        deadline = time.monotonic() + MOVE_TIMEOUT_S
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
            deadline = time.monotonic() + MOVE_TIMEOUT_S
            while (now := self.names()) == snapshot:
                assert time.monotonic() < deadline, f"seed {seed}: {move} changed nothing in the grid"
                self.page.wait_for_timeout(20)
            snapshot, view = now, self.view(now, mines)
        said = self.hear(None, r"\b(won|lost)\b")  # the end of the game, said at once
        return Game(seed, view.status, moves, view.to_text(), said)


def api_game(seed: int) -> Game:
    """The same seeded game, played in this process by the same strategy through the widget's Python API."""
    w = Minesweeper(LEVEL, seed=seed, stats_store=MemoryStats())
    moves = 0
    while not w.board.over:
        w.step("exact")
        moves += 1
    return Game(seed, w.board.status, moves, w.board.view.to_text())


def test_win_by_ear(lab: Any) -> None:
    """Seeded beginner games played from the accessibility tree and keys only, and the same games played by
    the Python API: the same ending, moves and final board, game by game; most of them won."""
    page = lab.page
    lab.server.write_notebook(
        "by-ear.ipynb",
        [
            "from ipyminesweeper import Minesweeper\n"
            f"games = [Minesweeper({LEVEL!r}, seed=s) for s in {list(SEEDS)!r}]\n"
            "display(*games)"
        ],
    )
    lab.open("by-ear.ipynb")
    lab.run_all()
    page.wait_for_function(
        "n => document.querySelectorAll('.ipyms-root .ipyms-board[role=grid]').length === n", arg=len(SEEDS)
    )
    started = time.monotonic()
    by_ear: list[Game] = []
    for index, seed in enumerate(SEEDS):
        game = Listener(page, index).play(seed)
        by_ear.append(game)
        print(f"seed {seed:2}: by ear {game.status} in {game.moves} moves; {game.said!r}")
        if game.status == "won" and sum(g.status == "won" for g in by_ear) == 1:
            lab.screenshot("by-ear-won", page.locator(".ipyms-root").nth(index))
    seconds = time.monotonic() - started
    by_api = [api_game(seed) for seed in SEEDS]

    ear_wins = sum(g.status == "won" for g in by_ear)
    api_wins = sum(g.status == "won" for g in by_api)
    print(
        f"{len(SEEDS)} {LEVEL} games, seeds {SEEDS[0]}-{SEEDS[-1]}: won by ear {ear_wins}, by the Python API "
        f"{api_wins}; {sum(g.moves for g in by_ear)} moves by ear in {seconds:.0f} s"
    )
    assert [(g.seed, g.status, g.moves) for g in by_ear] == [(g.seed, g.status, g.moves) for g in by_api]
    assert [g.board for g in by_ear] == [g.board for g in by_api], "the final boards differ"
    for game in by_ear:
        assert re.search(rf"\b{game.status}\b", game.said), f"seed {game.seed}: heard {game.said!r}"
    assert ear_wins >= WIN_FLOOR * len(SEEDS)
