"""How long a student waits for the offline site, and how many bytes it moves: ``python -m benchmarks
lite-load``.

The site (``make lite``, dist/lite) is served on loopback by the class server
(``python -m ipyminesweeper.classroom serve``), gzipped as students' browsers get it, and by the same
server with gzip off, as ``make serve-lite``'s ``http.server`` serves it. In headless Chromium, for each:

- **board**: from opening ``lab/index.html?path=01-play.ipynb`` to the first playable board (Run All;
  the first widget drawn, with cells, and live: no snapshot note);
- **print(1)**: from opening the same URL to the output of ``print(1)`` in a cell added at the top once
  the kernel is idle: the site's own start, Pyodide's included, and one cell (the reference);

cold (a new browser profile: empty cache) and warm (the same profile, the page opened again; the server
sends ``Cache-Control: no-cache``, so each file is asked again and answered 304 when unchanged). The
bytes are the bodies the server sent (Content-Length of each 200), counted on the server.

The reference is our site running ``print(1)``, not a separately built empty JupyterLite site: it differs
from one by the three JupyterLab extensions the course needs (ipywidgets' manager, anywidget and the
kernel's), 1.6 MB on disk.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "lite"), str(ROOT / "scripts")]

SITE = ROOT / "dist" / "lite"
NOTEBOOK = "01-play.ipynb"
ROUNDS = int(os.environ.get("IPYMS_BENCH_LOAD_ROUNDS", "3"))
TIMEOUT_MS = 600_000

BOARD_JS = """() => [...document.querySelectorAll('.ipyms-root')].some(root =>
    root.querySelector('[role=gridcell]') && root.querySelector('.ipyms-snapshot-note')?.hidden)"""
PRINTED_JS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].some(cell =>
    cell.querySelector('.jp-InputPrompt')?.textContent.includes('[1]')
    && cell.querySelector('.jp-OutputArea-output')?.innerText.trim() === '1')"""


