"""Shared by the lite/export tests and their fixtures (a plain module: `conftest` is ambiguous)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from chromium import artifacts_dir

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
PLAY = "01-play.ipynb"
SCREENSHOTS: list[Path] = []


def run_script(args: list[str], timeout: float) -> float:
    """Run one of scripts/*.py; fail the test with its output if it fails. Returns seconds taken."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    print(proc.stdout, proc.stderr, sep="\n")
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return time.monotonic() - started


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """`python -m http.server` on a free loopback port (what `make serve-lite` runs); yields its URL."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-m",
            "http.server",
            "0",
            "--bind",
            "127.0.0.1",
            "--directory",
            str(directory),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # Serving HTTP on 127.0.0.1 port 41039 (http://127.0.0.1:41039/) ...
        match = re.search(r"\((http://127\.0\.0\.1:\d+/)\)", line)
        assert match, f"http.server did not say where it serves: {line!r}"
        yield match.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def local_only(url: str) -> bool:
    """Requests that stay on this machine."""
    return url.startswith(("http://127.0.0.1:", "file://", "data:", "blob:"))


def no_http(url: str) -> bool:
    """Requests of a page opened over file:// that needs no server at all."""
    return url.startswith(("file://", "data:", "blob:"))


@dataclass
class OfflinePage:
    """A page, the requests it made, and what went wrong on it."""

    page: Page
    allowed: Callable[[str], bool]
    requests: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def record(self, url: str) -> None:
        self.requests.append(url)
        if not self.allowed(url):
            self.outside.append(url)

    def check(self) -> None:
        """Fail on a request that left the machine or on a JavaScript error."""
        assert not self.page_errors, f"JavaScript errors on the page: {self.page_errors}"
        assert not self.outside, f"requests left 127.0.0.1: {self.outside}"

    def screenshot(self, name: str) -> Path:
        path = artifacts_dir("lite") / f"{name}.png"
        self.page.screenshot(path=str(path))
        SCREENSHOTS.append(path)
        print(f"screenshot: {path}")
        return path
