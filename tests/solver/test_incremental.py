"""What the solver carries from one move to the next (cached view readings and component counts, the
fast rules' closure) never changes an answer: after every move of 1,000 games, the analysis and the
rules' certain cells equal those worked out from scratch."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from _solver_oracle import MinimalView
from ipyminesweeper import new_board, reveal, toggle_flag
from ipyminesweeper.solver import analyse, deduce
from ipyminesweeper.solver.closure import carried, closure, revealed_since
from ipyminesweeper.solver.components import split
from ipyminesweeper.solver.constraints import (
    ConstraintSystem,
    InconsistentViewError,
    clear_cache,
    read_view,
)
from ipyminesweeper.solver.count import count
from ipyminesweeper.solver.probabilities import clear_caches
from ipyminesweeper.solver.reasoner import Reasoner, propagate

SIZES = [(6, 6, 5), (9, 9, 10), (8, 8, 12), (6, 12, 14), (16, 16, 40), (16, 30, 99)]


def test_cached_analysis_equals_a_fresh_one_after_every_move() -> None:
    positions = 0
    for game in range(1000):
        rng = random.Random(game)
        rows, cols = rng.choice([(6, 6), (8, 8), (9, 9), (6, 12)])
        board = new_board(rows, cols, rng.randint(4, rows * cols // 5), seed=game, first_click="safe")
        board = reveal(board, (rng.randrange(rows), rng.randrange(cols)))
        while not board.over:
            warm = analyse(board.view)  # reuses whatever earlier moves left in the caches
            clear_caches()
            cold = analyse(board.view)
            assert warm == cold and dict(warm.probabilities) == dict(cold.probabilities)
            assert dict(warm.reasons) == dict(cold.reasons)
            positions += 1
            safe = sorted(warm.safe & set(board.covered()))
            pos = safe[0] if safe else min(board.covered(), key=lambda p: (warm.probabilities[p], p))
            board = reveal(board, pos)
    assert positions > 3000


def test_kept_closure_decides_what_deduce_decides_after_every_move() -> None:
    """The fast rules carried from move to move (the Reasoner told which cells were revealed: carried)
    decide exactly the cells a fresh deduce decides, after every move, flags toggled or not."""
    positions = 0
    for game in range(600):
        rng = random.Random(game)
        rows, cols, mines = rng.choices(SIZES, [4, 4, 4, 3, 2, 1])[0]
        board = new_board(rows, cols, mines, seed=game, first_click=rng.choice(["safe", "opening"]))
        board = reveal(board, (rng.randrange(rows), rng.randrange(cols)))
        kept: tuple[str, Reasoner] | None = None  # the last view's cells and closure
        while board.status == "playing":
            view = board.view
            state = None if kept is None else carried(kept[1], kept[0], view)
            state = state or closure(view)
            kept = (view.cells, state)
            fresh = deduce(view)
            covered = {i for i, ch in enumerate(view.cells) if ch in ".f"}
            assert {divmod(i, cols) for i in state.safe if i in covered} == fresh.safe
            assert {divmod(i, cols) for i in state.mines} == fresh.mines
            assert {divmod(i, cols) for i in state.pending} == fresh.safe
            assert state.unknown == len(covered) - len(fresh.safe) - len(fresh.mines)
            positions += 1
            if fresh.mines and rng.random() < 0.1:  # flags change nothing the rules trust
                board = toggle_flag(board, min(fresh.mines))
                continue
            # a certain cell if there is one, else any covered cell the rules have not made a mine
            unknown = sorted(covered - {r * cols + c for r, c in fresh.mines})
            pos = min(fresh.safe) if fresh.safe else divmod(rng.choice(unknown), cols)
            if view.cells[pos[0] * cols + pos[1]] == "f":
                board = toggle_flag(board, pos)
            board = reveal(board, pos)
    assert positions > 10_000, positions


def test_revealed_since_finds_reveals_and_nothing_else() -> None:
    assert revealed_since("..f.", "1.f2") == [0, 3]
    assert revealed_since("..f.", ".f.2") == [3]  # flags toggled: not reveals
    assert revealed_since("1.f.", "..f.") is None  # an undo
    assert revealed_since("..f.", "..f*") is None  # the end of a game
    assert revealed_since("..f.", "..f") is None
    assert revealed_since("....", "....") == []


def _revealed_by_definition(old: str, new: str) -> list[int] | None:
    """revealed_since as its docstring says it, one cell at a time."""
    if len(new) != len(old) or not (old.isascii() and new.isascii()):
        return None
    out = []
    for i, (o, n) in enumerate(zip(old, new, strict=True)):
        if o == n:
            continue
        if o not in ".f" or not (n in ".f" or "0" <= n <= "8"):
            return None
        if n not in ".f":
            out.append(i)
    return out


@settings(max_examples=300, deadline=None)
@given(
    old=st.text(alphabet=".f012345678*", min_size=1, max_size=120),
    data=st.data(),
)
def test_revealed_since_agrees_with_its_definition(old: str, data: st.DataObject) -> None:
    """Any edit of a view, wherever its first and last changed cells are: near the ends, in one row or
    spread out, with a stray character or one outside ASCII."""
    cells = list(old)
    for i in data.draw(st.lists(st.integers(0, len(old) - 1), max_size=6)):
        cells[i] = data.draw(st.sampled_from(".f012345678*XFé"))
    new = "".join(cells)
    assert revealed_since(old, new) == _revealed_by_definition(old, new)


def _reading(view: MinimalView) -> ConstraintSystem | None:
    try:
        return read_view(view)
    except InconsistentViewError:
        return None


def test_a_view_read_from_the_last_one_equals_a_fresh_reading() -> None:
    """A view that reveals a few cells of the last one read in full (the next move, a look-ahead
    hypothesis) is read around the cells that changed: the same system, or the same error."""
    derived = 0
    for game in range(80):
        rng = random.Random(game)
        rows, cols, mines = rng.choices(SIZES, [4, 4, 4, 3, 2, 1])[0]
        board = reveal(new_board(rows, cols, mines, seed=game, first_click="safe"), (0, 0))
        while board.status == "playing":
            view = board.view
            covered = [i for i, ch in enumerate(view.cells) if ch in ".f"]
            for x in rng.sample(covered, min(3, len(covered))):
                cells = view.cells[:x] + str(rng.randrange(9)) + view.cells[x + 1 :]
                hypo = MinimalView(rows, cols, mines, cells)
                clear_cache()
                read_view(view)  # read in full: the next reading starts from it
                warm = _reading(hypo)
                clear_cache()
                assert warm == _reading(hypo)
                derived += warm is not None
            safe = sorted(deduce(view).safe) or [divmod(rng.choice(covered), cols)]
            board = reveal(board, safe[0])
    assert derived > 2000


def test_a_hypothesis_recounts_only_the_component_it_touches() -> None:
    """The look-ahead analyses "this cell shows k": the components it does not touch are not counted
    again (``count`` is memoised per component), however many there are."""

    checked = 0
    for game in range(40):
        board = reveal(new_board("expert", seed=700 + game, first_click="safe"), (0, 0))
        rng = random.Random(game)
        while board.status == "playing" and checked < 200:
            view = board.view
            components = split(propagate(read_view(view)).system)
            if len(components) >= 3:
                analyse(view, explain=False)  # the position itself, counted once
                frontier = sorted(j for comp in components for box in comp.boxes for j in box)
                x = rng.choice(frontier)
                for k in range(9):
                    hypo = MinimalView(
                        view.rows, view.cols, view.mines, view.cells[:x] + str(k) + view.cells[x + 1 :]
                    )
                    before = count.cache_info().misses
                    try:
                        analyse(hypo, explain=False)
                    except ValueError:  # no layout shows k there
                        continue
                    assert count.cache_info().misses - before <= 1  # the touched component, merged
                    checked += 1
            a = analyse(view, explain=False)
            safe = sorted(p for p in a.safe if view.cells[p[0] * view.cols + p[1]] == ".")
            pos = safe[0] if safe else min(a.probabilities, key=lambda p: (a.probabilities[p], p))
            board = reveal(board, pos)
        if checked >= 200:
            break
    assert checked >= 200
