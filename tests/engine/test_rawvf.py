"""RAWVF (engine/rawvf.py) and the mouse (engine/mouse.py): a game written and read back is the same
game; the classic game's buttons make the clicks they make; a broken file is refused with a sentence
that names the line, and never with anything but a ReplayError."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipyminesweeper import Board, Click, Replay, ReplayError, bbbv, new_board
from ipyminesweeper.engine.mouse import MouseEvent, replay_from_mouse
from ipyminesweeper.engine.rawvf import read_rawvf, write_rawvf
from ipyminesweeper.engine.replay import click_board

WALL = "..*..\n..*..\n..*.."


def covered(text: str) -> Board:
    board = Board.from_text(text)
    return Board(board.rows, board.cols, board.mines, bytes(board.rows * board.cols), board.minefield)


@st.composite
def games(draw: st.DrawFn) -> Replay:
    """A game of random clicks on a random board, with times or without."""
    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    mines = draw(st.integers(0, rows * cols - 1))
    placed = click_board(
        new_board(rows, cols, mines, seed=draw(st.integers(0, 2**32)), first_click="safe"),
        Click("left", (0, 0)),
    )
    board = start = Board(rows, cols, mines, bytes(rows * cols), placed.minefield)
    timed = draw(st.booleans())
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    clicks = []
    for n, (kind, pos) in enumerate(
        draw(st.lists(st.tuples(st.sampled_from(["left", "right", "chord"]), cell), max_size=40))
    ):
        if board.over:
            break
        clicks.append(Click(kind, pos, n * 0.25 if timed else None))  # type: ignore[arg-type]
        board = click_board(board, clicks[-1])
    return Replay.from_clicks(start, clicks, player="Ada")


@settings(max_examples=200, deadline=None)
@given(games())
def test_a_game_written_and_read_back_is_the_same_game(replay: Replay) -> None:
    again = read_rawvf(write_rawvf(replay))
    assert again.boards == replay.boards
    assert again.clicks == replay.clicks
    assert again.player == "Ada"


def test_the_file_says_what_the_reference_parser_reads() -> None:
    replay = Replay.from_clicks(covered(WALL), [Click("left", (0, 0), 0.0), Click("right", (1, 2), 0.5)])
    text = write_rawvf(replay)
    assert text.startswith("RawVF_Version: Rev6\n")
    for line in ("Width: 5", "Height: 3", "Mines: 3", f"BBBV: {bbbv(replay.final)}", "Board:", "00*00"):
        assert f"\n{line}\n" in text
    assert "\n0.000 lc 1 1 (8 8)\n0.000 lr 1 1 (8 8)\n" in text
    assert "\nCell opened (Number 2) 2 1\n" in text and "\n0.500 rr 3 2 (40 24)\nFlag 3 2\n" in text


def test_a_game_without_mines_placed_or_with_cells_open_at_the_start_is_not_written() -> None:
    with pytest.raises(ReplayError, match="not placed"):
        write_rawvf(Replay.from_clicks(new_board("beginner", seed=1), [Click("right", (0, 0))]))
    opened = click_board(covered(WALL), Click("left", (0, 0)))
    with pytest.raises(ReplayError, match="starts with cells revealed"):
        write_rawvf(Replay.from_clicks(opened, [Click("left", (0, 4))]))


def events(text: str) -> list[MouseEvent]:
    """``"lc 0 0, lr 0 1"``: actions at (row, col), one a second."""
    out = []
    for n, item in enumerate(text.split(",")):
        action, row, col = item.split()
        out.append(MouseEvent(float(n), action, int(row), int(col)))
    return out


@pytest.mark.parametrize(
    ("mouse", "clicks"),
    [
        ("lc 0 0, lr 0 0", [("left", (0, 0))]),
        ("lc 0 1, mv 0 0, lr 0 0", [("left", (0, 0))]),  # the cell under the release
        ("lc 0 0, lr 9 9", []),  # released off the board: no click
        ("rc 1 2, rr 1 2", [("right", (1, 2))]),  # a flag at the press
        (
            "lc 0 0, lr 0 0, rc 1 2, rr 1 2, lc 1 1, rc 1 1, lr 1 1, rr 1 1",
            [("left", (0, 0)), ("right", (1, 2)), ("chord", (1, 1))],
        ),
        (
            "lc 0 0, lr 0 0, lc 1 1, rc 1 1, rr 1 1, lr 1 1",
            [("left", (0, 0)), ("chord", (1, 1))],
        ),  # right up first
        (
            "lc 0 0, lr 0 0, rc 1 2, lc 1 1, lr 1 1, rr 1 1",
            [("left", (0, 0)), ("right", (1, 2)), ("chord", (1, 1))],
        ),  # 1.5
        ("lc 0 0, lr 0 0, rc 1 1, cc 1 1, lr 1 1, rr 1 1", [("left", (0, 0)), ("chord", (1, 1))]),  # EVF's cc
        ("lc 0 0, lr 0 0, rc 1 1, rr 1 1", [("left", (0, 0)), ("right", (1, 1))]),  # a wasted right click
        ("lc 0 0, lr 0 0, sc 1 1, lr 1 1", [("left", (0, 0)), ("chord", (1, 1))]),  # shift and left
        ("lc 0 0, lr 0 0, mc 1 1, mr 1 1", [("left", (0, 0)), ("chord", (1, 1))]),  # the middle button
        ("mc 0 0, lc 0 0, lr 0 0, mr 1 1", [("chord", (1, 1))]),  # the left button does nothing meanwhile
    ],
)
def test_the_mouse_makes_the_clicks_of_the_classic_game(
    mouse: str, clicks: list[tuple[str, tuple[int, int]]]
) -> None:
    replay = replay_from_mouse(covered(WALL), events(mouse))
    assert [(c.kind, c.pos) for c in replay.clicks] == clicks


def test_question_marks_are_refused_only_when_used() -> None:
    flag_twice = events("lc 0 0, lr 0 0, rc 0 2, rr 0 2, rc 0 2, rr 0 2")
    assert replay_from_mouse(covered(WALL), flag_twice, marks=True).final.flags == 0  # now a question mark
    with pytest.raises(ReplayError, match="question mark"):
        replay_from_mouse(covered(WALL), [*flag_twice, *events("rc 0 2, rr 0 2")], marks=True)


GOOD = write_rawvf(
    Replay.from_clicks(
        covered(WALL), [Click("left", (0, 0), 0.0), Click("right", (1, 2), 0.5), Click("left", (0, 4), 1.0)]
    )
)


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (GOOD.replace("Board:", "Bored:"), "line 13: a header line is 'Key: Value'"),
        (GOOD.split("Board:")[0], "no 'Board:' line"),
        (GOOD.replace("Width: 5", "Width: 6"), "line 13: a board row is 6 characters"),
        (GOOD.replace("Height: 3", "Height: 4"), "line 16: a board row is 5 characters"),
        (GOOD.replace("Mines: 3", "Mines: 4"), "holds 3 mines; the header says Mines: 4"),
        (GOOD.replace("Mines: 3", "Mines: three"), "'Mines' is a whole number"),
        (GOOD.replace("Width: 5\n", ""), "no 'Width' line"),
        (GOOD.replace("00*00\n00*00\n00*00", "00*00\n0**00\n00*00"), "the header says Mines: 3"),
        (GOOD.replace("\n00*00\n", "\n00*0x\n", 1), "line 13: a board row"),
        (GOOD.replace("BBBV: 2", "BBBV: 3"), "BBBV: 3, but the board's 3BV is 2"),
        (
            GOOD.replace("(Number 2) 2 1", "(Number 3) 2 1"),
            "line 20: the cell at column 2, row 1 is said to show 3",
        ),
        (GOOD.replace("(Number 2) 2 1", "(Number 2) 3 1"), "the board's mines make it a mine"),
        (GOOD.replace("(Number 0) 1 1", "(it is a Mine) 1 1"), "is said to be a mine; the board has none"),
        (GOOD.replace("(Number 2) 2 1", "(Number 2) 9 1"), "off the 5x3 board"),
        (GOOD.replace("0.500 rc 3 2", "0.500 xx 3 2"), "unknown event"),
        (GOOD.replace("0.500 rc 3 2", "0.500 rc"), "unknown event"),
        (GOOD.replace("0.500 rc 3 2", "0.5x rc 3 2"), "line 25: an event is 'TIME ACTION COLUMN ROW'"),
        (GOOD.replace("Level: Custom", "Level: Marathon"), "marathon"),
        (GOOD.replace("Mode: Classic", "Mode Classic"), "line 11: a header line is 'Key: Value'"),
        # fine: a click on a revealed cell is a wasted click; one off the board (the pointer left the
        # board, as the reference parser and the game have it) clicks nothing
        (GOOD.replace("1.000 lc 5 1", "1.000 lc 2 1").replace("1.000 lr 5 1", "1.000 lr 2 1"), None),
        (GOOD.replace("0.500 rc 3 2", "0.500 rc 3 7"), None),
    ],
)
def test_a_broken_file_is_refused_with_a_sentence(broken: str, says: str | None) -> None:
    assert broken != GOOD
    if says is None:
        assert len(read_rawvf(broken).clicks) in (2, 3)
        return
    with pytest.raises(ReplayError) as raised:
        read_rawvf(broken)
    assert says.lower() in str(raised.value).lower()


def test_the_good_file_reads() -> None:
    replay = read_rawvf(GOOD)
    assert replay.final.status == "won" and [c.time for c in replay.clicks] == [0.0, 0.5, 1.0]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_damaged_file_reads_or_is_refused_with_a_replay_error(data: st.DataObject) -> None:
    lines = GOOD.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        n = data.draw(st.integers(0, len(lines) - 1))
        line = lines[n]
        how = data.draw(st.sampled_from(["drop", "char", "dup", "text"]))
        if how == "drop":
            del lines[n]
        elif how == "dup":
            lines.insert(n, line)
        elif how == "text":
            lines[n] = data.draw(st.text(max_size=30))
        elif line:
            at = data.draw(st.integers(0, len(line) - 1))
            lines[n] = line[:at] + data.draw(st.characters()) + line[at + 1 :]
        if not lines:
            break
    try:
        read_rawvf("\n".join(lines))
    except ReplayError as error:
        assert len(str(error)) > 15


def test_a_text_that_is_not_rawvf() -> None:
    with pytest.raises(TypeError, match="text"):
        read_rawvf(b"RawVF")  # type: ignore[arg-type]
    with pytest.raises(ReplayError):
        read_rawvf("")
    assert dataclasses.is_dataclass(read_rawvf(GOOD))
