"""``python -m benchmarks versus`` end to end: boards, play through ``play(board, strategy)``, compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.__main__ import main as benchmarks_main
from benchmarks.boards_file import generate, read_boards, to_board
from benchmarks.paired import read_results
from benchmarks.versus import play_one

from ipyminesweeper import exact, play, simple


def test_play_one_is_the_users_game(tmp_path: Path) -> None:
    for seed in range(6):
        spec = generate(seed, 9, 9, 10, (0, 0), "safe")
        game = play_one(spec, exact)
        final, moves = play(to_board(spec), exact)
        assert game.seed == seed and game.won == (final.status == "won")
        assert game.moves == len(moves) and game.guesses == sum(m.is_guess for m in moves)
        assert game.cpu_s >= 0


def test_boards_play_and_compare_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    boards = tmp_path / "boards.jsonl"
    benchmarks_main(
        [
            "versus",
            "boards",
            "--start",
            "opening",
            "--games",
            "12",
            "--seed",
            "500",
            "--level",
            "beginner",
            "--out",
            str(boards),
        ]
    )
    specs = read_boards(boards)
    assert [s.seed for s in specs] == list(range(500, 512))
    assert all(s.first == (2, 2) and s.opening() and len(s.mines) == 10 for s in specs)

    exact_out, simple_out = tmp_path / "exact.jsonl", tmp_path / "simple.jsonl"
    # two shards of exact, the second stopped after 2 games and resumed
    benchmarks_main(["versus", "play", "--boards", str(boards), "--out", str(exact_out), "--shard", "0/2"])
    benchmarks_main(
        [
            "versus",
            "play",
            "--boards",
            str(boards),
            "--out",
            str(exact_out) + ".1",
            "--shard",
            "1/2",
            "--limit",
            "2",
        ]
    )
    benchmarks_main(
        ["versus", "play", "--boards", str(boards), "--out", str(exact_out) + ".1", "--shard", "1/2"]
    )
    benchmarks_main(
        ["versus", "play", "--boards", str(boards), "--out", str(simple_out), "--strategy", "simple"]
    )
    shards = [read_results(exact_out), read_results(str(exact_out) + ".1")]
    assert [g.seed for g in shards[0]] == list(range(500, 512, 2))
    assert [g.seed for g in shards[1]] == list(range(501, 512, 2))
    for game in shards[0] + shards[1]:
        final, moves = play(to_board(specs[game.seed - 500]), exact)
        assert (game.won, game.moves) == (final.status == "won", len(moves))
    assert [g.won for g in read_results(simple_out)] == [
        play(to_board(s), simple)[0].status == "won" for s in specs
    ]
    capsys.readouterr()

    benchmarks_main(
        [
            "versus",
            "compare",
            "--a",
            str(exact_out),
            str(exact_out) + ".1",
            "--b",
            str(simple_out),
            "--names",
            "exact,simple",
            "--json",
        ]
    )
    summary = json.loads(capsys.readouterr().out)
    wins_exact = sum(g.won for shard in shards for g in shard)
    assert summary["boards"] == 12 and summary["exact"]["wins"] == wins_exact
    assert summary["simple"]["wins"] == sum(g.won for g in read_results(simple_out))
    assert summary["unpaired"] == {"exact": 0, "simple": 0}


def test_without_arguments_it_says_how_to_use_it(capsys: pytest.CaptureFixture[str]) -> None:
    benchmarks_main(["versus"])
    assert "versus {boards,play,compare}" in capsys.readouterr().out


def test_moves_and_same_check_games_move_for_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards, one, two = tmp_path / "b.jsonl", tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    benchmarks_main(
        [
            "versus",
            "boards",
            "--start",
            "safe",
            "--games",
            "8",
            "--seed",
            "70",
            "--level",
            "beginner",
            "--out",
            str(boards),
        ]
    )
    benchmarks_main(["versus", "moves", "--boards", str(boards), "--out", str(one)])
    benchmarks_main(["versus", "moves", "--boards", str(boards), "--out", str(two)])
    benchmarks_main(["versus", "same", "--a", str(one), "--b", str(two)])
    assert "the same moves on all 8 games" in capsys.readouterr().out
    first = json.loads(one.read_text().splitlines()[0])
    _, moves = play(to_board(read_boards(boards)[0]), exact)
    assert first["moves"] == ";".join(f"{m.action[0]}{m.pos[0]},{m.pos[1]}" for m in moves)
    lines = two.read_text().splitlines()
    changed = json.loads(lines[3])
    changed["moves"] = changed["moves"] + ";r0,0"
    two.write_text("\n".join([*lines[:3], json.dumps(changed), *lines[4:]]) + "\n")
    with pytest.raises(SystemExit, match="moves differ on 1 of 8 games"):
        benchmarks_main(["versus", "same", "--a", str(one), "--b", str(two)])
