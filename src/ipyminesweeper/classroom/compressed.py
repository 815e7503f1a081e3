"""The site's files gzipped once, for the class server: thirty students load it over one laptop's Wi-Fi.

The offline site is about 40 MB of files, of which the Pyodide runtime, the JavaScript and the JSON
shrink to about a third with gzip (wheels, fonts and pictures are compressed already). Browsers ask for
gzip on every request (``Accept-Encoding``) and undo it themselves, WebAssembly included, so the site
itself does not change: the server sends each compressible file gzipped when asked, compressed once
(as the server starts, or at its first request) and kept, keyed by its modification time and size (a
rebuilt site is compressed again).
"""

from __future__ import annotations

import gzip
import re
import threading
from pathlib import Path

__all__ = ["COMPRESSIBLE", "GzipCache", "accepts_gzip"]

# what gzip shrinks; not .whl, .zip, .woff/.woff2, .png: compressed already
COMPRESSIBLE = frozenset(
    {
        ".js",
        ".mjs",
        ".wasm",
        ".json",
        ".ipynb",
        ".css",
        ".html",
        ".svg",
        ".ttf",
        ".eot",
        ".ico",
        ".txt",
        ".md",
    }
)

_CODING = re.compile(r"^\s*([a-z*]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$", re.IGNORECASE)


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip`` or ``*``, with a q above 0)."""
    for part in header.split(","):
        match = _CODING.match(part)
        if not match or match.group(1).lower() not in ("gzip", "*"):
            continue
        try:
            return float(match.group(2) or "1") > 0
        except ValueError:
            return False
    return False


class GzipCache:
    """Each compressible file's gzip, made once and kept while the file is unchanged."""

    def __init__(self, level: int = 6) -> None:
        self.level = level
        self.kept: dict[Path, tuple[int, int, bytes]] = {}
        self.lock = threading.Lock()

    def fill(self, root: Path) -> int:
        """Compress every compressible file under ``root`` now (the server does it as it starts, so that
        the first student waits for no compression); returns how many."""
        done = 0
        for path in sorted(root.rglob("*")):
            if path.suffix in COMPRESSIBLE and path.is_file():
                try:
                    self.get(path)
                except OSError:  # gone meanwhile: compressed when asked, if ever
                    continue
                done += 1
        return done

    def get(self, path: Path) -> bytes:
        """The gzip of ``path`` (OSError if it cannot be read). The first request of a file compresses
        it; the others, even at the same moment, wait for that one and take its result."""
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        with self.lock:
            kept = self.kept.get(path)
            if kept is not None and kept[:2] == key:
                return kept[2]
            data = path.read_bytes()
            body = gzip.compress(data, compresslevel=self.level, mtime=0)
            self.kept[path] = (*key, body)
            return body
