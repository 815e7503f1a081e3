"""Grade a folder of handed-in notebooks: points per exercise, a CSV gradebook, and feedback for each student.

    python -m ipyminesweeper.exercises grade SUBMISSIONS/ --out grades.csv

Each notebook is graded in a process of its own (:mod:`.grade_worker`), started fresh in an empty folder,
with limits: a time limit per cell, one per notebook, and memory. An exercise scores one point per property
of its check that held (partial credit), through its otter-grader test file from ``make course``
(``dist/course/autograder/``; otter-grader is the teacher's extra: ``pip install ipyminesweeper[grade]``).
A submission that loops, crashes, prints a lot or leaves a stub as it was gets a sentence for that
exercise and keeps its points for the others. The feedback is the check's own counterexample, never the
solution.

A file ``<student>--<notebook>.ipynb`` (as the class server stores hand-ins) is the student's; any other
``.ipynb`` is graded too, under its file's name.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..arena.sandbox import read_roots
from ..engine.escape import markdown_text, terminal_text
from .course import EXERCISES

__all__ = ["Case", "ExerciseGrade", "Gradebook", "Limits", "SubmissionGrade", "grade_folder", "main"]

_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from ipyminesweeper.exercises.grade_worker import main; main()"
)
LARGEST = 20 * 1024 * 1024
"""The largest notebook the grader reads (bytes)."""


@dataclass(frozen=True)
class Limits:
    """What grading one notebook may take: seconds per cell, seconds in all, memory (MiB)."""

    cell_seconds: float = 30.0
    seconds: float = 300.0
    memory_mb: int = 2048


@dataclass(frozen=True)
class Case:
    """One property of an exercise's check: its points, whether it held, and what the check found."""

    name: str
    points: float
    passed: bool
    message: str = ""


@dataclass(frozen=True)
class ExerciseGrade:
    """An exercise of one submission: ``status`` is graded, stub, missing or not reached."""

    exercise: str
    status: str
    cases: tuple[Case, ...] = ()
    note: str = ""

    @property
    def points(self) -> float:
        return sum(case.points for case in self.cases if case.passed)

    @property
    def possible(self) -> int:
        return len(EXERCISES[self.exercise].properties)


@dataclass(frozen=True)
class SubmissionGrade:
    """One handed-in notebook: its student, which notebook it is, its exercises, or why it was not graded."""

    submission: str
    student: str
    notebook: str | None
    exercises: tuple[ExerciseGrade, ...] = ()
    problem: str = ""
    seconds: float = 0.0

    @property
    def points(self) -> float:
        return sum(e.points for e in self.exercises)

    @property
    def possible(self) -> int:
        return sum(e.possible for e in self.exercises)

    def feedback(self) -> str:
        """The student's feedback, in Markdown: points, and for each property that did not hold, the
        counterexample (indented as code)."""
        lines = [f"# {markdown_text(self.submission)}: {self.points:g} of {self.possible} points", ""]
        if self.problem:
            lines += [markdown_text(self.problem), ""]
        for grade in self.exercises:
            title = EXERCISES[grade.exercise].title
            lines += [
                f"## {grade.exercise} ({markdown_text(title)}): {grade.points:g} of {grade.possible}",
                "",
            ]
            if grade.note:
                lines += [markdown_text(grade.note), ""]
            for case in grade.cases:
                name = case.name.split(": ", 1)[-1]
                lines.append(f"- {'✓' if case.passed else '✗'} {markdown_text(name)}")
                if case.message:
                    lines += ["", *(f"      {line}" for line in case.message.splitlines()), ""]
            lines.append("")
        return "\n".join(lines)


