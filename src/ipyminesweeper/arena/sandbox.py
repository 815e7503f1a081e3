"""A strategy file played in a process of its own, started fresh, under limits; the referee keeps the boards.

:class:`Sandboxed` copies the file into an empty folder of its own and starts a worker there
(:mod:`.worker`, with ``python -I``: no environment variables, no user site, not the current folder). The
worker confines itself (:mod:`.confine`) and loads the file; the referee (this process) then sends it
views only, in their text notation (:meth:`View.to_text`), and reads back a small JSON move, which it
checks and plays itself (:func:`~ipyminesweeper.play.validate_move`). The worker never has a board, so
there are no mines to find in it, and what the file changes there (``benchmark``, the strategies, ...)
changes nothing here.

The referee times every answer (:class:`Limits`: per move, per game, to load) and refuses one too large.
A student's ``SystemExit`` or ``KeyboardInterrupt``, a crash of the process, a hang, a malformed or too
large answer, each ends that entry only, with an :class:`~.referee.EntryError` saying what happened.

What holds where. Linux: all of it, and the worker can open no file outside its folder and Python's where
the kernel has Landlock enabled (5.13 or later; :mod:`.confine`); without it, an absolute path still
reads what the teacher's user can read. macOS: the process, the folder, the
timeouts and the resource limits, but the memory limit is not reliably enforced and no file is hidden.
Windows: the process, the folder and the timeouts (the referee's clock); no resource limit at all
(there is no ``resource`` module). Pyodide (JupyterLite) has no processes: no sandbox.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from ..engine import View
from ..engine.errors import quote
from ..play import BUILTINS, Move
from ..play.game import REASON_LIMIT, who
from .referee import EntryError

__all__ = ["MAX_FILE_BYTES", "Limits", "Sandboxed", "missing_strategy", "read_roots"]

MAX_FILE_BYTES = 1 << 20
"""A strategy file larger than this is refused unread."""

_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from ipyminesweeper.arena.worker import main; main()"
_EOF, _TOO_LARGE = b"", b"\0too large"


@dataclass(frozen=True)
class Limits:
    """What an entry may use: seconds of the referee's clock to answer one view (``move_seconds``), for
    all its moves of one game (``game_seconds``) and to load (``start_seconds``); its memory in MiB; the
    size of one answer in bytes."""

    move_seconds: float = 5.0
    game_seconds: float = 60.0
    start_seconds: float = 30.0
    memory_mb: int = 1024
    answer_bytes: int = 65_536

    def __post_init__(self) -> None:
        for name in ("move_seconds", "game_seconds", "start_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
                raise ValueError(f"Limits.{name} is a number of seconds above 0, not {quote(value)}")
        for name, least in (("memory_mb", 64), ("answer_bytes", 256)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"Limits.{name} is an int of at least {least}, not {quote(value)}")

    def cpu_seconds(self, games: int) -> int:
        """The CPU time a worker may use in all: enough to load and to use every game's time."""
        return math.ceil(self.start_seconds + games * self.game_seconds) + 1


def missing_strategy(file: str, functions: list[str]) -> str:
    """What to tell the author of ``file``, which defines ``functions`` but no ``strategy``."""
    hint = (
        f"; it defines {', '.join(functions)}: add `strategy = {functions[-1]}` at its end"
        if functions
        else ""
    )
    return f"{file} defines no function strategy(view){hint}"


