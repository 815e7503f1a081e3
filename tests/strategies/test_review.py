"""review(game) (strategies/review.py): every move rated from the player's view by the exact solver.

The kinds and "as good as the solver's" are checked against an independent reading of each view (the
solver's analyse), on games of every built-in strategy; exact's own games are rated 100%; simple's
unforced guesses are counted; the rows depend on the views only, never on the mines."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ipyminesweeper import (
    STRATEGIES,
    Board,
    Click,
    Minefield,
    Replay,
    analyse,
    new_board,
    play,
    reveal,
    review,
    toggle_flag,
)
from ipyminesweeper.engine.replay import click_board
from ipyminesweeper.strategies.review import KINDS, TOLERANCE, Review

FAST_GAMES = 25
SLOW_GAMES = 1000


def seeded_reviews(strategy: str, games: int, level: str = "beginner") -> list[Review]:
    """The reviews of ``games`` seeded games of ``strategy`` (seeds 0, 1, ...)."""
    return [review(play(new_board(level, seed=seed), strategy)) for seed in range(games)]


def check_row_kinds(reviewed: Review) -> None:
    """Each row's kind, probability and verdict, against the solver's own reading of its view."""
    for row in reviewed.rows:
        assert row.kind in KINDS
        view = row.view
        cells, cols = view.cells, view.cols
        ready = not any(ch.isdigit() for ch in cells)
        if row.kind == "wasted":
            assert row.probability is None and not row.good
            continue
        a = analyse(view)
        safe = [p for p in a.safe if cells[p[0] * cols + p[1]] in ".f"]
        assert row.probability is not None and 0.0 <= row.probability <= 1.0
        covered = [p for pos, p in a.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."]
        if covered and not ready:
            assert row.lowest == pytest.approx(0.0 if any(view[p] == "." for p in safe) else min(covered))
        if row.kind == "certain":
            assert row.good
            if row.action == "reveal" and not ready:
                assert row.pos in a.safe and row.probability == 0.0
            elif row.action == "flag" and view[row.pos] == ".":
                assert row.pos in a.mines
        elif row.kind == "wrong flag":
            assert row.action == "flag" and row.pos not in a.mines and not row.good
        elif row.kind == "unforced guess":
            assert safe or ready, "an unforced guess had a certainly safe cell to play"
            assert row.probability > 0 and not row.good
        else:  # a forced guess: no cell was certainly safe; good if no riskier than the solver's move
            assert not safe and row.probability > 0
            assert row.best_probability is not None
            assert row.good == (row.probability <= row.best_probability + TOLERANCE)


def check_summary(reviewed: Review) -> None:
    rows = reviewed.rows
    assert reviewed.accuracy == (sum(r.good for r in rows) / len(rows) if rows else 1.0)
    assert reviewed.unforced_guesses == tuple(r for r in rows if r.kind == "unforced guess")
    assert reviewed.wrong_flags == tuple(r for r in rows if r.kind == "wrong flag")
    guesses = [r for r in rows if r.kind.endswith("guess")]
    assert reviewed.luck == pytest.approx(math.prod(1 - (r.probability or 0) for r in guesses))
    if reviewed.status == "lost":
        assert reviewed.lost_move is rows[-1] and rows[-1].kind != "certain"
        assert reviewed.lost_forced == (rows[-1].kind == "forced guess")
    else:
        assert reviewed.lost_move is None and reviewed.lost_forced is None
    assert [r.number for r in rows] == list(range(1, len(rows) + 1))


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_move_of_every_strategy_is_rated(strategy: str) -> None:
    for reviewed in seeded_reviews(strategy, FAST_GAMES):
        check_row_kinds(reviewed)
        check_summary(reviewed)


@pytest.mark.parametrize("strategy", ["exact", "exact-flags"])
def test_exacts_own_games_are_rated_100_percent(strategy: str) -> None:
    for level, games in (("beginner", FAST_GAMES), ("intermediate", 4), ("expert", 2)):
        for reviewed in seeded_reviews(strategy, games, level):
            assert reviewed.accuracy == 1.0, str(reviewed)


def test_simples_unforced_guesses_are_counted() -> None:
    reviews = seeded_reviews("simple", FAST_GAMES)
    unforced = [row for r in reviews for row in r.unforced_guesses]
    assert len(unforced) >= 5  # simple guesses blindly at the first covered cell, safe cells or not
    for row in unforced:
        a = analyse(row.view)
        assert any(row.view[p] in ".f" for p in a.safe) and a.probabilities[row.pos] > 0
        assert row.best.probability == 0.0 and row.best.pos in a.safe


def test_a_forced_guess_riskier_than_the_solvers_is_not_as_good() -> None:
    forced = [
        row
        for reviewed in seeded_reviews("simple", 5, "intermediate")
        for row in reviewed.rows
        if row.kind == "forced guess"
    ]
    worse = [r for r in forced if r.probability > r.best_probability + TOLERANCE]  # type: ignore[operator]
    assert worse, "simple's blind guesses include one riskier than exact's"
    assert not any(r.good for r in worse) and all(r.good for r in forced if r not in worse)
    assert all("the solver's move" in r.verdict for r in worse)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_move_of_1000_games_per_strategy_is_rated(strategy: str) -> None:
    unforced = 0
    for reviewed in seeded_reviews(strategy, SLOW_GAMES):
        check_summary(reviewed)
        assert all(r.kind in KINDS for r in reviewed.rows)
        unforced += len(reviewed.unforced_guesses)
        if strategy.startswith("exact"):
            assert reviewed.accuracy == 1.0, str(reviewed)
    if strategy == "simple":
        assert unforced > 0


def covered(text: str) -> Board:
    board = Board.from_text(text)
    return Board(board.rows, board.cols, board.mines, bytes(board.rows * board.cols), board.minefield)


def test_each_kind_on_a_small_board() -> None:
    start = covered(".*.")  # first_click "any": the first click is a guess, 1 in 3
    first = review(Replay.from_clicks(start, [Click("left", (0, 0))])).rows[0]
    assert (first.kind, first.good) == ("forced guess", True) and first.probability == pytest.approx(1 / 3)
    opened = click_board(start, Click("left", (0, 0)))  # "1..": (0,1) is the mine, (0,2) is safe
    moves = {
        Click("left", (0, 2)): ("certain", 0.0, True),
        Click("right", (0, 1)): ("certain", 1.0, True),
        Click("right", (0, 2)): ("wrong flag", 0.0, False),
        Click("left", (0, 0)): ("wasted", None, False),
        Click("chord", (0, 0)): ("wasted", None, False),
        Click("left", (0, 1)): ("unforced guess", 1.0, False),
    }
    for click, (kind, p, good) in moves.items():
        row = review(Replay.from_clicks(opened, [click])).rows[0]
        assert (row.kind, row.probability, row.good) == (kind, p, good), click
        assert row.best.pos == (0, 2) and row.lowest == 0.0
    lost = review(Replay.from_clicks(opened, [Click("left", (0, 1))]))
    assert lost.lost_move is lost.rows[0] and lost.lost_forced is False and lost.luck == 0.0
    flagged = click_board(opened, Click("right", (0, 1)))
    unflag = review(Replay.from_clicks(flagged, [Click("right", (0, 1))])).rows[0]
    assert unflag.kind == "certain" and unflag.verdict.startswith("unflag")


def test_a_chord_is_certain_on_a_proven_flag_and_a_guess_on_an_unproven_one() -> None:
    start = covered("*.*\n...\n...")  # the first click at (2,0) opens all but the top row's three cells
    proven = [Click("left", (2, 0)), Click("right", (0, 0)), Click("chord", (1, 0))]
    chord = review(Replay.from_clicks(start, proven)).rows[2]
    assert (chord.kind, chord.probability, chord.good) == ("certain", 0.0, True)
    start = covered(".*..")  # "..1." once (0,2) is open: (0,1) or (0,3) is the mine, (0,0) is safe
    unproven = [Click("left", (0, 2)), Click("right", (0, 1)), Click("chord", (0, 2))]
    chord = review(Replay.from_clicks(start, unproven)).rows[2]
    assert (chord.kind, chord.good) == ("unforced guess", False) and chord.probability == pytest.approx(0.5)


def test_the_first_click_is_safe_when_the_rules_make_it_so() -> None:
    row = review(play(new_board("expert", seed=2), "exact")).rows[0]
    assert (row.kind, row.probability, row.good) == ("certain", 0.0, True)
    assert "rules make the first click safe" in row.verdict


def test_review_takes_what_play_returns_a_history_or_a_replay() -> None:
    final, moves = play(new_board("beginner", seed=9), "simple")
    from_play = review((final, moves))
    history = [new_board("beginner", seed=9)]
    for move in moves:
        rule = {"reveal": reveal, "flag": toggle_flag}[move.action]
        history.append(rule(history[-1], move.pos))
    from_history = review(tuple(history))
    assert [(r.kind, r.pos, r.probability) for r in from_history.rows] == [
        (r.kind, r.pos, r.probability) for r in from_play.rows
    ]
    assert str(from_play).startswith(f"{len(moves)} moves, {final.status}: accuracy")
    with pytest.raises(TypeError, match="game"):
        review(final)
    assert review([history[0]]).accuracy == 1.0 and review([history[0]]).metrics is None


@st.composite
def games_and_other_mines(draw: st.DrawFn) -> tuple[Replay, Replay]:
    """A game, and the same clicks on a board whose mines differ only where the player saw nothing."""
    rows, cols = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    mines = draw(st.integers(1, rows * cols // 3))
    seed = draw(st.integers(0, 2**32))
    placed = reveal(new_board(rows, cols, mines, seed=seed, first_click="safe"), (0, 0))
    start = Board(rows, cols, mines, bytes(rows * cols), placed.minefield)
    rng = random.Random(draw(st.integers(0, 2**32)))
    clicks, board = [], start
    for _ in range(draw(st.integers(1, 12))):
        if board.over:
            break
        kind = rng.choice(["left", "left", "right", "chord"])
        clicks.append(Click(kind, (rng.randrange(rows), rng.randrange(cols))))  # type: ignore[arg-type]
        board = click_board(board, clicks[-1])
    seen = {j for i, s in enumerate(board.states) if s == 2 for j in _block(rows, cols, i)}
    hidden = [i for i in range(rows * cols) if i not in seen]
    mask = bytearray(placed.mask)
    shuffled = [mask[i] for i in hidden]
    rng.shuffle(shuffled)
    for i, m in zip(hidden, shuffled, strict=True):
        mask[i] = m
    assume(bytes(mask) != placed.mask)
    field = Minefield(rows, cols, bytes(mask), first_click=placed.first_click)  # the same rules
    other = Board(rows, cols, mines, bytes(rows * cols), field)
    return Replay.from_clicks(start, clicks), Replay.from_clicks(other, clicks)


def _block(rows: int, cols: int, i: int) -> list[int]:
    r, c = divmod(i, cols)
    return [
        (r + dr) * cols + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


@settings(max_examples=60, deadline=None)
@given(games_and_other_mines())
def test_the_same_views_with_other_mines_give_the_same_rows(games: tuple[Replay, Replay]) -> None:
    one, other = games
    assert one.start.mask != other.start.mask
    assert [b.view for b in one.boards[:-1]] == [b.view for b in other.boards[:-1]]
    rows_one, rows_other = review(one).rows, review(other).rows
    assert rows_one == rows_other
