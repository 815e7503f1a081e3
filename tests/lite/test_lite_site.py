"""The offline JupyterLite site, played end to end in Chromium with no network but loopback.

Build the site (scripts/build_lite.py), serve it (python -m http.server), open 01-play in JupyterLab,
wait for the Pyodide kernel, run all cells, click a cell of the first board, and prove that the click
reached Python by re-running a cell that prints ``w.status`` and ``len(w.history)``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from _lite_support import PLAY, ROOT, OfflinePage
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from chromium import all_cells_ran, artifacts_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

KERNEL_TIMEOUT_MS = 300_000  # Pyodide start: about 15 s alone, much more on a busy 2-core machine
RUN_ALL_TIMEOUT_MS = 600_000  # notebook 05 (Hypothesis checks) takes over 5 minutes under load
ACTION_TIMEOUT_MS = 60_000
PROBE = 'print("PROBE", w.status, len(w.history), w.rows, w.cols)'

KERNEL_IDLE_JS = """() => /Python \\(Pyodide\\) \\| Idle/.test(
    document.querySelector('#jp-main-statusbar')?.innerText ?? '')"""


def wait_for_kernel(page: Page) -> float:
    started = time.monotonic()
    page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT_MS, polling=500)
    return time.monotonic() - started


def run_all(page: Page) -> float:
    started = time.monotonic()
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator("#jp-mainmenu-run li[data-command='runmenu:run-all']").click()
    try:
        outcome = all_cells_ran(page, RUN_ALL_TIMEOUT_MS)
    except PlaywrightTimeout:
        prompts = page.evaluate(
            "() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]"
            ".map(p => p.textContent.trim())"
        )
        status = page.inner_text("#jp-main-statusbar").replace("\n", " ")
        pytest.fail(f"run all did not finish: status {status!r}, prompts {prompts}")
    if outcome != "done":
        pytest.fail(f"a cell failed in the Pyodide kernel:\n{outcome}")
    return time.monotonic() - started


def add_cell(page: Page, source: str) -> None:
    """Type ``source`` (one line) into a new cell at the end of the notebook and run it."""
    page.locator(".jp-Notebook .jp-Cell").last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.type(source)
    page.keyboard.press("Shift+Enter")


def add_probe_cell(page: Page) -> None:
    """Type PROBE into a new cell at the end of the notebook and run it."""
    add_cell(page, PROBE)


def probe_output(page: Page) -> str:
    output = page.locator(".jp-OutputArea-output", has_text="PROBE").last
    output.wait_for(timeout=ACTION_TIMEOUT_MS)
    return output.inner_text().strip()


def parse_probe(text: str) -> tuple[str, int, int, int]:
    match = re.fullmatch(r"PROBE (\w+) (\d+) (\d+) (\d+)", text)
    assert match, f"unexpected probe output {text!r}"
    status, history, rows, cols = match.groups()
    return status, int(history), int(rows), int(cols)


def rerun_probe(page: Page, before: str) -> str:
    """Run the probe cell again and return its new output (fail if it does not change)."""
    cell = page.locator(".jp-Notebook .jp-CodeCell", has_text="PROBE").last
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    try:
        page.wait_for_function(
            """before => {
              const outs = [...document.querySelectorAll('.jp-OutputArea-output')]
                .filter(o => o.innerText.includes('PROBE'));
              const last = outs[outs.length - 1];
              return last && last.innerText.trim() !== before;
            }""",
            arg=before,
            timeout=ACTION_TIMEOUT_MS,
        )
    except PlaywrightTimeout:
        pytest.fail(f"the click did not reach Python: the probe still prints {before!r}")
    return probe_output(page)


def test_lite_site_plays_offline(lite_url: str, offline_page: OfflinePage) -> None:
    page = offline_page.page
    started = time.monotonic()
    page.goto(f"{lite_url}lab/index.html?path={PLAY}")
    page.wait_for_selector("#jp-main-statusbar")
    kernel_s = wait_for_kernel(page)
    print(f"Pyodide kernel idle {kernel_s:.1f} s after the page loaded")
    run_s = run_all(page)
    print(f"run all: {run_s:.1f} s")

    board = page.locator(".ipyms-board").first
    board.wait_for(timeout=ACTION_TIMEOUT_MS)
    cells = board.locator("[role=gridcell]")
    rows, cols = int(board.get_attribute("data-rows") or 0), int(board.get_attribute("data-cols") or 0)
    # The grid draws the cells in view (and a margin): a board still below the fold has only a few drawn.
    board.scroll_into_view_if_needed()
    deadline = time.monotonic() + ACTION_TIMEOUT_MS / 1000
    while cells.count() != rows * cols and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert rows > 0 and cols > 0 and cells.count() == rows * cols

    add_probe_cell(page)
    before = probe_output(page)
    status0, history0, prows, pcols = parse_probe(before)
    assert (prows, pcols) == (rows, cols), "the first board on the page is not `w`"

    covered0 = board.locator("[role=gridcell][data-state='.']").count()
    target = board.locator(f"[role=gridcell][data-row='{rows // 2}'][data-col='{cols // 2}']")
    assert target.get_attribute("data-state") == ".", "the cell to click is not covered"
    target.scroll_into_view_if_needed()
    target.click()
    page.wait_for_function(
        "([el, n]) => el.querySelectorAll('[role=gridcell][data-state=\".\"]').length < n",
        arg=[board.element_handle(), covered0],
        timeout=ACTION_TIMEOUT_MS,
    )

    after = rerun_probe(page, before)
    status1, history1, _, _ = parse_probe(after)
    print(f"probe before the click: {before!r}; after: {after!r}")
    assert history1 == history0 + 1, "the click did not add exactly one board to w.history"
    assert status1 in {"playing", "won", "lost"}, f"status {status0!r} -> {status1!r} after a reveal"

    board.scroll_into_view_if_needed()
    offline_page.screenshot("lite-01-play")
    print(f"whole test: {time.monotonic() - started:.1f} s, {len(offline_page.requests)} requests")

    # The recorder saw the kernel's own traffic (runtime and wheels), so "nothing left" means something.
    assert any(u.endswith("/pyodide.asm.wasm") for u in offline_page.requests)
    assert any(
        re.search(r"/static/pyodide-lock/ipyminesweeper-[^/?]+\.whl(\?|$)", u) for u in offline_page.requests
    )
    offline_page.check()


OTHER_NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb") if p.name != PLAY)


@pytest.mark.parametrize("name", OTHER_NOTEBOOKS)
def test_notebook_runs_in_lite(name: str, lite_site: Path, lite_url: str, offline_page: OfflinePage) -> None:
    """Every other notebook of the site runs top to bottom in the Pyodide kernel, offline."""
    if not (lite_site / "files" / name).is_file():
        pytest.fail(f"{name} is in notebooks/ but not on the site {lite_site}")
    page = offline_page.page
    page.goto(f"{lite_url}lab/index.html?path={name}")
    page.wait_for_selector("#jp-main-statusbar")
    kernel_s = wait_for_kernel(page)
    run_s = run_all(page)
    print(f"{name}: kernel {kernel_s:.1f} s, run all {run_s:.1f} s")
    offline_page.screenshot(f"lite-{Path(name).stem}")
    if "check_" in (ROOT / "notebooks" / name).read_text(encoding="utf-8"):
        assert page.locator(".jp-OutputArea-output .ipyms-check").count() > 0, "no exercise check shown"
    if name == "03-autoplayer.ipynb":  # the tournament chart: JupyterLite's own Vega-Lite renderer
        chart = page.locator(".jp-OutputArea-output .vega-embed").first
        chart.wait_for(timeout=ACTION_TIMEOUT_MS)
        drawn = chart.locator("canvas, svg").first
        drawn.wait_for(timeout=ACTION_TIMEOUT_MS)
        box = drawn.bounding_box()
        assert box and box["width"] > 150 and box["height"] > 150, box
        chart.scroll_into_view_if_needed()
        path = artifacts_dir("lite") / "lite-03-chart.png"
        chart.screenshot(path=str(path))
        print(f"screenshot: {path}")
    offline_page.check()


LOOP_CELL = (
    "import time; from ipyminesweeper.exercises import check_chord; "
    'exec("def looping(b, p):\\n    while True: pass"); '
    "t0 = time.time(); c = check_chord(looping); "
    'print("LOOPED", round(time.time() - t0, 1), "no answer within" in c.counterexample.summary)'
)


def test_a_looping_answer_is_stopped_in_the_offline_site(lite_url: str, offline_page: OfflinePage) -> None:
    """In Pyodide no alarm can interrupt Python: the check's trace function stops the loop, and the check
    says so, within 10 s (issue 27), without a kernel restart."""
    page = offline_page.page
    page.goto(f"{lite_url}lab/index.html?path=06-the-elm-loop.ipynb")
    page.wait_for_selector("#jp-main-statusbar")
    wait_for_kernel(page)
    run_all(page)
    add_cell(page, LOOP_CELL)
    output = page.locator(".jp-OutputArea-output", has_text="LOOPED").last
    output.wait_for(timeout=ACTION_TIMEOUT_MS)
    text = output.inner_text().strip()
    print(text)
    match = re.fullmatch(r"LOOPED ([\d.]+) (True|False)", text)
    assert match and match.group(2) == "True", text
    assert float(match.group(1)) < 10, text
    offline_page.screenshot("lite-loop-stopped")
    offline_page.check()
