"""A class's grades as values, and the files a teacher uploads: the grader's CSV, Canvas's and Moodle's.

:class:`SubmissionGrade` is one handed-in notebook: its exercises (:class:`ExerciseGrade`, points per
property that held), the flags a teacher should read, and the student's feedback. :class:`Gradebook`
is every row, written as:

- ``csv`` (the default): a row per hand-in, a column of points per exercise, the total, what was
  possible, the ``flags`` (a short word each, to sort by) and the ``problem`` (a sentence each);
- ``canvas``: the columns Canvas's gradebook import reads (``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section``) and an assignment column per exercise, a row per student (their
  notebooks together) after a ``Points Possible`` row;
- ``moodle``: ``username`` and a column per exercise and the total, a row per student, for Moodle's
  "Import grades from a CSV file" (map ``username`` to the user's username).

Points are the trusted process's own (:mod:`.grading`) and never more than the course allows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..engine.escape import markdown_text, terminal_text
from .course import EXERCISES

__all__ = ["FLAGS", "FORMATS", "Case", "ExerciseGrade", "Gradebook", "SubmissionGrade"]

FLAGS = {
    "library": "the library's own answer to the exercise: is it, wraps it, calls it or names it",
    "stub": "the stub in all but its comments, or it returns its input unchanged on every example",
    "cut-short": "the check tried fewer examples than the course asks for (time, a hang, a crash)",
    "system": "code that reaches past plain Python: frames, gc, exec, globals(), __code__, os, patches",
    "network": "the notebook tried to open a socket",
    "files": "the notebook tried to open a file outside its folder",
    "processes": "the notebook tried to start a process",
    "process": "the notebook's process failed while it was asked (a crash, a hang, an answer unread)",
}
"""The flags a row may carry, and what each means (docs/teaching.md has the same table)."""

Format = Literal["csv", "canvas", "moodle"]
FORMATS: tuple[Format, ...] = ("csv", "canvas", "moodle")


@dataclass(frozen=True)
class Case:
    """One property of an exercise's check: its points, whether it held, and what the check found."""

    name: str
    points: float
    passed: bool
    message: str = ""


@dataclass(frozen=True)
class ExerciseGrade:
    """An exercise of one submission: ``status`` is graded, stub, missing or not reached; ``possible``
    is the course's points for it (``course.json``), which the points never exceed; ``flags`` are
    words of :data:`FLAGS`, each said in a sentence of ``said``."""

    exercise: str
    status: str
    cases: tuple[Case, ...] = ()
    note: str = ""
    possible: int = 0
    flags: tuple[str, ...] = ()
    said: tuple[str, ...] = ()

    @property
    def points(self) -> float:
        return min(float(self.possible), sum(case.points for case in self.cases if case.passed))


@dataclass(frozen=True)
class SubmissionGrade:
    """One handed-in notebook: its student, which notebook it is, its exercises, or why it was not
    graded (``problem``); ``flags`` and ``said`` are the notebook's own (the network, a process...), and
    ``held`` the confinement its process ran under."""

    submission: str
    student: str
    notebook: str | None
    exercises: tuple[ExerciseGrade, ...] = ()
    problem: str = ""
    seconds: float = 0.0
    flags: tuple[str, ...] = ()
    said: tuple[str, ...] = ()
    held: tuple[str, ...] = ()

    @property
    def points(self) -> float:
        return sum(e.points for e in self.exercises)

    @property
    def possible(self) -> int:
        return sum(e.possible for e in self.exercises)

    @property
    def all_flags(self) -> tuple[str, ...]:
        """Every flag of the notebook and its exercises, once each, in :data:`FLAGS`'s order."""
        found = {*self.flags, *(flag for e in self.exercises for flag in e.flags)}
        return tuple(flag for flag in FLAGS if flag in found)

    def sentences(self) -> list[str]:
        """The problem, the notebook's flags and each exercise's note and flags, in words."""
        out = [self.problem] if self.problem else []
        out += list(self.said)
        for e in self.exercises:
            out += [f"{e.exercise}: {text}" for text in (e.note, *e.said) if text]
        return out

    def feedback(self) -> str:
        """The student's feedback, in Markdown: points, and for each property that did not hold, the
        counterexample (indented as code)."""
        lines = [f"# {markdown_text(self.submission)}: {self.points:g} of {self.possible} points", ""]
        for text in [self.problem, *self.said]:
            lines += [markdown_text(text), ""] if text else []
        for grade in self.exercises:
            title = EXERCISES[grade.exercise].title
            lines += [
                f"## {grade.exercise} ({markdown_text(title)}): {grade.points:g} of {grade.possible}",
                "",
            ]
            for text in (grade.note, *grade.said):
                lines += [markdown_text(text), ""] if text else []
            for case in grade.cases:
                name = case.name.split(": ", 1)[-1]
                lines.append(f"- {'✓' if case.passed else '✗'} {markdown_text(name)}")
                if case.message:
                    lines += ["", *(f"      {line}" for line in case.message.splitlines()), ""]
            lines.append("")
        return "\n".join(lines)


