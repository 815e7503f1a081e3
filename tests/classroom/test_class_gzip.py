"""The class server gzips the site's compressible files for browsers that ask, and nothing else changes:
the bytes a browser gets back, the 304 of a file it has, the folders, the 404s, the hand-in pages."""

from __future__ import annotations

import gzip
import http.client
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ipyminesweeper.classroom.compressed import GzipCache, accepts_gzip
from ipyminesweeper.classroom.handin import HandInFolder
from ipyminesweeper.classroom.serve import ClassServer, RateLimit

SCRIPT = b"export const x = 1;\n" * 2000  # 40 kB that gzip shrinks to almost nothing
WHEEL = os.urandom(5000)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ClassServer]:
    site = tmp_path / "site"
    (site / "lab").mkdir(parents=True)
    (site / "lab" / "index.html").write_text("<p>JupyterLab</p>" * 100)
    (site / "files").mkdir()
    (site / "build").mkdir()
    (site / "build" / "bundle.js").write_bytes(SCRIPT)
    (site / "build" / "kernel.whl").write_bytes(WHEEL)
    with open(os.devnull, "w") as report:
        running = ClassServer(
            ("127.0.0.1", 0), site, HandInFolder(tmp_path / "in"), "K7Q2", RateLimit(9), report
        )
        thread = threading.Thread(target=running.serve_forever, daemon=True)
        thread.start()
        yield running
        running.shutdown()
        running.server_close()


def fetch(
    server: ClassServer, path: str, method: str = "GET", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", int(server.server_address[1]), timeout=10)
    connection.request(method, path, headers={k.replace("_", "-"): v for k, v in headers.items()})
    response = connection.getresponse()
    answer = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    connection.close()
    return answer


def test_a_script_goes_gzipped_to_a_browser_that_asks(server: ClassServer) -> None:
    status, headers, body = fetch(server, "/build/bundle.js", Accept_Encoding="gzip, deflate, br, zstd")
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert int(headers["content-length"]) == len(body) < len(SCRIPT) // 20
    assert gzip.decompress(body) == SCRIPT
    assert headers["content-type"] == "text/javascript"
    # the second time from the kept gzip: the same bytes
    assert fetch(server, "/build/bundle.js", Accept_Encoding="gzip")[2] == body


def test_plain_when_not_asked_or_refused_or_already_compressed(server: ClassServer) -> None:
    for encoding in ("", "identity", "gzip;q=0", "br"):
        status, headers, body = fetch(server, "/build/bundle.js", Accept_Encoding=encoding)
        assert (status, body) == (200, SCRIPT) and "content-encoding" not in headers, encoding
    status, headers, body = fetch(server, "/build/kernel.whl", Accept_Encoding="gzip")
    assert (status, body) == (200, WHEEL) and "content-encoding" not in headers


def test_a_folder_its_index_a_head_a_304_and_a_404(server: ClassServer) -> None:
    status, headers, _ = fetch(server, "/lab", Accept_Encoding="gzip")
    assert status == 301 and headers["location"] == "/lab/" and headers["content-length"] == "0"
    status, headers, body = fetch(server, "/lab/", Accept_Encoding="gzip")
    assert status == 200 and gzip.decompress(body) == b"<p>JupyterLab</p>" * 100
    status, headers, body = fetch(server, "/build/bundle.js", "HEAD", Accept_Encoding="gzip")
    assert (status, body, headers["content-encoding"]) == (200, b"", "gzip")
    modified = headers["last-modified"]
    status, headers, body = fetch(
        server, "/build/bundle.js", Accept_Encoding="gzip", If_Modified_Since=modified
    )
    assert (status, body) == (304, b"") and "content-encoding" not in headers
    status, headers, body = fetch(server, "/build/missing.js", Accept_Encoding="gzip")
    assert status == 404 and "content-encoding" not in headers and b"not found" in body.lower()
    # the server's own pages, after a gzipped answer on the same kind of request: plain
    status, headers, body = fetch(server, "/", Accept_Encoding="gzip")
    assert status == 200 and "content-encoding" not in headers and b"hand" in body.lower()


def test_a_rebuilt_file_is_compressed_again(tmp_path: Path) -> None:
    path = tmp_path / "a.js"
    path.write_bytes(b"one")
    cache = GzipCache()
    assert gzip.decompress(cache.get(path)) == b"one"
    path.write_bytes(b"two, longer")
    assert gzip.decompress(cache.get(path)) == b"two, longer"
    with pytest.raises(OSError):
        cache.get(tmp_path / "gone.js")


def test_the_server_compresses_the_site_as_it_starts(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    for name in ("a.js", "b.wasm", "c.whl", "d.woff2", "build/e.json"):
        (tmp_path / name).write_bytes(SCRIPT)
    cache = GzipCache()
    assert cache.fill(tmp_path) == 3
    assert sorted(p.name for p in cache.kept) == ["a.js", "b.wasm", "e.json"]


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, GZIP;q=0.5", True),
        ("*", True),
        ("gzip;q=0", False),
        ("gzip;q=0.0, *;q=1", False),
        ("gzip;q=x", False),
        ("deflate, br", False),
        ("", False),
        ("x-gzip", False),
    ],
)
def test_accept_encoding(header: str, takes: bool) -> None:
    assert accepts_gzip(header) is takes
