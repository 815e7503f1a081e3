"""The student's side of the grader: a handed-in notebook's cells, run in a confined process of their own,
then its functions called on request, with plain data in and out.

:mod:`.grading` starts it (through :class:`~ipyminesweeper.arena.sandbox.Confined`), fresh for each
hand-in, in an empty folder. It holds no check, no example, no expected answer and no test file: the
grader's process keeps all of those and only asks this one what the student's functions answer. So
whatever a student's code changes here (a check patched, ``__eq__`` overridden, a frame read, the pipe
written to) changes nothing the grade is made of.

The protocol, one JSON object a line (requests on stdin, answers on a private copy of stdout; the
notebook's own printing goes nowhere):

- the setup: ``{"cells": [source, ...], "names": [...], "cell_seconds": S, "memory_mb": N,
  "cpu_seconds": N, "read": [folders]}``. The worker confines itself (:mod:`~ipyminesweeper.arena.confine`)
  and answers ``{"ready": {"held": [...]}}``;
- it runs the cells in order in an IPython shell (``%%writefile`` works), each within its time limit,
  and answers ``{"cell": i, "note": sentence or ""}`` after each, then ``{"names": {name: {...}}}``: for
  each name, whether it is defined, callable, its ``__name__``, and which of the library's answers of
  the exercise (``library``: ``["ipyminesweeper.engine.rules:chord"]``) it is or wraps;
- then each request is a call, ``{"n": k, "call": {"name": ...} | {"handle": h}, "args": [...],
  "seconds": S, "watch": [library functions]}``, answered ``{"n": k, "value": ..., "after": [...]}``
  (:mod:`.wire`'s forms), ``{"n": k, "error": {"type", "message"}, "traceback": ...}`` or
  ``{"n": k, "timeout": true}``, with what it printed and ``used``, the watched library functions the
  call ran (``watched``: whether it was watched: the first :data:`WATCHED_CALLS` calls of each function
  are); ``{"n": k, "calls": [args, ...], ...}`` asks several calls of one function at once, answered one
  line each (``"i"``: which; the first that runs out of time is the ``"last"``); ``{"n": k, "forget":
  true}`` drops the objects the grader held handles to.

Every answer also carries ``seen``: what the notebook tried that the confinement refused or watches (a
socket, a file outside its folder, a new process), from an audit hook no code can remove.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

from ..arena.confine import confine, private_stdout
from ..exercises.limits import call
from .wire import Handles, Malformed, decode_argument, encode_answer, shown

__all__ = ["WATCHED_CALLS", "Watched", "main", "notebook_names", "serve"]

_NETWORK = ("socket.__new__", "socket.connect", "socket.sendto", "socket.sendmsg", "socket.bind")
_PROCESSES = (
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
)
_SEEN_MOST = 20


class Seen:
    """What the notebook tried that a grader would want to know: network, files outside its folder and
    Python's, new processes. Filled by an audit hook (:func:`sys.addaudithook`: it cannot be removed)."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = tuple(os.path.realpath(p) for p in allowed)
        self.new: list[str] = []
        self.said: set[str] = set()

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if event in _NETWORK:
            said = f"a socket ({event.split('.')[1]} {shown(args[1:])[:80]})"
        elif event in _PROCESSES:
            said = f"a new process ({event})"
        elif event == "open" and isinstance(args[0], (str, bytes)) and not self._allowed(args[0]):
            path = args[0].decode(errors="replace") if isinstance(args[0], bytes) else args[0]
            said = f"the file {path[:120]}"
        else:
            return
        if said not in self.said and len(self.said) < _SEEN_MOST:
            self.said.add(said)
            self.new.append(said)

    def _allowed(self, path: str | bytes) -> bool:
        text = os.path.realpath(os.fsdecode(path))
        return text.startswith(self.allowed) or text in ("/dev/null", "/dev/urandom")

    def drained(self) -> list[str]:
        new, self.new = self.new, []
        return new


def _shell() -> Any:
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # no history file, no history thread
    return InteractiveShell.instance(config=config)


