"""The widget at every size in a real JupyterLab (headless Debian Chromium): grid on screen, click to repaint,
bytes per move, scrolling frames and the page's memory, each big board as a ratio to 16x16 in the same run.

    python -m benchmarks browser          # IPYMS_BENCH_CLICKS=20 (default), IPYMS_BENCH_OPENS=3

Boards: 16x16 (40 mines, the reference), 1000x1000 (150,000 mines) and 2000x2000 (600,000, the engine's
cap), plus a plain ipywidgets Button as the floor of a kernel round trip. Everything is measured IN the page:

- grid on screen: from the key press that runs the widget's cell (Ctrl+Enter) to the first frame after its
  first cell exists (median of IPYMS_BENCH_OPENS runs; the kernel is warm);
- click to repaint: from the input event (pointerup for a reveal, pointerdown for a flag: when the widget
  acts) to the first frame after the clicked cell's ``data-state`` shows the new state (a MutationObserver,
  then requestAnimationFrame and a task after it). Clicks go to cells in view that reveal exactly one cell
  (covered safe cells with a number) and to covered mines to flag, chosen from the kernel's board. The
  ratio is of the means: a repaint waits for a frame (every 16.7 ms), so single clicks take about 33 or
  about 55 ms depending on where in the frame they land, and a median of such samples jumps between the two;
- bytes: every kernel WebSocket frame of type ``comm_msg`` while a click is in flight (whole frames, both
  directions; the page's WebSocket is wrapped before JupyterLab loads). A cascade's bytes are divided by
  the cells it changed (from the kernel's board before and after), and its cost per cell is what it sends
  beyond a one-cell reveal, divided by the other cells it opened;
- scrolling: 90 animation frames, each scrolling the board by 120 px down and 40 px right; the longest
  and the median frame interval;
- memory: the resident size of Chromium's renderer processes (CDP SystemInfo.getProcessInfo + /proc),
  and the page's used JS heap.

Targets (issue 19), as ratios to 16x16: 1000x1000 grid on screen <= 2x, click to repaint <= 1.5x;
2000x2000 opens and plays with the page process under 600 MB; scrolling frames under 50 ms; bytes per
single-cell move independent of the board's size; a cascade about 2 bytes per changed cell plus a constant.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "browser"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

CLICKS = int(os.environ.get("IPYMS_BENCH_CLICKS", "20"))
OPENS = int(os.environ.get("IPYMS_BENCH_OPENS", "3"))
WARMUP = 3
SEED = 11
BOARDS = [("16x16", 16, 40), ("1000x1000", 1000, 150_000), ("2000x2000", 2000, 600_000)]
REGION = 40  # clicks go to cells among the first REGION rows and columns: in view, drawn
FRAMES = 90
TIMEOUT_MS = 180_000

WS_HOOK = r"""
(() => {
  const stats = { inBytes: 0, outBytes: 0, inMsgs: 0, outMsgs: 0, tSend: 0, tRecv: 0 };
  window.__ipymsWs = stats;
  const dec = new TextDecoder();
  function type(data) {
    try {
      if (typeof data === 'string') return JSON.parse(data).header.msg_type;
      const buf = data instanceof ArrayBuffer ? data : data.buffer;
      const view = new DataView(buf);
      const start = Number(view.getBigUint64(16, true)), end = Number(view.getBigUint64(24, true));
      return JSON.parse(dec.decode(new Uint8Array(buf, start, end - start))).msg_type;
    } catch (e) { return null; }
  }
  const size = d => typeof d === 'string' ? new TextEncoder().encode(d).length
    : (d.byteLength ?? d.size ?? 0);
  const Orig = window.WebSocket;
  class Counting extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ev => {
        if (typeof ev.data !== 'string' && !(ev.data instanceof ArrayBuffer)) return;
        if (type(ev.data) !== 'comm_msg') return;
        stats.inBytes += size(ev.data); stats.inMsgs += 1;
        if (!stats.tRecv) stats.tRecv = performance.now();
      });
    }
    send(data) {
      if (type(data) === 'comm_msg') {
        stats.outBytes += size(data); stats.outMsgs += 1;
        if (!stats.tSend) stats.tSend = performance.now();
      }
      return super.send(data);
    }
  }
  window.WebSocket = Counting;
})();
"""

FRAME_AFTER = "requestAnimationFrame(() => setTimeout(done, 0))"

ARM_CLICK = r"""
([r, c, state, trigger, timeout]) => {
  // the cell is looked up afresh on each change: a redrawn row replaces its cells
  const cell = () => document.querySelector(`.ipyms-cell[data-row="${r}"][data-col="${c}"]`);
  const ws = window.__ipymsWs;
  for (const k of Object.keys(ws)) ws[k] = 0;
  window.__ipymsResult = new Promise((resolve, reject) => {
    let t0 = null;
    window.addEventListener(trigger, ev => { t0 = ev.timeStamp; }, { capture: true, once: true });
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error('no repaint')); }, timeout);
    const done = () => {
      clearTimeout(timer);
      if (t0 === null) { reject(new Error('no ' + trigger + ' seen')); return; }
      resolve({ ms: performance.now() - t0, ...ws });
    };
    const obs = new MutationObserver(() => {
      if (cell()?.dataset.state !== state) return;
      obs.disconnect();
      %FRAME%;
    });
    obs.observe(document.querySelector('.ipyms-board'),
                { attributes: true, attributeFilter: ['data-state'], childList: true, subtree: true });
  });
}
""".replace("%FRAME%", FRAME_AFTER)

ARM_OPEN = r"""
(timeout) => {
  for (const r of document.querySelectorAll('.ipyms-root')) r.dataset.benchOld = '1';
  window.__ipymsResult = new Promise((resolve, reject) => {
    let t0 = null;
    // not `once`: Control comes down first
    const onKey = ev => { if (ev.key === 'Enter' && t0 === null) t0 = ev.timeStamp; };
    window.addEventListener('keydown', onKey, { capture: true });
    const timer = setTimeout(() => reject(new Error('no grid')), timeout);
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('keydown', onKey, { capture: true });
      resolve({ ms: performance.now() - t0 });
    };
    const poll = () => {
      const cell = document.querySelector('.ipyms-root:not([data-bench-old]) .ipyms-cell');
      if (cell && t0 !== null) %FRAME%; else requestAnimationFrame(poll);
    };
    poll();
  });
}
""".replace("%FRAME%", FRAME_AFTER)

SCROLL = r"""
(frames) => new Promise((resolve) => {
  const wrap = document.querySelector('.ipyms-board-wrap');
  const times = [];
  const step = (t) => {
    times.push(t);
    if (times.length > frames) {
      const gaps = times.slice(1).map((v, i) => v - times[i]).sort((a, b) => a - b);
      resolve({ median: gaps[gaps.length >> 1], p90: gaps[Math.floor(gaps.length * 0.9)],
                max: gaps[gaps.length - 1], cells: document.querySelectorAll('.ipyms-cell').length });
      return;
    }
    wrap.scrollTop += 120;
    wrap.scrollLeft += 40;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})
"""

BASELINE_CELLS = [
    "import ipywidgets as W\n"
    "b = W.Button(description='ping')\n"
    "h = W.HTML('0', layout=W.Layout(width='60px'))\n"
    "b.on_click(lambda _: setattr(h, 'value', str(int(h.value) + 1)))\n"
    "W.HBox([b, h])",
]

ARM_TEXT = r"""
([selector, text]) => {
  const el = document.querySelector(selector);
  const ws = window.__ipymsWs;
  for (const k of Object.keys(ws)) ws[k] = 0;
  window.__ipymsResult = new Promise((resolve) => {
    let t0 = null;
    window.addEventListener('mouseup', ev => { t0 = ev.timeStamp; }, { capture: true, once: true });
    const done = () => resolve({ ms: performance.now() - t0, ...ws });
    const obs = new MutationObserver(() => {
      if (el.textContent.trim() !== text) return;
      obs.disconnect();
      %FRAME%;
    });
    obs.observe(el, { childList: true, characterData: true, subtree: true });
  });
}
""".replace("%FRAME%", FRAME_AFTER)


def board_cells(n: int, mines: int) -> list[str]:
    """The notebook: the widget; a first reveal from Python; a probe of the top-left region."""
    return [
        "from ipyminesweeper import Minesweeper\n"
        f"w = Minesweeper(rows={n}, cols={n}, mines={mines}, seed={SEED})\nw",
        "w.reveal(3, 3)",
        "import json\nb = w.board\n"
        f"R = min({REGION}, b.rows)\n"
        "print('PROBE ' + json.dumps({'covered': b.view.cells.count('.'), 'region': [\n"
        "    [b.view[(r, c)], b.is_mine((r, c)), b.count((r, c))]\n"
        "    for r in range(R) for c in range(R)],\n"
        "    'R': R}))",
    ]


def zero_area(cells: list[tuple[int, int, str, bool, int]], size: int, r: int, c: int) -> int:
    """How many covered zeros of the region a cascade from (r, c) would open: the biggest is measured."""
    seen, todo = {(r, c)}, [(r, c)]
    while todo:
        y, x = todo.pop()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                q = (y + dy, x + dx)
                if q in seen or not (0 <= q[0] < size and 0 <= q[1] < size):
                    continue
                _, _, ch, mine, k = cells[q[0] * size + q[1]]
                if ch == "." and not mine and k == 0:
                    seen.add(q)
                    todo.append(q)
    return len(seen)


def pick(region: list[list[Any]], size: int, n: int) -> dict[str, list[tuple[int, int, str]]]:
    """Cells of the probed region: ``n`` one-cell reveals, ``n`` flags, and one cascade (the covered zero
    whose cascade is the largest in the region)."""
    cells = [(i // size, i % size, ch, mine, count) for i, (ch, mine, count) in enumerate(region)]
    reveals = [(r, c, str(k)) for r, c, ch, mine, k in cells if ch == "." and not mine and k > 0][:n]
    zeros = [(r, c, "0") for r, c, ch, mine, k in cells if ch == "." and not mine and k == 0]
    zeros = sorted(zeros, key=lambda z: -zero_area(cells, size, z[0], z[1]))[:1]
    # flags go to mines: no flag lands on a cell the cascade opens (a flag would stop it there)
    flags = [(r, c, "f") for r, c, ch, mine, _ in cells if ch == "." and mine][:n]
    return {"reveal": reveals, "flag": flags, "cascade": zeros}


def click(page: Any, cell: tuple[int, int, str], button: str) -> dict[str, float]:
    r, c, state = cell
    trigger = "pointerdown" if button == "right" else "pointerup"
    page.evaluate(ARM_CLICK, [r, c, state, trigger, TIMEOUT_MS])
    page.locator(f'.ipyms-cell[data-row="{r}"][data-col="{c}"]').click(button=button)
    return dict(page.evaluate("() => window.__ipymsResult"))


def renderer_rss_mb(browser: Any) -> float:
    """The largest resident size of Chromium's renderer processes, in MB (from /proc)."""
    try:
        info = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    except Exception:  # an older Chromium without SystemInfo: no figure rather than no benchmark
        return float("nan")
    rss = []
    for proc in info.get("processInfo", []):
        if proc.get("type") != "renderer":
            continue
        try:
            status = Path(f"/proc/{proc['id']}/status").read_text()
        except OSError:
            continue
        kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        rss.append(kb / 1024)
    return max(rss, default=float("nan"))


def open_times(page: Any, nb: Any) -> list[float]:
    """Grid on screen, OPENS times: re-run the widget's cell and time it to the first frame with cells."""
    out = []
    for _ in range(OPENS):
        page.evaluate(ARM_OPEN, TIMEOUT_MS)
        nb.code_cells().nth(0).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Control+Enter")
        out.append(float(page.evaluate("() => window.__ipymsResult")["ms"]))
        page.keyboard.press("Escape")
        nb.wait_idle()
    return out


def measure_board(browser: Any, server: Any, label: str, n: int, mines: int) -> dict[str, Any]:
    from conftest import NotebookPage, new_page

    server.reset_user_state()
    context, page, errors = new_page(browser)
    context.set_default_timeout(TIMEOUT_MS)
    page.add_init_script(WS_HOOK)
    nb = NotebookPage(page, server, errors)
    name = f"bench-{label}.ipynb"
    server.write_notebook(name, board_cells(n, mines))
    nb.open(name)
    nb.run_all(timeout=TIMEOUT_MS)
    page.wait_for_selector(".ipyms-root .ipyms-cell")
    probe = nb.probe(2)
    chosen = pick(probe["region"], probe["R"], CLICKS + WARMUP)
    reveals = [click(page, cell, "left") for cell in chosen["reveal"]][WARMUP:]
    flags = [click(page, cell, "right") for cell in chosen["flag"]][WARMUP:]
    row: dict[str, Any] = {"board": label, "reveal": reveals, "flag": flags}
    if chosen["cascade"]:
        before = nb.probe(2)["covered"]
        row["cascade"] = click(page, chosen["cascade"][0], "left")
        row["cascade"]["cells"] = before - nb.probe(2)["covered"]
    row["scroll"] = page.evaluate(SCROLL, FRAMES)
    row["rss_mb"] = renderer_rss_mb(browser)
    row["heap_mb"] = page.evaluate("() => performance.memory.usedJSHeapSize / 2**20")
    page.locator(".ipyms-board-wrap").evaluate("w => { w.scrollTop = 0; w.scrollLeft = 0; }")
    row["open"] = open_times(page, nb)
    errors.check()
    context.close()
    server.shutdown_kernels()
    return row


def baseline(browser: Any, server: Any) -> list[dict[str, float]]:
    """The floor: a plain ipywidgets Button whose Python callback updates an HTML widget's text."""
    from conftest import NotebookPage, new_page

    server.reset_user_state()
    context, page, errors = new_page(browser)
    page.add_init_script(WS_HOOK)
    nb = NotebookPage(page, server, errors)
    server.write_notebook("baseline.ipynb", BASELINE_CELLS)
    nb.open("baseline.ipynb")
    nb.run_all()
    page.wait_for_selector(".jp-OutputArea-output .widget-html-content")
    out = []
    for i in range(CLICKS + WARMUP):
        page.evaluate(ARM_TEXT, [".jp-OutputArea-output .widget-html-content", str(i + 1)])
        page.locator(".jp-OutputArea-output button.jupyter-button").click()
        out.append(dict(page.evaluate("() => window.__ipymsResult")))
    context.close()
    server.shutdown_kernels()
    return out[WARMUP:]


def run() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from chromium import BASE_ARGS, chromium_path
    from conftest import start_server

    results: dict[str, Any] = {"boards": []}
    with tempfile.TemporaryDirectory(prefix="ipyms-bench-") as tmp:
        server = start_server("lab", Path(tmp) / "lab")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=BASE_ARGS)
                results["baseline"] = baseline(browser, server)
                for label, n, mines in BOARDS:
                    t = time.perf_counter()
                    results["boards"].append(measure_board(browser, server, label, n, mines))
                    print(f"  {label}: done in {time.perf_counter() - t:.0f} s", file=sys.stderr)
                browser.close()
        finally:
            server.stop()
    return results


