"""Structural checks on the teaching notebooks (running them is nbval's job:
``pytest --nbval-lax notebooks/``).

Every notebook is committed without outputs, uses the ``python3`` kernelspec (the JupyterLite build
rewrites it to ``python`` in its copies), and starts with the cell that installs the widget in
JupyterLite.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
EXPECTED = [
    "01-play",
    "02-boards-as-data",
    "03-autoplayer",
    "04-probabilities",
    "05-properties-and-laws",
    "06-the-elm-loop",
]
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
INSTALL_CELL = (
    "import sys\n"
    'if sys.platform == "emscripten":  # JupyterLite: install the widget from the site itself\n'
    "    %pip install -q ipyminesweeper"
)


def load(name: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return notebook


def source(cell: dict[str, Any]) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def code_sources(nb: dict[str, Any]) -> list[str]:
    return [source(c) for c in nb["cells"] if c["cell_type"] == "code"]


def present() -> list[str]:
    return sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("name", present())
def test_committed_without_outputs(name: str) -> None:
    for i, cell in enumerate(load(name)["cells"]):
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [], f"{name} cell {i} has outputs: clear them before committing"
            assert cell.get("execution_count") is None, f"{name} cell {i} has an execution count"


@pytest.mark.parametrize("name", present())
def test_kernelspec(name: str) -> None:
    assert load(name)["metadata"].get("kernelspec") == KERNELSPEC


@pytest.mark.parametrize("name", present())
def test_starts_with_the_jupyterlite_install_cell(name: str) -> None:
    first = load(name)["cells"][0]
    assert first["cell_type"] == "code"
    assert source(first).strip() == INSTALL_CELL


@pytest.mark.parametrize("name", present())
def test_valid_nbformat(name: str) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4))


def test_every_notebook_is_there() -> None:
    missing = [name for name in EXPECTED if not (NOTEBOOKS / f"{name}.ipynb").exists()]
    assert not missing, f"missing notebooks: {missing}"


def test_play_notebook_names_its_widget_w() -> None:
    """The browser and JupyterLite tests click the widget made by the first cell that assigns ``w``,
    then re-run the cell that prints ``w.board.view.to_text()`` to see the click in Python."""
    path = NOTEBOOKS / "01-play.ipynb"
    if not path.exists():
        pytest.skip("01-play.ipynb not written yet")
    codes = code_sources(load("01-play"))
    widget_cells = [i for i, src in enumerate(codes) if "Minesweeper(" in src]
    assert widget_cells, "01-play makes no Minesweeper widget"
    first = codes[widget_cells[0]]
    assert first.lstrip().startswith("w = Minesweeper("), "the first widget cell must assign it to `w`"
    printing = [i for i, src in enumerate(codes) if "print(w.board.view.to_text())" in src]
    assert printing and printing[-1] > widget_cells[0], "01-play needs a cell printing w.board.view.to_text()"
    # Run all leaves `w` untouched ("ready"), so a click in the browser is what changes it.
    plays = re.compile(r"\bw\.(reveal|flag|chord|step|autoplay|new_game|undo)\(|\bw\.board\s*=")
    moved = [i for i, src in enumerate(codes) if plays.search(src)]
    assert not moved, f"01-play code cells {moved} play on `w`: leave it to the reader"


@pytest.mark.parametrize("name", present())
def test_no_plain_import_of_optional_compiled_packages(name: str) -> None:
    """JupyterLite's kernel scans each cell for ``import X`` and tries to load X from the site's
    Pyodide packages before running it; the offline site ships none of these, so such a cell would
    fail there even inside ``try``. The notebooks check with ``importlib.util.find_spec`` and import
    with ``importlib``."""
    pattern = re.compile(r"^\s*(import|from)\s+(matplotlib|numpy|pandas)\b", re.MULTILINE)
    for i, src in enumerate(code_sources(load(name))):
        assert not pattern.search(src), f"{name} code cell {i} imports an optional package directly"


@pytest.mark.parametrize("name", present())
def test_one_title(name: str) -> None:
    """Exactly one level-1 heading per notebook: its title (catches markdown lines that kept a
    commenting ``# `` prefix and so all render as titles)."""
    titles = []
    for cell in load(name)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        fenced = False
        for line in source(cell).splitlines():
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith("# "):
                titles.append(line)
    assert len(titles) == 1, f"{name} has {len(titles)} level-1 headings: {titles[:3]}"


@pytest.mark.parametrize("name", present())
def test_code_lines_fit_the_notebook(name: str) -> None:
    """Code lines of at most 88 characters fit a notebook column without a scroll bar."""
    long = [
        (i, line)
        for i, src in enumerate(code_sources(load(name)))
        for line in src.splitlines()
        if len(line) > 88
    ]
    assert not long, f"{name}: code lines over 88 characters (cell, line): {long[:3]}"


def hidden(cell: dict[str, Any]) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


@pytest.mark.parametrize("name", present())
def test_every_exercise_has_a_folded_solution_that_passes_its_check(name: str) -> None:
    """An exercise is a visible cell that defines the student's function (a placeholder, "TODO") and calls a
    check on it; after it comes a folded cell (hidden input, opened with a click) that redefines the
    function and asserts the check (nbval runs it, so the solution is known to pass)."""
    cells = [c for c in load(name)["cells"] if c["cell_type"] == "code"]
    call = re.compile(r"^(check_\w+)\((\w+)(, [\w, ]+)?\)\s*$", re.MULTILINE)
    for i, cell in enumerate(cells):
        if hidden(cell):
            continue
        for check, function, more in call.findall(source(cell)):
            if f"def {function}(" not in source(cell) or "TODO" not in source(cell):
                continue  # a check of a function the notebook wrote itself: no exercise
            later = [c for c in cells[i + 1 :] if hidden(c)]
            assert later, f"{name}: {check}({function}) has no folded solution after it"
            solution = source(later[0])
            assert f"def {function}(" in solution, (
                f"{name}: the solution after {check} does not define {function}"
            )
            expected = rf"result = {check}\({function}{re.escape(more)}\)\nassert result"
            assert re.search(expected, solution), (
                f"{name}: the solution does not assert {check}({function}...)"
            )


TEACHING = NOTEBOOKS.parent / "docs" / "teaching.md"


@pytest.mark.parametrize("name", present())
def test_opens_with_its_objectives_and_its_time(name: str) -> None:
    """The first text cell states the objectives and the time, and docs/teaching.md (the teacher's
    path) gives the same time for the notebook."""
    intro = source(load(name)["cells"][1])
    assert "**Objectives.** After this notebook you can:" in intro
    minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", intro)
    assert minutes, f"{name}: no '**Time:** about N minutes' in its first text cell"
    rows = [
        line for line in TEACHING.read_text(encoding="utf-8").splitlines() if line.startswith(f"| {name} |")
    ]
    assert rows, f"docs/teaching.md has no timing row for {name}"
    assert f"about {minutes.group(1)} minutes" in rows[0], (name, rows[0])
