"""Fast checks of the Lite build and the export, without a browser or the network.

They pin down the build's rules: the notebooks' kernelspec and install cell, the drift checks against
scripts/lite_versions.py, and the resolution of what the browser must load (missing or compiled
packages fail the build).
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import build_lite  # noqa: E402
import export_html  # noqa: E402
import lite_versions  # noqa: E402

GUARDED_INSTALL = (
    "import sys\n"
    'if sys.platform == "emscripten":  # JupyterLite: install the widget from the site itself\n'
    "    %pip install -q ipyminesweeper"
)


def notebook(*sources: str) -> dict[str, Any]:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# Title")] + [
        nbformat.v4.new_code_cell(src) for src in sources
    ]
    return json.loads(nbformat.writes(nb))


# --------------------------------------------------------------------------------------------------
# notebooks for the site


def test_site_notebook_keeps_a_guarded_install_cell_and_sets_kernelspec_python() -> None:
    nb = notebook(GUARDED_INSTALL, "x = 1")
    site = build_lite.site_notebook(nb)
    assert site["metadata"]["kernelspec"]["name"] == "python"
    assert [c["source"] for c in site["cells"]] == [c["source"] for c in nb["cells"]]
    assert nb["metadata"]["kernelspec"]["name"] == "python3", "the original was modified"


def test_site_notebook_inserts_an_install_cell_when_missing() -> None:
    site = build_lite.site_notebook(notebook("from ipyminesweeper import Minesweeper"))
    first = site["cells"][0]
    assert first["cell_type"] == "code"
    assert "".join(first["source"]) == build_lite.INSTALL_CELL
    nbformat.validate(nbformat.reads(json.dumps(site), as_version=4))


def test_an_install_of_something_else_is_not_the_project() -> None:
    cell = {"cell_type": "code", "source": "%pip install numpy"}
    assert not build_lite.installs_project(cell)
    assert build_lite.installs_project({"cell_type": "code", "source": GUARDED_INSTALL})


def test_the_guarded_install_cell_is_valid_ipython() -> None:
    """IPython (also the one in the Pyodide kernel) turns the indented %pip into a call."""
    from IPython.core.inputtransformer2 import TransformerManager

    python = TransformerManager().transform_cell(GUARDED_INSTALL)
    assert "run_line_magic('pip', 'install -q ipyminesweeper')" in python
    compile(python, "<cell>", "exec")


def test_write_contents_never_touches_the_sources(tmp_path: Path) -> None:
    src = tmp_path / "src" / "01-play.ipynb"
    src.parent.mkdir()
    text = json.dumps(notebook("1 + 1"))
    src.write_text(text)
    build_lite.write_contents([src], tmp_path / "contents")
    assert src.read_text() == text
    copied = json.loads((tmp_path / "contents" / "01-play.ipynb").read_text())
    assert copied["metadata"]["kernelspec"]["name"] == "python"


def test_notebook_paths_fails_loudly_without_notebooks(tmp_path: Path) -> None:
    with pytest.raises(build_lite.BuildError, match="no notebooks"):
        build_lite.notebook_paths([tmp_path])


# --------------------------------------------------------------------------------------------------
# pins and drift


def test_pins_are_consistent() -> None:
    assert set(lite_versions.MUST_MATCH_BUILD_ENV) <= set(lite_versions.SITE_WHEELS)
    assert lite_versions.PYODIDE.split(".")[0] == "".join(lite_versions.PYODIDE_PYTHON.split("."))


@pytest.mark.parametrize(
    ("attr", "dist"),
    [
        ("JUPYTERLITE_CORE", "jupyterlite-core"),
        ("JUPYTERLITE_PYODIDE_KERNEL", "jupyterlite-pyodide-kernel"),
    ],
)
def test_a_drifted_jupyterlite_fails_the_build(monkeypatch: pytest.MonkeyPatch, attr: str, dist: str) -> None:
    monkeypatch.setattr(lite_versions, attr, "0.0.1")
    with pytest.raises(build_lite.BuildError, match=rf"{dist}: pinned 0\.0\.1, installed"):
        build_lite.check_versions()


def test_a_drifted_anywidget_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(lite_versions.SITE_WHEELS, "anywidget", "0.0.1")
    with pytest.raises(build_lite.BuildError, match=r"anywidget: pinned 0\.0\.1"):
        build_lite.check_versions()


def test_a_pyodide_the_kernel_does_not_use_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lite_versions, "PYODIDE", "0.1.0")
    with pytest.raises(build_lite.BuildError, match=r"pyodide: pinned 0\.1\.0"):
        build_lite.check_versions()


def test_this_environment_matches_the_pins() -> None:
    """The same check `make lite` starts with: fails here first when a dependency moved."""
    build_lite.check_versions()


# --------------------------------------------------------------------------------------------------
# what the browser loads


def fake_wheel(folder: Path, name: str, version: str, requires: list[str]) -> Path:
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name.replace('-', '_')}-{version}.dist-info/METADATA", "\n".join(meta) + "\n")
    return path


def fake_lock(**packages: tuple[str, list[str], str]) -> dict[str, Any]:
    return {
        "info": {"python": "3.14.2"},
        "packages": {
            name: {"version": v, "depends": deps, "file_name": f, "sha256": "0"}
            for name, (v, deps, f) in packages.items()
        },
    }


KERNEL_LOCK = {
    "micropip": ("0.11.1", [], "micropip-0.11.1-py3-none-any.whl"),
    "ipython": ("9.12.0", ["traitlets"], "ipython-9.12.0-py3-none-any.whl"),
    "traitlets": ("5.14.3", [], "traitlets-5.14.3-py3-none-any.whl"),
    "jedi": ("0.19.2", [], "jedi-0.19.2-py2.py3-none-any.whl"),
}


def kernel_wheels(folder: Path) -> list[Path]:
    return [
        fake_wheel(folder, "piplite", "0.8.6", []),
        fake_wheel(folder, "ipykernel", "6.9.2", ["pyodide-kernel"]),
        fake_wheel(folder, "pyodide-kernel", "0.8.6", ["comm", "ipython"]),
    ]


def test_resolve_collects_the_lock_packages_of_kernel_and_project(tmp_path: Path) -> None:
    site = [
        fake_wheel(
            tmp_path,
            "ipyminesweeper",
            "0.1.0",
            ["anywidget>=0.9", "traitlets>=5", "numpy; extra == 'numpy'"],
        ),
        fake_wheel(tmp_path, "anywidget", "0.11.0", ["typing-extensions>=4.2", "pytest; extra == 'dev'"]),
        fake_wheel(tmp_path, "comm", "0.2.3", ["traitlets>=4"]),
    ]
    lock = fake_lock(
        **KERNEL_LOCK,
        **{"typing-extensions": ("4.15.0", [], "typing_extensions-4.15.0-py3-none-any.whl")},
    )
    needed = build_lite.resolve(lock, kernel_wheels(tmp_path), site)
    from_lock = {n for n, p in needed.items() if p.source == "lock"}
    assert from_lock == {"micropip", "ipython", "traitlets", "jedi", "typing-extensions"}
    assert needed["ipyminesweeper"].source == "site"
    assert "numpy" not in needed and "pytest" not in needed


def test_resolve_fails_on_a_dependency_nobody_serves(tmp_path: Path) -> None:
    site = [
        fake_wheel(tmp_path, "ipyminesweeper", "0.1.0", ["anywidget"]),
        fake_wheel(tmp_path, "comm", "0.2.3", []),
    ]
    with pytest.raises(build_lite.BuildError, match=r"anywidget \(wanted by ipyminesweeper"):
        build_lite.resolve(fake_lock(**KERNEL_LOCK), kernel_wheels(tmp_path), site)


def test_resolve_fails_on_a_compiled_package(tmp_path: Path) -> None:
    site = [
        fake_wheel(tmp_path, "ipyminesweeper", "0.1.0", ["numpy"]),
        fake_wheel(tmp_path, "comm", "0.2.3", []),
    ]
    lock = fake_lock(
        **KERNEL_LOCK, numpy=("2.3.0", [], "numpy-2.3.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl")
    )
    with pytest.raises(build_lite.BuildError, match=r"numpy 2\.3\.0 is compiled"):
        build_lite.resolve(lock, kernel_wheels(tmp_path), site)


def test_resolve_fails_on_a_version_conflict(tmp_path: Path) -> None:
    site = [
        fake_wheel(tmp_path, "ipyminesweeper", "0.1.0", ["traitlets>=6"]),
        fake_wheel(tmp_path, "comm", "0.2.3", []),
    ]
    with pytest.raises(build_lite.BuildError, match=r"traitlets>=6 .*the lock has 5.14.3"):
        build_lite.resolve(fake_lock(**KERNEL_LOCK), kernel_wheels(tmp_path), site)


# --------------------------------------------------------------------------------------------------
# the export's page template


def test_the_export_template_loads_nothing_from_a_cdn(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    model = "a" * 32
    nb.metadata["widgets"] = {
        export_html.STATE_MIME: {
            "state": {
                model: {
                    "model_name": "AnyModel",
                    "model_module": "anywidget",
                    "model_module_version": "~0.11.*",
                    "state": {"_esm": "export default {}"},
                }
            },
            "version_major": 2,
            "version_minor": 0,
        }
    }
    out = nbformat.v4.new_output(
        "display_data",
        data={export_html.VIEW_MIME: {"model_id": model, "version_major": 2, "version_minor": 0}},
    )
    nb.cells = [nbformat.v4.new_markdown_cell("$x^2$"), nbformat.v4.new_code_cell("w", outputs=[out])]
    body = export_html.render(export_html.offline_exporter(tmp_path), nb, "page")
    for script in ("static/require.js", "static/embed-amd.js", "static/mathjax/tex-svg-full.js"):
        assert script in body
    assert 'paths: {anywidget: "static/anywidget"}' in body
    assert export_html.STATE_MIME in body and model in body
