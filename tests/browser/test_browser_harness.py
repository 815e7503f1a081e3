"""The harness itself, on a plain ipywidgets slider: if these fail, the Minesweeper tests cannot pass.

They prove that the servers start offline, a notebook opens and runs, a browser interaction reaches the
kernel (re-running a probe cell reads the Python value), and the theme switch works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import NotebookPage

pytestmark = pytest.mark.browser

SLIDER_CELLS = [
    "import ipywidgets as W\n"
    "s = W.IntSlider(value=5, min=0, max=10, description='n')\n"
    "b = W.Button(description='bump')\n"
    "b.on_click(lambda _: setattr(s, 'value', s.value + 1))\n"
    "W.VBox([s, b])",
    "import json\nprint('PROBE ' + json.dumps({'value': s.value}))",
]


def _nudge_slider(nb: NotebookPage, presses: int) -> None:
    """Click the button ``presses`` times: Python bumps the slider, which the page then shows."""
    button = nb.page.locator(".jp-OutputArea-output button.jupyter-button", has_text="bump")
    for i in range(presses):
        button.click()
        nb.page.wait_for_function(
            "v => [...document.querySelectorAll('.widget-readout')].some(e => e.textContent.trim() === v)",
            arg=str(5 + i + 1),
        )


def test_lab_slider_round_trip_and_theme(lab: NotebookPage) -> None:
    lab.server.write_notebook("harness.ipynb", SLIDER_CELLS)
    lab.open("harness.ipynb")
    lab.run_all()
    assert lab.probe(1) == {"value": 5}
    _nudge_slider(lab, 2)
    assert lab.probe(1) == {"value": 7}, "the slider's change did not reach the kernel"
    assert lab.theme() == "JupyterLab Light"
    lab.set_theme("JupyterLab Dark")
    assert lab.theme() == "JupyterLab Dark"
    lab.screenshot("harness-lab-dark")
    lab.set_theme("JupyterLab Light")


def test_notebook7_slider_round_trip(notebook7: NotebookPage) -> None:
    notebook7.server.write_notebook("harness.ipynb", SLIDER_CELLS)
    notebook7.open("harness.ipynb")
    notebook7.run_all()
    _nudge_slider(notebook7, 3)
    assert notebook7.probe(1) == {"value": 8}
    notebook7.screenshot("harness-notebook7")
