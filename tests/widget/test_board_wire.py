"""The board on the wire (widget/board_wire.py): a browser's move sends a patch whose size follows the cells
that changed, not the board; a call from Python code, a new shape, or a resync request sends the whole view;
the state a new view (or a saved notebook) starts from is always whole; and patches carry no mine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _widget_helpers import browser_request, needs_kernelless_comm

from ipyminesweeper import Board, Minesweeper, new_board, reveal
from ipyminesweeper.widget.board_wire import (
    PACKED_FROM,
    PatchError,
    apply,
    board_change,
    read_header,
    unpack_cells,
    wire_cells,
)

pytestmark = needs_kernelless_comm

Sent = list[tuple[dict[str, Any], list[bytes]]]


def listen(w: Minesweeper) -> Sent:
    """The comm messages the widget sends from now on: (data, buffers)."""
    sent: Sent = []
    w.comm.send = lambda data=None, buffers=None, **_: sent.append((data, [bytes(b) for b in buffers or []]))
    return sent


def wire_bytes(message: tuple[dict[str, Any], list[bytes]]) -> int:
    data, buffers = message
    return len(json.dumps(data)) + sum(len(b) for b in buffers)


def patch_of(message: tuple[dict[str, Any], list[bytes]]) -> bytes:
    data, buffers = message
    paths = [tuple(p) for p in data.get("buffer_paths", [])]
    return buffers[paths.index(("board_patch",))]


def browser_view(messages: Sent, cells: str, version: int) -> tuple[str, int]:
    """What a front end that started from (cells, version) holds after ``messages`` (as js/wire.js does)."""
    for data, _ in messages:
        state = data["state"]
        if "cells" in state:  # a big board's view may come packed (wire_cells)
            cells, version = unpack_cells(state["cells"], len(cells)), state["cells_version"]
        if ["board_patch"] in data.get("buffer_paths", []):
            patch = patch_of((data, _))
            produced, at = read_header(patch)
            if produced == version + 1:
                cells, version = apply(cells, patch[at:]), produced
            else:
                assert produced <= version, "a patch was missed"
    return cells, version


def covered_safe(board: Board, near: tuple[int, int], *, number: bool) -> tuple[int, int]:
    """A covered safe cell near ``near``: a number (one cell changes) or a zero (a cascade)."""
    r0, c0 = near
    for d in range(1, 200):
        for r in range(max(0, r0 - d), min(board.rows, r0 + d + 1)):
            for c in range(max(0, c0 - d), min(board.cols, c0 + d + 1)):
                pos = (r, c)
                if board.view[pos] == "." and not board.is_mine(pos) and (board.count(pos) > 0) == number:
                    return pos
    raise AssertionError("no such cell")


def test_board_change_picks_a_patch_or_the_whole_view() -> None:
    assert board_change("....", "....", 3, whole=False) is None
    change = board_change("....", "..1.", 3, whole=False)
    assert change is not None and change.version == 4 and change.patch is not None
    version, at = read_header(change.patch)
    assert version == 4 and apply("....", change.patch[at:]) == "..1."
    whole = board_change("....", "..1.", 3, whole=True)
    assert whole is not None and whole.patch is None and whole.version == 4
    reshaped = board_change("....", "......", 3, whole=False)
    assert reshaped is not None and reshaped.patch is None
    every = board_change("." * 4, "1111", 3, whole=False)  # a patch as big as the view: the view goes
    assert every is not None and every.patch is None
    with pytest.raises(PatchError, match="no version"):
        read_header(b"")


def test_a_move_from_the_browser_sends_a_patch_and_keeps_the_state_whole() -> None:
    w = Minesweeper(size=16, mines=40, seed=7)
    w.reveal(8, 8)
    start = (w.cells, w.cells_version)
    sent = listen(w)
    pos = covered_safe(w.board, (0, 0), number=False)
    browser_request(w, {"action": "reveal", "row": pos[0], "col": pos[1]})
    assert len(sent) == 1
    state = sent[0][0]["state"]
    assert "cells" not in state and "cells_version" not in state, "the whole view went with the patch"
    assert ["board_patch"] in sent[0][0]["buffer_paths"]
    assert read_header(patch_of(sent[0]))[0] == w.cells_version == start[1] + 1
    assert browser_view(sent, *start) == (w.cells, w.cells_version)
    whole = w.get_state()  # what a new view, a reloaded page or a saved notebook starts from
    assert whole["cells"] == w.cells and whole["cells_version"] == w.cells_version


def test_a_call_from_python_sends_the_whole_board() -> None:
    """A notebook runner records what a cell sends (nbclient, make export): each call leaves it whole."""
    w = Minesweeper(size=16, mines=40, seed=7)
    sent = listen(w)
    w.reveal(8, 8)
    w.flag(0, 0)
    w.new_game()
    assert len(sent) >= 3
    for data, _ in sent:
        assert ("cells" in data["state"]) == ("cells_version" in data["state"])
        assert data["state"].get("board_patch", b"") == b"" and ["board_patch"] not in data["buffer_paths"]
    assert sent[-1][0]["state"]["cells"] == w.cells
    assert browser_view(sent, "", 0) == (w.cells, w.cells_version)


def test_the_front_end_asks_for_the_whole_board_when_it_missed_a_patch() -> None:
    w = Minesweeper(size=16, mines=40, seed=7)
    w.reveal(8, 8)
    sent = listen(w)
    browser_request(w, {"action": "flag", "row": 0, "col": 0})
    browser_request(w, {"action": "flag", "row": 0, "col": 1})
    assert all("cells" not in data["state"] for data, _ in sent)
    sent.clear()
    browser_request(w, {"action": "resync"})
    assert w.error == ""
    assert [data["state"]["cells"] for data, _ in sent if "cells" in data["state"]] == [w.cells]
    assert browser_view(sent, "", 0) == (w.cells, w.cells_version)


def test_bytes_per_move_follow_the_cells_that_changed_not_the_board() -> None:
    """A flag costs the same on 16x16 and 1000x1000; a cascade about 2 bytes per changed cell at most."""
    costs = {}
    for n, mines in ((16, 40), (1000, 150_000)):
        w = Minesweeper(rows=n, cols=n, mines=mines, seed=7)
        w.reveal(n // 2, n // 2)
        sent = listen(w)
        pos = covered_safe(w.board, (n // 2, n // 2), number=True)
        browser_request(w, {"action": "flag", "row": pos[0], "col": pos[1]})
        assert len(sent) == 1 and "cells" not in sent[0][0]["state"]
        data, buffers = sent[0]
        timeless = {**data, "state": {k: v for k, v in data["state"].items() if k != "elapsed"}}
        # (the clock's reading is sent when it moved: "elapsed": 0.001 or nothing, whatever the board)
        costs[n] = (wire_bytes((timeless, buffers)), len(patch_of(sent[0])))
    assert costs[16][1] <= costs[1000][1] <= 8, costs  # version, gap (up to 3 bytes), length, one state byte
    # the message around it grows only by the digits of its numbers (mines left, the cell in the history line)
    assert abs(costs[1000][0] - costs[16][0]) <= 24, costs

    board = reveal(new_board(300, 300, 9_000, seed=5), (150, 150))
    w = Minesweeper(board=board)
    sent = listen(w)
    pos = covered_safe(board, (150, 150), number=False)
    before = w.cells
    browser_request(w, {"action": "reveal", "row": pos[0], "col": pos[1]})
    changed = sum(a != b for a, b in zip(before, w.cells, strict=True))
    assert changed > 20, "not a cascade"
    assert len(patch_of(sent[0])) <= 2 * changed + 8, (changed, len(patch_of(sent[0])))


# A row of mines hides the bottom rows: after (0, 0) opens the top, both games look the same, though
# one has its last mine bottom left and the other bottom right.
LAYOUT_A = """
........
........
********
........
........
*.......
"""
LAYOUT_B = LAYOUT_A.replace("*.......", ".......*")
CLICKS = [
    {"action": "reveal", "row": 0, "col": 0},  # a cascade over the two top rows
    {"action": "flag", "row": 2, "col": 3},
    {"action": "flag", "row": 5, "col": 7},
    {"action": "chord", "row": 1, "col": 3},  # not enough flags: nothing
    {"action": "flag", "row": 2, "col": 3},  # unflag
    {"action": "reveal", "row": 0, "col": 7},  # already revealed: nothing
]


def test_patches_are_a_function_of_the_view() -> None:
    """Two games with different mines and the same views send exactly the same messages, patches included:
    the browser learns nothing about a mine while the game is on."""
    a, b = Board.from_text(LAYOUT_A), Board.from_text(LAYOUT_B)
    assert a.mask != b.mask and a.view == b.view
    streams = []
    for board in (a, b):
        w = Minesweeper(board=board)
        sent = listen(w)
        for click in CLICKS:
            browser_request(w, click)
            assert w.error == "", w.error
        assert w.status == "playing" and w.cells.startswith("0" * 8)
        streams.append(sent)
    patches = 0
    for (da, ba), (db, bb) in zip(*streams, strict=True):
        for state in (da["state"], db["state"]):
            for clock in ("elapsed", "started_at"):
                state.pop(clock, None)
        assert (da, ba) == (db, bb)
        patches += ["board_patch"] in da.get("buffer_paths", [])
    assert patches >= 4, "the clicks were not sent as patches"


def test_a_big_board_travels_packed() -> None:
    """The whole view of a board of PACKED_FROM cells or more goes as ~ and the base64 of the patch from the
    all-covered view: a new 1000x1000 game is "~", not a 1,000,000-character string to encode, receive and
    parse. Python's ``w.cells`` is still the view."""
    n = 1000 * 1000
    w = Minesweeper(rows=1000, cols=1000, mines=150_000, seed=7)
    assert w.get_state()["cells"] == "~" and w.cells == "." * n
    sent = listen(w)
    w.send_state()  # what a new view (comm_open) or a resync gets
    small = Minesweeper(size=16, mines=40, seed=7)
    small_sent = listen(small)
    small.send_state()
    # as big as a new 16x16 game's state (the module and its CSS, ~80 kB, are most of both), less 255 cells
    big, small_bytes = wire_bytes(sent[0]), wire_bytes(small_sent[0])
    assert big < small_bytes + 100, (big, small_bytes)
    sent.clear()
    w.reveal(500, 500)  # a call from Python: the whole board, packed
    ((data, _),) = sent
    packed = data["state"]["cells"]
    assert packed.startswith("~") and len(packed) < 20_000 and ["cells"] not in data["buffer_paths"]
    assert unpack_cells(packed, n) == w.cells != "." * n
    assert browser_view(sent, "." * n, 0) == (w.cells, w.cells_version)


