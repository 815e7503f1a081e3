#!/usr/bin/env python
"""Build the offline JupyterLite site into dist/lite/ (`make lite`).

The site needs no network when it runs: the Pyodide runtime, every wheel the kernel loads and the
project's own wheel are served from the site itself, and piplite's PyPI fallback is off.

Steps (downloads are cached under build/lite-cache/, so a rebuild takes seconds):

1. Check that the environment matches the pins in scripts/lite_versions.py (fail loudly if not).
2. `npm pack pyodide@PYODIDE`: the runtime (pyodide.mjs, pyodide.asm.wasm, python_stdlib.zip,
   pyodide-lock.json), without any of Pyodide's package wheels.
3. Resolve what the kernel and the project need, in the browser's environment (Python 3.14,
   emscripten): from Pyodide's lock file, the kernel's own wheels, and the site's pypi/ folder.
   Anything missing or compiled fails the build.
4. `pip download` the pure-Python wheels the lock file names, at the locked versions, put them next
   to the runtime and rewrite their sha256 in the local pyodide-lock.json (PyPI's wheels are not
   byte-identical to Pyodide's builds); tar it for `jupyter lite build --pyodide`.
5. Build the project's wheel; download the pinned SITE_WHEELS; put them in the lite dir's pypi/.
6. Copy notebooks/*.ipynb to a temporary contents folder with the kernelspec `python` (the repo's
   notebooks are never modified) and make sure each starts by installing the project.
7. `jupyter lite build`, then check the output really is offline.

Usage: python scripts/build_lite.py [--output dist/lite] [--notebooks PATH ...] [--force]
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import importlib.metadata
import importlib.util
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lite_versions as pins

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "lite-cache"
DEFAULT_OUTPUT = ROOT / "dist" / "lite"
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
STAMP_NAME = ".ipyminesweeper-lite.json"
PROJECT = "ipyminesweeper"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
INSTALL_CELL = f"%pip install -q {PROJECT}"

# What the Pyodide kernel installs while it starts (jupyterlite-pyodide-kernel's worker:
# loadPackage micropip, micropip.install piplite, then piplite.install of the rest).
KERNEL_BOOT = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")

# Environment markers of the Python that runs in the browser.
PYODIDE_MARKERS = {
    "implementation_name": "cpython",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Emscripten",
    "platform_version": "",
    "python_version": pins.PYODIDE_PYTHON,
    "sys_platform": "emscripten",
    "extra": "",
}


class BuildError(Exception):
    """The site cannot be built; the message says why and what to do."""


def log(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def run(cmd: Sequence[str | Path], cwd: Path | None = None) -> str:
    """Run a command; on failure raise BuildError with its output."""
    args = [str(c) for c in cmd]
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(
            f"command failed ({proc.returncode}): {' '.join(args)}\n{proc.stdout}\n{proc.stderr}"
        )
    return proc.stdout


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def installed_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def labextensions_dir() -> Path:
    return Path(sys.prefix) / "share" / "jupyter" / "labextensions"


# --------------------------------------------------------------------------------------------------
# 1. versions


def check_versions() -> None:
    """Fail loudly when the build environment has drifted from scripts/lite_versions.py."""
    problems: list[str] = []
    expected = {
        "jupyterlite-core": pins.JUPYTERLITE_CORE,
        "jupyterlite-pyodide-kernel": pins.JUPYTERLITE_PYODIDE_KERNEL,
        **{name: pins.SITE_WHEELS[name] for name in pins.MUST_MATCH_BUILD_ENV},
    }
    for dist, want in expected.items():
        have = installed_version(dist)
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
                f"{pins.JUPYTERLITE_PYODIDE_KERNEL} expects {constants.PYODIDE_VERSION}"
            )
        schema = (
            labextensions_dir()
            / "@jupyterlite"
            / "pyodide-kernel-extension"
            / "static"
            / "schema"
            / "kernel.v0.schema.json"
        )
        if schema.exists():
            default = json.loads(schema.read_text())["properties"]["pyodideUrl"]["default"]
            if f"/v{pins.PYODIDE}/" not in default:
                problems.append(
                    f"  pyodide: pinned {pins.PYODIDE}, but the kernel's default pyodideUrl is {default}"
                )
        else:
            problems.append(f"  the Pyodide kernel's JupyterLab extension is missing: {schema}")
    if problems:
        raise BuildError(
            "the build environment does not match the pins in scripts/lite_versions.py:\n"
            + "\n".join(problems)
        )
    log(
        f"versions ok: jupyterlite-core {pins.JUPYTERLITE_CORE}, pyodide-kernel "
        f"{pins.JUPYTERLITE_PYODIDE_KERNEL}, pyodide {pins.PYODIDE}, "
        + ", ".join(f"{n} {pins.SITE_WHEELS[n]}" for n in pins.MUST_MATCH_BUILD_ENV)
    )


# --------------------------------------------------------------------------------------------------
# 2. the Pyodide runtime


def pyodide_runtime() -> Path:
    """The unpacked npm package pyodide@PYODIDE (cached)."""
    folder = CACHE / f"pyodide-{pins.PYODIDE}"
    unpacked = folder / "package"
    if (unpacked / "pyodide-lock.json").exists() and (unpacked / "pyodide.mjs").exists():
        return unpacked
    folder.mkdir(parents=True, exist_ok=True)
    log(f"npm pack pyodide@{pins.PYODIDE}")
    run(["npm", "pack", "--silent", f"pyodide@{pins.PYODIDE}"], cwd=folder)
    tgz = folder / f"pyodide-{pins.PYODIDE}.tgz"
    if not tgz.exists():
        raise BuildError(f"npm pack did not produce {tgz}")
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(tgz) as tar:
        tar.extractall(folder, filter="data")
    lock = json.loads((unpacked / "pyodide-lock.json").read_text())
    python = lock["info"]["python"]
    if not python.startswith(pins.PYODIDE_PYTHON + "."):
        raise BuildError(f"pyodide {pins.PYODIDE} runs Python {python}, pinned {pins.PYODIDE_PYTHON}")
    return unpacked


# --------------------------------------------------------------------------------------------------
# 3. resolution


@dataclass
class Provider:
    """Where the browser gets a distribution from, and what it requires there."""

    name: str
    version: str
    source: str  # "lock", "kernel" or "site"
    requires: list[Requirement] = field(default_factory=list)
    wheel: Path | None = None
    lock_file_name: str = ""


def wheel_metadata(wheel: Path) -> tuple[str, str, list[Requirement]]:
    """Name, version and Requires-Dist of a wheel."""
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        meta = email.parser.Parser().parsestr(zf.read(meta_name).decode())
    requires = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    return meta["Name"], meta["Version"], requires


def applies_in_browser(req: Requirement) -> bool:
    return req.marker is None or req.marker.evaluate(dict(PYODIDE_MARKERS))


def resolve(
    lock: dict[str, Any], kernel_wheels: Iterable[Path], site_wheels: Iterable[Path]
) -> dict[str, Provider]:
    """Everything the browser loads for the kernel and the project, or BuildError."""
    providers: dict[str, Provider] = {}
    for key, entry in lock["packages"].items():
        name = canonicalize_name(key)
        providers[name] = Provider(
            name=name,
            version=entry["version"],
            source="lock",
            requires=[Requirement(d) for d in entry.get("depends", [])],
            lock_file_name=entry["file_name"],
        )
    for source, wheels in (("kernel", kernel_wheels), ("site", site_wheels)):
        for wheel in wheels:
            dist, version, requires = wheel_metadata(wheel)
            name = canonicalize_name(dist)
            if source == "site" and name in providers:
                other = providers[name]
                raise BuildError(
                    f"{wheel.name} is served from the site's pypi/ folder, but {dist} "
                    f"{other.version} also comes from the {other.source}: remove it from "
                    "SITE_WHEELS in scripts/lite_versions.py"
                )
            old = providers.get(name)
            if old and old.source == source and Version(old.version) > Version(version):
                continue  # piplite picks the newest release of an index
            providers[name] = Provider(name, version, source, requires, wheel)

    needed: dict[str, Provider] = {}
    problems: list[str] = []
    todo: list[tuple[Requirement, str]] = [(Requirement(n), "the kernel") for n in KERNEL_BOOT]
    todo.append((Requirement(PROJECT), "the notebooks"))
    while todo:
        req, wanted_by = todo.pop()
        if not applies_in_browser(req):
            continue
        name = canonicalize_name(req.name)
        provider = providers.get(name)
        if provider is None:
            problems.append(
                f"  {req} (wanted by {wanted_by}) is in neither pyodide-lock.json nor the "
                "site's pypi/ folder: add it to SITE_WHEELS in scripts/lite_versions.py "
                "(pure-Python wheels only)"
            )
            continue
        if req.specifier and not req.specifier.contains(provider.version, prereleases=True):
            problems.append(f"  {req} (wanted by {wanted_by}): the {provider.source} has {provider.version}")
            continue
        if name in needed:
            continue
        needed[name] = provider
        todo.extend((r, f"{provider.name} {provider.version}") for r in provider.requires)
    for provider in needed.values():
        if provider.source == "lock" and not provider.lock_file_name.endswith("-none-any.whl"):
            problems.append(
                f"  {provider.name} {provider.version} is compiled for Pyodide "
                f"({provider.lock_file_name}); PyPI has no such wheel, so the offline site "
                "cannot serve it. The code that runs in the site must be pure Python."
            )
    if problems:
        raise BuildError("the site's Python packages do not resolve:\n" + "\n".join(problems))
    return needed


# --------------------------------------------------------------------------------------------------
# 4. wheels from PyPI and the local Pyodide


def pip_download(pinned: dict[str, str]) -> dict[str, Path]:
    """Pure-Python wheels name==version from PyPI into the cache; {canonical name: wheel}."""
    folder = CACHE / "wheels"
    folder.mkdir(parents=True, exist_ok=True)

    def cached() -> dict[tuple[str, str], Path]:
        found: dict[tuple[str, str], Path] = {}
        for whl in folder.glob("*.whl"):
            name, version, _, _ = parse_wheel_filename(whl.name)
            found[(name, str(version))] = whl
        return found

    def key(name: str, version: str) -> tuple[str, str]:
        return canonicalize_name(name), str(Version(version))

    have = cached()
    missing = [f"{n}=={v}" for n, v in sorted(pinned.items()) if key(n, v) not in have]
    if missing:
        log(f"pip download {len(missing)} wheel(s): {' '.join(missing)}")
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                pins.PYODIDE_PYTHON,
                "--implementation",
                "py",
                "--abi",
                "none",
                "--platform",
                "any",
                "--dest",
                folder,
                *missing,
            ]
        )
        have = cached()
    result: dict[str, Path] = {}
    for n, v in pinned.items():
        whl = have.get(key(n, v))
        if whl is None:
            raise BuildError(f"pip download found no pure-Python wheel for {n}=={v}")
        result[canonicalize_name(n)] = whl
    return result


def local_pyodide(runtime: Path, needed: dict[str, Provider], lock: dict[str, Any]) -> Path:
    """A pyodide-*.tar.bz2 with the runtime, the needed lock wheels and a rewritten lock file."""
    from_lock = {p.name: p.version for p in needed.values() if p.source == "lock"}
    wheels = pip_download(from_lock)
    lock = json.loads(json.dumps(lock))
    for key, entry in lock["packages"].items():
        whl = wheels.get(canonicalize_name(key))
        if whl is not None:
            entry["file_name"] = whl.name
            entry["sha256"] = sha256_file(whl)
    lock_text = json.dumps(lock, indent=2, sort_keys=True)
    tag = hashlib.sha256((lock_text + "".join(sorted(w.name for w in wheels.values()))).encode()).hexdigest()[
        :12
    ]
    tarball = CACHE / f"pyodide-local-{pins.PYODIDE}-{tag}.tar.bz2"
    if tarball.exists():
        log(f"reusing {tarball.relative_to(ROOT)}")
        return tarball
    for old in CACHE.glob(f"pyodide-local-{pins.PYODIDE}-*.tar.bz2"):
        old.unlink()
    log(f"packing {tarball.relative_to(ROOT)} ({len(wheels)} wheels from the lock file)")
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp) / "pyodide"
        shutil.copytree(runtime, staging)
        for whl in wheels.values():
            shutil.copy2(whl, staging / whl.name)
        (staging / "pyodide-lock.json").write_text(lock_text)
        partial = tarball.with_suffix(".partial")
        with tarfile.open(partial, "w:bz2", compresslevel=1) as tar:
            tar.add(staging, arcname="pyodide")
        partial.rename(tarball)
    return tarball


# --------------------------------------------------------------------------------------------------
# 5. the project's wheel and its dependencies


def project_sources(project: Path = ROOT) -> list[Path]:
    files = [project / "pyproject.toml", *sorted((project / "src").rglob("*"))]
    readme = project / "README.md"
    if readme.exists():
        files.append(readme)
    return [f for f in files if f.is_file() and "__pycache__" not in f.parts]


def project_wheel(project: Path = ROOT) -> Path:
    """The project's wheel, rebuilt only when its sources change."""
    tag = digest_any(project_sources(project))[:12]
    folder = CACHE / "project" / tag
    built = sorted(folder.glob(f"{PROJECT}-*.whl"))
    if built:
        return built[-1]
    shutil.rmtree(CACHE / "project", ignore_errors=True)
    folder.mkdir(parents=True)
    log("building the project's wheel")
    try:
        import hatchling  # noqa: F401

        isolation = ["--no-isolation"]  # fast: the backend is already here
    except ImportError:
        isolation = []
    if importlib.util.find_spec("build") is not None:
        run([sys.executable, "-m", "build", "--wheel", *isolation, "--outdir", folder, project])
    else:
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", folder, project])
    built = sorted(folder.glob(f"{PROJECT}-*.whl"))
    if not built:
        raise BuildError(f"no {PROJECT} wheel was built in {folder}")
    return built[-1]


