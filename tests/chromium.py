"""Launching Debian's Chromium for the end-to-end tests (Playwright cannot download browsers here)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = os.environ.get("IPYMINESWEEPER_CHROMIUM", "/usr/bin/chromium")

BASE_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Every host but the loopback one fails to resolve: proves a page works offline.
OFFLINE_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def chromium_path() -> str | None:
    """The Chromium binary, or None when it is not installed."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


def artifacts_dir(name: str) -> Path:
    """A folder for screenshots, under ./artifacts (override with IPYMINESWEEPER_ARTIFACTS)."""
    root = Path(os.environ.get("IPYMINESWEEPER_ARTIFACTS", "artifacts"))
    path = (root / name).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


# A notebook that ran top to bottom, as JupyterLab shows it (the Lab and the Lite site alike): every code
# cell has an execution count and the kernel is idle. A cell whose input is folded (a solution) shows an
# empty prompt and is excused. A Python traceback in any output is a failure, except inside an exercise
# check, whose counterexample shows the student's traceback on purpose.
ALL_CELLS_RAN_JS = """() => {
  const own = o => {
    const c = o.cloneNode(true);
    c.querySelectorAll('.ipyms-check').forEach(e => e.remove());
    return c.textContent;
  };
  const outputs = [...document.querySelectorAll('.jp-Notebook .jp-OutputArea-output')];
  const error = outputs.find(o => own(o).includes('Traceback (most recent call last)'));
  if (error) return 'error: ' + own(error).slice(0, 3000);
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim());
  const ran = p => /^\\[\\d+\\]:$/.test(p);
  const status = document.querySelector('#jp-main-statusbar')?.innerText ?? '';
  const done = /\\| Idle/.test(status) && prompts.some(ran) && prompts.every(p => p === '' || ran(p));
  return done ? 'done' : false;
}"""


def all_cells_ran(page: Page, timeout_ms: int, polling: int = 500) -> str:
    """Wait until the notebook reads as run top to bottom (ALL_CELLS_RAN_JS) twice, 1 s apart, and return
    "done"; or return the first error it shows. Once is not enough: between two cells, or while the front
    end talks to an idle kernel, the status can read Idle a moment and then Busy again. Raises Playwright's
    TimeoutError when no answer comes within ``timeout_ms`` of one wait."""
    while True:
        outcome = page.wait_for_function(ALL_CELLS_RAN_JS, timeout=timeout_ms, polling=polling).json_value()
        if outcome != "done":
            return str(outcome)
        page.wait_for_timeout(1000)
        again = page.evaluate(ALL_CELLS_RAN_JS)
        if again:
            return str(again)
