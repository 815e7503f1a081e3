"""Fast checks of the Lite build and the export, without a browser or the network.

They pin down the build's rules: the notebooks' kernelspec and install cell, the drift checks against
the pins, what the build's configuration makes pyodide-lock and uv resolve (for the browser, at pinned
versions; a package with no wheel for the browser fails the build), and the checks of the built site.
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
import notebook_sources  # noqa: E402

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
    notebook: dict[str, Any] = json.loads(nbformat.writes(nb))
    return notebook


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

    python = TransformerManager().transform_cell(GUARDED_INSTALL)  # type: ignore[no-untyped-call]
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


def test_every_site_has_the_notebook_a_shared_game_s_link_opens(tmp_path: Path) -> None:
    """The name links point at (ipyminesweeper.widget.link.NOTEBOOK) is the one the build writes; its
    widget reads the game of its page's address, and it installs the project first, as every notebook."""
    from ipyminesweeper.widget.link import NOTEBOOK

    src = tmp_path / "src" / "01-play.ipynb"
    src.parent.mkdir()
    src.write_text(json.dumps(notebook("1 + 1")))
    build_lite.write_contents([src], tmp_path / "contents")
    assert build_lite.SHARED_NOTEBOOK == NOTEBOOK
    shared = json.loads((tmp_path / "contents" / NOTEBOOK).read_text())
    code = ["".join(c["source"]) for c in shared["cells"] if c["cell_type"] == "code"]
    assert build_lite.installs_project(shared["cells"][1]) and "Minesweeper.from_page()" in code[1]
    assert shared["metadata"]["kernelspec"]["name"] == "python"


def test_notebook_paths_fails_loudly_without_notebooks(tmp_path: Path) -> None:
    with pytest.raises(build_lite.BuildError, match="no notebooks to put on the site"):
        build_lite.build(tmp_path / "site", [tmp_path])
    with pytest.raises(export_html.ExportError, match="no notebooks to export"):
        export_html.export(tmp_path / "html", [tmp_path])
    assert not (tmp_path / "site").exists() and not (tmp_path / "html").exists()


def test_notebook_paths_are_the_files_and_folders_given(tmp_path: Path) -> None:
    for name in ("b.ipynb", "a.ipynb", "notes.md"):
        (tmp_path / name).write_text("{}")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text("{}")
    single = tmp_path / "b.ipynb"
    found = notebook_sources.notebook_paths([tmp_path, single], ValueError, "to test")
    assert found == [tmp_path / "a.ipynb", tmp_path / "b.ipynb", single]
    with pytest.raises(LookupError, match=r"not a notebook or a folder of notebooks: .*notes\.md"):
        notebook_sources.notebook_paths([tmp_path / "notes.md"], LookupError, "to test")


# --------------------------------------------------------------------------------------------------
# pins and drift


def test_pins_are_consistent() -> None:
    assert set(lite_versions.BUILD_TOOLS) <= set(lite_versions.LITE)
    assert set(lite_versions.MUST_MATCH_BUILD_ENV) <= set(lite_versions.SITE_PINS)
    assert not set(lite_versions.BUILD_TOOLS) & set(lite_versions.SITE_PINS)


def test_the_lite_group_holds_exact_pins_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[dependency-groups]\nlite = ["pyodide-lock[uv]==0.1.2", "uv>=0.13"]\n')
    monkeypatch.setattr(lite_versions, "PYPROJECT", pyproject)
    with pytest.raises(ValueError, match=r"exact pins .*'uv>=0\.13'"):
        lite_versions._group("lite")
    pyproject.write_text('[dependency-groups]\nlite = ["pyodide-lock[uv]==0.1.2", "uv==0.13.9"]\n')
    assert lite_versions._group("lite") == {"pyodide-lock": "0.1.2", "uv": "0.13.9"}


@pytest.mark.parametrize("dist", [*lite_versions.BUILD_TOOLS, *lite_versions.MUST_MATCH_BUILD_ENV])
def test_a_drifted_tool_or_widget_fails_the_build(monkeypatch: pytest.MonkeyPatch, dist: str) -> None:
    monkeypatch.setitem(lite_versions.LITE, dist, "0.0.1")
    with pytest.raises(build_lite.BuildError, match=rf"{dist}: pinned 0\.0\.1, installed"):
        build_lite.check_versions()


def test_a_pyodide_the_kernel_does_not_use_fails_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lite_versions, "PYODIDE", "0.1.0")
    with pytest.raises(build_lite.BuildError, match=r"pyodide: pinned 0\.1\.0"):
        build_lite.check_versions()


