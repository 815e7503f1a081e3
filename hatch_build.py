"""The wheel's build hook: the solver's hot modules compiled with mypyc when asked, else pure Python.

One typed source, two builds. ``IPYMINESWEEPER_COMPILE`` chooses:

- unset or ``0``: the pure-Python wheel (``py3-none-any``), for Pyodide and every machine;
- ``auto``: compiled where a C compiler and Python's headers work, else the pure wheel, said so;
- ``1``: compiled, or the build fails.

The modules compiled are ``compile`` in ``[tool.hatch.build.targets.wheel.hooks.custom]`` of
pyproject.toml; hatch-mypyc compiles them (the ``compile`` dependency group, fetched only for a compiled
build). An
editable install is always pure: a compiled module would hide the source being edited. Every build says
which it made on its output (``pip install -v`` shows it), and ``python -m ipyminesweeper --version``
says which one is installed.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODES = ("0", "auto", "1")


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the configured modules with hatch-mypyc, or say that the wheel is pure Python."""

    PLUGIN_NAME = "custom"

    def mode(self) -> str:
        mode = os.environ.get("IPYMINESWEEPER_COMPILE", "0").strip().lower() or "0"
        if mode not in MODES:
            raise ValueError(f"IPYMINESWEEPER_COMPILE is one of {', '.join(MODES)}, not {mode!r}")
        return mode

    def dependencies(self) -> list[str]:
        """The ``compile`` dependency group of pyproject.toml, for a compiled build only."""
        if self.mode() == "0":
            return []
        return list(self.metadata.config.get("dependency-groups", {}).get("compile", []))

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        mode = self.mode()
        if mode == "0":
            return self.say("a pure-Python wheel (IPYMINESWEEPER_COMPILE=1 compiles the solver with mypyc)")
        if version == "editable":
            return self.say("an editable install: the pure-Python modules (a compiled one would hide edits)")
        problem = compiler_problem()
        if problem:
            if mode == "1":
                raise RuntimeError(f"IPYMINESWEEPER_COMPILE=1 but {problem}")
            return self.say(f"a pure-Python wheel: {problem}")
        from hatch_mypyc.plugin import MypycBuildHook  # type: ignore[import-not-found, unused-ignore]

        config = {
            "include": list(self.config["compile"]),
            "mypy-args": list(self.config.get("mypy-args", [])),
            "options": dict(self.config.get("options", {})),
        }
        hook = MypycBuildHook(
            self.root, config, self.build_config, self.metadata, self.directory, self.target_name, self.app
        )
        hook.initialize(version, build_data)
        self.say(f"compiled with mypyc: {', '.join(config['include'])}")

    def say(self, what: str) -> None:
        self.app.display_info(f"ipyminesweeper: {what}")


def compiler_problem() -> str | None:
    """Why no extension module can be compiled here (no C compiler, no Python headers); None if one can."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"Python's C headers are missing ({headers})"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "probe.c"
        source.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        command = [*compiler, "-I", str(headers.parent), "-c", str(source), "-o", str(Path(scratch) / "p.o")]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as error:
            return f"no C compiler ({compiler[0]}: {error.strerror})"
    if done.returncode:
        return f"no working C compiler ({shlex.join(compiler)} exits {done.returncode})"
    return None
