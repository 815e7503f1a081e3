"""The class tournament: a folder of students' strategy files, one command, a leaderboard.

Each file plays in a worker process of its own (tests/classroom/test_hostile_tournament.py tries to
break that); here, the ordinary files of a class and what the leaderboard says of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ipyminesweeper.arena import benchmark
from ipyminesweeper.classroom.class_tournament import (
    Entry,
    Limits,
    class_tournament,
    entries,
    load_strategies,
    main,
)
from ipyminesweeper.strategies import STRATEGIES

GAMES = 12

FILES = {
    # delegates to the library's simple strategy: a working entry
    "ada.py": "from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['simple']\n",
    # the exact strategy: wins more than simple on the same boards
    "grace.py": "from ipyminesweeper.strategies import STRATEGIES\n\nstrategy = STRATEGIES['exact']\n",
    # does not load
    "broken.py": "def strategy(view)\n    return None\n",
    # no strategy function
    "empty.py": "STRATEGY = 1\n",
    # raises on its first call
    "crash.py": "def strategy(view):\n    raise RuntimeError('my strategy is broken')\n",
    # an illegal move: always the top-left cell, which is revealed after the first move
    "stuck.py": (
        "from ipyminesweeper.strategies import Move\n\n"
        "def strategy(view):\n    return Move('reveal', (0, 0))\n"
    ),
    # helpers (a leading underscore) are not entries
    "_helpers.py": "raise RuntimeError('never loaded')\n",
}


def played(entry: Entry) -> tuple[object, ...]:
    """What an entry did: the same in any process, on the same seeds (not the time it took)."""
    r = entry.result
    if r is None:
        return (entry.name, entry.kind, entry.problem)
    return (entry.name, r.wins, r.games, r.outcomes, r.mean_moves, r.mean_guesses)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_load_strategies_maps_each_file_to_its_function_or_the_reason(folder: Path) -> None:
    found = load_strategies(folder)
    assert sorted(found) == ["ada", "broken", "crash", "empty", "grace", "stuck"]
    assert callable(found["ada"]) and callable(found["crash"])
    assert isinstance(found["broken"], str) and "does not load: SyntaxError" in found["broken"]
    assert found["empty"] == "empty.py defines no function strategy(view)"


def test_a_file_whose_function_has_another_name_is_told_what_to_add(tmp_path: Path) -> None:
    """Notebook 03's exercise names the function ``careful``; handed in as it is, the file says so."""
    (tmp_path / "lin.py").write_text(
        "from ipyminesweeper.strategies import Move\n\n"
        "def _first(view):\n    return view.covered()[0]\n\n"
        "def careful(view):\n    return Move('reveal', _first(view), 'a guess')\n",
        encoding="utf-8",
    )
    found = load_strategies(tmp_path)
    assert found["lin"] == (
        "lin.py defines no function strategy(view); it defines careful: add `strategy = careful` at its end"
    )


def test_the_sandboxed_run_words_the_same_hint(tmp_path: Path) -> None:
    (tmp_path / "lin.py").write_text("def careful(view):\n    return None\n", encoding="utf-8")
    (entry,) = class_tournament(tmp_path, "beginner", 2).problems
    assert entry.kind == "load"
    assert entry.problem == (
        "before game 1: lin.py defines no function strategy(view); it defines careful: "
        "add `strategy = careful` at its end"
    )


def test_load_strategies_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is not a folder of strategy files"):
        load_strategies(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="is not a folder of strategy files"):
        class_tournament(tmp_path / "nowhere")


def test_entries_lists_the_files_unread(folder: Path) -> None:
    found = entries(folder)
    assert sorted(found) == ["ada", "broken", "crash", "empty", "grace", "stuck"]
    assert found["ada"] == folder / "ada.py"


@pytest.mark.parametrize(
    "wrong",
    [
        {"move_seconds": 0},
        {"game_seconds": float("inf")},
        {"start_seconds": "1"},
        {"memory_mb": 10},
        {"answer_bytes": 1.5},
    ],
)
def test_limits_refuse_what_is_not_a_limit(wrong: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=f"Limits.{next(iter(wrong))} is"):
        Limits(**wrong)  # type: ignore[arg-type]


def test_the_leaderboard_ranks_by_games_won_on_the_same_seeds(folder: Path) -> None:
    board = class_tournament(folder, "beginner", GAMES, seed=500)
    ranked = [e.name for e in board.ranked]
    assert ranked == ["grace", "ada"]  # exact wins more than simple on these 12 boards
    # the same seeds as the library's benchmark: the numbers are the benchmark's
    for entry, reference in zip(board.ranked, ("exact", "simple"), strict=True):
        again = benchmark(reference, "beginner", GAMES, 500, jobs=1)
        assert entry.result is not None and entry.result.outcomes == again.outcomes  # game by game
        assert (entry.result.wins, entry.result.mean_moves) == (again.wins, again.mean_moves)
    first, second = board.ranked[0].result, board.ranked[1].result
    assert first is not None and second is not None  # ranked entries have a result
    assert first.wins > second.wins
    problems = {e.name: e.problem for e in board.problems}
    assert sorted(problems) == ["broken", "crash", "empty", "stuck"]
    assert problems["broken"].startswith("before game 1: broken.py does not load: SyntaxError")
    assert problems["crash"] == (
        "game 1 (seed 500): your strategy 'strategy' raised RuntimeError: my strategy is broken"
    )
    assert problems["stuck"].startswith("game 1 (seed 500): ") and "(0,0)" in problems["stuck"]
    assert {e.name: e.kind for e in board.problems} == {
        "broken": "load",
        "crash": "error",
        "empty": "load",
        "stuck": "illegal",
    }


