"""The board on the wire in JupyterLab (widget/board_wire.py): a click comes back as a patch, a call from a
notebook cell sends the whole board, and the page shows exactly the engine's view after either. A second
view of the same widget, made after patched moves, starts from the board on screen (js/widget.js writes
the patched board back into the model's state).

The test process computes with the engine (same seed) what each action must produce; a probe cell reads
what the kernel last sent (the version of the board and the size of the last patch).
"""

from __future__ import annotations

from typing import Any

import pytest
from ipyms_browser import cell

from ipyminesweeper import Board, new_board, reveal, toggle_flag

pytestmark = pytest.mark.browser

SEED, ROWS, COLS, MINES = 31, 40, 40, 240


def drawn(page: Any, view: int) -> dict[int, str]:
    """The cells drawn by the ``view``-th widget view on the page: flat index -> data-state."""
    return {
        int(k): v
        for k, v in page.evaluate(
            """(n) => { const root = document.querySelectorAll('.ipyms-root')[n]; const out = {};
              const cols = +root.querySelector('.ipyms-board').dataset.cols;
              for (const c of root.querySelectorAll('.ipyms-cell'))
                out[+c.dataset.row * cols + +c.dataset.col] = c.dataset.state;
              return out; }""",
            view,
        ).items()
    }


def wait_shows(page: Any, board: Board, view: int = 0) -> None:
    """Wait until every cell the ``view``-th view draws shows the engine's view of ``board``."""
    page.wait_for_function(
        """([n, cells]) => { const root = document.querySelectorAll('.ipyms-root')[n];
          if (!root) return false;
          const cols = +root.querySelector('.ipyms-board').dataset.cols;
          const drawn = root.querySelectorAll('.ipyms-cell');
          for (const c of drawn)
            if (cells[+c.dataset.row * cols + +c.dataset.col] !== c.dataset.state) return false;
          return drawn.length > 0; }""",
        arg=[view, board.view.cells],
        timeout=60_000,
    )
    shown = drawn(page, view)
    assert len(shown) > 100 and all(board.view.cells[i] == ch for i, ch in shown.items())


def covered(board: Board, *, mine: bool, number: bool = True) -> tuple[int, int]:
    return next(
        p
        for p in board.positions()
        if board.view[p] == "." and board.is_mine(p) == mine and (mine or (board.count(p) > 0) == number)
    )


def test_clicks_travel_as_patches_and_python_calls_whole(lab: Any) -> None:
    page = lab.page
    board = reveal(new_board(ROWS, COLS, MINES, seed=SEED), (20, 20))
    flagged = covered(board, mine=True)
    by_python = covered(toggle_flag(board, flagged), mine=True)  # flagged from a notebook cell
    lab.server.write_notebook(
        "patches.ipynb",
        [
            "from ipyminesweeper import Minesweeper\n"
            f"w = Minesweeper(rows={ROWS}, cols={COLS}, mines={MINES}, seed={SEED})\nw",
            "import json\n"
            "print('PROBE ' + json.dumps({'cells': w.cells, 'version': w.cells_version,\n"
            "    'patch': len(w.board_patch)}))",
            f"if w.status == 'playing':\n    w.flag{by_python}",  # run again below, once playing
            "w if w.status == 'playing' else None",  # a second view, once playing
        ],
    )
    lab.open("patches.ipynb")
    lab.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    start = lab.probe(1)

    # A click: the kernel answers with a patch, and the page shows exactly the engine's board.
    cell(page, 20, 20).click()
    wait_shows(page, board, 0)
    after_click = lab.probe(1)
    assert after_click["cells"] == board.view.cells
    assert after_click["version"] == start["version"] + 1 and 0 < after_click["patch"] < 200

    # A flag: a patch of a few bytes, whatever the board.
    board = toggle_flag(board, flagged)
    cell(page, *flagged).click(button="right")
    wait_shows(page, board, 0)
    probe = lab.probe(1)
    assert probe["cells"] == board.view.cells and 0 < probe["patch"] <= 6

    # A call from the notebook: the whole board goes (no patch), and the page shows it.
    board = toggle_flag(board, by_python)
    lab.run_cell(2)
    wait_shows(page, board, 0)
    probe = lab.probe(1)
    assert probe["cells"] == board.view.cells and probe["patch"] == 0

    # Another click after the whole board: a patch again, applied on top of it.
    opened = covered(board, mine=False, number=False)
    board = reveal(board, opened)
    cell(page, *opened).click()
    wait_shows(page, board, 0)
    probe = lab.probe(1)
    assert probe["cells"] == board.view.cells and probe["patch"] > 0
    page.locator(".ipyms-root").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    lab.screenshot("lab-patches")

    # A second view of the same widget starts from the board the first one shows.
    lab.run_cell(3)
    page.wait_for_function("() => document.querySelectorAll('.ipyms-root').length === 2")
    wait_shows(page, board, 1)
    page.locator(".ipyms-root").nth(1).evaluate("e => e.scrollIntoView({block: 'start'})")
    lab.screenshot("lab-patches-second-view")
