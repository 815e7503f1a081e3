"""Benchmarks and tournaments on a real dask.distributed cluster (the optional ``distributed`` extra).

A ``LocalCluster`` of two worker processes stands in for a class's shared cluster. The student's strategy
is defined the way a notebook cell defines it (in ``__main__``), so plain pickle cannot send it by
reference and only cloudpickle (which distributed uses) can send it by value.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")  # a dependency of distributed

from ipyminesweeper.arena import BenchResult, SerialExecutor, benchmark, play_game, tournament  # noqa: E402
from ipyminesweeper.strategies import exact, simple  # noqa: E402

GAMES = 60

NOTEBOOK_CELL = '''
from ipyminesweeper.strategies import Move, simple

MARGIN = 1  # a notebook global the strategy reads: it has to travel with the strategy


def distance_to_edge(r, c, rows, cols):
    return min(r, c, rows - 1 - r, cols - 1 - c)


def student(view):
    """simple's certain moves; instead of its blind guess, the first covered cell near an edge."""
    move = simple(view)
    if not move.is_guess:
        return move
    covered = [divmod(i, view.cols) for i, ch in enumerate(view.cells) if ch == "."]
    pos = min(covered, key=lambda p: (distance_to_edge(*p, view.rows, view.cols) > MARGIN, p))
    return Move("reveal", pos, "a guess near the edge")
'''


def notebook_strategy() -> Callable[..., Any]:
    """``student`` as a notebook cell defines it: a function of ``__main__``, found nowhere else."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(NOTEBOOK_CELL, "<notebook cell>", "exec"), namespace)
    fn: Callable[..., Any] = namespace["student"]
    return fn


@pytest.fixture(scope="module")
def executor() -> Iterator[Executor]:
    """``client.get_executor()`` of a two-process LocalCluster, closed after the module's tests."""
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client.get_executor()


def same_games(r: BenchResult) -> dict[str, Any]:
    """Everything in a result but the timings, with the per-game outcomes in seed order."""
    d = r.as_dict()
    del d["games_per_second"], d["games_per_cpu_second"]
    return {**d, "outcomes": r.outcomes}


def test_plain_pickle_cannot_send_the_notebook_strategy_but_cloudpickle_can() -> None:
    student = notebook_strategy()
    assert student.__module__ == "__main__"
    with pytest.raises(pickle.PicklingError):
        pickle.dumps(student)
    copy = pickle.loads(cloudpickle.dumps(student))  # by value, with its globals MARGIN and the helper
    assert copy is not student
    assert [play_game(copy, "beginner", s) for s in range(5)] == [
        play_game(student, "beginner", s) for s in range(5)
    ]


def test_a_process_pool_still_refuses_it_with_a_clear_error() -> None:
    student = notebook_strategy()
    message = r"'student' cannot be sent .* top level .*get_executor"
    with pytest.raises(TypeError, match=message), ProcessPoolExecutor(1) as pool:
        benchmark(student, "beginner", games=4, executor=pool)


def test_a_thread_pool_needs_no_pickling() -> None:
    student = notebook_strategy()
    with ThreadPoolExecutor(2) as pool:
        par = benchmark(student, "beginner", games=8, seed=1, executor=pool, jobs=2)
    assert same_games(par) == same_games(benchmark(student, "beginner", games=8, seed=1, jobs=1))


def test_benchmark_on_the_cluster_equals_the_serial_run(executor: Executor) -> None:
    student = notebook_strategy()
    seen: list[tuple[int, int]] = []
    with distributed.get_task_stream() as stream:
        par = benchmark(
            student,
            "beginner",
            games=GAMES,
            seed=7,
            executor=executor,
            jobs=2,
            progress=lambda done, total: seen.append((done, total)),
        )
    ser = benchmark(student, "beginner", games=GAMES, seed=7, executor=SerialExecutor())
    assert same_games(par) == same_games(ser)
    assert par.strategy == "student" and len(par.outcomes) == GAMES and 0 < par.wins < GAMES
    # game i is the game with seed 7 + i, wherever and in whatever order its chunk ran
    for i in range(GAMES):
        assert bool(par.outcomes[i]) == play_game(student, "beginner", 7 + i).won
    # the chunks ran as tasks on the cluster's workers, and the progress reached the total
    workers = {t["worker"] for t in stream.data}
    assert len(stream.data) == len(seen) > 1
    assert workers and workers <= set(distributed.default_client().scheduler_info()["workers"])
    assert [d for d, _ in seen] == sorted({d for d, _ in seen}) and seen[-1] == (GAMES, GAMES)
    assert {t for _, t in seen} == {GAMES}


def test_tournament_on_the_cluster_equals_the_serial_one(
    executor: Executor, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = {"alice": notebook_strategy(), "simple": simple, "exact": exact}  # rows and bars by label
    par = tournament(entries, "beginner", games=GAMES, seed=100, executor=executor, progress=True)
    err = capsys.readouterr().err
    ser = tournament(entries, "beginner", games=GAMES, seed=100, executor=SerialExecutor())
    assert [r.strategy for r in par] == ["alice", "simple", "exact"]
    assert [same_games(r) for r in par] == [same_games(r) for r in ser]
    assert par.head_to_head("alice", "exact") == ser.head_to_head("alice", "exact")
    for label in entries:  # the text progress bar (stderr outside Jupyter) reached the end of each row
        assert f"{label} beginner [{'#' * 30}] {GAMES}/{GAMES}" in err
