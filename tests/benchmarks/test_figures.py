"""The figures file and the guard of ``make bench-check``: ratios to the reference loop, 25% tolerance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from benchmarks.figures import CONFIRM_RUNS, best_of, check, compare, record, take, write

from benchmarks import figures


def run(value: float, reference: float, *, better: str = "lower", guard: bool = True) -> dict[str, Any]:
    figure = {"value": value, "unit": "us", "better": better, "guard": guard}
    info = {"commit": "abc", "date": "today", "load": [0.1, 0.1, 0.1], "reference_s": reference}
    return {"pure": {"engine": {**info, "figures": {"toggle_flag": figure}}}}


def test_a_figure_more_than_a_quarter_worse_is_a_regression() -> None:
    lines, worse = compare(run(4.0, 0.02), run(5.2, 0.02))
    assert worse == 1 and "REGRESSION" in lines[-1] and "1.30x" in lines[-1]
    assert compare(run(4.0, 0.02), run(4.8, 0.02))[1] == 0


def test_figures_compare_as_ratios_to_the_reference_loop() -> None:
    """A machine twice as slow (or busy) runs the loop and the figure twice as slowly: no regression."""
    assert compare(run(4.0, 0.02), run(8.0, 0.04))[1] == 0
    assert compare(run(4.0, 0.02), run(8.0, 0.02))[1] == 1
    rates = compare(run(2.0, 0.02, better="higher"), run(1.5, 0.02, better="higher"))
    assert rates[1] == 1 and "1.33x" in rates[0][-1]


def test_only_guarded_figures_and_committed_suites_are_compared() -> None:
    assert compare(run(4.0, 0.02, guard=False), run(9.0, 0.02, guard=False))[1] == 0
    lines, worse = compare({}, run(9.0, 0.02))
    assert worse == 0 and "no committed figures" in lines[0]


def test_write_keeps_the_other_suites_and_says_what_ran(tmp_path: Path) -> None:
    path = tmp_path / "figures.json"
    path.write_text(json.dumps({"pure": {"solver": {"figures": {}}}, "compiled": {"engine": {}}}))
    take()
    record("engine", "toggle_flag", 4.0, "us", better="lower", guard=True)
    write(path, take(), 0.02)
    data = json.loads(path.read_text())
    build = next(b for b in data if "engine" in data[b] and data[b]["engine"].get("figures"))
    engine = data[build]["engine"]
    assert {"commit", "date", "machine", "python", "build", "load", "reference_s"} <= engine.keys()
    assert engine["figures"]["toggle_flag"]["per_reference"] == 200.0
    assert "solver" in data["pure"] and "engine" in data["compiled"]


def test_best_of_keeps_each_figure_with_the_reference_of_its_best_run() -> None:
    """Run 1 was slow for the flag only when measured; run 2 ran everything slowly (reference too)."""
    slow = run(6.0, 0.02)
    busy = run(8.0, 0.04)  # twice the time, but so was the loop: ratio 200, better than run 1's 300
    best = best_of([slow, busy])["pure"]["engine"]["figures"]["toggle_flag"]
    assert (best["value"], best["reference_s"]) == (8.0, 0.04)
    assert compare(run(4.0, 0.02), best_of([slow, busy]))[1] == 0
    assert compare(run(4.0, 0.02), best_of([slow]))[1] == 1
    rates = best_of([run(1.0, 0.02, better="higher"), run(3.0, 0.02, better="higher")])
    assert rates["pure"]["engine"]["figures"]["toggle_flag"]["value"] == 3.0


def _check_with_runs(monkeypatch: pytest.MonkeyPatch, values: list[float]) -> tuple[int, int]:
    """``check()`` against a committed 4.0 us, its runs giving ``values`` in turn: (exit code, runs)."""
    made: list[float] = []

    def fake_run(suites: list[str], out: Path) -> None:
        made.append(values[len(made)])
        out.write_text(json.dumps(run(made[-1], 0.02)))

    monkeypatch.setattr(figures, "_git", lambda *args: json.dumps(run(4.0, 0.02)))
    monkeypatch.setattr(figures, "run", fake_run)
    return check(("engine",)), len(made)


def test_check_runs_again_to_confirm_and_reports_only_a_lasting_regression(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _check_with_runs(monkeypatch, [4.1]) == (0, 1)  # no regression: one run
    assert _check_with_runs(monkeypatch, [6.0, 4.2]) == (0, 2)  # a slow moment, not confirmed
    assert _check_with_runs(monkeypatch, [6.0, 5.5, 5.8]) == (1, CONFIRM_RUNS)  # worse every time
