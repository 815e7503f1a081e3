"""The one place that pins the versions of the offline JupyterLite site and the static export.

These versions were checked together (see docs/lite.md). `scripts/build_lite.py` and
`scripts/export_html.py` refuse to build when the environment has drifted from them, with a message
that says what to install or which pin to bump.
"""

from __future__ import annotations

# JupyterLite and its Pyodide kernel: installed in the environment that runs `jupyter lite build`.
JUPYTERLITE_CORE = "0.8.6"
JUPYTERLITE_PYODIDE_KERNEL = "0.8.6"

# The Pyodide runtime (npm package `pyodide`): the version of the kernel's default pyodideUrl.
PYODIDE = "314.0.6"
# The Python inside that Pyodide (for `pip download --python-version` and environment markers).
PYODIDE_PYTHON = "3.14"

# Pure-Python wheels the site serves from its own pypi/ folder, next to the project's wheel, because
# Pyodide's lock file does not have them. Everything else the kernel needs comes from the lock file.
SITE_WHEELS: dict[str, str] = {
    "anywidget": "0.11.0",
    "ipywidgets": "8.1.9",
    "jupyterlab_widgets": "3.0.17",
    "comm": "0.2.3",
    "psygnal": "0.16.1",
}

# Of SITE_WHEELS, those whose JupyterLab extension `jupyter lite build` copies from the build
# environment: the Python side in the browser must match that front end exactly.
MUST_MATCH_BUILD_ENV = ("anywidget", "ipywidgets", "jupyterlab_widgets")

# Static HTML export (npm packages, copied next to the pages so they need no network).
HTML_MANAGER = "1.0.15"  # @jupyter-widgets/html-manager: dist/embed-amd.js
REQUIREJS = "2.3.8"  # requirejs: require.js
MATHJAX = "3.2.2"  # mathjax: es5/tex-svg-full.js (self-contained: SVG output needs no font files)
