#!/usr/bin/env python
"""Build the offline JupyterLite site into dist/lite/ (`make lite`).

The site needs no network when it runs: the Pyodide runtime and every wheel the kernel loads, the
project's own included, are files of the site, and piplite's PyPI fallback is off.

Tools do the work; this script gives them their inputs and checks what comes out:

1. The build environment must match the pins (the `lite` group of pyproject.toml, read by
   scripts/lite_versions.py): `jupyter lite build` copies the widgets' JupyterLab extensions from it.
2. `npm pack pyodide@PYODIDE` is the runtime, without Pyodide's package wheels. Its pyodide-lock.json
   is emptied: step 4 writes a new one that lists only what the site serves.
3. `python -m build --wheel` builds the project's wheel.
4. `jupyter lite build --pyodide-lock` copies the notebooks (with kernelspec `python`) and the
   runtime, and its PyodideLockAddon resolves, with pyodide-lock and
   `uv pip compile --python-platform wasm32-pyodide2025 --python-version 3.14 --no-build`, what the
   browser loads: the kernel's own wheels, micropip and the project's wheel, with the versions of
   Pyodide's lock file and of the `lite` group as constraints. It downloads the wheels from PyPI and
   writes them, with the new lock file, into the site's static/pyodide-lock/.
5. What no browser of the site loads goes: JupyterLab's other apps (notebooks, tree, editor, console,
   REPL) with the chunks only they use, the build environment's other JupyterLab extensions, and the
   old formats of fonts that come as .woff2.
6. The output is checked: every URL of the kernel's settings and every wheel of the lock file is a
   file of the site (with its sha256), and every version came from a pin.

Downloads are cached under build/lite-cache/ (Pyodide) and uv's cache; an unchanged tree is not
rebuilt. Usage: python scripts/build_lite.py [--output dist/lite] [--notebooks PATH ...] [--force]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name, parse_wheel_filename

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lite_versions as pins
from notebook_sources import notebook_paths

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "lite-cache"
DEFAULT_OUTPUT = ROOT / "dist" / "lite"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
STAMP_NAME = ".ipyminesweeper-lite.json"
PROJECT = "ipyminesweeper"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
INSTALL_CELL = f"%pip install -q {PROJECT}"
APPS = ("lab",)  # the course opens notebooks in JupyterLab (lab/index.html?path=...)
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager", "anywidget")


class BuildError(Exception):
    """The site cannot be built; the message says why and what to do."""


def log(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def run(cmd: Sequence[str | Path], cwd: Path | None = None) -> str:
    """Run a command; on failure raise BuildError with the part of its output that explains it."""
    args = [str(c) for c in cmd]
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(
            f"command failed ({proc.returncode}): {' '.join(args)}\n{explain(proc.stdout + proc.stderr)}"
        )
    return proc.stdout


def explain(output: str) -> str:
    """uv's own error if the resolution failed (pyodide-lock logs uv's output), else the output's end."""
    start = output.find("error: ", output.find("Output:\n---"))
    end = output.find("\n---", start)
    if "Output:\n---" not in output or start < 0 or end < 0:
        return "\n".join(output.strip().splitlines()[-40:])
    start = output.rfind("\n", 0, start) + 1
    return (
        "uv could not resolve what the browser loads:\n"
        + textwrap.indent(textwrap.dedent(output[start:end]).strip(), "  ")
        + "\n(the site serves wheels only: pure-Python ones from PyPI, at the versions of Pyodide's lock"
        " file or of the `lite` group of pyproject.toml)"
    )


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def installed_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def kernel_extension() -> Path:
    """The Pyodide kernel's JupyterLab extension in the build environment."""
    return (
        Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension"
    )


# --------------------------------------------------------------------------------------------------
# 1. the environment against the pins


def check_versions() -> None:
    """Fail loudly when the build environment has drifted from the pins."""
    problems = []
    for dist in (*pins.BUILD_TOOLS, *pins.MUST_MATCH_BUILD_ENV):
        want, have = pins.LITE[dist], installed_version(dist)
        if have != want:
            problems.append(
                f"  {dist}: pinned {want}, installed {have or 'nothing'} "
                f"(pip install '{dist}=={want}', or bump the pin after checking the site)"
            )
    if not problems:
        from jupyterlite_pyodide_kernel import constants

        if constants.PYODIDE_VERSION != pins.PYODIDE:
            problems.append(
                f"  pyodide: pinned {pins.PYODIDE}, but jupyterlite-pyodide-kernel "
                f"{pins.LITE['jupyterlite-pyodide-kernel']} expects {constants.PYODIDE_VERSION}"
            )
    if problems:
        raise BuildError(
            "the build environment does not match the pins (the `lite` group of pyproject.toml, "
            "and scripts/lite_versions.py):\n" + "\n".join(problems)
        )
    log(
        "versions ok: "
        + ", ".join(f"{d} {pins.LITE[d]}" for d in (*pins.BUILD_TOOLS, *pins.MUST_MATCH_BUILD_ENV))
    )


