"""Packaging: the engine needs only the standard library, and the wheel ships the front end."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PURE_MODULES = [
    "ipyminesweeper",
    "ipyminesweeper.engine",
    "ipyminesweeper.solver",
    "ipyminesweeper.play",
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
