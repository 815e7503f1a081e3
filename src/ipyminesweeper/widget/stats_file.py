"""Where the statistics live between kernel restarts: a JSON file under the user's Jupyter data directory.

The file is ``<jupyter data dir>/ipyminesweeper/stats.json`` (``jupyter --data-dir`` prints the
directory; ``JUPYTER_DATA_DIR`` moves it), in the format of :meth:`Stats.to_json`. Where it cannot be
read or written (JupyterLite has no persistent home, a read-only home, a corrupt file) the statistics
live in memory for the session and :attr:`StatsFile.problem` says why; nothing fails.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from .stats import GameResult, Stats, record, stats_from_json

__all__ = ["StatsFile", "default_stats_path"]


def default_stats_path() -> Path:
    """``<jupyter data dir>/ipyminesweeper/stats.json``."""
    try:
        from jupyter_core.paths import jupyter_data_dir

        base = Path(jupyter_data_dir())
    except Exception:  # no jupyter_core (a bare Pyodide): the documented default of jupyter_core
        base = Path(os.environ.get("JUPYTER_DATA_DIR") or Path.home() / ".local" / "share" / "jupyter")
    return base / "ipyminesweeper" / "stats.json"


class StatsFile:
    """The statistics file: :meth:`load` reads it (fresh each time), :meth:`add` records a game."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = default_stats_path() if path is None else path
        self.problem = ""
        """Why the file could not be used (empty when it works)."""
        self._memory: Stats | None = None  # set once the file cannot be written: memory from then on
        self._lock = threading.Lock()

    def load(self) -> Stats:
        """The statistics on disk (or in memory, once the disk could not be used)."""
        if self._memory is not None:
            return self._memory
        try:
            return stats_from_json(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Stats()
        except (OSError, ValueError) as error:
            self.problem = f"ignored the statistics file {self.path}: {error}"
            return Stats()

    def add(self, result: GameResult) -> Stats:
        """Record ``result`` (replacing an earlier result of the same game) and return the new stats."""
        with self._lock:
            stats = record(self.load(), result)
            if self._memory is not None:
                self._memory = stats
                return stats
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                partial = self.path.with_suffix(".json.partial")
                partial.write_text(stats.to_json(), encoding="utf-8")
                partial.replace(self.path)  # atomic: a crash never leaves half a file
            except OSError as error:
                self.problem = f"statistics kept in memory only: cannot write {self.path}: {error}"
                self._memory = stats
            return stats
