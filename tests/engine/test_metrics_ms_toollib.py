"""The metrics agree with ms_toollib (the dev group's oracle; skipped without it), as the solver's
agreement test does: 3BV and ZiNi on 5,000 random boards (cal_bbbv, cal_zini), and the clicks by kind,
effective clicks, solved 3BV, IOE, correctness and throughput of 5,000 random games, whose clicks are
fed to ms_toollib's BaseVideo as mouse events. The replays recorded by other programs are compared in
tests/replays/test_replays.py.

The random player flags no zero: when a chord loses next to an opening one of whose zeros is flagged,
ms_toollib's count of that opening depends on the order of its search (it stops at the flag and keeps
what it marked); no player can tell a zero from the view, and such a flag is rare."""

from __future__ import annotations

import random

import pytest

from ipyminesweeper import Board, Click, Replay, bbbv, game_metrics, new_board, reveal, zini
from ipyminesweeper.engine.replay import click_board

ms_toollib = pytest.importorskip("ms_toollib")

pytestmark = pytest.mark.slow

BOARDS = 5000
GAMES = 5000
PIXELS = 16
BUTTONS = {"left": ("lc", "lr"), "right": ("rc", "rr"), "chord": ("lc", "rc", "lr", "rr")}


def grid(board: Board) -> list[list[int]]:
    """ms_toollib's board: rows of numbers, -1 for a mine."""
    cols, mask, counts = board.cols, board.mask, board.counts
    return [
        [-1 if mask[r * cols + c] else counts[r * cols + c] for c in range(cols)] for r in range(board.rows)
    ]


def random_layout(rng: random.Random, seed: int) -> Board:
    rows, cols = rng.randint(1, 16), rng.randint(1, 30)
    mines = rng.randint(0, rows * cols - 1)
    placed = reveal(new_board(rows, cols, mines, seed=seed, first_click="safe"), (0, 0))
    return Board(rows, cols, mines, bytes(rows * cols), placed.minefield)


def test_3bv_and_zini_agree_on_random_boards() -> None:
    rng = random.Random(58)
    for seed in range(BOARDS):
        board = random_layout(rng, seed)
        assert bbbv(board) == ms_toollib.cal_bbbv(grid(board)), board.to_text()
        assert zini(board) == ms_toollib.cal_zini(grid(board)), board.to_text()


def _pick(rng: random.Random, board: Board, want: int, mines: bool | None) -> tuple[int, int]:
    """A cell in state ``want`` (and a mine, or not, unless None), else any cell."""
    cells = [
        i
        for i in range(board.rows * board.cols)
        if board.states[i] == want and (mines is None or bool(board.mask[i]) == mines)
    ]
    return divmod(rng.choice(cells) if cells else rng.randrange(board.rows * board.cols), board.cols)


def random_game(seed: int) -> Replay:
    """A game to its end by a player who knows the mines with some skill: wasted clicks, wrong flags,
    chords on numbers and anywhere, some games won and many lost."""
    rng = random.Random(seed)
    rows, cols = rng.randint(2, 16), rng.randint(2, 30)
    mines = rng.randint(1, max(1, rows * cols // 4))
    first = (rng.randrange(rows), rng.randrange(cols))
    placed = reveal(new_board(rows, cols, mines, seed=seed, first_click="safe"), first)
    board = start = Board(rows, cols, mines, bytes(rows * cols), placed.minefield)
    skill = rng.random()
    clicks = [Click("left", first)]
    board = click_board(board, clicks[0])
    while not board.over and len(clicks) < 4 * rows * cols:
        kind = rng.choice(["left", "left", "right", "chord"])
        pos = (rng.randrange(rows), rng.randrange(cols))
        if kind == "left" and rng.random() < skill:
            pos = _pick(rng, board, 0, False)
        elif kind == "right" and rng.random() < skill:
            pos = _pick(rng, board, 0, True)
        elif kind == "right" and board.counts[pos[0] * cols + pos[1]] == 0:
            continue  # see the module: no flag on a zero
        elif kind == "chord" and rng.random() < 0.8:
            pos = _pick(rng, board, 2, None)
        index = pos[0] * cols + pos[1]
        if kind == "chord" and board.states[index] == 2 and board.counts[index] == 0:
            continue  # ms_toollib's chord on a zero opens its covered neighbours; the rules here do not
        clicks.append(Click(kind, pos))  # type: ignore[arg-type]
        board = click_board(board, clicks[-1])
    return Replay.from_clicks(start, clicks)


def toollib_video(replay: Replay) -> object:
    video = ms_toollib.BaseVideo(grid(replay.final), PIXELS)
    for click in replay.clicks:
        pixel = (click.pos[0] * PIXELS + PIXELS // 2, click.pos[1] * PIXELS + PIXELS // 2)
        for event in BUTTONS[click.kind]:
            video.step(event, pixel)
    return video


def test_clicks_and_ratios_agree_on_random_games() -> None:
    compared = 0
    for seed in range(GAMES):
        replay = random_game(seed)
        if not replay.final.over:  # ms_toollib gives its figures for finished games only
            continue
        ours, video = game_metrics(replay), toollib_video(replay)
        c = ours.clicks
        assert (ours.won, ours.bbbv, ours.solved_bbbv) == (
            video.game_board_state == 3,  # type: ignore[attr-defined]
            video.bbbv,  # type: ignore[attr-defined]
            video.bbbv_solved,  # type: ignore[attr-defined]
        ), seed
        assert (c.left, c.right, c.chord, c.left_effective, c.right_effective, c.chord_effective) == (
            video.left,  # type: ignore[attr-defined]
            video.right,  # type: ignore[attr-defined]
            video.double,  # type: ignore[attr-defined]
            video.lce,  # type: ignore[attr-defined]
            video.rce,  # type: ignore[attr-defined]
            video.dce,  # type: ignore[attr-defined]
        ), seed
        assert ours.ioe == pytest.approx(video.ioe), seed  # type: ignore[attr-defined]
        assert ours.correctness == pytest.approx(video.corr), seed  # type: ignore[attr-defined]
        assert (ours.throughput or 0.0) == pytest.approx(video.thrp), seed  # type: ignore[attr-defined]
        compared += 1
    assert compared >= GAMES * 0.95
