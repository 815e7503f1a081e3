"""Shared test setup: the widget's statistics file goes to a temporary Jupyter data directory, and
Hypothesis has no deadline (speed lives in the benchmarks, never in a timed test)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis' default deadline (200 ms an example) fails a right test on a busy machine: CI's last run
# failed on one example that took 307 ms at load 9. Whether the code is fast is the benchmarks' question.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


@pytest.fixture(autouse=True, scope="session")
def private_jupyter_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Never write the user's real statistics: JUPYTER_DATA_DIR points at a fresh directory."""
    path = tmp_path_factory.mktemp("jupyter-data")
    before = os.environ.get("JUPYTER_DATA_DIR")
    os.environ["JUPYTER_DATA_DIR"] = str(path)
    yield path
    if before is None:
        os.environ.pop("JUPYTER_DATA_DIR", None)
    else:
        os.environ["JUPYTER_DATA_DIR"] = before
