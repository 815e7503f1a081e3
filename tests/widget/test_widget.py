"""The widget's Python side: constructors, the board/history shell, what is synced, the timer."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from _widget_helpers import SYNCED_TRAITS, browser_request, needs_kernelless_comm, synced_state

from ipyminesweeper import Board, Minesweeper, new_board, reveal, toggle_flag
from ipyminesweeper.widget.board_wire import apply, read_header
from ipyminesweeper.widget.widget import FRONTEND_WRITABLE

# --- constructors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "shape"),
    [
        ((), {}, (16, 16, 40)),
        ((), {"size": 16, "mines": 40}, (16, 16, 40)),
        ((), {"rows": 16, "cols": 30, "mines": 99}, (16, 30, 99)),
        (("expert",), {}, (16, 30, 99)),
        (("beginner",), {}, (9, 9, 10)),
        ((), {"size": 20, "density": 0.15}, (20, 20, 60)),
        ((), {"size": 10}, (10, 10, 16)),  # only a size: the intermediate density
        ((), {"rows": 5, "cols": 7, "mines": 3, "seed": 9, "first_click": "safe"}, (5, 7, 3)),
    ],
)
def test_constructor_forms(args: tuple[Any, ...], kwargs: dict[str, Any], shape: tuple[int, ...]) -> None:
    w = Minesweeper(*args, **kwargs)
    assert (w.board.rows, w.board.cols, w.board.mines) == shape
    assert (w.rows, w.cols, w.mines) == shape
    assert w.status == "ready"
    assert w.cells == "." * (shape[0] * shape[1])
    assert w.mines_left == shape[2]
    assert tuple(w.history) == (w.board,)


def test_seed_and_first_click_reach_the_engine() -> None:
    a = Minesweeper(size=9, mines=10, seed=5, first_click="safe")
    b = Minesweeper(size=9, mines=10, seed=5, first_click="safe")
    assert a.board.first_click == "safe" and a.board.seed == 5
    a.reveal(0, 0)
    b.reveal(0, 0)
    assert a.board == b.board
    assert a.board == reveal(new_board(9, 9, 10, seed=5, first_click="safe"), (0, 0))


def test_board_argument() -> None:
    start = reveal(new_board(9, 9, 10, seed=2), (4, 4))
    assert Minesweeper(board=start).board == start  # an equal board, its fields checked again
    assert Minesweeper(start).board == start
    assert Minesweeper(board=start).status == "playing"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"level": "expert"},
        {"rows": 5},
        {"size": 7, "density": 0.2},
        {"rows": 4, "cols": 6, "mines": 3, "first_click": "safe"},
        {"level": "beginner", "rows": 5},
        {"size": 5, "rows": 5},
        {"mines": 5},
        {"size": 5, "mines": 3, "density": 0.1},
        {"size": 3, "mines": 9},
    ],
)
def test_board_arguments_follow_new_board(kwargs: dict[str, Any]) -> None:
    """One rule for a board's arguments: the widget makes the board new_board makes, or refuses it
    with new_board's own error."""
    try:
        expected = new_board(**kwargs, seed=5)
    except (TypeError, ValueError) as error:
        with pytest.raises(type(error)) as got:
            Minesweeper(**kwargs, seed=5)
        assert str(got.value) == str(error)
        w = Minesweeper(size=4, mines=2, seed=1)
        with pytest.raises(type(error)) as got:
            w.new_game(**kwargs, seed=5)
        assert str(got.value) == str(error)
        assert w.board == new_board(size=4, mines=2, seed=1)  # the refused new game changed nothing
        return
    assert Minesweeper(**kwargs, seed=5).board == expected
    w = Minesweeper(size=4, mines=2, seed=1)
    assert w.new_game(**kwargs, seed=5) == expected


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((16,), {}, TypeError, "size="),
        (("huge",), {}, ValueError, "unknown level"),
        (("expert",), {"size": 5}, TypeError, "sets the size"),  # the engine's rules: see new_board
        ((), {"size": 5, "rows": 5}, TypeError, "either size"),
        ((), {"mines": 5}, TypeError, "need a size"),
        ((), {"size": 5, "mines": 3, "density": 0.1}, TypeError, "not both"),
        ((), {"size": 5, "mines": True}, TypeError, "mines"),
        ((), {"size": 5.0, "mines": 3}, TypeError, "size must be an int"),
        ((), {"size": "expert"}, TypeError, "size must be an int"),  # not a level
        ((), {"size": 0, "mines": 0}, ValueError, "at least 1"),
        ((), {"size": 5, "mines": 99}, ValueError, "cannot fit"),
        ((), {"size": 5, "density": 1.5}, ValueError, "density"),
        ((), {"first_click": "bogus"}, ValueError, "first_click"),
        ((), {"seed": "x"}, TypeError, "seed"),
        ((), {"strategy": "nope"}, ValueError, "unknown strategy"),
        ((), {"delay": -1}, ValueError, "delay"),
        ((), {"delay": "slow"}, TypeError, "delay"),
        ((), {"board": "...\n..."}, TypeError, "Board"),
        (
            (),
            {"board": new_board(3, 3, 1, first_click="safe"), "size": 3},
            TypeError,
            "pass nothing else",
        ),
        (
            (),
            {"board": new_board(3, 3, 1, first_click="any"), "first_click": "safe"},
            TypeError,
            r"first_click=",
        ),
        (
            (new_board(3, 3, 1, first_click="any"),),
            {"board": new_board(3, 3, 1, first_click="any")},
            TypeError,
            "give the board once",
        ),
    ],
)
def test_bad_constructor_arguments(
    args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        Minesweeper(*args, **kwargs)


# --- the board, history, undo ----------------------------------------------------------------------


def test_assigning_the_board_resyncs_and_records_history() -> None:
    w = Minesweeper(size=16, mines=40, seed=7)
    start = w.board
    w.board = reveal(w.board, (3, 4))
    assert w.board != start
    assert w.cells == w.board.view.cells
    assert w.status == w.board.status == "playing"
    assert tuple(w.history) == (start, w.board)
    w.board = toggle_flag(w.board, (15, 15)) if w.board.view[(15, 15)] == "." else w.board
    assert w.mines_left == w.board.flags_left


def test_assigning_an_equal_board_is_not_a_move() -> None:
    w = Minesweeper(size=9, mines=10, seed=1)
    w.reveal(4, 4)
    n = len(w.history)
    w.board = w.board
    w.reveal(4, 4)  # revealing a revealed cell is a no-op in the engine
    assert len(w.history) == n


def test_assigning_something_else_is_a_type_error() -> None:
    w = Minesweeper()
    with pytest.raises(TypeError, match="Board"):
        w.board = "....."  # type: ignore[assignment]
    assert tuple(w.history) == (w.board,)


def test_methods_play_through_the_engine() -> None:
    w = Minesweeper(size=9, mines=10, seed=3)
    b = w.reveal(4, 4)
    assert b is w.board and b == reveal(new_board(9, 9, 10, seed=3), (4, 4))
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert w.board.view[covered] == "f"
    assert w.mines_left == 9
    w.flag(*covered)
    assert w.board.view[covered] == "."
    with pytest.raises(ValueError):
        w.reveal(9, 0)
    with pytest.raises(TypeError):
        w.reveal(1.0, 0)  # type: ignore[arg-type]


def test_undo_walks_back_through_history() -> None:
    w = Minesweeper(size=9, mines=10, seed=3)
    start = w.board
    assert w.undo() is start  # nothing to undo: a no-op
    assert w.can_undo is False
    w.reveal(4, 4)
    after_reveal = w.board
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert w.can_undo is True
    assert w.undo() is after_reveal
    assert w.cells == after_reveal.view.cells
    assert tuple(w.history) == (start, after_reveal)
    w.undo()
    assert w.board is start and w.status == "ready"
    assert w.started_at == 0 and w.ended_at == 0 and w.can_undo is False


def test_undo_after_a_loss_resumes_the_game() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    mine = next(p for p in w.board.positions() if w.board.is_mine(p))
    safe = next(p for p in w.board.positions() if not w.board.is_mine(p))
    w.reveal(*safe)
    w.reveal(*mine)
    assert w.status == "lost" and w.ended_at > 0
    w.undo()
    assert w.status == "playing" and w.ended_at == 0 and w.started_at > 0


def test_history_is_an_immutable_sequence_of_boards() -> None:
    w = Minesweeper(size=9, mines=10, seed=1)
    w.reveal(4, 4)
    h = w.history
    assert isinstance(h, Sequence) and h[-1] is w.board and h[0].status == "ready"
    assert list(h) == [h[0], h[1]] and h[:] == (h[0], h[1]) and len(h) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.turns = ()  # type: ignore[misc, assignment]
    with pytest.raises(AttributeError):
        w.history = ()  # type: ignore[misc, assignment]
    w.reveal(0, 0) if w.board.view[(0, 0)] == "." else w.flag(8, 8)
    assert len(h) == 2, "a history never changes: the widget moved on to a new one"


def test_new_game_keeps_the_shape_and_draws_a_new_seed() -> None:
    w = Minesweeper(rows=8, cols=12, mines=15, seed=1, first_click="safe")
    w.reveal(0, 0)
    b = w.new_game()
    assert (b.rows, b.cols, b.mines, b.first_click) == (8, 12, 15, "safe")
    assert w.status == "ready" and tuple(w.history) == (b,) and w.started_at == 0
    seeds = {w.new_game().seed for _ in range(5)}
    assert len(seeds) > 1
    w.new_game("expert", seed=3)
    assert (w.rows, w.cols, w.mines, w.board.seed) == (16, 30, 99, 3)
    with pytest.raises(ValueError):
        w.new_game("nope")
    assert (w.rows, w.cols) == (16, 30)


def test_read_only_traits() -> None:
    w = Minesweeper()
    for name in ("cells", "status", "rows", "mines_left", "started_at", "probabilities"):
        with pytest.raises(Exception, match="read-only"):
            setattr(w, name, getattr(w, name))


# --- what is synced --------------------------------------------------------------------------------


def test_synced_traits_are_exactly_the_documented_ones() -> None:
    w = Minesweeper()
    assert set(synced_state(w)) == SYNCED_TRAITS
    assert "seed" not in w.get_state()
    assert FRONTEND_WRITABLE <= SYNCED_TRAITS


LAYOUT_A = """
*..
1..
"""
LAYOUT_B = """
.*.
1..
"""


@pytest.mark.parametrize("probabilities", [False, True])
def test_synced_state_is_a_function_of_the_view(probabilities: bool) -> None:
    """Two boards with different mines but the same view sync exactly the same state."""
    a, b = Board.from_text(LAYOUT_A), Board.from_text(LAYOUT_B)
    assert a.view == b.view and a.status == "playing"
    wa, wb = Minesweeper(board=a), Minesweeper(board=b)
    wa.show_probabilities = wb.show_probabilities = probabilities
    sa, sb = synced_state(wa), synced_state(wb)
    for s in (sa, sb):
        s.pop("started_at")  # wall-clock times
    assert sa == sb
    assert bool(sa["probabilities"]) == probabilities


def test_no_mine_information_while_playing() -> None:
    w = Minesweeper(size=16, mines=40, seed=11)
    w.show_probabilities = True
    boards = [w.board]
    w.reveal(8, 8)
    shown = w.cells
    while w.status == "playing" and len(boards) < 25:
        boards.append(w.board)
        state = synced_state(w)
        assert set(state["cells"]) <= set(".f012345678")
        assert state["status"] in ("ready", "playing")
        text = json.dumps(state, default=bytes.hex)
        for letter in "*XFx":
            assert letter not in state["cells"], letter
        # probabilities only for covered cells
        for key in state["probabilities"]:  # ("*": the one probability of every unlisted covered cell)
            assert key == "*" or state["cells"][int(key)] in ".f"
        assert "mask" not in text and "minefield" not in text
        if state["board_patch"]:  # the change as the browser got it: the same view, no mine
            version, at = read_header(state["board_patch"])
            assert (
                version == state["cells_version"]
                and apply(shown, state["board_patch"][at:]) == state["cells"]
            )
        shown = state["cells"]
        browser_request(w, {"action": "step"})  # the autoplayer's move, sent as a patch
        assert w.error == ""
    assert len(boards) > 5


def test_mines_appear_only_at_a_loss() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    mines = [p for p in w.board.positions() if w.board.is_mine(p)]
    safe = next(p for p in w.board.positions() if not w.board.is_mine(p))
    w.reveal(*safe)
    wrong = next(p for p in w.board.positions() if w.board.view[p] == "." and not w.board.is_mine(p))
    w.flag(*wrong)
    w.flag(*mines[1])
    assert not set(w.cells) & set("*XFx")
    w.reveal(*mines[0])
    assert w.status == "lost"
    cells = w.cells
    assert cells[mines[0][0] * 9 + mines[0][1]] == "X"
    assert cells[mines[1][0] * 9 + mines[1][1]] == "F"
    assert cells[wrong[0] * 9 + wrong[1]] == "x"
    assert cells.count("*") == len(mines) - 2
    assert w.probabilities == {}


def test_a_win_shows_every_mine_flagged() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    for p in w.board.positions():
        if not w.board.is_mine(p) and w.board.view[p] == ".":
            w.reveal(*p)
    assert w.status == "won"
    assert w.cells.count("F") == 10
    assert w.mines_left == 0
    assert w.ended_at >= w.started_at > 0


@needs_kernelless_comm
def test_one_state_message_per_move_and_its_size() -> None:
    w = Minesweeper(size=16, mines=40, seed=7)
    sent: list[dict[str, Any]] = []
    w.comm.send = lambda data=None, buffers=None, **_: sent.append(data)
    w.reveal(8, 8)
    assert len(sent) == 1
    msg = sent[0]
    assert msg["method"] == "update"
    assert msg["state"]["cells"] == w.cells
    assert len(json.dumps(msg)) < 16 * 16 + 260  # the cells, and the history slider's step
    assert msg["state"]["history_step"] == {"index": 1, "text": "you: reveal (8,8)", "row": 8, "col": 8}
    sent.clear()
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert len(sent) == 1
    assert set(sent[0]["state"]) <= {
        "cells",
        "cells_version",  # a Python call sends the board whole (board_wire.py)
        "board_patch",
        "mines_left",
        "can_undo",
        "error",
        "elapsed",
        "history_length",
        "history_step",
    }
    sent.clear()
    w.step("exact")  # the move and its explanation travel together
    assert len(sent) == 1 and "last_move" in sent[0]["state"]
    sent.clear()
    w.undo()
    assert len(sent) == 1


# --- timer and observable traits -------------------------------------------------------------------


def test_timer_starts_on_the_first_reveal_and_stops_at_the_end() -> None:
    w = Minesweeper(size=9, mines=10, seed=4, first_click="any")
    assert (w.started_at, w.ended_at, w.elapsed) == (0, 0, 0.0)
    safe = [p for p in w.board.positions() if not w.board.is_mine(p)]
    w.reveal(*safe[0])
    started = w.started_at
    assert started > 1_600_000_000_000 and w.ended_at == 0
    for p in safe:
        if w.board.view[p] == ".":
            w.reveal(*p)
    assert w.status == "won"
    assert w.started_at == started and w.ended_at >= started
    assert w.elapsed == (w.ended_at - started) / 1000


def test_status_mines_left_and_elapsed_are_observable() -> None:
    w = Minesweeper(size=9, mines=10, seed=4)
    seen: list[tuple[str, Any]] = []
    w.observe(lambda ch: seen.append((ch["name"], ch["new"])), names=["status", "mines_left"])
    w.reveal(4, 4)
    covered = next(p for p in w.board.positions() if w.board.view[p] == ".")
    w.flag(*covered)
    assert ("status", "playing") in seen
    assert ("mines_left", 9) in seen


def test_status_observers_see_the_new_board() -> None:
    w = Minesweeper(size=9, mines=10, seed=4)
    seen: list[tuple[str, str]] = []
    w.observe(lambda ch: seen.append((ch["new"], w.cells)), names="status")
    w.reveal(4, 4)
    assert seen == [("playing", w.board.view.cells)]


# --- reprs -----------------------------------------------------------------------------------------


def test_reprs_fall_back_to_the_board() -> None:
    w = Minesweeper(size=9, mines=10, seed=4)
    w.reveal(4, 4)
    text = repr(w)
    assert text.startswith("<Minesweeper 9x9, 10 mines, playing")
    assert w.board.view.to_text() in text
    data, _meta = w._repr_mimebundle_()
    assert data["text/plain"] == text
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
    # The HTML fallback (GitHub, nbviewer, email) is small, shows the view and says it is a snapshot.
    fallback = data["text/html"]
    assert fallback == w._repr_html_()
    assert "snapshot: run the cell to play" in fallback and "9x9, 10 mines, playing" in fallback
    rows = fallback.split("<pre")[1].split("</pre>")[0].split(">", 1)[1].splitlines()
    assert len(rows) == 9 and all(len(r.split(" ")) == 9 for r in rows)
    assert len(fallback.encode()) < 2_000
    expert = Minesweeper("expert", seed=1)
    expert.reveal(8, 15)
    assert len(expert._repr_html_().encode()) < 4_500  # a few KB, not the 200 KB of a styled table
    assert "*" not in expert._repr_html_() and "\u2731" not in expert._repr_html_()  # no mine shown
    big, _meta = Minesweeper(size=41, mines=100)._repr_mimebundle_()
    assert big["text/plain"].startswith("<Minesweeper 41x41")
    assert "<pre" not in big["text/html"] and len(big["text/html"]) < 600


def test_static_files_ship_in_the_package() -> None:
    from ipyminesweeper.widget.widget import STATIC

    assert (STATIC / "widget.js").is_file()
    assert (STATIC / "widget.css").is_file()
    state = Minesweeper().get_state()
    esm, css = state["_esm"], state["_css"]
    assert re.search(r"export\s*\{[^}]*\bas default\b", esm), "one ES module with a default export (esbuild)"
    assert ".ipyms-root" in css
    assert not any(line.startswith("import ") for line in esm.splitlines())  # self-contained


def test_extra_keywords_go_to_anywidget() -> None:
    """`Minesweeper(layout=...)` and other DOMWidget keywords are passed on to AnyWidget."""
    import ipywidgets

    w = Minesweeper(size=9, mines=10, layout=ipywidgets.Layout(width="320px"), _dom_classes=["mine"])
    assert w.layout.width == "320px" and w._dom_classes == ("mine",)
    with pytest.raises(Exception):  # noqa: B017 - traitlets' own error for an unknown trait type
        Minesweeper(size=9, mines=10, layout=42)


def test_new_game_keeps_what_it_is_not_told_to_change() -> None:
    w = Minesweeper(rows=5, cols=7, mines=4, first_click="safe", seed=1)
    for kwargs in ({}, {"first_click": None}, {"seed": 3}):
        board = w.new_game(**kwargs)
        assert (board.rows, board.cols, board.mines, board.first_click) == (5, 7, 4, "safe"), kwargs
    assert w.new_game(first_click="any").first_click == "any"
    with pytest.raises(TypeError, match=r"'strategy': use level, board, rows") as error:
        w.new_game(strategy="exact")  # type: ignore[call-arg]  # not a new_game keyword, and not suggested as one
    assert "did you mean" not in str(error.value)
