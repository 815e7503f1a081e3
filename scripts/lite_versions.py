"""The versions of the offline JupyterLite site and the static export.

The Python pins live in one place, the `lite` dependency group of pyproject.toml (which `make setup`
installs, through the `test` and `dev` groups); this module reads them from there. Only what is not a
Python package is pinned here: the Pyodide runtime and the npm packages of the static export.

These versions were checked together (see docs/lite.md). `scripts/build_lite.py` and
`scripts/export_html.py` refuse to build when the environment has drifted from them, with a message
that says what to install or which pin to bump.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _group(name: str) -> dict[str, str]:
    """The exact pins `dist[extras]==version` of a dependency group, {dist: version} (extras dropped)."""
    entries = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["dependency-groups"][name]
    pins: dict[str, str] = {}
    for entry in entries:
        match = (
            re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*(?:\[[^\]]*\])?\s*==\s*([^\s;,]+)\s*", entry)
            if isinstance(entry, str)
            else None
        )
        if match is None:
            raise ValueError(
                f"pyproject.toml: the {name!r} group must hold exact pins (dist==version), not {entry!r}"
            )
        pins[match.group(1)] = match.group(2)
    return pins


LITE = _group("lite")

# The tools that build the site: installed in the environment that runs `jupyter lite build`.
BUILD_TOOLS = ("jupyterlite-core", "jupyterlite-pyodide-kernel", "pyodide-lock", "uv")

# Everything else in the group is a wheel the site serves, at that version. The resolver takes the
# versions of what Pyodide's own lock file has from there, and the rest from these pins.
SITE_PINS: dict[str, str] = {k: v for k, v in LITE.items() if k not in BUILD_TOOLS}

# Of SITE_PINS, those whose JupyterLab extension `jupyter lite build` copies from the build
# environment: the Python side in the browser must match that front end exactly.
MUST_MATCH_BUILD_ENV = ("anywidget", "ipywidgets", "jupyterlab_widgets")

# The Pyodide runtime (npm package `pyodide`): the version of the kernel's default pyodideUrl.
PYODIDE = "314.0.6"

# The platform `uv pip compile` resolves for. Pyodide 314's wheels are tagged pyemscripten_2026_0_wasm32;
# uv 0.13 knows `wasm32-pyodide2024` and `wasm32-pyodide2025` (pyemscripten_2025_0), no 2026 yet. Their
# environment markers (sys_platform emscripten, platform_machine wasm32) are Pyodide 314's: all that
# matters for the pure-Python wheels on PyPI.
UV_PYTHON_PLATFORM = "wasm32-pyodide2025"

# Static HTML export (npm packages, copied next to the pages so they need no network).
HTML_MANAGER = "1.0.15"  # @jupyter-widgets/html-manager: dist/embed-amd.js
REQUIREJS = "2.3.8"  # requirejs: require.js
MATHJAX = "3.2.2"  # mathjax: es5/tex-svg-full.js (self-contained: SVG output needs no font files)
