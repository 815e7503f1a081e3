"""The course's three editions, built once for the tests that need them (``make course``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipyminesweeper.classroom.editions import build_course

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``dist/course`` for these tests: student/, teacher/ and autograder/, from notebooks/."""
    out = tmp_path_factory.mktemp("course")
    build_course(NOTEBOOKS, out)
    return out
