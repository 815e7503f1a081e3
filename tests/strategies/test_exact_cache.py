"""``exact`` carries the fast rules' conclusions from one move to the next (issue 9; the solver's memo,
issue 57) and stays a pure function of the view: after every move of 1,000 games its move equals, field
by field (reason, numbers and constrained cells included), its move with nothing kept; a certain move is
the first covered cell in reading order that the fast rules (else the exact count) prove safe, with their
reason. Views that do not extend the last one (an undo, a new game, another board) start again from the
whole view. ``exact`` is a plain function, and its moves plain values."""

from __future__ import annotations

import copy
import inspect
import pickle
import random
import threading
from dataclasses import FrozenInstanceError, replace

import pytest

from ipyminesweeper import Board, View, new_board, reveal, toggle_flag
from ipyminesweeper.arena import play_game
from ipyminesweeper.solver import analyse, closure, deduce
from ipyminesweeper.strategies import Move, exact, exact_flags
from ipyminesweeper.strategies.move import Strategy, validate_move

SIZES = [(6, 6, 5), (8, 8, 10), (9, 9, 10), (6, 12, 12), (12, 12, 25), (16, 16, 40), (16, 30, 99)]
WEIGHTS = [25, 25, 25, 10, 10, 3, 2]


def fields(move: Move) -> tuple[object, ...]:
    return (
        move.action,
        move.pos,
        move.reason,
        move.probability,
        move.score,
        move.numbers,
        move.constrained,
    )


def first_certain(view: View) -> tuple[tuple[int, int], str]:
    """The first covered cell in reading order the fast rules prove safe (else the exact count does),
    with its reason."""
    cells, cols = view.cells, view.cols
    proved = deduce(view)
    safe = sorted(p for p in proved.safe if cells[p[0] * cols + p[1]] in ".f")
    reasons = proved.reasons
    if not safe:
        exact_count = analyse(view)
        safe = sorted(p for p in exact_count.safe if cells[p[0] * cols + p[1]] in ".f")
        reasons = exact_count.reasons
    pos = safe[0]
    why = reasons.get(pos, f"({pos[0]},{pos[1]}) is safe: it is a mine in no layout that fits the view")
    unflag = f"unflag ({pos[0]},{pos[1]}), to reveal it next: {why}"
    return pos, (unflag if cells[pos[0] * cols + pos[1]] == "f" else why)


def fresh(strategy: Strategy, view: View) -> Move:
    """``strategy``'s move on ``view`` with nothing kept from an earlier view."""
    closure.clear()
    return strategy(view)


def test_kept_moves_equal_fresh_ones_after_every_move() -> None:
    positions = certain = 0
    for game in range(1000):
        rng = random.Random(game)
        rows, cols, mines = rng.choices(SIZES, WEIGHTS)[0]
        first_click = "opening" if game % 2 else "safe"
        board = new_board(rows, cols, mines, seed=game, first_click=first_click)
        board = reveal(board, (rng.randrange(rows), rng.randrange(cols)))
        kept = exact_flags if game % 7 == 0 else exact
        while board.status == "playing":
            view = board.view
            move = kept(view)  # from the closure of the view before
            again = fresh(kept, view)  # the next move's is carried on from this one
            if move.probability == 0.0 and game % 10 == 0:  # the definition, from scratch
                assert (move.pos, move.reason) == first_certain(view)
                certain += 1
            assert fields(move) == fields(again) and move == again
            positions += 1
            if rng.random() < 0.05:  # a flag put down (or taken up): the kept rules do not trust it
                board = toggle_flag(board, rng.choice(board.covered()))
            board = toggle_flag(board, move.pos) if move.action == "flag" else reveal(board, move.pos)
    assert positions > 20_000 and certain > 1_500, (positions, certain)


def _views(seed: int, level: str = "expert") -> list[Board]:
    board = reveal(new_board(level, seed=seed, first_click="opening"), (3, 3))
    boards = [board]
    while board.status == "playing" and len(boards) < 40:
        board = reveal(board, exact(board.view).pos)
        boards.append(board)
    return boards