def test_this_environment_matches_the_pins() -> None:
    """The same check `make lite` starts with: fails here first when a dependency moved."""
    build_lite.check_versions()


# --------------------------------------------------------------------------------------------------
# what the browser loads: the build's configuration, resolved by pyodide-lock and uv (offline here)


def fake_wheel(folder: Path, name: str, version: str, requires: list[str], tag: str = "py3-none-any") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{name.replace('-', '_')}-{version}"
    path = folder / f"{stem}-{tag}.whl"
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name.replace('-', '_')}/__init__.py", "")
        zf.writestr(f"{stem}.dist-info/METADATA", "\n".join(meta) + "\n")
        zf.writestr(f"{stem}.dist-info/WHEEL", f"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: {tag}\n")
        zf.writestr(f"{stem}.dist-info/RECORD", "")
    return path


def fake_runtime(folder: Path, **packages: str) -> Path:
    """A Pyodide runtime folder whose lock file has `packages` (name=version), like npm's."""
    folder.mkdir(parents=True)
    (folder / "pyodide.mjs").write_text("// runtime")
    entries = {
        name: {
            "name": name,
            "version": version,
            "file_name": f"{name}-{version}-py3-none-any.whl",
            "install_dir": "site",
            "sha256": "0" * 64,
            "depends": [],
            "imports": [name],
            "package_type": "package",
            "unvendored_tests": False,
        }
        for name, version in packages.items()
    }
    info = {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3", "python": "3.14.2"}
    (folder / "pyodide-lock.json").write_text(json.dumps({"info": info, "packages": entries}))
    return folder


def test_the_runtime_is_staged_with_an_empty_lock_that_pyodide_lock_reads(tmp_path: Path) -> None:
    from pyodide_lock.spec import PyodideLockSpec

    runtime = fake_runtime(tmp_path / "npm", micropip="0.11.1")
    original = build_lite.stage_runtime(runtime, tmp_path / "static" / "pyodide")
    assert set(original["packages"]) == {"micropip"}
    staged = PyodideLockSpec.from_json(tmp_path / "static" / "pyodide" / "pyodide-lock.json")
    assert staged.packages == {} and staged.info.python == "3.14.2"
    assert (tmp_path / "static" / "pyodide" / "pyodide.mjs").is_file()


def resolve(tmp_path: Path, wheels: list[Path], index: Path, **lock_packages: str) -> dict[str, str]:
    """What the build's PyodideLockAddon settings resolve to, with `index` as the only package index."""
    from pyodide_lock.uv_pip_compile import UvPipCompile

    runtime = fake_runtime(tmp_path / "npm", micropip="0.11.1", **lock_packages)
    work = tmp_path / "lite" / "static" / "pyodide"
    lock = build_lite.stage_runtime(runtime, work)
    addon = build_lite.build_config(tmp_path / "contents", tmp_path / "out", wheels, lock)["PyodideLockAddon"]
    uv = dict(addon["pyodide_lock_uv_options"])
    uv["extra_uv_args"] = [*uv["extra_uv_args"], "--no-index", f"--find-links={index}"]
    spec = UvPipCompile(
        input_path=work / "pyodide-lock.json",
        wheel_dir=work / "wheels",
        work_dir=tmp_path / "work",
        wheels=[Path(w) for w in addon["wheels"]],
        specs=addon["specs"],
        constraints=addon["constraints"],
        **uv,
    ).update()
    return {name: package.version for name, package in spec.packages.items()}


def test_resolution_is_for_the_browser_at_pinned_versions(tmp_path: Path) -> None:
    index = tmp_path / "index"
    project = fake_wheel(
        tmp_path,
        "ipyminesweeper",
        "0.1.0",
        ["anywidget>=0.9", "traitlets>=5", 'pexpect; sys_platform != "emscripten"', "numpy; extra == 'fast'"],
    )
    fake_wheel(index, "micropip", "0.11.1", [])
    for version in ("0.11.0", "0.12.0"):
        fake_wheel(index, "anywidget", version, ["typing-extensions>=4"])
    for version in ("5.14.3", "5.15.0"):
        fake_wheel(index, "traitlets", version, [])
    for version in ("4.15.0", "4.16.0"):
        fake_wheel(index, "typing-extensions", version, [])
    fake_wheel(index, "pexpect", "4.9.0", [])

    got = resolve(tmp_path, [project], index, traitlets="5.14.3", **{"typing-extensions": "4.15.0"})
    assert got == {
        "ipyminesweeper": "0.1.0",
        "micropip": "0.11.1",  # what the kernel's worker loads itself
        "anywidget": lite_versions.SITE_PINS["anywidget"],  # the lite group's pin, not the newest
        "traitlets": "5.14.3",  # Pyodide's lock file's version, not the newest
        "typing-extensions": "4.15.0",
    }, "pexpect is for other platforms than emscripten, numpy only for an extra"


def test_resolution_fails_on_a_package_with_no_wheel_for_the_browser(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from pyodide_lock.uv_pip_compile import PyLockError

    index = tmp_path / "index"
    project = fake_wheel(tmp_path, "ipyminesweeper", "0.1.0", ["numpy"])
    fake_wheel(index, "micropip", "0.11.1", [])
    fake_wheel(index, "numpy", "2.4.6", [], tag="cp314-cp314-manylinux_2_28_x86_64")
    with pytest.raises(PyLockError):
        resolve(tmp_path, [project], index, numpy="2.4.6")
    message = build_lite.explain(caplog.text)
    assert message.startswith("uv could not resolve what the browser loads")
    assert "numpy==2.4.6 has no wheels with a matching platform tag" in message


def test_the_widgets_stub_is_the_kernels_newest() -> None:
    stub = build_lite.widgets_stub()
    assert stub.name.startswith("widgetsnbextension-4.") and stub.parent.name == "pypi"


# --------------------------------------------------------------------------------------------------
# checks of the built site


def fake_site(tmp_path: Path, **settings: Any) -> Path:
    """A built site whose lock file serves ipyminesweeper and comm, with the given kernel settings."""
    site = tmp_path / "site"
    (site / "static" / "pyodide").mkdir(parents=True)
    (site / "static" / "pyodide" / "pyodide.mjs").write_text("// runtime")
    packages = {}
    for name, version in (("ipyminesweeper", "0.1.0"), ("comm", "0.2.3")):
        wheel = fake_wheel(site / "static" / "pyodide-lock", name, version, [])
        packages[name] = {
            "name": name,
            "version": version,
            "file_name": f"../../static/pyodide-lock/{wheel.name}",
            "sha256": build_lite.sha256_file(wheel),
        }
    (site / "static" / "pyodide-lock" / "pyodide-lock.json").write_text(json.dumps({"packages": packages}))
    kernel = {
        "disablePyPIFallback": True,
        "pyodideUrl": "./static/pyodide/pyodide.mjs",
        "loadPyodideOptions": {"lockFileURL": "./static/pyodide-lock/pyodide-lock.json"},
        **settings,
    }
    config = {"jupyter-config-data": {"litePluginSettings": {build_lite.KERNEL_PLUGIN: kernel}}}
    (site / "jupyter-lite.json").write_text(json.dumps(config))
    return site


def test_check_site_accepts_a_site_that_serves_itself(tmp_path: Path) -> None:
    lock = build_lite.check_site(fake_site(tmp_path), ["ipyminesweeper", "comm"])
    assert set(lock["packages"]) == {"ipyminesweeper", "comm"}


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"disablePyPIFallback": False}, "disablePyPIFallback is not true"),
        (
            {"pyodideUrl": "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pyodide.mjs"},
            "pyodideUrl is not a file",
        ),
        ({"pipliteUrls": ["https://pypi.org/all.json"]}, "pipliteUrls is not a file"),
    ],
)
def test_check_site_refuses_settings_that_leave_the_site(
    tmp_path: Path, settings: dict[str, Any], problem: str
) -> None:
    with pytest.raises(build_lite.BuildError, match=problem):
        build_lite.check_site(fake_site(tmp_path, **settings), ["ipyminesweeper", "comm"])


def test_check_site_refuses_a_remote_or_altered_wheel_and_an_unpinned_one(tmp_path: Path) -> None:
    site = fake_site(tmp_path)
    lock_file = site / "static" / "pyodide-lock" / "pyodide-lock.json"
    lock = json.loads(lock_file.read_text())
    lock["packages"]["comm"]["file_name"] = "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/comm.whl"
    lock["packages"]["ipyminesweeper"]["sha256"] = "0" * 64
    lock_file.write_text(json.dumps(lock))
    with pytest.raises(build_lite.BuildError) as error:
        build_lite.check_site(site, ["ipyminesweeper"])
    assert "comm: https://cdn.jsdelivr.net" in str(error.value)
    assert "the sha256 of ipyminesweeper-0.1.0-py3-none-any.whl" in str(error.value)
    assert "comm 0.2.3 is pinned nowhere: add 'comm==0.2.3' to the `lite` group" in str(error.value)


def test_the_site_settings_turn_the_pypi_fallback_off() -> None:
    settings = build_lite.site_settings()["jupyter-config-data"]["litePluginSettings"]
    assert settings[build_lite.KERNEL_PLUGIN] == {"disablePyPIFallback": True}


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
