#!/usr/bin/env python
"""Serve the JupyterLite site (dist/lite/) on 127.0.0.1 (`make serve-lite`).

Usage: python scripts/serve_lite.py [--port 8000] [--dir dist/lite]

`--port 0` picks a free port. The first line printed is always `Serving DIR at URL`, so a test can
start this script and read where the site is.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


class LiteHandler(SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs, never cached by the browser."""

    extensions_map = {  # noqa: RUF012 (the base class declares it as a plain dict)
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".ipynb": "application/json",
        ".whl": "application/octet-stream",
        ".zip": "application/zip",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if self.server.quiet:  # type: ignore[attr-defined]
            return
        super().log_message(format, *args)


def make_server(directory: Path, port: int, quiet: bool = False) -> ThreadingHTTPServer:
    handler = functools.partial(LiteHandler, directory=str(directory))
    server = ThreadingHTTPServer((HOST, port), handler)
    server.quiet = quiet  # type: ignore[attr-defined]
    server.daemon_threads = True
    return server


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the JupyterLite site on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000, help="default 8000; 0 picks a free one")
    parser.add_argument("--dir", type=Path, default=ROOT / "dist" / "lite", help="default dist/lite")
    parser.add_argument("--quiet", action="store_true", help="do not log every request")
    args = parser.parse_args(argv)
    directory: Path = args.dir.resolve()
    if not (directory / "jupyter-lite.json").is_file():
        print(f"serve_lite: {directory} is not a built site; run `make lite` first", file=sys.stderr)
        return 1
    server = make_server(directory, args.port, quiet=args.quiet)
    port = server.server_address[1]
    print(f"Serving {directory} at http://{HOST}:{port}/", flush=True)
    print(f"  open http://{HOST}:{port}/lab/index.html?path=01-play.ipynb", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
