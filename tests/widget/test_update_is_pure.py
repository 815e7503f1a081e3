"""``update`` does no I/O and draws no randomness: a long message sequence runs with files, ``random``,
``secrets`` and the clock patched to raise. The test plays the shell's part itself: it performs the
effects ``update`` returns (a seed from a fixed list, statistics kept in a plain value) and sends their
outcomes back as messages.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import random
import secrets
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from unittest import mock

import pytest

from ipyminesweeper import Move, View, new_board
from ipyminesweeper.widget.effects import DrawSeed, Effect, LoadStats, Log, RecordResult, ResendSettings
from ipyminesweeper.widget.messages import (
    AddStrategy,
    Autoplay,
    AutoStep,
    BadInput,
    Flag,
    FromBrowser,
    Hint,
    Message,
    NewGame,
    NewGameOf,
    Pause,
    Resume,
    Reveal,
    Scrub,
    SelectStrategy,
    SetDelay,
    SetQuestionMarks,
    ShowProbabilities,
    StatsChanged,
    Step,
    Undo,
)
from ipyminesweeper.widget.runtime_state import IDLE, runtime_update
from ipyminesweeper.widget.session import Session
from ipyminesweeper.widget.session_update import start
from ipyminesweeper.widget.stats import GameLog, record


class Forbidden(AssertionError):
    """update reached for the world outside the session."""


def forbidden(*args: Any, **kwargs: Any) -> Any:
    raise Forbidden("update did I/O, read the clock or drew a random number")


WORLD: list[tuple[Any, tuple[str, ...]]] = [
    (builtins, ("open",)),
    (io, ("open", "open_code")),
    (os, ("open", "stat", "lstat", "listdir", "scandir", "remove", "replace", "mkdir", "urandom")),
    (
        random,
        ("random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "getrandbits", "seed"),
    ),
    (secrets, ("randbits", "randbelow", "choice", "token_bytes", "token_hex", "token_urlsafe")),
    (time, ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "process_time", "sleep")),
]


@contextlib.contextmanager
def no_world() -> Iterator[None]:
    """Files, the clock, ``random`` and ``secrets`` raise :class:`Forbidden` inside this block."""
    with contextlib.ExitStack() as stack:
        for module, names in WORLD:
            for name in names:
                stack.enter_context(mock.patch.object(module, name, forbidden))
        yield


def broken(view: View) -> Move:
    raise RuntimeError("my strategy is broken")


class Shell:
    """What the widget's runtime does with effects, minus the world: seeds from a list, stats in memory."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.state = IDLE
        self.seeds = iter(range(1000, 2000))
        self.log = GameLog()
        self.recorded = 0
        self.logged: list[str] = []
        self.effects: list[Effect] = []

    def send(self, message: Message, now: int) -> Session:
        with no_world():
            self.state, self.session, effects = runtime_update(self.state, self.session, message, now=now)
        return self.perform(effects, now)

    def perform(self, effects: tuple[Effect, ...], now: int) -> Session:
        for effect in effects:
            self.effects.append(effect)
            match effect:
                case DrawSeed(game):
                    self.send(replace(game, seed=next(self.seeds)), now)
                case RecordResult(result):
                    self.log = record(self.log, result)
                    self.recorded += 1
                    self.send(StatsChanged(self.log.stats()), now)
                case LoadStats():
                    self.send(StatsChanged(self.log.stats()), now)
                case Log(text):
                    self.logged.append(text)
                case ResendSettings():
                    pass
        return self.session

    def play_until_over(self, now: int) -> Session:
        """The player's own certain reveals, until the game is won."""
        while not self.session.board.over:
            board = self.session.board
            safe = next(p for p in board.positions() if board.view[p] == "." and not board.is_mine(p))
            self.send(Reveal(safe), now)
        return self.session


