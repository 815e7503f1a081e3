"""The time limit's tests (tests/exercises/test_check_limits.py) in the offline site's own Pyodide, run
under node: there the limit has no timer, and watches the student's code with ``sys.monitoring``
(Python 3.14). The site's wheels (Hypothesis) are loaded; this tree's src/ is the package, and pytest
comes from this environment (pure Python)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from _lite_support import ROOT

pytestmark = pytest.mark.slow

WHEELS = ("hypothesis-", "sortedcontainers-", "typing_extensions-")


def test_the_time_limit_holds_in_the_sites_pyodide(lite_site: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node: run `make node`")
    lock = lite_site / "static" / "pyodide-lock"
    wheels = [str(w) for w in sorted(lock.glob("*.whl")) if w.name.startswith(WHEELS)]
    assert len(wheels) == len(WHEELS), wheels
    purelib = Path(pytest.__file__).resolve().parents[1]
    script = Path(__file__).with_name("pyodide_pytest.mjs")
    test = "tests/exercises/test_check_limits.py"
    run = subprocess.run(
        [node, str(script), str(lite_site), str(ROOT), str(purelib), *wheels, "--", "-q", "-rs", test],
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-4000:]
    assert " passed" in out and "failed" not in out, out[-2000:]
    assert "traces lines" not in out, "sys.monitoring was not used: " + out[-2000:]  # (a skip's reason)
