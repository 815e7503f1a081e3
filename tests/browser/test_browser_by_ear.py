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
import time
from typing import Any

import pytest
from ipyms_a11y import Game, Listener, api_game, check_same_games

pytestmark = pytest.mark.browser

LEVEL = "beginner"
SEEDS = tuple(range(1, 1 + int(os.environ.get("IPYMS_EAR_GAMES", "20"))))


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
        game = Listener(page, page.locator(".ipyms-root").nth(index)).play(seed)
        by_ear.append(game)
        print(f"seed {seed:2}: by ear {game.status} in {game.moves} moves; {game.said!r}")
        if game.status == "won" and sum(g.status == "won" for g in by_ear) == 1:
            lab.screenshot("by-ear-won", page.locator(".ipyms-root").nth(index))
    seconds = time.monotonic() - started
    by_api = [api_game(LEVEL, seed) for seed in SEEDS]

    ear_wins = sum(g.status == "won" for g in by_ear)
    api_wins = sum(g.status == "won" for g in by_api)
    print(
        f"{len(SEEDS)} {LEVEL} games, seeds {SEEDS[0]}-{SEEDS[-1]}: won by ear {ear_wins}, by the Python API "
        f"{api_wins}; {sum(g.moves for g in by_ear)} moves by ear in {seconds:.0f} s"
    )
    check_same_games(by_ear, by_api)
