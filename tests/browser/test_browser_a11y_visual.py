"""Seeing and touching in a real JupyterLab (issue 28 item 4): forced colours, reflow, target size, focus
not obscured. Each test measures the page (computed styles, bounding boxes, what ``elementFromPoint``
finds) and saves a screenshot for a person to look at; docs/accessibility.md gives the figures.

- **Forced colours** (Windows high contrast; ``emulate_media(forced_colors="active")``): a covered, an
  open and a flagged cell, the keyboard cursor and the hint each keep a mark of their own in system colours.
- **Reflow** (WCAG 1.4.10) at 320 CSS px, and at 200% zoom: a 1280 x 1000 window zoomed to 200% lays out
  in 640 x 500 CSS px with two device pixels to each (Chromium's zoom changes the CSS pixel, as this does;
  ``device_scale_factor`` only sharpens the picture). The toolbar wraps, no two controls overlap, and
  nothing but the board (a 2-D grid, which WCAG lets scroll) needs a horizontal scroll.
- **Target size** (WCAG 2.5.8): the cells of the three standard levels and every control of the header,
  toolbar and history line are at least 24 x 24 CSS px, at 1280, 640 and 320 px wide.
- **Focus not obscured** (WCAG 2.4.11): on a 100 x 100 board that scrolls, the cursor's cell stays wholly
  in sight (every sampled point of it is the cell, not a sticky label) after Ctrl+Home, Ctrl+End, PageUp,
  PageDown and runs of arrows that scroll the board back under the labels.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

pytestmark = pytest.mark.browser

TARGET = 24  # WCAG 2.5.8: CSS px
LEVELS = ("beginner", "intermediate", "expert")
PHONE = (320, 640, 1)  # CSS px wide and high, device pixels per CSS pixel
ZOOM_200 = (640, 500, 2)  # a 1280 x 1000 window at 200%
DESKTOP = (1280, 1000, 1)

# The controls a pointer can press: in the header, toolbar and history line (a label holding an input is
# pressed as a whole: it is the target, the input inside it is not counted apart).
BARS = ".ipyms-header, .ipyms-toolbar, .ipyms-history"  # the parts always shown
PANELS = ".ipyms-picker, .ipyms-stats, .ipyms-help-panel"  # the parts a button opens

# every control of the widget's ``parts`` (a selector) with its box; a label that holds its input is
# the target (a click on it sets the input)
CONTROLS_JS = """(root, sel) => {
  const parts = root.querySelectorAll(sel);
  const out = [];
  for (const part of parts) {
    for (const el of part.querySelectorAll('button, select, input, label')) {
      if (el.matches('input, select') && el.closest('label')) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
      const name = [...el.classList].filter(c => c.startsWith('ipyms-')).pop() || el.tagName;
      out.push({name, x: r.x, y: r.y, w: r.width, h: r.height});
    }
  }
  return out;
}"""


def _open(lab: Any, name: str, code: str, count: int = 1) -> Any:
    lab.server.write_notebook(name, [code])
    lab.open(name)
    lab.run_all()
    lab.page.wait_for_function(
        "n => document.querySelectorAll('.ipyms-root .ipyms-cell').length > 0"
        " && document.querySelectorAll('.ipyms-root .ipyms-board').length === n",
        arg=count,
    )
    lab.page.evaluate("() => document.fonts.ready")
    return lab.page.locator(".ipyms-root")


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two rectangles share (0 when they only touch)."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


# --------------------------------------------------------------------------------------------------
# Forced colours
# --------------------------------------------------------------------------------------------------

MARKS_JS = """el => {
  const s = getComputedStyle(el);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0
    ? `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} ${s.outlineOffset}` : '';
  const image = /^none(, none)*$/.test(s.backgroundImage) ? '' : s.backgroundImage.slice(0, 60);
  return {background: s.backgroundColor, image,
          ring: s.boxShadow === 'none' ? '' : s.boxShadow, outline, color: s.color,
          adjust: s.forcedColorAdjust};
}"""
SYSTEM = "ButtonFace ButtonText Canvas CanvasText Highlight HighlightText LinkText GrayText Mark"
# each system colour's rgb in this browser, to say which one a computed colour is
SYSTEM_JS = """names => Object.fromEntries(names.map(n => {
  const el = document.createElement('span');
  el.style.color = n;
  el.style.forcedColorAdjust = 'none';
  document.body.append(el);
  const c = getComputedStyle(el).color;
  el.remove();
  return [n, c];
}))"""


def test_forced_colours_keep_states_apart(lab: Any) -> None:
    """Under forced colours the browser drops gradients and box shadows and repaints colours: a covered,
    an open and a flagged cell, the keyboard cursor and the hint must still look different, in system
    colours (the colours the user chose)."""
    page = lab.page
    root = _open(
        lab, "forced.ipynb", "from ipyminesweeper import Minesweeper\nw = Minesweeper('beginner', seed=8)\nw"
    )
    root.focus()
    page.keyboard.press("ArrowRight")
    for key in ("Home", *["ArrowDown"] * 4, *["ArrowRight"] * 4):
        page.keyboard.press(key)
    page.keyboard.press("Enter")  # opens the middle (an opening: the first click is never a mine)
    page.wait_for_selector(".ipyms-root[data-status='playing']")
    flag = page.locator(".ipyms-cell[data-state='.']").nth(0)
    flag.click(button="right")
    page.wait_for_selector(".ipyms-cell[data-state='f']")
    root.focus()
    page.keyboard.press("h")  # (after the flag: a move clears the hint)
    hint = page.locator(".ipyms-hint-cell")
    hint.wait_for()
    # the cursor on a covered cell that is neither flagged nor hinted
    target = page.locator(".ipyms-cell[data-state='.']:not(.ipyms-hint-cell)").last
    r, c = int(target.get_attribute("data-row")), int(target.get_attribute("data-col"))
    root.focus()
    page.keyboard.press("Control+Home")
    for key in ["ArrowDown"] * r + ["ArrowRight"] * c:
        page.keyboard.press(key)
    cursor = page.locator(".ipyms-cursor")
    assert cursor.get_attribute("data-state") == "." and "ipyms-hint-cell" not in (
        cursor.get_attribute("class") or ""
    )

    def sample() -> dict[str, Any]:
        cells = {
            "covered": page.locator(
                ".ipyms-cell[data-state='.']:not(.ipyms-hint-cell):not(.ipyms-cursor)"
            ).first,
            "open": page.locator(".ipyms-cell.ipyms-revealed:not(.ipyms-hint-cell):not(.ipyms-cursor)").first,
            "number": page.locator(".ipyms-cell.ipyms-revealed:not(.ipyms-n0)").first,
            "flagged": page.locator(".ipyms-cell[data-state='f']").first,
            "cursor": cursor,
            "hint": hint,
        }
        return {name: loc.evaluate(MARKS_JS) for name, loc in cells.items()}

    normal = sample()
    lab.screenshot("a11y-cursor-and-hint", root)
    page.emulate_media(forced_colors="active")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    forced = sample()
    system = page.evaluate(SYSTEM_JS, SYSTEM.split())
    lab.screenshot("a11y-forced-colours", root)
    page.emulate_media(forced_colors="none")
    print("normal:", normal)
    print("forced:", forced)
    print("system colours:", system)

    rgb_of = set(system.values())

    def marks(name: str) -> tuple[str, ...]:
        m = forced[name]
        return (m["background"], m["image"], m["ring"], m["outline"])

    # every pair of states differs in what is drawn (the fill, an icon, a ring or an outline)
    same = [
        (a, b)
        for a, b in itertools.combinations(["covered", "open", "flagged", "cursor", "hint"], 2)
        if marks(a) == marks(b)
    ]
    assert same == [], f"these look alike under forced colours: {same}"
    # a covered cell is set apart from an open one by something drawn in a system colour, not by a gradient
    # (the browser drops gradients and shadows unless the widget draws them in system colours)
    assert (
        forced["covered"]["ring"]
        or forced["covered"]["outline"]
        or (forced["covered"]["background"] != forced["open"]["background"])
    )
    for name in ("covered", "cursor", "hint"):
        drawn = " ".join((forced[name]["ring"], forced[name]["outline"], forced[name]["background"]))
        assert any(colour in drawn for colour in rgb_of), f"{name}: no system colour in {forced[name]}"
    # the cursor and the hint: a mark each that a plain covered cell does not have, and not the same mark
    for name in ("cursor", "hint"):
        extra = (forced[name]["ring"], forced[name]["outline"])
        assert extra != (forced["covered"]["ring"], forced["covered"]["outline"]), f"{name} is not marked"
    assert (forced["cursor"]["ring"], forced["cursor"]["outline"]) != (
        forced["hint"]["ring"],
        forced["hint"]["outline"],
    )
    # the number keeps a text colour of the user's palette
    assert forced["number"]["color"] in rgb_of


# A lost game with every picture a loss shows: mines, the exploded one, a flag on a mine, a wrong flag
LOST_WITH_FLAGS = """from ipyminesweeper import Minesweeper
w = Minesweeper('beginner', seed=8)
w.reveal(4, 4)
mines = [p for p in w.board.positions() if w.board.is_mine(p)]
safe = [p for p in w.board.positions() if not w.board.is_mine(p) and w.board.view[p] == '.']
w.flag(mines[0]); w.flag(safe[0]); w.reveal(mines[1])
w"""

# the picture drawn over a cell (its ::after): colour, mask and whether it is drawn at all
PICTURE_JS = """el => {
  const a = getComputedStyle(el, '::after');
  const mask = a.maskImage && a.maskImage !== 'none' ? a.maskImage : a.webkitMaskImage;
  return {drawn: a.content !== 'none' && a.content !== 'normal', colour: a.backgroundColor,
          mask: mask && mask !== 'none' ? mask.slice(0, 40) : '', cell: getComputedStyle(el).backgroundColor,
          image: getComputedStyle(el).backgroundImage.slice(0, 40)};
}"""


def _luminance(rgb: str) -> float:
    """WCAG's relative luminance of a computed ``rgb(r, g, b)``."""
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_forced_colours_draw_mines_and_wrong_flags(lab: Any, scheme: str) -> None:
    """Under forced colours a mine, the exploded mine and a wrong flag's cross are drawn in the user's
    colours (a fixed-colour picture of a dark mine vanishes on a black page), at 3:1 or more against their
    cell (WCAG 1.4.11); a wrong flag does not look like a flag on a mine."""
    page = lab.page
    root = _open(lab, f"forced-lost-{scheme}.ipynb", LOST_WITH_FLAGS)
    page.wait_for_selector(".ipyms-root[data-status='lost']")
    page.emulate_media(forced_colors="active", color_scheme=scheme)
    try:
        system = page.evaluate(SYSTEM_JS, [*SYSTEM.split(), "MarkText"])
        cells = {ch: page.locator(f".ipyms-cell[data-state='{ch}']").first for ch in "*XxF"}
        drawn = {ch: cell.evaluate(PICTURE_JS) for ch, cell in cells.items()}
        lab.screenshot(f"a11y-forced-colours-lost-{scheme}", root)
    finally:
        page.emulate_media(forced_colors="none", color_scheme="light")
    print("system colours:", system)
    print("pictures:", drawn)
    expected = {"*": ("CanvasText", "Canvas"), "X": ("MarkText", "Mark"), "x": ("ButtonText", "ButtonFace")}
    for ch, (ink, paper) in expected.items():
        picture = drawn[ch]
        assert picture["drawn"] and picture["mask"], f"{ch!r}: no picture in the user's colours: {picture}"
        assert picture["colour"] == system[ink] and picture["cell"] == system[paper], (ch, picture, system)
        assert _contrast(picture["colour"], picture["cell"]) >= 3, (ch, picture)
    assert drawn["*"]["image"] == "none", "the fixed-colour mine is not drawn under the user's one"
    assert not drawn["F"]["drawn"], "a flag on a mine has no cross"