def med(samples: list[dict[str, float]], key: str) -> float:
    return float(statistics.median(s[key] for s in samples)) if samples else float("nan")


def mean(samples: list[dict[str, float]], key: str) -> float:
    return float(statistics.fmean(s[key] for s in samples)) if samples else float("nan")


def table(results: dict[str, Any]) -> str:
    ref = results["boards"][0]
    ref_open, ref_reveal = statistics.median(ref["open"]), mean(ref["reveal"], "ms")
    floor = results["baseline"]
    lines = [
        f"floor (plain ipywidgets Button): click to repaint {mean(floor, 'ms'):.0f} ms (mean), "
        f"{med(floor, 'inBytes'):.0f} B in per click",
        "| board | grid on screen | click to repaint (reveal, mean) | flag | bytes in per reveal / flag "
        "| cascade | scroll frames (median / max) | renderer RSS / JS heap |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in results["boards"]:
        opened = statistics.median(row["open"])
        reveal = mean(row["reveal"], "ms")
        cascade = row.get("cascade")
        casc = "-"
        if cascade and cascade.get("cells"):
            extra = (cascade["inBytes"] - med(row["reveal"], "inBytes")) / max(1, cascade["cells"] - 1)
            casc = f"{cascade['inBytes']:,.0f} B for {cascade['cells']} cells ({extra:+.1f} B per extra cell)"
        scroll = row["scroll"]
        lines.append(
            f"| {row['board']} | {opened / 1000:.2f} s ({opened / ref_open:.2f}x) | {reveal:.0f} ms "
            f"({reveal / ref_reveal:.2f}x) | {mean(row['flag'], 'ms'):.0f} ms "
            f"| {med(row['reveal'], 'inBytes'):,.0f} / {med(row['flag'], 'inBytes'):,.0f} B | {casc} "
            f"| {scroll['median']:.0f} / {scroll['max']:.0f} ms "
            f"({scroll['cells']} cells drawn) | {row['rss_mb']:.0f} MB / {row['heap_mb']:.0f} MB |"
        )
    return "\n".join(lines)


def main() -> None:
    print(f"the widget at every size, JupyterLab + Chromium, {CLICKS} clicks per action, {OPENS} opens")
    results = run()
    print(table(results))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
