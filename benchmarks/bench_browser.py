"""Click-to-repaint latency of the widget in a real JupyterLab (headless Debian Chromium), and the bytes
synced per move.

    .venv/bin/python -m benchmarks.bench_browser            # or: python benchmarks/bench_browser.py
    IPYMS_BENCH_CLICKS=50 (default)

For each board (16x16, 16 rows x 30 cols, 100x100) a notebook creates the widget with a seed and makes a
first reveal from Python; the benchmark then clicks 50 cells that each reveal exactly one new cell (safe
cells with a number, chosen from the layout the kernel reports), and right-clicks 50 covered cells
(flag toggles; they also round-trip through Python). All is measured IN the page:

- latency: from the mouseup event's timestamp (the widget acts on release) to the first frame after the
  clicked cell's ``data-state`` reflects the new state (a MutationObserver, then requestAnimationFrame
  and a task after it, i.e. after that frame was produced). It spans JS -> comm -> kernel (validation,
  engine, traitlet sync) -> comm -> repaint.
- bytes: every kernel WebSocket frame is counted (the page's WebSocket is wrapped before JupyterLab
  loads); a move's bytes are the ``comm_msg`` frames between the click and the repaint, both directions,
  whole frames as they travel (headers included), plus the size of the synced state alone
  (``content.data`` as JSON).

Targets (issue 3): median 50 ms for 30x16, 150 ms for 100x100.
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
for extra in (ROOT, ROOT / "tests" / "browser"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from ipyminesweeper import Board  # noqa: E402

CLICKS = int(os.environ.get("IPYMS_BENCH_CLICKS", "50"))
WARMUP = 5
BOARDS = [  # label, rows, cols, mines, target median ms
    ("16x16", 16, 16, 40, None),
    ("30x16", 16, 30, 99, 50.0),
    ("100x100", 100, 100, 1500, 150.0),
]

WS_HOOK = r"""
(() => {
  const stats = { inBytes: 0, outBytes: 0, inMsgs: 0, outMsgs: 0, dataBytes: 0, tSend: 0, tRecv: 0 };
  window.__ipymsWs = stats;
  const dec = new TextDecoder();
  function parse(data) {
    try {
      if (typeof data === 'string') return JSON.parse(data);
      const buf = data instanceof ArrayBuffer ? data : data.buffer;
      const view = new DataView(buf);
      const n = Number(view.getBigUint64(0, true));
      const offs = [];
      for (let i = 0; i < n; i++) offs.push(Number(view.getBigUint64(8 * (i + 1), true)));
      const end = i => offs[i + 1] ?? buf.byteLength;
      const part = i => dec.decode(new Uint8Array(buf, offs[i], end(i) - offs[i]));
      return { channel: part(0), header: JSON.parse(part(1)), content: JSON.parse(part(4)) };
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
        const msg = parse(ev.data);
        if (msg && msg.header && msg.header.msg_type === 'comm_msg') {
          stats.inBytes += size(ev.data); stats.inMsgs += 1;
          if (!stats.tRecv) stats.tRecv = performance.now();
          stats.dataBytes += JSON.stringify(msg.content.data).length;
        }
      });
    }
    send(data) {
      const msg = parse(data);
      if (msg && msg.header && msg.header.msg_type === 'comm_msg') {
        stats.outBytes += size(data); stats.outMsgs += 1;
        if (!stats.tSend) stats.tSend = performance.now();
      }
      return super.send(data);
    }
  }
  window.WebSocket = Counting;
})();
"""

ARM = r"""
([r, c, state, trigger]) => {
  const el = document.querySelector(`.ipyms-cell[data-row="${r}"][data-col="${c}"]`);
  const ws = window.__ipymsWs;
  for (const k of Object.keys(ws)) ws[k] = 0;
  window.__ipymsResult = new Promise((resolve, reject) => {
    let t0 = null;
    // The widget flags on mousedown (right button) and reveals on mouseup (left button).
    const onInput = ev => { t0 = ev.timeStamp; };
    window.addEventListener(trigger, onInput, { capture: true, once: true });
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error('no repaint')); }, 30000);
    const obs = new MutationObserver(() => {
      if (el.dataset.state !== state) return;
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => {
        clearTimeout(timer);
        if (t0 === null) { reject(new Error('no ' + trigger + ' seen')); return; }
        const t1 = performance.now();
        resolve({ ms: t1 - t0, js: ws.tSend - t0, kernel: ws.tRecv - ws.tSend, paint: t1 - ws.tRecv,
                  ...ws });
      }, 0));
    });
    obs.observe(el, { attributes: true, attributeFilter: ['data-state'] });
  });
}
"""


ARM_TEXT = r"""
([selector, text]) => {
  const el = document.querySelector(selector);
  const ws = window.__ipymsWs;
  for (const k of Object.keys(ws)) ws[k] = 0;
  window.__ipymsResult = new Promise((resolve, reject) => {
    let t0 = null;
    window.addEventListener('mouseup', ev => { t0 = ev.timeStamp; }, { capture: true, once: true });
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error('no repaint')); }, 30000);
    const obs = new MutationObserver(() => {
      if (el.textContent.trim() !== text) return;
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => {
        clearTimeout(timer);
        const t1 = performance.now();
        resolve({ ms: t1 - t0, js: ws.tSend - t0, kernel: ws.tRecv - ws.tSend, paint: t1 - ws.tRecv,
                  ...ws });
      }, 0));
    });
    obs.observe(el, { childList: true, characterData: true, subtree: true });
  });
}
"""

BASELINE_CELLS = [
    "import ipywidgets as W\n"
    "b = W.Button(description='ping')\n"
    "h = W.HTML('0', layout=W.Layout(width='60px'))\n"
    "b.on_click(lambda _: setattr(h, 'value', str(int(h.value) + 1)))\n"
    "W.HBox([b, h])",
]


def _baseline(page: Any, clicks: int) -> list[dict[str, float]]:
    """The floor: a plain ipywidgets Button whose Python callback updates an HTML widget's text."""
    page.wait_for_selector(".jp-OutputArea-output .widget-html-content")
    out = []
    for i in range(clicks):
        page.evaluate(ARM_TEXT, [".jp-OutputArea-output .widget-html-content", str(i + 1)])
        page.locator(".jp-OutputArea-output button.jupyter-button").click()
        out.append(dict(page.evaluate("() => window.__ipymsResult")))
    return out