# --------------------------------------------------------------------------------------------------
# Reflow and target size at three widths
# --------------------------------------------------------------------------------------------------

# ``boxes``: the scroll boxes WCAG 1.4.10 lets scroll sideways, as content that needs two dimensions: the
# board (a grid of cells) and the statistics' table (a data table)
SCROLL_BOXES = ".ipyms-board-wrap, .ipyms-stats"
REFLOW_JS = """(root, boxes) => {
  const inBox = el => el.closest(boxes) !== null && root.contains(el.closest(boxes));
  // every element of the widget outside those scroll boxes stays inside the widget
  const outside = [];
  const box = root.getBoundingClientRect();
  for (const el of root.querySelectorAll('*')) {
    if (inBox(el) || el.closest('[hidden]') || el.closest('.ipyms-help, .ipyms-announce')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) outside.push(el.className || el.tagName);
  }
  // nothing but those boxes scrolls sideways: the widget's own parts, and the page around it
  const scrolling = [];
  for (let el = root; el; el = el.parentElement) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'hidden')
      scrolling.push(`${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  for (const el of root.querySelectorAll('*')) {
    if (inBox(el)) continue;
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1)
      scrolling.push(`${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  const page = document.scrollingElement;
  const wrap = root.querySelector('.ipyms-board-wrap');
  return {outside, scrolling, page: [page.scrollWidth, page.clientWidth], root: [box.left, box.right],
          window: innerWidth, board: [wrap.scrollWidth, wrap.clientWidth]};
}"""

