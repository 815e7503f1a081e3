"""The widget's autoplayer: step, autoplay (sync and as a task), pause, strategies, probabilities."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _widget_helpers import browser_request, shown_overlay

from ipyminesweeper import GameOverError, Minesweeper, new_board, reveal
from ipyminesweeper.solver import probabilities
from ipyminesweeper.strategies import STRATEGIES, Move, exact, register_strategy


def first_covered(view: Any) -> Move:
    """A tiny strategy of our own: reveal the first covered cell."""
    i = view.cells.index(".")
    return Move("reveal", (i // view.cols, i % view.cols), "the first covered cell", None)


def test_builtin_strategies_are_offered() -> None:
    w = Minesweeper()
    assert w.strategies == list(STRATEGIES)
    assert w.strategy == "exact"


def test_step_plays_one_move_and_returns_it() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.register_strategy("first", first_covered)
    assert "first" in w.strategies
    move = w.step("first")
    assert move == Move("reveal", (0, 0), "the first covered cell", None)
    assert w.board.view[(0, 0)] != "."
    assert len(w.history) == 2
    assert w.last_move == {
        "action": "reveal",
        "row": 0,
        "col": 0,
        "reason": "the first covered cell",
        "probability": None,
        "score": None,
        "strategy": "first",
        "numbers": [],
        "constrained": [],
    }


def test_step_uses_the_selected_strategy_and_explains_it() -> None:
    w = Minesweeper(size=16, mines=40, seed=8)
    w.reveal(8, 8)
    move = w.step()
    assert isinstance(move, Move)
    assert w.last_move["reason"] == move.reason and move.reason
    assert (w.last_move["row"], w.last_move["col"]) == move.pos


def test_a_user_move_clears_the_last_move() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.step("exact")
    assert w.last_move
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert w.last_move == {}


def test_step_after_the_end_raises() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    mine = next(p for p in w.board.positions() if w.board.is_mine(p))
    w.reveal(*mine)
    with pytest.raises(GameOverError):
        w.step()


def test_a_callable_strategy_runs_without_being_registered() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.step(first_covered)
    assert "first_covered" not in w.strategies
    assert w.last_move["strategy"] == "first_covered"


def test_bad_strategy_names() -> None:
    w = Minesweeper()
    with pytest.raises(ValueError, match="unknown strategy"):
        w.step("nope")
    with pytest.raises(Exception, match="unknown strategy"):
        w.strategy = "nope"
    with pytest.raises(ValueError):
        w.register_strategy("", first_covered)
    with pytest.raises(TypeError):
        w.register_strategy("x", 42)  # type: ignore[arg-type]


def test_globally_registered_strategies_appear() -> None:
    name = "test-widget-first-covered"
    register_strategy(name, first_covered, replace=True)
    try:
        w = Minesweeper(size=9, mines=10, seed=8)
        assert name in w.strategies
        w.strategy = name
        assert w.step().pos == (0, 0)
    finally:
        STRATEGIES.pop(name, None)


def test_autoplay_without_a_loop_plays_to_the_end() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    assert w.autoplay("exact") is None
    assert w.status in ("won", "lost")
    assert w.autoplaying is False
    assert w.strategy == "exact"
    assert w.ended_at > 0


def test_autoplay_respects_the_move_limit() -> None:
    w = Minesweeper(size=16, mines=40, seed=8)
    w.autoplay("exact", moves=3)
    assert len(w.history) == 4
    w.autoplay("exact", moves=0)
    assert len(w.history) == 4
    with pytest.raises(ValueError):
        w.autoplay(moves=-1)
    with pytest.raises(TypeError):
        w.autoplay(moves=True)


def test_the_move_limit_stops_a_strategy_that_never_finishes() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    spot = next(p for p in w.board.positions() if w.board.view[p] == ".")
    calls: list[int] = []

    def flip_flop(view: Any) -> Move:  # flags and unflags the same cell forever
        calls.append(1)
        return Move("flag", spot, "flip", None)

    w.autoplay(flip_flop, moves=50)
    assert len(calls) == 50 and w.autoplaying is False
    assert w.board.view[spot] == "."  # an even number of toggles


def test_an_invalid_move_stops_the_synchronous_autoplayer_with_an_error() -> None:
    w = Minesweeper(size=9, mines=10, seed=8)
    w.reveal(4, 4)
    revealed = next(p for p in w.board.positions() if w.board.view[p] not in ".f")

    def bad(view: Any) -> Move:
        return Move("reveal", revealed, "oops", None)

    with pytest.raises(ValueError, match="already revealed"):
        w.autoplay(bad)
    assert w.autoplaying is False and len(w.history) == 2


def test_autoplay_in_a_running_loop_does_not_block() -> None:
    async def main() -> None:
        w = Minesweeper(size=16, mines=40, seed=8)
        task = w.autoplay("exact", delay=0.01)
        assert isinstance(task, asyncio.Task)
        assert w.autoplaying is True
        assert len(w.history) == 1  # nothing played yet: autoplay returned at once
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5  # the loop stayed free for us
        assert len(w.history) > 1
        w.pause()
        assert w.autoplaying is False
        await asyncio.sleep(0.05)
        assert task.done()
        n = len(w.history)
        await asyncio.sleep(0.05)
        assert len(w.history) == n  # paused means paused

    asyncio.run(main())


def test_autoplay_task_finishes_the_game_and_is_awaitable() -> None:
    async def main() -> Minesweeper:
        w = Minesweeper(size=9, mines=10, seed=8)
        await w.autoplay("exact", delay=0)  # type: ignore[misc]
        return w

    w = asyncio.run(main())
    assert w.status in ("won", "lost") and w.autoplaying is False


def test_play_and_pause_messages() -> None:
    async def main() -> None:
        w = Minesweeper(size=16, mines=40, seed=8)
        w.delay = 0.01
        browser_request(w, {"action": "play"})
        assert w.autoplaying is True
        await asyncio.sleep(0.05)
        browser_request(w, {"action": "pause"})
        assert w.autoplaying is False
        n = len(w.history)
        assert n > 1
        await asyncio.sleep(0.05)
        assert len(w.history) == n

    asyncio.run(main())


def test_new_game_pauses_the_autoplayer() -> None:
    async def main() -> None:
        w = Minesweeper(size=16, mines=40, seed=8)
        w.autoplay("exact", delay=0.01)
        await asyncio.sleep(0.03)
        w.new_game()
        assert w.autoplaying is False
        await asyncio.sleep(0.05)
        assert w.status == "ready"

    asyncio.run(main())


def test_autoplay_reports_a_strategy_error() -> None:
    def broken(view: Any) -> Move:
        raise RuntimeError("boom")

    async def main() -> Minesweeper:
        w = Minesweeper(size=9, mines=10, seed=8)
        task = w.autoplay(broken, delay=0)
        assert task is not None
        await task
        return w

    w = asyncio.run(main())
    assert "boom" in w.error and w.autoplaying is False
    assert len(w.history) == 1


def around(i: int, n: int = 16) -> list[int]:
    r, c = divmod(i, n)
    return [
        (r + dr) * n + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n
    ]


def test_probabilities_overlay_matches_the_solver_and_only_covers_covered_cells() -> None:
    w = Minesweeper(size=16, mines=40, seed=8)
    w.reveal(8, 8)
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert w.probabilities == {}
    w.show_probabilities = True
    expected = probabilities(w.board.view)
    assert w.probabilities
    shown = shown_overlay(w)
    for i, p in shown.items():
        assert w.cells[i] in ".f"
        assert p == pytest.approx(expected[(i // 16, i % 16)], abs=1e-4)
    assert len(shown) == sum(ch in ".f" for ch in w.cells)
    # listed one by one: the cells next to a number; "*": the others, which no number tells apart
    frontier = {
        i for i in range(256) if w.cells[i] in ".f" and any(w.cells[j] in "012345678" for j in around(i))
    }
    assert {int(k) for k in w.probabilities if k != "*"} == frontier
    w.step("exact")
    assert all(w.cells[int(k)] in ".f" for k in w.probabilities if k != "*")  # recomputed per move
    w.show_probabilities = False
    assert w.probabilities == {}


def test_step_explains_an_isolated_region_and_unflags_a_cell_it_must_reveal() -> None:
    # expert seed 32000118 after 184 moves of exact: seven covered cells around (14,7) are closed off
    # (tests/strategies/test_guess.py, CLOSED_OFF); the widget shows the search's reason
    board = new_board("expert", seed=32000118, first_click="opening")
    for _ in range(184):
        board = reveal(board, exact(board.view).pos)
    w = Minesweeper(board=board)
    w.flag(14, 7)  # the player's flag on the cell the search picks
    move = w.step()
    assert (move.action, move.pos) == ("flag", (14, 7))
    assert w.board.view[(14, 7)] == "."
    assert w.last_move["reason"].startswith("unflag (14,7), to reveal it next: (14,7) is a guess")
    move = w.step()
    assert (move.action, move.pos) == ("reveal", (14, 7))
    assert "closed-off group of 7 covered cells" in w.last_move["reason"]
    assert w.last_move["probability"] == pytest.approx(1 / 3, abs=1e-4)
