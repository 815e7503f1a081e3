"""Fixtures for the end-to-end tests: a JupyterLab and a Notebook 7 server, Debian's Chromium, pages.

Everything runs offline and in temporary folders:

- each server is a subprocess on a free loopback port, with its own JUPYTER_CONFIG_DIR, JUPYTER_DATA_DIR,
  JUPYTER_RUNTIME_DIR and IPYTHONDIR, serving a temporary root folder into which the tests write their
  notebooks (the repository's notebooks are never opened, so autosave never rewrites them);
- Chromium is /usr/bin/chromium driven by Playwright (``playwright install`` needs the network), with the
  flags of ``tests/chromium.py`` and temporary profile/config/cache folders;
- every test gets a fresh browser context; a JavaScript error on the page (``pageerror``) fails the test,
  and console errors that mention the widget fail it too (anywidget reports a failed render that way).

Screenshots go to ``artifacts_dir("browser")`` (``./artifacts/browser``, or
``$IPYMINESWEEPER_ARTIFACTS``); the folder is printed at the end of the run. See docs/testing.md.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat
import pytest

# tests/ is on sys.path (pytest puts the folder of tests/conftest.py there)
from chromium import BASE_ARGS, artifacts_dir, chromium_path

if TYPE_CHECKING:  # playwright is imported when a browser starts, so that collecting needs none
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Locator, Page, ViewportSize

SERVER_START_TIMEOUT = float(os.environ.get("IPYMS_SERVER_TIMEOUT", "180"))  # seconds
UI_TIMEOUT_MS = int(os.environ.get("IPYMS_UI_TIMEOUT_MS", "120000"))  # kernel start, run all, ...
ACTION_TIMEOUT_MS = 30_000  # one click or key reaching Python and back
VIEWPORT: ViewportSize = {"width": 1280, "height": 1000}

# Console errors that are ours (the widget failed to load or render) and so fail the test.
WIDGET_CONSOLE_ERROR = re.compile(r"anywidget|ipyms|ipyminesweeper|minesweeper", re.IGNORECASE)

KNOWN_LITE_ERROR = "Shared module @jupyterlite/services doesn't exist in shared scope"

SCREENSHOTS: list[Path] = []
CALL_FAILED = pytest.StashKey[bool]()


# --------------------------------------------------------------------------------------------------
# Skips and markers
# --------------------------------------------------------------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test here is a browser test; skip them all when Chromium or Playwright is missing."""
    here = Path(__file__).parent
    reason = None
    if chromium_path() is None:
        reason = "no Chromium: run `make browser` (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "Python Playwright is not installed (pip install -e '.[test]')"
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCREENSHOTS:
        folder = SCREENSHOTS[0].parent
        terminalreporter.write_sep("-", "browser screenshots")
        terminalreporter.write_line(f"{len(SCREENSHOTS)} screenshot(s) in {folder}")
        for path in SCREENSHOTS:
            terminalreporter.write_line(f"  {path.name}")


# --------------------------------------------------------------------------------------------------
# Jupyter servers
# --------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class JupyterServer:
    """A running ``jupyter lab`` or ``jupyter notebook`` (Notebook 7) subprocess."""

    kind: str  # "lab" or "notebook"
    url: str
    root: Path  # the server's root_dir: test notebooks are written here
    config_dir: Path
    log_path: Path
    proc: subprocess.Popen[bytes] = field(repr=False)

    def write_notebook(self, name: str, cells: list[str]) -> str:
        """Write a notebook of code cells into the server's root; returns its name (the URL path)."""
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        }
        nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
        nbformat.write(nb, self.root / name)
        return name

    def notebook_url(self, name: str) -> str:
        if self.kind == "lab":
            return f"{self.url}/lab/tree/{name}?reset"
        return f"{self.url}/notebooks/{name}"

    def api(self, method: str, path: str) -> Any:
        req = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def reset_user_state(self) -> None:
        """Forget the saved theme and workspace so that each test starts from JupyterLab's defaults
        (light theme, nothing open), and never ask about news (the toast would cover the page)."""
        for sub in ("lab/user-settings", "lab/workspaces"):
            shutil.rmtree(self.config_dir / sub, ignore_errors=True)
        settings = self.config_dir / "lab/user-settings/@jupyterlab/apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False})
        )

    def shutdown_kernels(self) -> None:
        """Stop every session's kernel (a closed page leaves its kernel running)."""
        try:
            for session in self.api("GET", "/api/sessions"):
                self.api("DELETE", f"/api/sessions/{session['id']}")
            for kernel in self.api("GET", "/api/kernels"):
                self.api("DELETE", f"/api/kernels/{kernel['id']}")
        except (urllib.error.URLError, OSError):  # pragma: no cover - best effort at teardown
            pass

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        self.proc.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait(timeout=10)


