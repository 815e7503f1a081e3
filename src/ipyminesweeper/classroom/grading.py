"""Grade a folder of handed-in notebooks: points per exercise, a gradebook, and feedback for each student.

    python -m ipyminesweeper.classroom grade SUBMISSIONS/ --out grades.csv [--format canvas|moodle]

Two processes grade each notebook, and only one of them is trusted:

- the **student's process** (:mod:`.notebook_worker`), started fresh in an empty folder and confined
  (:mod:`ipyminesweeper.arena.confine`: no network, no other file, no new process, limits), runs the
  notebook's cells and then answers calls of its functions, with plain data;
- the **grader's process** (this module) holds everything the grade is made of: the course, the checks,
  their examples (seeded per student and hand-in from a secret of the teacher's), the expected answers,
  the comparisons, the shrinking, the points and the feedback. It reads the notebook's code itself
  (:mod:`.reading`): a cell runs as the course's only when its text is the course's; the stub is known
  by its code; what the code names is read, not asked.

An exercise scores one point per property of its check that held (partial credit), never more than
``course.json`` gives it. A row's ``flags`` say what a teacher should look at (:data:`~.gradebook.FLAGS`):
an answer that is, wraps or calls the library's own, a stub with its comment taken away, a check cut
short, code that reaches past plain Python, a notebook that tried the network or the grader's files.

A file ``<student>--<notebook>.ipynb`` (as the class server stores hand-ins) is the student's; any other
``.ipynb`` is graded too, under its file's name. ``grade_folder`` takes any
``concurrent.futures.Executor`` (a dask cluster's too): each notebook is still confined on the machine
that grades it.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.escape import terminal_text
from ..exercises.limits import check_budget
from .course import EXERCISES, KEY, Exercise, exercises_of
from .editions import SECRET, mark_of
from .flags import Judged, judged, notebook_flags, read_flags, stub_function
from .gradebook import FORMATS, ExerciseGrade, Gradebook, SubmissionGrade
from .reading import CellToRun, binding_cell, is_given, same_code, without_checks
from .student import GradeLimits, Notebook, Remote

__all__ = [
    "LARGEST",
    "Course",
    "GradeLimits",
    "example_seed",
    "grade_folder",
    "grade_submission",
    "main",
    "notebook_name",
    "plan",
    "student_of",
]

LARGEST = 20 * 1024 * 1024
"""The largest notebook the grader reads (bytes)."""

LIMITS = GradeLimits()
"""The limits of grading one notebook, unless told otherwise."""


@dataclass(frozen=True)
class CourseNotebook:
    """What the grader knows of one notebook of the course: its given code cells, and each exercise's
    stub, as the students' edition has them."""

    given: tuple[str, ...]
    stubs: tuple[tuple[str, str], ...]

    def stub(self, exercise: str) -> str:
        return dict(self.stubs).get(exercise, "")


