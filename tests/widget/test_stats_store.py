"""The statistics database: nothing lost, nothing overwritten, nothing written outside its folder.

- the database agrees with the pure :class:`GameLog` on any sequence of results (the reference), and so
  does :class:`MemoryStats`, the store for tests and notebooks;
- 4 processes x 500 games recorded at once: 0 lost;
- every kind of corrupt database is moved aside with its bytes intact, said once, and a new database takes
  over; a newer database is left alone; a version 1 database is brought up to date;
- links in place of the folder or of any of its files: nothing is written through them (0 files outside);
  a path that is not a statistics file is refused, and nothing is renamed;
- a read-only folder is read read-only (1,500 games shown, and the note says so); after a full disk, the
  games that waited are written once there is space;
- no ``sqlite3`` (some Pyodide builds), or a folder that cannot be made: memory, and a notice.
"""

from __future__ import annotations

import ast
import errno
import hashlib
import json
import os
import pickle
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipyminesweeper import Minesweeper
from ipyminesweeper.engine import ClickCounts, GameMetrics
from ipyminesweeper.widget import stats_file
from ipyminesweeper.widget.stats import (
    GameLog,
    GameResult,
    MemoryStats,
    Stats,
    StatsStore,
    level_name,
    record,
)
from ipyminesweeper.widget.stats_file import APPLICATION_ID, SCHEMA_VERSION, StatsFile

SRC = str(Path(__file__).resolve().parents[2] / "src")


def result(game: str, won: bool, seconds: float, assisted: str = "", level: str = "beginner") -> GameResult:
    return GameResult(game, level, "opening", won, seconds, assisted, 0)


METRICS_OF_A_WIN = GameMetrics(12, 12, 10, ClickCounts(10, 2, 2, 10, 2, 2), 2.0, True)
"""A beginner win's figures: 3BV 12 in 14 clicks (efficiency 12/14), in 2 s (3BV/s 6)."""

METRICS = st.builds(
    GameMetrics,
    bbbv=st.integers(1, 200),
    solved_bbbv=st.integers(0, 200),
    zini=st.integers(1, 200),
    clicks=st.builds(ClickCounts, *[st.integers(0, 300)] * 6),
    seconds=st.one_of(st.none(), st.floats(0, 999, allow_nan=False)),
    won=st.booleans(),
)


def store_in(folder: Path, **kwargs: Any) -> StatsFile:
    return StatsFile(folder / "ipyminesweeper" / "stats.sqlite3", **kwargs)


