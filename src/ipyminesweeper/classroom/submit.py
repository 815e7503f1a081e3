"""``hand_in(file, name, code)``: send a file of the notebook's Python to the class server.

In the offline site served to a classroom (``python -m ipyminesweeper.classroom serve``), a file written
with ``%%writefile`` lives in the kernel's own memory: the browser's file browser does not see it over
plain http. This function posts it from the kernel. In Pyodide (the site) it uses a synchronous
``XMLHttpRequest`` of the kernel's web worker, to the server the site came from; in CPython (JupyterLab)
``urllib``, to ``server=`` or ``$IPYMINESWEEPER_CLASS_SERVER``.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

__all__ = ["HandInError", "HandedIn", "hand_in"]

ENV_SERVER = "IPYMINESWEEPER_CLASS_SERVER"


class HandInError(Exception):
    """The hand-in did not arrive: the server's refusal, or why the server could not be reached."""


@dataclass(frozen=True)
class HandedIn:
    """The server's receipt, e.g. ``received: strategies/ada.py``."""

    message: str

    def __repr__(self) -> str:
        return self.message


def browser() -> Any:
    """Pyodide's ``js`` module: the globals of the kernel's web worker."""
    return import_module("js")


def default_server() -> str:
    """The class server: where the site came from (Pyodide), else ``$IPYMINESWEEPER_CLASS_SERVER``."""
    if sys.platform == "emscripten":
        return str(browser().location.origin)
    server = os.environ.get(ENV_SERVER, "")
    if not server:
        raise HandInError(
            f"say where the class server is: hand_in(..., server='http://<laptop address>:8000'), "
            f"or set {ENV_SERVER}"
        )
    return server


def post_from_pyodide(url: str, data: bytes, timeout: float) -> tuple[int, str, str]:
    """A synchronous POST from the kernel's web worker (allowed in workers, and on plain http)."""
    ffi = import_module("pyodide.ffi")
    request = browser().XMLHttpRequest.new()
    try:
        request.open("POST", url, False)
        request.timeout = int(timeout * 1000)
        request.setRequestHeader("Content-Type", "application/octet-stream")
        request.send(ffi.to_js(data))
    except ffi.JsException as exc:
        raise HandInError(f"the class server at {url.split('/hand-in')[0]} did not answer: {exc}") from None
    kind = request.getResponseHeader("Content-Type") or ""
    return int(request.status), str(kind), str(request.responseText)


def post_from_cpython(url: str, data: bytes, timeout: float) -> tuple[int, str, str]:
    request = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": "application/octet-stream"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            kind = response.headers.get("Content-Type", "")
            return int(response.status), kind, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as exc:
        raise HandInError(f"the class server at {url.split('/hand-in')[0]} did not answer: {exc}") from None


def hand_in(
    file: str | Path, name: str, code: str, server: str | None = None, timeout: float = 30.0
) -> HandedIn:
    """Hand in ``file`` (a strategy ``.py`` or a notebook ``.ipynb``) as student ``name`` of the class
    with ``code``; returns the server's receipt, or raises :class:`HandInError` with its refusal."""
    path = Path(file)
    if not path.is_file():
        raise HandInError(
            f"{path} is not a file of this kernel (its folder is {os.getcwd()}): run its %%writefile cell "
            "first. A notebook is handed in from the hand-in page of the site."
        )
    base = (server or default_server()).rstrip("/")
    url = f"{base}/hand-in?{urlencode({'name': name, 'code': code, 'file': path.name})}"
    data = path.read_bytes()
    post = post_from_pyodide if sys.platform == "emscripten" else post_from_cpython
    status, kind, text = post(url, data, timeout)
    if not kind.startswith("text/plain"):  # e.g. `make serve-lite`'s http.server: 501, in HTML
        raise HandInError(
            f"{base} takes no hand-ins (it answered {status}): the teacher serves the site with "
            "`python -m ipyminesweeper.classroom serve`"
        )
    if status != 200:
        raise HandInError(text.strip())
    return HandedIn(text.strip())
