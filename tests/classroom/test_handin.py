"""The class server's hand-in endpoint, over plain http on loopback: what it stores, and what it refuses.

Every refusal is checked twice: the answer (a 4xx status and a plain sentence), and the hand-in folder,
byte for byte the same as before (a student's earlier hand-in is in it, so "overwrites nothing" means
something).
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import pytest

from ipyminesweeper.classroom import HandInError, hand_in
from ipyminesweeper.classroom.class_tournament import load_strategies
from ipyminesweeper.classroom.handin import (
    MAX_NOTEBOOK_BYTES,
    MAX_STRATEGY_BYTES,
    HandInFolder,
    RefusedHandIn,
    student_name,
)
from ipyminesweeper.classroom.serve import ClassServer, RateLimit, parse_addresses

CODE = "K7Q2"
STRATEGY = b"from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['simple']\n"
NOTEBOOK = json.dumps(
    {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# mine"]},
            {
                "cell_type": "code",
                "id": "b",
                "metadata": {},
                "source": "1 + 1",
                "outputs": [],
                "execution_count": 1,
            },
        ],
    }
).encode()


@dataclass
class Classroom:
    """A running server on loopback and its hand-in folder."""

    server: ClassServer
    root: Path

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def post(
        self, body: bytes = STRATEGY, headers: dict[str, str] | None = None, path: str = "", **params: str
    ) -> tuple[int, str]:
        query = {"name": "ada", "code": CODE, "file": "careful.py", **params}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("POST", path or f"/hand-in?{urlencode(query)}", body=body, headers=headers or {})
        response = connection.getresponse()
        answer = response.status, response.read().decode()
        connection.close()
        return answer

    def get(self, path: str) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", path)
        response = connection.getresponse()
        answer = response.status, response.read().decode()
        connection.close()
        return answer

    def files(self) -> dict[str, bytes]:
        """Every file of the hand-in folder and its bytes."""
        return {
            p.relative_to(self.root).as_posix(): p.read_bytes() for p in self.root.rglob("*") if p.is_file()
        }


SITE_ROOT = '<script id="jupyter-config-data" type="application/json">{}</script>'


def fake_site(folder: Path) -> Path:
    (folder / "lab").mkdir(parents=True)
    (folder / "lab" / "index.html").write_text("<p>JupyterLab</p>")
    (folder / "index.html").write_text(SITE_ROOT)
    (folder / "files").mkdir()
    (folder / "files" / "03-autoplayer.ipynb").write_bytes(NOTEBOOK)
    return folder


@pytest.fixture
def classroom(tmp_path: Path) -> Iterator[Classroom]:
    yield from running(tmp_path, per_minute=1000)


def running(tmp_path: Path, per_minute: int) -> Iterator[Classroom]:
    site = fake_site(tmp_path / "site")
    folder = HandInFolder(tmp_path / "handin")
    report = open(tmp_path / "report.txt", "w")  # noqa: SIM115 (closed below)
    server = ClassServer(("127.0.0.1", 0), site, folder, CODE, RateLimit(per_minute), report)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Classroom(server, folder.root)
    finally:
        server.shutdown()
        server.server_close()
        report.close()


@pytest.fixture
def with_earlier(classroom: Classroom) -> Classroom:
    """Ada has handed in a strategy and a notebook already."""
    assert classroom.post()[0] == 200
    assert classroom.post(NOTEBOOK, file="03-autoplayer.ipynb")[0] == 200
    return classroom


def test_a_strategy_arrives_where_the_tournament_reads_it(classroom: Classroom) -> None:
    status, text = classroom.post(name="Ada")
    assert (status, text) == (200, "received: strategies/ada.py\n")
    assert (classroom.root / "strategies" / "ada.py").read_bytes() == STRATEGY
    assert callable(load_strategies(classroom.root / "strategies")["ada"])
    log = (classroom.root / "hand-ins.csv").read_text().splitlines()
    assert log[0].startswith("time,client,student,file,stored") and ",127.0.0.1,ada,careful.py," in log[1]


def test_a_notebook_arrives_named_by_student_and_notebook(classroom: Classroom) -> None:
    status, text = classroom.post(NOTEBOOK, name="grace", file="03-autoplayer.ipynb")
    assert (status, text) == (200, "received: submissions/grace--03-autoplayer.ipynb\n")
    assert (classroom.root / "submissions" / "grace--03-autoplayer.ipynb").read_bytes() == NOTEBOOK


def test_a_second_hand_in_replaces_the_first_and_keeps_it_aside(classroom: Classroom) -> None:
    assert classroom.post()[0] == 200
    assert classroom.post() == (200, "received again, unchanged: strategies/ada.py\n")
    newer = STRATEGY + b"# better\n"
    assert classroom.post(newer) == (200, "received: strategies/ada.py (it replaces your earlier hand-in)\n")
    assert (classroom.root / "strategies" / "ada.py").read_bytes() == newer
    kept = list((classroom.root / "earlier" / "strategies").glob("ada.*.py"))
    assert [p.read_bytes() for p in kept] == [STRATEGY]
    assert [p.name for p in (classroom.root / "strategies").iterdir()] == ["ada.py"]  # no temporary left


BAD_NAMES = [
    "",
    "..",
    "../ada",
    "a/b",
    "ada\\x",
    "<script>alert(1)</script>",
    "<b>ada</b>",
    "ada\nmallory",
    "ada\x00",
    "ada\x1b[2J",
    "ada\u202egnp",  # right-to-left override
    "a" * 41,
    "ada--03",
    "-ada",
    "con",
    "ada lovelace",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_is_refused_and_changes_nothing(with_earlier: Classroom, name: str) -> None:
    before = with_earlier.files()
    status, text = with_earlier.post(STRATEGY + b"# other\n", name=name)
    assert status == 400 and text.startswith("name: ")
    assert with_earlier.files() == before


BAD_FILES = [
    ("../ada.py", 400),
    ("a/b.py", 400),
    ("..py", 400),
    (".py", 400),
    ("<img src=x onerror=alert(1)>.py", 400),
    ("x\n.py", 400),
    ("x--y.ipynb", 400),
    ("careful.txt", 415),
    ("careful", 415),
    ("", 400),
]


@pytest.mark.parametrize(("file", "status"), BAD_FILES)
def test_a_bad_file_name_is_refused_and_changes_nothing(
    with_earlier: Classroom, file: str, status: int
) -> None:
    before = with_earlier.files()
    answer = with_earlier.post(STRATEGY + b"# other\n", file=file)
    assert answer[0] == status and ("file name" in answer[1] or "only notebooks" in answer[1])
    assert with_earlier.files() == before


BAD_CONTENT = [
    ("careful.py", b"def strategy(view)\n    return None\n", "not Python: SyntaxError"),
    ("careful.py", b"x = '\xff\xfe'\n", "not a Python file: not UTF-8"),
    ("careful.py", b"x = 1\x00\n", "not Python"),
    ("careful.py", b"return 1\n", "not Python: SyntaxError"),
    ("careful.py", b"(" * 5000 + b")" * 5000, "not Python"),
    ("03-autoplayer.ipynb", b"not json", "not a notebook: not JSON"),
    ("03-autoplayer.ipynb", b"[" * 100_000, "not a notebook: not JSON"),
    ("03-autoplayer.ipynb", b'{"cells": 1}', "not a notebook (nbformat 4)"),
    ("03-autoplayer.ipynb", b'{"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "cells": []}', "nbformat"),
    ("03-autoplayer.ipynb", STRATEGY, "not a notebook: not JSON"),
    (
        "03-autoplayer.ipynb",
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
        b'"cells": [{"cell_type": "code", "source": 1}]}',
        "cell 0",
    ),
    (
        "03-autoplayer.ipynb",
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
        b'"cells": [{"cell_type": "code", "source": ""}]}',
        "outputs",
    ),
]


@pytest.mark.parametrize(("file", "body", "says"), BAD_CONTENT)
def test_a_file_that_is_not_python_or_a_notebook_is_refused(
    with_earlier: Classroom, file: str, body: bytes, says: str
) -> None:
    before = with_earlier.files()
    status, text = with_earlier.post(body, file=file)
    assert status == 422 and text.startswith("not ") and says in text, text
    assert with_earlier.files() == before


@pytest.mark.parametrize("code", ["", "K7Q3", "K7Q2 ", "K7Q2K7Q2", "'; drop"])
def test_a_wrong_class_code_is_refused_before_the_body_is_read(with_earlier: Classroom, code: str) -> None:
    before = with_earlier.files()
    # a real body would be refused too; this one announces 5 MB and sends none: the answer comes first
    status, text = with_earlier.post(b"", headers={"Content-Length": str(MAX_NOTEBOOK_BYTES)}, code=code)
    if code.strip() == CODE:  # spaces around the code are forgiven; the size is not
        assert status == 413 and "at most" in text
    else:
        assert (status, text) == (403, "wrong class code: use the one on the board\n")
    assert with_earlier.files() == before


@pytest.mark.parametrize(
    ("file", "size"),
    [("careful.py", MAX_STRATEGY_BYTES + 1), ("03-autoplayer.ipynb", MAX_NOTEBOOK_BYTES + 1)],
)
def test_an_oversized_upload_is_refused_unread(with_earlier: Classroom, file: str, size: int) -> None:
    before = with_earlier.files()
    status, text = with_earlier.post(b"", headers={"Content-Length": str(size)}, file=file)
    assert status == 413 and f"at most {size - 1:,}" in text
    assert with_earlier.files() == before


def test_an_oversized_upload_sent_whole_is_refused(with_earlier: Classroom) -> None:
    before = with_earlier.files()
    body = b"# " + b"x" * MAX_STRATEGY_BYTES + b"\n"
    try:
        status, _ = with_earlier.post(body)
    except (ConnectionError, BrokenPipeError):  # the server answered and closed while we were sending
        status = 413
    assert status == 413
    assert with_earlier.files() == before


def raw_post(port: int, head: str, body: bytes = b"") -> tuple[int, str]:
    """Send ``head`` (request line and headers) and ``body`` as they are, then read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode()


