"""Hand-ins: what a student may hand in, and where it goes on the teacher's laptop.

The class server (:mod:`.serve`) takes each hand-in through :func:`accept`. The hand-in folder::

    DIR/strategies/<student>.py                  a strategy file (tournament DIR/strategies reads it)
    DIR/submissions/<student>--<notebook>.ipynb  a notebook (grade DIR/submissions reads it)
    DIR/earlier/strategies/..., earlier/submissions/...
                                                 every version a later hand-in replaced, with its time
    DIR/hand-ins.csv                             one line per hand-in stored

A second hand-in by the same student replaces the first atomically (written to a temporary file, then
``os.replace``): the tournament and the grader see exactly one file per student, never half of one, and
the earlier version moves to ``earlier/``. A refused hand-in changes nothing.
"""

from __future__ import annotations

import csv
import hmac
import json
import os
import re
import secrets
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_NOTEBOOK_BYTES",
    "MAX_STRATEGY_BYTES",
    "HandInFolder",
    "RefusedHandIn",
    "Request",
    "Stored",
    "accept",
    "check_class_code",
    "check_content",
    "check_notebook",
    "check_python",
    "check_request",
    "file_kind",
    "new_class_code",
    "student_name",
]

MAX_NOTEBOOK_BYTES = 5_000_000
MAX_STRATEGY_BYTES = 200_000
MAX_NAME = 40
MAX_FILE_NAME = 100
STRATEGIES, SUBMISSIONS, EARLIER, LOG = "strategies", "submissions", "earlier", "hand-ins.csv"
SEPARATOR = "--"  # between the student's name and the notebook's: neither may contain it

NAME = re.compile(r"[^\W_]+(?:[-_][^\W_]+)*")
FILE_NAME = re.compile(r"[^\W_][\w.-]*")
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B: easy to read off a board
CODE = re.compile(r"[A-Za-z0-9-]{3,32}")
WINDOWS_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}
KINDS = {".ipynb": "notebook", ".py": "strategy"}


class RefusedHandIn(ValueError):
    """A hand-in the server turns down: the HTTP status and a plain sentence for the student."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Stored:
    """Where a hand-in went: its path, the earlier version it replaced (moved to ``earlier/``), and
    whether it was the same bytes as the file already there (then nothing was written)."""

    path: Path
    earlier: Path | None = None
    unchanged: bool = False


def first_bad_character(text: str, allowed: str) -> str:
    """The first character of ``text`` that is neither a letter, a digit nor one of ``allowed``."""
    bad = next((ch for ch in text if not (ch.isalnum() or ch in allowed)), "")
    if not bad:
        return ""
    if unicodedata.category(bad).startswith("C") or bad.isspace():
        return f"U+{ord(bad):04X} ({unicodedata.name(bad, 'a control character').lower()})"
    return repr(bad)


def student_name(raw: str) -> str:
    """The student's name as files use it: lower case; letters and digits joined by single - or _."""
    name = unicodedata.normalize("NFC", raw.strip()).lower()
    rule = "use letters and digits, joined by - or _ (e.g. ada_lovelace)"
    if not name:
        raise RefusedHandIn(400, f"name: missing; {rule}")
    if len(name) > MAX_NAME:
        raise RefusedHandIn(400, f"name: {len(name)} characters, at most {MAX_NAME}; {rule}")
    bad = first_bad_character(name, "-_")
    if bad:
        raise RefusedHandIn(400, f"name: {bad} is not allowed; {rule}")
    if not NAME.fullmatch(name):
        raise RefusedHandIn(400, f"name: a - or _ goes between two letters or digits, once; {rule}")
    if name in WINDOWS_RESERVED:
        raise RefusedHandIn(400, f"name: {name!r} is not a file name on Windows; add a letter")
    return name


def file_kind(file_name: str) -> str:
    """``"notebook"`` for ``*.ipynb``, ``"strategy"`` for ``*.py``; refuses any other file name."""
    rule = "letters, digits, - _ and . only, no folder (e.g. 03-autoplayer.ipynb or careful.py)"
    if not file_name or len(file_name) > MAX_FILE_NAME:
        raise RefusedHandIn(400, f"file name: missing or longer than {MAX_FILE_NAME} characters")
    bad = first_bad_character(file_name, "-_.")
    if bad:
        raise RefusedHandIn(400, f"file name: {bad} is not allowed; {rule}")
    if ".." in file_name or SEPARATOR in file_name or not FILE_NAME.fullmatch(file_name):
        raise RefusedHandIn(400, f"file name: no '..' or '--', and a letter or digit first; {rule}")
    kind = KINDS.get(os.path.splitext(file_name)[1].lower())
    if kind is None:
        raise RefusedHandIn(415, "only notebooks (.ipynb) and strategy files (.py) can be handed in")
    return kind


def check_size(kind: str, size: int) -> None:
    """Refuses a file larger than its kind allows."""
    limit = MAX_NOTEBOOK_BYTES if kind == "notebook" else MAX_STRATEGY_BYTES
    if size > limit:
        hint = " (Edit > Clear Outputs of All Cells, save, and hand in again)" if kind == "notebook" else ""
        raise RefusedHandIn(413, f"the {kind} is {size:,} bytes; at most {limit:,}{hint}")


def utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RefusedHandIn(422, f"not a {what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def notebook_problem(nb: Any) -> str:
    """What keeps ``nb`` from being an nbformat 4 notebook, or ``""``."""
    if not isinstance(nb, dict):
        return "the JSON is not an object"
    if nb.get("nbformat") != 4 or not isinstance(nb.get("nbformat_minor"), int):
        return "nbformat is not 4 (with an integer nbformat_minor)"
    if not isinstance(nb.get("metadata"), dict) or not isinstance(nb.get("cells"), list):
        return "it needs a metadata object and a list of cells"
    for i, cell in enumerate(nb["cells"]):
        source = cell.get("source") if isinstance(cell, dict) else None
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            return f"cell {i} is not a code, markdown or raw cell"
        if not (
            isinstance(source, str) or (isinstance(source, list) and all(isinstance(s, str) for s in source))
        ):
            return f"cell {i}: its source is not text"
        count = cell.get("execution_count")
        if cell["cell_type"] == "code" and (
            not isinstance(cell.get("outputs"), list) or not (count is None or isinstance(count, int))
        ):
            return f"cell {i}: a code cell needs a list of outputs and an execution_count"
    return ""


def check_notebook(data: bytes) -> None:
    """Refuses anything but a notebook in nbformat 4 (UTF-8 JSON)."""
    text = utf8(data, "notebook")
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RefusedHandIn(422, f"not a notebook: not JSON ({str(exc)[:120]})") from None
    problem = notebook_problem(nb)
    if problem:
        raise RefusedHandIn(422, f"not a notebook (nbformat 4): {problem}")


def check_python(data: bytes, file_name: str) -> None:
    """Refuses a strategy file that is not Python this laptop can compile (it is never run here)."""
    text = utf8(data, "Python file")
    try:
        compile(text, file_name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise RefusedHandIn(422, f"not Python: SyntaxError: {exc.msg} (line {exc.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise RefusedHandIn(422, f"not Python: {type(exc).__name__}: {str(exc)[:120]}") from None


def new_class_code() -> str:
    """A fresh class code of 5 characters that are hard to misread."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(5))


def check_class_code(given: str, expected: str) -> None:
    """Refuses a wrong class code (compared without case, in constant time)."""
    if not hmac.compare_digest(given.strip().upper().encode(), expected.upper().encode()):
        raise RefusedHandIn(403, "wrong class code: use the one on the board")


def utc_stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


class HandInFolder:
    """The teacher's hand-in folder: one file per student and kind, earlier versions kept aside."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self.strategies = self.root / STRATEGIES
        self.submissions = self.root / SUBMISSIONS
        self.lock = threading.Lock()

    def target(self, student: str, file_name: str) -> Path:
        """Where a hand-in goes: ``strategies/<student>.py`` or ``submissions/<student>--<file>``."""
        if file_kind(file_name) == "strategy":
            return self.strategies / f"{student}.py"
        return self.submissions / f"{student}{SEPARATOR}{file_name}"

    def store(self, student: str, file_name: str, data: bytes, client: str = "") -> Stored:
        """Write ``data`` to the student's file atomically, moving an earlier version aside."""
        target = self.target(student, file_name)
        with self.lock:
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_file() and target.read_bytes() == data:
                return Stored(target, unchanged=True)
            fd, tmp_name = tempfile.mkstemp(prefix=".handin-", suffix=".tmp", dir=target.parent)
            tmp, earlier = Path(tmp_name), None
            try:
                with os.fdopen(fd, "wb") as tmp_file:
                    tmp_file.write(data)
                    tmp_file.flush()
                    os.fsync(tmp_file.fileno())
                earlier = self.keep_earlier(target) if target.exists() else None
                os.replace(tmp, target)
            except BaseException:  # nothing changes: no temporary file, no extra earlier version
                tmp.unlink(missing_ok=True)
                if earlier is not None:
                    earlier.unlink(missing_ok=True)
                raise
            self.log(client, student, file_name, target, data, earlier)
        return Stored(target, earlier)

    def keep_earlier(self, target: Path) -> Path:
        """A hard link (else a copy) of the current file under ``earlier/``, named with the time."""
        kept = self.root / EARLIER / target.parent.name / f"{target.stem}.{utc_stamp()}{target.suffix}"
        kept.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(target, kept)
        except OSError:
            kept.write_bytes(target.read_bytes())
        return kept

    def log(
        self, client: str, student: str, file_name: str, path: Path, data: bytes, earlier: Path | None
    ) -> None:
        """One line of ``hand-ins.csv``: when, from where, who, what, and where it went."""
        log = self.root / LOG
        new = not log.exists()
        with log.open("a", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            if new:
                writer.writerow(["time", "client", "student", "file", "stored", "bytes", "earlier"])
            stored = path.relative_to(self.root).as_posix()
            kept = earlier.relative_to(self.root).as_posix() if earlier else ""
            when = datetime.now(timezone.utc).isoformat(timespec="seconds")
            writer.writerow([when, client, student, file_name, stored, len(data), kept])


@dataclass(frozen=True)
class Request:
    """A hand-in's checked parameters: whose it is, its file name, and its kind."""

    student: str
    file_name: str
    kind: str


def check_request(params: dict[str, str], expected_code: str) -> Request:
    """The checks that need no body: the class code first, then the name and the file name."""
    check_class_code(params.get("code", ""), expected_code)
    student = student_name(params.get("name", ""))
    file_name = params.get("file", "")
    return Request(student, file_name, file_kind(file_name))


def check_content(request: Request, data: bytes) -> None:
    """Refuses a body that is too large, or not a notebook (nbformat 4) or Python, as its name says."""
    check_size(request.kind, len(data))
    if request.kind == "notebook":
        check_notebook(data)
    else:
        check_python(data, f"{request.student}.py")


def accept(
    folder: HandInFolder, expected_code: str, params: dict[str, str], data: bytes, client: str = ""
) -> Stored:
    """Check a hand-in (class code, name, file name, size, content) and store it; :class:`RefusedHandIn`
    says why not, and then nothing was written."""
    request = check_request(params, expected_code)
    check_content(request, data)
    return folder.store(request.student, request.file_name, data, client)