# how many lines the toolbar's controls take (their distinct tops)
LINES_JS = """t => new Set([...t.querySelectorAll('button, select, label')]
  .map(e => Math.round(e.getBoundingClientRect().top))).size"""

CELLS_JS = """root => {
  const cs = [...root.querySelectorAll('.ipyms-cell')].slice(0, 60);
  const rs = cs.map(c => c.getBoundingClientRect());
  return [Math.min(...rs.map(r => r.width)), Math.min(...rs.map(r => r.height))];
}"""


@pytest.mark.parametrize(
    "lab_sized", [PHONE, ZOOM_200, DESKTOP], indirect=True, ids=["320px", "zoom200", "1280px"]
)
def test_reflow_and_target_size(lab_sized: Any) -> None:
    """The three standard levels, one under the other, in a narrow window (320 CSS px; 640 at 200% zoom)
    and a wide one: cells and controls at least 24 px (or spaced as 2.5.8 allows), no two controls
    overlapping, the toolbar wrapped onto more lines when narrow, no horizontal scroll but the boards'."""
    lab = lab_sized
    page = lab.page
    width = page.viewport_size["width"]
    code = "from ipyminesweeper import Minesweeper\n" + "\n".join(
        f"display(Minesweeper('{level}', seed=1))" for level in LEVELS
    )
    roots = _open(lab, f"reflow{width}.ipynb", code, count=3)
    # JupyterLab opens its file browser, which takes the whole width of a narrow window: close it (the
    # notebook then has the window less JupyterLab's two side bars of tabs)
    page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
    page.wait_for_function("() => document.querySelector('.jp-NotebookPanel').offsetWidth > innerWidth * 0.7")
    page.wait_for_timeout(300)  # the ResizeObserver's fit
    problems: dict[str, Any] = {}
    for i, level in enumerate(LEVELS):
        root = roots.nth(i)
        root.evaluate("r => r.scrollIntoView({block: 'start'})")
        lab.screenshot(f"a11y-reflow-{width}px-{level}-window")
        lab.screenshot(f"a11y-reflow-{width}px-{level}", root)
        root.locator(".ipyms-reason").evaluate("r => r.scrollIntoView({block: 'end'})")
        lab.screenshot(f"a11y-reflow-{width}px-{level}-toolbar")
        cell_w, cell_h = root.evaluate(CELLS_JS)
        controls = root.evaluate(CONTROLS_JS, BARS)
        found = root.evaluate(REFLOW_JS, SCROLL_BOXES)
        print(f"{width} px {level}: cells {cell_w:.1f} x {cell_h:.1f}, {len(controls)} controls, {found}")
        print(
            "  the narrowest and the lowest control:",
            min((round(c["w"], 1), c["name"]) for c in controls),
            min((round(c["h"], 1), c["name"]) for c in controls),
        )
        if cell_w < TARGET or cell_h < TARGET:
            problems[f"{level} cells"] = (cell_w, cell_h)
        overlapping = [
            (a["name"], b["name"]) for a, b in itertools.combinations(controls, 2) if _overlap(a, b) > 0.5
        ]
        if overlapping:
            problems[f"{level} overlapping"] = overlapping
        # every control 24 x 24 px or more: no need of 2.5.8's spacing exception
        small = [
            f"{c['name']} {c['w']:.1f}x{c['h']:.1f}" for c in controls if min(c["w"], c["h"]) < TARGET - 0.01
        ]
        if small:
            problems[f"{level} small targets"] = small
        if found["outside"]:
            problems[f"{level} outside the widget"] = found["outside"][:8]
        if found["scrolling"] or found["page"][0] > found["page"][1]:
            problems[f"{level} scrolls sideways"] = found["scrolling"] + [f"page {found['page']}"]
        if found["root"][1] > found["window"] + 0.5:
            problems[f"{level} wider than the window"] = found["root"]
        if width <= 640:
            lines = root.locator(".ipyms-toolbar").evaluate(LINES_JS)
            if lines < 2:
                problems[f"{level} toolbar"] = "on one line"
    assert problems == {}, problems