@dataclass(frozen=True)
class Course:
    """The grader's copy of the course (``dist/course/autograder/``, from ``make course``): each
    notebook's given cells and stubs, each exercise's points, and the secret the examples are seeded
    from. A plain value: it travels to an executor's workers."""

    notebooks: tuple[tuple[str, CourseNotebook], ...]
    points: tuple[tuple[str, int], ...]
    secret: bytes

    def notebook(self, name: str) -> CourseNotebook:
        return dict(self.notebooks)[name]

    def possible(self, exercise: str) -> int:
        return dict(self.points).get(exercise, 0)

    @classmethod
    def read(cls, folder: Path, secret: Path | None = None) -> Course:
        """The course in ``folder``; ValueError if it is not one. The secret is ``secret`` (or
        ``folder/grading-secret``), made afresh if the file is not there."""
        listed = folder / "course.json"
        if not listed.is_file():
            raise ValueError(f"{folder} holds no course.json: build it with `make course`")
        exercises = json.loads(listed.read_text(encoding="utf-8")).get("exercises", {})
        points = tuple((e, int(exercises[e]["points"])) for e in EXERCISES if e in exercises)
        notebooks = []
        for path in sorted(folder.glob("*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            code = [c for c in cells if c.get("cell_type") == "code"]
            given = tuple(_source(c) for c in code if mark_of(c) is None)
            stubs = tuple(
                (mark[1], _source(c)) for c in code if (mark := mark_of(c)) and mark[0] == "exercise"
            )
            notebooks.append((path.stem, CourseNotebook(given, stubs)))
        return cls(tuple(notebooks), points, read_secret(secret or folder / SECRET))


def read_secret(path: Path) -> bytes:
    """The grader's secret in ``path``, written there first (32 random bytes, readable by its owner
    only) if the file is missing."""
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
    return path.read_text(encoding="ascii").strip().encode()


def example_seed(secret: bytes, student: str, exercise: str, submission: bytes) -> int:
    """The seed of the grader's examples for one exercise of one hand-in: the same for the same file,
    another for another student or another hand-in, and unknown without the teacher's secret."""
    digest = hashlib.sha256(submission).hexdigest()
    message = f"{student}\0{exercise}\0{digest}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big")


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def student_of(path: Path | str) -> str:
    """``ada_lovelace`` for ``ada_lovelace--02-boards-as-data.ipynb``; the file's stem otherwise."""
    return Path(path).stem.split("--")[0]


def notebook_name(notebook: dict[str, Any], path: Path, known: set[str]) -> str | None:
    """Which notebook of the course ``notebook`` is: its file's name says so
    (``<student>--<notebook>.ipynb``, as the hand-in names it, or ``<notebook>.ipynb``), or else its
    metadata."""
    stem = path.stem.split("--")[-1]
    for name in sorted(known):  # "02-boards-as-data", or "02" alone
        if stem == name or (stem[:2] == name[:2] and stem[2:3] in ("", "-", "_", " ")):
            return name
    said = notebook.get("metadata", {}).get(KEY, {})
    if isinstance(said, dict) and said.get("notebook") in known:
        return str(said["notebook"])
    return None


def plan(submission: dict[str, Any], course: CourseNotebook, names: Sequence[str]) -> list[CellToRun]:
    """The cells to run, in the submission's order, up to the last one that defines one of ``names``:
    a cell whose text is one of the course's runs as the course's, any other as the student wrote it,
    without its ``check_...(...)`` lines."""
    steps: list[CellToRun] = []
    for cell in submission.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = _source(cell)
        given = is_given(text, course.given)
        steps.append(CellToRun(text if given else without_checks(text), len(steps) + 1, given))
    last = max((s.number for name in names if (s := binding_cell(steps, name)) is not None), default=0)
    return steps[:last]


@dataclass(frozen=True)
class _Hand:
    """One hand-in as the grader holds it."""

    name: str
    data: bytes
    student: str
    steps: tuple[CellToRun, ...]
    notebook: str


def seed_for(course: Course, hand: _Hand, exercise: Exercise) -> int:
    """:func:`example_seed` of this hand-in's exercise."""
    return example_seed(course.secret, hand.student, exercise.id, hand.data)


def grade_submission(
    name: str, data: bytes, course: Course, limits: GradeLimits = LIMITS, keep_out: Sequence[Path] = ()
) -> SubmissionGrade:
    """Grade one handed-in notebook (the file's ``name`` and its bytes): see the module's docstring."""
    started = time.perf_counter()
    student = student_of(name)
    try:
        submission = json.loads(data.decode("utf-8"))
        if not isinstance(submission, dict) or not isinstance(submission.get("cells"), list):
            raise ValueError("it has no list of cells")
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        return SubmissionGrade(name, student, None, problem=f"{name} is not a notebook: {error}")
    known = {n for n, _ in course.notebooks}
    which = notebook_name(submission, Path(name), known)
    if which is None:
        return SubmissionGrade(
            name,
            student,
            None,
            problem=f"{name} is none of the course's notebooks ({', '.join(sorted(known))})",
        )
    exercises = exercises_of(which)
    names = sorted({n for e in exercises for n in e.names})
    steps = plan(submission, course.notebook(which), names)
    hand = _Hand(name, data, student, tuple(steps), which)
    library = sorted({a for e in exercises for a in e.answers})
    cpu = int(limits.seconds) + 60 * len(exercises) + 10
    notebook = Notebook([s.source for s in steps], names, library, limits, keep_out, cpu)
    try:
        notebook.run()
        grades = tuple(_exercise(e, hand, notebook, course) for e in exercises)
    finally:
        notebook.close()
    mine = [(s.number, s.source) for s in steps if not s.given]
    flags, said = notebook_flags(notebook, mine, [s.source for s in steps if s.given])
    seconds = time.perf_counter() - started
    return SubmissionGrade(
        name, student, which, grades, seconds=seconds, flags=flags, said=said, held=tuple(notebook.held)
    )


def _exercise(exercise: Exercise, hand: _Hand, notebook: Notebook, course: Course) -> ExerciseGrade:
    """One exercise of a hand-in (see the module's docstring)."""
    possible = course.possible(exercise.id)
    cell = binding_cell(hand.steps, exercise.names[0])
    if cell is None:
        broken = _unparsed(hand.steps, exercise.names[0], notebook)
        status, note = ("graded", broken) if broken else ("missing", "no cell of this exercise")
        return ExerciseGrade(exercise.id, status, (), note, possible)
    note = notebook.notes[cell.number - 1] if cell.number <= len(notebook.notes) else ""
    if notebook.stopped_in is not None and cell.number >= notebook.stopped_in:
        return ExerciseGrade(exercise.id, "not reached", (), notebook.stop_note, possible)
    stub = course.notebook(hand.notebook).stub(exercise.id)
    if same_code(cell.source, stub):
        return ExerciseGrade(exercise.id, "stub", (), "left as the stub", possible)
    mine = [(s.number, s.source) for s in hand.steps if not s.given]
    grade = Judged(note, possible, *read_flags(exercise, mine))
    functions = [notebook.function(name) for name in exercise.names]
    missing = [n for n, f in zip(exercise.names, functions, strict=True) if f is None]
    if missing:
        return grade.failed(exercise, f"no {', '.join(missing)} is defined" + (f" ({note})" if note else ""))
    first = functions[0] if isinstance(functions[0], Remote) else None
    if first is not None and _only_theirs(exercise, hand):
        first.stub = stub_function(stub, exercise.names[0])
    try:
        with check_budget(notebook.limits.check_seconds):
            check = exercise.check(*functions, tries=exercise.tries, seed=seed_for(course, hand, exercise))
    except Exception as error:  # a name that is not a function, say: the check cannot run
        return grade.failed(exercise, f"the check could not run: {type(error).__name__}: {error}")
    finally:
        notebook.forget()
    return judged(exercise, check, first, notebook, grade)


def _only_theirs(exercise: Exercise, hand: _Hand) -> bool:
    """Whether the exercise's first name is the only one the student's own cells define (the others,
    06's Game and messages, are the notebook's): then its answers can be compared with the stub's."""
    own = [s for s in hand.steps if not s.given]
    return not any(binding_cell(own, name) is not None for name in exercise.names[1:])


def _unparsed(steps: Sequence[CellToRun], name: str, notebook: Notebook) -> str:
    """The note of a cell that looks like the exercise's (it names ``name``) but does not parse."""
    for step in reversed(steps):
        if (
            name in step.source
            and step.number <= len(notebook.notes)
            and "syntax error" in notebook.notes[step.number - 1]
        ):
            return notebook.notes[step.number - 1]
    return ""


def _graded(
    name: str, data: bytes | None, course: Course, limits: GradeLimits, keep_out: Sequence[Path]
) -> SubmissionGrade:
    """One hand-in, sent to a worker as bytes (None: not a file the grader reads)."""
    if data is None:
        return SubmissionGrade(
            name, student_of(name), None, problem="not a plain notebook file of 20 MB at most"
        )
    return grade_submission(name, data, course, limits, keep_out)


def grade_folder(
    folder: Path,
    autograder: Path,
    limits: GradeLimits = LIMITS,
    jobs: int = 0,
    progress: Callable[[SubmissionGrade], None] | None = None,
    executor: Executor | None = None,
    secret: Path | None = None,
) -> Gradebook:
    """Grade every ``*.ipynb`` of ``folder`` with the course of ``autograder``: ``jobs`` at a time in
    processes of this machine (0: one per CPU), or on ``executor`` (any ``concurrent.futures.Executor``,
    dask.distributed's ``client.get_executor()`` too), where each hand-in travels as bytes."""
    course = Course.read(autograder, secret)
    paths = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))
    keep_out = (folder.resolve(), autograder.resolve())
    own = executor is None
    pool = executor or ProcessPoolExecutor(max_workers=jobs or os.cpu_count() or 1)
    try:
        futures = {
            pool.submit(_graded, p.name, _read(p), course, limits, keep_out): i for i, p in enumerate(paths)
        }
        rows: dict[int, SubmissionGrade] = {}
        for future in as_completed(futures):
            rows[futures[future]] = row = future.result()
            if progress is not None:
                progress(row)
    finally:
        if own:
            pool.shutdown()
    return Gradebook(tuple(rows[i] for i in range(len(paths))))


