"""A student cannot replay the grader's check (issue 54): an answer fitted to the examples of their own
check passes it, and fails the grader's, which are seeded from the teacher's secret and the hand-in; the
feedback still shows a counterexample, and the smallest one found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ipyminesweeper import chord
from ipyminesweeper.classroom.editions import mark_of
from ipyminesweeper.classroom.grading import Course, GradeLimits, grade_submission
from ipyminesweeper.exercises import check_chord
from ipyminesweeper.exercises.draws import seeded_examples
from ipyminesweeper.exercises.generate import draw_situation

TRIES = 1000


def _fitted_cell() -> str:
    """``my_chord`` as a table of the answers of the student's own check (its 1000 examples, seed 17),
    written out as data, and the stub's answer anywhere else."""
    table = {
        board.to_json() + repr(pos): chord(board, pos).to_json()
        for board, pos in seeded_examples(draw_situation, TRIES)
    }
    return (
        "import json\n\n"
        f"TABLE = json.loads({json.dumps(json.dumps(table))})\n\n\n"
        "def my_chord(board, pos):\n"
        "    known = TABLE.get(board.to_json() + repr(pos))\n"
        "    return Board.from_json(known) if known else board\n"
    )


@pytest.mark.slow
def test_an_answer_fitted_to_the_student_s_check_fails_the_grader_s(course: Path) -> None:
    cell = _fitted_cell()
    namespace: dict[str, object] = {}
    exec(compile("from ipyminesweeper import Board\n" + cell, "<fitted>", "exec"), namespace)
    own = check_chord(namespace["my_chord"], tries=TRIES)  # type: ignore[arg-type]
    assert own and own.tried == TRIES  # it passes the check the student can run
    notebook = json.loads((course / "student" / "02-boards-as-data.ipynb").read_text(encoding="utf-8"))
    for each in notebook["cells"]:
        if mark_of(each) == ("exercise", "02-chord"):
            each["source"] = cell.splitlines(keepends=True)
    data = json.dumps(notebook).encode()
    grades = grade_submission(
        "ada--02-boards-as-data.ipynb", data, Course.read(course / "autograder"), GradeLimits(20, 90)
    )
    chord_grade = next(e for e in grades.exercises if e.exercise == "02-chord")
    assert chord_grade.points < chord_grade.possible, chord_grade
    failed = [case for case in chord_grade.cases if not case.passed]
    assert failed and "no." in failed[0].message and "my_chord(board, " in failed[0].message