def counting_server(site: Path, gzip: bool) -> Any:
    """The class server on a free loopback port, counting the bytes of the bodies it sends."""
    from ipyminesweeper.classroom.handin import HandInFolder
    from ipyminesweeper.classroom.serve import ClassServer, HandInHandler, RateLimit

    class Counted(ClassServer):
        sent = 0  # bytes of the bodies sent

    class Counting(HandInHandler):
        def send_head(self) -> Any:
            return super().send_head() if gzip else SimpleHTTPRequestHandler.send_head(self)

        def send_header(self, keyword: str, value: str) -> None:
            if keyword.lower() == "content-length" and self.status == 200:
                body = self.gzip_body  # (the base class puts its length in the header)
                with sent_lock:
                    server.sent += int(value) if body is None else len(body)
            super().send_header(keyword, value)

    sent_lock = threading.Lock()
    handin = Path(tempfile.mkdtemp(prefix="ipyms-bench-handin-"))
    with open(os.devnull, "w") as quiet:
        server = Counted(("127.0.0.1", 0), site, HandInFolder(handin), "BENCH", RateLimit(9), quiet)
    server.RequestHandlerClass = functools.partial(Counting, directory=str(site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def open_board(page: Any, url: str) -> None:
    """Open 01-play, Run All, wait for its first playable board (the later cells run on)."""
    from test_lite_site import wait_for_kernel

    page.goto(f"{url}lab/index.html?path={NOTEBOOK}")
    page.wait_for_selector("#jp-main-statusbar", timeout=TIMEOUT_MS)
    wait_for_kernel(page)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator("#jp-mainmenu-run li[data-command='runmenu:run-all']").click()
    page.wait_for_function(BOARD_JS, timeout=TIMEOUT_MS, polling=100)


def print_one(page: Any, url: str) -> None:
    """Open 01-play, add a cell at the top once the kernel is idle, run print(1) in it."""
    from test_lite_site import wait_for_kernel

    page.goto(f"{url}lab/index.html?path={NOTEBOOK}")
    page.wait_for_selector("#jp-main-statusbar", timeout=TIMEOUT_MS)
    wait_for_kernel(page)
    page.locator(".jp-Notebook .jp-Cell").first.click()
    page.keyboard.press("Escape")
    page.keyboard.press("a")
    page.keyboard.press("Enter")
    page.keyboard.type("print(1)")
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(PRINTED_JS, timeout=TIMEOUT_MS, polling=100)


def timed(browser: Any, server: Any, action: Any) -> dict[str, float]:
    """Cold then warm: seconds and bytes of each."""
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    out: dict[str, float] = {}
    try:
        for kind in ("cold", "warm"):
            page = context.new_page()
            before = server.sent
            started = time.monotonic()
            action(page, url)
            out[f"{kind}_s"] = time.monotonic() - started
            out[f"{kind}_mb"] = (server.sent - before) / 1e6
            page.close()
    finally:
        context.close()
    return out


def run(rounds: int = ROUNDS) -> dict[str, Any]:
    import build_lite
    from playwright.sync_api import sync_playwright

    from chromium import BASE_ARGS, chromium_path

    site = build_lite.build(SITE, [ROOT / "notebooks"])
    path = chromium_path()
    if path is None:
        raise SystemExit("no Chromium at /usr/bin/chromium: run `make browser`")
    on_disk = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    runs: dict[str, list[dict[str, float]]] = {}
    servers = {"gzip": counting_server(site, gzip=True), "plain": counting_server(site, gzip=False)}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=BASE_ARGS)
        try:
            for _ in range(rounds):  # interleaved, so that the machine's load falls on each alike
                for served, server in servers.items():
                    for name, action in (("board", open_board), ("print1", print_one)):
                        runs.setdefault(f"{served} {name}", []).append(timed(browser, server, action))
            version = browser.version
        finally:
            browser.close()
    for server in servers.values():
        server.shutdown()
    medians = {key: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for key, rs in runs.items()}
    return {
        "rounds": rounds,
        "site_mb": on_disk / 1e6,
        "chromium": version,
        "medians": medians,
        "runs": runs,
        "load": os.getloadavg(),
    }


def report(r: dict[str, Any]) -> str:
    m = r["medians"]
    lines = [
        f"[lite-load] dist/lite: {r['site_mb']:.1f} MB on disk; Chromium {r['chromium']}; median of "
        f"{r['rounds']} rounds, interleaved",
        "",
        "| served | to | cold s | cold MB | warm s | warm MB |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for key, x in m.items():
        served, name = key.split()
        what = "a playable 01-play board" if name == "board" else "print(1) run"
        lines.append(
            f"| {served} | {what} | {x['cold_s']:.1f} | {x['cold_mb']:.1f} | {x['warm_s']:.1f} "
            f"| {x['warm_mb']:.2f} |"
        )
    lines.append("")
    for served in ("gzip", "plain"):
        board, ref = m[f"{served} board"], m[f"{served} print1"]
        lines.append(
            f"{served}: board / print(1) = {board['cold_s'] / ref['cold_s']:.2f}x cold, "
            f"{board['warm_s'] / ref['warm_s']:.2f}x warm"
        )
    gz, plain = m["gzip board"]["cold_mb"], m["plain board"]["cold_mb"]
    lines.append(f"bytes per student, cold board: gzip {gz:.1f} MB, plain {plain:.1f} MB ({gz / plain:.2f}x)")
    lines.append(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, load average "
        + ", ".join(f"{x:.2f}" for x in r["load"])
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    from benchmarks.figures import record

    result = run()
    print(report(result))
    print(json.dumps(result["medians"]))
    record("lite-load", "site on disk", result["site_mb"], "MB", better="lower")
    for key, x in result["medians"].items():
        for kind in ("cold", "warm"):
            record("lite-load", f"{key} {kind}", x[f"{kind}_s"], "s", better="lower")
            record("lite-load", f"{key} {kind} bytes", x[f"{kind}_mb"], "MB", better="lower")


if __name__ == "__main__":
    main()