# --------------------------------------------------------------------------------------------------
# 2. the Pyodide runtime


def pyodide_runtime() -> Path:
    """The unpacked npm package pyodide@PYODIDE (cached)."""
    folder = CACHE / f"pyodide-{pins.PYODIDE}"
    unpacked = folder / "package"
    if not (unpacked / "pyodide-lock.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        log(f"npm pack pyodide@{pins.PYODIDE}")
        run(["npm", "pack", "--silent", f"pyodide@{pins.PYODIDE}"], cwd=folder)
        with tarfile.open(folder / f"pyodide-{pins.PYODIDE}.tgz") as tar:
            tar.extractall(folder, filter="data")
    return unpacked


def stage_runtime(runtime: Path, dest: Path) -> dict[str, Any]:
    """Copy the runtime to `dest` with an empty lock file; return the original lock file."""
    shutil.copytree(runtime, dest)
    lock: dict[str, Any] = json.loads((runtime / "pyodide-lock.json").read_text())
    # pyodide-lock 0.1.2 requires info.version, which Pyodide 314's lock file no longer has
    empty = {"info": {**lock["info"], "version": pins.PYODIDE}, "packages": {}}
    (dest / "pyodide-lock.json").write_text(json.dumps(empty))
    return lock


# --------------------------------------------------------------------------------------------------
# 3. the project's wheel


def project_sources(project: Path = ROOT) -> list[Path]:
    files = [project / "pyproject.toml", project / "README.md", *sorted((project / "src").rglob("*"))]
    return [f for f in files if f.is_file() and "__pycache__" not in f.parts]


def project_wheel(project: Path, dest: Path) -> Path:
    log("building the project's wheel")
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dest, project])
    return next(dest.glob(f"{PROJECT}-*.whl"))


# --------------------------------------------------------------------------------------------------
# 4. notebooks and the configuration of `jupyter lite build`


def installs_project(cell: dict[str, Any]) -> bool:
    source = cell.get("source", "")
    text = "".join(source) if isinstance(source, list) else str(source)
    return any(
        line.strip().startswith(("%pip install", "!pip install", "await piplite.install")) and PROJECT in line
        for line in text.splitlines()
    )


def site_notebook(nb: dict[str, Any]) -> dict[str, Any]:
    """A copy of a notebook for the site: kernelspec `python`, the project installed first."""
    nb = json.loads(json.dumps(nb))
    metadata = nb.setdefault("metadata", {})
    metadata["kernelspec"] = dict(KERNELSPEC)
    metadata.setdefault("language_info", {"name": "python"})
    cells = nb.setdefault("cells", [])
    code = [c for c in cells if c.get("cell_type") == "code"]
    if not code or not installs_project(code[0]):
        cell: dict[str, Any] = {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": [INSTALL_CELL],
        }
        if nb.get("nbformat", 4) >= 4 and nb.get("nbformat_minor", 0) >= 5:
            cell["id"] = "lite-install"
        cells.insert(0, cell)
    return nb


SHARED_NOTEBOOK = "shared-game.ipynb"
"""The notebook a shared game's link opens (ipyminesweeper.widget.link.NOTEBOOK): every site has it."""
SHARED_CELLS = (
    (
        "markdown",
        "# A shared game\n\nThis notebook opens the game in its address (the part after `#game=`): a board "
        "from its start, a game's moves, or its review, as `w.link()` or the widget's **Link** button wrote "
        "it. The game travels in the address itself: no server keeps it. Run all the cells "
        "(**Run \u25b8 Run All Cells**).",
    ),
    (
        "code",
        'import sys\nif sys.platform == "emscripten":  # JupyterLite: install the widget from the site\n'
        "    %pip install -q ipyminesweeper",
    ),
    (
        "code",
        "from ipyminesweeper import Minesweeper\n\n"
        "w = Minesweeper.from_page()  # the game of this page's address\nw",
    ),
    (
        "markdown",
        "`w.review()` gives the review as a value (each move rated by the exact solver), `w.history` the "
        "boards, `w.metrics` the game's 3BV, clicks and efficiency.",
    ),
)