def _run(shell: Any, source: str, number: int, seconds: float) -> str:
    """Run one cell; ``""``, or a sentence on how it ended (an exception, the time limit)."""
    try:
        code = compile(shell.transform_cell(source), f"<cell {number}>", "exec")
    except SyntaxError as error:
        return f"cell {number} has a syntax error: {error.msg} (line {error.lineno})"
    outcome = call(exec, code, shell.user_ns, seconds=seconds)
    if outcome.timed_out:
        return f"cell {number} did not finish within {seconds:g} seconds (a loop?): it was stopped"
    if outcome.error is not None:
        return f"cell {number} raised {outcome.describe_error()}"
    return ""


def _library(names: list[str]) -> list[tuple[str, Any]]:
    """The library's objects named ``module:attribute`` (those that do not load are left out)."""
    import importlib

    found = []
    for name in names:
        module, _, attribute = name.partition(":")
        try:
            found.append((name, getattr(importlib.import_module(module), attribute)))
        except (ImportError, AttributeError, ValueError):
            continue
    return found


def _functions_in(value: object, depth: int = 3) -> set[int]:
    """The ids of the callables in ``value``, looking ``depth`` levels into tuples, lists and dicts."""
    if callable(value):
        return {id(value)}
    if depth == 0 or not isinstance(value, (tuple, list, dict)):
        return set()
    items = value.values() if isinstance(value, dict) else value
    return set().union(*(_functions_in(item, depth - 1) for item in items))


def _is_or_wraps(value: object, library: list[tuple[str, Any]]) -> list[str]:
    """Which of ``library`` ``value`` is, or wraps (``functools.wraps``, ``partial``), by identity."""
    inner = [value, getattr(value, "__wrapped__", None), getattr(value, "func", None)]
    return [name for name, fn in library if any(x is fn for x in inner)]


def notebook_names(namespace: dict[str, Any], names: list[str], library: list[str]) -> dict[str, Any]:
    """What the grader is told of each of ``names`` in the notebook's ``namespace``."""
    answers = _library(library)
    out: dict[str, Any] = {}
    for name in names:
        if name not in namespace:
            out[name] = {"defined": False}
            continue
        value = namespace[name]
        given = getattr(value, "__name__", None)
        out[name] = {
            "defined": True,
            "callable": callable(value),
            "name": given[:60] if isinstance(given, str) else name,
            "type": type(value).__name__[:60],
            "repr": shown(value),
            "library": _is_or_wraps(value, answers),
        }
    return out


WATCHED_CALLS = 100
"""How many calls of each of the student's functions are watched for the library's answers (a profile
function slows a call down)."""