def test_views_that_do_not_extend_the_last_start_again() -> None:
    a, b = _views(1), _views(2)
    c = _views(3, "beginner")
    closure.clear()
    order = [
        a[10],
        a[20],
        a[5],  # an undo
        b[15],  # another game of the same size
        c[10],  # another size
        a[30],
        a[30],  # the same view again
    ]
    flagged = toggle_flag(a[30], a[30].covered()[0])
    order += [flagged, a[31], a[20]]  # a flag put down, then gone again with a reveal; an undo
    for board, before in zip(order, [None, *order], strict=False):
        if before is not None:
            exact(before.view)  # the view kept
        move = exact(board.view)
        assert fields(move) == fields(fresh(exact, board.view))
        validate_move(board, move)
    fewer = replace(a[12].view, mines=a[12].view.mines - 1)  # another mine count: no reuse
    exact(a[12].view)
    assert fields(exact(fewer)) == fields(fresh(exact, fewer))


def test_callers_in_threads_each_get_the_move_of_their_view() -> None:
    """Games played at once in threads share the kept closure (taken out while it is carried on):
    every move is the one worked out from its view alone."""
    games = [_views(seed) for seed in (5, 6, 7, 8)]
    moves: dict[int, list[Move]] = {}

    def play(k: int) -> None:
        moves[k] = [exact(board.view) for board in games[k] if board.status == "playing"]

    threads = [threading.Thread(target=play, args=(k,)) for k in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k, boards in enumerate(games):
        assert moves[k] == [fresh(exact, b.view) for b in boards if b.status == "playing"]


def test_exact_is_a_plain_function_and_its_moves_plain_values() -> None:
    assert inspect.isfunction(exact) and inspect.isfunction(exact_flags)
    move = exact(_views(9)[5].view)
    with pytest.raises(FrozenInstanceError):
        setattr(move, "pos", (0, 0))  # noqa: B010
    assert move.reason and move == pickle.loads(pickle.dumps(move)) and hash(move) == hash(copy.copy(move))


def test_strategies_pickle_by_reference_and_keep_their_names() -> None:
    assert pickle.loads(pickle.dumps(exact)) is exact
    assert pickle.loads(pickle.dumps(exact_flags)) is exact_flags
    assert copy.deepcopy(exact) is exact
    assert (exact.__name__, exact_flags.__name__, exact.__module__) == (
        "exact",
        "exact_flags",
        "ipyminesweeper.strategies.exact",
    )
    assert exact.__doc__ and "certain moves first" in exact.__doc__


def test_a_move_explained_later_is_a_move() -> None:
    calls: list[int] = []

    def explain() -> tuple[str, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        calls.append(1)
        return "why", ((0, 1),), ((1, 1),)

    move = Move("reveal", (0, 0), probability=0.0, why=explain)
    plain = Move("reveal", (0, 0), "why", 0.0, numbers=((0, 1),), constrained=((1, 1),))
    board = new_board("beginner", seed=1)
    validate_move(board, move)  # playing a move does not word it
    play_game(lambda view: Move("reveal", exact(view).pos, probability=0.0, why=explain), "beginner", 1)
    assert not calls and move.pos == (0, 0)
    assert move == plain and plain == move and hash(move) == hash(plain)
    assert len(calls) == 3  # worked out each time it is read: nothing is filled in later
    assert repr(move) == repr(plain) and str(move) == str(plain)
    assert type(pickle.loads(pickle.dumps(move))) is Move and pickle.loads(pickle.dumps(move)) == plain
    assert replace(move, probability=0.5) == replace(plain, probability=0.5)
    other = replace(plain, reason="other")  # type: ignore[call-arg]  # (Move takes reason; it stores why)
    assert move != other and other.reason == "other" and move.why is explain  # worked out, never kept
