"""The shipped front end (static/widget.js + widget.css) in headless Chromium, wired to a real widget.

No Jupyter here: the page loads the bundle like anywidget does (one ES module) and renders it with
a small stand-in for the anywidget model. Messages the page sends are handed to the Python widget's
comm handler and the widget's synced state is pushed back, so each test is a full round trip through
the real Python side. The JupyterLab / Notebook 7 end-to-end tests live in tests/browser/.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _widget_helpers import shown_overlay

import ipyminesweeper

# tests/ is on sys.path (pytest puts the folder of tests/conftest.py there)
from chromium import BASE_ARGS, artifacts_dir, chromium_path
from ipyminesweeper import Minesweeper
from ipyminesweeper.widget.render import SYNCED as RENDERED

playwright_sync = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_path() is None, reason="no Chromium (apt-get install chromium)"),
]

STATIC = Path(ipyminesweeper.__file__).parent / "static"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>%CSS%</style>
<style>body { margin: 0; padding: 16px; } #out { width: %WIDTH%px; }</style></head>
<body %BODY%><div id="out"></div><script type="module">
const mod = await import("data:text/javascript;base64,%JS%");
const state = %STATE%;
for (const k of %BINARY%) state[k] = new DataView(Uint8Array.from(state[k]).buffer);
const handlers = {};
window.sent = [];
window.saved = [];
const dirty = new Set();
window.model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; dirty.add(k); for (const f of handlers["change:" + k] || []) f(); },
  save_changes() {
    const s = {};
    for (const k of dirty) s[k] = state[k];
    dirty.clear();
    window.saved.push(s);
  },
  on(e, f) { (handlers[e] ??= []).push(f); },
  off(e, f) { handlers[e] = (handlers[e] || []).filter((g) => g !== f); },
  send(m) { window.sent.push(JSON.parse(JSON.stringify(m))); },
};
window.push = (s, paths = []) => {
  const bytes = (v) => String(new Uint8Array(v?.buffer ?? []));
  const same = (k) => (paths.includes(k) ? String(Uint8Array.from(s[k])) === bytes(state[k])
    : JSON.stringify(state[k]) === JSON.stringify(s[k]));
  const changed = Object.keys(s).filter((k) => !same(k));
  for (const k of changed) state[k] = paths.includes(k) ? new DataView(Uint8Array.from(s[k]).buffer) : s[k];
  for (const k of changed) for (const f of handlers["change:" + k] || []) f();
};
// A comm message as the kernel sends it: its binary buffers (lists of bytes here) become DataViews.
window.pushWire = (s, paths) => {
  for (const k of paths) s[k] = new DataView(Uint8Array.from(s[k]).buffer);
  for (const k of Object.keys(s)) state[k] = s[k];
  for (const k of Object.keys(s)) for (const f of handlers["change:" + k] || []) f();
};
mod.default.render({ model: window.model, el: document.getElementById("out") });
window.ready = true;
</script></body></html>"""

SYNCED = list(dict.fromkeys([*RENDERED, "requests"]))


def synced(w: Minesweeper) -> dict[str, Any]:
    """The synced state as the page's model holds it; a binary value (``board_patch``) as a list of
    bytes, which the page turns into the DataView a kernel's buffer becomes (see ``binary``)."""
    state = w.get_state()
    return {
        k: list(bytes(state[k])) if isinstance(state[k], (bytes, memoryview)) else state[k] for k in SYNCED
    }


def binary(w: Minesweeper) -> list[str]:
    """The synced keys whose values are binary buffers."""
    state = w.get_state()
    return [k for k in SYNCED if isinstance(state[k], (bytes, memoryview))]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=BASE_ARGS)
        yield b
        b.close()