def test_functions_of_this_process_still_play_here(folder: Path) -> None:
    """``class_tournament(load_strategies(folder))``: the trusted way of before, in this process."""
    board = class_tournament(load_strategies(folder), "beginner", GAMES, seed=500)
    sandboxed = class_tournament(folder, "beginner", GAMES, seed=500)
    assert [played(e) for e in board.entries] == [played(e) for e in sandboxed.entries]
    assert board.sandbox == () and "memory" in " ".join(sandboxed.sandbox)


def test_the_markdown_table_has_ranks_rates_and_intervals(folder: Path) -> None:
    board = class_tournament(folder, "beginner", GAMES, seed=500)
    text = board.to_markdown()
    first = board.ranked[0].result
    assert first is not None  # ranked entries have a result
    low, high = first.ci
    assert f"| 1 | grace | {first.wins} / {GAMES} | {first.win_rate:.1%} | {low:.1%} to {high:.1%} |" in text
    assert "seeds 500 to 511" in text
    assert "Not ranked:" in text
    assert "| empty | before game 1: empty.py defines no function strategy(view) |" in text
    assert "Each entry played in a process of its own: memory 1024 MiB" in text
    assert board._repr_markdown_() == text == str(board)
    html = board.to_html()
    assert f"<td>grace</td><td>{first.wins} / {GAMES}</td>" in html
    assert "<td>empty</td><td>before game 1: empty.py defines no function strategy(view)</td>" in html


def test_a_failing_strategy_is_named_with_the_first_game_that_fails(tmp_path: Path) -> None:
    (tmp_path / "late.py").write_text(
        "from ipyminesweeper.strategies import STRATEGIES\n\n"
        "def strategy(view):\n"
        "    if view.rows * view.cols - sum(ch in '.f' for ch in view.cells) > 40:\n"
        "        raise ValueError('too many open cells for me')\n"
        "    return STRATEGIES['simple'](view)\n",
        encoding="utf-8",
    )
    late = load_strategies(tmp_path)["late"]
    board = class_tournament(tmp_path, "beginner", GAMES, seed=500)
    (entry,) = board.problems
    assert "ValueError: too many open cells for me" in entry.problem

    def fails(seed: int) -> bool:
        try:
            benchmark(late, "beginner", 1, seed, jobs=1)
        except Exception:
            return True
        return False

    first = next(i for i in range(GAMES) if fails(500 + i))
    assert entry.problem.startswith(f"game {first + 1} (seed {500 + first}): ")


def test_the_command_prints_the_leaderboard_and_writes_the_chart(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "chart.vl.json"
    page = tmp_path / "board.html"
    options = ["--games", "6", "--seed", "7", "--with", "simple", "--chart", str(chart), "--html", str(page)]
    code = main(["tournament", str(folder), *options, "--no-progress"])
    assert code == 0
    out = capsys.readouterr().out
    assert "<td>(simple)</td>" in page.read_text(encoding="utf-8")
    assert "| rank | strategy | games won | win rate | 95% interval |" in out
    assert "| (simple) |" in out and "seeds 7 to 12" in out
    spec = json.loads(chart.read_text(encoding="utf-8"))
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/v5")
    names = {row["strategy"] for row in spec["data"]["values"]}
    assert {"ada", "grace", "(simple)"} <= names


def test_the_command_refuses_a_folder_without_strategy_files(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", str(tmp_path)])
    assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["tournament", str(tmp_path / "missing")])
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", str(tmp_path), "--move-seconds", "0"])
    assert exit_.value.code == 2


def test_python_dash_m_runs_the_tournament(folder: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ipyminesweeper.classroom", "tournament", str(folder), "--games", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "| 1 |" in done.stdout and "Not ranked:" in done.stdout


def test_a_strategy_registered_here_plays_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker knows only the built-ins: a strategy the teacher registered is the teacher's own code."""
    monkeypatch.setitem(STRATEGIES, "mine", STRATEGIES["simple"])
    board = class_tournament({"mine": "mine", "simple": "simple"}, "beginner", 4, seed=3)
    mine, simple = (next(e for e in board.entries if e.name == n) for n in ("mine", "simple"))
    assert mine.result is not None and simple.result is not None
    assert mine.result.outcomes == simple.result.outcomes
