"""Replays (engine/replay.py): a recorded game is checked when made, whatever way it is made, and a
history of boards gives back its clicks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import Board, Click, Replay, ReplayError, new_board, play, reveal, toggle_flag
from ipyminesweeper.engine.replay import as_replay, click_board

WALL = "..*..\n..*..\n..*.."


def covered(text: str) -> Board:
    board = Board.from_text(text)
    return Board(board.rows, board.cols, board.mines, bytes(board.rows * board.cols), board.minefield)


def test_a_replay_plays_its_clicks_and_keeps_wasted_ones() -> None:
    replay = Replay.from_clicks(covered(WALL), [Click("left", (0, 0)), Click("left", (0, 0))])
    assert len(replay.boards) == 3 and replay.boards[2] is replay.boards[1]
    assert replay.final.status == "playing" and replay.start.status == "ready"
    assert "2 clicks" in repr(replay)


@pytest.mark.parametrize(
    ("clicks", "says"),
    [
        ([Click("left", (3, 0))], "off the 3x5 board"),
        ([Click("left", (0, 2)), Click("left", (0, 0))], "after the game was lost"),
        ([Click("left", (0, 0)), Click("left", (0, 4)), Click("right", (1, 2))], "after the game was won"),
    ],
)
def test_a_click_off_the_board_or_after_the_end_is_refused(clicks: list[Click], says: str) -> None:
    with pytest.raises(ReplayError, match=says) as raised:
        Replay.from_clicks(covered(WALL), clicks)
    assert f"click {len(clicks)}" in str(raised.value)


def test_boards_that_do_not_follow_are_refused() -> None:
    start = covered(WALL)
    after = reveal(start, (0, 0))
    with pytest.raises(ReplayError, match=r"click 1 .* not the board the rules make"):
        Replay((start, after), (Click("left", (0, 4)),))
    with pytest.raises(ReplayError, match="one board more than clicks"):
        Replay((start,), (Click("left", (0, 0)),))
    with pytest.raises(ReplayError, match="board 2 does not follow from board 1"):
        Replay.from_boards([start, reveal(reveal(start, (0, 0)), (0, 4))])  # two clicks in one step
    with pytest.raises(ReplayError, match="other mines"):
        Replay.from_boards([reveal(start, (0, 0)), reveal(covered("*....\n*....\n*...."), (0, 4))])


@pytest.mark.parametrize(
    "click",
    [
        lambda: Click("double", (0, 0)),  # type: ignore[arg-type]
        lambda: Click("left", (0,)),  # type: ignore[arg-type]
        lambda: Click("left", (0, 0), float("nan")),
        lambda: Click("left", (0, 0), "1"),  # type: ignore[arg-type]
    ],
)
def test_a_click_is_checked_when_made(click: object) -> None:
    with pytest.raises((TypeError, ValueError), match="click"):
        click()  # type: ignore[operator]


@st.composite
def games(draw: st.DrawFn) -> Replay:
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    mines = draw(st.integers(0, rows * cols - 1))
    board = new_board(rows, cols, mines, seed=draw(st.integers(0, 2**32)), first_click="safe")
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    clicks = []
    for kind, pos in draw(
        st.lists(st.tuples(st.sampled_from(["left", "right", "chord"]), cell), max_size=25)
    ):
        if board.over:
            break
        clicks.append(Click(kind, pos))  # type: ignore[arg-type]
        board = click_board(board, clicks[-1])
    return Replay.from_clicks(new_board(rows, cols, mines, seed=board.seed, first_click="safe"), clicks)


@settings(max_examples=150, deadline=None)
@given(games())
def test_a_history_of_boards_gives_back_its_clicks(replay: Replay) -> None:
    kept = [replay.boards[0]] + [b for a, b in zip(replay.boards, replay.boards[1:], strict=False) if a != b]
    again = Replay.from_boards(replay.boards)
    assert [b.view for b in again.boards] == [b.view for b in kept]
    assert again.final == replay.final
    assert len(again.clicks) == len(kept) - 1
    changing = [c.kind for c, before, after in replay.steps() if before != after]
    assert [c.kind == "right" for c in again.clicks] == [k == "right" for k in changing]


def test_as_replay_takes_what_play_returns_a_history_or_a_replay() -> None:
    final, moves = play(new_board("beginner", seed=4), "exact")
    replay = as_replay((final, moves))
    assert replay.final == final and len(replay.clicks) == len(moves)
    assert as_replay(replay) is replay
    history = [new_board(4, 4, 2, seed=1)]
    history.append(toggle_flag(history[-1], (0, 0)))
    history.append(reveal(history[-1], (3, 3)))
    assert [c.kind for c in as_replay(history).clicks] == ["right", "left"]
    with pytest.raises(TypeError, match="game"):
        as_replay("not a game")
    started = reveal(new_board("beginner", seed=4), (4, 4))
    with pytest.raises(ReplayError, match="history of boards"):
        as_replay(play(started, "exact"))  # the first click is not among the moves
