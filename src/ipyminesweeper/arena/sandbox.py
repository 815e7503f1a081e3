"""A worker of ours in a process of its own, started fresh in an empty folder, that answers JSON lines.

Two things run code they do not trust this way: the class tournament (a strategy file answers views with
moves, :mod:`.entry`) and the grader (a handed-in notebook answers calls of its functions,
:mod:`ipyminesweeper.classroom.grading`). :class:`Confined` is the part they share: it copies the files
the worker needs into a new folder, starts ``python -I`` there on the worker's module (no environment
variables, no user site, not the current folder), in a process group of its own, sends it its setup, and
then exchanges one JSON object a line with it, through two threads so that a worker that stops reading or
floods its output blocks neither side. The worker confines itself before it loads anything of the
student's (:mod:`.confine`).

Every answer is data from a process that may lie: :meth:`Confined.ask` numbers each request and takes
only the answer that carries its number, within a time limit of the referee's clock and a size limit,
and any other outcome (a hang, a crash, an answer too large, one that is not JSON, one nobody asked for)
closes the process and raises :class:`WorkerError` saying which.

What holds where. Linux: all of it, and :mod:`.confine`'s limits where the kernel has them. macOS: the
process, the folder, the timeouts and the resource limits (memory not reliably). Windows: the process,
the folder and the timeouts. Pyodide (JupyterLite) has no processes: no sandbox.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from ..engine.errors import quote

__all__ = ["Confined", "WorkerError", "exit_status", "read_roots"]

_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from {module} import main; main()"
_EOF, _TOO_LARGE = b"", b"\0too large"


class WorkerError(Exception):
    """Why a confined worker stopped: ``kind`` (``timeout``, ``crash``, ``exit``, ``interrupt``,
    ``memory``, ``error``, ``too-large``, ``malformed``, ``load``) and a sentence saying what happened."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def read_roots(keep_out: Iterable[Path] = ()) -> list[str]:
    """The folders a worker may read: Python's (its prefixes, the standard library, the installed
    packages, this package's folder) and the system's libraries; not the current folder, and none that
    holds a folder of ``keep_out`` (the students', the teacher's) or lies in one."""
    package = Path(__file__).resolve().parents[2]
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, str(package)}
    found |= {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    found |= {"/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib"}
    roots = {Path(text).resolve() for text in found if text and os.path.exists(text)}
    for out in (folder.resolve() for folder in keep_out):
        roots = {root for root in roots if not (out == root or out in root.parents or root in out.parents)}
    return sorted(str(root) for root in roots)


def _pump_out(stream: IO[bytes], limit: int, answers: queue.Queue[bytes], closed: threading.Event) -> None:
    """Read the worker's answers, one line each, into ``answers`` (a few at most: a worker that floods
    waits, and the referee's memory stays small); stop at the end, a line too long, or ``closed``."""

    def put(item: bytes) -> bool:
        while not closed.is_set():
            try:
                answers.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    try:
        while True:
            line = stream.readline(limit + 1)
            if len(line) > limit:
                put(_TOO_LARGE)
                return
            if not line.endswith(b"\n") or not put(line):
                break
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()
    put(_EOF)


def _popen_options(folder: Path, env: Mapping[str, str]) -> dict[str, Any]:
    """A process in ``folder``, with pipes, only ``env`` (and what Windows needs to start), and a
    process group of its own: the terminal's Ctrl+C is the referee's alone, and a kill takes it all."""
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.DEVNULL,
        "cwd": folder,
        "env": {**{key: os.environ[key] for key in ("SYSTEMROOT",) if key in os.environ}, **env},
        "close_fds": True,
    }
    if os.name == "posix":
        options["start_new_session"] = True
    else:  # pragma: no cover - Windows
        options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    return options


def _kill(process: subprocess.Popen[bytes]) -> None:
    if os.name == "posix":
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)  # the worker leads its group: anything it started too
    with contextlib.suppress(OSError):
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def exit_status(code: int | None) -> str:
    """How a worker's process ended, in words: ``exit status 3``, ``SIGXCPU: its CPU time ran out``."""
    if code is None:
        return "it closed its output"
    if code >= 0:
        return f"exit status {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    why = {"SIGXCPU": ": its CPU time ran out", "SIGSEGV": ": a crash", "SIGKILL": ": killed"}
    return f"{name}{why.get(name, '')}"