def test_small_boards_and_views_that_do_not_pack_keep_the_view() -> None:
    assert Minesweeper(size=16, mines=40, seed=7).get_state()["cells"] == "." * 256
    assert wire_cells("." * (PACKED_FROM - 1)) == "." * (PACKED_FROM - 1)
    assert wire_cells("." * PACKED_FROM) == "~"
    alternating = "1." * (PACKED_FROM // 2)  # one run per cell: 3 bytes each, more than the view
    assert wire_cells(alternating) == alternating
    opened = "0" * (PACKED_FROM // 2) + "." * (PACKED_FROM // 2)
    packed = wire_cells(opened)
    assert unpack_cells(packed, PACKED_FROM) == opened and len(packed) < PACKED_FROM // 2
    assert unpack_cells(opened, PACKED_FROM) == opened


def test_packed_cells_carry_no_mine_while_playing() -> None:
    """The packed view is computed from the view alone: unpacked, it is the view, with no mine in it until
    the game ends."""
    w = Minesweeper(rows=130, cols=130, mines=2_500, seed=3)  # 16,900 cells: packed
    w.reveal(65, 65)
    steps = 0
    while w.status == "playing" and steps < 12:
        packed = w.get_state()["cells"]
        assert packed.startswith("~")
        view = unpack_cells(packed, 16_900)
        assert view == w.cells and not set(view) & set("*XFx")
        browser_request(w, {"action": "step"})  # the autoplayer's move
        assert w.error == ""
        steps += 1
    assert steps >= 5
