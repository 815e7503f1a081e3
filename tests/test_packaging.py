"""Packaging: the engine needs only the standard library, and the wheel ships the front end."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

PURE_MODULES = [
    "ipyminesweeper",
    "ipyminesweeper.engine",
    "ipyminesweeper.solver",
    "ipyminesweeper.strategies",
]


def test_engine_solver_and_strategies_import_only_the_standard_library() -> None:
    """They must run in the offline JupyterLite site, where only pure-Python wheels get."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"for name in {PURE_MODULES!r}: __import__(name)\n"
        "import ipyminesweeper as m\n"
        "b = m.reveal(m.new_board(9, 9, 10, seed=1), (4, 4))\n"
        "top = {n.split('.')[0] for n in set(sys.modules) - before}\n"
        "print(sorted(top - set(sys.stdlib_module_names) - {'ipyminesweeper'}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]", f"third-party modules imported by the engine: {out}"


def test_wheel_ships_the_front_end_and_no_tests(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("ipyminesweeper-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for required in [
        "ipyminesweeper/static/widget.js",
        "ipyminesweeper/static/widget.css",
        "ipyminesweeper/py.typed",
        "ipyminesweeper/engine/board.py",
        "ipyminesweeper/widget/widget.py",
    ]:
        assert required in names, f"{required} missing from {wheel.name}"
    assert not [n for n in names if n.startswith("tests/")]


def _pyproject() -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    pyproject: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return pyproject


def test_wheel_metadata_has_the_license_urls_and_the_one_version(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)], check=True
    )
    (wheel,) = tmp_path.glob("ipyminesweeper-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode()
    assert "License-Expression: MIT" in meta
    assert "License-File: LICENSE" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "LICENSE is not in the wheel"
    assert "Project-URL: Source, " in meta and "Classifier: Programming Language :: Python :: 3.12" in meta
    version = _pyproject()["project"]["version"]
    assert f"\nVersion: {version}\n" in meta
    import ipyminesweeper

    assert ipyminesweeper.__version__ == version
    # Exact pins stay in dependency groups: nothing published pins a version.
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert requires and not [r for r in requires if "==" in r.split(";")[0]], requires


def test_the_version_is_written_once() -> None:
    version = _pyproject()["project"]["version"]
    hits = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "src").rglob("*.py")
        if f'"{version}"' in p.read_text() or f"'{version}'" in p.read_text()
    ]
    assert hits == [], f"the version is repeated in {hits}: read it with importlib.metadata"


def test_sdist_ships_the_tests_notebooks_and_license(tmp_path: Path) -> None:
    import tarfile

    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("ipyminesweeper-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for required in [
        "LICENSE",
        "CONTRIBUTING.md",  # tests/test_docs.py checks its links
        "tests/widget/test_widget.py",
        "tests/browser/test_browser_marimo.py",
        "notebooks/01-play.ipynb",
        "notebooks/marimo/01-play.py",
        "js/widget.js",
        "src/ipyminesweeper/static/widget.js",
    ]:
        assert required in names, f"{required} missing from {sdist.name}"
    assert not [n for n in names if "node_modules" in n or "__pycache__" in n]


def test_readme_images_have_absolute_urls_under_the_source_url() -> None:
    """PyPI shows the README without the repository around it: relative images would break."""
    import re

    source = _pyproject()["project"]["urls"]["Source"].rstrip("/")
    raw = source.replace("https://github.com/", "https://raw.githubusercontent.com/") + "/main/"
    srcs = re.findall(r'<img src="([^"]+)"|!\[[^\]]*\]\(([^)]+)\)', (ROOT / "README.md").read_text())
    urls = [a or b for a, b in srcs]
    assert urls, "the README has no images"
    for url in urls:
        assert url.startswith(raw), f"README image {url!r} is not an absolute URL under {raw}"
        assert (ROOT / url[len(raw) :]).is_file(), f"{url} names no file of the repository"
