"""A saved notebook reopened in JupyterLab after its kernel stopped: the widget is a snapshot and says so.

With "save widget state" on (the jupyterlab-manager setting), the notebook file keeps each widget's
state. Reopened with a new kernel, those models have no comm: the board shows the saved game, a visible
"snapshot: run the cell to play" note, disabled controls and a frozen timer, and a click plays nothing.
The HTML fallback saved in the file stays a few KB.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from ipyms_browser import MINES, SEED, SIZE, cell, dom_cells, game_cells, start_board, wait_dom_cells

from ipyminesweeper import new_board, reveal

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from conftest import NotebookPage

pytestmark = pytest.mark.browser

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def saved_widget_state(path: Path, cells: str) -> dict[str, Any] | None:
    nb = json.loads(path.read_text())
    state = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return next((m["state"] for m in state.values() if m["state"].get("cells") == cells), None)


def test_reopened_notebook_is_a_snapshot(lab: NotebookPage) -> None:
    page, server = lab.page, lab.server
    settings = server.config_dir / "lab/user-settings/@jupyter-widgets/jupyterlab-manager"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"saveState": True}))

    name = server.write_notebook(
        "saved.ipynb", game_cells(f"Minesweeper(size={SIZE}, mines={MINES}, seed={SEED})")
    )
    lab.open(name)
    lab.run_all()
    root = page.locator(".ipyms-root").first
    root.wait_for()
    assert root.get_attribute("data-live") == "true"
    assert page.locator(".ipyms-snapshot-note").first.is_hidden()
    expected = start_board((7, 7))
    cell(page, 7, 7).click()
    wait_dom_cells(page, expected.view.cells)
    page.wait_for_timeout(1200)  # let the timer show a second or more

    # Save (File menu), then wait until the file on disk has the widget's state after the move.
    page.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    path = server.root / name
    deadline = time.monotonic() + 60
    while (saved := saved_widget_state(path, expected.view.cells)) is None:
        assert time.monotonic() < deadline, "the saved notebook has no widget state for the game"
        time.sleep(0.5)
    size = path.stat().st_size
    nb = json.loads(path.read_text())
    fallbacks = [
        "".join(out["data"]["text/html"])
        for c in nb["cells"]
        for out in c.get("outputs", [])
        if "text/html" in out.get("data", {})
    ]
    print(f"saved notebook: {size} bytes; HTML fallback: {[len(f.encode()) for f in fallbacks]} bytes")
    assert fallbacks and all(len(f.encode()) < 4_000 for f in fallbacks)
    assert all("snapshot: run the cell to play" in f for f in fallbacks)

    # The kernel stops; the page is reopened (JupyterLab starts a new kernel that knows no such widget).
    server.shutdown_kernels()
    page.goto(server.notebook_url(name).replace("?reset", ""))
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    lab.wait_idle()
    root = page.locator(".ipyms-root").first
    root.wait_for()
    page.wait_for_function("() => document.querySelector('.ipyms-root')?.dataset.live === 'false'")
    assert dom_cells(page) == expected.view.cells
    note = root.locator(".ipyms-snapshot-note")
    assert note.is_visible() and note.inner_text() == "snapshot: run the cell to play"
    for control in ("face", "step", "play", "undo", "flag-mode", "speed", "strategy", "probabilities"):
        assert root.locator(f".ipyms-{control}").is_disabled(), f"{control} is enabled in a snapshot"
    elapsed = int(saved["elapsed"])
    timer = root.locator(".ipyms-timer")
    assert timer.inner_text() == f"{elapsed:03d}", "the timer does not show the saved elapsed time"
    cell(page, 0, 0).click()
    cell(page, 0, 0).click(button="right")
    page.wait_for_timeout(1500)
    assert dom_cells(page) == expected.view.cells, "a click changed the snapshot"
    assert timer.inner_text() == f"{elapsed:03d}", "the snapshot's timer counted on"
    lab.screenshot("lab-reopened-snapshot", root)


def drawn_cells(page: Page) -> dict[int, str]:
    """The drawn cells of the first board on the page: flat index -> data-state."""
    return {
        int(k): v
        for k, v in page.evaluate(
            """() => { const b = document.querySelector('.ipyms-board'); const cols = +b.dataset.cols;
              const out = {}; for (const c of b.querySelectorAll('.ipyms-cell'))
                out[+c.dataset.row * cols + +c.dataset.col] = c.dataset.state;
              return out; }"""
        ).items()
    }


def test_a_big_board_saved_packed_reopens_as_a_snapshot(lab: NotebookPage) -> None:
    """A board of 40,000 cells travels packed ("~" and base64, widget/board_wire.py): the saved state holds
    that, and the reopened notebook shows the board from it alone."""
    page, server = lab.page, lab.server
    settings = server.config_dir / "lab/user-settings/@jupyter-widgets/jupyterlab-manager"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"saveState": True}))
    size, mines, first = 200, 6_000, (8, 8)
    name = server.write_notebook(
        "saved-big.ipynb",
        [
            "from ipyminesweeper import Minesweeper\n"
            f"w = Minesweeper(size={size}, mines={mines}, seed={SEED})\nw",
            f"w.reveal{first}",  # from Python: the whole board goes, packed
        ],
    )
    expected = reveal(new_board(size, size, mines, seed=SEED), first).view.cells
    lab.open(name)
    lab.run_all()
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    page.wait_for_function("() => document.querySelector('.ipyms-root')?.dataset.status === 'playing'")
    shown = drawn_cells(page)
    assert len(shown) > 500 and all(expected[i] == ch for i, ch in shown.items())

    page.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+s")
    path = server.root / name
    deadline = time.monotonic() + 60
    while True:
        nb = json.loads(path.read_text())
        models = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}).values()
        saved = next((m["state"] for m in models if m["state"].get("status") == "playing"), None)
        if saved is not None:
            break
        assert time.monotonic() < deadline, "the saved notebook has no widget state for the game"
        time.sleep(0.5)
    assert saved["cells"].startswith("~") and len(saved["cells"]) < 10_000, saved["cells"][:80]

    server.shutdown_kernels()
    page.goto(server.notebook_url(name).replace("?reset", ""))
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    lab.wait_idle()
    page.wait_for_function("() => document.querySelector('.ipyms-root')?.dataset.live === 'false'")
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    assert page.locator(".ipyms-error").first.is_hidden()
    shown = drawn_cells(page)
    assert len(shown) > 500 and all(expected[i] == ch for i, ch in shown.items())
    assert any(ch != "." for ch in shown.values()), "the opening is drawn"
    lab.screenshot("lab-reopened-big-snapshot", page.locator(".ipyms-root").first)