def _read(path: Path) -> bytes | None:
    """The bytes of a hand-in, read in the teacher's process; None for a link, a folder, a file too large."""
    if not path.is_file() or path.is_symlink() or path.stat().st_size > LARGEST:
        return None
    return path.read_bytes()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.classroom grade",
        description="Grade handed-in notebooks: points per exercise (partial credit), a gradebook, feedback.",
    )
    parser.add_argument(
        "submissions", type=Path, help="a folder of .ipynb files (<student>--<notebook>.ipynb)"
    )
    parser.add_argument("--autograder", type=Path, default=Path("dist/course/autograder"))
    parser.add_argument("--out", type=Path, default=Path("grades.csv"), help="the gradebook (CSV)")
    parser.add_argument(
        "--format", choices=FORMATS, default="csv", help="csv (the grader's), canvas or moodle (to upload)"
    )
    parser.add_argument("--feedback", type=Path, help="a folder for each student's feedback (Markdown)")
    parser.add_argument("--jobs", type=int, default=0, help="notebooks graded at once (default: one per CPU)")
    parser.add_argument("--executor", help="a dask scheduler's address (tcp://...) to grade on its workers")
    parser.add_argument(
        "--secret", type=Path, help="the file the examples are seeded from (default: in --autograder)"
    )
    parser.add_argument(
        "--seconds", type=float, default=GradeLimits.seconds, help="per notebook (default 300)"
    )
    parser.add_argument(
        "--cell-seconds", type=float, default=GradeLimits.cell_seconds, help="per cell (default 30)"
    )
    parser.add_argument(
        "--memory-mb", type=int, default=GradeLimits.memory_mb, help="per notebook (default 2048)"
    )
    return parser