def kernel_wheels() -> list[Path]:
    folder = labextensions_dir() / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    wheels = sorted(folder.glob("*.whl"))
    if not wheels:
        raise BuildError(f"the Pyodide kernel's own wheels are missing from {folder}")
    return wheels


# --------------------------------------------------------------------------------------------------
# 6. notebooks


def notebook_paths(sources: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for source in sources:
        if source.is_dir():
            found.extend(p for p in sorted(source.glob("*.ipynb")) if ".ipynb_checkpoints" not in p.parts)
        elif source.suffix == ".ipynb" and source.is_file():
            found.append(source)
        else:
            raise BuildError(f"not a notebook or a folder of notebooks: {source}")
    if not found:
        raise BuildError(
            "no notebooks to put on the site (looked in "
            + ", ".join(str(s) for s in sources)
            + "); pass --notebooks"
        )
    return found


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


def write_contents(notebooks: Sequence[Path], dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        (dest / path.name).write_text(
            json.dumps(site_notebook(nb), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


# --------------------------------------------------------------------------------------------------
# 7. jupyter lite build and checks


def lite_config() -> dict[str, Any]:
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "ipyminesweeper",
            "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
        },
    }


def verify_site(output: Path, wheels: Sequence[Path]) -> None:
    """The built site must load everything from itself."""
    config = json.loads((output / "jupyter-lite.json").read_text())
    settings = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    problems: list[str] = []
    if settings.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    url = settings.get("pyodideUrl", "")
    if not url.startswith("./") or not (output / url).is_file():
        problems.append(f"pyodideUrl is not a local file: {url!r}")
    lock = json.loads((output / "static" / "pyodide" / "pyodide-lock.json").read_text())
    for name in ("micropip", "ipython", "jedi"):
        entry = lock["packages"][name]
        whl = output / "static" / "pyodide" / entry["file_name"]
        if not whl.is_file() or sha256_file(whl) != entry["sha256"]:
            problems.append(f"{name}: {whl.name} is missing or its sha256 is not the lock's")
    index = json.loads((output / "pypi" / "all.json").read_text())
    for whl in wheels:
        name = canonicalize_name(parse_wheel_filename(whl.name)[0])
        if name not in {canonicalize_name(k) for k in index}:
            problems.append(f"{whl.name} is not in pypi/all.json")
    if problems:
        raise BuildError("the built site is not offline-ready:\n  " + "\n  ".join(problems))


def digest_any(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for p in paths:
        digest.update(str(p).encode())
        digest.update(sha256_file(p).encode())
    return digest.hexdigest()


def stamp_value(notebooks: Sequence[Path], project: Path = ROOT) -> str:
    here = Path(__file__).resolve()
    envs = {
        d: installed_version(d) for d in ("jupyterlite-core", "jupyterlite-pyodide-kernel", *pins.SITE_WHEELS)
    }
    inputs = [here, here.parent / "lite_versions.py", *project_sources(project)]
    return hashlib.sha256(
        (
            digest_any(inputs) + digest_any(p.resolve() for p in notebooks) + json.dumps(envs, sort_keys=True)
        ).encode()
    ).hexdigest()


def is_up_to_date(output: Path, notebooks: Sequence[Path], project: Path = ROOT) -> bool:
    stamp = output / STAMP_NAME
    if not stamp.is_file():
        return False
    try:
        return bool(json.loads(stamp.read_text()).get("inputs") == stamp_value(notebooks, project))
    except (OSError, ValueError):
        return False


def build(output: Path, notebook_sources: Sequence[Path], project: Path = ROOT, force: bool = False) -> Path:
    started = time.monotonic()
    notebooks = notebook_paths(notebook_sources)
    check_versions()
    if not force and is_up_to_date(output, notebooks, project):
        log(f"{output} is up to date (use --force to rebuild)")
        return output
    runtime = pyodide_runtime()
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    own = project_wheel(project)
    site = [own, *pip_download(pins.SITE_WHEELS).values()]
    needed = resolve(lock, kernel_wheels(), site)
    unused = [w for w in site if canonicalize_name(parse_wheel_filename(w.name)[0]) not in needed]
    if unused:
        log("note: shipped but not required: " + ", ".join(w.name for w in unused))
    tarball = local_pyodide(runtime, needed, lock)

    with tempfile.TemporaryDirectory(prefix="ipyminesweeper-lite-") as tmp:
        lite_dir = Path(tmp) / "lite"
        (lite_dir / "pypi").mkdir(parents=True)
        for whl in site:
            shutil.copy2(whl, lite_dir / "pypi" / whl.name)
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=2))
        contents = Path(tmp) / "contents"
        write_contents(notebooks, contents)
        staged = Path(tmp) / "out"
        log(f"jupyter lite build ({len(notebooks)} notebook(s), {len(site)} site wheel(s))")
        run(
            [
                sys.executable,
                "-m",
                "jupyter",
                "lite",
                "build",
                "--lite-dir",
                lite_dir,
                "--contents",
                contents,
                "--pyodide",
                tarball,
                "--output-dir",
                staged,
                "--no-sourcemaps",
            ],
            cwd=Path(tmp),
        )
        verify_site(staged, site)
        (staged / STAMP_NAME).write_text(
            json.dumps(
                {
                    "inputs": stamp_value(notebooks, project),
                    "notebooks": [p.name for p in notebooks],
                    "pyodide": pins.PYODIDE,
                    "wheels": sorted(w.name for w in site),
                },
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
