"""What a teacher should read of a graded hand-in: the flags, each with its sentence.

The grader (:mod:`.grading`) gathers them from three places, all in its own process:

- the student's code, read (:mod:`.reading`): the library's own answer to the exercise named, a way
  past plain Python used (frames, the garbage collector, ``exec``, a patch of the library);
- the check's run (:class:`~.student.Remote`): the function *is* the library's answer, or calls it (on
  every call, and passes: then its points are the library's, not the student's); it gives the stub's
  answer, or its input unchanged, on every example (the stub with its comment taken away); the check
  stopped before it tried them all;
- the student's process (:class:`~.student.Notebook`): what its audit hook saw it try (a socket, a file
  outside its folder, a new process), and how it failed.

A flag is a word of :data:`~.gradebook.FLAGS` (a column to sort by) and a sentence in ``problem``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..exercises.report import Check, PropertyResult
from .course import Exercise
from .gradebook import Case, ExerciseGrade
from .reading import named, system_uses, without_checks
from .student import Notebook, Remote

__all__ = ["Judged", "feedback", "judged", "notebook_flags", "read_flags", "stub_function"]


def feedback(result: PropertyResult, check: Check) -> str:
    """What a student reads for a property that did not hold: the first example that broke it, or why
    it was not tried."""
    if result.counterexample is not None:
        return f"{result.name}: no.\n{result.counterexample}"
    notes = " ".join(check.notes) or "no example of this kind was tried"
    return f"{result.name}: not tried. {notes}"


def _cells(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in dict.fromkeys(numbers))


def read_flags(exercise: Exercise, mine: Sequence[tuple[int, str]]) -> tuple[list[str], list[str]]:
    """The flags of what the student's own cells ``mine`` (numbered) name of the library's answers to
    ``exercise``."""
    flags, said = [], []
    for answer, cells in named(mine, exercise.answer_names).items():
        flags.append("library")
        said.append(f"the code you wrote names {answer}, the library's own answer (cell {_cells(cells)})")
    return flags, said


def notebook_flags(
    notebook: Notebook, mine: Sequence[tuple[int, str]], given: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The flags of the whole notebook: the ways past plain code its student's cells ``mine`` use (the
    course's ``given`` cells tell what they import), what it tried (the audit hook's), how its process
    failed, and where it stopped."""
    flags, said = [], []
    for use, cells in system_uses(mine, given).items():
        flags.append("system")
        said.append(f"the code you wrote uses {use} (cell {_cells(cells)}): the grader cannot vouch for it")
    kinds = {"a socket": "network", "the file": "files", "a new process": "processes"}
    for seen in notebook.seen:
        flags.append(next((f for start, f in kinds.items() if seen.startswith(start)), "system"))
        said.append(f"it tried to use {seen}: refused")
    if notebook.problems:
        flags.append("process")
        said += [f"while it was graded, {p}" for p in dict.fromkeys(notebook.problems)]
    if notebook.stop_note:
        flags.append("process")
        said.append(notebook.stop_note)
    return tuple(dict.fromkeys(flags)), tuple(dict.fromkeys(said))


STUB_NAMES: dict[str, Any] = {}
"""The names a stub may use (the package's public API, the exercises', ``reduce`` and ``replace``)."""


def stub_function(source: str, name: str) -> Callable[..., Any] | None:
    """The course's stub of ``name``, made from its cell's code in this process (it is the teacher's
    code), or None when the cell does not define it by itself."""
    if not STUB_NAMES:
        import dataclasses
        import functools

        import ipyminesweeper
        from ipyminesweeper import exercises

        STUB_NAMES.update({n: getattr(exercises, n) for n in exercises.__all__})
        STUB_NAMES.update(
            {n: getattr(ipyminesweeper, n) for n in ipyminesweeper.__all__ if n != "Minesweeper"}
        )
        STUB_NAMES.update(reduce=functools.reduce, replace=dataclasses.replace)
    namespace = dict(STUB_NAMES)
    with contextlib.suppress(Exception):  # a stub using the notebook's names past its function: what it made
        exec(compile(without_checks(source), "<stub>", "exec"), namespace)
    found = namespace.get(name)
    return found if callable(found) and found is not STUB_NAMES.get(name) else None


@dataclass
class Judged:
    """What an exercise's grade is made of besides its check: the note of its cell, the points the
    course gives it, and the flags (and their sentences) so far."""

    note: str
    possible: int
    flags: list[str]
    said: list[str]

    def grade(self, exercise: Exercise, status: str, cases: tuple[Case, ...]) -> ExerciseGrade:
        flags, said = tuple(dict.fromkeys(self.flags)), tuple(dict.fromkeys(self.said))
        return ExerciseGrade(exercise.id, status, cases, self.note, self.possible, flags, said)

    def failed(self, exercise: Exercise, why: str) -> ExerciseGrade:
        """The grade of an exercise whose check could not run: every property fails, and says why."""
        return self.grade(
            exercise, "graded", tuple(Case(f"{exercise.id}: {p}", 1, False, why) for p in exercise.properties)
        )


def judged(
    exercise: Exercise, check: Check, mine: Remote | None, notebook: Notebook, grade: Judged
) -> ExerciseGrade:
    """The exercise's grade from its check and what the run showed (see the module)."""
    cases = tuple(
        Case(f"{exercise.id}: {p.name}", 1, p.held, "" if p.held else feedback(p, check))
        for p in check.properties
    )
    status = _run_flags(mine, notebook, bool(check), grade) if mine is not None else "graded"
    if status != "graded":
        cases = tuple(Case(c.name, c.points, False, c.message) for c in cases)
    if check.stopped:
        grade.flags.append("cut-short")
        grade.said.append(f"{check.tried} examples of {exercise.tries} were tried: {check.stopped}")
    return grade.grade(exercise, status, cases)


def _run_flags(mine: Remote, notebook: Notebook, passed: bool, grade: Judged) -> str:
    """The flags of what the student's function did during its check; its status: ``graded``,
    ``library`` (its points are the library's) or ``stub``."""
    name, status = mine.student_name.name, "graded"
    for answer in notebook.library_of(name):
        grade.flags.append("library")
        grade.said.append(f"{name} is the library's own {answer.partition(':')[2]}: no points")
        status = "library"
    for answer, times in mine.ran.items():
        every = times == mine.watched and passed
        grade.flags.append("library")
        grade.said.append(
            f"{name} calls the library's {answer.partition(':')[2]} (in {times} of the {mine.watched} calls "
            "watched)" + (": its points are the library's, not yours" if every else "")
        )
        status = "library" if every else status
    if mine.malformed:
        grade.flags.append("process")
        grade.said.append(f"{mine.malformed} of its answers could not be read: {mine.unreadable}")
    if mine.calls and status == "graded" and mine.calls in (mine.same, mine.as_stub):
        grade.flags.append("stub")
        grade.said.append("it gives the stub's answer (or its input unchanged) on every example: the stub")
        status = "stub"
    return status
