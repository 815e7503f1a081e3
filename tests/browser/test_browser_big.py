"""The engine's biggest boards in JupyterLab: 1000x1000 (150,000 mines), 2000x2000 (the 4,000,000-cell cap).

Only the cells in view (plus a margin) are drawn, so the grid opens in seconds and stays responsive. The
test process computes with the engine (same seed) what each action must produce and compares it with the
cells the page draws; a light probe cell reads the kernel's side (no 4 MB board printed). The overlay is
checked too: the kernel sends the probabilities of the cells next to a number, and one for all the others.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from ipyms_browser import cell, wait_status

from ipyminesweeper import Board, chord, new_board, probabilities, reveal, toggle_flag

pytestmark = pytest.mark.browser

SEED = 99
SLOW_MS = 240_000  # one move on a 4,000,000-cell board: Python rebuilds and sends the board


def big_cells(rows: int, mines: int) -> list[str]:
    return [
        "from ipyminesweeper import Minesweeper\n"
        f"w = Minesweeper(rows={rows}, cols={rows}, mines={mines}, seed={SEED})\nw",
        "import json\n"
        "print('PROBE ' + json.dumps({'status': w.status, 'mines_left': w.mines_left,\n"
        "    'history': len(w.history), 'covered': w.board.view.cells.count('.'),\n"
        "    'hint': [w.hint_move.get('row'), w.hint_move.get('col')]}))",
    ]


def drawn(page: Any) -> dict[int, str]:
    """The drawn cells: flat index -> data-state."""
    return {
        int(k): v
        for k, v in page.evaluate(
            """() => { const cols = +document.querySelector('.ipyms-board').dataset.cols; const out = {};
              for (const c of document.querySelectorAll('.ipyms-cell'))
                out[+c.dataset.row * cols + +c.dataset.col] = c.dataset.state;
              return out; }"""
        ).items()
    }


def wait_drawn(page: Any, board: Board, timeout: int = SLOW_MS) -> None:
    """Wait until every drawn cell shows the engine's view of ``board``."""
    page.wait_for_function(
        """([pairs]) => { const cols = +document.querySelector('.ipyms-board').dataset.cols;
          const want = new Map(pairs);
          const cells = document.querySelectorAll('.ipyms-cell');
          for (const c of cells) { const i = +c.dataset.row * cols + +c.dataset.col;
            if (want.has(i) && want.get(i) !== c.dataset.state) return false; }
          return cells.length > 0; }""",
        arg=[[[i, board.view.cells[i]] for i in drawn(page)]],
        timeout=timeout,
    )
    states = drawn(page)
    assert all(board.view.cells[i] == ch for i, ch in states.items())


def visible_in_wrap(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """sel => { const el = document.querySelector(sel); if (!el) return false;
              const w = document.querySelector('.ipyms-board-wrap').getBoundingClientRect();
              const b = el.getBoundingClientRect();
              return b.top >= w.top - 1 && b.bottom <= w.bottom + 1
                && b.left >= w.left - 1 && b.right <= w.right + 1; }""",
            selector,
        )
    )


def chord_spot(board: Board, near: set[int]) -> tuple[tuple[int, int], list[tuple[int, int]]] | None:
    """A drawn revealed number whose mines can be flagged and whose chord reveals something."""
    for i in sorted(near):
        pos = divmod(i, board.cols)
        ch = board.view.cells[i]
        if not ch.isdigit() or ch == "0":
            continue
        around = [p for p in board.neighbours(pos) if board.view[p] == "."]
        mines = [p for p in around if board.is_mine(p)]
        if 0 < len(mines) < len(around) and all(p[0] * board.cols + p[1] in near for p in around):
            return pos, mines
    return None


