"""The cheat suite: every hostile hand-in of ``cheats/`` scores no more than the untouched stubs and is
flagged, no row's total exceeds what is possible whatever the pipe carried, and nothing the probes sent
reached the test's listeners (issue 54)."""

from __future__ import annotations

import copy
import importlib.util
import json
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ipyminesweeper.classroom.editions import mark_of
from ipyminesweeper.classroom.gradebook import Gradebook, SubmissionGrade
from ipyminesweeper.classroom.grading import GradeLimits, grade_folder

CHEATS = Path(__file__).parent / "cheats"
LIMITS = GradeLimits(cell_seconds=20, seconds=90, check_seconds=5)


def _cheats() -> dict[str, ModuleType]:
    found = {}
    for path in sorted(CHEATS.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"cheat_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[path.stem] = module
    return found


def _filled(text: str, places: dict[str, str]) -> str:
    for name, value in places.items():
        text = text.replace("{" + name + "}", value)
    return text


def _hand_in(cheat: ModuleType, student: Path, places: dict[str, str]) -> dict[str, Any]:
    """The students' edition of the cheat's notebook, with its cells as the cheat wrote them."""
    notebook: dict[str, Any] = json.loads((student / f"{cheat.NOTEBOOK}.ipynb").read_text(encoding="utf-8"))
    cells: list[dict[str, Any]] = notebook["cells"]
    given = next(c for c in cells if c["cell_type"] == "code" and mark_of(c) is None)
    for exercise, source in getattr(cheat, "CELLS", {}).items():
        cell = next(c for c in cells if mark_of(c) == ("exercise", exercise))
        cell["source"] = _filled(source, places).splitlines(keepends=True)
        if getattr(cheat, "GIVEN_ID", None) == exercise:
            cell["id"], cell["metadata"] = given["id"], copy.deepcopy(given["metadata"])
    for exercise, source in getattr(cheat, "BEFORE", {}).items():
        at = next(i for i, c in enumerate(cells) if mark_of(c) == ("exercise", exercise))
        extra: dict[str, Any] = {
            "cell_type": "code",
            "id": f"cheat-{at}",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
        }
        cells.insert(at, {**extra, "source": _filled(source, places).splitlines(keepends=True)})
    notebook["metadata"].update(getattr(cheat, "METADATA", {}))
    return notebook


@pytest.fixture(scope="module")
def listeners() -> Iterator[dict[str, Any]]:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    folder = tempfile.mkdtemp()
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    unix.bind(f"{folder}/grader.sock")
    for each in (udp, tcp, unix):
        each.setblocking(False)
    yield {"udp": udp, "tcp": tcp, "unix": unix, "path": f"{folder}/grader.sock"}
    for each in (udp, tcp, unix):
        each.close()


@pytest.fixture(scope="module")
def graded(
    course: Path, tmp_path_factory: pytest.TempPathFactory, listeners: dict[str, Any]
) -> tuple[Gradebook, dict[str, ModuleType]]:
    folder = tmp_path_factory.mktemp("handins")
    places = {
        "udp": str(listeners["udp"].getsockname()[1]),
        "tcp": str(listeners["tcp"].getsockname()[1]),
        "unix": listeners["path"],
        "teacher": str(course / "teacher"),
        "handins": str(folder),
        "autograder": str(course / "autograder"),
    }
    cheats = _cheats()
    for name, cheat in cheats.items():
        notebook = _hand_in(cheat, course / "student", places)
        (folder / f"{name}--{cheat.NOTEBOOK}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    for notebook in sorted({c.NOTEBOOK for c in cheats.values()}):  # the untouched stubs, to compare
        (folder / f"stubs--{notebook}.ipynb").write_bytes(
            (course / "student" / f"{notebook}.ipynb").read_bytes()
        )
    return grade_folder(folder, course / "autograder", LIMITS), cheats


def _rows(book: Gradebook) -> dict[str, SubmissionGrade]:
    """The cheats' rows by the cheat's name; the stubs' by ``stubs--<notebook>``."""
    return {row.student if row.student != "stubs" else Path(row.submission).stem: row for row in book.rows}


@pytest.mark.slow
def test_no_cheat_scores_more_than_the_stubs_and_each_is_flagged(
    graded: tuple[Gradebook, dict[str, ModuleType]],
) -> None:
    book, cheats = graded
    rows = _rows(book)
    stubs = {row.notebook: row.points for name, row in rows.items() if name.startswith("stubs--")}
    assert set(stubs.values()) == {0}
    for name, cheat in cheats.items():
        row = rows[name]
        assert row.notebook == cheat.NOTEBOOK, name
        assert row.points <= stubs[cheat.NOTEBOOK], f"{name}: {row.points} points; {row.sentences()}"
        missing = [flag for flag in cheat.FLAGS if flag not in row.all_flags]
        assert not missing, f"{name}: not flagged {missing}; flags {row.all_flags}: {row.sentences()}"
        if cheat.FLAGS:
            assert row.sentences(), name
        else:  # the stub itself, its comment deleted: graded as the stub
            assert {e.status for e in row.exercises} == {"stub"}, f"{name}: {row.exercises}"


@pytest.mark.slow
def test_no_row_has_more_points_than_possible_whatever_the_pipe_carried(
    graded: tuple[Gradebook, dict[str, ModuleType]],
) -> None:
    book, _ = graded
    for row in book.rows:
        assert row.points <= row.possible
        assert all(e.points <= e.possible for e in row.exercises)
        assert {e.exercise.split("-")[0] for e in row.exercises} <= {(row.notebook or "")[:2]}
    forged = _rows(book)["writes_to_the_pipe"]
    assert [e.exercise for e in forged.exercises] == ["02-toggle_flag", "02-chord", "02-replay"]


@pytest.mark.slow
def test_nothing_the_probes_sent_reached_a_listener(
    graded: tuple[Gradebook, dict[str, ModuleType]], listeners: dict[str, Any]
) -> None:
    book, _ = graded
    probe = _rows(book)["probes_the_network"]
    assert any("a socket" in said for said in probe.said), probe.said
    for name in ("udp", "unix"):
        with pytest.raises(BlockingIOError):
            listeners[name].recv(100)
    with pytest.raises(BlockingIOError):
        listeners["tcp"].accept()
    held = " ".join(probe.held)
    assert "no network: a network namespace of its own" in held
    assert "no socket, no new process, no program run (seccomp)" in held