def shared_notebook() -> dict[str, Any]:
    """The shared-game notebook: :data:`SHARED_CELLS` as nbformat 4.5."""
    cells: list[dict[str, Any]] = [
        {"cell_type": kind, "id": f"shared-{n}", "metadata": {}, "source": text.splitlines(keepends=True)}
        | ({"execution_count": None, "outputs": []} if kind == "code" else {})
        for n, (kind, text) in enumerate(SHARED_CELLS)
    ]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def write_contents(notebooks: Sequence[Path], dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    pages = [(path.name, json.loads(path.read_text(encoding="utf-8"))) for path in notebooks]
    if SHARED_NOTEBOOK not in {name for name, _ in pages}:
        pages.append((SHARED_NOTEBOOK, shared_notebook()))
    for name, nb in pages:
        text = json.dumps(site_notebook(nb), indent=1, ensure_ascii=False) + "\n"
        (dest / name).write_text(text, encoding="utf-8")


def site_settings() -> dict[str, Any]:
    """jupyter-lite.json of the lite dir: what the site does at run time."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "ipyminesweeper",
            "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
        },
    }


def site_extensions() -> list[Path]:
    """The JupyterLab extensions the site loads, from the build environment: the Pyodide kernel and
    the widgets' (ipywidgets' manager, anywidget). The others a developer's environment has (jupytext,
    ipylab, ...) would load at every start, for nothing."""
    root = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    paths = [root / name for name in EXTENSIONS]
    missing = [str(p) for p in paths if not (p / "package.json").is_file()]
    if missing:
        raise BuildError("JupyterLab extensions missing from the build environment: " + ", ".join(missing))
    return paths


def widgets_stub() -> Path:
    """The kernel's empty widgetsnbextension, which ipywidgets requires.

    The addon leaves the kernel's two stubs (3.6.999 and 4.0.999) out of the resolution; without one, uv
    would take PyPI's widgetsnbextension, 2 MB of classic-notebook JavaScript the site does not use.
    """
    stubs = sorted(kernel_extension().glob("static/pypi/widgetsnbextension-*.whl"))
    if not stubs:
        raise BuildError(f"the Pyodide kernel's widgetsnbextension stub is missing from {kernel_extension()}")
    return stubs[-1]


def build_config(
    contents: Path, output: Path, wheels: Sequence[Path], pyodide_lock: dict[str, Any]
) -> dict[str, Any]:
    """jupyter_lite_config.json of the lite dir: what `jupyter lite build` does."""
    constraints = [f"{p['name']}=={p['version']}" for p in pyodide_lock["packages"].values()]
    constraints += [f"{name}=={version}" for name, version in pins.SITE_PINS.items()]  # the last one wins
    return {
        "LiteBuildConfig": {
            "contents": [str(contents)],
            "output_dir": str(output),
            "no_sourcemaps": True,
            # JupyterLab only: the notebooks, tree, editor, console and REPL apps go, with what only
            # they load
            "apps": list(APPS),
            "no_unused_shared_packages": True,
            # the extensions the course uses, not every one of the build environment
            "ignore_sys_prefix": ["federated_extensions"],
            "federated_extensions": [str(path) for path in site_extensions()],
        },
        "PyodideLockAddon": {
            "enabled": True,
            # roots of the resolution, next to the kernel's own wheels (piplite, ipykernel, pyodide-kernel)
            "wheels": [str(w) for w in wheels],
            # the kernel's worker loads micropip itself (specs are not constrained: give the version)
            "specs": [f"micropip=={pyodide_lock['packages']['micropip']['version']}"],
            "constraints": constraints,
            "pyodide_lock_uv_options": {
                "python_platform": pins.UV_PYTHON_PLATFORM,
                "extra_uv_args": ["--no-python-downloads"],
            },
        },
    }


def drop_old_font_formats(output: Path) -> int:
    """Delete the .eot, .svg, .ttf and .woff copies of a font that also comes as .woff2 (Font Awesome's,
    in JupyterLab's build): every browser that runs Pyodide takes the .woff2, listed in the same
    ``@font-face``. Returns the bytes saved (about 2.5 MB)."""
    saved = 0
    for woff2 in output.glob("build/*.woff2"):
        for suffix in (".eot", ".svg", ".ttf", ".woff"):
            old = woff2.with_suffix(suffix)
            if old.is_file():
                saved += old.stat().st_size
                old.unlink()
    return saved


# --------------------------------------------------------------------------------------------------
# 5. checks of the output


def check_site(output: Path, pinned: Iterable[str]) -> dict[str, Any]:
    """The built site loads everything from itself, at pinned versions; returns its lock file."""
    settings = json.loads((output / "jupyter-lite.json").read_text())["jupyter-config-data"][
        "litePluginSettings"
    ][KERNEL_PLUGIN]
    problems: list[str] = []
    if settings.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    lock_url = settings.get("loadPyodideOptions", {}).get("lockFileURL", "")
    urls = [("pyodideUrl", settings.get("pyodideUrl", "")), ("lockFileURL", lock_url)]
    urls += [("pipliteUrls", url) for url in settings.get("pipliteUrls", [])]
    for key, url in urls:
        if not url.startswith("./") or not (output / url.split("?")[0]).is_file():
            problems.append(f"{key} is not a file of the site: {url!r}")
    if problems:
        raise BuildError("the built site fails its checks:\n  " + "\n  ".join(problems))

    lock: dict[str, Any] = json.loads((output / lock_url).read_text())
    runtime = (output / settings["pyodideUrl"]).parent  # the lock's file names are relative to it
    known = {canonicalize_name(name) for name in pinned}
    for entry in lock["packages"].values():
        wheel = runtime / entry["file_name"]
        if "://" in entry["file_name"] or not wheel.is_file():
            problems.append(f"{entry['name']}: {entry['file_name']} is not a file of the site")
        elif sha256_file(wheel) != entry["sha256"]:
            problems.append(f"{entry['name']}: the sha256 of {wheel.name} is not the lock file's")
        if canonicalize_name(entry["name"]) not in known:
            problems.append(
                f"{entry['name']} {entry['version']} is pinned nowhere: add "
                f"'{entry['name']}=={entry['version']}' to the `lite` group of pyproject.toml"
            )
    if PROJECT not in lock["packages"]:
        problems.append(f"{PROJECT} is not in {lock_url}")
    if problems:
        raise BuildError("the built site fails its checks:\n  " + "\n  ".join(problems))
    return lock


# --------------------------------------------------------------------------------------------------
# the build


def digest_any(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for p in paths:
        digest.update(str(p).encode())
        digest.update(sha256_file(p).encode())
    return digest.hexdigest()


def stamp_value(notebooks: Sequence[Path], project: Path = ROOT) -> str:
    here = Path(__file__).resolve()
    envs = {d: installed_version(d) for d in pins.LITE}
    inputs = [here, here.parent / "lite_versions.py", *project_sources(project)]
    text = digest_any(inputs) + digest_any(p.resolve() for p in notebooks) + json.dumps(envs, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def is_up_to_date(output: Path, notebooks: Sequence[Path], project: Path = ROOT) -> bool:
    try:
        stamp = json.loads((output / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return False
    return bool(stamp.get("inputs") == stamp_value(notebooks, project))


def build(output: Path, notebook_sources: Sequence[Path], project: Path = ROOT, force: bool = False) -> Path:
    started = time.monotonic()
    notebooks = notebook_paths(notebook_sources, BuildError, "to put on the site")
    check_versions()
    if not force and is_up_to_date(output, notebooks, project):
        log(f"{output} is up to date (use --force to rebuild)")
        return output
    runtime = pyodide_runtime()
    with tempfile.TemporaryDirectory(prefix="ipyminesweeper-lite-") as tmp_name:
        tmp = Path(tmp_name)
        lite_dir, contents, staged = tmp / "lite", tmp / "contents", tmp / "out"
        pyodide_lock = stage_runtime(runtime, lite_dir / "static" / "pyodide")
        wheels = [project_wheel(project, tmp / "wheel"), widgets_stub()]
        write_contents(notebooks, contents)
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(site_settings(), indent=2))
        config = build_config(contents, staged, wheels, pyodide_lock)
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2))

        log(f"jupyter lite build --pyodide-lock ({len(notebooks)} notebook(s))")
        run([sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", lite_dir], cwd=tmp)

        log(f"dropped {drop_old_font_formats(staged) / 1e6:.1f} MB of fonts no browser of the site loads")
        kernel_wheels = kernel_extension().glob("static/pypi/*.whl")
        local = [str(parse_wheel_filename(w.name)[0]) for w in [*wheels, *kernel_wheels]]
        lock = check_site(staged, [*pyodide_lock["packages"], *pins.SITE_PINS, *local])
        served = sorted(f"{e['name']} {e['version']}" for e in lock["packages"].values())
        log(f"the site serves {len(served)} wheels: {', '.join(served)}")
        (staged / STAMP_NAME).write_text(
            json.dumps(
                {"inputs": stamp_value(notebooks, project), "pyodide": pins.PYODIDE, "wheels": served},
                indent=2,
            )
        )
        if output.exists():
            shutil.rmtree(output)
        output.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), str(output))
    log(f"built {output} in {time.monotonic() - started:.1f} s")
    return output


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="default: dist/lite")
    parser.add_argument(
        "--notebooks",
        type=Path,
        nargs="+",
        default=[DEFAULT_NOTEBOOKS],
        help="notebooks or folders of notebooks (default: notebooks/)",
    )
    parser.add_argument(
        "--project", type=Path, default=ROOT, help="the project to build a wheel of (default: .)"
    )
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    try:
        build(
            args.output.resolve(),
            [p.resolve() for p in args.notebooks],
            project=args.project.resolve(),
            force=args.force,
        )
    except BuildError as error:
        print(f"\nbuild_lite: FAILED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
