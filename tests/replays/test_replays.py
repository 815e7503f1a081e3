"""Replay files (ipyminesweeper.replays): real games recorded by other programs load through ms_toollib
with its figures; the expert EVF is reviewed; a game saved as RAWVF loads back the same; a broken file
is refused with a sentence and leaves this process running; without ms_toollib the message says how
to get it."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest

from ipyminesweeper import (
    Board,
    ReplayError,
    bbbv,
    game_metrics,
    load_replay,
    new_board,
    play,
    reveal,
    review,
    save_replay,
    toggle_flag,
)

FILES = Path(__file__).parent / "files"
HAS_TOOLLIB = importlib.util.find_spec("ms_toollib") is not None
needs_toollib = pytest.mark.skipif(not HAS_TOOLLIB, reason="ms_toollib (the replays extra) is not installed")
KINDS = {".avf": "AvfVideo", ".rmv": "RmvVideo", ".mvf": "MvfVideo", ".evf": "EvfVideo"}
RECORDED = ["test_subject.evf", "test_subject.avf", "test_subject.rmv", "test_subject_2.rmv"]
OFF_BOARD_LEFT = {"test_subject.rmv": 2}  # left releases off the board: ms_toollib counts them, RAWVF not


def toollib_figures(path: Path) -> Any:
    import ms_toollib  # only where it is installed

    video = getattr(ms_toollib, KINDS[path.suffix])(str(path))
    video.parse()
    video.analyse()
    video.current_time = 1e9
    return video


@needs_toollib
@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_game_loads_with_ms_toollibs_figures(name: str) -> None:
    path = FILES / name
    replay = load_replay(path)
    video = toollib_figures(path)
    metrics = game_metrics(replay)
    assert replay.final.status == "won" and metrics.won
    assert (replay.final.rows, replay.final.cols, replay.final.mines) == (
        video.row,
        video.column,
        video.mine_num,
    )
    assert (metrics.bbbv, metrics.solved_bbbv, metrics.zini) == (video.bbbv, video.bbbv_solved, video.zini)
    c = metrics.clicks
    assert (c.right, c.chord, c.left_effective, c.right_effective, c.chord_effective) == (
        video.right,
        video.double,
        video.lce,
        video.rce,
        video.dce,
    )
    assert c.left + OFF_BOARD_LEFT.get(name, 0) == video.left
    assert metrics.seconds == pytest.approx(video.rtime)
    assert metrics.bbbv_per_second == pytest.approx(video.bbbv_s)
    assert metrics.throughput == pytest.approx(video.thrp)
    if name not in OFF_BOARD_LEFT:
        assert metrics.ioe == pytest.approx(video.ioe)
        assert metrics.correctness == pytest.approx(video.corr)


@needs_toollib
def test_the_expert_evf_game_is_reviewed_and_its_3bv_is_ms_toollibs() -> None:
    path = FILES / "test_subject.evf"
    replay = load_replay(path)
    assert (replay.final.rows, replay.final.cols, replay.final.mines) == (16, 30, 99)
    assert bbbv(replay.final) == toollib_figures(path).bbbv == 167
    reviewed = review(replay)
    assert len(reviewed.rows) == len(replay.clicks) == 334
    assert reviewed.rows[0].kind == "certain"  # the programs these come from make the first click safe
    assert {r.kind for r in reviewed.rows} <= {
        "certain",
        "forced guess",
        "unforced guess",
        "wrong flag",
        "wasted",
    }
    unchanged = sum(before == after for _, before, after in replay.steps())
    assert sum(r.kind == "wasted" for r in reviewed.rows) == unchanged > 0
    assert all(r.seconds is not None and r.seconds >= 0 for r in reviewed.rows)
    assert reviewed.metrics is not None and reviewed.metrics.bbbv == 167
    assert 0 < reviewed.accuracy < 1 and 0 < reviewed.luck <= 1 and reviewed.lost_move is None


@needs_toollib
@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_game_saved_as_rawvf_loads_back_the_same(name: str, tmp_path: Path) -> None:
    replay = load_replay(FILES / name)
    saved = save_replay(replay, tmp_path / "game.rawvf")
    again = load_replay(saved)
    assert again.boards == replay.boards
    assert [(c.kind, c.pos) for c in again.clicks] == [(c.kind, c.pos) for c in replay.clicks]
    assert [c.time for c in again.clicks] == pytest.approx([c.time for c in replay.clicks], abs=5e-4)


def test_a_game_saved_and_loaded_gives_the_same_boards(tmp_path: Path) -> None:
    final, moves = play(new_board("intermediate", seed=58), "exact-flags")
    again = load_replay(save_replay((final, moves), tmp_path / "exact.rawvf"))
    assert again.final == final and len(again.clicks) == len(moves)
    history = [new_board("beginner", seed=3)]
    history.append(toggle_flag(history[-1], (0, 0)))
    history.append(reveal(history[-1], (4, 4)))
    again = load_replay(save_replay(history, tmp_path / "history.RAWVF"))
    assert [b.view for b in again.boards] == [b.view for b in history]


@needs_toollib
@pytest.mark.parametrize("name", RECORDED)
@pytest.mark.parametrize("cut", [0, 7, 300, -100])
def test_a_broken_file_is_refused_and_this_process_goes_on(
    name: str, cut: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where the user works: ms_toollib's crash.log must not land here
    data = (FILES / name).read_bytes()
    broken = tmp_path / name
    broken.write_bytes(data[:cut] if cut >= 0 else data[:cut] + b"\xff" * 50)
    try:
        replay = load_replay(broken)
    except ReplayError as error:
        assert name in str(error) and len(str(error)) > 40
    else:  # ms_toollib read what was left: then it is a checked game
        assert replay.final.rows * replay.final.cols > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_broken_rawvf_file_is_refused_with_its_name(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rawvf"
    broken.write_bytes(b"RawVF_Version: Rev6\nWidth: 3\nHeight: 1\nMines: 1\nBoard:\n*0x\n")
    with pytest.raises(ReplayError, match=r"broken\.rawvf: line 6: a board row"):
        load_replay(broken)


def test_the_suffix_names_the_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"suffix, one of \.rawvf, \.avf, \.rmv, \.mvf, \.evf; 'game.txt'"):
        load_replay(tmp_path / "game.txt")
    with pytest.raises(TypeError, match="path"):
        load_replay(42)  # type: ignore[arg-type]
    game = play(new_board("beginner", seed=1), "exact")
    with pytest.raises(ValueError, match="read, not written"):
        save_replay(game, tmp_path / "game.evf")
    assert not (tmp_path / "game.evf").exists()
    with pytest.raises(FileNotFoundError):
        load_replay(tmp_path / "missing.rawvf")


def test_without_ms_toollib_the_message_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ms_toollib" else real(name, *a)
    )
    shutil.copy(FILES / "test_subject.avf", tmp_path / "game.avf")
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'ipyminesweeper\[replays\]'.*Pyodide"):
        load_replay(tmp_path / "game.avf")


def test_a_board_is_not_a_game() -> None:
    with pytest.raises(TypeError, match="game"):
        save_replay(Board.from_text("*.."), "game.rawvf")
