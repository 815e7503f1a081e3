"""One source, three editions: the notebooks as students get them, the answer key, and what the grader needs.

``python -m ipyminesweeper.classroom course notebooks/ dist/course/`` (``make course``) writes:

- ``student/``: each exercise is its stub, and no solution is anywhere: the cells marked as a solution
  are left out (their marks with them), and every output and execution count is cleared;
- ``teacher/``: the answer key, runnable: every cell, the solutions unfolded, a first cell that says so;
- ``autograder/``: the student edition again (the grader knows the course's given cells and each stub
  by their text), ``course.json`` (the exercises, their cells and points), and ``grading-secret``, the
  teacher's secret the grader seeds its examples from (:mod:`.grading`): made once, and kept when the
  course is built again, so that grading the same hand-in twice gives the same grade.

The cells are found by their marks (:data:`~.course.KEY` in a cell's metadata, see :mod:`.course`).
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .course import EXERCISES, KEY, exercises_of

__all__ = ["SECRET", "build_course", "main", "mark_of", "student_edition", "teacher_edition"]

Notebook = dict[str, Any]

SECRET = "grading-secret"
"""The file of the grader's secret, in the autograder folder."""

TEACHER_NOTE = (
    "**Teacher's edition: the answer key.** Every solution is shown, unfolded, after its exercise. Built by "
    "`make course` from `notebooks/`; the students' edition is `dist/course/student/`, with no solution in "
    "it, and `dist/course/autograder/` is what `python -m ipyminesweeper.classroom grade` reads."
)


def mark_of(cell: dict[str, Any]) -> tuple[str, str] | None:
    """``("exercise", id)`` or ``("solution", id)`` for a marked cell, else None."""
    mark = cell.get("metadata", {}).get(KEY, {})
    for kind in ("exercise", "solution"):
        if isinstance(mark, dict) and isinstance(mark.get(kind), str):
            return kind, mark[kind]
    return None


def _cleared(cell: dict[str, Any]) -> dict[str, Any]:
    cell = copy.deepcopy(cell)
    if cell.get("cell_type") == "code":
        cell["outputs"] = []
        cell["execution_count"] = None
    return cell


def student_edition(notebook: Notebook, name: str) -> Notebook:
    """``notebook`` with no solution cell, no output, and the notebook's name in its metadata; each
    exercise cell keeps its mark (the grader finds it by it), nothing else does."""
    out = copy.deepcopy(notebook)
    cells = []
    for cell in out["cells"]:
        mark = mark_of(cell)
        if mark is not None and mark[0] == "solution":
            continue
        cell = _cleared(cell)
        cell.get("metadata", {}).pop("jupyter", None)
        cells.append(cell)
    out["cells"] = cells
    out.setdefault("metadata", {})[KEY] = {"notebook": name, "edition": "student"}
    return out


def teacher_edition(notebook: Notebook, name: str) -> Notebook:
    """``notebook`` with its solutions unfolded and a first cell saying it is the answer key."""
    out = copy.deepcopy(notebook)
    cells = [{"cell_type": "markdown", "id": "teacher-edition", "metadata": {}, "source": [TEACHER_NOTE]}]
    for cell in out["cells"]:
        cell = _cleared(cell)
        cell.get("metadata", {}).get("jupyter", {}).pop("source_hidden", None)
        cells.append(cell)
    out["cells"] = cells
    out.setdefault("metadata", {})[KEY] = {"notebook": name, "edition": "teacher"}
    return out


def _read(path: Path) -> Notebook:
    notebook: Notebook = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def _write(notebook: Notebook, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _course_json(found: dict[str, str]) -> dict[str, Any]:
    return {
        "exercises": {
            e.id: {
                "notebook": e.notebook,
                "title": e.title,
                "cell": found.get(e.id),
                "names": list(e.names),
                "properties": list(e.properties),
                "points": len(e.properties),
            }
            for e in EXERCISES.values()
        }
    }


def _exercise_cells(notebook: Notebook, name: str) -> dict[str, str]:
    """``{exercise id: cell id}`` of one notebook; ValueError if an exercise of the course is missing
    from it, or marked twice."""
    found: dict[str, str] = {}
    for cell in notebook["cells"]:
        mark = mark_of(cell)
        if mark is not None and mark[0] == "exercise":
            if mark[1] in found:
                raise ValueError(f"{name}: exercise {mark[1]} is marked on two cells")
            found[mark[1]] = str(cell.get("id", ""))
    missing = [e.id for e in exercises_of(name) if e.id not in found]
    if missing:
        raise ValueError(f"{name}: no cell is marked as exercise {', '.join(missing)}")
    return found


def build_course(source: Path, out: Path) -> list[Path]:
    """Write the three editions of every notebook in ``source`` into ``out`` (replacing what was there);
    returns the files written."""
    if not source.is_dir():
        raise ValueError(f"{source} is not a folder of notebooks")
    secret = out / "autograder" / SECRET
    kept = secret.read_bytes() if secret.is_file() else None
    if out.exists():
        shutil.rmtree(out)
    written: list[Path] = []
    found: dict[str, str] = {}
    for path in sorted(source.glob("*.ipynb")):
        name, notebook = path.stem, _read(path)
        found.update(_exercise_cells(notebook, name))
        student = student_edition(notebook, name)
        for edition, made in (("student", student), ("teacher", teacher_edition(notebook, name))):
            _write(made, out / edition / path.name)
            written.append(out / edition / path.name)
        if exercises_of(name):
            _write(student, out / "autograder" / path.name)
            written.append(out / "autograder" / path.name)
    if kept is not None:
        secret.parent.mkdir(parents=True, exist_ok=True)
        secret.write_bytes(kept)
        secret.chmod(0o600)
    course = out / "autograder" / "course.json"
    course.write_text(json.dumps(_course_json(found), indent=1) + "\n", encoding="utf-8")
    return [*written, course]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ipyminesweeper.classroom course [NOTEBOOKS] [OUT]``."""
    parser = argparse.ArgumentParser(
        prog="python -m ipyminesweeper.classroom course",
        description="Build the student's, the teacher's and the grader's editions of the notebooks.",
    )
    parser.add_argument("notebooks", nargs="?", type=Path, default=Path("notebooks"))
    parser.add_argument("out", nargs="?", type=Path, default=Path("dist/course"))
    args = parser.parse_args(argv)
    try:
        written = build_course(args.notebooks, args.out)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    editions = sorted({p.relative_to(args.out).parts[0] for p in written})
    print(f"{len(written)} files in {args.out}/: {', '.join(editions)}")
    return 0
