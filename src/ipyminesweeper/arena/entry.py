"""A strategy file played in a process of its own, started fresh, under limits; the referee keeps the boards.

:class:`Sandboxed` starts the tournament's worker (:mod:`.worker`) in a :class:`~.sandbox.Confined`
process whose folder holds a copy of the file. The worker confines itself (:mod:`.confine`) and loads the
file; the referee (this process) then sends it views only, in their text notation
(:meth:`View.to_text`), and reads back a small JSON move, which it checks and plays itself
(:func:`~ipyminesweeper.strategies.validate_move`). The worker never has a board, so there are no
mines to find in it, and what the file changes there (``benchmark``, the strategies, ...) changes
nothing here.

The referee times every answer (:class:`Limits`: per move, per game, to load) and refuses one too large.
A student's ``SystemExit`` or ``KeyboardInterrupt``, a crash of the process, a hang, a malformed or too
large answer, each ends that entry only, with a :class:`~.sandbox.WorkerError` saying what happened.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from ..engine import View
from ..engine.errors import quote
from ..strategies import BUILTINS, Move
from ..strategies.game import REASON_LIMIT, who
from .sandbox import Confined, WorkerError, read_roots

__all__ = ["MAX_FILE_BYTES", "Limits", "Sandboxed", "missing_strategy"]

MAX_FILE_BYTES = 1 << 20
"""A strategy file larger than this is refused unread."""


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


class _Shown:
    """What a worker says its strategy returned instead of a Move, shown as its repr: the referee's
    :func:`~ipyminesweeper.strategies.validate_move` then says it is not a Move, as it does in process."""

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
    raise WorkerError("malformed", f"sent {quote(error)} instead of an error")


def _move_of(fields: dict[str, Any]) -> Move:
    """The Move a worker sent (its fields checked by Move itself); WorkerError if it is malformed."""
    action: Any = fields.get("action")
    pos: Any = fields.get("pos")
    try:
        return Move(
            action, tuple(pos) if isinstance(pos, list) else pos, probability=fields.get("probability")
        )
    except (TypeError, ValueError) as wrong:
        raise WorkerError("malformed", f"sent a malformed move: {wrong}") from None


class Sandboxed:
    """A strategy file (a ``Path``) or a built-in strategy (its name) played in a worker process of its
    own: to the referee, a strategy ``view -> Move`` with a clock (``new_game()``). ``start()`` it, or use
    ``with``; ``close()`` kills it and removes its folder. Every failure raises a WorkerError and
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
        self._worker = Confined("ipyminesweeper.arena.worker", self.limits.answer_bytes)
        self._used = 0.0

    def __enter__(self) -> Sandboxed:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker in a new folder and wait until it has loaded the strategy."""
        try:
            files = self._file()
            setup = {
                "builtin": self.source if isinstance(self.source, str) else None,
                "file": next(iter(files), None),
                "memory_mb": self.limits.memory_mb,
                "cpu_seconds": self.limits.cpu_seconds(self.games),
                "read": read_roots([self.keep_out] if self.keep_out is not None else []),
            }
            self._worker.start(setup, files)
            self._greeted(self._late(lambda: self._worker.receive(self.limits.start_seconds), "start"))
        except BaseException:
            self.close()
            raise

    def _file(self) -> dict[str, bytes]:
        """The student's file, to copy into the worker's folder (a link or an oversized file is refused)."""
        if not isinstance(self.source, Path):
            return {}
        name = self.source.name
        if self.source.is_symlink() or not self.source.is_file():
            raise WorkerError("load", f"{name} is not a plain file (a link, a folder, ...)")
        size = self.source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise WorkerError(
                "load", f"{name} has {size:,} bytes: a strategy file has {MAX_FILE_BYTES:,} at most"
            )
        return {name: self.source.read_bytes()}

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
            raise WorkerError("load", missing_strategy(file, [name[:60] for name in missing[:20]]))
        elif error is not None:
            kind, message = _said(error)
            raise WorkerError(_kind(kind, "load"), f"{file} does not load: {_sentence(kind, message)}")
        else:
            raise WorkerError("malformed", f"sent {quote(hello)} instead of saying it was ready")

    def new_game(self) -> None:
        """Start the clock of a new game (``Limits.game_seconds``)."""
        self._used = 0.0

    def __call__(self, view: View, /) -> Move:
        """The strategy's move on ``view``, asked of the worker within the limits."""
        request = {"mines": view.mines, "view": view.to_text()}
        start = time.perf_counter()
        try:
            left = max(0.0, self.limits.game_seconds - self._used)
            seconds = min(self.limits.move_seconds, left)
            answer = self._late(lambda: self._worker.ask(request, seconds), "move")
        finally:
            self._used += time.perf_counter() - start
        return self._move(answer)

    def _late(self, wait: Callable[[], dict[str, Any]], waiting: str) -> dict[str, Any]:
        """``wait()``, with a timeout said in the tournament's words."""
        try:
            return wait()
        except WorkerError as error:
            if error.kind != "timeout":
                raise
            limits = self.limits
            if waiting == "start":
                message = f"did not load within {limits.start_seconds:g} s"
            elif limits.game_seconds - self._used < limits.move_seconds:
                message = f"used more than {limits.game_seconds:g} s in one game"
            else:
                message = f"gave no move within {limits.move_seconds:g} s"
            raise WorkerError("timeout", message) from None

    def _move(self, answer: dict[str, Any]) -> Move:
        """The Move in a worker's answer; a malformed one or an error closes the worker and raises."""
        move, other, error = answer.get("move"), answer.get("other"), answer.get("error")
        if isinstance(other, str):
            return cast(Move, _Shown(other))  # not a Move: validate_move says so, as in process
        try:
            if error is not None:
                kind, message = _said(error)
                raise WorkerError(
                    _kind(kind, "error"), f"{who(self.__name__)} raised {_sentence(kind, message)}"
                )
            if not isinstance(move, dict):
                raise WorkerError("malformed", f"sent {quote(answer)} instead of a move")
            return _move_of(move)
        except WorkerError:
            self.close()
            raise

    def close(self) -> None:
        """Kill the worker (and anything it started) and remove its folder."""
        self._worker.close()