class Harness:
    """One widget view on a page, with the Python widget behind it."""

    def __init__(
        self,
        browser: Any,
        w: Minesweeper,
        tmp: Path,
        *,
        dark: bool = False,
        width: int = 700,
        touch: bool = False,
    ):
        self.w = w
        self.page = browser.new_page(viewport={"width": width + 60, "height": 1000}, has_touch=touch)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        body = 'data-jp-theme-light="false" style="background:#111"' if dark else ""
        html = (
            PAGE.replace("%CSS%", (STATIC / "widget.css").read_text())
            .replace("%WIDTH%", str(width))
            .replace("%BODY%", body)
            .replace("%JS%", base64.b64encode((STATIC / "widget.js").read_bytes()).decode())
            .replace("%STATE%", json.dumps(synced(w)))
            .replace("%BINARY%", json.dumps(binary(w)))
        )
        path = tmp / "page.html"
        path.write_text(html)
        self.page.goto(path.as_uri())
        self.page.wait_for_function("window.ready === true")
        self.seen = 0  # the last request id returned by sent()
        self.flush()
        # the view asks whether a kernel is behind it (ui.js: probe); answered, it is live
        assert self.pump() == [{"action": "resync"}]

    def flush(self) -> None:
        """Let the page's queued repaint run."""
        self.page.evaluate("() => new Promise((r) => setTimeout(r, 0))")

    def _new_requests(self, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for state in states:
            for request in state.get("requests", []):
                if request["id"] > self.seen:
                    self.seen = request["id"]
                    out.append({k: v for k, v in request.items() if k != "id"})
        return out

    def sent(self) -> list[dict[str, Any]]:
        """Requests the page made since the last call (through the `requests` traitlet), not delivered
        to Python. The page has no other channel: a custom message would fail the test."""
        assert self.page.evaluate("window.sent.splice(0)") == [], "the front end sent a custom message"
        states = self.page.evaluate("window.saved.splice(0)")
        # keep the settings the page saved for pump(); only the requests are consumed here
        settings = [{k: v for k, v in s.items() if k != "requests"} for s in states]
        self.page.evaluate("(s) => window.saved.push(...s)", [s for s in settings if s])
        return self._new_requests(states)

    def pump(self) -> list[dict[str, Any]]:
        """Deliver the page's requests and state changes to Python, push Python's state back."""
        assert self.page.evaluate("window.sent.splice(0)") == [], "the front end sent a custom message"
        states = self.page.evaluate("window.saved.splice(0)")
        msgs = self._new_requests(states)
        for s in states:
            self.w.set_state(s)
        self.page.evaluate("([s, p]) => window.push(s, p)", [synced(self.w), binary(self.w)])
        self.flush()
        return msgs

    def listen(self) -> None:
        """From now on, deliver to the page what the kernel's comm sends (patches included), see pump_wire."""
        self.wire: list[tuple[dict[str, Any], list[bytes]]] = []
        self.w.comm.send = lambda data=None, buffers=None, **_: self.wire.append(
            (data, [bytes(b) for b in buffers or []])
        )

    def pump_wire(self, *, drop: int = 0) -> list[dict[str, Any]]:
        """Deliver the page's requests to Python, then push the comm messages Python sent, as a kernel
        would; ``drop`` loses that many of them first (a missed message)."""
        states = self.page.evaluate("window.saved.splice(0)")
        msgs = self._new_requests(states)
        for s in states:
            self.w.set_state(s)
        messages, self.wire[:] = self.wire[drop:], []
        for data, buffers in messages:
            state = dict(data["state"])
            paths = [p[0] for p in data.get("buffer_paths", [])]
            for path, buffer in zip(paths, buffers, strict=True):
                state[path] = list(buffer)
            self.page.evaluate("([s, p]) => window.pushWire(s, p)", [state, paths])
        self.flush()
        return msgs

    def cell(self, r: int, c: int) -> Any:
        return self.page.locator(f".ipyms-cell[data-row='{r}'][data-col='{c}']")

    def show(self, r: int, c: int) -> None:
        """Scroll cell (r, c) into view (a big board draws only what is in view) and let the page redraw."""
        self.cell(r, c).scroll_into_view_if_needed()
        self.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def mouse(self, r: int, c: int, button: int, *, up: bool = True) -> None:
        """A real mouse press (and release) on cell (r, c), with Playwright's mouse."""
        self.show(r, c)
        box = self.cell(r, c).bounding_box()
        assert box is not None
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        name = {0: "left", 1: "middle", 2: "right"}[button]
        self.page.mouse.down(button=name)
        if up:
            self.page.mouse.up(button=name)

    def release_over(self, r: int, c: int, button: int = 0) -> None:
        box = self.cell(r, c).bounding_box()
        assert box is not None
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.up(button={0: "left", 1: "middle", 2: "right"}[button])

    def shot(self, name: str) -> None:
        self.page.locator(".ipyms-root").screenshot(path=str(artifacts_dir("widget") / f"{name}.png"))

    def close(self) -> None:
        self.page.close()
        assert self.errors == []


@pytest.fixture
def make(browser: Any, tmp_path: Path) -> Iterator[Any]:
    pages: list[Harness] = []

    def _make(w: Minesweeper, **kw: Any) -> Harness:
        h = Harness(browser, w, tmp_path, **kw)
        pages.append(h)
        return h

    yield _make
    for h in pages:
        h.close()


def test_renders_the_board_header_and_toolbar(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    page = h.page
    root = page.locator(".ipyms-root")
    assert root.get_attribute("tabindex") == "0"
    assert root.get_attribute("data-lm-suppress-shortcuts") is None  # it stops only its own keys
    assert root.get_attribute("data-status") == "ready"
    assert page.locator(".ipyms-board[role='grid']").get_attribute("aria-rowcount") == "16"
    assert page.locator(".ipyms-row[role='row']").count() == 16
    assert page.locator(".ipyms-cell[role='gridcell']").count() == 256
    assert h.cell(2, 4).get_attribute("aria-label") == "row 2, column 4: covered"
    assert page.locator(".ipyms-counter").inner_text() == "040"
    assert page.locator(".ipyms-timer").inner_text() == "000"
    assert page.locator(".ipyms-face").get_attribute("data-face") == "smile"
    options = page.locator(".ipyms-strategy option").all_inner_texts()
    assert options == h.w.strategies and page.locator(".ipyms-strategy").input_value() == "exact"
    assert page.locator(".ipyms-error").is_hidden()
    assert page.locator(".ipyms-undo").is_disabled()
    h.shot("ready")


def test_left_click_reveals_through_python(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    h.mouse(8, 8, 0)
    assert h.pump() == [{"action": "reveal", "row": 8, "col": 8}]
    assert h.w.status == "playing"
    assert h.page.locator(".ipyms-root").get_attribute("data-status") == "playing"
    cells = h.page.eval_on_selector_all(".ipyms-cell", "els => els.map(e => e.dataset.state).join('')")
    assert cells == h.w.cells
    ch = h.w.board.view[(8, 8)]
    assert h.cell(8, 8).get_attribute("class") == f"ipyms-cell ipyms-revealed ipyms-n{ch} ipyms-cursor"
    assert not h.page.locator(".ipyms-undo").is_disabled()


def test_right_click_flags_without_a_context_menu(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    prevented = h.page.evaluate(
        """() => {
            let seen = 'not propagated';
            const look = (e) => { seen = e.defaultPrevented; };
            document.addEventListener('contextmenu', look, {once: true});
            const el = document.querySelector(".ipyms-cell[data-row='0'][data-col='0']");
            const e = new MouseEvent('contextmenu', {bubbles: true, cancelable: true, button: 2});
            el.dispatchEvent(e);
            return [e.defaultPrevented, seen];
        }"""
    )
    assert prevented == [True, "not propagated"]
    h.mouse(0, 0, 2)
    assert h.pump() == [{"action": "flag", "row": 0, "col": 0}]
    assert h.cell(0, 0).get_attribute("data-state") == "f"
    assert "ipyms-flagged" in (h.cell(0, 0).get_attribute("class") or "")
    assert h.page.locator(".ipyms-counter").inner_text() == "039"


def test_pressed_preview_while_the_mouse_is_down(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    h.mouse(5, 5, 0, up=False)
    assert "ipyms-pressed" in (h.cell(5, 5).get_attribute("class") or "")
    assert h.page.locator(".ipyms-face").get_attribute("data-face") == "pressed"
    h.shot("pressed")
    h.page.mouse.move(3, 3)  # dragged off the board (pointer capture still delivers the release)
    assert h.page.locator(".ipyms-pressed").count() == 0
    h.page.mouse.up()
    assert h.sent() == []  # released off the board: no move
    h.mouse(5, 5, 0, up=False)
    h.release_over(5, 6)  # dragged to a neighbour: as in the original game, the press follows the mouse
    assert h.sent() == [{"action": "reveal", "row": 5, "col": 6}]
    assert h.page.locator(".ipyms-pressed").count() == 0
    assert h.page.locator(".ipyms-face").get_attribute("data-face") == "smile"


def test_clicking_a_number_or_middle_clicking_chords(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    h.mouse(8, 8, 0)
    h.pump()
    r, c = next(p for p in h.w.board.positions() if h.w.board.view[p] in "12345678")
    h.mouse(r, c, 0, up=False)  # chord preview: the covered neighbours
    pressed = h.page.locator(".ipyms-pressed").count()
    covered = sum(h.w.board.view[q] == "." for q in h.w.board.neighbours((r, c)))
    assert pressed == covered > 0
    h.release_over(r, c)
    assert h.sent() == [{"action": "chord", "row": r, "col": c}]
    h.mouse(3, 3, 1)
    assert h.sent() == [{"action": "chord", "row": 3, "col": 3}]


def test_keyboard_moves_the_cursor_and_plays(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    page = h.page
    page.evaluate(
        """() => { window.leaked = [];
            document.addEventListener('keydown', (e) => window.leaked.push(e.key)); }"""
    )
    page.locator(".ipyms-root").focus()
    for key in ["ArrowDown", "ArrowDown", "ArrowRight"]:
        page.keyboard.press(key)
    cursor = page.locator(".ipyms-cursor")
    assert (cursor.get_attribute("data-row"), cursor.get_attribute("data-col")) == ("2", "1")
    root = page.locator(".ipyms-root")
    assert root.get_attribute("aria-activedescendant") == cursor.get_attribute("id")
    assert "ipyms-kbd" in (root.get_attribute("class") or "")
    page.keyboard.press("f")
    assert h.pump() == [{"action": "flag", "row": 2, "col": 1}]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    msgs = h.pump()
    assert msgs[0] == {"action": "reveal", "row": 2, "col": 2}
    page.keyboard.press("u")
    page.keyboard.press("n")
    assert [m["action"] for m in h.pump()] == ["undo", "new_game"]
    assert page.keyboard.press("Control+f") is None and h.sent() == []
    # the keys the widget handled never reached the document (JupyterLab's shortcuts)
    leaked = page.evaluate("window.leaked")
    assert leaked == ["Control", "f"]
    h.shot("keyboard")


def test_game_over_shows_the_mines_and_stops_moves(make: Any) -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    h = make(w)
    mine = next(p for p in w.board.positions() if w.board.is_mine(p))
    h.mouse(*mine, 0)
    h.pump()
    page = h.page
    assert page.locator(".ipyms-root").get_attribute("data-status") == "lost"
    assert page.locator(".ipyms-face").get_attribute("data-face") == "lost"
    assert page.locator(".ipyms-exploded").count() == 1
    assert page.locator(".ipyms-cell[data-state='*']").count() == 9
    assert "You lost after 0 s" in page.locator(".ipyms-message").inner_text()
    assert page.locator(".ipyms-step").is_disabled()
    h.shot("lost")
    other = next(p for p in w.board.positions() if w.board.view[p] == ".")
    h.mouse(*other, 0)
    h.mouse(*other, 2)
    page.locator(".ipyms-root").focus()
    page.keyboard.press("Space")
    assert h.sent() == []
    page.locator(".ipyms-face").click()
    assert h.pump() == [{"action": "new_game"}]
    assert page.locator(".ipyms-root").get_attribute("data-status") == "ready"


def test_a_win_says_so(make: Any) -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    h = make(w, dark=True)
    for p in w.board.positions():
        if not w.board.is_mine(p) and w.board.view[p] == ".":
            w.reveal(*p)
    h.pump()
    assert h.page.locator(".ipyms-face").get_attribute("data-face") == "won"
    assert "You won" in h.page.locator(".ipyms-message").inner_text()
    assert h.page.locator(".ipyms-cell[data-state='F']").count() == 10
    h.shot("won-dark")


def test_errors_are_shown_in_the_widget(make: Any) -> None:
    h = make(Minesweeper(size=9, mines=10, seed=4))
    # a request the front end would never make, written where it writes its requests
    h.page.evaluate(
        "() => { window.model.set('requests', [{id: 2, action: 'explode'}]); window.model.save_changes(); }"
    )
    h.pump()
    error = h.page.locator(".ipyms-error")
    assert error.is_visible() and "unknown action" in error.inner_text()
    h.mouse(4, 4, 0)
    h.pump()
    assert error.is_hidden()


def test_toolbar_step_play_strategy_and_probabilities(make: Any) -> None:
    h = make(Minesweeper(size=16, mines=40, seed=3))
    page = h.page
    page.locator(".ipyms-step").click()
    assert h.pump() == [{"action": "step"}]
    last = h.w.last_move
    assert last and page.locator(".ipyms-last-move").count() == 1
    lm = page.locator(".ipyms-last-move")
    assert (lm.get_attribute("data-row"), lm.get_attribute("data-col")) == (
        str(last["row"]),
        str(last["col"]),
    )
    assert last["reason"] in page.locator(".ipyms-reason").inner_text()
    page.locator(".ipyms-strategy").select_option("simple")
    page.locator(".ipyms-probabilities").check()
    h.pump()
    assert h.w.strategy == "simple" and h.w.show_probabilities
    probs = page.eval_on_selector_all(
        ".ipyms-cell[data-probability]", "els => els.map(e => [e.dataset.state, +e.dataset.probability])"
    )
    assert len(probs) == len(shown_overlay(h.w)) > len(h.w.probabilities) - 1 > 0  # "*": the other cells
    assert all(state in ".f" and 0 <= p <= 1 for state, p in probs)
    h.shot("probabilities")
    page.locator(".ipyms-speed").fill("100")
    page.locator(".ipyms-speed").dispatch_event("change")
    h.pump()
    assert h.w.delay == pytest.approx(0.01)
    page.locator(".ipyms-play").click()
    assert h.sent() == [{"action": "play"}]
    page.evaluate("() => window.push({autoplaying: true})")
    h.flush()
    assert page.locator(".ipyms-play").inner_text() == "Pause"
    assert page.locator(".ipyms-play").get_attribute("aria-pressed") == "true"
    page.locator(".ipyms-play").click()
    assert h.sent() == [{"action": "pause"}]
    page.locator(".ipyms-probabilities").uncheck()
    h.pump()
    assert page.locator(".ipyms-cell[data-probability]").count() == 0


def test_a_big_board_repaints_only_what_changed(make: Any) -> None:
    w = Minesweeper(size=100, mines=1500, seed=1)
    h = make(w, width=900)
    board = h.page.locator(".ipyms-board")
    assert (board.get_attribute("aria-rowcount"), board.get_attribute("aria-colcount")) == ("100", "100")
    drawn = h.page.locator(".ipyms-cell").count()
    assert 0 < drawn < 10_000, "only the cells in view (and a margin) are drawn"
    rows = h.page.locator(".ipyms-row").count()
    assert drawn % rows == 0 and drawn // rows < 100
    size = h.page.locator(".ipyms-root").evaluate("e => getComputedStyle(e).getPropertyValue('--ipyms-cell')")
    assert size.strip() == "24px", "24 px targets (WCAG 2.5.8): a big board scrolls inside the output instead"
    wrap = h.page.locator(".ipyms-board-wrap")
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth + 100")
    h.mouse(20, 20, 0)  # (in the first window drawn: 24 px cells in a 900 px output)
    h.pump()
    near = [p for p in w.board.positions() if abs(p[0] - 20) < 6 and abs(p[1] - 20) < 6]
    covered = next(p for p in near if w.board.view[p] == ".")  # a drawn cell: it is near the click
    h.page.evaluate(
        """() => { window.touched = new Set();
            const board = document.querySelector('.ipyms-board');
            new MutationObserver((ms) => ms.forEach((m) => window.touched.add(m.target)))
              .observe(board, {attributes: true, childList: true, subtree: true}); }"""
    )
    w.flag(*covered)  # from Python: the cursor stays put
    h.pump()
    touched = h.page.evaluate("[...window.touched].map((e) => e.className)")
    assert len(touched) == 1 and "ipyms-flagged" in touched[0]
    # A scroll sideways keeps the cells still in view (the same elements, where they were) and adds the new
    # ones in blocks of columns: rows stay in order and whole.
    for dx in (17 * 12, 17 * 5, -17 * 9):
        h.page.evaluate(
            """() => document.querySelectorAll('.ipyms-cell')
                .forEach((c) => { c.kept = c.getBoundingClientRect().left; })"""
        )
        wrap.evaluate(f"w => {{ w.scrollLeft += {dx}; }}")
        h.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        rows = h.page.evaluate(
            "() => [...document.querySelectorAll('.ipyms-row')]"
            ".map((r) => [...r.querySelectorAll('.ipyms-cell')].map((c) => +c.dataset.col))"
        )
        assert all(cols == list(range(cols[0], cols[0] + len(cols))) for cols in rows)
        assert all(len(cols) % 8 == 0 or cols[-1] == 99 for cols in rows), "whole blocks of 8 columns"
        stayed, moved, count = h.page.evaluate(
            f"""() => {{ const cells = [...document.querySelectorAll('.ipyms-cell')];
                const stayed = cells.filter((c) => c.kept !== undefined);
                const left = (c) => c.getBoundingClientRect().left;
                const moved = stayed.filter((c) => Math.abs(c.kept - {dx} - left(c)) > 0.5);
                return [stayed.length, moved.length, cells.length]; }}"""
        )
        assert stayed > count // 2 and moved == 0, "a cell still in view is neither drawn again nor moved"
        drawn = h.page.evaluate(
            "() => [...document.querySelectorAll('.ipyms-cell')]"
            ".map((c) => [+c.dataset.row * 100 + +c.dataset.col, c.dataset.state])"
        )
        assert all(w.board.view.cells[i] == state for i, state in drawn)
    # A scroll down keeps the rows still in view (the same elements) and adds the new ones.
    before = h.page.evaluate(
        """() => { const rows = [...document.querySelectorAll('.ipyms-row')];
            rows.forEach((r) => { r.old = +r.dataset.row; }); return rows.map((r) => r.old); }"""
    )
    wrap.evaluate("w => { w.scrollTop += 17 * 24; }")
    h.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    rows = h.page.evaluate(
        "() => [...document.querySelectorAll('.ipyms-row')].map((r) => [+r.dataset.row, r.old])"
    )
    assert {r for r, _ in rows} != set(before)
    assert all(old == r if r in before else old is None for r, old in rows), (
        "a row still in view stays as it was"
    )
    cells = h.page.evaluate(
        """() => [...document.querySelectorAll('.ipyms-cell')].map((c) => [
            +c.closest('.ipyms-row').dataset.row, +c.dataset.row, +c.dataset.col, c.dataset.state, c.id,
            c.getAttribute('aria-label')])"""
    )
    assert all(r == row and w.board.view.cells[r * 100 + c] == state for row, r, c, state, _, _ in cells)
    assert all(
        i.endswith(f"-{r * 100 + c}") and label.startswith(f"row {r}, column {c}:")
        for _, r, c, _, i, label in cells
    )
    h.shot("big")


def test_dark_theme_changes_the_palette(make: Any) -> None:
    colours = []
    for dark in (False, True):
        w = Minesweeper(size=16, mines=40, seed=3)
        w.reveal(8, 8)
        h = make(w, dark=dark)
        pos = next(p for p in w.board.positions() if w.board.view[p] == "1")
        colours.append(h.cell(*pos).evaluate("e => getComputedStyle(e).color"))
    assert colours[0] != colours[1]


# --- touch (Chromium's touch emulation, driven through CDP) ---------------------------------------------


class Finger:
    """One finger on the page: CDP Input.dispatchTouchEvent, as a touch screen sends it."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.cdp = h.page.context.new_cdp_session(h.page)

    def centre(self, r: int, c: int) -> tuple[float, float]:
        box = self.h.cell(r, c).bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def down(self, x: float, y: float) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})

    def move(self, x: float, y: float) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})

    def up(self) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def tap(self, r: int, c: int) -> None:
        self.down(*self.centre(r, c))
        self.up()


REQUESTED = """action => window.saved.some(s => (s.requests || []).some(r => r.action === action))"""


def test_touch_tap_long_press_chord_and_flag_mode(make: Any) -> None:
    w = Minesweeper(size=9, mines=10, seed=5)
    h = make(w, touch=True, width=420)
    page, finger = h.page, Finger(h)
    board = page.locator(".ipyms-board")
    assert board.evaluate("e => getComputedStyle(e).touchAction") == "manipulation"
    page.evaluate("""() => { window.menus = 0;
        document.addEventListener('contextmenu', (e) => { if (!e.defaultPrevented) window.menus++; }); }""")

    # A tap reveals.
    finger.tap(4, 4)
    assert h.pump() == [{"action": "reveal", "row": 4, "col": 4}]
    assert w.status == "playing" and h.cell(4, 4).get_attribute("data-state") != "."

    # A long press flags: the ring shows while the finger stays, the flag comes before the finger lifts.
    r, c = next(p for p in w.board.positions() if w.board.view[p] == ".")
    scroll = page.evaluate("() => [window.scrollX, window.scrollY]")
    finger.down(*finger.centre(r, c))
    assert "ipyms-holding" in (h.cell(r, c).get_attribute("class") or "")
    h.shot("touch-long-press-cue")
    page.wait_for_function(REQUESTED, arg="flag", timeout=10_000)
    finger.up()
    assert h.pump() == [{"action": "flag", "row": r, "col": c}]
    assert h.cell(r, c).get_attribute("data-state") == "f"
    assert page.locator(".ipyms-holding").count() == 0
    assert page.evaluate("() => [window.scrollX, window.scrollY]") == scroll
    assert page.evaluate("window.menus") == 0, "a long press opened the browser's context menu"

    # A finger that drifts off is a scroll: nothing is played.
    r2, c2 = next(p for p in w.board.positions() if w.board.view[p] == ".")
    x, y = finger.centre(r2, c2)
    finger.down(x, y)
    finger.move(x + 30, y + 30)
    finger.up()
    assert h.sent() == []

    # A tap on a number whose mines are all flagged chords.
    board_now = w.board
    number = next(
        p
        for p in board_now.positions()
        if board_now.view[p] in "12345678"
        and any(board_now.view[q] == "." and not board_now.is_mine(q) for q in board_now.neighbours(p))
    )
    for q in board_now.neighbours(number):
        if board_now.is_mine(q) and w.board.view[q] == ".":
            w.flag(*q)
    h.pump()
    finger.tap(*number)
    assert h.pump() == [{"action": "chord", "row": number[0], "col": number[1]}]
    assert all(w.board.view[q] != "." for q in w.board.neighbours(number))

    # Flag mode (toolbar toggle): taps flag.
    page.locator(".ipyms-flag-mode").tap()
    assert page.locator(".ipyms-flag-mode").get_attribute("aria-pressed") == "true"
    r3, c3 = next(p for p in w.board.positions() if w.board.view[p] == ".")
    finger.tap(r3, c3)
    assert h.pump() == [{"action": "flag", "row": r3, "col": c3}]
    assert h.cell(r3, c3).get_attribute("data-state") == "f"
    h.shot("touch-flag-mode")


def test_patches_on_the_wire_repaint_the_board_and_a_missed_one_is_asked_again(make: Any) -> None:
    """The real comm messages: a click comes back as a patch (no whole board), the page shows exactly
    Python's view; when a message is lost, the page asks for the whole board and shows it."""
    w = Minesweeper(size=30, mines=90, seed=3)
    h = make(w, width=900)
    h.listen()

    def shown() -> str:
        return str(
            h.page.evaluate(
                "() => [...document.querySelectorAll('.ipyms-cell')].sort((a, b) =>"
                " (+a.dataset.row * 1000 + +a.dataset.col) - (+b.dataset.row * 1000 + +b.dataset.col))"
                ".map((c) => c.dataset.state).join('')"
            )
        )

    h.mouse(15, 15, 0)
    assert h.pump_wire() == [{"action": "reveal", "row": 15, "col": 15}]
    assert shown() == w.cells
    covered = [p for p in w.board.positions() if w.board.view[p] == "."]
    h.mouse(*covered[0], 2)
    sent_before = len(h.wire)
    assert h.pump_wire() and sent_before == 0
    assert shown() == w.cells and w.cells[covered[0][0] * 30 + covered[0][1]] == "f"
    h.mouse(*covered[1], 2)
    h.pump_wire(drop=1)  # the flag's patch is lost: the page still shows the board before it
    assert shown() != w.cells
    h.mouse(*covered[2], 2)
    h.pump_wire()  # the next patch does not fit: the page asks for the whole board
    assert h.pump_wire() == [{"action": "resync"}]
    assert shown() == w.cells and w.error == ""
