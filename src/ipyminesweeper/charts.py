"""Charts as data: a Vega-Lite spec with a text fallback, drawn by the notebook frontend itself.

A :class:`Chart` is displayed with the MIME type ``application/vnd.vegalite.v5+json``, which JupyterLab,
Notebook 7, the JupyterLite site, VS Code and marimo render with no Python plotting library and no
network; a plain terminal or a viewer without Vega-Lite shows the ``text/plain`` chart. ``chart.spec``
is the Vega-Lite dict: save it as JSON, or hand it to Altair.

>>> chart = win_rates([("simple", 30, 60, (0.37, 0.63)), ("exact", 54, 60, (0.80, 0.95))], "beginner")
>>> print(chart.text.splitlines()[1])
 simple |###############               |  50%  (37%-63%)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .engine.escape import terminal_text

__all__ = ["VEGA_LITE", "Chart", "win_rates"]

VEGA_LITE = "application/vnd.vegalite.v5+json"
"""The MIME type of a Vega-Lite 5 spec."""


@dataclass(frozen=True)
class Chart:
    """A chart as a Vega-Lite spec (``spec``) and the same numbers as plain text (``text``)."""

    spec: Mapping[str, Any]
    text: str

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        return {VEGA_LITE: dict(self.spec), "text/plain": self.text}

    def __str__(self) -> str:
        return self.text


class _Result(Protocol):  # a row of a tournament table (ipyminesweeper.strategies.BenchResult), read only
    @property
    def strategy(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def ci(self) -> tuple[float, float]: ...


Row = tuple[str, int, int, Sequence[float]]
"""``(name, wins, games, (low, high))``: one bar."""


def win_rates(results: Iterable[_Result] | Iterable[Row], title: str = "") -> Chart:
    """A bar per strategy: the share of games won, with its 95% confidence interval as an error bar.

    ``results`` is a tournament's table (its rows have ``strategy``, ``wins``, ``games`` and ``ci``) or
    ``(name, wins, games, (low, high))`` tuples. ``title`` says what was played (e.g. the level).
    """
    rows = [_row(r) for r in results]
    if not rows:
        raise ValueError("win_rates needs at least one result to draw")
    values = [
        {"strategy": name, "won": wins / games, "low": low, "high": high, "wins": wins, "games": games}
        for name, wins, games, (low, high) in rows
    ]
    heading = f"Games won, with 95% intervals{': ' + title if title else ''}"
    axis_x = {"field": "strategy", "type": "nominal", "sort": None, "title": None, "axis": {"labelAngle": 0}}
    spec: dict[str, Any] = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": heading,
        "width": {"step": 56},
        "height": 200,
        "data": {"values": values},
        "encoding": {"x": axis_x},
        "layer": [
            {
                "mark": {"type": "bar", "color": "#4c78a8"},
                "encoding": {
                    "y": {
                        "field": "won",
                        "type": "quantitative",
                        "title": "games won",
                        "scale": {"domain": [0, 1]},
                        "axis": {"format": "%"},
                    },
                    "tooltip": [
                        {"field": "strategy", "type": "nominal"},
                        {"field": "won", "type": "quantitative", "format": ".1%", "title": "won"},
                        {"field": "wins", "type": "quantitative"},
                        {"field": "games", "type": "quantitative"},
                        {"field": "low", "type": "quantitative", "format": ".1%", "title": "95% from"},
                        {"field": "high", "type": "quantitative", "format": ".1%", "title": "95% to"},
                    ],
                },
            },
            {
                "mark": {"type": "rule", "color": "#1f2937"},
                "encoding": {"y": {"field": "low", "type": "quantitative"}, "y2": {"field": "high"}},
            },
            {
                "mark": {"type": "text", "dy": -8, "color": "#374151"},
                "encoding": {
                    "y": {"field": "high", "type": "quantitative"},
                    "text": {"field": "won", "type": "quantitative", "format": ".0%"},
                },
            },
        ],
    }
    return Chart(spec, _text(heading, rows))


def _row(result: _Result | Row) -> Row:
    if isinstance(result, tuple):
        name, wins, games, ci = result
    else:
        name, wins, games, ci = result.strategy, result.wins, result.games, result.ci
    if not isinstance(games, int) or games <= 0 or not isinstance(wins, int) or not 0 <= wins <= games:
        raise ValueError(f"{name!r}: wins must be an int from 0 to games, and games at least 1")
    return str(name), wins, games, (float(ci[0]), float(ci[1]))


def _text(heading: str, rows: list[Row]) -> str:
    """The chart for a terminal: a name shows as text (:func:`terminal_text`), never as a control."""
    names = [terminal_text(name) for name, *_ in rows]
    width = max(len(name) for name in names)
    lines = [terminal_text(heading)]
    for name, (_, wins, games, (low, high)) in zip(names, rows, strict=True):
        bar = "#" * round(30 * wins / games)
        lines.append(f"{name:>{width + 1}} |{bar:<30}| {wins / games:4.0%}  ({low:.0%}-{high:.0%})")
    return "\n".join(lines)
