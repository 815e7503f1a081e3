"""The worker: one strategy file (or a built-in) in a process of its own, answering views with moves.

:class:`~.entry.Sandboxed` starts it, fresh for each entry, in an empty folder that holds only a copy
of the file. Everything the worker prints or receives is data for the referee, which trusts none of it:
the student's code runs in this process and may change anything here. The protocol, one JSON object a
line (requests on stdin, answers on a private copy of stdout; the student's ``print`` goes nowhere):

- first request, the setup: ``{"file": "ada.py" | null, "builtin": "exact" | null, "memory_mb": N,
  "cpu_seconds": N, "read": [folders]}``; the worker confines itself (:func:`confine`), loads the
  strategy, and answers ``{"ready": {"name": ..., "held": [...]}}``, ``{"missing": [functions]}`` or
  ``{"error": {"type": ..., "message": ...}}``;
- then each request is a view, ``{"n": k, "mines": N, "view": "<View.to_text()>"}``, and each answer
  ``{"move": {"action": ..., "pos": [r, c], "probability": p}}``, ``{"other": "<repr>"}`` (not a
  Move) or ``{"error": ...}`` (the strategy raised, even SystemExit; the worker then ends), with the
  request's ``"n"``: an answer with another number answers no request, and is refused.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import json
import sys
from collections.abc import Callable
from types import ModuleType
from typing import IO, Any

from ..engine import View
from ..engine.errors import quote
from ..strategies import STRATEGIES, Move
from ..strategies.game import REASON_LIMIT
from .confine import confine, private_stdout

__all__ = ["defined_functions", "main"]


def defined_functions(module: ModuleType) -> list[str]:
    """The public functions ``module`` defines itself (for "it defines careful: add ...")."""
    return [
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")
    ]


def _said(error: BaseException) -> dict[str, str]:
    try:
        message = str(error)
    except Exception:  # a hostile __str__
        message = "(its message cannot be shown)"
    return {"type": type(error).__name__[:REASON_LIMIT], "message": message[:REASON_LIMIT]}


def _send(channel: IO[bytes], answer: dict[str, Any]) -> None:
    channel.write(json.dumps(answer).encode() + b"\n")
    channel.flush()


def _load(setup: dict[str, Any]) -> tuple[Callable[[View], Any] | None, dict[str, Any]]:
    """The strategy and the answer that says it is ready, or None and the answer that says why not."""
    builtin = setup.get("builtin")
    if builtin is not None:
        return STRATEGIES[builtin], {"ready": {"name": builtin}}
    file = setup["file"]
    spec = importlib.util.spec_from_file_location("ipyminesweeper_class_entry", file)
    if spec is None or spec.loader is None:
        return None, {"error": {"type": "ImportError", "message": f"cannot load {file}"}}
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would (dataclasses and pickle look it up)
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # a student's file: anything, SystemExit too
        return None, {"error": _said(error)}
    strategy = getattr(module, "strategy", None)
    if not callable(strategy):
        return None, {"missing": defined_functions(module)}
    name = getattr(strategy, "__name__", "strategy")
    return strategy, {"ready": {"name": name if isinstance(name, str) else "strategy"}}


def _answer(strategy: Callable[[View], Any], request: dict[str, Any]) -> dict[str, Any]:
    view = View.from_text(request["view"], mines=request["mines"])
    move = strategy(view)
    if not isinstance(move, Move):
        return {"other": quote(move)}
    pos = move.pos
    return {"move": {"action": move.action, "pos": [pos[0], pos[1]], "probability": move.probability}}


def serve(strategy: Callable[[View], Any], requests: IO[bytes], channel: IO[bytes]) -> None:
    """Answer each view with the strategy's move, until the requests end or the strategy raises."""
    for line in requests:
        request = json.loads(line)
        number = request.get("n")  # echoed, so that a repeated or early answer cannot pass for this one
        try:
            answer = _answer(strategy, request)
        except BaseException as error:  # the strategy's, whatever it is: the referee says so
            _send(channel, {"error": _said(error), "n": number})
            return
        _send(channel, {**answer, "n": number})


def main() -> None:
    """Run the worker on this process's stdin and stdout (``python -I -c ...``, see :mod:`.entry`)."""
    sys.dont_write_bytecode = True
    channel = private_stdout()
    requests = sys.stdin.buffer
    setup = json.loads(requests.readline())
    held = confine(setup)
    strategy, hello = _load(setup)
    if "ready" in hello:
        hello["ready"]["held"] = held
    with contextlib.suppress(BaseException):  # the student's code may have broken the channel
        _send(channel, hello)
        if strategy is not None:
            serve(strategy, requests, channel)
    # then the process ends; whatever the student's code does at exit, the referee kills it when done