QUERY = f"/hand-in?name=ada&code={CODE}&file=careful.py"


@pytest.mark.parametrize(
    ("head", "body", "status", "says"),
    [
        (f"POST {QUERY} HTTP/1.1\nHost: x\n", STRATEGY, 411, "send the file with a Content-Length"),
        (f"POST {QUERY} HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n", b"0\r\n\r\n", 411, "not chunked"),
        (f"POST {QUERY} HTTP/1.1\nHost: x\nContent-Length: -5\n", b"", 400, "the Content-Length is not"),
        (f"POST {QUERY} HTTP/1.1\nHost: x\nContent-Length: 500\n", STRATEGY, 400, "the upload broke off"),
        (f"POST {QUERY}&name=eve HTTP/1.1\nHost: x\nContent-Length: 3\n", b"x=1", 400, "give each"),
        (f"POST /files/ada.py?code={CODE} HTTP/1.1\nHost: x\nContent-Length: 3\n", b"x=1", 404, "nothing to"),
        (f"POST /hand-in?{'x' * 2000} HTTP/1.1\nHost: x\nContent-Length: 3\n", b"x=1", 414, "too long"),
    ],
)
def test_a_malformed_request_is_refused(
    with_earlier: Classroom, head: str, body: bytes, status: int, says: str
) -> None:
    before = with_earlier.files()
    answer = raw_post(with_earlier.port, head, body)
    assert answer[0] == status and says in answer[1], answer
    assert with_earlier.files() == before