def files_under(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every file (and link) under ``root`` but ``skip``: its path, and a digest of what it holds."""
    found = {}
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        if skip is not None and (here == skip or skip in here.parents):
            continue
        for name in names + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            if path.is_symlink():
                found[str(path)] = "link to " + os.readlink(path)
            else:
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def games_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


# --- the rules, and the database against the pure reference ---------------------------------------------


def test_stats_are_derived_from_the_results() -> None:
    log = GameLog()
    for r in [
        result("a", True, 50),
        result("b", True, 30, "2 hints"),
        result("c", False, 12),
        result("d", True, 40),
        result("e", True, 45),
        result("x", True, 5, level="expert"),
    ]:
        log = record(log, r)
    stats = log.stats()
    s = stats.of("beginner", "opening")
    assert (s.played, s.won) == (5, 4)
    assert s.best_seconds == 40, "an assisted win never sets the best time"
    assert s.median_seconds == 42.5 and s.streak == 2 and s.best_streak == 2
    assert stats.levels == (("beginner", "opening"), ("expert", "opening")) and stats.played == 6
    again = record(log, result("c", True, 60, "1 undo after a loss"))
    assert again.stats().of("beginner", "opening").played == 5, "a game that ends again replaces its result"
    assert again.stats().of("beginner", "opening").best_streak == 5
    assert (
        stats.of("nothing", "safe").played == 0
        and "| beginner | opening | 5 | 4 |" in stats._repr_markdown_()
    )
    assert level_name(16, 30, 99) == "expert" and level_name(10, 10, 15) == "10x10/15"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": ""}, "game has 1 to"),
        ({"game": 7}, "game is a str"),
        ({"won": 1}, "won is a bool"),
        ({"seconds": float("nan")}, "seconds is from 0"),
        ({"seconds": 1e300}, "seconds is from 0"),
        ({"seconds": -1}, "seconds is from 0"),
        ({"seconds": "3"}, "seconds is a number"),
        ({"finished_at": 1.5}, "finished_at is epoch"),
        ({"assisted": "x" * 2000}, "assisted has 1 to"),
    ],
)
def test_a_game_result_checks_its_fields(fields: dict[str, Any], message: str) -> None:
    good: dict[str, Any] = {
        "game": "g",
        "level": "beginner",
        "first_click": "safe",
        "won": True,
        "seconds": 3.0,
    }
    with pytest.raises((TypeError, ValueError), match=message):
        GameResult(**{**good, **fields})
    forged = pickle.dumps(GameResult(**good)).replace(b"beginner", b"\xff" * 8)
    with pytest.raises(Exception):  # noqa: B017 - a tampered pickle never builds a result
        pickle.loads(forged)


PLAIN_RESULTS = st.builds(
    GameResult,
    game=st.sampled_from("abcdefgh"),
    level=st.sampled_from(["beginner", "expert", "9x9/20"]),
    first_click=st.sampled_from(["opening", "safe"]),
    won=st.booleans(),
    seconds=st.floats(0, 999, allow_nan=False),
    assisted=st.sampled_from(["", "", "1 hint"]),
)
RESULTS = st.builds(
    lambda r, m: replace(r, metrics=None if m is None else replace(m, won=r.won)),
    PLAIN_RESULTS,
    st.one_of(st.none(), METRICS),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(RESULTS, max_size=30), st.integers(1, 5))
def test_the_database_agrees_with_the_pure_log(results: list[GameResult], batch: int) -> None:
    """Replacements included (8 game ids), one by one or in batches: the totals kept per level equal a
    fold over every game, and the medians read through the index equal the median of the wins."""
    with tempfile.TemporaryDirectory() as folder:
        store, log = store_in(Path(folder)), GameLog()
        for start in range(0, len(results), batch):
            chunk = results[start : start + batch]
            for r in chunk:
                log = record(log, r)
            assert (store.add(chunk[0]) if batch == 1 else store.add_many(chunk)) == log.stats()
        store.close()
        assert StatsFile(store.path).load() == log.stats() and store.notice() == ""


def test_the_median_kept_in_the_database_follows_every_game(tmp_path: Path) -> None:
    """Each write reads its level's median again through the index: checked after each of 800 games
    against ``statistics.median``, with many equal times."""
    rng = random.Random(7)
    store, times = store_in(tmp_path), []
    for i in range(800):
        won = rng.random() < 0.7
        seconds = float(rng.randint(1, 40))
        times += [seconds] if won else []
        stats = store.add(result(f"g{i}", won, seconds)).of("beginner", "opening")
        assert stats.median_seconds == (statistics.median(times) if times else None), i


def test_the_memory_store_agrees_with_the_pure_log_and_touches_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MemoryStats``, the store for tests and notebooks (``Minesweeper(..., stats=MemoryStats())``): the
    statistics of the log, nothing to say, and no file anywhere."""
    monkeypatch.chdir(tmp_path)
    store: StatsStore = MemoryStats()
    log = GameLog()
    for r in [result("a", True, 50), result("b", False, 3), result("a", True, 20, "1 hint")]:
        log = record(log, r)
        assert store.add(r) == log.stats() and store.notice() == ""
    assert store.load() == log.stats() and store.load().of("beginner", "opening").played == 2
    assert store.load().of("beginner", "opening").best_seconds is None, "the only win left had a hint"
    assert store.load().note == "" and repr(store) == "<MemoryStats of 2 games>"
    with pytest.raises(TypeError, match="a GameResult, not str"):
        store.add("a game")  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


# --- nothing lost ---------------------------------------------------------------------------------------

WRITER = """
import sys, time
from pathlib import Path
sys.path.insert(0, {src!r})
from ipyminesweeper.widget.stats import GameResult
from ipyminesweeper.widget.stats_file import StatsFile
name, count, folder = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
store = StatsFile(folder / "ipyminesweeper" / "stats.sqlite3")
while not (folder / "go").exists():
    time.sleep(0.001)
for i in range(count):
    store.add(GameResult(f"{{name}}-{{i}}", "expert", "opening", i % 3 != 0, 60.0 + i, "", i))
stats = store.load()  # the last call: it writes the games still pending, if any
print(repr((store.notice(), store.problem, stats.played, stats.note)))
"""


Told = tuple[str, str, int, str]
"""What a writer was told: its notices, its problem, the games it saw at the end, the last load's note."""


def record_at_once(folder: Path, processes: int, games: int) -> list[Told]:
    """``processes`` processes each record ``games`` games, starting together; what each was told."""
    script = folder / "writer.py"
    script.write_text(WRITER.format(src=SRC))
    runs = [
        subprocess.Popen(
            [sys.executable, str(script), f"p{k}", str(games), str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(processes)
    ]
    time.sleep(0.5)  # every process is waiting for the start
    (folder / "go").touch()
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
    return [ast.literal_eval(out.strip().splitlines()[-1]) for out, _ in outputs]


def test_four_processes_record_500_games_each_and_none_is_lost(tmp_path: Path) -> None:
    """The JSON file kept 185 to 195 of 400 games from two kernels; the database keeps all 2,000 of four."""
    for told in record_at_once(tmp_path, processes=4, games=500):
        assert told[:2] == ("", "") and told[3] == "", f"a writer fell back or was told something: {told}"
    store = store_in(tmp_path)
    stats = store.load().of("expert", "opening")
    print(f"4 processes x 500 games at once: {games_in(store.path)} of 2000 recorded")
    assert games_in(store.path) == 2000 and stats.played == 2000
    assert stats.won == 4 * sum(1 for i in range(500) if i % 3 != 0)


def test_a_database_created_by_another_kernel_while_it_is_read_is_not_foreign(tmp_path: Path) -> None:
    """A kernel reads the header of a new, empty file; before it reads the tables, another kernel creates
    the schema. One snapshot for the whole check: it sees the file empty or ready, never half of each
    (it once saw no application id and the new tables, called the file foreign and moved it aside)."""
    first, other = store_in(tmp_path), store_in(tmp_path)
    first.path.parent.mkdir(parents=True)
    first.path.touch()  # a new, empty file, as the first kernel to finish a game makes it
    read_header = first._header
    done = threading.Event()

    def header_then_another_kernel(db: sqlite3.Connection) -> tuple[int, int]:
        header = read_header(db)
        if not done.is_set():
            done.set()
            creator = threading.Thread(target=other.add, args=(result("b", True, 20),))
            creator.start()
            creator.join(0.5)  # it creates the schema now, or waits for this read to end
        return header

    first._header = header_then_another_kernel  # type: ignore[method-assign]
    stats = first.add(result("a", True, 10))
    assert first.notice() == "" and "foreign" not in stats.note, stats.note
    assert sorted(p.name for p in first.path.parent.iterdir() if "foreign" in p.name) == []
    deadline = time.monotonic() + 10
    while games_in(first.path) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert games_in(first.path) == 2 and other.notice() == ""


def test_processes_meeting_a_corrupt_database_set_it_aside_once(tmp_path: Path) -> None:
    folder = tmp_path / "ipyminesweeper"
    folder.mkdir()
    junk = bytes(range(256)) * 64
    (folder / "stats.sqlite3").write_bytes(junk)
    told = record_at_once(tmp_path, processes=4, games=50)
    aside = sorted(folder.glob("stats.sqlite3.corrupt-*"))
    assert [p.read_bytes() for p in aside] == [junk], "moved aside once, by one process, intact"
    set_aside = "could not be used (file is not a database); it was moved aside to " + aside[0].name
    for notices, problem, _, last_note in told:  # every notice explained, none kept in memory or pending
        said = notices.replace(set_aside, "").replace("a new one was started", "")
        assert problem == "" and last_note == "", f"a writer fell back to memory or kept games: {told}"
        assert "memory" not in said and "moved aside" not in said, f"a writer was told more: {told}"
    assert sum(set_aside in notices for notices, *_ in told) == 1, told
    assert games_in(folder / "stats.sqlite3") == 200


def test_a_wal_lock_not_obtained_after_many_tries_is_busy_not_a_reason_for_memory() -> None:
    """SQLITE_PROTOCOL: other kernels held the WAL locks through SQLite's own retries (a loaded machine)."""
    error = sqlite3.OperationalError("locking protocol")
    error.sqlite_errorcode = 15  # type: ignore[attr-defined]  # what SQLite sets (Python 3.11+)
    assert stats_file.error_kind(error) == "busy"


def test_a_busy_database_keeps_the_game_and_writes_it_with_the_next(tmp_path: Path) -> None:
    store = store_in(tmp_path, timeout=0.2)
    store.add(result("a", True, 10))
    with sqlite3.connect(store.path, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")  # another kernel holds the write lock past the timeout
        stats = store.add(result("b", True, 20))
        assert "busy" in stats.note and "1 game(s) will be written" in store.notice()
        other.execute("ROLLBACK")
    assert store.add(result("c", False, 5)).of("beginner", "opening").played == 3
    assert games_in(store.path) == 3 and store.notice() == ""


# --- never overwritten ----------------------------------------------------------------------------------


def junk_database(path: Path) -> bytes:
    return bytes(range(256)) * 40


def text_file(path: Path) -> bytes:
    return b"my notes about minesweeper\n" * 100


def real_database(path: Path, games: int = 3000) -> None:
    """A statistics database of ``games`` games, written whole into its file (no journal left)."""
    store = StatsFile(path)
    store.add(result("first", True, 1.0))
    store.close()
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO games (game, level, first_click, won, seconds, assisted, finished_at) "
            "VALUES (?, 'beginner', 'opening', 1, ?, '', 0)",
            [(f"bulk{i}", float(i)) for i in range(games)],
        )
        db.execute("UPDATE levels SET played = played + ?, won = won + ?", (games, games))
        db.execute("COMMIT")
    assert not Path(f"{path}-wal").exists()


def truncated(path: Path) -> bytes:
    real_database(path)
    data = path.read_bytes()
    return data[: len(data) // 2]


def scribbled(path: Path) -> bytes:
    real_database(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 3 :] = bytes(len(data) - len(data) // 3)  # zeros over two thirds of the pages
    return bytes(data)


def foreign(path: Path) -> bytes:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
        db.execute("INSERT INTO recipes VALUES ('bread')")
    return path.read_bytes()


def ours_without_tables(path: Path) -> bytes:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("CREATE TABLE games (x)")
    return path.read_bytes()


def bad_totals(path: Path) -> bytes:
    real_database(path, games=10)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE levels SET played = 'many'")
    return path.read_bytes()


BAD_DATABASES: dict[str, Callable[[Path], bytes | None]] = {
    "binary junk": junk_database,
    "a text file": text_file,
    "truncated": truncated,
    "zeros over its pages": scribbled,
    "another program's database": foreign,
    "our id without our tables": ours_without_tables,
    "malformed totals": bad_totals,
}


@pytest.mark.parametrize("kind", BAD_DATABASES)
def test_a_bad_database_is_moved_aside_not_overwritten(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "ipyminesweeper"
    folder.mkdir()
    path = folder / "stats.sqlite3"
    data = BAD_DATABASES[kind](path)
    if data is not None:
        path.write_bytes(data)
    data = path.read_bytes()
    store = StatsFile(path)
    store.load()
    stats = store.add(result("new", True, 10))
    aside = [p for p in folder.glob("stats.sqlite3.*") if not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == data, "kept aside, byte for byte"
    note = store.notice()
    assert "moved aside" in note and aside[0].name in note and store.notice() == ""
    assert stats.played == 1 and games_in(path) == 1 and store.problem == ""


def test_a_newer_database_is_left_alone_and_the_stats_live_in_memory(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    store.add(result("a", True, 10))
    with sqlite3.connect(store.path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    data = store.path.read_bytes()
    newer = StatsFile(store.path)
    assert newer.add(result("b", True, 10)).played == 1, "this session's game, in memory"
    assert "newer ipyminesweeper" in newer.notice() and "memory" in newer.problem
    assert newer.load().note == newer.problem
    assert store.path.read_bytes() == data and not list(store.folder.glob("*.corrupt-*"))


def test_migrations_bring_an_older_database_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_in(tmp_path)
    store.add(result("a", True, 10))

    def add_notes(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''")

    monkeypatch.setattr(stats_file, "MIGRATIONS", (*stats_file.MIGRATIONS, add_notes))
    monkeypatch.setattr(stats_file, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    upgraded = StatsFile(store.path)
    assert upgraded.add(result("b", False, 3)).played == 2
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert db.execute("SELECT count(*) FROM games WHERE note = ''").fetchone()[0] == 2

    def broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("a migration that fails")

    monkeypatch.setattr(stats_file, "MIGRATIONS", (*stats_file.MIGRATIONS, broken))
    monkeypatch.setattr(stats_file, "SCHEMA_VERSION", SCHEMA_VERSION + 2)
    failing = StatsFile(store.path)
    assert failing.add(result("c", True, 3)).played == 1 and "memory" in failing.problem
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1, "rolled back"
        assert "half_done" not in {n for (n,) in db.execute("SELECT name FROM sqlite_master")}


V1_LEVELS = (
    "CREATE TABLE levels (level TEXT NOT NULL, first_click TEXT NOT NULL, first_seq INTEGER NOT NULL,"
    " played INTEGER NOT NULL, won INTEGER NOT NULL, best_seconds REAL, streak INTEGER NOT NULL,"
    " best_streak INTEGER NOT NULL, middle_seconds REAL, middle_seq INTEGER,"
    " PRIMARY KEY (level, first_click))"
)


def old_file(path: Path, version: int, results: list[GameResult]) -> None:
    """A statistics file as an older ipyminesweeper wrote it: its tables (version 1: a ``meta`` table and
    levels that keep the median's place; version 2: levels that keep their median), and its games,
    written with the columns of that version."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        stats_file.create_version_1(db)
        if version == 1:
            db.execute(V1_LEVELS)
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("INSERT INTO levels VALUES ('beginner', 'opening', 1, 99, 99, 1.0, 0, 0, 3.0, 7)")
        else:
            stats_file.version_2(db)
        for r in results:
            db.execute(
                "INSERT OR REPLACE INTO games (game, level, first_click, won, seconds, assisted, "
                "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (r.game, r.level, r.first_click, int(r.won), r.seconds, r.assisted, r.finished_at),
            )
        if version == 2:  # version 2 kept each level's totals and median
            for s in GameLog(tuple(results)).stats().rows:
                db.execute(
                    "INSERT INTO levels VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        s.level,
                        s.first_click,
                        s.played,
                        s.won,
                        s.best_seconds,
                        s.median_seconds,
                        s.streak,
                        s.best_streak,
                    ),
                )
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {version}")


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_database_is_brought_up_to_date(tmp_path: Path, version: int) -> None:
    """Version 1 kept the median's place in the index, and a ``meta`` table; version 2 had no figures
    (issue 58). Opening either counts every level again from its games (in one transaction): the
    statistics are those of the games, the old games have no figures (NULL), and a new game's figures
    give the level its best 3BV/s and efficiency."""
    log = GameLog()
    for i in range(30):
        level = ("beginner", "expert")[i % 2]
        log = record(log, result(f"g{i % 25}", i % 3 != 0, float(i % 7 + 1), level=level))
    store = store_in(tmp_path)
    old_file(store.path, version, list(log.games))
    upgraded = StatsFile(store.path)
    assert upgraded.load() == log.stats() and upgraded.notice() == "" and upgraded.problem == ""
    with closing(sqlite3.connect(store.path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert "meta" not in {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        assert db.execute("SELECT count(*) FROM games WHERE bbbv IS NULL").fetchone()[0] == 25
    fast = replace(result("new", True, 2.0), metrics=METRICS_OF_A_WIN)
    stats = upgraded.add(fast)
    assert stats == record(log, fast).stats() and stats.last == fast
    row = stats.of("beginner", "opening")
    assert row.best_bbbv_per_second == 6.0 and row.best_efficiency == 12 / 14


@pytest.mark.parametrize("path", ["/etc/passwd", "notes.txt", ".", "/", "stats.sqlite3\0.sqlite3"])
def test_a_path_that_is_not_a_statistics_file_is_refused(path: str) -> None:
    """A path given by mistake (a file of the user's, a folder) is never opened, let alone moved aside."""
    with pytest.raises(ValueError, match=r"a path that ends in \.sqlite3"):
        StatsFile(path)
    for timeout in (-1, float("nan"), True, "10"):
        with pytest.raises(ValueError, match="timeout is from 0 to 3600 seconds"):
            StatsFile("stats.sqlite3", timeout=timeout)  # type: ignore[arg-type]


def test_a_folder_in_place_of_the_file_is_left_alone(tmp_path: Path) -> None:
    """Only a link in place of the file is moved aside (the link itself): a folder there is someone's,
    and stays where it is, untouched."""
    folder = tmp_path / "ipyminesweeper"
    (folder / "stats.sqlite3").mkdir(parents=True)
    (folder / "stats.sqlite3" / "thesis.tex").write_text("mine")
    before = files_under(tmp_path)
    store = store_in(tmp_path)
    assert store.add(result("a", True, 5)).played == 1 and "memory" in store.problem
    assert "is a folder, not a statistics file" in store.notice()
    assert files_under(tmp_path) == before and sorted(p.name for p in folder.iterdir()) == ["stats.sqlite3"]


# --- nothing written through a link ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["stats.sqlite3", "stats.sqlite3-wal", "stats.sqlite3-shm", "stats.sqlite3-journal"]
)
def test_a_link_in_the_folder_is_moved_aside_and_never_followed(tmp_path: Path, name: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "precious.txt"
    victim.write_text("do not touch")
    data = tmp_path / "data"
    folder = data / "ipyminesweeper"
    folder.mkdir(parents=True)
    (folder / name).symlink_to(victim)
    before = files_under(tmp_path, skip=data)
    store = store_in(data)
    for i in range(3):
        store.add(result(f"g{i}", True, 5))
    assert store.load().played == 3 and store.problem == ""
    assert files_under(tmp_path, skip=data) == before, "0 files written outside the data directory"
    assert victim.read_text() == "do not touch"
    links = list(folder.glob(f"{name}.link-*"))
    assert len(links) == 1 and os.readlink(links[0]) == str(victim) and "moved aside" in store.notice()


def test_a_linked_data_folder_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    data = tmp_path / "data"
    data.mkdir()
    (data / "ipyminesweeper").symlink_to(outside, target_is_directory=True)
    store = store_in(data)
    assert store.add(result("a", True, 5)).played == 1
    assert "symbolic link" in store.notice() and "memory" in store.problem
    assert list(outside.iterdir()) == [], "nothing written through the link"


# --- a read-only folder, a full disk ----------------------------------------------------------------------

PRELUDE = """
import hashlib, json, os, resource, signal, sys
from pathlib import Path
sys.path.insert(0, {src!r})
from ipyminesweeper.widget.stats import GameResult
from ipyminesweeper.widget.stats_file import StatsFile
if os.geteuid() == 0:  # root writes through any permission: be nobody, whose folder this is
    os.setgid(65534)
    os.setuid(65534)
folder = Path(sys.argv[1]) / "ipyminesweeper"
path = folder / "stats.sqlite3"
game = lambda name: GameResult(name, "expert", "opening", True, 60.0)
shown = lambda stats: [stats.played, stats.note]
files = lambda: sorted((p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in folder.iterdir())
first = StatsFile(path)
first.add_many(game(f"old-{{i}}") for i in range(1500))
first.close()  # no WAL left: a new connection makes its own
"""

READ_ONLY = (
    PRELUDE
    + """
before = files()
folder.chmod(0o555)
store = StatsFile(path)
told = [shown(store.load()), shown(store.add(game("new")))]
out = {{"told": told, "notice": store.notice(), "unchanged": files() == before}}
folder.chmod(0o755)
print(json.dumps({{**out, "back": shown(store.load()), "problem": store.problem}}))
"""
)

FULL_DISK = (
    PRELUDE
    + """
store = StatsFile(path)
store.load()  # open: its WAL is empty
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))  # no file grows: each write fails (EFBIG)
told = [shown(store.add(game(f"new-{{i}}"))) for i in range(2)]
notice = store.notice()
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # space is back
back = shown(store.load())
print(json.dumps({{"told": told, "notice": notice, "back": back, "after": [store.problem, store.notice()]}}))
"""
)


@pytest.fixture
def own_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder the scripts' user owns: this user's, or nobody's (uid 65534) when the tests run as root,
    since root writes through any permission (the scripts then become nobody)."""
    if os.geteuid() != 0:
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="ipyms-stats-"))  # tmp_path's parents are root's only
    os.chown(folder, 65534, 65534)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_script(script: str, folder: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", script.format(src=SRC), str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    told: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return told


def test_a_read_only_folder_is_read_read_only_and_the_note_says_so(own_folder: Path) -> None:
    """It showed 0 games: now the 1,500 of the file, opened read-only, and a note that says so. A game
    finished meanwhile waits, nothing in the folder changes, and the game is written once it can be."""
    told = run_script(READ_ONLY, own_folder)
    (loaded, loaded_note), (added, added_note) = told["told"]
    assert loaded == 1500 and loaded_note.startswith("statistics opened read-only: the folder ")
    assert "is read-only" in loaded_note and "will be written" not in loaded_note
    assert added == 1500 and added_note.startswith(loaded_note + "; 1 game(s) will be written")
    assert told["notice"] == f"{loaded_note} {added_note}", "each note said once"
    assert told["unchanged"], "nothing made, moved or written in the read-only folder"
    assert told["back"] == [1501, ""] and told["problem"] == ""
    assert games_in(own_folder / "ipyminesweeper" / "stats.sqlite3") == 1501


def test_after_a_full_disk_the_games_that_waited_are_written_once_there_is_space(own_folder: Path) -> None:
    """No file may grow (``RLIMIT_FSIZE``: each write fails as on a full disk). The panel showed 1 game and
    kept the session's games in memory for good: now it shows the file's 1,500 and says that the new games
    wait, and they are written once there is space."""
    told = run_script(FULL_DISK, own_folder)
    (first, first_note), (second, second_note) = told["told"]
    assert (first, second) == (1500, 1500), "the file's games, read-only, not the session's"
    assert "1 game(s) will be written" in first_note and "2 game(s) will be written" in second_note
    assert told["notice"] == f"{first_note} {second_note}"
    assert told["back"] == [1502, ""] and told["after"] == ["", ""], "written, and nothing more to say"
    assert games_in(own_folder / "ipyminesweeper" / "stats.sqlite3") == 1502


def test_no_space_for_the_first_file_keeps_the_games_until_there_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENOSPC as the file is made: the session's games are shown, from memory, and said so; once there is
    space, the next call writes them all."""
    real_open = os.open

    def full(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", full)
    store = store_in(tmp_path)
    assert [store.add(result(f"g{i}", True, 10.0 + i)).played for i in range(3)] == [1, 2, 3]
    assert store.problem.startswith("statistics kept in memory until they can be written: cannot write")
    assert "No space left on device" in store.problem and store.notice() == store.problem
    monkeypatch.undo()
    stats = store.load()
    assert stats.played == 3 and stats.note == "" and store.problem == "" and store.notice() == ""
    assert games_in(store.path) == 3


# --- memory, and said so ----------------------------------------------------------------------------------


def test_without_sqlite3_the_stats_live_in_memory(tmp_path: Path) -> None:
    """As in a Pyodide build without sqlite3: the import fails, nothing touches the disk, the notice
    says why."""
    code = textwrap.dedent(
        f"""
        import sys
        sys.modules["sqlite3"] = None  # import sqlite3 now raises ImportError
        sys.path.insert(0, {SRC!r})
        from pathlib import Path
        from ipyminesweeper.widget.stats import GameResult
        from ipyminesweeper.widget.stats_file import HAVE_SQLITE, StatsFile
        store = StatsFile(Path({str(tmp_path)!r}) / "ipyminesweeper" / "stats.sqlite3")
        store.add(GameResult("a", "beginner", "safe", True, 3.0))
        print(HAVE_SQLITE, store.load().of("beginner", "safe").won, store.notice())
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith(
        "False 1 statistics kept in memory for this session only: this Python has no sqlite3"
    )
    assert list(tmp_path.iterdir()) == []


def test_stats_live_in_memory_where_the_folder_cannot_be_made(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    store = StatsFile(blocked / "ipyminesweeper" / "stats.sqlite3")
    store.add(result("a", True, 10))
    stats = store.add(result("b", False, 3))
    assert stats.played == 2 and "in memory" in store.problem and stats.note == store.problem
    assert "in memory" in store.notice() and store.notice() == ""
    assert "in memory" in stats._repr_markdown_()


# --- through the widget ---------------------------------------------------------------------------------


def test_a_finished_game_is_recorded_and_survives_a_new_widget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))
    w = Minesweeper("beginner", seed=11)
    w.reveal(4, 4)
    while w.status == "playing":
        w.reveal(*next(p for p in w.board.positions() if w.board.view[p] == "." and not w.board.is_mine(p)))
    assert w.status == "won" and w.summary.startswith("won in")
    table = w.stats.of("beginner", "opening")
    assert (table.played, table.won) == (1, 1) and table.best_seconds is not None
    assert w.stats_table[0]["level"] == "beginner" and w.stats_table[0]["won"] == 1
    assert games_in(tmp_path / "ipyminesweeper" / "stats.sqlite3") == 1
    other = Minesweeper("expert")  # as after a kernel restart: read from the database
    assert other.stats.of("beginner", "opening").won == 1
    helped = Minesweeper("beginner", seed=12)
    helped.step("exact")
    while helped.status == "playing":
        helped.step("exact")
    assert "assisted" in helped.summary
    won = helped.stats.of("beginner", "opening")
    assert won.played == 2 and (helped.status == "lost" or won.best_seconds == table.best_seconds)
    assert isinstance(helped.stats, Stats) and json.dumps(helped.stats_table)


def test_the_widget_says_once_what_the_store_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))
    folder = tmp_path / "ipyminesweeper"
    folder.mkdir()
    (folder / "stats.sqlite3").write_bytes(junk_database(folder))
    w = Minesweeper("beginner", seed=3)
    assert "moved aside" in w.error, "the widget says so"
    w.reveal(4, 4)
    assert w.error == "", "once"
    assert Minesweeper("beginner").error == "", "the next widget finds a good database"


def test_a_note_that_quotes_a_path_shows_as_text() -> None:
    """Issue 30: the note may quote a path (JUPYTER_DATA_DIR is anyone's string): no markup of its own."""
    note = "statistics kept in memory for this session only: /tmp/<img src=x onerror=alert(1)>/x.sqlite"
    shown = Stats((), note)._repr_markdown_()
    assert "<" not in shown and "&lt;img src=x onerror=alert(1)&gt;" in shown
