"""All or nothing, rendering included: the reproducers of issue 20, each leaving the widget as it was.

The shell renders (and checks) a new session before it keeps it, so a value that breaks only when it is
shown (a strategy's score of "high" or 10**400) changes nothing; boards from outside are checked again
(a board forged with ``object.__setattr__``, a tampered pickle); the browser's ``requests`` accept only
strict JSON and ids both sides count exactly (a NaN, an id past 2**53). From Python the call raises; from
the browser or the autoplayer's timer the widget shows the error and nothing else changes.
"""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from _widget_helpers import browser_state, wire_json

from ipyminesweeper import BoardError, Minesweeper, Move, View, new_board, reveal
from ipyminesweeper.engine import Minefield
from ipyminesweeper.widget.constants import MAX_REQUEST_ID
from ipyminesweeper.widget.messages import NewGame, SetBoard


def scored(score: Any) -> Callable[[View], Move]:
    """A user strategy whose (certain) move carries ``score``."""

    def strategy(view: View) -> Move:
        return Move("flag", view.covered()[0], "my guess", score=score)

    return strategy


def everything(w: Minesweeper) -> tuple[Any, ...]:
    """The widget's state, but for the problem it shows and the browser's requests answered."""
    state = w.get_state()
    synced = {k: v for k, v in state.items() if k not in ("error", "error_details", "requests", "handled")}
    books = replace(w.runtime_state, handled=0)
    return (replace(w.session, problem=None), books, tuple(w.history), synced)


def playing() -> Minesweeper:
    w = Minesweeper(size=9, mines=10, seed=5)
    w.reveal(4, 4)
    return w


BAD_SCORES = {"a str score": "high", "a score too big for a float": 10**400, "a NaN score": float("nan")}


@pytest.mark.parametrize("score", BAD_SCORES.values(), ids=list(BAD_SCORES))
def test_a_bad_score_from_python_raises_and_changes_nothing(score: Any) -> None:
    w = playing()
    before, session = everything(w), w.session
    with pytest.raises((ValueError, TypeError, OverflowError)):
        w.step(scored(score))
    assert w.session is session and everything(w) == before
    w.undo()  # the board before stays a board to go back to: nothing half-kept keeps raising
    assert w.board.status == "ready"


@pytest.mark.parametrize("score", BAD_SCORES.values(), ids=list(BAD_SCORES))
def test_a_bad_score_from_the_browser_is_shown_and_changes_nothing(score: Any) -> None:
    w = playing()
    w.register_strategy("mine", scored(score), select=True)
    before = everything(w)
    browser_state(w, {"requests": [{"id": 1, "action": "step"}]})
    assert w.error and w.handled == 1, "the request is answered, with the error"
    assert everything(w) == before
    assert wire_json(w), "the synced state stays strict JSON"


@pytest.mark.parametrize("score", BAD_SCORES.values(), ids=list(BAD_SCORES))
def test_a_bad_score_stops_the_autoplayer_and_changes_nothing(score: Any) -> None:
    w = playing()
    w.register_strategy("mine", scored(score), select=True)
    w.delay = 0
    before = everything(w)

    async def run() -> None:
        w.autoplay("mine", delay=0)
        for _ in range(50):
            await asyncio.sleep(0.01)
            if not w.autoplaying:
                break

    asyncio.run(run())
    assert not w.autoplaying and w.error, "the autoplayer stopped, saying why"
    assert everything(w) == before, "no move was kept"


def test_a_board_forged_with_setattr_is_refused() -> None:
    w = playing()
    before, session = everything(w), w.session
    forged = reveal(new_board(9, 9, 10, seed=5), (4, 4))
    object.__setattr__(forged, "states", bytes([3]) * 81)
    with pytest.raises(BoardError, match="states bytes"):
        w.board = forged
    assert isinstance(forged.minefield, Minefield), "the reveal placed the mines"
    mine = forged.minefield.mask.index(1)
    forged = reveal(new_board(9, 9, 10, seed=5), (4, 4))
    object.__setattr__(forged, "states", forged.states[:mine] + b"\x02" + forged.states[mine + 1 :])
    with pytest.raises(BoardError, match="exploded_index is None"):
        w.board = forged
    with pytest.raises(BoardError):
        w.send(NewGame(forged))
    with pytest.raises(BoardError):
        w.send(SetBoard(forged))
    with pytest.raises(BoardError):
        w.new_game(forged)
    with pytest.raises(BoardError):
        w.new_game(board=forged)
    with pytest.raises(BoardError):
        Minesweeper(board=forged)
    assert w.session is session and everything(w) == before


def test_new_game_takes_a_board() -> None:
    w = playing()
    board = reveal(new_board(9, 9, 10, seed=5), (4, 4))
    assert w.new_game(board) == board and w.board == board and len(w.history) == 1
    with pytest.raises(TypeError, match="pass nothing else"):
        w.new_game(board, seed=3)
    assert w.board == board


def test_a_forged_cached_value_never_reaches_the_widget() -> None:
    w = playing()
    board = reveal(new_board(9, 9, 10, seed=6), (4, 4))
    object.__setattr__(board, "status", "won")  # shadows the derived status
    w.board = board
    assert w.board.status == "playing" and w.status == "playing"


def test_a_tampered_pickle_never_reaches_the_widget() -> None:
    w = playing()
    before = everything(w)
    data = pickle.dumps(w.board)
    at = data.find(w.board.states)
    tampered = data[:at] + b"\x03" + data[at + 1 :]
    with pytest.raises(BoardError):
        w.board = pickle.loads(tampered)
    assert everything(w) == before


@pytest.mark.parametrize(
    "entry",
    [
        {"id": 1, "action": "reveal", "row": float("nan"), "col": 0},
        {"id": 1, "action": "reveal", "row": float("inf"), "col": 0},
        {"id": 1, "action": "new_game", "rows": 10**400, "cols": 5, "mines": 1},
        {"id": 1, "action": "reveal", "row": [0], "col": 0},
        {"id": 1, "action": "x" * 1000},
        {"id": 1, **{f"f{i}": 0 for i in range(20)}},
    ],
    ids=["NaN", "infinity", "a huge int", "a list", "a long string", "too many fields"],
)
def test_requests_accept_strict_json_only(entry: dict[str, Any]) -> None:
    w = playing()
    before = everything(w)
    requests = w.requests
    browser_state(w, {"requests": [entry]})
    assert w.error and w.handled == 0 and w.requests == requests, "refused: nothing kept, nothing answered"
    assert everything(w) == before
    assert wire_json(w)


def test_request_ids_stay_where_both_sides_count_exactly() -> None:
    """An id past 2**31 no longer makes the front end deaf (its ``| 0`` wrapped there); ids past 2**53,
    where JavaScript stops counting exactly, are refused and change nothing."""
    w = playing()
    before = everything(w)
    browser_state(w, {"requests": [{"id": MAX_REQUEST_ID + 1, "action": "undo"}]})
    assert "2**53" in w.error and w.handled == 0 and everything(w) == before
    row, col = w.board.covered()[0]
    browser_state(w, {"requests": [{"id": 2**31, "action": "flag", "row": row, "col": col}]})
    assert w.handled == 2**31 and w.board.view[(row, col)] == "f"
    browser_state(w, {"requests": [{"id": 2**31 + 1, "action": "flag", "row": row, "col": col}]})
    assert w.handled == 2**31 + 1 and w.board.view[(row, col)] == ".", "the next request is heard"
