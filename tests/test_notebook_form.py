"""The teaching notebooks are committed in one form (scripts/normalize_notebooks.py), and what JupyterLab
adds on opening and running one is taken out again, so that opening a notebook leaves `git status` clean."""

from __future__ import annotations

import copy
import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from normalize_notebooks import normal_notebook, normalize, notebooks

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
NOTEBOOKS = notebooks()


def as_jupyterlab_saves(nb: dict[str, Any]) -> dict[str, Any]:
    """``nb`` as JupyterLab 4 saved it once its kernel had started and every cell had run (measured on
    notebooks/01-play.ipynb: the kernel's whole language_info, outputs, execution counts), with the cell
    metadata it adds when outputs are collapsed or timed and the widget state it may save."""
    saved = copy.deepcopy(nb)
    saved["metadata"]["language_info"] = {
        "codemirror_mode": {"name": "ipython", "version": 3},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
        "version": "3.11.7",
    }
    saved["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    for n, cell in enumerate(saved["cells"]):
        cell["metadata"]["scrolled"] = True
        cell["metadata"].setdefault("jupyter", {})["outputs_hidden"] = False
        if cell["cell_type"] == "code":
            cell["execution_count"] = n
            cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["ran\n"]}]
            cell["metadata"]["execution"] = {"iopub.status.idle": "2026-11-26T14:40:00.000Z"}
    return saved


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_each_notebook_is_committed_in_its_normal_form(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert normalize(text) == text, f"run `make notebooks` (scripts/normalize_notebooks.py) on {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_what_jupyterlab_adds_is_taken_out_and_the_author_s_metadata_kept(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    saved = json.dumps(as_jupyterlab_saves(json.loads(text)), indent=1, sort_keys=True, ensure_ascii=False)
    assert saved + "\n" != text
    assert normalize(saved) == text


def test_the_normal_form_keeps_folded_solutions_and_tags() -> None:
    nb: dict[str, Any] = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": 3,
                "id": "a",
                "metadata": {"jupyter": {"source_hidden": True, "outputs_hidden": True}, "tags": ["x"]},
                "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}],
                "source": "print(1)\nprint(2)",
            }
        ],
        "metadata": {"kernelspec": {"name": "python3"}, "language_info": {"name": "python", "version": "3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    cell = normal_notebook(nb)["cells"][0]
    assert cell["metadata"] == {"jupyter": {"source_hidden": True}, "tags": ["x"]}
    assert (cell["outputs"], cell["execution_count"]) == ([], None)
    assert cell["source"] == ["print(1)\n", "print(2)"]
    assert normal_notebook(nb)["metadata"]["language_info"] == {"name": "python"}
    assert nb["cells"][0]["execution_count"] == 3  # the notebook given is left as it is


def test_the_demo_server_saves_teaching_notebooks_in_their_normal_form() -> None:
    config = runpy.run_path(str(SCRIPTS / "jupyter_demo_config.py"), init_globals={"get_config": Config})
    hook = config["c"].FileContentsManager.pre_save_hook
    text = NOTEBOOKS[0].read_text(encoding="utf-8")
    cases = (("notebooks/01-play.ipynb", False), ("/notebooks/x.ipynb", False), ("mine.ipynb", True))
    for path, kept in cases:
        model = {"type": "notebook", "content": as_jupyterlab_saves(json.loads(text))}
        before = copy.deepcopy(model)
        hook(model=model, path=path, contents_manager=None)
        if kept:
            assert model == before, path  # a notebook of the user's own keeps its outputs
        else:
            dumped = json.dumps(model["content"], indent=1, sort_keys=True, ensure_ascii=False)
            assert dumped + "\n" == text, path


def test_the_git_filter_reads_stdin_and_applies_to_the_notebooks() -> None:
    text = NOTEBOOKS[0].read_text(encoding="utf-8")
    saved = json.dumps(as_jupyterlab_saves(json.loads(text)))
    script = SCRIPTS / "normalize_notebooks.py"
    command = [sys.executable, str(script), "--filter"]
    run = subprocess.run(command, input=saved, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout == text
    if shutil.which("git") and (ROOT / ".git").exists():
        command = ["git", "check-attr", "filter", "notebooks/01-play.ipynb"]
        attr = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        assert attr.stdout.strip().endswith(": filter: notebook")
