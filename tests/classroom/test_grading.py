"""The grader: a made-up class of 30 handed-in notebooks gets exactly the points it should, each within
its time limit, whatever its notebooks do (loop, crash, print, patch the checks, leave stubs), on a
machine kept busy by two other processes; the gradebook in each format; the examples seeded per student."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.bench_grading import LIMITS
from benchmarks.class_submissions import SUBMISSIONS, write_class

from ipyminesweeper.classroom.gradebook import Gradebook
from ipyminesweeper.classroom.grading import Course, example_seed, grade_folder, main, notebook_name, plan
from ipyminesweeper.classroom.reading import CellToRun, without_checks

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@pytest.fixture
def busy() -> Iterator[None]:
    """Two processes that keep both of this machine's cores busy while the test runs."""
    spinners = [multiprocessing.get_context("spawn").Process(target=_spin, args=(900,)) for _ in range(2)]
    for spinner in spinners:
        spinner.start()
    yield
    for spinner in spinners:
        spinner.terminate()
        spinner.join()


def _said(row_sentences: list[str], messages: list[str]) -> str:
    return " ".join([*row_sentences, *messages])


@pytest.mark.slow
def test_a_class_of_30_gets_the_points_it_should_on_a_busy_machine(
    course: Path, tmp_path: Path, busy: None
) -> None:
    folder = tmp_path / "submissions"
    made = write_class(NOTEBOOKS, course / "student", folder)
    assert len(made) == 30
    start = time.perf_counter()
    book = grade_folder(folder, course / "autograder", LIMITS)
    took = time.perf_counter() - start
    load = os.getloadavg()[0]
    rows = {row.submission: row for row in book.rows}
    for sub in SUBMISSIONS:
        row = rows[sub.file]
        got = {e.exercise: e.points for e in row.exercises}
        assert got == sub.points, f"{sub.file}: {got} (expected {sub.points}); {row.sentences()}"
        said = _said(row.sentences(), [c.message for e in row.exercises for c in e.cases])
        assert sub.says in said, f"{sub.file}: {sub.says!r} not in {said[:300]!r}"
        assert row.points <= row.possible
    # the speed is a benchmark's figure (python -m benchmarks grading), not a timed test; what the grader
    # promises is that an honest answer's points do not depend on the load, and that any limit hit is said
    cut = [e for row in book.rows for e in row.exercises if "cut-short" in e.flags]
    assert all(e.said for e in cut)
    table = list(csv.reader(io.StringIO(book.to_csv())))
    assert table[0][:3] == ["submission", "student", "notebook"]
    assert table[0][-4:] == ["total", "possible", "flags", "problem"]
    assert len(table) == 31 and {r[1] for r in table[1:]} >= {"ada", "fay", "zed"}
    print(f"\n30 submissions graded in {took:.0f} s beside two busy processes (load {load:.1f})")


def test_a_cell_runs_as_the_course_s_only_when_its_text_is_the_course_s(course: Path) -> None:
    trusted = json.loads((course / "autograder" / "06-the-elm-loop.ipynb").read_text())
    given = Course.read(course / "autograder").notebook("06-the-elm-loop")
    submission = json.loads(json.dumps(trusted))
    cells = [c for c in submission["cells"] if c["cell_type"] == "code"]
    game = next(c for c in cells if "class Game" in "".join(c["source"]))
    game["source"] = ["class Game:  # the student broke the course's cell\n    pass\n"]
    helper = {
        "cell_type": "code",
        "id": game["id"],
        "metadata": {},
        "source": ["def helper():\n    return 1\n"],
    }
    exercise = next(c for c in cells if c.get("metadata", {}).get("ipyminesweeper"))
    exercise["source"] = ["def update(game, message):\n    return helper()\n\n\ncheck_update(update, Game)\n"]
    exercise["metadata"] = {"ipyminesweeper": {"exercise": "06-view"}}  # a mark says nothing either
    submission["cells"].insert(submission["cells"].index(exercise), helper)
    steps = plan(submission, given, ["update", "view"])
    broken = next(s for s in steps if "the student broke" in s.source)
    assert not broken.given  # the student's own text runs as theirs, its id notwithstanding
    assert next(s for s in steps if s.source.startswith("def helper")).given is False
    answer = next(s for s in steps if s.source.startswith("def update"))
    assert answer.source == "def update(game, message):\n    return helper()\n"  # its check call left out
    ours = [s for s in steps if s.given]
    assert ours and all(any(s.source == g for g in given.given) for s in ours)
    assert "def view" in steps[-1].source  # nothing after the last cell that defines an exercise runs
    assert CellToRun("x = 1\n", 1) == CellToRun("x = 1\n", 1, False)


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
    # the hand-in's name wins over what the notebook says of itself
    assert notebook_name(said, Path("ada--02-boards-as-data.ipynb"), known) == "02-boards-as-data"


