"""The history of a game: an immutable sequence of boards, stored as moves, that stays cheap on long games.

Work is counted, not timed (timings live in ``benchmarks/bench_history.py``): a move copies at most one
chunk of turns, and reading a board or a slice replays only the moves up to the boards asked for.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import Minesweeper, Move, new_board, reveal
from ipyminesweeper.strategies import apply_move
from ipyminesweeper.widget import history as history_module
from ipyminesweeper.widget.history import CHECKPOINT, History, Turn, Turns, checked_index


def toggles(n: int, seed: int = 1) -> tuple[History, list[Any]]:
    """A history of ``n`` flag toggles on an expert board, and the list of every board (the oracle)."""
    board = reveal(new_board("expert", seed=seed), (8, 15))
    spots = [p for p in board.positions() if board.view[p] == "."][:7]
    history, boards = History.begin(board), [board]
    for i in range(n):
        move = Move("flag", spots[i % len(spots)])
        board = apply_move(board, move)
        history = history.add(board, move, "player" if i % 3 else None)
        boards.append(board)
    return history, boards


class CountingMoves:
    """``apply_move`` as the history module sees it, counting the moves it replays."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        monkeypatch.setattr(history_module, "apply_move", self)

    def __call__(self, board: Any, move: Any) -> Any:
        self.count += 1
        return apply_move(board, move)


def test_a_history_equals_the_list_of_its_boards() -> None:
    history, boards = toggles(300)
    assert list(history) == boards and len(history) == 301
    for i in (0, 1, 63, 64, 65, 127, 128, 200, 299, 300, -1, -2, -301):
        assert history[i] == boards[i]
    for cut in (slice(None), slice(-3, None), slice(5, 200, 7), slice(None, None, -1), slice(250, 10, -31)):
        assert history[cut] == tuple(boards[cut])
    assert history.moves == tuple(t.move for t in history.turns)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 200), st.lists(st.integers(-300, 300), max_size=6))
def test_undo_upto_and_slices_agree_with_the_list(n: int, cuts: list[int]) -> None:
    history, boards = toggles(n)
    assert list(history.undo()) == (boards[:-1] if n else boards)
    for k in cuts:
        if -len(boards) <= k < len(boards):
            assert list(history.upto(k)) == boards[: k % len(boards) + 1]
        else:
            with pytest.raises(IndexError, match="out of range"):
                history.upto(k)
    start, stop = [*sorted(cuts[:2]), None, None][:2]
    assert history[start:stop] == tuple(boards[start:stop])


def test_a_move_copies_at_most_one_chunk_the_turns_are_shared() -> None:
    history, _ = toggles(5 * CHECKPOINT + 3)
    move = Move("flag", (0, 0))
    longer = history.add(apply_move(history.current, move), move)
    assert longer.turns.chunks is history.turns.chunks, "the full chunks are the same objects"
    assert len(longer.turns.tail) == len(history.turns.tail) + 1
    assert history.undo().turns.chunks is history.turns.chunks
    assert history.upto(2 * CHECKPOINT).turns.chunks == history.turns.chunks[:2]


def test_a_slice_replays_only_the_boards_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """``history[-3:]`` replayed every board (11.2 s after 50,000 moves); now at most one checkpoint's."""
    history, _ = toggles(5_000)
    counter = CountingMoves(monkeypatch)
    last = history[-3:]
    assert counter.count <= CHECKPOINT and last[-1] is history.current
    counter.count = 0
    assert history[100] == history[100] and counter.count <= 2 * CHECKPOINT
    counter.count = 0
    history[1000:1010]
    assert counter.count <= CHECKPOINT + 10


def test_a_history_index_out_of_range_names_the_valid_range() -> None:
    w = Minesweeper()
    with pytest.raises(IndexError, match=r"history index 1 is out of range: .* 1 board, index 0 \(or -1"):
        w.history[1]
    w.reveal(4, 4)
    with pytest.raises(IndexError, match=r"indices 0 to 1 \(or -2 to -1 from the end\)"):
        w.history[-3]
    with pytest.raises(TypeError, match="a history index is an int, not str"):
        w.history["1"]  # type: ignore[call-overload]
    with pytest.raises(IndexError, match="turns index 0 is out of range: there are no turns"):
        Turns()[0]
    assert checked_index(-1, 3, "history", "board") == 2


def test_turns_and_histories_are_checked_and_pickle_through_the_check() -> None:
    history, boards = toggles(150)
    again = pickle.loads(pickle.dumps(history))
    assert again == history and list(again) == boards
    with pytest.raises(TypeError, match="Turns holds tuples"):
        Turns([], ())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunks of exactly"):
        Turns(((history.turns[0],),), ())
    with pytest.raises(TypeError, match="a history holds Turns"):
        Turns.of([history.turns[0], "move"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="stores its board"):
        Turn(None)
    with pytest.raises(TypeError, match="a history's start is a Board"):
        History("board", Turns(), boards[0])  # type: ignore[arg-type]
    tampered = pickle.dumps(history).replace(b"player", b"playex")
    assert pickle.loads(tampered).turns[1].strategy == "playex", "a harmless change still loads"
    state = {"start": boards[0], "turns": history.turns, "current": "a forged board"}
    with pytest.raises(TypeError, match="a history's current is a Board"):
        pickle.loads(pickle.dumps(Pickled(object.__new__, (History,), state)))
    with pytest.raises(ValueError, match="stores its board"):
        pickle.loads(
            pickle.dumps(Pickled(object.__new__, (Turn,), {"move": None, "strategy": None, "board": None}))
        )


def test_a_kept_move_holds_its_reason_not_the_view_it_was_worked_out_from() -> None:
    """exact explains a certain move when its reason is read, from the view it played on; a widget's
    history keeps every move for the whole game, so it keeps them explained, not holding their views
    (on a 2000 x 2000 board each view is 4 MB)."""
    w = Minesweeper(size=30, mines=60, seed=3)
    for _ in range(12):
        if w.board.over:
            break
        w.step("exact")
    turns = [t for t in w.history.turns if t.move is not None]
    assert turns and all(isinstance(t.move.why, tuple) for t in turns if t.move is not None)
    hint = w.hint("exact") if not w.board.over else None
    assert hint is None or isinstance(w.session.hint.move.why, tuple)  # type: ignore[union-attr]


class Pickled:
    """A pickle written by hand: ``__reduce__`` returns what unpickling should do."""

    def __init__(self, *reduce: Any) -> None:
        self.reduce = reduce

    def __reduce__(self) -> Any:
        return self.reduce
