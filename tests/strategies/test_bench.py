"""Benchmarks, tournaments, no-guess boards and the command line."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from ipyminesweeper import new_board, reveal
from ipyminesweeper.arena import (
    SerialExecutor,
    benchmark,
    conventional_first_move,
    parse_level,
    play_game,
    tournament,
    wilson,
)
from ipyminesweeper.arena.cli import main
from ipyminesweeper.charts import win_rates
from ipyminesweeper.engine.geometry import block
from ipyminesweeper.solver import certain_moves
from ipyminesweeper.strategies import Move, simple
from ipyminesweeper.strategies.noguess import NoGuessError, is_no_guess, no_guess_minefield


def first_covered(view: object) -> Move:
    """A top-level (picklable) user strategy: reveal the last covered cell."""
    cells: str = view.cells  # type: ignore[attr-defined]
    i = cells.rfind(".")
    return Move("reveal", divmod(i, view.cols), "last covered cell")  # type: ignore[attr-defined]


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    low, high = wilson(970, 1000)
    assert low < 0.97 < high and high - low < 0.025


def test_parse_level() -> None:
    assert parse_level("expert") == ("expert", 16, 30, 99)
    assert parse_level("8x8x10") == ("8x8/10", 8, 8, 10)
    assert parse_level((5, 6, 3)) == ("5x6/3", 5, 6, 3)
    with pytest.raises(ValueError):
        parse_level("huge")
    with pytest.raises(TypeError):
        parse_level(3)  # type: ignore[arg-type]


def test_process_pool_and_serial_give_identical_results() -> None:
    with ProcessPoolExecutor(2) as pool:
        par = benchmark("exact", "beginner", games=60, seed=11, executor=pool)
    ser = benchmark("exact", "beginner", games=60, seed=11, executor=SerialExecutor())
    assert par.outcomes == ser.outcomes and len(par.outcomes) == 60
    assert (par.wins, par.mean_moves, par.mean_guesses) == (ser.wins, ser.mean_moves, ser.mean_guesses)
    assert par.games == 60 and 0 < par.wins <= 60
    low, high = par.ci
    assert low <= par.win_rate <= high
    # game i is the game with seed + i
    for i in (0, 17, 59):
        assert play_game("exact", "beginner", 11 + i).won == bool(par.outcomes[i])


def test_user_strategies_run_in_worker_processes() -> None:
    with ProcessPoolExecutor(2) as pool:
        par = benchmark(first_covered, (6, 6, 4), games=20, seed=3, executor=pool)
    ser = benchmark(first_covered, (6, 6, 4), games=20, seed=3, jobs=1)
    assert par.outcomes == ser.outcomes and par.strategy == "first_covered"
    with pytest.raises(TypeError, match="top level"), ProcessPoolExecutor(1) as pool:
        benchmark(lambda v: simple(v), "beginner", games=4, executor=pool)


def test_first_move_conventions() -> None:
    assert conventional_first_move(16, 30, "opening") == (3, 3)
    assert conventional_first_move(9, 9, "safe") == (0, 0)
    r = benchmark("simple", "beginner", games=5, seed=0, first_click="safe", jobs=1)
    assert r.first_move == "(0,0)"
    r = benchmark("simple", "beginner", games=5, seed=0, first_move=(4, 4), jobs=1)
    assert r.first_move == "(4,4)"
    with pytest.raises(ValueError):
        benchmark("simple", "beginner", games=5, first_move=(9, 9), jobs=1)


def test_progress_callback_and_tournament_are_paired() -> None:
    seen: list[tuple[int, int]] = []
    benchmark("simple", "beginner", games=10, seed=0, jobs=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (10, 10)
    table = tournament(["simple", "exact"], "beginner", games=30, seed=5, jobs=1)
    assert [r.strategy for r in table] == ["simple", "exact"]
    rows = table.rows
    assert rows[1]["games"] == 30 and 0 <= rows[1]["ci_low"] <= rows[1]["win_rate"]
    md = table.to_markdown()
    assert md.count("\n") == 3 and "| exact |" in md
    only_simple, only_exact = table.head_to_head("simple", "exact")
    assert table.results[1].wins - table.results[0].wins == only_exact - only_simple
    assert table.results[1].wins >= table.results[0].wins


def test_no_guess_boards_are_solved_by_certain_moves_only() -> None:
    for level, seeds in (("beginner", range(6)), ("intermediate", range(2)), ("expert", range(1))):
        for seed in seeds:
            board = new_board(level, seed=seed, first_click="no-guess")
            first = (board.rows // 2, board.cols // 3)
            board = reveal(board, first)
            assert board.first_click == "no-guess" and board.seed == seed
            while not board.over:
                d = certain_moves(board.view, complete=True)  # the solver's public API, not our own loop
                assert d.safe, f"a guess would be needed:\n{board.view}"
                for pos in sorted(d.safe):
                    assert not board.is_mine(pos)
                    if not board.over:
                        board = reveal(board, pos)
            assert board.status == "won"


def test_no_guess_boards_are_reproducible_and_keep_the_first_block_free() -> None:
    a = no_guess_minefield(16, 16, 40, 9, 100)
    assert a == no_guess_minefield(16, 16, 40, 9, 100)
    assert a != no_guess_minefield(16, 16, 40, 10, 100)
    assert a.count == 40 and a.first_click == "no-guess" and a.seed == 9
    assert all(not a.mask[i] for i in block(16, 16, 100))
    assert is_no_guess(a, 100)
    b1 = reveal(new_board(9, 9, 10, seed=4, first_click="no-guess"), (4, 4))
    b2 = reveal(new_board(9, 9, 10, seed=4, first_click="no-guess"), (4, 4))
    assert b1 == b2


def test_no_guess_gives_up_clearly_when_impossible() -> None:
    # 2x4, one mine, first click in the corner: the numbers in column 1 see both cells of column 2
    # alike, and nothing sees column 3 apart, so every layout ends in a 50/50
    with pytest.raises(NoGuessError, match="deduction alone"):
        no_guess_minefield(2, 4, 1, 0, 0)


def test_cli_bench_and_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "6", "--jobs", "1", "--seed", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "won" in out and "games/s" in out
    assert main(["bench", "--level", "6x6x5", "--games", "4", "--jobs", "1", "--first-click", "safe"]) == 0
    captured = capsys.readouterr()
    assert "6x6/5" in captured.out and "4/4" in captured.err  # progress bar on stderr
    assert main(["tournament", "--strategies", "simple", "exact", "--games", "4", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| simple |" in out and "| exact |" in out
    assert main(["bench", "--level", "gigantic", "--games", "2", "--jobs", "1"]) == 2
    assert "unknown level" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "--strategy", "nonsense"])


HOSTILE_NAME = "<img src=x onerror=alert(1)>\n| 1 | fake |\x1b[2J"


def test_a_strategy_name_shows_as_text_in_the_table_the_bar_and_the_chart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 30: a name goes through the escaping of each target (engine/escape.py), never raw."""
    table = tournament({HOSTILE_NAME: simple, "exact": "exact"}, "beginner", games=2, jobs=1, progress=True)
    text = table.to_markdown()
    assert "<" not in text and "\x1b" not in text
    assert len([line for line in text.splitlines() if line.startswith("| ")]) == 1 + 2  # head, two rows
    assert "&lt;img src=x onerror=alert(1)&gt;\\\\n\\| 1 \\| fake \\|\\\\x1b\\[2J" in text
    bar = capsys.readouterr().err
    assert "\x1b" not in bar and "<img src=x onerror=alert(1)>\\n| 1 | fake |\\x1b[2J beginner" in bar
    chart = win_rates(table).text
    assert "\x1b" not in chart and len(chart.splitlines()) == 3
    assert "\x1b" not in str(table.results[0]) and "\n" not in str(table.results[0])
