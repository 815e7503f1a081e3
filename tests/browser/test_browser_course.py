"""The course's notebooks in a real JupyterLab: each one runs top to bottom with no error, its exercise
checks show as HTML, and notebook 03's tournament chart is drawn by JupyterLab's own Vega-Lite renderer
(a screenshot is saved: artifacts/browser/lab-03-chart.png). nbval proves the cells run; this proves
what they display renders. The offline Lite site gets the same in tests/lite/test_lite_site.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from chromium import all_cells_ran

if TYPE_CHECKING:
    from conftest import NotebookPage

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def run_notebook(lab: NotebookPage, name: str) -> None:
    shutil.copy(NOTEBOOKS / name, lab.server.root / name)
    lab.open(name)
    lab.page.keyboard.press("Escape")
    lab.open_menu("Run")
    lab.page.locator('#jp-mainmenu-run li[data-command="runmenu:run-all"]').click()
    outcome = all_cells_ran(lab.page, timeout_ms=600_000, polling=1000)
    assert outcome == "done", outcome


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_notebook_runs_in_jupyterlab(lab: NotebookPage, name: str) -> None:
    run_notebook(lab, name)
    checks = lab.page.locator(".jp-OutputArea-output .ipyms-check")
    if "check_" in (NOTEBOOKS / name).read_text():
        assert checks.count() > 0, "no exercise check was displayed"
        assert lab.page.locator(".ipyms-check table td").count() > 0, "no counterexample board was drawn"
    lab.screenshot(f"lab-{Path(name).stem}")


@pytest.mark.slow
def test_the_tournament_chart_renders_in_jupyterlab(lab: NotebookPage) -> None:
    run_notebook(lab, "03-autoplayer.ipynb")
    chart = lab.page.locator(".jp-OutputArea-output .vega-embed").first
    chart.wait_for(timeout=60_000)
    drawn = chart.locator("canvas, svg").first
    drawn.wait_for(timeout=60_000)
    box = drawn.bounding_box()
    assert box and box["width"] > 150 and box["height"] > 150, box
    assert lab.page.locator(".vega-embed").count() == 1
    lab.screenshot("lab-03-chart", chart)
