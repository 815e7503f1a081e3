"""The two builds from one source: the pure wheel by default, the compiled one only when asked and able."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def hook_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_working_c_compiler_the_build_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    hatch_build = hook_module()
    monkeypatch.setenv("CC", "false")
    assert hatch_build.compiler_problem() == "no working C compiler (false exits 1)"
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert hatch_build.compiler_problem().startswith("no C compiler (/nonexistent/cc:")


def test_the_default_wheel_is_pure_python_and_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "IPYMINESWEEPER_COMPILE"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-v",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    (wheel,) = tmp_path.glob("ipyminesweeper-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    assert "ipyminesweeper: a pure-Python wheel" in done.stdout + done.stderr


def test_the_command_line_says_which_build_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ipyminesweeper", "--version"], capture_output=True, text=True, check=True
    )
    from ipyminesweeper.arena.cli import compiled_modules

    expected = "compiled with mypyc" if compiled_modules() else "pure Python"
    assert done.stdout.startswith("ipyminesweeper ") and expected in done.stdout
