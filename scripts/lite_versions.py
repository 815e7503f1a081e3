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
    """The exact pins `dist==version` of a dependency group of pyproject.toml, by distribution name."""
    entries = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["dependency-groups"][name]
    pins: dict[str, str] = {}
    for entry in entries:
        match = (
            re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;,]+)\s*", entry)
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

# JupyterLite and its Pyodide kernel: installed in the environment that runs `jupyter lite build`.
JUPYTERLITE_CORE = LITE["jupyterlite-core"]
JUPYTERLITE_PYODIDE_KERNEL = LITE["jupyterlite-pyodide-kernel"]

# The Pyodide runtime (npm package `pyodide`): the version of the kernel's default pyodideUrl.
PYODIDE = "314.0.6"
# The Python inside that Pyodide (for `pip download --python-version` and environment markers).
PYODIDE_PYTHON = "3.14"

# Pure-Python wheels the site serves from its own pypi/ folder, next to the project's wheel, because
# Pyodide's lock file does not have them. Everything else the kernel needs comes from the lock file.
SITE_WHEELS: dict[str, str] = {k: v for k, v in LITE.items() if not k.startswith("jupyterlite")}

# Of SITE_WHEELS, those whose JupyterLab extension `jupyter lite build` copies from the build
# environment: the Python side in the browser must match that front end exactly.
MUST_MATCH_BUILD_ENV = ("anywidget", "ipywidgets", "jupyterlab_widgets")

# Static HTML export (npm packages, copied next to the pages so they need no network).
HTML_MANAGER = "1.0.15"  # @jupyter-widgets/html-manager: dist/embed-amd.js
REQUIREJS = "2.3.8"  # requirejs: require.js
MATHJAX = "3.2.2"  # mathjax: es5/tex-svg-full.js (self-contained: SVG output needs no font files)
