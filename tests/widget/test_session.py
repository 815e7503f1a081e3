"""The Elm-style loop without a kernel or a widget: ``after(session, message) -> session``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import reduce
from typing import Any

import pytest
from _widget_helpers import after
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import GameOverError, InvalidMoveError, Move, View, new_board, reveal
from ipyminesweeper.widget.messages import (
    AddStrategy,
    Autoplay,
    AutoStep,
    BadInput,
    Chord,
    Flag,
    FromBrowser,
    GameMessage,
    MessageError,
    NewGame,
    NewGameOf,
    Pause,
    Reveal,
    Scrub,
    SelectStrategy,
    SetBoard,
    SetCellSize,
    SetDelay,
    SetLabels,
    ShowProbabilities,
    Step,
    Undo,
)
from ipyminesweeper.widget.render import REASON_LIMIT, render
from ipyminesweeper.widget.session import AutoplayRun, Session
from ipyminesweeper.widget.session_update import StrategyError, start


def fresh(seed: int = 3, first_click: str = "opening") -> Session:
    return start(new_board(9, 9, 10, seed=seed, first_click=first_click))


def first_covered(view: View) -> Move:
    i = view.cells.index(".")
    return Move("reveal", view.position(i), "the first covered cell")


def test_moves_are_messages_and_the_loop_is_a_reduce() -> None:
    messages: list[GameMessage] = [Reveal((4, 4)), Flag((0, 0)), Flag((0, 0)), Step("exact")]
    s0 = fresh()
    final = reduce(lambda s, m: after(s, m, now=1000), messages, s0)
    boards = list(final.history)
    assert boards[0] == s0.board and boards[1] == reveal(s0.board, (4, 4))
    assert len(final.history) == 5 and final.board is final.history[-1]
    assert s0.board.status == "ready" and len(s0.history) == 1, "update never changes its input"


def test_the_clock_comes_with_the_message() -> None:
    s = after(fresh(), Reveal((4, 4)), now=5_000)
    assert s.started_at == 5_000 and s.ended_at == 0 and s.seconds == 0.0
    s = after(s, Step("exact"), now=9_000)
    assert s.started_at == 5_000
    while not s.board.over:
        s = after(s, Step("exact"), now=46_000)
    assert s.ended_at == 46_000 and s.seconds == 41.0
    assert s.summary.startswith(("won in 41 s", "lost after 41 s"))
    back = after(s, Undo(), now=50_000)
    assert back.ended_at == 0 and back.started_at == 5_000
    assert after(after(fresh(), Reveal((4, 4)), now=7), Undo()).started_at == 0


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (Reveal((9, 0)), ValueError),
        (Reveal((0, -1)), ValueError),
        (Step("nope"), MessageError),
        (SelectStrategy("nope"), MessageError),
        (Autoplay("nope"), MessageError),
        (Scrub(5), MessageError),
        (NewGameOf(rows=5, cols=5, mines=25), ValueError),
        (NewGameOf(first_click="maybe"), ValueError),
        ("reveal", MessageError),  # not a message at all
    ],
    ids=repr,
)
def test_a_rejected_message_raises_and_leaves_the_session_alone(message: Any, error: type[Exception]) -> None:
    """Messages that are well made but do not fit the session: update says why."""
    s = after(fresh(), Reveal((4, 4)), now=1)
    copy = dataclasses.replace(s)
    with pytest.raises(error):
        after(s, message, now=2)
    assert s == copy and render(s) == render(copy)


@pytest.mark.parametrize(
    ("make", "error", "says"),
    [
        (lambda: Flag((1.5, 0)), TypeError, r"Flag: a position is a \(row, col\) tuple of two ints"),  # type: ignore[arg-type]
        (lambda: Chord("a1"), TypeError, "position"),  # type: ignore[arg-type]
        (lambda: Reveal((True, 0)), TypeError, "position"),
        (lambda: Step(42), TypeError, "strategy name, a callable"),  # type: ignore[arg-type]
        (lambda: Autoplay(42), TypeError, "strategy name, a callable"),  # type: ignore[arg-type]
        (lambda: Autoplay(moves=-1), MessageError, "negative"),
        (lambda: Autoplay(moves=True), TypeError, "moves"),
        (lambda: SelectStrategy(3), TypeError, "a strategy name is a str"),  # type: ignore[arg-type]
        (lambda: SetDelay(-1), MessageError, "from 0 to 10"),
        (lambda: SetDelay(float("nan")), MessageError, "from 0 to 10"),
        (lambda: SetDelay(11), MessageError, "from 0 to 10"),
        (lambda: SetDelay("slow"), TypeError, "a number of seconds"),  # type: ignore[arg-type]
        (lambda: SetDelay(True), TypeError, "a number of seconds"),
        (lambda: SetCellSize(8), MessageError, "16 to 64"),
        (lambda: SetCellSize(20.0), TypeError, "an int"),  # type: ignore[arg-type]
        (lambda: ShowProbabilities(1), TypeError, "True or False"),  # type: ignore[arg-type]
        (lambda: SetLabels("yes"), TypeError, "True, False or None"),  # type: ignore[arg-type]
        (lambda: SetBoard("....."), TypeError, "a Board"),  # type: ignore[arg-type]
        (lambda: NewGame(None), TypeError, "a Board"),  # type: ignore[arg-type]
        (lambda: NewGameOf(level="huge"), MessageError, "unknown level"),
        (lambda: NewGameOf(level="expert", rows=3), MessageError, "sets the size"),
        (lambda: NewGameOf(rows=10, cols=10), MessageError, "rows, cols and mines"),
        (lambda: NewGameOf(rows="10", cols=10, mines=5), TypeError, "rows is an int"),  # type: ignore[arg-type]
        (lambda: NewGameOf(seed=-1), ValueError, "seed"),
        (lambda: Scrub("1"), TypeError, "an int"),  # type: ignore[arg-type]
        (lambda: AddStrategy("", first_covered), MessageError, "non-empty"),
        (lambda: AddStrategy("x" * 61, first_covered), MessageError, "at most 60"),
        (lambda: AddStrategy("mine", 42), TypeError, "callable"),  # type: ignore[arg-type]
        (lambda: AddStrategy("exact", first_covered), MessageError, "built-in"),
        (lambda: FromBrowser([Undo()]), TypeError, "a tuple of messages"),  # type: ignore[arg-type]
        (lambda: BadInput(3), TypeError, "a str"),  # type: ignore[arg-type]
    ],
)
def test_a_message_checks_its_fields_when_it_is_made(
    make: Callable[[], object], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        make()


def test_every_message_is_listed_once_and_exported() -> None:
    from ipyminesweeper import widget
    from ipyminesweeper.widget import messages

    names = {cls.__name__ for cls in messages.MESSAGES}
    assert names <= set(messages.__all__) and names <= set(widget.__all__)
    assert set(messages.BROWSER_MESSAGES) == {
        "reveal",
        "flag",
        "chord",
        "undo",
        "new_game",
        "step",
        "hint",
        "next_safe",
        "scrub",
        "live",
        "resume",
        "resync",
        "play",
        "pause",
        "cancel",
        "review",
        "link",
        "open_link",
    }
    assert {
        "strategy",
        "delay",
        "show_probabilities",
        "labels",
        "cell_size",
        "question_marks",
    } == messages.SETTINGS


def test_moves_after_the_end_are_rejected() -> None:
    s = fresh(seed=4, first_click="any")
    mine = next(p for p in s.board.positions() if s.board.is_mine(p))
    lost = after(s, Reveal(mine), now=1)
    assert lost.board.status == "lost"
    for message in (Reveal((0, 0)), Flag((0, 0)), Chord((0, 0)), Step("exact"), Autoplay()):
        with pytest.raises(GameOverError):
            after(lost, message)


def test_a_strategy_that_raises_is_a_strategy_error_with_its_traceback() -> None:
    def broken(view: View) -> Move:
        return 1 / 0  # type: ignore[return-value]

    s = after(fresh(), Reveal((4, 4)))
    with pytest.raises(StrategyError, match="ZeroDivisionError") as info:
        after(s, Step(broken))
    cause = info.value.__cause__
    assert isinstance(cause, ZeroDivisionError) and cause.__traceback__ is not None
    with pytest.raises(InvalidMoveError, match="already revealed"):
        after(s, Step(lambda v: Move("reveal", (4, 4))))


def test_a_callable_is_played_without_joining_the_menu() -> None:
    s = after(fresh(), Step(first_covered))
    assert "first_covered" not in s.strategy_names
    assert s.last_move is not None and s.last_move.strategy == "first_covered"
    assert s.assistance.autoplayer_moves == 1


def test_adding_strategies() -> None:
    s = after(fresh(), AddStrategy("mine", first_covered))
    assert s.strategy_names[-1] == "mine" and s.strategy == "exact"
    s = after(s, AddStrategy("mine", simple_too := lambda v: first_covered(v), select=True))
    assert s.strategy_names.count("mine") == 1 and s.strategy_named("mine") is simple_too
    assert s.strategy == "mine"


def test_undo_after_a_loss_is_allowed_and_counted() -> None:
    s = fresh(seed=4, first_click="any")
    safe = next(p for p in s.board.positions() if not s.board.is_mine(p))
    mine = next(p for p in s.board.positions() if s.board.is_mine(p))
    s = after(after(s, Reveal(safe), now=1_000), Reveal(mine), now=2_000)
    assert s.board.status == "lost" and s.summary == "lost after 1 s"
    s = after(s, Undo(), now=3_000)
    assert s.board.status == "playing" and s.assistance.undos_after_loss == 1
    while not s.board.over:  # finish the game by the rules, with the player's own certain reveals
        s = after(
            s,
            Reveal(next(p for p in s.board.positions() if s.board.view[p] == "." and not s.board.is_mine(p))),
            now=42_000,
        )
    assert s.board.status == "won"
    assert s.summary == "won in 41 s (assisted: 1 undo after a loss)"
    assert render(s)["summary"] == s.summary


def test_assistance_is_recorded_and_reset_by_a_new_game() -> None:
    s = after(fresh(), ShowProbabilities(True))
    s = after(s, Step("exact"))
    s = after(
        s,
        SetBoard(
            reveal(
                s.board,
                next(p for p in s.board.positions() if s.board.view[p] == "." and not s.board.is_mine(p)),
            )
        ),
    )
    assert s.assistance.overlay and s.assistance.autoplayer_moves == 1 and s.assistance.boards_set == 1
    assert "the probability overlay" in s.assistance.describe()
    s = after(s, ShowProbabilities(False))
    again = after(s, NewGame(new_board(9, 9, 10, seed=5)))
    assert not again.assistance and len(again.history) == 1 and again.last_move is None


def test_play_and_pause_are_state_and_the_end_stops_the_autoplayer() -> None:
    s = after(fresh(), Autoplay())
    assert s.autoplaying and s.autoplay == AutoplayRun(None, None)
    while not s.board.over:
        s = after(s, AutoStep())
    assert not s.autoplaying
    assert not after(after(fresh(), Autoplay("simple")), Pause()).autoplaying
    assert after(s, AutoStep()) == s, "a tick after the run ended changes nothing"


def test_the_move_limit_is_in_the_session() -> None:
    s = after(after(fresh(), Reveal((4, 4))), Autoplay("simple", moves=2))
    assert s.autoplay == AutoplayRun("simple", 2)
    s = after(s, AutoStep())
    assert s.autoplay == AutoplayRun("simple", 1) and len(s.history) == 3
    s = after(s, AutoStep())
    assert not s.autoplaying and len(s.history) == 4
    assert after(s, AutoStep()) == s
    assert not after(fresh(), Autoplay(moves=0)).autoplaying


def test_a_step_by_hand_stops_the_autoplayer() -> None:
    s = after(after(fresh(), Autoplay()), Step("simple"))
    assert not s.autoplaying and len(s.history) == 2


def test_the_synced_reason_is_cut() -> None:
    def chatty(view: View) -> Move:
        return Move("reveal", first_covered(view).pos, "x" * 100_000)

    s = after(fresh(), Step(chatty))
    assert s.last_move is not None and len(s.last_move.move.reason) == 100_000  # type: ignore[union-attr]
    synced = render(s)["last_move"]["reason"]
    assert len(synced) == REASON_LIMIT and synced.endswith("…")


def test_no_mine_in_what_is_rendered_while_playing() -> None:
    s = after(fresh(), Reveal((4, 4)))
    state = render(after(s, ShowProbabilities(True)))
    assert set(state["cells"]) <= set(".f012345678")
    assert all(0.0 <= p <= 1.0 for p in state["probabilities"].values())


# --- fuzzing the loop: any sequence of messages keeps a valid session --------------------------------

positions = st.tuples(st.integers(-2, 10), st.integers(-2, 10))
messages = st.one_of(
    positions.map(Reveal),
    positions.map(Flag),
    positions.map(Chord),
    st.just(Undo()),
    st.sampled_from(["exact", "simple", "scored", "nope"]).map(Step),
    st.sampled_from(["exact", "simple", "nope"]).map(SelectStrategy),
    st.floats(0, 10).map(SetDelay),
    st.booleans().map(ShowProbabilities),
    st.just(Autoplay()),
    st.just(Pause()),
    st.integers(0, 3).map(lambda seed: NewGame(new_board(5, 6, 6, seed=seed))),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(messages, max_size=40), st.integers(0, 10))
def test_any_message_sequence_keeps_a_valid_session(batch: list[GameMessage], seed: int) -> None:
    s = fresh(seed)
    for i, message in enumerate(batch):
        before = s
        try:
            s = after(s, message, now=1000 * i)
        except (ValueError, TypeError):
            assert s is before
            continue
        board = s.board
        assert s.history[-1] is board and len(s.history) >= 1
        assert (s.started_at == 0) == (board.status == "ready") or s.started_at == 0
        assert (s.ended_at > 0) <= board.over or s.ended_at == 0
        assert not (s.autoplaying and board.over)
        state = render(s)
        assert state["status"] == board.status and state["cells"] == board.view.cells
        if not board.over:
            assert set(state["cells"]) <= set(".f012345678")


def test_history_memory_is_bounded() -> None:
    """10,000 flag toggles on 100 x 100 keep well under 20 MB (every board kept would be ~100 MB)."""
    import gc
    import tracemalloc

    s = after(start(new_board(100, 100, 1500, seed=1)), Reveal((50, 50)))
    covered = [p for p in s.board.positions() if s.board.view[p] == "."][:50]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(10_000):
        s = after(s, Flag(covered[i % 50]))
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert len(s.history) == 10_002
    assert kept < 20e6, f"the history keeps {kept / 1e6:.1f} MB"
    assert s.history[5_000] == s.history[4_900]  # rebuilt from checkpoints: 100 toggles undo themselves
    assert s.history[5_001] != s.history[5_000]
