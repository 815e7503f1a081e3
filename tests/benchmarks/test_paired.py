"""Pairing two solvers' results by board, and the arithmetic of the paired difference."""

from __future__ import annotations

import json
import math
import random
import statistics
from itertools import product
from pathlib import Path

import pytest
from benchmarks.paired import (
    GameResult,
    ResultsFileError,
    pair,
    paired_difference,
    parse_result,
    read_results,
    sign_test,
)


def _games(outcomes: str, first_seed: int = 0, cpu: float = 0.5) -> list[GameResult]:
    return [GameResult(first_seed + i, ch == "1", cpu) for i, ch in enumerate(outcomes)]


def test_the_issue_figure_is_reproduced() -> None:
    # issue 21: opening, 2,000 boards, exact won 72 that JS lost and JS 109 that exact lost:
    # exact - JS = -1.85 +- 1.32 pp
    d, lo, hi = paired_difference(72, 109, 2000)
    assert round(100 * d, 2) == -1.85
    assert round(100 * (hi - lo) / 2, 2) == 1.32


def test_the_interval_is_the_normal_interval_of_the_per_board_differences() -> None:
    rng = random.Random(5)
    for _ in range(50):
        n = rng.randrange(1, 400)
        a = [rng.random() < 0.4 for _ in range(n)]
        b = [rng.random() < 0.45 for _ in range(n)]
        diffs = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
        mean = statistics.fmean(diffs)
        half = 1.959964 * math.sqrt(statistics.pvariance(diffs) / n)
        only_a = sum(x and not y for x, y in zip(a, b, strict=True))
        only_b = sum(y and not x for x, y in zip(a, b, strict=True))
        d, lo, hi = paired_difference(only_a, only_b, n)
        assert (
            d == pytest.approx(mean) and lo == pytest.approx(mean - half) and hi == pytest.approx(mean + half)
        )


def test_paired_difference_refuses_impossible_counts() -> None:
    for b, c, n in ((1, 1, 1), (-1, 0, 5), (0, 0, 0)):
        with pytest.raises(ValueError, match="need"):
            paired_difference(b, c, n)


def test_sign_test_against_the_enumerated_binomial() -> None:
    for b, c in product(range(8), range(8)):
        n = b + c
        extreme = abs(b - c)
        p = sum(math.comb(n, k) for k in range(n + 1) if abs(2 * k - n) >= extreme) / 2**n if n else 1.0
        assert sign_test(b, c) == pytest.approx(p)
    assert sign_test(0, 10) == pytest.approx(2 / 1024)


def test_pairing_goes_by_seed_not_by_order() -> None:
    a = _games("1100", cpu=0.1)
    b = list(reversed(_games("1010", cpu=0.4)))
    paired = pair(a, b, "x", "y")
    assert [g.seed for g in paired.b] == [0, 1, 2, 3]
    assert paired.wins == (2, 2)
    assert paired.only == ([1], [2])
    assert paired.difference[0] == 0.0
    assert paired.speed == pytest.approx((10.0, 2.5))
    summary = paired.summary()
    assert summary["speed_ratio"] == pytest.approx(4.0)
    assert summary["only"] == {"x": 1, "y": 1}
    assert summary["seeds"] == "0..3"


def test_boards_only_one_solver_played_are_left_out_and_counted() -> None:
    paired = pair(_games("111", 0), _games("0000", 1), "a", "b")
    assert paired.boards == 2 and (paired.unpaired_a, paired.unpaired_b) == (1, 2)
    assert paired.only == ([1, 2], [])
    assert "not paired (played by one only): a 1, b 2" in "\n".join(paired.report())
    with pytest.raises(ResultsFileError, match="no board in common"):
        pair(_games("1", 0), _games("1", 5))


def test_report_gives_rates_difference_discordant_boards_and_speed() -> None:
    text = "\n".join(
        pair(
            _games("1" * 30 + "0" * 70, cpu=0.1), _games("1" * 20 + "0" * 80, cpu=1.0), "exact", "ref"
        ).report()
    )
    assert "exact  won     30/100 =  30.00%" in text
    assert "ref    won     20/100 =  20.00%" in text
    assert "exact - ref: +10.00 pp" in text and "by exact only 10, by ref only 0" in text
    assert "= 10.000x" in text


def test_results_files_are_read_and_shards_joined(tmp_path: Path) -> None:
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    one.write_text(GameResult(1, True, 0.25, 40, 2).to_json() + "\n\n")
    # Hill's JS harness writes clicks (and more) rather than moves
    two.write_text(
        json.dumps({"seed": 2, "won": False, "cpu_s": 1, "clicks": 9, "guesses": 3, "stuck": False}) + "\n"
    )
    assert read_results([one, two]) == [GameResult(1, True, 0.25, 40, 2), GameResult(2, False, 1.0, 9, 3)]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"seed": "1", "won": true, "cpu_s": 1}', "seed must be an int"),
        ('{"seed": 1, "won": 1, "cpu_s": 1}', "won must be true or false"),
        ('{"seed": 1, "won": true, "cpu_s": -1}', "cpu_s must be"),
        ('{"seed": 1, "won": true, "cpu_s": NaN}', "cpu_s must be"),
        ('{"seed": 1, "won": true, "cpu_s": 1, "moves": 2.5}', "moves and guesses must be ints"),
        ("[1]", "a result is a JSON object"),
        ("{oops", "line 2"),
    ],
)
def test_malformed_results_are_refused_naming_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(GameResult(0, True, 0.1).to_json() + "\n" + line + "\n")
    with pytest.raises(
        ResultsFileError, match=f"r.jsonl, line 2: .*{message}" if message != "line 2" else "line 2"
    ):
        read_results(path)


def test_a_seed_played_twice_is_refused_across_shards(tmp_path: Path) -> None:
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    one.write_text(GameResult(1, True, 0.1).to_json() + "\n")
    two.write_text(GameResult(1, False, 0.1).to_json() + "\n")
    with pytest.raises(ResultsFileError, match="seed 1 again"):
        read_results([one, two])


def test_whole_process_cpu_is_read_and_gives_a_second_ratio(tmp_path: Path) -> None:
    """Hill's Java harness adds ``process_cpu_s`` (its collector's and compiler's threads): both ratios."""
    java = tmp_path / "java.jsonl"
    java.write_text(
        "".join(
            json.dumps({"seed": s, "won": True, "cpu_s": 0.01, "process_cpu_s": 0.02}) + "\n"
            for s in range(4)
        )
    )
    java_games = read_results(java)
    assert [g.whole_cpu_s for g in java_games] == [0.02] * 4
    exact = _games("1111", cpu=0.04)  # one thread: no process_cpu_s, its cpu_s is the whole process's
    paired = pair(exact, java_games, "exact", "java")
    summary = paired.summary()
    assert summary["speed_ratio"] == 0.25
    assert summary["process_speed_ratio"] == 0.5
    assert "whole processes" in "\n".join(paired.report())
    assert "whole processes" not in "\n".join(pair(exact, exact, "a", "b").report())
    assert parse_result(java_games[0].to_json()) == java_games[0]


@pytest.mark.parametrize("value", ["-1", "NaN", '"1"'])
def test_a_malformed_process_cpu_is_refused(tmp_path: Path, value: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(f'{{"seed": 1, "won": true, "cpu_s": 1, "process_cpu_s": {value}}}\n')
    with pytest.raises(ResultsFileError, match="process_cpu_s must be"):
        read_results(path)
