"""The grader's worker: one handed-in notebook, in a process of its own, graded exercise by exercise.

:mod:`.grading` starts it, fresh for each submission, in an empty folder, and reads its answers: one JSON
object a line on a private copy of stdout (the notebook's own printing goes nowhere). The request, one
line on stdin: ``{"submission": path, "name": its name as handed in, "autograder": folder,
"cell_seconds": S, "memory_mb": N, "cpu_seconds": N, "read": [folders]}``.

The worker runs the notebook's code cells in order, in an IPython shell (so ``%%writefile`` works):

- a cell the course gives runs as the grader's copy has it (``autograder/<notebook>.ipynb``), whatever
  the student did to it; a cell the student added runs as it is;
- an exercise's cell runs as the student wrote it, without its top-level ``check_...(...)`` calls (the
  grader runs the check itself); one left as the stub is not graded;
- each cell has a time limit (a loop ends it, and the next cells run), and after each exercise's cell the
  names of the package are put back as they were (a cell cannot patch the checks), and the exercise's
  otter-grader test file runs on what the cells defined.

Answers: ``{"cell": n}`` as each cell starts, ``{"exercise": id, "status": "graded" | "stub" |
"missing", "cases": [{"name", "points", "passed", "message"}], "note": ...}``, then ``{"done": true}``;
or ``{"error": ...}`` when the file cannot be graded at all.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..arena.confine import confine, private_stdout
from .course import EXERCISES, KEY
from .editions import mark_of
from .graded import feedback, graded
from .limits import call

__all__ = ["Step", "load_grader", "main", "notebook_name", "plan", "without_checks"]


@dataclass(frozen=True)
class Step:
    """A cell to run: its source, and the exercise it is the cell of (with ``stub`` if unchanged)."""

    source: str
    exercise: str | None = None
    stub: bool = False


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _same(a: str, b: str) -> bool:
    return [line.rstrip() for line in a.strip().splitlines()] == [
        line.rstrip() for line in b.strip().splitlines()
    ]


def notebook_name(notebook: dict[str, Any], path: Path, known: set[str]) -> str | None:
    """Which notebook of the course ``notebook`` is: its metadata says so, or its file's name
    (``<student>--<notebook>.ipynb``, as the hand-in names it, or ``<notebook>.ipynb``)."""
    said = notebook.get("metadata", {}).get(KEY, {})
    if isinstance(said, dict) and said.get("notebook") in known:
        return str(said["notebook"])
    stem = path.stem.split("--")[-1]
    for name in sorted(known):  # "02-boards-as-data", or "02" alone
        if stem == name or (stem[:2] == name[:2] and stem[2:3] in ("", "-", "_", " ")):
            return name
    return None


def plan(submission: dict[str, Any], trusted: dict[str, Any]) -> list[Step]:
    """The cells to run, in the submission's order, up to its last exercise cell."""
    given = {cell.get("id"): cell for cell in trusted["cells"] if cell.get("cell_type") == "code"}
    stubs = {mark[1]: _source(c) for c in trusted["cells"] if (mark := mark_of(c)) and mark[0] == "exercise"}
    steps: list[Step] = []
    for cell in submission.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        mark, ours = mark_of(cell), given.get(cell.get("id"))
        if ours is not None:
            mark = mark_of(ours) or mark
        if mark is not None and mark[0] == "exercise" and mark[1] in stubs:
            text = _source(cell)
            steps.append(Step(without_checks(text), mark[1], _same(text, stubs[mark[1]])))
        elif ours is not None:
            steps.append(Step(_source(ours)))
        elif mark is None:  # a cell the student added (a helper, a try)
            steps.append(Step(_source(cell)))
    last = max((i for i, step in enumerate(steps) if step.exercise), default=-1)
    return steps[: last + 1]


