"""Progress of a long run: an ipywidgets bar in a Jupyter kernel, or a text bar on stderr in a shell.

The label may be a user's string (a strategy's name): it is shown as text in both (see
:mod:`ipyminesweeper.engine.escape`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from ..engine.escape import html_text, terminal_text

__all__ = ["Progress", "TextBar", "progress_reporter"]

Progress = bool | Callable[[int, int], None] | None
"""``True`` for a bar, a callable ``(done, total)`` of your own, or ``False``/``None`` for nothing."""


def progress_reporter(progress: Progress, total: int, label: str) -> Callable[[int, int], None] | None:
    """The ``(done, total)`` callback for ``progress``: a bar for True, the callable itself, or None."""
    if progress is True:
        return _notebook_bar(total, label) or TextBar(total, label)
    if callable(progress):
        return progress
    if progress not in (False, None):
        raise TypeError(f"progress must be True, False, None or a callable (done, total), not {progress!r}")
    return None


class TextBar:
    """A one-line bar on stderr, redrawn at most five times a second: ``label [###...] 40/100``."""

    def __init__(self, total: int, label: str, width: int = 30) -> None:
        self.total, self.label, self.width = total, terminal_text(label), width
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < 0.2:
            return
        self.last = now
        filled = int(self.width * done / total) if total else self.width
        rate = done / (now - self.start) if now > self.start else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{total} {rate:.1f} games/s")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _notebook_bar(total: int, label: str) -> Callable[[int, int], None] | None:
    """An ipywidgets progress bar shown in the running Jupyter kernel's output, or None outside one."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None or getattr(shell, "kernel", None) is None:
            return None
        import ipywidgets
        from IPython.display import display
    except Exception:
        return None
    bar: Any = ipywidgets.IntProgress(value=0, min=0, max=total)
    # ipywidgets 8 shows a description as text; 7 (Colab's) as HTML
    bar.description = label[:20] if bar.has_trait("description_allow_html") else html_text(label[:20])
    display(bar)  # type: ignore[no-untyped-call]

    def update(done: int, _total: int) -> None:
        bar.value = done
        bar.bar_style = "success" if done >= total else ""

    return update
