"""Run All on the students' edition, every exercise still its stub, as a student's first pass does: no
cell raises, and each cell that demonstrates an unfinished exercise says, in one sentence, which
function to finish first (``needs``). Before, 02 ended in a bare ``StopIteration`` and 06 stopped on an
``AssertionError``."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from ipyminesweeper.classroom.editions import build_course

pytestmark = pytest.mark.slow

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
SENTENCE = "This cell needs `{}`, which has not passed its check yet: finish that exercise first"
SAID = {  # the cells that say it, by the function they need
    "02-boards-as-data": ["my_replay"],
    "03-autoplayer": [],
    "04-probabilities": [],
    "05-properties-and-laws": [],
    "06-the-elm-loop": ["update", "update"],
}


@pytest.fixture(scope="module")
def student_edition(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("course")
    build_course(NOTEBOOKS, out)
    return out / "student"


def _text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


@pytest.mark.parametrize("name", sorted(SAID))
def test_run_all_with_the_stubs_raises_nowhere_and_says_what_to_finish(
    student_edition: Path, name: str
) -> None:
    notebook = nbformat.read(student_edition / f"{name}.ipynb", as_version=4)
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(student_edition)}}
    ).execute()
    errors = [o for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, errors
    said = [
        needed
        for cell in notebook.cells
        if cell.cell_type == "code"
        for needed in {"my_replay", "update"}
        if SENTENCE.format(needed) in _text(cell)
    ]
    assert said == SAID[name]