def test_a_long_message_sequence_does_no_io_and_draws_no_randomness() -> None:
    shell = Shell(start(new_board(9, 9, 10, seed=7)))
    clock = iter(range(1_000, 10**9, 1_000))
    shell.perform((LoadStats(),), next(clock))  # what a new widget does first

    # a won game, with a hint, an undo, a look back and the overlay on the way
    shell.send(Reveal((4, 4)), next(clock))
    shell.send(Hint("exact"), next(clock))
    shell.send(Step(), next(clock))
    shell.send(Undo(), next(clock))
    shell.send(Scrub(0), next(clock))
    shell.send(Resume(), next(clock))
    shell.send(ShowProbabilities(True), next(clock))
    shell.send(SetQuestionMarks(True), next(clock))
    won = shell.play_until_over(next(clock))
    assert won.board.status == "won" and shell.recorded == 1

    # a new game of the same kind: its seed comes from the effect
    shell.send(NewGameOf(), next(clock))
    assert shell.session.board.seed == 1000 and shell.session.board.status == "ready"

    # a lost game, from a board with the mines placed at once
    shell.send(NewGameOf(level="beginner", first_click="any"), next(clock))
    board = shell.session.board
    shell.send(Reveal(next(p for p in board.positions() if not board.is_mine(p))), next(clock))
    lost = shell.send(Reveal(next(p for p in board.positions() if board.is_mine(p))), next(clock))
    assert lost.board.status == "lost" and shell.recorded == 2

    # an undo after the loss, then the game played to a win: it is recorded again, as the same game
    shell.send(Undo(), next(clock))
    shell.play_until_over(next(clock))
    assert shell.recorded == 3 and len(shell.log.games) == 2

    # the autoplayer: Autoplay, the timer's ticks, a move limit, Pause, and a tick after the end
    shell.send(NewGameOf(level="intermediate", first_click="opening"), next(clock))
    shell.send(SelectStrategy("simple"), next(clock))
    shell.send(SetDelay(0.0), next(clock))
    shell.send(Autoplay(moves=3), next(clock))
    for _ in range(5):
        shell.send(AutoStep(), next(clock))
    assert not shell.session.autoplaying and len(shell.session.history) == 4
    shell.send(Autoplay("exact"), next(clock))
    while shell.session.autoplaying:
        shell.send(AutoStep(), next(clock))
    assert shell.session.board.over and shell.recorded == 4
    shell.send(AutoStep(), next(clock))
    shell.send(Pause(), next(clock))

    # the browser: a good request, a malformed one, a failing user strategy, a refused setting
    shell.send(NewGame(new_board(16, 16, 40, seed=3)), next(clock))
    shell.send(AddStrategy("bad", broken), next(clock))
    shell.send(FromBrowser((Reveal((8, 8)),), 1), next(clock))
    shell.send(FromBrowser((BadInput("unknown action 'explode'"),), 2), next(clock))
    shell.send(FromBrowser((Step("bad"),), 3), next(clock))
    assert shell.session.problem is not None
    assert shell.session.problem.text == "your strategy 'bad' raised RuntimeError: my strategy is broken"
    shell.send(
        FromBrowser((BadInput("delay must be a number of seconds from 0 to 10, not -1"),)), next(clock)
    )
    shell.send(FromBrowser((Flag((0, 0)),), 4), next(clock))
    assert shell.state.handled == 4 and shell.session.problem is None
    shell.send(Autoplay("bad"), next(clock))
    shell.send(AutoStep(), next(clock))
    assert not shell.session.autoplaying and shell.session.problem is not None

    # the statistics the session holds are the store's summary
    assert shell.session.stats == shell.log.stats() and shell.session.stats.played == 3
    assert {type(e).__name__ for e in shell.effects} >= {"DrawSeed", "RecordResult", "Log", "ResendSettings"}
    assert len(shell.logged) == 4


@pytest.mark.parametrize(
    "call",
    [
        lambda: new_board(9, 9, 10),  # no seed: a fresh one is drawn with secrets
        lambda: open(__file__).close(),
        lambda: os.stat(__file__),
        lambda: time.time(),
        lambda: random.random(),
        lambda: traceback.format_exception(RuntimeError, RuntimeError("x"), sys.exc_info()[2]),
    ],
    ids=["a seed", "open", "stat", "the clock", "random", "a traceback with its source lines"],
)
def test_the_patches_catch_what_they_must(call: Any) -> None:
    """The block above is able to fail: a seed drawn, a file read or the clock read all raise."""
    with no_world(), pytest.raises(Forbidden):
        call()
        raise Forbidden("(for the traceback: it reads no file when there is no frame)")
