"""``python -m ipyminesweeper.classroom serve``: the offline site and the hand-in, from the teacher's laptop.

One process, the standard library only (``http.server``):

- ``GET /`` is the page students open first (two lines: how to work, how to hand in, and the notebooks);
- ``GET /hand-in`` is the hand-in page: it reads the notebooks JupyterLite saved in this browser
  (IndexedDB, same origin) and posts them;
- ``POST /hand-in?name=NAME&code=CODE&file=FILE`` with the file's bytes as the body stores a hand-in
  (:func:`.handin.accept`); the kernel's :func:`.submit.hand_in` posts here too. The answer is plain text:
  200 and where the file went, or 4xx and why not;
- everything else is the built JupyterLite site, gzipped for the browsers that ask (:mod:`.compressed`):
  a shared game's link (``w.link(site="http://<this server>/")``) opens its ``shared-game.ipynb``, and
  the game, in the address's fragment, never reaches this server.

Plain http on a LAN address is not a secure context, so the students' browsers run the site without a
service worker: the kernel writes files into its own memory, and hand-ins go through this server
(docs/teaching.md says why).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import html
import io
import re
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qs, quote, urlsplit

from .compressed import COMPRESSIBLE, GzipCache, accepts_gzip
from .handin import (
    CODE,
    HandInFolder,
    RefusedHandIn,
    Stored,
    check_content,
    check_request,
    check_size,
    new_class_code,
)

__all__ = ["ClassServer", "RateLimit", "lan_addresses", "main", "parse_addresses"]

HAND_IN = "/hand-in"
MAX_QUERY = 1000  # characters of the query string


class RateLimit:
    """At most ``per_minute`` hand-ins per client in any 60 seconds (refused ones count too)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.hits: dict[str, deque[float]] = {}
        self.lock = threading.Lock()

    def wait(self, client: str) -> float:
        """0 when ``client`` may post now (and counts the post), else the seconds to wait."""
        now = self.clock()
        with self.lock:
            if len(self.hits) > 4096:  # forget clients idle for a minute
                self.hits = {c: h for c, h in self.hits.items() if h and now - h[-1] < 60}
            hits = self.hits.setdefault(client, deque())
            while hits and now - hits[0] >= 60:
                hits.popleft()
            if len(hits) >= self.per_minute:
                return 60 - (now - hits[0])
            hits.append(now)
            return 0.0


def page(name: str) -> str:
    """One of the server's own pages (package data)."""
    return (resources.files(__package__) / "pages" / name).read_text(encoding="utf-8")


SHARED_GAME = "shared-game.ipynb"
"""The notebook a shared game's link opens (``ipyminesweeper.widget.link.NOTEBOOK``; every site has it): it is
served like any file, and left off the first page (opened without a link, it has no game to show)."""


def landing_page(site: Path) -> bytes:
    """The first page: two lines of instructions and a link to each notebook of the site (but the one a
    shared game's link opens)."""
    notebooks = sorted(p.name for p in (site / "files").glob("*.ipynb") if p.name != SHARED_GAME)
    items = "\n".join(
        f'<li><a href="lab/index.html?path={quote(name)}">{html.escape(name.removesuffix(".ipynb"))}</a></li>'
        for name in notebooks
    )
    return page("landing.html").replace("{{NOTEBOOKS}}", items).encode("utf-8")


class ClassServer(ThreadingHTTPServer):
    """The site, the pages and the hand-in endpoint, with what the handler needs."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        site: Path,
        folder: HandInFolder,
        class_code: str,
        limit: RateLimit,
        report: TextIO = sys.stdout,
    ) -> None:
        self.site, self.folder, self.class_code, self.limit = site, folder, class_code, limit
        self.report_to = report
        self.report_lock = threading.Lock()
        self.pages = {"/": landing_page(site), HAND_IN: page("hand-in.html").encode("utf-8")}
        self.gzipped = GzipCache()
        super().__init__(address, functools.partial(HandInHandler, directory=str(site)))
        threading.Thread(target=self.gzipped.fill, args=(site,), name="gzip the site", daemon=True).start()

    def report(self, line: str) -> None:
        """One line on the teacher's terminal."""
        with self.report_lock:
            print(f"{time.strftime('%H:%M:%S')} {line}", file=self.report_to, flush=True)