def read_roots(keep_out: Path | None = None) -> list[str]:
    """The folders a worker may read: Python's (its prefixes, the standard library, the installed
    packages, this package's folder) and the system's libraries; not the current folder, and none that
    holds ``keep_out`` (the students' folder) or lies in it."""
    package = Path(__file__).resolve().parents[2]
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, str(package)}
    found |= {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    found |= {"/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib"}
    out = keep_out.resolve() if keep_out is not None else None
    roots = {Path(text).resolve() for text in found if text and os.path.exists(text)}
    if out is not None:
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


def _pump_in(stream: IO[bytes], requests: queue.Queue[bytes | None]) -> None:
    """Write the requests to the worker, in a thread: a worker that stops reading blocks only this."""
    try:
        while (request := requests.get()) is not None:
            stream.write(request)
            stream.flush()
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _popen_options(folder: Path) -> dict[str, Any]:
    """A process in ``folder``, with pipes, no environment (but what Windows needs to start), and a
    process group of its own: the terminal's Ctrl+C is the referee's alone, and a kill takes it all."""
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.DEVNULL,
        "cwd": folder,
        "env": {key: os.environ[key] for key in ("SYSTEMROOT",) if key in os.environ},
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


def _exit_status(code: int | None) -> str:
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


class _Shown:
    """What a worker says its strategy returned instead of a Move, shown as its repr: the referee's
    :func:`~ipyminesweeper.play.validate_move` then says it is not a Move, as it does in process."""

    def __init__(self, text: str) -> None:
        self.text = text[:REASON_LIMIT]

    def __repr__(self) -> str:
        return self.text


def _kind(error_type: str, otherwise: str) -> str:
    return {"SystemExit": "exit", "KeyboardInterrupt": "interrupt", "MemoryError": "memory"}.get(
        error_type, otherwise
    )


def _sentence(kind: str, message: str) -> str:
    return f"{kind}: {message}" if message else kind


def _said(error: object) -> tuple[str, str]:
    """The type and message a worker reports, checked (it is the student's process that reports)."""
    if isinstance(error, dict):
        kind, message = error.get("type"), error.get("message")
        if isinstance(kind, str) and isinstance(message, str):
            return kind[:REASON_LIMIT], message[:REASON_LIMIT]
    raise EntryError("malformed", f"sent {quote(error)} instead of an error")


def _move_of(fields: dict[str, Any]) -> Move:
    """The Move a worker sent (its fields checked by Move itself); EntryError if it is malformed."""
    action: Any = fields.get("action")
    pos: Any = fields.get("pos")
    try:
        return Move(
            action, tuple(pos) if isinstance(pos, list) else pos, probability=fields.get("probability")
        )
    except (TypeError, ValueError) as wrong:
        raise EntryError("malformed", f"sent a malformed move: {wrong}") from None


class Sandboxed:
    """A strategy file (a ``Path``) or a built-in strategy (its name) played in a worker process of its
    own: to the referee, a strategy ``view -> Move`` with a clock (``new_game()``). ``start()`` it, or use
    ``with``; ``close()`` kills it and removes its folder. Every failure raises an EntryError and
    closes it. ``keep_out``: a folder the worker may not read even where Python's are (the students')."""

    def __init__(
        self, source: Path | str, limits: Limits | None = None, games: int = 1, keep_out: Path | None = None
    ) -> None:
        if isinstance(source, str) and source not in BUILTINS:
            raise ValueError(
                f"a sandboxed strategy is a file or one of {', '.join(BUILTINS)}: {quote(source)}"
            )
        if not isinstance(source, (str, Path)):
            raise TypeError(f"a sandboxed strategy is a Path or a built-in's name, not {quote(source)}")
        self.source, self.limits, self.games = source, limits or Limits(), games
        self.keep_out = keep_out if keep_out is not None or isinstance(source, str) else source.parent
        self.__name__ = source if isinstance(source, str) else "strategy"
        self.held: list[str] = []
        """The limits the worker reported it set (see :mod:`.confine`)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: Path | None = None
        self._answers: queue.Queue[bytes] = queue.Queue(maxsize=2)
        self._closed = threading.Event()
        self._requests: queue.Queue[bytes | None] = queue.Queue()
        self._used = 0.0
        self._asked = 0  # the number of the last request: its answer must carry it

    def __enter__(self) -> Sandboxed:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker in a new folder and wait until it has loaded the strategy."""
        try:
            self._folder = Path(tempfile.mkdtemp(prefix="ipyminesweeper-entry-"))
            setup = {
                "builtin": self.source if isinstance(self.source, str) else None,
                "file": self._copy() if isinstance(self.source, Path) else None,
                "memory_mb": self.limits.memory_mb,
                "cpu_seconds": self.limits.cpu_seconds(self.games),
                "read": read_roots(self.keep_out),
            }
            process = subprocess.Popen(
                [sys.executable, "-I", "-c", _BOOT, str(Path(__file__).resolve().parents[2])],
                **_popen_options(self._folder),
            )
            self._process = process
            limit = self.limits.answer_bytes
            threading.Thread(
                target=_pump_out, args=(process.stdout, limit, self._answers, self._closed), daemon=True
            ).start()
            threading.Thread(target=_pump_in, args=(process.stdin, self._requests), daemon=True).start()
            self._requests.put(json.dumps(setup).encode() + b"\n")
            self._greeted(self._receive(self.limits.start_seconds, "start"))
        except BaseException:
            self.close()
            raise

    def _copy(self) -> str:
        """Copy the student's file into the worker's folder (a link or an oversized file is refused)."""
        assert isinstance(self.source, Path) and self._folder is not None
        name = self.source.name
        if self.source.is_symlink() or not self.source.is_file():
            raise EntryError("load", f"{name} is not a plain file (a link, a folder, ...)")
        size = self.source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise EntryError(
                "load", f"{name} has {size:,} bytes: a strategy file has {MAX_FILE_BYTES:,} at most"
            )
        (self._folder / name).write_bytes(self.source.read_bytes())
        return name

    def _greeted(self, hello: dict[str, Any]) -> None:
        file = self.source.name if isinstance(self.source, Path) else self.source
        ready, missing, error = hello.get("ready"), hello.get("missing"), hello.get("error")
        if (
            isinstance(ready, dict)
            and isinstance(ready.get("name"), str)
            and isinstance(ready.get("held"), list)
        ):
            self.__name__ = ready["name"][:60]
            self.held = [str(item)[:REASON_LIMIT] for item in ready["held"]]
        elif isinstance(missing, list) and all(isinstance(name, str) for name in missing):
            raise EntryError("load", missing_strategy(file, [name[:60] for name in missing[:20]]))
        elif error is not None:
            kind, message = _said(error)
            raise EntryError(_kind(kind, "load"), f"{file} does not load: {_sentence(kind, message)}")
        else:
            raise EntryError("malformed", f"sent {quote(hello)} instead of saying it was ready")

    def new_game(self) -> None:
        """Start the clock of a new game (``Limits.game_seconds``)."""
        self._used = 0.0

    def __call__(self, view: View, /) -> Move:
        """The strategy's move on ``view``, asked of the worker within the limits."""
        if self._process is None:
            raise EntryError("crash", "its process is not running")
        if not self._answers.empty():  # an answer nobody asked for, or the end of the process
            self._receive(0.0, "move")
            self.close()
            raise EntryError("malformed", "answered before it was asked")
        self._asked += 1
        request = {"n": self._asked, "mines": view.mines, "view": view.to_text()}
        self._requests.put(json.dumps(request).encode() + b"\n")
        start = time.perf_counter()
        try:
            left = max(0.0, self.limits.game_seconds - self._used)
            answer = self._receive(min(self.limits.move_seconds, left), "move")
        finally:
            self._used += time.perf_counter() - start
        if answer.get("n") != self._asked:  # a repeat of an earlier answer, however fast it came
            self.close()
            raise EntryError("malformed", "answered before it was asked")
        return self._move(answer)

    def _receive(self, seconds: float, waiting: str) -> dict[str, Any]:
        """The worker's next answer, within ``seconds``; any other outcome closes it and raises."""
        try:
            line = self._answers.get(timeout=seconds)
        except queue.Empty:
            self.close()
            raise EntryError("timeout", self._late(waiting)) from None
        if line == _TOO_LARGE:
            self.close()
            raise EntryError("too-large", f"sent an answer of more than {self.limits.answer_bytes:,} bytes")
        if line == _EOF:
            process = self._process
            with contextlib.suppress(subprocess.TimeoutExpired, AttributeError):
                process.wait(timeout=2)  # type: ignore[union-attr]
            code = process.returncode if process is not None else None
            self.close()
            raise EntryError("crash", f"its process ended ({_exit_status(code)})")
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            answer = None
        if not isinstance(answer, dict):
            self.close()
            raise EntryError("malformed", f"sent {quote(line)}, which is not a JSON object")
        return answer

    def _late(self, waiting: str) -> str:
        limits = self.limits
        if waiting == "start":
            return f"did not load within {limits.start_seconds:g} s"
        if limits.game_seconds - self._used < limits.move_seconds:
            return f"used more than {limits.game_seconds:g} s in one game"
        return f"gave no move within {limits.move_seconds:g} s"

    def _move(self, answer: dict[str, Any]) -> Move:
        """The Move in a worker's answer; a malformed one or an error closes the worker and raises."""
        move, other, error = answer.get("move"), answer.get("other"), answer.get("error")
        if isinstance(other, str):
            return cast(Move, _Shown(other))  # not a Move: validate_move says so, as in process
        try:
            if error is not None:
                kind, message = _said(error)
                raise EntryError(
                    _kind(kind, "error"), f"{who(self.__name__)} raised {_sentence(kind, message)}"
                )
            if not isinstance(move, dict):
                raise EntryError("malformed", f"sent {quote(answer)} instead of a move")
            return _move_of(move)
        except EntryError:
            self.close()
            raise

    def close(self) -> None:
        """Kill the worker (and anything it started) and remove its folder."""
        process, self._process = self._process, None
        self._closed.set()
        if process is not None:
            _kill(process)
            self._requests.put(None)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