def _pick_cells(board: Board, n: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``n`` covered safe cells with a number (each click reveals exactly that cell) and ``n`` other
    covered cells to flag."""
    numbered = [
        p for p in board.positions() if board.view[p] == "." and not board.is_mine(p) and board.count(p) > 0
    ]
    # Spread over the board: every k-th candidate.
    step = max(1, len(numbered) // n)
    reveals = numbered[::step][:n]
    taken = set(reveals)
    others = [p for p in board.positions() if board.view[p] == "." and p not in taken]
    step = max(1, len(others) // n)
    flags = others[::step][:n]
    if len(reveals) < n or len(flags) < n:
        raise RuntimeError(f"board too small for {n} clicks")
    return reveals, flags


def _click(page: Any, pos: tuple[int, int], state: str, button: str) -> dict[str, float]:
    trigger = "mousedown" if button == "right" else "mouseup"
    page.evaluate(ARM, [pos[0], pos[1], state, trigger])
    page.locator(f'.ipyms-cell[data-row="{pos[0]}"][data-col="{pos[1]}"]').click(button=button)
    return dict(page.evaluate("() => window.__ipymsResult"))


def _summary(samples: list[dict[str, float]]) -> dict[str, float]:
    ms = sorted(s["ms"] for s in samples)
    q = statistics.quantiles(ms, n=10)
    return {
        "n": len(ms),
        "median": statistics.median(ms),
        "p10": q[0],
        "p90": q[-1],
        "min": ms[0],
        "max": ms[-1],
        "in": statistics.median(s["inBytes"] for s in samples),
        "out": statistics.median(s["outBytes"] for s in samples),
        "data": statistics.median(s["dataBytes"] for s in samples),
        "msgs": statistics.median(s["inMsgs"] for s in samples),
        "js": statistics.median(s["js"] for s in samples),
        "kernel": statistics.median(s["kernel"] for s in samples),
        "paint": statistics.median(s["paint"] for s in samples),
    }


def run(clicks: int = CLICKS) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright
    from tests.chromium import BASE_ARGS, chromium_path

    from conftest import NotebookPage, new_page, start_server

    rows_out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="ipyms-bench-") as tmp:
        server = start_server("lab", Path(tmp) / "lab")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=BASE_ARGS)
                server.reset_user_state()
                context, page, errors = new_page(browser)
                page.add_init_script(WS_HOOK)
                nb = NotebookPage(page, server, errors)
                server.write_notebook("baseline.ipynb", BASELINE_CELLS)
                nb.open("baseline.ipynb")
                nb.run_all()
                samples = _baseline(page, clicks + WARMUP)
                errors.check()
                row = {"board": "ipywidgets", "action": "button", "target": None}
                row.update(_summary(samples[WARMUP:]))
                rows_out.append(row)
                context.close()
                server.shutdown_kernels()
                for label, rows, cols, mines, target in BOARDS:
                    server.reset_user_state()
                    context, page, errors = new_page(browser)
                    page.add_init_script(WS_HOOK)
                    nb = NotebookPage(page, server, errors)
                    name = f"bench-{label}.ipynb"
                    server.write_notebook(
                        name,
                        [
                            "from ipyminesweeper import Minesweeper\n"
                            f"w = Minesweeper(rows={rows}, cols={cols}, mines={mines}, seed=11)\n"
                            f"w.reveal({rows // 2}, {cols // 2})\nw",
                            "print('PROBE ' + __import__('json').dumps(w.board.to_text()))",
                        ],
                    )
                    t = time.perf_counter()
                    nb.open(name)
                    nb.run_all()
                    page.wait_for_selector(".ipyms-cell")
                    board = Board.from_text(nb.probe(1))
                    reveals, flags = _pick_cells(board, clicks + WARMUP)
                    rev = [_click(page, p, str(board.count(p)), "left") for p in reveals]
                    flg = [_click(page, p, "f", "right") for p in flags]
                    errors.check()
                    for action, samples in (("reveal", rev), ("flag", flg)):
                        row = {"board": label, "action": action, "target": target}
                        row.update(_summary(samples[WARMUP:]))
                        rows_out.append(row)
                    print(f"  {label}: done in {time.perf_counter() - t:.0f} s", file=sys.stderr)
                    context.close()
                    server.shutdown_kernels()
                browser.close()
        finally:
            server.stop()
    return rows_out


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        f"{'board':10} {'action':7} {'n':>3} {'median':>7} {'p10':>6} {'p90':>6} {'min':>6} "
        f"{'max':>6} {'target':>7} {'js':>5} {'kernel':>6} {'paint':>5} {'B in':>6} {'B out':>6} "
        f"{'state B':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        target = f"{r['target']:.0f}" if r["target"] else "-"
        ok = "" if not r["target"] else (" ok" if r["median"] <= r["target"] else " MISSED")
        lines.append(
            f"{r['board']:10} {r['action']:7} {r['n']:>3} {r['median']:>7.1f} {r['p10']:>6.1f} "
            f"{r['p90']:>6.1f} {r['min']:>6.1f} {r['max']:>6.1f} {target:>7} {r['js']:>5.1f} "
            f"{r['kernel']:>6.1f} {r['paint']:>5.1f} {r['in']:>6.0f} "
            f"{r['out']:>6.0f} {r['data']:>7.0f}{ok}"
        )
    lines.append(
        "ms: the input event (mouseup for a reveal, mousedown for a flag: when the widget acts) -> "
        "first frame showing the new cell state; medians of its parts: js = input -> comm message "
        "sent, kernel = sent -> state message received (WebSocket, kernel, traitlet sync), paint = "
        "received -> frame. B in / B out: comm_msg WebSocket bytes per move (kernel -> browser / "
        "browser -> kernel); state B: the synced state's JSON. The ipywidgets/button row is the floor "
        "on this machine: a plain ipywidgets Button whose Python callback sets an HTML widget's text."
    )
    return "\n".join(lines)


def main() -> None:
    print(f"click-to-repaint in JupyterLab + headless Chromium, {CLICKS} clicks per row")
    rows = run()
    print(table(rows))
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
