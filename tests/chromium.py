"""Launching Debian's Chromium for the end-to-end tests (Playwright cannot download browsers here)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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