class Watched:
    """Which of the library's functions a call runs: a profile function, set for the first
    :data:`WATCHED_CALLS` calls of each function, and for the call only."""

    def __init__(self) -> None:
        self.functions: dict[int, str] = {}
        self.codes: dict[object, str] = {}
        self.ran: set[str] = set()
        self.calls: dict[int, int] = {}

    def start(self, fn: int, names: list[str], args: tuple[Any, ...] = ()) -> bool:
        """Watch the next call of the function ``fn`` (its id), if it is among its first ones. A
        library function among the call's ``args`` (a move ``(chord, pos)`` given to a replay) is the
        caller's: calling it is not watched."""
        self.ran = set()
        self.calls[fn] = self.calls.get(fn, 0) + 1
        if self.calls[fn] > WATCHED_CALLS or not names:
            return False
        given = _functions_in(args)
        names = [name for name, found in _library(names) if id(found) not in given]
        if not names:
            return True
        self.watch(names)
        sys.setprofile(self.profile)
        return True

    def watch(self, names: list[str]) -> None:
        self.functions, self.codes = {}, {}
        for name, fn in _library(names):
            self.functions[id(fn)] = name
            own = vars(type(fn)).get("__call__")  # a strategy object's (exact's) own call
            code = getattr(fn, "__code__", None) or getattr(own, "__code__", None)
            if code is not None:
                self.codes[code] = name

    def profile(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            name = self.codes.get(frame.f_code)
        elif event == "c_call":
            name = self.functions.get(id(arg))
        else:
            return
        if name is not None:
            self.ran.add(name)


def _answer(
    request: dict[str, Any], namespace: dict[str, Any], handles: Handles, watched: Watched
) -> dict[str, Any]:
    """The answer to one call request (see the module)."""

    def resolve(ref: Mapping[str, Any]) -> Any:
        if "handle" in ref:
            return handles.get(ref["handle"])
        name = ref.get("name")
        if not isinstance(name, str) or name not in namespace:
            raise Malformed(f"the notebook defines no {shown(name)}")
        return namespace[name]

    fn = resolve(request["call"])
    args = tuple(decode_argument(a, resolve) for a in request["args"])
    watch = [n for n in request.get("watch", []) if isinstance(n, str)]
    watching = watched.start(id(fn), watch, args)
    try:
        got = call(fn, *args, seconds=float(request["seconds"]))
    finally:
        sys.setprofile(None)
    out: dict[str, Any] = {"output": got.output, "lines": got.lines, "used": sorted(watched.ran)}
    out["watched"] = watching
    if got.timed_out:
        return {**out, "timeout": True}
    if got.error is not None:
        error = {"type": type(got.error).__name__[:80], "message": _said(got.error)}
        return {**out, "error": error, "traceback": got.traceback[-4000:]}
    try:  # no time limit: a repr or a container of the student's that loops is stopped by the grader
        value, after = _encoded(got.value, args, handles)
    except Exception as wrong:
        problem = f"{type(wrong).__name__}: {_said(wrong)}"
        return {**out, "error": {"type": "Unreadable", "message": f"its answer cannot be sent: {problem}"}}
    return {**out, "value": value, "after": after}


def _encoded(value: object, args: tuple[Any, ...], handles: Handles) -> tuple[Any, list[Any]]:
    """The answer, and the arguments that a call may change (lists, the notebook's own objects) as the
    call left them (None for the others)."""
    mutable = [isinstance(a, (list, dict, set)) or id(a) in handles.numbers for a in args]
    after = [encode_answer(a, handles) if m else None for a, m in zip(args, mutable, strict=True)]
    return encode_answer(value, handles), after


def _said(error: BaseException) -> str:
    try:
        return str(error)[:2000]
    except Exception:  # a hostile __str__
        return "(its message cannot be shown)"


def serve(
    requests: IO[bytes], send: Callable[[dict[str, Any]], None], namespace: dict[str, Any], seen: Seen
) -> None:
    """Answer each request until the requests end."""
    handles, watched = Handles(), Watched()
    for line in requests:
        request = json.loads(line)  # the grader's own: a request that does not parse ends the worker
        number = request.get("n")
        if request.get("forget"):
            handles.clear()
            send({"n": number, "seen": seen.drained()})
            continue
        each = request.get("calls")
        asked = [{**request, "args": args} for args in each] if isinstance(each, list) else [request]
        for i, one in enumerate(asked):
            try:
                answer = _answer(one, namespace, handles, watched)
            except (Malformed, ValueError, KeyError, TypeError, AttributeError) as wrong:
                answer = {"error": {"type": "Malformed", "message": str(wrong)[:500]}}
            last = i == len(asked) - 1 or "timeout" in answer
            send({**answer, "n": number, "i": i, "last": last, "seen": seen.drained()})
            if last:
                break


def _cells(shell: Any, sources: list[str], seconds: float) -> Iterator[dict[str, Any]]:
    for number, source in enumerate(sources, 1):
        yield {"cell": number, "note": _run(shell, source, number, seconds)}


def main() -> None:
    """Run on this process's stdin and stdout (see :mod:`.grading`)."""
    sys.dont_write_bytecode = True
    channel = private_stdout()
    requests = sys.stdin.buffer
    setup = json.loads(requests.readline())

    def send(answer: dict[str, Any]) -> None:
        channel.write(json.dumps(answer).encode() + b"\n")
        channel.flush()

    shell = _shell()  # before confining: IPython opens files (/dev/null too) it may not open then
    import ipyminesweeper.exercises  # noqa: F401  (the notebooks import it; loaded before the limits)

    held = confine(setup)
    seen = Seen([*setup["read"], os.getcwd()])
    sys.addaudithook(seen.hook)
    send({"ready": {"held": held}})
    for answer in _cells(shell, [str(s) for s in setup["cells"]], float(setup["cell_seconds"])):
        send({**answer, "seen": seen.drained()})
    names = notebook_names(shell.user_ns, list(setup["names"]), list(setup.get("library", [])))
    send({"names": names, "seen": seen.drained()})
    serve(requests, send, shell.user_ns, seen)