def _students(rows: Iterable[SubmissionGrade]) -> dict[str, dict[str, ExerciseGrade]]:
    """Each student's exercises, their notebooks together (a later hand-in of the same exercise wins)."""
    found: dict[str, dict[str, ExerciseGrade]] = {}
    for row in rows:
        found.setdefault(row.student, {}).update({e.exercise: e for e in row.exercises})
    return found


@dataclass(frozen=True)
class Gradebook:
    """Every submission's grade, in the order of their files."""

    rows: tuple[SubmissionGrade, ...]

    @property
    def exercises(self) -> list[str]:
        """The exercises of the notebooks handed in, in the course's order."""
        seen = {e.exercise for row in self.rows for e in row.exercises}
        return [e for e in EXERCISES if e in seen]

    def write(self, form: Format = "csv") -> str:
        """The gradebook as the text of a CSV file of ``form`` (see the module)."""
        if form == "canvas":
            return self._canvas()
        if form == "moodle":
            return self._moodle()
        return self.to_csv()

    def to_csv(self) -> str:
        """A row per submission, a column of points per exercise, the total and what was possible, the
        flags and the problem in words."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            ["submission", "student", "notebook", *self.exercises, "total", "possible", "flags", "problem"]
        )
        for row in self.rows:
            points = {e.exercise: f"{e.points:g}" for e in row.exercises}
            cells = [points.get(e, "") for e in self.exercises]
            flags, said = " ".join(row.all_flags), "; ".join(row.sentences())
            total = [f"{row.points:g}", row.possible, flags, said]
            writer.writerow([row.submission, row.student, row.notebook or "", *cells, *total])
        return out.getvalue()

    def _possible(self) -> dict[str, int]:
        return {e.exercise: e.possible for row in self.rows for e in row.exercises}

    def _canvas(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        titles = [f"{e} {EXERCISES[e].title}" for e in self.exercises]
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *titles])
        possible = self._possible()
        writer.writerow(["    Points Possible", "", "", "", "", *(possible[e] for e in self.exercises)])
        for student, grades in _students(self.rows).items():
            cells = [f"{grades[e].points:g}" if e in grades else "" for e in self.exercises]
            writer.writerow([student, "", "", student, "", *cells])
        return out.getvalue()

    def _moodle(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["username", *self.exercises, "total"])
        for student, grades in _students(self.rows).items():
            cells = [f"{grades[e].points:g}" if e in grades else "" for e in self.exercises]
            writer.writerow([student, *cells, f"{sum(g.points for g in grades.values()):g}"])
        return out.getvalue()

    def summary(self) -> str:
        """One line per submission, for the terminal, and the confinement the notebooks ran under."""
        lines = [
            f"{terminal_text(row.submission)}: {row.points:g} / {row.possible}"
            + (f" [{' '.join(row.all_flags)}]" if row.all_flags else "")
            + (f" ({terminal_text(row.problem)})" if row.problem else "")
            for row in self.rows
        ]
        held = next((row.held for row in self.rows if row.held), ())
        if held:
            lines.append("each notebook ran in a process of its own: " + "; ".join(held))
        return "\n".join(lines)