class Confined:
    """One worker process (the module ``worker``'s ``main()``), confined, answering JSON lines.

    ``start(setup, files)`` makes its folder, writes ``files`` into it, starts it and sends ``setup``;
    :meth:`receive` takes its next answer, :meth:`ask` sends a numbered request and takes the answer
    to it; :meth:`close` kills it (and anything it started) and removes its folder. ``answer_bytes``
    is the largest answer taken. A failure raises :class:`WorkerError` and closes it."""

    def __init__(self, worker: str, answer_bytes: int, env: Mapping[str, str] | None = None) -> None:
        self.worker, self.answer_bytes, self.env = worker, answer_bytes, dict(env or {})
        self.folder: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._answers: queue.Queue[bytes] = queue.Queue(maxsize=2)
        self._closed = threading.Event()
        self._asked = 0  # the number of the last request: its answer must carry it

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs."""
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None

    def start(self, setup: Mapping[str, Any], files: Mapping[str, bytes] = {}) -> None:
        """Start the worker in a new folder holding ``files``, and send it ``setup``."""
        try:
            self.folder = Path(tempfile.mkdtemp(prefix="ipyminesweeper-worker-"))
            for name, data in files.items():
                (self.folder / name).write_bytes(data)
            boot = _BOOT.format(module=self.worker)
            package = str(Path(__file__).resolve().parents[2])
            process = subprocess.Popen(
                [sys.executable, "-I", "-c", boot, package], **_popen_options(self.folder, self.env)
            )
            self._process = process
            threading.Thread(
                target=_pump_out,
                args=(process.stdout, self.answer_bytes, self._answers, self._closed),
                daemon=True,
            ).start()
            self.send(setup)
        except BaseException:
            self.close()
            raise

    def send(self, request: Mapping[str, Any]) -> None:
        """Send one request (a JSON object) as it is; a worker that has ended takes nothing (the next
        answer says how it ended)."""
        stream = self._process.stdin if self._process is not None else None
        if stream is None:
            return
        try:
            stream.write(json.dumps(request).encode() + b"\n")
            stream.flush()
        except (OSError, ValueError):  # its end of the pipe is closed: it ended, or closed its input
            pass

    def ask(self, request: Mapping[str, Any], seconds: float) -> dict[str, Any]:
        """Send ``request`` with the next number (``"n"``) and return the answer that carries it, within
        ``seconds``. An answer waiting before the request was sent answers nothing asked: refused."""
        if self._process is None:
            raise WorkerError("crash", "its process is not running")
        if not self._answers.empty():  # an answer nobody asked for, or the end of the process
            self.receive(0.0)
            self.close()
            raise WorkerError("malformed", "answered before it was asked")
        self._asked += 1
        self.send({**request, "n": self._asked})
        answer = self.receive(seconds)
        if answer.get("n") != self._asked:  # a repeat of an earlier answer, however fast it came
            self.close()
            raise WorkerError("malformed", "answered before it was asked")
        return answer

    def ask_each(self, request: Mapping[str, Any], count: int, seconds: float) -> Iterator[dict[str, Any]]:
        """Send ``request`` with the next number and yield its answers as they come, up to ``count``
        (each carries the number and ``"i"``, its place), each within ``seconds``; the one marked
        ``"last"`` ends them."""
        first = self.ask(request, seconds)
        for i in range(count):
            answer = first if i == 0 else self.receive(seconds)
            if answer.get("n") != self._asked or answer.get("i") != i:
                self.close()
                raise WorkerError("malformed", "answered out of turn")
            yield answer
            if answer.get("last"):
                return

    def receive(self, seconds: float) -> dict[str, Any]:
        """The worker's next answer, within ``seconds``; any other outcome closes it and raises."""
        answer = self.poll(seconds)
        if answer is None:
            self.close()
            raise WorkerError("timeout", f"gave no answer within {seconds:g} s")
        return answer

    def poll(self, seconds: float) -> dict[str, Any] | None:
        """The worker's next answer if it comes within ``seconds``, else None (and the worker goes on);
        an answer too large, not JSON, or the end of the process closes it and raises."""
        try:
            line = self._answers.get(timeout=seconds)
        except queue.Empty:
            return None
        if line == _TOO_LARGE:
            self.close()
            raise WorkerError("too-large", f"sent an answer of more than {self.answer_bytes:,} bytes")
        if line == _EOF:
            process = self._process
            with contextlib.suppress(subprocess.TimeoutExpired, AttributeError):
                process.wait(timeout=2)  # type: ignore[union-attr]
            code = process.returncode if process is not None else None
            self.close()
            raise WorkerError("crash", f"its process ended ({exit_status(code)})")
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            answer = None
        if not isinstance(answer, dict):
            self.close()
            raise WorkerError("malformed", f"sent {quote(line)}, which is not a JSON object")
        return answer

    def close(self) -> None:
        """Kill the worker (and anything it started) and remove its folder."""
        process, self._process = self._process, None
        self._closed.set()
        if process is not None:
            _kill(process)
            with contextlib.suppress(OSError, ValueError):
                if process.stdin is not None:
                    process.stdin.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
