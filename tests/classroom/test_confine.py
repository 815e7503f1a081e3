"""The confinement every worker puts itself under (arena/confine.py), tried from inside a real one: no
datagram, connection or Unix socket leaves it, no process starts, no file outside its folder opens, and the
limits cannot be raised again (as root, too: CI runs as root)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ipyminesweeper.arena.confine import landlock_abi
from ipyminesweeper.arena.sandbox import read_roots

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the limits are Linux's")

PROBE = """
import json, os, socket, subprocess, sys
from ipyminesweeper.arena.confine import confine
setup = json.loads(sys.argv[1])
held = confine(setup)
out = {"held": held}
def attempt(name, do):
    try:
        do()
        out[name] = "done"
    except BaseException as error:
        out[name] = type(error).__name__
def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"leaked", ("127.0.0.1", setup["udp"]))
def tcp():
    socket.create_connection(("127.0.0.1", setup["tcp"]), timeout=2).sendall(b"leaked")
def unix():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"leaked", setup["unix"])
attempt("udp", udp)
attempt("tcp", tcp)
attempt("unix", unix)
attempt("process", lambda: subprocess.run(["/bin/true"]))
attempt("fork", os.fork)
attempt("read", lambda: open(setup["secret"]).read())
attempt("raise", lambda: __import__("resource").setrlimit(__import__("resource").RLIMIT_CPU, (10**6, 10**6)))
sys.stdout.write(json.dumps(out))
"""


@pytest.fixture
def listeners() -> Iterator[tuple[socket.socket, socket.socket, socket.socket, str]]:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "unix.sock")
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    unix.bind(path)
    for each in (udp, tcp, unix):
        each.settimeout(0.5)
    yield udp, tcp, unix, path
    for each in (udp, tcp, unix):
        each.close()


def _nothing_arrived(udp: socket.socket, tcp: socket.socket, unix: socket.socket) -> None:
    for each in (udp, unix):
        with pytest.raises(TimeoutError):
            each.recv(100)
    with pytest.raises(TimeoutError):
        tcp.accept()


def test_a_confined_process_reaches_nothing_outside(
    tmp_path: Path, listeners: tuple[socket.socket, socket.socket, socket.socket, str]
) -> None:
    udp, tcp, unix, path = listeners
    secret = tmp_path / "teacher" / "answers.txt"
    secret.parent.mkdir()
    secret.write_text("the answer key")
    own = tmp_path / "own"
    own.mkdir()
    setup = {
        "memory_mb": 512,
        "cpu_seconds": 30,
        "read": read_roots([tmp_path]),
        "udp": udp.getsockname()[1],
        "tcp": tcp.getsockname()[1],
        "unix": path,
        "secret": str(secret),
    }
    run = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, json.dumps(setup)],
        cwd=own,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    _nothing_arrived(udp, tcp, unix)
    held = " ".join(out["held"])
    assert "no network: a network namespace of its own" in held
    assert "no socket, no new process, no program run (seccomp)" in held
    for name in ("udp", "tcp", "unix", "process", "fork"):
        assert out[name] == "PermissionError", (name, out)
    if landlock_abi():
        assert out["read"] == "PermissionError"
    if os.geteuid() == 0:
        assert "every capability dropped" in held
    assert out["raise"] in ("ValueError", "PermissionError")  # the hard limit holds


def test_without_confinement_the_probe_reaches_the_listeners(
    listeners: tuple[socket.socket, socket.socket, socket.socket, str],
) -> None:
    """The test can fail: the same sends from an unconfined process arrive."""
    udp, _, unix, path = listeners
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.sendto(b"hello", udp.getsockname())
    assert udp.recv(100) == b"hello"
    other = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    other.sendto(b"hello", path)
    assert unix.recv(100) == b"hello"