@pytest.mark.parametrize("lab_sized", [PHONE, ZOOM_200], indirect=True, ids=["320px", "zoom200"])
def test_panels_reflow_and_target_size(lab_sized: Any) -> None:
    """The picker, statistics and help open at once, in a 320 CSS px window and at 200% zoom: every
    control of the panels (the level radios, the size fields, the settings, Start and Cancel) at least
    24 x 24 px, no two overlapping, nothing outside the widget, no sideways scroll but the board's."""
    lab = lab_sized
    page = lab.page
    width = page.viewport_size["width"]
    roots = _open(
        lab, f"panels{width}.ipynb", "from ipyminesweeper import Minesweeper\nMinesweeper('beginner', seed=1)"
    )
    page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()  # the file browser
    page.wait_for_function("() => document.querySelector('.jp-NotebookPanel').offsetWidth > innerWidth * 0.7")
    root = roots.nth(0)
    for toggle in (".ipyms-picker-toggle", ".ipyms-stats-toggle", ".ipyms-help-toggle"):
        root.locator(toggle).click()
    for panel in PANELS.split(", "):
        root.locator(panel).wait_for(state="visible")
    page.wait_for_timeout(300)  # the ResizeObserver's fit
    root.locator(".ipyms-picker").evaluate("r => r.scrollIntoView({block: 'start'})")
    lab.screenshot(f"a11y-panels-{width}px-picker")
    root.locator(".ipyms-help-panel").evaluate("r => r.scrollIntoView({block: 'end'})")
    lab.screenshot(f"a11y-panels-{width}px-help")
    controls = root.evaluate(CONTROLS_JS, PANELS)
    found = root.evaluate(REFLOW_JS, SCROLL_BOXES)
    print(f"{width} px panels: {len(controls)} controls, {found}")
    names = {c["name"] for c in controls}
    assert {"ipyms-start", "ipyms-picker-close", "ipyms-picker-line"} <= names, names  # measured, not missed
    problems: dict[str, Any] = {}
    small = [
        f"{c['name']} {c['w']:.1f}x{c['h']:.1f}" for c in controls if min(c["w"], c["h"]) < TARGET - 0.01
    ]
    if small:
        problems["small targets"] = small
    overlapping = [
        (a["name"], b["name"]) for a, b in itertools.combinations(controls, 2) if _overlap(a, b) > 0.5
    ]
    if overlapping:
        problems["overlapping"] = overlapping
    if found["outside"]:
        problems["outside the widget"] = found["outside"][:8]
    if found["scrolling"] or found["page"][0] > found["page"][1]:
        problems["scrolls sideways"] = found["scrolling"] + [f"page {found['page']}"]
    assert problems == {}, problems