@pytest.mark.parametrize(("size", "mines"), [(1000, 150_000), (2000, 600_000)])
def test_big_board_plays(lab: Any, size: int, mines: int) -> None:
    page = lab.page
    name = f"big{size}.ipynb"
    lab.server.write_notebook(name, big_cells(size, mines))
    lab.open(name)
    lab.run_all(timeout=SLOW_MS)
    page.wait_for_selector(".ipyms-root .ipyms-cell", timeout=SLOW_MS)
    grid = page.locator(".ipyms-board")
    counts = (grid.get_attribute("aria-rowcount"), grid.get_attribute("aria-colcount"))
    assert counts == (str(size), str(size))
    assert 0 < page.locator(".ipyms-cell").count() < 20_000, "only what is in view is drawn"
    assert page.locator(".ipyms-minimap").is_visible()
    assert page.locator(".ipyms-position").inner_text().endswith(f"of {size}")

    # Reveal: the first click opens an area, exactly as the engine says.
    first = (6, 6)
    expected = reveal(new_board(size, size, mines, seed=SEED), first)
    cell(page, *first).click()
    wait_drawn(page, expected)
    wait_status(page, "playing", timeout=SLOW_MS)

    # Flag, then chord: flag a drawn number's mines and click the number.
    spot = chord_spot(expected, set(drawn(page)))
    assert spot is not None, "the opening has a number to chord"
    number, to_flag = spot
    for pos in to_flag:
        expected = toggle_flag(expected, pos)
        cell(page, *pos).click(button="right")
        wait_drawn(page, expected)
    assert page.locator(".ipyms-counter").inner_text().strip() == str(mines - len(to_flag))
    expected = chord(expected, number)
    cell(page, *number).click()
    wait_drawn(page, expected)
    state = lab.probe(1)
    assert state["covered"] == expected.view.cells.count(".") and state["status"] == "playing"
    page.locator(".ipyms-root").evaluate("e => e.scrollIntoView({block: 'start'})")
    lab.screenshot(f"lab-big-{size}")

    # The overlay: every drawn covered cell shows the engine's probability (the kernel lists the cells
    # next to a number and sends one value for all the others, which no number tells apart).
    page.locator(".ipyms-probabilities").check()
    page.wait_for_selector(".ipyms-cell[data-probability]", state="attached", timeout=SLOW_MS)
    want = probabilities(expected.view)
    shown = page.evaluate(
        """() => { const cols = +document.querySelector('.ipyms-board').dataset.cols;
          return [...document.querySelectorAll('.ipyms-cell[data-probability]')]
            .map(c => [+c.dataset.row * cols + +c.dataset.col, +c.dataset.probability]); }"""
    )
    covered = [i for i, ch in drawn(page).items() if ch in ".f"]
    assert len(shown) == len(covered) > 0
    assert all(abs(p - want[divmod(i, size)]) <= 1e-4 for i, p in shown)
    assert len({p for _, p in shown}) > 2, "frontier cells and the shared value of the others"
    page.locator(".ipyms-board-wrap").evaluate("e => e.scrollIntoView({block: 'start'})")
    lab.screenshot(f"lab-big-{size}-overlay")
    page.locator(".ipyms-probabilities").uncheck()
    page.wait_for_selector(".ipyms-cell[data-probability]", state="detached", timeout=SLOW_MS)

    # The keyboard cursor is scrolled into view, far from where it started (the last click put it there).
    page.locator(".ipyms-root").focus()
    page.keyboard.press("End")
    for _ in range(30):
        page.keyboard.press("ArrowDown")
    target = f".ipyms-cell.ipyms-cursor[data-row='{number[0] + 30}'][data-col='{size - 1}']"
    page.wait_for_selector(target)
    page.wait_for_function(
        "sel => { const el = document.querySelector(sel);"
        " const w = document.querySelector('.ipyms-board-wrap');"
        " const a = el.getBoundingClientRect(), b = w.getBoundingClientRect();"
        " return a.right <= b.right + 1 && a.left >= b.left - 1 && a.bottom <= b.bottom + 1; }",
        arg=target,
    )
    assert visible_in_wrap(page, target)
    active = page.locator(".ipyms-root").get_attribute("aria-activedescendant")
    assert active and page.locator(f"#{active}").get_attribute("data-col") == str(size - 1)
    assert page.locator(".ipyms-position").inner_text().startswith("rows ")
    lab.screenshot(f"lab-big-{size}-cursor")
    # A hint highlights its cell (the strategy reads the whole view: under a second at 2000x2000).
    page.keyboard.press("h")
    page.wait_for_selector(".ipyms-cell.ipyms-hint-cell", state="attached", timeout=SLOW_MS)
    hint = lab.probe(1)["hint"]
    got = page.locator(".ipyms-cell.ipyms-hint-cell")
    assert [int(got.get_attribute("data-row") or -1), int(got.get_attribute("data-col") or -1)] == hint


@pytest.mark.parametrize("size", [1000, 2000])
def test_big_board_touch_long_press(lab_touch: Any, size: int) -> None:
    lab, page = lab_touch, lab_touch.page
    lab.server.write_notebook(f"bigtouch{size}.ipynb", big_cells(size, size * size * 3 // 20))
    lab.open(f"bigtouch{size}.ipynb")
    lab.run_all(timeout=SLOW_MS)
    page.wait_for_selector(".ipyms-root .ipyms-cell", timeout=SLOW_MS)
    cdp = page.context.new_cdp_session(page)
    # scroll far into the board first: the press must land on the cell drawn there
    page.locator(".ipyms-board-wrap").evaluate(
        """w => { const [a, b] = w.querySelectorAll('.ipyms-row');
                  const pitch = parseFloat(b.style.top) - parseFloat(a.style.top);
                  w.scrollTop = pitch * 600; w.scrollLeft = pitch * 400; }"""
    )
    spot = ".ipyms-cell[data-row='610'][data-col='410']"
    page.wait_for_selector(spot, state="attached")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    box = page.locator(spot).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    # the cue while the finger stays, then the flag before it lifts (the selector is read afresh each time)
    page.wait_for_function("s => document.querySelector(s)?.classList.contains('ipyms-holding')", arg=spot)
    page.wait_for_function("s => document.querySelector(s)?.dataset.state === 'f'", arg=spot, timeout=SLOW_MS)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    lab.screenshot(f"lab-big-{size}-touch-long-press")
    state = lab.probe(1)
    assert state["mines_left"] == size * size * 3 // 20 - 1 and state["status"] == "ready"
    assert json.dumps(state)