@dataclass(frozen=True)
class Gradebook:
    """Every submission's grade, in the order of their files."""

    rows: tuple[SubmissionGrade, ...]

    @property
    def exercises(self) -> list[str]:
        """The exercises of the notebooks handed in, in the course's order."""
        seen = {e.exercise for row in self.rows for e in row.exercises}
        return [e for e in EXERCISES if e in seen]

    def to_csv(self) -> str:
        """A row per submission, a column of points per exercise, the total and what was possible."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            ["submission", "student", "notebook", *self.exercises, "total", "possible", "problem"]
        )
        for row in self.rows:
            points = {e.exercise: f"{e.points:g}" for e in row.exercises}
            cells = [points.get(e, "") for e in self.exercises]
            problem = row.problem or "; ".join(f"{e.exercise}: {e.note}" for e in row.exercises if e.note)
            writer.writerow(
                [
                    row.submission,
                    row.student,
                    row.notebook or "",
                    *cells,
                    f"{row.points:g}",
                    row.possible,
                    problem,
                ]
            )
        return out.getvalue()

    def summary(self) -> str:
        """One line per submission, for the terminal."""
        return "\n".join(
            f"{terminal_text(row.submission)}: {row.points:g} / {row.possible}"
            + (f" ({terminal_text(row.problem)})" if row.problem else "")
            for row in self.rows
        )


def student_of(path: Path) -> str:
    """``ada_lovelace`` for ``ada_lovelace--02-boards-as-data.ipynb``; the file's stem otherwise."""
    return path.stem.split("--")[0]


def _setup(folder: Path, submission: Path, autograder: Path, limits: Limits) -> dict[str, Any]:
    """Copy what the worker reads into its folder (it may read nothing else), and say where."""
    shutil.copyfile(submission, folder / "submission.ipynb")
    shutil.copytree(autograder, folder / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    return {
        "submission": "submission.ipynb",
        "name": submission.name,
        "autograder": "autograder",
        "cell_seconds": limits.cell_seconds,
        "memory_mb": limits.memory_mb,
        "cpu_seconds": int(limits.seconds) + 10,
        "read": read_roots(submission.parent),
    }


def _start(folder: Path, setup: dict[str, Any]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-I", "-c", _BOOT, str(Path(__file__).resolve().parents[2])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=folder,
        env={"HOME": str(folder), "IPYTHONDIR": str(folder / ".ipython"), "MPLBACKEND": "Agg"},
        start_new_session=os.name == "posix",
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps(setup).encode() + b"\n")
    process.stdin.close()
    return process


def _read_answers(stream: IO[bytes], answers: list[dict[str, Any]]) -> None:
    for line in stream:
        try:
            answer = json.loads(line[:1_000_000])
        except ValueError:
            continue
        if isinstance(answer, dict):
            answers.append(answer)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        if os.name == "posix":
            os.killpg(process.pid, 9)
        else:  # pragma: no cover - Windows
            process.kill()
    process.wait()


def grade_submission(path: Path, autograder: Path, limits: Limits = Limits()) -> SubmissionGrade:
    """Grade one handed-in notebook in a process of its own (see the module's docstring)."""
    started = time.perf_counter()
    if not path.is_file() or path.is_symlink() or path.stat().st_size > LARGEST:
        return SubmissionGrade(
            path.name, student_of(path), None, problem="not a plain notebook file of 20 MB at most"
        )
    folder = Path(tempfile.mkdtemp(prefix="ipyminesweeper-grade-"))
    answers: list[dict[str, Any]] = []
    try:
        process = _start(folder, _setup(folder, path, autograder, limits))
        assert process.stdout is not None
        reader = threading.Thread(target=_read_answers, args=(process.stdout, answers), daemon=True)
        reader.start()
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=limits.seconds)
        _stop(process)
        reader.join(5)
        return _assembled(path, answers, process.returncode, limits, time.perf_counter() - started)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _assembled(
    path: Path, answers: list[dict[str, Any]], code: int | None, limits: Limits, seconds: float
) -> SubmissionGrade:
    """The grade from the worker's answers; exercises it never reached get a sentence saying why."""
    error = next((str(a["error"]) for a in answers if "error" in a), "")
    notebook = next((str(a["notebook"]) for a in answers if "notebook" in a), None)
    grades = {
        str(a["exercise"]): ExerciseGrade(
            str(a["exercise"]),
            str(a.get("status", "graded")),
            tuple(
                Case(str(c["name"]), float(c["points"]), bool(c["passed"]), str(c["message"]))
                for c in a["cases"]
            ),
            str(a.get("note", "")),
        )
        for a in answers
        if "exercise" in a and a.get("exercise") in EXERCISES
    }
    if notebook is None or error:
        return SubmissionGrade(
            path.name, student_of(path), notebook, problem=error or _ended(code, limits, answers)
        )
    if not any("done" in a for a in answers):
        why = _ended(code, limits, answers)
        for e in (e for e in EXERCISES.values() if e.notebook == notebook and e.id not in grades):
            grades[e.id] = ExerciseGrade(e.id, "not reached", (), why)
    ordered = tuple(grades[e] for e in EXERCISES if e in grades)
    return SubmissionGrade(path.name, student_of(path), notebook, ordered, seconds=seconds)


