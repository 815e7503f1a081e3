"""``python -m benchmarks lite`` against a commit: the commit's tree, the child's measure, the report."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from benchmarks import bench_lite

ROOT = Path(__file__).resolve().parents[2]


def test_reference_tree_is_the_commit_as_committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_lite, "WORK", tmp_path)
    tree = bench_lite.reference_tree("HEAD")
    committed = subprocess.run(
        ["git", "show", "HEAD:src/ipyminesweeper/strategies/exact.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    assert (tree / "src/ipyminesweeper/strategies/exact.py").read_text() == committed
    assert (tree / "pyproject.toml").is_file() and not list(tmp_path.glob("*.partial"))
    assert bench_lite.reference_tree("HEAD") == tree  # kept: the second run unpacks nothing


def test_reference_tree_clears_what_a_stopped_run_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_lite, "WORK", tmp_path)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    stale = tmp_path / f"at-{sha.strip()[:12]}.partial"
    (stale / "src").mkdir(parents=True)
    (stale / "src" / "leftover.py").write_text("x = 1\n")
    tree = bench_lite.reference_tree("HEAD")
    assert not (tree / "src" / "leftover.py").exists() and not stale.exists()


def test_reference_tree_refuses_what_is_no_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_lite, "WORK", tmp_path)
    with pytest.raises(SystemExit, match="names no commit"):
        bench_lite.reference_tree("no-such-commit-anywhere")
    assert list(tmp_path.iterdir()) == []


def test_measure_in_child_plays_the_tree_it_is_given() -> None:
    got = bench_lite.measure_in_child(ROOT / "src", 2, 910000)
    here = bench_lite.measure(2, 910000)
    assert got["games"] == 2 and got["outcomes"] == here["outcomes"] and got["runtime"].startswith("CPython")


def _row(n: int, code: str, py: float, cp: float, won: str = "01") -> dict[str, Any]:
    run = {"runtime": "R", "chromium": "C", "wins": won.count("1"), "outcomes": won}
    return {
        "round": n,
        "code": code,
        "pyodide": {**run, "games_per_second": py},
        "cpython": {**run, "games_per_second": cp},
    }


def test_report_gives_each_round_and_the_ratio_of_the_medians() -> None:
    rows = [
        _row(1, bench_lite.THIS_TREE, 15.0, 20.0),
        _row(1, "abc", 5.0, 10.0),
        _row(2, bench_lite.THIS_TREE, 12.0, 24.0),
        _row(2, "abc", 8.0, 12.0),
        _row(3, bench_lite.THIS_TREE, 14.0, 22.0),
        _row(3, "abc", 7.0, 11.0),
    ]
    text = bench_lite.report_versus({"games": 2, "seed": 5, "vs": "abc", "rounds": rows})
    assert bench_lite.medians(rows, bench_lite.THIS_TREE) == (14.0, 22.0)
    assert bench_lite.medians(rows, "abc") == (7.0, 11.0)
    assert "| 1 | abc | 5.00 | 10.00 | 0.50x |" in text
    assert "This tree / abc: 2.00x in Pyodide, 2.00x in CPython." in text


def test_same_games_tells_the_codes_apart_from_a_run_gone_wrong() -> None:
    same = [_row(1, bench_lite.THIS_TREE, 1.0, 1.0), _row(1, "abc", 1.0, 1.0)]
    assert bench_lite.same_games(same) == "every run won the same 1 games"
    moved = [_row(1, bench_lite.THIS_TREE, 1.0, 1.0), _row(1, "abc", 1.0, 1.0, won="11")]
    assert "the two codes different ones" in bench_lite.same_games(moved)
    wrong = [
        _row(1, bench_lite.THIS_TREE, 1.0, 1.0),
        _row(2, bench_lite.THIS_TREE, 1.0, 1.0, won="11"),
        _row(1, "abc", 1.0, 1.0),
    ]
    assert bench_lite.same_games(wrong).startswith("NOT the same games")
