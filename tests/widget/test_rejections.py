"""A rejected call changes nothing: the session, every synced traitlet and the history stay as they were."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from _widget_helpers import browser_request
from traitlets import TraitError

from ipyminesweeper import Minesweeper, Move, View, new_board


def broken(view: View) -> Move:
    raise RuntimeError("my strategy is broken")


def revealed_again(view: View) -> Move:
    i = next(i for i, ch in enumerate(view.cells) if ch.isdigit())
    return Move("reveal", view.position(i), "oops")


def everything(w: Minesweeper) -> tuple[Any, ...]:
    """The widget's state, but for the problem it shows and the browser's requests answered."""
    state = w.get_state()
    synced = {k: v for k, v in state.items() if k not in ("error", "error_details", "requests", "handled")}
    books = replace(w.runtime_state, handled=0)
    return (replace(w.session, problem=None), books, tuple(w.history), synced)


def playing() -> Minesweeper:
    w = Minesweeper(size=9, mines=10, seed=5, strategy="simple", delay=0.5)
    w.reveal(4, 4)
    w.flag(*next(p for p in w.board.positions() if w.board.view[p] == "."))
    return w


REJECTED: list[tuple[str, Callable[[Minesweeper], object]]] = [
    ("w.board = str", lambda w: setattr(w, "board", ".....")),
    ("w.board = int", lambda w: setattr(w, "board", 5)),
    ("reveal off the board", lambda w: w.reveal(99, 0)),
    ("reveal a str row", lambda w: w.reveal("a", 0)),  # type: ignore[arg-type]
    ("flag a negative col", lambda w: w.flag(0, -1)),
    ("chord off the board", lambda w: w.chord(0, 9)),
    ("step an unknown name", lambda w: w.step("nope")),
    ("step a non-strategy", lambda w: w.step(42)),  # type: ignore[arg-type]
    ("step a raising strategy", lambda w: w.step(broken)),
    ("step an invalid move", lambda w: w.step(revealed_again)),
    ("autoplay an unknown name", lambda w: w.autoplay("nope")),
    ("autoplay with a negative delay", lambda w: w.autoplay("exact", delay=-1)),
    ("autoplay with a str delay", lambda w: w.autoplay("exact", delay="x")),  # type: ignore[arg-type]
    ("autoplay a negative move count", lambda w: w.autoplay("exact", moves=-1)),
    ("autoplay a bool move count", lambda w: w.autoplay("exact", moves=True)),
    ("autoplay a raising strategy, synchronously", lambda w: w.autoplay(broken)),
    ("new_game an unknown level", lambda w: w.new_game("nope")),
    ("new_game size 0", lambda w: w.new_game(size=0)),
    ("new_game over the cap", lambda w: w.new_game(size=10**6)),
    ("new_game too many mines", lambda w: w.new_game(size=5, mines=25)),
    ("new_game a negative seed", lambda w: w.new_game(seed=-1)),
    ("new_game a huge seed", lambda w: w.new_game(seed=10**5000)),
    ("new_game an unknown first click", lambda w: w.new_game(first_click="maybe")),
    ("new_game a board and a size", lambda w: w.new_game(new_board(5, 5, 2), size=5)),
    ("select an unknown strategy", lambda w: setattr(w, "strategy", "nope")),
    ("a negative delay", lambda w: setattr(w, "delay", -1.0)),
    ("an infinite delay", lambda w: setattr(w, "delay", float("inf"))),
    ("a str for the overlay", lambda w: setattr(w, "show_probabilities", "yes")),
    ("register an empty name", lambda w: w.register_strategy("", broken)),
    ("register over a built-in", lambda w: w.register_strategy("exact", broken)),
    ("register a non-callable", lambda w: w.register_strategy("mine", 42)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call", [c for _, c in REJECTED], ids=[name for name, _ in REJECTED])
def test_a_rejected_call_raises_and_changes_nothing(call: Callable[[Minesweeper], object]) -> None:
    w = playing()
    before = everything(w)
    with pytest.raises(Exception) as info:
        call(w)
    clear = (ValueError, TypeError, TraitError)  # TraitError: traitlets' own error for an assignment
    assert isinstance(info.value, clear), f"a clear error, not {info.value!r}"
    assert everything(w) == before


def test_a_failing_strategy_reaches_the_notebook_with_its_traceback() -> None:
    w = playing()
    with pytest.raises(ValueError, match="my strategy is broken") as info:
        w.step(broken)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert w.last_error is info.value
    frames = []
    tb = info.value.__cause__.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert "broken" in frames, "the user's own frame is in the traceback"


def test_a_failing_strategy_in_the_browser_shows_its_traceback() -> None:
    w = playing()
    w.register_strategy("mine", broken, select=True)
    before = everything(w)
    browser_request(w, {"action": "step"})
    assert "my strategy is broken" in w.error
    assert "RuntimeError: my strategy is broken" in w.error_details and "in broken" in w.error_details
    assert everything(w) == before
    w.reveal(*next(p for p in w.board.positions() if w.board.view[p] == "." and not w.board.is_mine(p)))
    assert w.error == "" and w.error_details == "", "a message that applies clears the error"


def test_a_huge_action_name_is_not_echoed_back() -> None:
    w = playing()
    browser_request(w, {"action": "x" * 1_000_000})
    assert 0 < len(w.error) <= 300


def test_the_log_gets_the_cut_text_too(caplog: pytest.LogCaptureFixture) -> None:
    w = playing()
    browser_request(w, {"action": "reveal", "row": "y" * 1_000_000, "col": 0})
    assert caplog.records and all(len(r.getMessage()) <= 400 for r in caplog.records)


def test_step_with_a_callable_does_not_grow_the_menu() -> None:
    w = playing()
    names = list(w.strategies)
    for _ in range(200):
        with pytest.raises(ValueError):
            w.step(broken)
    assert w.strategies == names


def test_a_failing_strategy_is_worded_for_a_student() -> None:
    w = playing()
    w.register_strategy("bad", broken, select=True)
    browser_request(w, {"action": "step"})
    assert w.error == "your strategy 'bad' raised RuntimeError: my strategy is broken"
    assert w.error_details.startswith("Traceback") and 'raise RuntimeError("my strategy is broken")' in (
        w.error_details
    )
    with pytest.raises(ValueError, match="my strategy is broken"):
        w.autoplay("bad", delay=0)  # no event loop here: the run raises, and the widget says the same
    assert w.error == "your strategy 'bad' raised RuntimeError: my strategy is broken"


@pytest.mark.parametrize("score", ["high", 10**400, float("inf")])
def test_a_move_with_a_bad_score_is_refused_where_it_is_made(score: object) -> None:
    def scoring(view: View) -> Move:
        return Move("flag", view.position(view.cells.index(".")), "a guess", score=score)  # type: ignore[arg-type]

    w = playing()
    w.register_strategy("scoring", scoring, select=True)
    before = everything(w)
    browser_request(w, {"action": "step"})
    assert w.error.startswith("your strategy 'scoring' raised ValueError: a Move's score is a finite number")
    assert everything(w) == before
    with pytest.raises(ValueError, match="score is a finite number"):
        w.step("scoring")
