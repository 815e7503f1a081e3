"""One step function: the arena (games, benchmarks) and the widget's ``update`` play a strategy through
:func:`ipyminesweeper.strategies.step`, so a strategy that fails is reported the same way everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ipyminesweeper import Move, View, new_board, reveal
from ipyminesweeper.arena import benchmark, play, play_game
from ipyminesweeper.strategies import InvalidMoveError, StrategyError, ask, step, who
from ipyminesweeper.widget.messages import AddStrategy, FromBrowser, Step
from ipyminesweeper.widget.runtime_state import IDLE, runtime_update
from ipyminesweeper.widget.session_update import start, update

BROKEN = "your strategy 'broken' raised RuntimeError: my strategy is broken"
LAZY = "your strategy 'lazy' tried to reveal (4,4), but it is already revealed"


def broken(view: View) -> Move:
    raise RuntimeError("my strategy is broken")


def lazy(view: View) -> Move:
    return Move("reveal", (4, 4), "the middle, again")


def opened() -> Any:
    return reveal(new_board(9, 9, 10, seed=5), (4, 4))


RUNS: dict[str, Callable[[Callable[[View], Move]], object]] = {
    "step": lambda fn: step(opened(), fn),
    "ask": lambda fn: ask(opened(), fn),
    "arena.play": lambda fn: play(opened(), fn),
    "arena.play_game": lambda fn: play_game(fn, "beginner", 5, first_move=(4, 4)),
    "arena.benchmark": lambda fn: benchmark(fn, "beginner", games=2, seed=5, first_move=(4, 4), jobs=1),
}


@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
def test_a_failing_strategy_is_worded_for_a_student_wherever_it_runs(run: Callable[..., object]) -> None:
    with pytest.raises(StrategyError) as raised:
        run(broken)
    assert str(raised.value) == BROKEN
    assert isinstance(raised.value.__cause__, RuntimeError)  # the student's own traceback is kept
    with pytest.raises(InvalidMoveError) as invalid:
        run(lazy)
    assert str(invalid.value) == LAZY


def test_the_widget_reports_the_same_words() -> None:
    session, _ = update(start(opened()), AddStrategy("broken", broken))
    session, _ = update(session, AddStrategy("lazy", lazy))
    with pytest.raises(StrategyError, match=r"^your strategy 'broken' raised RuntimeError: my strategy"):
        update(session, Step("broken"))  # from Python: raised, as the arena does
    with pytest.raises(InvalidMoveError) as invalid:
        update(session, Step("lazy"))
    assert str(invalid.value) == LAZY
    _, failed, _ = runtime_update(IDLE, session, FromBrowser((Step("broken"),), 1))  # from the browser: shown
    assert failed.problem is not None and failed.problem.text == BROKEN
    _, refused, _ = runtime_update(IDLE, session, FromBrowser((Step("lazy"),), 2))
    assert refused.problem is not None and refused.problem.text == LAZY
    assert failed.board == refused.board == session.board  # nothing changed


def test_who_names_built_in_strategies_and_the_users() -> None:
    assert who("exact") == "strategy 'exact'"
    assert who("mine") == "your strategy 'mine'"


def test_a_long_message_is_cut() -> None:
    def chatty(view: View) -> Move:
        raise ValueError("x" * 1000)

    with pytest.raises(StrategyError) as raised:
        step(opened(), chatty)
    assert len(str(raised.value)) < 300 and str(raised.value).endswith("x…")