def without_checks(source: str) -> str:
    """``source`` without its top-level expression statements that call a ``check_...`` function (the
    grader runs the checks itself); as it is if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    kept = [
        node
        for node in tree.body
        if not (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id.startswith("check_")
        )
    ]
    if len(kept) == len(tree.body):
        return source
    lines = source.splitlines(keepends=True)
    return "".join("".join(lines[node.lineno - 1 : node.end_lineno]) for node in kept)


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


def _snapshot() -> dict[str, dict[str, Any]]:
    roots = ("ipyminesweeper", "hypothesis")
    return {name: dict(vars(m)) for name, m in list(sys.modules.items()) if name.split(".")[0] in roots}


def _restore(snapshot: dict[str, dict[str, Any]]) -> None:
    """Put back every name of the package's modules that a cell rebound (a patched check, say)."""
    for name, saved in snapshot.items():
        module = sys.modules.get(name)
        if module is None:
            continue
        names = vars(module)
        for key, value in saved.items():
            if names.get(key) is not value:
                names[key] = value


def _cases(exercise: str, tests: Path, env: dict[str, Any]) -> list[dict[str, Any]]:
    """Run the exercise's otter test file on ``env``: a case per property, with our feedback."""
    from otter.test_files import ExceptionTestFile

    test_file = ExceptionTestFile.from_file(str(tests / f"{exercise}.py"))
    test_file.run(env)
    found = graded(exercise, env)
    cases = []
    for i, result in enumerate(test_file.test_case_results):
        message = ""
        if not result.passed and found.check is None:
            message = found.problem
        elif not result.passed and found.check is not None:
            message = feedback(found.check.properties[i], found.check)
        case = result.test_case
        cases.append({"name": case.name, "points": case.points, "passed": result.passed, "message": message})
    return cases


def grade(setup: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The answers for one submission (see the module's docstring)."""
    path, autograder = Path(setup["submission"]), Path(setup["autograder"])
    handed_in = Path(str(setup.get("name", path.name)))
    try:
        submission = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(submission, dict) or not isinstance(submission.get("cells"), list):
            raise ValueError("it has no list of cells")
    except (OSError, ValueError) as error:
        yield {"error": f"{handed_in.name} is not a notebook: {error}"}
        return
    known = {p.stem for p in autograder.glob("*.ipynb")}
    name = notebook_name(submission, handed_in, known)
    if name is None:
        yield {"error": f"{handed_in.name} is none of the course's notebooks ({', '.join(sorted(known))})"}
        return
    yield {"notebook": name}
    trusted = json.loads((autograder / f"{name}.ipynb").read_text(encoding="utf-8"))
    steps = plan(submission, trusted)
    yield from _graded_cells(steps, autograder / "tests", float(setup["cell_seconds"]))
    answered = {step.exercise for step in steps}
    for exercise in (e.id for e in EXERCISES.values() if e.notebook == name and e.id not in answered):
        yield {"exercise": exercise, "status": "missing", "cases": [], "note": "no cell of this exercise"}
    yield {"done": True}


def _graded_cells(steps: list[Step], tests: Path, seconds: float) -> Iterator[dict[str, Any]]:
    shell = _shell()
    snapshot = _snapshot()
    for number, step in enumerate(steps, 1):
        yield {"cell": number}
        note = _run(shell, step.source, number, seconds)
        if step.exercise is None:
            continue
        if step.stub:
            yield {"exercise": step.exercise, "status": "stub", "cases": [], "note": "left as the stub"}
            continue
        _restore(snapshot)
        cases = _cases(step.exercise, tests, shell.user_ns)
        yield {"exercise": step.exercise, "status": "graded", "cases": cases, "note": note}


def _send(channel: IO[bytes], answer: dict[str, Any]) -> None:
    channel.write(json.dumps(answer).encode() + b"\n")
    channel.flush()


def load_grader() -> None:
    """Import IPython and otter-grader, leaving out jsonschema's IRI format check.

    otter imports jsonschema (through nbformat), which checks the "iri" format with rfc3987-syntax when
    it is installed, and that package builds its grammar on import: 3.8 s of the 5.5-7.2 s it took to
    import otter here, paid by every submission. The grader checks no IRIs, so the module is marked
    missing before the import (jsonschema then skips that one format) unless something loaded it first.
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
    import IPython.core.interactiveshell  # noqa: F401
    import otter.test_files  # noqa: F401


def main() -> None:
    """Run on this process's stdin and stdout (see :mod:`.grading`)."""
    sys.dont_write_bytecode = True
    channel = private_stdout()
    setup = json.loads(sys.stdin.readline())
    load_grader()  # before confining: IPython and otter open files (/dev/null too) it may not open then
    confine(setup)
    for answer in grade(setup):
        _send(channel, answer)
