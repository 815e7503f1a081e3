"""The harness itself, on a plain ipywidgets slider: if these fail, the Minesweeper tests cannot pass.

They prove that the servers start offline, a notebook opens and runs, a browser interaction reaches the
kernel (re-running a probe cell reads the Python value), and the theme switch works.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SLIDER_CELLS = [
    "import ipywidgets as W\ns = W.IntSlider(value=5, min=0, max=10, description='n')\ns",
    "import json\nprint('PROBE ' + json.dumps({'value': s.value}))",
]


def _nudge_slider(nb, presses: int) -> None:
    handle = nb.page.locator(".jp-OutputArea-output .noUi-handle").first
    handle.wait_for()
    handle.click()
    for _ in range(presses):
        nb.page.keyboard.press("ArrowRight")
    nb.page.wait_for_function(
        "v => [...document.querySelectorAll('.widget-readout')].some(e => e.textContent.trim() === v)",
        arg=str(5 + presses),
    )


def test_lab_slider_round_trip_and_theme(lab) -> None:
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


def test_notebook7_slider_round_trip(notebook7) -> None:
    notebook7.server.write_notebook("harness.ipynb", SLIDER_CELLS)
    notebook7.open("harness.ipynb")
    notebook7.run_all()
    _nudge_slider(notebook7, 3)
    assert notebook7.probe(1) == {"value": 8}
    notebook7.screenshot("harness-notebook7")
