"""``make course``: one source, three editions. The student's has no solution anywhere; the teacher's has
every one, unfolded; the grader's has the course's cells, course.json and the grader's secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ipyminesweeper.classroom.course import EXERCISES
from ipyminesweeper.classroom.editions import SECRET, build_course, mark_of
from ipyminesweeper.classroom.grading import Course

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _cells(path: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return cells


def _solution_lines() -> dict[str, set[str]]:
    """For each notebook, the lines of its solutions that appear in no other cell (the answer itself)."""
    found = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = _cells(path)
        solutions = [c for c in cells if (mark_of(c) or ("",))[0] == "solution"]
        others = {
            line.strip() for c in cells if c not in solutions for line in "".join(c["source"]).splitlines()
        }
        found[path.name] = {
            line.strip()
            for c in solutions
            for line in "".join(c["source"]).splitlines()
            if len(line.strip()) >= 12 and line.strip() not in others
        }
    return found


def _lines_of(path: Path) -> set[str]:
    """Every line of a notebook file: its cells' sources and outputs, and every string in its metadata."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = [json.dumps(notebook["metadata"])]
    for cell in notebook["cells"]:
        texts += ["".join(cell["source"]), json.dumps(cell.get("metadata", {}))]
        for output in cell.get("outputs", []):
            texts.append(json.dumps(output))
    return {line.strip() for text in texts for line in text.splitlines()}


def test_the_student_edition_holds_no_solution_anywhere(course: Path) -> None:
    lines = _solution_lines()
    assert sum(len(v) for v in lines.values()) > 80  # the search has something to look for
    for name, answer in lines.items():
        path = course / "student" / name
        leaked = sorted(answer & _lines_of(path))
        assert not leaked, f"{name}: {leaked[:3]}"
        text = path.read_text(encoding="utf-8")
        assert '"solution"' not in text and "source_hidden" not in text


def test_the_search_would_find_a_solution_left_in(course: Path, tmp_path: Path) -> None:
    """The test above can fail: a notebook built with its solutions is caught."""
    lines = _solution_lines()["02-boards-as-data.ipynb"]
    assert lines <= _lines_of(course / "teacher" / "02-boards-as-data.ipynb")


def test_the_student_edition_keeps_every_stub_and_clears_every_output(course: Path) -> None:
    for path in sorted((course / "student").glob("*.ipynb")):
        cells = _cells(path)
        stubs = [mark[1] for c in cells if (mark := mark_of(c)) and mark[0] == "exercise"]
        assert stubs == [e.id for e in EXERCISES.values() if e.notebook == path.stem]
        assert all(
            not c.get("outputs") and c.get("execution_count") is None
            for c in cells
            if c["cell_type"] == "code"
        )
        assert json.loads(path.read_text())["metadata"]["ipyminesweeper"]["notebook"] == path.stem


def test_the_teacher_edition_shows_every_solution_unfolded(course: Path) -> None:
    for path in sorted((course / "teacher").glob("*.ipynb")):
        cells = _cells(path)
        assert "answer key" in "".join(cells[0]["source"])
        source = _cells(NOTEBOOKS / path.name)
        assert len(cells) == len(source) + 1
        assert not any(c.get("metadata", {}).get("jupyter", {}).get("source_hidden") for c in cells)


def test_the_autograder_has_the_course_and_its_points(course: Path) -> None:
    grader = course / "autograder"
    info = json.loads((grader / "course.json").read_text())["exercises"]
    assert list(info) == list(EXERCISES)
    for exercise in EXERCISES.values():
        assert len(exercise.properties) == info[exercise.id]["points"]
        assert info[exercise.id]["cell"], exercise.id
    assert sorted(p.stem for p in grader.glob("*.ipynb")) == sorted({e.notebook for e in EXERCISES.values()})
    assert not (grader / "tests").exists()  # the checks run in the grader's process: no test files to write


def test_the_grader_s_secret_is_made_once_and_kept_when_the_course_is_built_again(tmp_path: Path) -> None:
    out = tmp_path / "course"
    build_course(NOTEBOOKS, out)
    first = Course.read(out / "autograder").secret  # made on first use, readable by its owner only
    assert len(first) == 64 and (out / "autograder" / SECRET).stat().st_mode & 0o077 == 0
    build_course(NOTEBOOKS, out)
    assert Course.read(out / "autograder").secret == first
    (out / "autograder" / SECRET).unlink()
    assert Course.read(out / "autograder").secret != first  # a new course, a new secret


def test_a_notebook_whose_exercise_is_not_marked_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    notebook = json.loads((NOTEBOOKS / "06-the-elm-loop.ipynb").read_text())
    for cell in notebook["cells"]:
        cell.get("metadata", {}).pop("ipyminesweeper", None)
    (source / "06-the-elm-loop.ipynb").write_text(json.dumps(notebook))
    with pytest.raises(ValueError, match="no cell is marked as exercise 06-update, 06-view"):
        build_course(source, tmp_path / "out")