def test_a_flood_of_requests_is_refused(tmp_path: Path) -> None:
    for classroom in running(tmp_path, per_minute=3):
        answers = [
            classroom.post(STRATEGY + f"# {i}\n".encode(), code="wrong" if i == 0 else CODE) for i in range(5)
        ]
        assert [status for status, _ in answers] == [403, 200, 200, 429, 429]
        assert answers[3][1].startswith("too many hand-ins from 127.0.0.1: wait ")
        assert (classroom.root / "strategies" / "ada.py").read_bytes() == STRATEGY + b"# 2\n"


def test_the_rate_limit_forgets_after_a_minute() -> None:
    now = [0.0]
    limit = RateLimit(2, clock=lambda: now[0])
    assert [limit.wait("a"), limit.wait("a"), limit.wait("b")] == [0, 0, 0]
    assert limit.wait("a") == 60
    now[0] = 59.5
    assert limit.wait("a") == pytest.approx(0.5)
    now[0] = 60.0
    assert limit.wait("a") == 0


def test_a_failed_write_changes_nothing(with_earlier: Classroom, monkeypatch: pytest.MonkeyPatch) -> None:
    before = with_earlier.files()

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ipyminesweeper.classroom.handin.os.replace", full_disk)
    status, text = with_earlier.post(STRATEGY + b"# newer\n")
    assert status == 500 and "could not store it (No space left on device)" in text
    assert with_earlier.files() == before