def _executor(address: str | None, parser: argparse.ArgumentParser) -> Any:
    if address is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        parser.error("--executor needs dask.distributed: pip install 'ipyminesweeper[distributed]'")
    return Client(address)  # type: ignore[no-untyped-call]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.classroom grade SUBMISSIONS/ [--out grades.csv] [--format canvas] ...``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder")
    limits = GradeLimits(args.cell_seconds, args.seconds, args.memory_mb)

    def shown(row: SubmissionGrade) -> None:
        print(f"graded {terminal_text(row.submission)}: {row.points:g} / {row.possible}", file=sys.stderr)

    client = _executor(args.executor, parser)
    try:
        executor = client.get_executor() if client is not None else None
        book = grade_folder(
            args.submissions, args.autograder, limits, args.jobs, shown, executor, args.secret
        )
    except ValueError as error:
        parser.error(str(error))
    finally:
        if client is not None:
            client.close()
    args.out.write_text(book.write(args.format), encoding="utf-8")
    if args.feedback is not None:
        args.feedback.mkdir(parents=True, exist_ok=True)
        for row in book.rows:
            (args.feedback / f"{Path(row.submission).stem}.md").write_text(row.feedback(), encoding="utf-8")
    print(book.summary())
    print(
        f"gradebook: {args.out}" + (f", feedback: {args.feedback}/" if args.feedback else ""), file=sys.stderr
    )
    return 0