class HandInHandler(SimpleHTTPRequestHandler):
    """GET: the pages and the site; POST /hand-in: a hand-in."""

    timeout = 60  # seconds of silence before a client is dropped (a slow upload stores nothing)
    extensions_map = {  # noqa: RUF012 (the base class's attribute): types a Windows registry cannot change
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".ipynb": "application/json",
        ".whl": "application/octet-stream",
    }

    gzip_body: bytes | None = None  # the gzip of the file being answered, while its headers are sent
    status: int = 0  # of the response being sent

    @property
    def classroom(self) -> ClassServer:
        assert isinstance(self.server, ClassServer)
        return self.server

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site is never mixed with an old one
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def send_head(self) -> Any:
        """The base class's answer (folders, 304 Not Modified, 404), with a compressible file's body
        gzipped when the browser takes gzip."""
        path = Path(self.translate_path(self.path))
        path = path / "index.html" if path.is_dir() else path
        self.gzip_body = None
        if path.suffix in COMPRESSIBLE and accepts_gzip(self.headers.get("Accept-Encoding", "")):
            with contextlib.suppress(OSError):  # no such file: the base class says so
                self.gzip_body = self.classroom.gzipped.get(path)
        try:
            answer = super().send_head()
        finally:
            body, self.gzip_body = self.gzip_body, None
        if answer is None or body is None or self.status != HTTPStatus.OK:
            return answer
        answer.close()
        return io.BytesIO(body)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if (
            self.gzip_body is not None
            and self.status == HTTPStatus.OK
            and keyword.lower() == "content-length"
        ):
            super().send_header("Content-Encoding", "gzip")
            super().send_header("Vary", "Accept-Encoding")
            value = str(len(self.gzip_body))
        super().send_header(keyword, value)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a class loads thousands of files; the server reports hand-ins itself."""

    def own_page(self) -> bytes | None:
        """``/`` and ``/hand-in``; ``/index.html`` stays the site's (JupyterLite reads its configuration)."""
        path = urlsplit(self.path).path
        return self.classroom.pages.get(path.rstrip("/") or "/")

    def do_GET(self) -> None:
        body = self.own_page()
        if body is None:
            super().do_GET()
            return
        self.send_body(HTTPStatus.OK, body, "text/html; charset=utf-8")

    def do_HEAD(self) -> None:
        body = self.own_page()
        if body is None:
            super().do_HEAD()
            return
        self.send_body(HTTPStatus.OK, body, "text/html; charset=utf-8", head=True)

    def send_body(self, status: int, body: bytes, kind: str, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if status >= 400:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def do_POST(self) -> None:
        client = self.client_address[0]
        try:
            if urlsplit(self.path).path.rstrip("/") != HAND_IN:
                raise RefusedHandIn(404, f"nothing to post here: hand-ins go to {HAND_IN}")
            wait = self.classroom.limit.wait(client)
            if wait:
                raise RefusedHandIn(429, f"too many hand-ins from {client}: wait {wait:.0f} s and try again")
            stored = self.hand_in(client)
        except OSError as exc:  # the laptop's disk, not the student: say so, store nothing
            refused = RefusedHandIn(
                500, f"the laptop could not store it ({exc.strerror or exc}); tell the teacher"
            )
            self.refuse(client, refused)
            return
        except RefusedHandIn as refused:
            self.refuse(client, refused)
            return
        where = stored.path.relative_to(self.classroom.folder.root).as_posix()
        if stored.unchanged:
            message = f"received again, unchanged: {where}"
        else:
            message = f"received: {where}" + (" (it replaces your earlier hand-in)" if stored.earlier else "")
        self.classroom.report(f"{client} {message}")
        self.send_body(HTTPStatus.OK, (message + "\n").encode("utf-8"), "text/plain; charset=utf-8")

    def refuse(self, client: str, refused: RefusedHandIn) -> None:
        self.classroom.report(f"refused {client}: {refused.message}")
        body = (refused.message + "\n").encode("utf-8")
        self.send_body(refused.status, body, "text/plain; charset=utf-8")

    def hand_in(self, client: str) -> Stored:
        """Check what needs no body, then the body's length, read it, check it and store it."""
        query = urlsplit(self.path).query
        if len(query) > MAX_QUERY:
            raise RefusedHandIn(414, "the address is too long")
        try:
            fields = parse_qs(query, keep_blank_values=True, max_num_fields=10, errors="strict")
        except ValueError:
            raise RefusedHandIn(400, "the address is not name=...&code=...&file=... in UTF-8") from None
        if any(len(values) > 1 for values in fields.values()):
            raise RefusedHandIn(400, "give each of name, code and file once")
        server = self.classroom
        request = check_request({key: values[0] for key, values in fields.items()}, server.class_code)
        data = self.read_body(request.kind)
        check_content(request, data)
        return server.folder.store(request.student, request.file_name, data, client)

    def read_body(self, kind: str) -> bytes:
        """The body, once its Content-Length is known to be within the limit of its kind."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise RefusedHandIn(411, "send the file with a Content-Length, not chunked")
        length = self.headers.get("Content-Length")
        if length is None:
            raise RefusedHandIn(411, "send the file with a Content-Length")
        if not re.fullmatch(r"\d{1,12}", length.strip()):
            raise RefusedHandIn(400, "the Content-Length is not a number")
        size = int(length)
        check_size(kind, size)
        try:
            data = self.rfile.read(size)
        except OSError:
            data = b""
        if len(data) != size:
            raise RefusedHandIn(400, "the upload broke off; nothing was stored")
        return data


def parse_addresses(text: str) -> list[str]:
    """The IPv4 addresses, but loopback and link-local, in what `ip -o -4 addr`, `ifconfig` or
    `ipconfig` printed."""
    found = re.findall(r"(?:\binet (?:addr:)?|IPv4[^:\n]*:\s*)(\d{1,3}(?:\.\d{1,3}){3})", text)
    return [a for a in dict.fromkeys(found) if not a.startswith(("127.", "169.254.", "0."))]


def lan_addresses() -> list[str]:
    """This machine's addresses on its networks (Linux, macOS, Windows), as students would type them."""
    for command in (["ip", "-o", "-4", "addr", "show"], ["ifconfig"], ["ipconfig"]):
        try:
            printed = subprocess.run(command, capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        if parse_addresses(printed):
            return parse_addresses(printed)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return parse_addresses("\n".join(f"inet {info[4][0]}" for info in infos))


def board_urls(host: str, port: int) -> list[str]:
    """The addresses to write on the board."""
    hosts = (lan_addresses() or ["127.0.0.1"]) if host in ("", "0.0.0.0") else [host]
    return [f"http://{h}:{port}/" for h in hosts]


def site_problem(site: Path) -> str:
    if not (site / "lab" / "index.html").is_file() or not (site / "files").is_dir():
        return f"{site} is not a built JupyterLite site: build it with `make lite` (scripts/build_lite.py)"
    return ""


def banner(server: ClassServer, host: str) -> str:
    """What the teacher reads: the addresses and the class code for the board, where hand-ins go."""
    port = server.server_address[1]
    urls = board_urls(host, port)
    folder = server.folder
    lines = [
        f"Serving {server.site} to the classroom; hand-ins go to {folder.root}",
        "Write on the board:",
        *(f"    {url}" for url in urls),
        f"    class code: {server.class_code}",
        "Students open the address in any browser; its page says what to do.",
        f"Strategies arrive in {folder.strategies} (tournament), notebooks in {folder.submissions} (grade).",
        "Ctrl+C stops the server.",
    ]
    if host in ("", "0.0.0.0") and urls == [f"http://127.0.0.1:{port}/"]:
        lines.insert(2, "(no network address found: is this laptop on the classroom network?)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.classroom serve [--site DIR] [--handin DIR] [--class-code CODE] ...``."""
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.classroom serve",
        description="Serve the offline site to the classroom network, and take the students' hand-ins.",
    )
    parser.add_argument(
        "--site", type=Path, default=Path("dist/lite"), help="the built site (default dist/lite)"
    )
    parser.add_argument(
        "--handin", type=Path, default=Path("handin"), help="the hand-in folder (default handin)"
    )
    parser.add_argument("--class-code", help="the code students type to hand in (default: a new one)")
    parser.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every one)")
    parser.add_argument("--port", type=int, default=8000, help="default 8000 (0: any free port)")
    parser.add_argument("--per-minute", type=int, default=12, help="hand-ins per student machine and minute")
    args = parser.parse_args(argv)
    if site_problem(args.site):
        parser.error(site_problem(args.site))
    code = args.class_code or new_class_code()
    if not CODE.fullmatch(code):
        parser.error("--class-code: 3 to 32 letters, digits or -")
    folder = HandInFolder(args.handin)
    try:
        server = ClassServer(
            (args.host, args.port), args.site.resolve(), folder, code, RateLimit(max(1, args.per_minute))
        )
    except OSError as exc:
        parser.error(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    print(banner(server, args.host), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped", flush=True)
    finally:
        server.server_close()
    return 0