def test_the_first_page_says_what_to_do_in_two_lines(classroom: Classroom) -> None:
    status, text = classroom.get("/")
    assert status == 200
    steps = text.split('<ol class="todo">')[1].split("</ol>")[0]
    assert steps.count("<li>") == 2 and "Work:" in steps and "Hand in:" in steps
    assert 'href="lab/index.html?path=03-autoplayer.ipynb"' in text
    assert classroom.get("/hand-in")[1].count('id="stored"') == 1
    assert classroom.get("/files/03-autoplayer.ipynb") == (200, NOTEBOOK.decode())  # the site itself
    assert classroom.get("/index.html") == (200, SITE_ROOT)  # JupyterLite's pages read its configuration


def test_names_are_lower_case_and_nfc() -> None:
    assert student_name(" Zoe\u0308_Lovelace ") == "zo\u00eb_lovelace"
    assert student_name("jean-luc2") == "jean-luc2"
    with pytest.raises(RefusedHandIn, match="name: U\\+0009"):
        student_name("ada\tb")


def test_hand_in_from_python(classroom: Classroom, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    strategy = tmp_path / "careful.py"
    strategy.write_bytes(STRATEGY)
    server = f"http://127.0.0.1:{classroom.port}"
    receipt = hand_in(strategy, name="ada", code=CODE, server=server)
    assert repr(receipt) == "received: strategies/ada.py"
    assert (classroom.root / "strategies" / "ada.py").read_bytes() == STRATEGY
    with pytest.raises(HandInError, match="wrong class code"):
        hand_in(strategy, name="ada", code="nope", server=server)
    with pytest.raises(HandInError, match="is not a file of this kernel"):
        hand_in(tmp_path / "missing.py", name="ada", code=CODE, server=server)
    monkeypatch.delenv("IPYMINESWEEPER_CLASS_SERVER", raising=False)
    with pytest.raises(HandInError, match="IPYMINESWEEPER_CLASS_SERVER"):
        hand_in(strategy, name="ada", code=CODE)
    monkeypatch.setenv("IPYMINESWEEPER_CLASS_SERVER", server)
    assert repr(hand_in(strategy, name="ada", code=CODE)) == "received again, unchanged: strategies/ada.py"
    with pytest.raises(HandInError, match="did not answer"):
        hand_in(strategy, name="ada", code=CODE, server="http://127.0.0.1:9", timeout=2)


def test_the_addresses_for_the_board() -> None:
    linux = (
        "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever\n"
        "2: wlp2s0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic wlp2s0\n"
        "3: eth0    inet 10.0.0.5/8 scope global eth0\n"
    )
    mac = (
        "lo0: flags=8049\n\tinet 127.0.0.1 netmask 0xff000000\n"
        "en0: flags=8863\n\tinet 172.20.10.4 netmask 0xfff0\n"
    )
    windows = (
        "   IPv4 Address. . . . . . . . . . . : 192.168.0.17(Preferred)\n"
        "   Autoconfiguration IPv4 Address. . : 169.254.3.1\n"
        "   IPv4-Adresse  . . . . . . . . . . : 10.1.2.3\n"
    )
    assert parse_addresses(linux) == ["192.168.1.23", "10.0.0.5"]
    assert parse_addresses(mac) == ["172.20.10.4"]
    assert parse_addresses(windows) == ["192.168.0.17", "10.1.2.3"]


def test_the_command_prints_the_board_and_serves(tmp_path: Path) -> None:
    site = fake_site(tmp_path / "site")
    command = [sys.executable, "-m", "ipyminesweeper.classroom", "serve", "--site", str(site)]
    command += ["--handin", str(tmp_path / "in"), "--class-code", CODE, "--host", "127.0.0.1", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(5)]
        assert lines[1] == "Write on the board:\n" and lines[3] == f"    class code: {CODE}\n"
        url = lines[2].strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        strategy = tmp_path / "careful.py"
        strategy.write_bytes(STRATEGY)
        hand_in(strategy, "ada", CODE, server=url)
        assert (tmp_path / "in" / "strategies" / "ada.py").read_bytes() == STRATEGY
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_command_refuses_a_folder_that_is_no_site(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ipyminesweeper.classroom", "serve", "--site", str(tmp_path), "--port", "0"],
        capture_output=True,
        text=True,
    )
    assert (
        done.returncode == 2 and "is not a built JupyterLite site: build it with `make lite`" in done.stderr
    )


def test_hand_in_to_a_server_that_takes_none(tmp_path: Path) -> None:
    site = fake_site(tmp_path / "site")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    strategy = tmp_path / "careful.py"
    strategy.write_bytes(STRATEGY)
    try:
        with pytest.raises(HandInError, match=r"takes no hand-ins \(it answered 501\).*classroom serve"):
            hand_in(strategy, "ada", CODE, server=f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()


def test_the_class_server_serves_a_shared_game_s_notebook_and_never_sees_the_game(tmp_path: Path) -> None:
    """A link made for the class server (``w.link(site=...)``) opens its shared-game notebook; the game is
    in the fragment, which the browser keeps: the request the server gets is the notebook's, the same for
    every game. The first page does not list that notebook (opened bare, it has no game)."""
    from urllib.parse import urlsplit
    from urllib.request import urlopen

    from ipyminesweeper import Minesweeper
    from ipyminesweeper.classroom.serve import SHARED_GAME
    from ipyminesweeper.widget.link import NOTEBOOK
    from ipyminesweeper.widget.stats import MemoryStats

    assert SHARED_GAME == NOTEBOOK
    site = fake_site(tmp_path / "site")
    (site / "files" / NOTEBOOK).write_bytes(NOTEBOOK_BYTES)
    with open(tmp_path / "report.txt", "w") as report:
        server = ClassServer(
            ("127.0.0.1", 0), site, HandInFolder(tmp_path / "handin"), CODE, RateLimit(9), report
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            base = f"http://127.0.0.1:{server.server_address[1]}/"
            w = Minesweeper("beginner", seed=3, stats_store=MemoryStats())
            w.reveal(4, 4)
            link = urlsplit(w.link(site=base))
            assert link.fragment.startswith("game=1.") and base.startswith(f"{link.scheme}://{link.netloc}")
            with urlopen(f"{base}{link.path.lstrip('/')}?{link.query}") as page:  # what a browser asks for
                assert page.status == 200 and b"JupyterLab" in page.read()
            with urlopen(f"{base}files/{NOTEBOOK}") as notebook:
                assert notebook.read() == NOTEBOOK_BYTES
            with urlopen(base) as first:
                listed = first.read().decode()
            assert "03-autoplayer" in listed and "shared-game" not in listed
        finally:
            server.shutdown()
            server.server_close()


NOTEBOOK_BYTES = b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
