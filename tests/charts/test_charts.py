"""The tournament chart: a Vega-Lite 5 spec with the MIME type frontends render natively, and the same
numbers as text; no plotting library (notebook 03 draws it, tests/lite and tests/notebooks look at it)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ipyminesweeper import simple, tournament
from ipyminesweeper.arena import Table
from ipyminesweeper.charts import VEGA_LITE, Chart, Row, win_rates


@pytest.fixture(scope="module")
def table() -> Table:
    return tournament({"simple": simple, "first": "scored"}, "beginner", games=12, jobs=1)


def test_a_tournament_chart_is_a_vega_lite_spec_and_text(table: Table) -> None:
    chart = win_rates(table, "beginner")
    bundle = chart._repr_mimebundle_()
    assert set(bundle) == {VEGA_LITE, "text/plain"} and VEGA_LITE == "application/vnd.vegalite.v5+json"
    spec = bundle[VEGA_LITE]
    assert spec["$schema"].endswith("/vega-lite/v5.json")
    assert json.loads(json.dumps(spec)) == spec  # plain JSON: it travels in the notebook file
    values = spec["data"]["values"]
    assert [v["strategy"] for v in values] == ["simple", "first"]
    for value, result in zip(values, table, strict=True):
        assert value["won"] == result.win_rate and (value["low"], value["high"]) == result.ci
        assert value["wins"] == result.wins and value["games"] == 12
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "rule", "text"]
    lines = bundle["text/plain"].splitlines()
    assert lines[0] == "Games won, with 95% intervals: beginner" and len(lines) == 3
    assert lines[1].lstrip().startswith("simple |") and f"{table.results[0].win_rate:4.0%}" in lines[1]


def test_rows_can_be_given_as_tuples() -> None:
    chart = win_rates([("a", 3, 4, (0.3, 0.95)), ("b", 0, 4, (0.0, 0.5))])
    assert isinstance(chart, Chart) and str(chart) == chart.text
    assert "|" + " " * 30 + "|   0%" in chart.text
    assert chart.spec["data"]["values"][0]["won"] == 0.75


@pytest.mark.parametrize(
    "rows",
    [[], [("a", 5, 4, (0, 1))], [("a", 1, 0, (0, 1))], [("a", 1.5, 4, (0, 1))]],
    ids=["no rows", "more wins than games", "no games", "a float"],
)
def test_impossible_rows_are_refused(rows: list[Row]) -> None:
    with pytest.raises(ValueError, match="win"):
        win_rates(rows)


def test_no_plotting_library_is_imported() -> None:
    code = (
        "import sys, ipyminesweeper.charts\n"
        "print(sorted(m for m in ('matplotlib', 'numpy', 'altair') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
