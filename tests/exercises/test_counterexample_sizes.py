"""Every mistake of the project's own check tests, against what the checks said of it before the
smallest examples came first (issue 56, at ``1bd8776``, in ``counterexample_sizes.json``): the same
properties hold, and no counterexample shown is bigger (its board's cells, then its call's length)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import test_exercise_elm as elm
import test_exercise_moves as moves
import test_exercise_probabilities as probabilities
import test_exercise_strategy as strategy

from ipyminesweeper.exercises import (
    Check,
    check_chord,
    check_probabilities,
    check_replay,
    check_strategy,
    check_toggle_flag,
    check_update,
    check_view,
)

pytestmark = pytest.mark.slow

BEFORE: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).with_name("counterexample_sizes.json")).read_text(encoding="utf-8")
)


def _update(fn: Any) -> Check:
    return check_update(fn, elm.Game, elm.Reveal, elm.Flag, elm.Undo, elm.NewGame)


def _view(fn: Any) -> Check:
    return check_view(fn, elm.Game)


CHECKS: list[tuple[str, list[Any], Callable[[Any], Check]]] = [
    ("chord", moves.WRONG_CHORDS, check_chord),
    ("toggle_flag", moves.WRONG_TOGGLES, check_toggle_flag),
    ("replay", moves.WRONG_REPLAYS, check_replay),
    ("update", elm.WRONG, _update),
    ("view", elm.WRONG_VIEWS, _view),
    ("probabilities", probabilities.WRONG, check_probabilities),
    ("strategy", strategy.WRONG, check_strategy),
]
CASES = [(f"{kind}:{fn.__name__}", fn, check) for kind, wrong, check in CHECKS for fn in wrong]


def test_every_mistake_is_recorded() -> None:
    assert sorted(name for name, _, _ in CASES) == sorted(BEFORE)


@pytest.mark.parametrize(("name", "fn", "check"), CASES, ids=[name for name, _, _ in CASES])
def test_the_same_verdict_and_no_bigger_counterexample(
    name: str, fn: Callable[..., Any], check: Callable[[Any], Check]
) -> None:
    found = check(fn)
    before = BEFORE[name]
    assert [p.held for p in found.properties] == before["held"]
    shown = found.counterexample
    assert shown is not None
    board = shown.board
    size = [board.rows * board.cols if board is not None else 0, len(shown.call)]
    assert size <= before["size"], (shown.call, shown.summary)