def test_the_command_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--autograder", str(tmp_path / "nowhere")])
    assert "holds no course.json: build it with `make course`" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path / "none")])
    assert "is not a folder" in capsys.readouterr().err


def test_the_examples_are_seeded_per_student_and_hand_in() -> None:
    secret = b"the teacher's"
    seeds = {
        example_seed(secret, student, "02-chord", data)
        for student in ("ada", "bob")
        for data in (b"one hand-in", b"another")
    }
    assert len(seeds) == 4
    assert example_seed(secret, "ada", "02-chord", b"x") == example_seed(secret, "ada", "02-chord", b"x")
    assert example_seed(b"another secret", "ada", "02-chord", b"x") != example_seed(
        secret, "ada", "02-chord", b"x"
    )


def _book(course: Path, tmp_path: Path, files: list[str]) -> Gradebook:
    folder = tmp_path / "submissions"
    write_class(NOTEBOOKS, course / "student", folder)
    for path in folder.iterdir():
        if path.name not in files:
            path.unlink()
    return grade_folder(folder, course / "autograder", LIMITS)


@pytest.mark.slow
def test_the_gradebook_in_canvas_s_and_moodle_s_forms(course: Path, tmp_path: Path) -> None:
    book = _book(course, tmp_path, ["ada--02-boards-as-data.ipynb", "oona--03-autoplayer.ipynb"])
    canvas = list(csv.reader(io.StringIO(book.write("canvas"))))
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert canvas[0][5:] == [
        "02-toggle_flag toggle_flag",
        "02-chord chord",
        "02-replay replay",
        "03-careful a careful strategy",
    ]
    assert canvas[1] == ["    Points Possible", "", "", "", "", "3", "4", "4", "7"]
    assert {tuple(r[:1] + r[5:]) for r in canvas[2:]} == {
        ("ada", "3", "4", "4", ""),
        ("oona", "", "", "", "7"),
    }
    moodle = list(csv.reader(io.StringIO(book.write("moodle"))))
    assert moodle[0] == ["username", "02-toggle_flag", "02-chord", "02-replay", "03-careful", "total"]
    assert sorted(moodle[1:]) == [["ada", "3", "4", "4", "", "11"], ["oona", "", "", "", "7", "7"]]


@pytest.mark.slow
def test_a_dask_cluster_grades_the_same_gradebook(course: Path, tmp_path: Path) -> None:
    """Each worker of a LocalCluster confines the notebooks it grades; the gradebook is the one a
    teacher's own processes give."""
    distributed = pytest.importorskip("distributed")
    files = ["ada--02-boards-as-data.ipynb", "cy--02-boards-as-data.ipynb", "pat--03-autoplayer.ipynb"]
    files += ["uma--04-probabilities.ipynb", "bea--06-the-elm-loop.ipynb", "cal--02-boards-as-data.ipynb"]
    here = _book(course, tmp_path / "here", files)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        folder = tmp_path / "here" / "submissions"
        there = grade_folder(folder, course / "autograder", LIMITS, executor=client.get_executor())
    assert there.to_csv() == here.to_csv()
    assert [row.held for row in there.rows if row.notebook] == [row.held for row in here.rows if row.notebook]
    assert all("no network: a network namespace of its own" in row.held for row in there.rows if row.notebook)


@pytest.mark.slow
def test_the_course_s_own_solutions_take_full_marks_with_no_flag(course: Path, tmp_path: Path) -> None:
    """The repository's notebooks, folded solutions included, handed in as they are: every exercise takes
    its points, and nothing is flagged. ``my_replay`` calls the ``chord`` and ``toggle_flag`` that its
    moves hand it: that is the caller's library function, not the student's use of one."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    for notebook in sorted(NOTEBOOKS.glob("0[2-6]-*.ipynb")):
        (folder / f"key--{notebook.name}").write_bytes(notebook.read_bytes())
    book = grade_folder(folder, course / "autograder", LIMITS)
    rows = [row for row in book.rows if row.notebook]
    assert len(rows) == 5
    for row in rows:
        assert row.points == row.possible > 0, row
        assert not row.all_flags and not row.sentences(), (row.submission, row.sentences())