def start_server(kind: str, base: Path) -> JupyterServer:
    """Start ``jupyter lab`` / ``jupyter notebook`` on a free loopback port in temp folders."""
    dirs = {name: base / name for name in ("root", "config", "data", "runtime", "ipython")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    env = os.environ.copy()
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        IPYTHONDIR=str(dirs["ipython"]),
        JUPYTER_PLATFORM_DIRS="1",
        PYTHONUNBUFFERED="1",
    )
    env.pop("JUPYTER_PATH", None)
    port = free_port()
    app = "LabApp" if kind == "lab" else "JupyterNotebookApp"
    cmd = [
        sys.executable,
        "-m",
        "jupyter",
        kind,
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        "--allow-root",
        f"--ServerApp.root_dir={dirs['root']}",
        f"--{app}.news_url=None",
    ]
    if kind == "lab":
        cmd.append("--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    log_path = base / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=dirs["root"])
    server = JupyterServer(
        kind=kind,
        url=f"http://127.0.0.1:{port}",
        root=dirs["root"],
        config_dir=dirs["config"],
        log_path=log_path,
        proc=proc,
    )
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter {kind} exited with {proc.returncode}:\n{server.log_tail()}")
        try:
            server.api("GET", "/api/status")
            return server
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(
                    f"jupyter {kind} did not answer /api/status in {SERVER_START_TIMEOUT:.0f} s:\n"
                    f"{server.log_tail()}"
                ) from None
            time.sleep(0.25)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    server = start_server("lab", tmp_path_factory.mktemp("jupyterlab"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def notebook_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterServer]:
    server = start_server("notebook", tmp_path_factory.mktemp("notebook7"))
    yield server
    server.stop()


# --------------------------------------------------------------------------------------------------
# Chromium
# --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    # Module scope: a live sync Playwright keeps an asyncio loop running in the main thread, which would
    # break later tests that run their own loop (the widget's autoplayer tests).
    from playwright.sync_api import sync_playwright

    home = tmp_path_factory.mktemp("chromium-home")
    env: dict[str, str | float | bool] = dict(os.environ)  # the type launch() takes
    # Chromium writes its config and caches under XDG folders: keep them out of ~/.config.
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"))
    with sync_playwright() as pw:
        # Playwright gives launch() a temporary --user-data-dir of its own and deletes it at close.
        browser = pw.chromium.launch(
            executable_path=chromium_path(),
            args=BASE_ARGS,
            headless=True,
            env=env,
        )
        yield browser
        browser.close()


@dataclass
class PageErrors:
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def widget_console_errors(self) -> list[str]:
        return [e for e in self.console_errors if WIDGET_CONSOLE_ERROR.search(e)]

    def known_third_party(self) -> bool:
        """Notebook 7 cannot load jupyterlite-pyodide-kernel's labextension (installed in the same
        environment for the JupyterLite site): it logs this console error and then throws a page error
        "Cannot read properties of undefined (reading 'schema')". Not this project's code."""
        return any(KNOWN_LITE_ERROR in e for e in self.console_errors)

    def check(self) -> None:
        page_errors = self.page_errors
        if self.known_third_party():
            page_errors = [e for e in page_errors if "reading 'schema'" not in e]
        problems = page_errors + self.widget_console_errors()
        if problems:
            pytest.fail("JavaScript errors on the page:\n" + "\n".join(problems), pytrace=False)


def new_page(
    browser: Browser, *, touch: bool = False, viewport: ViewportSize | None = None, scale: float = 1
) -> tuple[BrowserContext, Page, PageErrors]:
    """A fresh context and page: ``viewport`` in CSS pixels (default ``VIEWPORT``), ``scale`` the device
    pixels per CSS pixel (2 with half the window's width is how a browser zoomed to 200% lays out)."""
    context = browser.new_context(viewport=viewport or VIEWPORT, device_scale_factor=scale, has_touch=touch)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    errors = PageErrors()
    page.on("pageerror", lambda exc: errors.page_errors.append(f"pageerror: {exc}"))

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            errors.console_errors.append(f"console.error: {msg.text}")

    page.on("console", on_console)
    return context, page, errors


# --------------------------------------------------------------------------------------------------
# Driving a notebook
# --------------------------------------------------------------------------------------------------


class NotebookPage:
    """A notebook open in JupyterLab or Notebook 7, with the helpers the tests share."""

    def __init__(self, page: Page, server: JupyterServer, errors: PageErrors) -> None:
        self.page = page
        self.server = server
        self.errors = errors

    # --- opening and running ---------------------------------------------------------------------

    def open(self, name: str) -> None:
        self.page.goto(self.server.notebook_url(name), timeout=UI_TIMEOUT_MS)
        self.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=UI_TIMEOUT_MS)
        self.wait_idle()

    def kernel_status(self) -> str:
        """'idle', 'busy', ... as the page shows it (JupyterLab status bar or Notebook 7 toolbar)."""
        return str(
            self.page.evaluate(
                """() => {
                  const bar = document.querySelector('#jp-main-statusbar');
                  const text = bar ? bar.textContent : '';
                  const m = text.match(/\\|\\s*(Idle|Busy|Starting|Restarting|Unknown|Connecting)/);
                  if (m) return m[1].toLowerCase();
                  const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
                  if (ind && ind.getAttribute('data-status')) return ind.getAttribute('data-status');
                  return '';
                }"""
            )
        )

    def wait_idle(self, timeout: int = UI_TIMEOUT_MS) -> None:
        """Wait until the kernel is started and idle."""
        self.page.wait_for_function(
            """() => {
              const bar = document.querySelector('#jp-main-statusbar');
              if (bar && bar.offsetParent !== null) return bar.textContent.includes('| Idle');
              const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
              return !!ind && ind.getAttribute('data-status') === 'idle';
            }""",
            timeout=timeout,
        )

    def code_cells(self) -> Locator:
        return self.page.locator(".jp-Notebook .jp-Cell.jp-CodeCell")

    def cell_count(self) -> int:
        return int(self.page.locator(".jp-Notebook .jp-Cell").count())

    def prompts(self) -> list[str]:
        return list(
            self.page.eval_on_selector_all(
                ".jp-Notebook .jp-CodeCell .jp-InputPrompt",
                "els => els.map(e => e.textContent.trim())",
            )
        )

    def open_menu(self, label: str) -> None:
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{label}$")).first.click()

    def run_all(self, timeout: int = UI_TIMEOUT_MS) -> None:
        """Run menu -> Run All Cells, then wait until every code cell has an execution count.

        Under load the menu click can land before the notebook panel is ready to run (nothing starts):
        if no cell has started after a while, the menu is used again (re-running is harmless here)."""
        all_ran = """() => {
          const ps = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
          return ps.length > 0 && ps.every(p => /\\[\\d+\\]/.test(p.textContent));
        }"""
        started = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
          .some(p => /\\[(\\d+|\\*)\\]/.test(p.textContent))"""
        for attempt in range(3):
            self.page.keyboard.press("Escape")
            self.open_menu("Run")
            self.page.locator('#jp-mainmenu-run li[data-command="runmenu:run-all"]').click()
            try:
                self.page.wait_for_function(started, timeout=timeout // 4)
                break
            except Exception:
                if attempt == 2:
                    raise
        self.page.wait_for_function(all_ran, timeout=timeout)
        self.wait_idle(timeout)
        self.errors.check()

    def run_cell(self, index: int, timeout: int = ACTION_TIMEOUT_MS * 2) -> str:
        """Re-run code cell ``index`` (Ctrl+Enter: run and stay) and return its output text."""
        cell = self.code_cells().nth(index)
        prompt = cell.locator(".jp-InputPrompt")
        before = prompt.inner_text().strip()
        cell.locator(".jp-InputArea-editor").click()
        self.page.keyboard.press("Control+Enter")
        handle = prompt.element_handle()
        self.page.wait_for_function(
            """([el, before]) => {
              const t = el.textContent.trim();
              return /\\[\\d+\\]/.test(t) && t !== before;
            }""",
            arg=[handle, before],
            timeout=timeout,
        )
        self.page.keyboard.press("Escape")  # back to command mode
        return str(cell.locator(".jp-OutputArea").inner_text())

    def probe(self, index: int) -> Any:
        """Re-run a cell that prints ``PROBE <json>`` and return the decoded JSON."""
        text = self.run_cell(index)
        for line in text.splitlines():
            if line.startswith("PROBE "):
                return json.loads(line[len("PROBE ") :])
        raise AssertionError(f"cell {index} printed no PROBE line:\n{text}")

    # --- notebook state (to prove keys did not reach JupyterLab's shortcuts) -------------------------

    def notebook_state(self) -> dict[str, Any]:
        return dict(
            self.page.evaluate(
                """() => {
                  const nb = document.querySelector('.jp-Notebook');
                  const cells = [...nb.querySelectorAll(':scope .jp-Cell')];
                  return {
                    count: cells.length,
                    active: cells.findIndex(c => c.classList.contains('jp-mod-active')),
                    selected: cells.filter(c => c.classList.contains('jp-mod-selected')).length,
                    mode: nb.getAttribute('data-jp-mode') || '',
                    types: cells.map(c => c.classList.contains('jp-CodeCell') ? 'code'
                      : c.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw'),
                    sources: cells.map(c => {
                      const ed = c.querySelector('.jp-InputArea-editor');
                      return ed ? ed.textContent : '';
                    }),
                  };
                }"""
            )
        )

    # --- theme -------------------------------------------------------------------------------------

    def theme(self) -> str:
        return str(self.page.evaluate("() => document.body.dataset.jpThemeName || ''"))

    def set_theme(self, name: str) -> None:
        """Switch theme ("JupyterLab Dark" / "JupyterLab Light") with the Settings menu, or else the
        command palette; waits until the page's theme attribute says so."""
        if self.theme() == name:
            return
        try:
            self.open_menu("Settings")
            self.page.locator(".lm-Menu-item", has_text=re.compile(r"^\s*Theme\s*$")).first.hover()
            item = self.page.locator(
                '.lm-Menu-item[data-command="apputils:change-theme"]',
                has_text=re.compile(f"^\\s*{re.escape(name)}\\s*$"),
            ).first
            item.click(timeout=10_000)
        except Exception:  # the menu changed: fall back to the command palette
            self.page.keyboard.press("Escape")
            self.page.keyboard.press("Escape")
            self.page.keyboard.press("Control+Shift+C")
            palette = self.page.locator(".lm-CommandPalette-input")
            palette.fill(f"Use Theme: {name}")
            self.page.locator(
                ".lm-CommandPalette-item", has_text=re.compile(f"{re.escape(name)}$")
            ).first.click()
        self.page.wait_for_function(
            "name => document.body.dataset.jpThemeName === name"
            " && !document.body.classList.contains('lm-mod-override-cursor')",
            arg=name,
            timeout=UI_TIMEOUT_MS,
        )
        # The theme's CSS is swapped in asynchronously: wait until the variables have the new value.
        light = "Light" in name
        self.page.wait_for_function(
            """light => {
              const v = getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim();
              const bg = getComputedStyle(document.body).backgroundColor;
              const m = bg.match(/\\d+/g);
              if (!v || !m) return false;
              const lum = (+m[0] + +m[1] + +m[2]) / 3;
              return light ? lum > 128 : lum < 128;
            }""",
            arg=light,
            timeout=UI_TIMEOUT_MS,
        )

    # --- screenshots -------------------------------------------------------------------------------

    def screenshot(self, name: str, locator: Locator | None = None) -> Path:
        """Save ``name``.png into artifacts/browser (the element if given, else the viewport)."""
        path = artifacts_dir("browser") / f"{name}.png"
        self.page.mouse.move(1, 1)  # no hover effects in the picture
        if locator is not None:
            locator.scroll_into_view_if_needed()
            locator.screenshot(path=str(path), animations="disabled")
        else:
            self.page.screenshot(path=str(path), animations="disabled")
        SCREENSHOTS.append(path)
        print(f"screenshot: {path}")
        return path


def _notebook_page(
    request: pytest.FixtureRequest,
    browser: Browser,
    server: JupyterServer,
    *,
    touch: bool = False,
    viewport: ViewportSize | None = None,
    scale: float = 1,
) -> Iterator[NotebookPage]:
    server.reset_user_state()
    context, page, errors = new_page(browser, touch=touch, viewport=viewport, scale=scale)
    nb = NotebookPage(page, server, errors)
    try:
        yield nb
        if request.node.stash.get(CALL_FAILED, False):
            nb.screenshot(f"FAILED-{request.node.name}")
    finally:
        context.close()
        server.shutdown_kernels()
    if errors.console_errors:
        print("console errors:\n" + "\n".join(errors.console_errors))
    errors.check()


@pytest.fixture
def lab(
    request: pytest.FixtureRequest, browser: Browser, lab_server: JupyterServer
) -> Iterator[NotebookPage]:
    """A fresh page on the session's JupyterLab (light theme, empty workspace)."""
    yield from _notebook_page(request, browser, lab_server)


@pytest.fixture
def lab_touch(
    request: pytest.FixtureRequest, browser: Browser, lab_server: JupyterServer
) -> Iterator[NotebookPage]:
    """Like ``lab``, on a touch screen (``has_touch``: CDP ``Input.dispatchTouchEvent`` works)."""
    yield from _notebook_page(request, browser, lab_server, touch=True)


@pytest.fixture
def notebook7(
    request: pytest.FixtureRequest, browser: Browser, notebook_server: JupyterServer
) -> Iterator[NotebookPage]:
    """A fresh page on the session's Notebook 7 server."""
    yield from _notebook_page(request, browser, notebook_server)


@pytest.fixture
def lab_sized(
    request: pytest.FixtureRequest, browser: Browser, lab_server: JupyterServer
) -> Iterator[NotebookPage]:
    """Like ``lab``, at the window of ``request.param``: (width, height, scale), parametrized with
    ``indirect=True`` (a 320 px wide phone; a 1280 px window zoomed to 200%: 640 CSS px at scale 2)."""
    width, height, scale = request.param
    viewport: ViewportSize = {"width": width, "height": height}
    yield from _notebook_page(request, browser, lab_server, viewport=viewport, scale=scale)
