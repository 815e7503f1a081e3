"""The static HTML export: 01-play, executed and exported by scripts/export_html.py, opened over
file:// in Chromium with no network: every Minesweeper view renders its board from the stored state.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from _lite_support import PLAY, SCRIPTS, OfflinePage, no_http, run_script

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXPORT_TIMEOUT = 900  # seconds


@pytest.fixture(scope="module")
def exported_page(play_notebooks: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("html")
    seconds = run_script(
        [
            str(SCRIPTS / "export_html.py"),
            "--notebooks",
            str(play_notebooks / PLAY),
            "--output",
            str(output),
        ],
        EXPORT_TIMEOUT,
    )
    print(f"exported {PLAY} in {seconds:.1f} s")
    page = output / PLAY.replace(".ipynb", ".html")
    assert page.is_file()
    return page


STORED_BOARDS_JS = """() => {
  const state = JSON.parse(document.querySelector(
    'script[type="application/vnd.jupyter.widget-state+json"]').textContent).state;
  return [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
    .map(s => state[JSON.parse(s.textContent).model_id])
    .filter(m => m && m.model_module === 'anywidget' && 'cells' in m.state)
    .map(m => ({rows: m.state.rows, cols: m.state.cols, cells: m.state.cells}));
}"""

TIMERS_JS = """() => {
  const state = JSON.parse(document.querySelector(
    'script[type="application/vnd.jupyter.widget-state+json"]').textContent).state;
  const saved = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
    .map(s => state[JSON.parse(s.textContent).model_id])
    .filter(m => m && m.model_module === 'anywidget' && 'cells' in m.state).map(m => m.state);
  return [...document.querySelectorAll('.ipyms-timer')].map((el, i) => {
    const s = saved[i];
    const secs = s.ended_at ? (s.ended_at - s.started_at) / 1000 : s.elapsed;
    return {shown: el.textContent, started: s.started_at > 0,
            expected: s.started_at ? Math.min(999, Math.floor(secs)) : 0};
  });
}"""

RENDERED_BOARDS_JS = """() => [...document.querySelectorAll('.ipyms-board')].map(b => ({
  rows: Number(b.dataset.rows),
  cols: Number(b.dataset.cols),
  cells: [...b.querySelectorAll('[role=gridcell]')].map(c => c.dataset.state).join(''),
}))"""


def test_static_page_renders_the_boards_offline(exported_page: Path, offline_page: OfflinePage) -> None:
    offline_page.allowed = no_http  # a file:// page needs no server at all
    page = offline_page.page
    page.goto(exported_page.as_uri())

    stored = page.evaluate(STORED_BOARDS_JS)
    assert stored, "the page has no Minesweeper widget state"
    assert all(len(b["cells"]) == b["rows"] * b["cols"] > 0 for b in stored)
    page.wait_for_function("n => document.querySelectorAll('.ipyms-board').length === n", arg=len(stored))
    page.wait_for_function(
        "() => [...document.querySelectorAll('.ipyms-board')].every(b =>"
        " b.querySelectorAll('[role=gridcell]').length === b.dataset.rows * b.dataset.cols)"
    )
    rendered = page.evaluate(RENDERED_BOARDS_JS)
    assert rendered == stored, "the rendered boards are not the stored widget states"

    # State, not defaults: the notebook plays a game from Python, so some board shows numbers.
    played = [i for i, board in enumerate(rendered) if any(c.isdigit() for c in board["cells"])]
    assert played, f"every board is untouched: {rendered}"

    # A snapshot says so: the note is shown, every control is disabled, clicks play nothing, the timer
    # shows the saved elapsed time and does not count on.
    roots = page.locator(".ipyms-root")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.ipyms-root')].every(r => r.dataset.live === 'false')"
    )
    for i in range(roots.count()):
        root = roots.nth(i)
        note = root.locator(".ipyms-snapshot-note")
        assert note.is_visible() and note.inner_text() == "snapshot: run the cell to play"
        for control in ("face", "step", "play", "undo", "flag-mode", "speed", "strategy", "probabilities"):
            assert root.locator(f".ipyms-{control}").is_disabled(), f"{control} is enabled in a snapshot"
    timers = page.evaluate(TIMERS_JS)
    assert any(t["started"] for t in timers), "no saved game had started: the frozen timer is not tested"
    for t in timers:
        assert t["shown"] == f"{t['expected']:03d}", f"the timer does not show the saved time: {t}"
    # a board with a covered cell (the played one may be over): live, a click there would play
    first = roots.nth(next(i for i, board in enumerate(rendered) if "." in board["cells"]))
    covered = first.locator(".ipyms-cell[data-state='.']").first
    before = page.evaluate(RENDERED_BOARDS_JS)
    covered.click()
    covered.click(button="right")
    first.focus()
    page.keyboard.press("Space")
    page.wait_for_timeout(1500)  # a live timer would have moved on by now
    assert page.evaluate(RENDERED_BOARDS_JS) == before, "a click changed a snapshot"
    assert page.evaluate(TIMERS_JS) == timers, "the timer of a snapshot counted on"

    page.locator(".ipyms-root").nth(played[0]).scroll_into_view_if_needed()
    offline_page.screenshot("export-01-play")
    print(f"{len(rendered)} board(s) rendered from {exported_page}", file=sys.stderr)
    assert any(u.endswith("/static/embed-amd.js") for u in offline_page.requests)
    assert any(u.endswith("/static/anywidget.js") for u in offline_page.requests)
    offline_page.check()
