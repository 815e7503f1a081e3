"""The grader: a made-up class of 30 handed-in notebooks gets exactly the points it should, each within
its time limit, whatever its notebooks do (loop, crash, print, patch the checks, leave stubs)."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from benchmarks.bench_grading import LIMITS
from benchmarks.class_submissions import SUBMISSIONS, write_class

from ipyminesweeper.exercises.grade_worker import Step, notebook_name, plan, without_checks
from ipyminesweeper.exercises.grading import grade_folder, main

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.mark.slow
def test_a_class_of_30_gets_the_points_it_should(course: Path, tmp_path: Path) -> None:
    pytest.importorskip("otter.test_files")
    folder = tmp_path / "submissions"
    made = write_class(NOTEBOOKS, course / "student", folder)
    assert len(made) == 30
    start = time.perf_counter()
    book = grade_folder(folder, course / "autograder", LIMITS)
    took = time.perf_counter() - start
    # the class's speed is a benchmark's figure (python -m benchmarks grading), not a timed test; what
    # the grader promises is that no notebook, the looping one included, runs past its own limit
    # (plus the few seconds of stopping it and collecting its answers)
    slowest = max(book.rows, key=lambda row: row.seconds)
    assert slowest.seconds <= LIMITS.seconds + 10, f"{slowest.submission}: {slowest.seconds:.0f} s"
    rows = {row.submission: row for row in book.rows}
    for sub in SUBMISSIONS:
        row = rows[sub.file]
        got = {e.exercise: e.points for e in row.exercises}
        assert got == sub.points, f"{sub.file}: {got} (expected {sub.points}); {row.problem}"
        said = " ".join(
            [
                row.problem,
                *(e.note for e in row.exercises),
                *(c.message for e in row.exercises for c in e.cases),
            ]
        )
        assert sub.says in said, f"{sub.file}: {sub.says!r} not in {said[:300]!r}"
    table = list(csv.reader(io.StringIO(book.to_csv())))
    assert table[0][:3] == ["submission", "student", "notebook"] and table[0][-3:] == [
        "total",
        "possible",
        "problem",
    ]
    assert len(table) == 31 and {r[1] for r in table[1:]} >= {"ada", "fay", "zed"}
    print(f"\n30 submissions graded in {took:.0f} s: {30 / took * 60:.1f} a minute")


def test_a_plan_runs_the_course_s_own_cells_and_the_student_s_answers(course: Path) -> None:
    trusted = json.loads((course / "autograder" / "06-the-elm-loop.ipynb").read_text())
    submission = json.loads(json.dumps(trusted))
    given = next(
        c for c in submission["cells"] if c["cell_type"] == "code" and "class Game" in "".join(c["source"])
    )
    given["source"] = ["class Game:  # the student broke the course's cell\n    pass\n"]
    helper = {"cell_type": "code", "id": "mine", "metadata": {}, "source": ["def helper():\n    return 1\n"]}
    exercise = next(c for c in submission["cells"] if c.get("metadata", {}).get("ipyminesweeper"))
    exercise["source"] = ["def update(game, message):\n    return helper()\n\n\ncheck_update(update, Game)\n"]
    submission["cells"].insert(submission["cells"].index(exercise), helper)
    steps = plan(submission, trusted)
    assert not any("the student broke" in s.source for s in steps)  # the course's copy ran instead
    assert Step("def helper():\n    return 1\n") in steps
    answer = next(s for s in steps if s.exercise == "06-update")
    assert answer.source == "def update(game, message):\n    return helper()\n" and not answer.stub
    assert next(s for s in steps if s.exercise == "06-view").stub
    assert steps[-1].exercise == "06-view"  # nothing after the last exercise runs


def test_the_check_calls_of_an_answer_are_left_to_the_grader() -> None:
    source = "def f(x):\n    return x\n\n\ncheck_chord(f)\nprint(check_chord(f))\nx = check_chord(f)\n"
    assert without_checks(source) == "def f(x):\n    return x\nprint(check_chord(f))\nx = check_chord(f)\n"
    assert without_checks("def f(:\n") == "def f(:\n"


def test_which_notebook_a_file_is() -> None:
    known = {"02-boards-as-data", "06-the-elm-loop"}
    said = {"metadata": {"ipyminesweeper": {"notebook": "06-the-elm-loop"}}}
    assert notebook_name(said, Path("x.ipynb"), known) == "06-the-elm-loop"
    assert notebook_name({}, Path("ada--02-boards-as-data.ipynb"), known) == "02-boards-as-data"
    assert notebook_name({}, Path("ada--02.ipynb"), known) == "02-boards-as-data"
    assert notebook_name({}, Path("ada--021.ipynb"), known) is None


def test_the_command_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("otter.test_files")
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--autograder", str(tmp_path / "nowhere")])
    assert "holds no course.json: build it with `make course`" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path / "none")])
    assert "is not a folder" in capsys.readouterr().err


def test_the_command_says_otter_grader_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "otter" else real(name))
    with pytest.raises(SystemExit):
        main([str(tmp_path)])
    assert "grading needs otter-grader, the teacher's extra" in capsys.readouterr().err


def test_a_worker_loads_the_grader_without_jsonschema_s_iri_grammar() -> None:
    """Each submission's fresh process imports otter; the IRI grammar it would build costs seconds."""
    pytest.importorskip("otter.test_files")
    probe = (
        "import sys; from ipyminesweeper.exercises.grade_worker import load_grader; load_grader(); "
        "import jsonschema; print(sys.modules.get('rfc3987_syntax') is None, "
        "'otter.test_files' in sys.modules, 'iri' in jsonschema.FormatChecker.checkers)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "False"], out.stderr