# --------------------------------------------------------------------------------------------------
# Focus not obscured
# --------------------------------------------------------------------------------------------------

# What of the cursor's cell is in sight: the share of 7 x 7 points over it (2 px in from its edges: the
# board's frame has rounded corners) where the page's topmost element
# is the cell (not a sticky label, the toolbar, or a part scrolled away), and the rectangles compared.
SEEN_JS = """() => {
  const root = document.querySelector('.ipyms-root');
  const el = document.getElementById(root.getAttribute('aria-activedescendant'));
  if (!el) return null;
  const r = el.getBoundingClientRect();
  let seen = 0;
  for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
    const x = r.left + 2 + (r.width - 4) * i / 6, y = r.top + 2 + (r.height - 4) * j / 6;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) seen++;
  }
  const rect = sel => {
    const b = (sel ? root.querySelector(sel) : el).getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom].map(Math.round);
  };
  return {seen: seen / 49, row: +el.dataset.row, col: +el.dataset.col, cell: rect(null),
          colLabels: rect('.ipyms-col-labels'), rowLabels: rect('.ipyms-row-labels'),
          wrap: rect('.ipyms-board-wrap'), toolbar: rect('.ipyms-toolbar')};
}"""


def test_cursor_is_not_hidden_under_the_labels(lab: Any) -> None:
    """A 100 x 100 board with its row and column labels (sticky: they stay while the board scrolls under
    them). After each move, every sampled point of the cursor's cell is the cell itself."""
    page = lab.page
    root = _open(
        lab,
        "obscured.ipynb",
        "from ipyminesweeper import Minesweeper\n"
        "w = Minesweeper(size=100, mines=1000, seed=2, labels=True)\nw",
    )
    assert root.locator(".ipyms-board-wrap").evaluate(
        "w => w.scrollHeight > w.clientHeight && w.scrollWidth > w.clientWidth"
    )
    root.focus()
    page.keyboard.press("ArrowRight")
    moves = {
        "Ctrl+End": ["Control+End"],
        "PageUp": ["PageUp"],
        "up to the labels": ["ArrowUp"] * 40,
        "left to the labels": ["ArrowLeft"] * 60,
        "Ctrl+Home": ["Control+Home"],
        "PageDown": ["PageDown"],
        "PageDown twice": ["PageDown"],
        "End": ["End"],
        "down, then left to the labels": ["ArrowDown"] * 30
        + ["Home"]
        + ["ArrowRight"] * 50
        + ["ArrowLeft"] * 45,
    }
    hidden = {}
    for name, keys in moves.items():
        for key in keys:
            page.keyboard.press(key)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen = page.evaluate(SEEN_JS)
        print(name, seen)
        if seen is None or seen["seen"] < 1:
            hidden[name] = seen
            lab.screenshot(f"a11y-obscured-{name.replace(' ', '-').replace(',', '')}", root)
    lab.screenshot("a11y-focus-not-obscured", root)
    assert hidden == {}, f"the cursor's cell is (partly) hidden: {hidden}"