def _ended(code: int | None, limits: Limits, answers: list[dict[str, Any]]) -> str:
    cell = max((int(a["cell"]) for a in answers if "cell" in a), default=0)
    where = f" in cell {cell}" if cell else ""
    if code is not None and code < 0 and code != -9:
        memory = f"more than {limits.memory_mb} MiB"
        return f"the grading process ended{where} on signal {-code} (a crash, or {memory})"
    if code == -9 or code is None:
        return f"the notebook ran past its {limits.seconds:g} seconds{where}: it was stopped"
    return f"the grading process ended{where} with status {code} (the notebook's code ended it)"


def grade_folder(
    folder: Path,
    autograder: Path,
    limits: Limits = Limits(),
    jobs: int = 0,
    progress: Callable[[SubmissionGrade], None] | None = None,
) -> Gradebook:
    """Grade every ``*.ipynb`` of ``folder``, ``jobs`` at a time (0: one per CPU)."""
    if not (autograder / "course.json").is_file():
        raise ValueError(f"{autograder} holds no course.json: build it with `make course`")
    paths = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    workers = jobs or os.cpu_count() or 1

    def one(path: Path) -> SubmissionGrade:
        row = grade_submission(path, autograder, limits)
        if progress is not None:
            progress(row)
        return row

    with ThreadPoolExecutor(max_workers=workers) as pool:
        rows = tuple(pool.map(one, paths))
    return Gradebook(rows)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.exercises grade",
        description="Grade handed-in notebooks: points per exercise (partial credit), a CSV, feedback.",
    )
    parser.add_argument(
        "submissions", type=Path, help="a folder of .ipynb files (<student>--<notebook>.ipynb)"
    )
    parser.add_argument("--autograder", type=Path, default=Path("dist/course/autograder"))
    parser.add_argument("--out", type=Path, default=Path("grades.csv"), help="the gradebook (CSV)")
    parser.add_argument("--feedback", type=Path, help="a folder for each student's feedback (Markdown)")
    parser.add_argument("--jobs", type=int, default=0, help="notebooks graded at once (default: one per CPU)")
    parser.add_argument("--seconds", type=float, default=Limits.seconds, help="per notebook (default 300)")
    parser.add_argument(
        "--cell-seconds", type=float, default=Limits.cell_seconds, help="per cell (default 30)"
    )
    parser.add_argument("--memory-mb", type=int, default=Limits.memory_mb, help="per notebook (default 2048)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.exercises grade SUBMISSIONS/ [--out grades.csv] [--feedback DIR] ...``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if importlib.util.find_spec("otter") is None:  # the grader's one extra dependency (the workers load it)
        parser.error("grading needs otter-grader, the teacher's extra: pip install 'ipyminesweeper[grade]'")
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder")
    limits = Limits(args.cell_seconds, args.seconds, args.memory_mb)

    def shown(row: SubmissionGrade) -> None:
        print(f"graded {terminal_text(row.submission)}: {row.points:g} / {row.possible}", file=sys.stderr)

    try:
        book = grade_folder(args.submissions, args.autograder, limits, args.jobs, shown)
    except ValueError as error:
        parser.error(str(error))
    args.out.write_text(book.to_csv(), encoding="utf-8")
    if args.feedback is not None:
        args.feedback.mkdir(parents=True, exist_ok=True)
        for row in book.rows:
            (args.feedback / f"{Path(row.submission).stem}.md").write_text(row.feedback(), encoding="utf-8")
    print(book.summary())
    print(
        f"gradebook: {args.out}" + (f", feedback: {args.feedback}/" if args.feedback else ""), file=sys.stderr
    )
    return 0
