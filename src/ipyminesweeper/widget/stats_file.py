"""Where the statistics live between kernel restarts: an SQLite database in the user's Jupyter data directory.

The database is ``<jupyter data dir>/ipyminesweeper/stats.sqlite3`` (``jupyter --data-dir`` prints the
directory; ``JUPYTER_DATA_DIR`` moves it). Jupyter keeps its own history and notebook signatures the same
way. :class:`StatsFile` reads and writes it:

- **Nothing lost.** One row per finished game, and one row of totals (a :class:`~.stats.Tally`) per level,
  written together in one transaction, in WAL mode with a busy timeout: any number of kernels can
  record games at once. A game that meets a database still busy after the timeout waits in memory and is
  written with the next one.
- **Fast reads.** :meth:`StatsFile.load` reads the totals and, per level, the median through an index: it
  never reads every game (0.3 ms at 1,000,000 games, as at 1,000; ``python -m benchmarks stats``).
- **Versions.** ``PRAGMA user_version`` is the schema version and :data:`MIGRATIONS` bring an older
  database up to date in one transaction; ``PRAGMA application_id`` marks the file as ours. The first time,
  the ``stats.json`` of earlier versions is imported (and left where it is).
- **Never overwritten.** A corrupt or foreign database, or a ``stats.json`` that cannot be read, is moved
  aside as ``<name>.corrupt-<timestamp>`` (or ``.foreign-``) and a new database is started. A database
  written by a newer version is left as it is, and the statistics live in memory.
- **No symbolic links.** The ``ipyminesweeper`` folder must be a real folder, and a link in place of one of
  its files is moved aside (the link itself: what it points to is never opened).
- **Memory when the disk cannot be used**: where ``sqlite3`` is missing (some Pyodide builds) or the folder
  cannot be written (a read-only home), the statistics live in memory for the session.

Whatever happened is said once: :meth:`StatsFile.notice` returns each notice a single time, for the widget
to show, and :attr:`StatsFile.problem` says why the statistics are not on disk (empty when they are).
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

try:
    import sqlite3

    HAVE_SQLITE = True
except ImportError:  # some Pyodide builds leave it out
    HAVE_SQLITE = False

from .stats import MAX_JSON_BYTES, GameLog, GameResult, LevelStats, Stats, Tally, log_from_json, record

__all__ = [
    "APPLICATION_ID",
    "DATABASE_NAME",
    "HAVE_SQLITE",
    "LEGACY_NAME",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "StatsFile",
    "default_stats_path",
    "folder_lock",
    "move_aside",
]

DATABASE_NAME = "stats.sqlite3"
LEGACY_NAME = "stats.json"
"""The JSON file of earlier versions, imported once."""
APPLICATION_ID = 0x4D696E65  # "Mine"
"""``PRAGMA application_id`` of a statistics database: any other value is a foreign file."""
SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps next to a database."""

T = TypeVar("T")


def create_version_1(db: sqlite3.Connection) -> None:
    """Version 1: a row per game, a row of totals per level and first-click rule, and a key-value table."""
    db.execute(
        """CREATE TABLE games (
            seq INTEGER PRIMARY KEY,
            game TEXT NOT NULL UNIQUE,
            level TEXT NOT NULL,
            first_click TEXT NOT NULL,
            won INTEGER NOT NULL CHECK (won IN (0, 1)),
            seconds REAL NOT NULL CHECK (seconds >= 0),
            assisted TEXT NOT NULL,
            finished_at INTEGER NOT NULL)"""
    )
    db.execute("CREATE INDEX games_by_time ON games (level, first_click, won, seconds)")
    db.execute("CREATE INDEX games_in_order ON games (level, first_click, seq)")
    db.execute(
        """CREATE TABLE levels (
            level TEXT NOT NULL,
            first_click TEXT NOT NULL,
            first_seq INTEGER NOT NULL,
            played INTEGER NOT NULL,
            won INTEGER NOT NULL,
            best_seconds REAL,
            streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            middle_seconds REAL,
            middle_seq INTEGER,
            PRIMARY KEY (level, first_click))"""
    )
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (create_version_1,)
"""``MIGRATIONS[k]`` brings a database of version ``k`` to ``k + 1`` (version 0 is an empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)
TABLES = frozenset({"games", "levels", "meta"})


def default_stats_path() -> Path:
    """``<jupyter data dir>/ipyminesweeper/stats.sqlite3``."""
    try:
        from jupyter_core.paths import jupyter_data_dir

        base = Path(jupyter_data_dir())
    except Exception:  # no jupyter_core (a bare Pyodide): the documented default of jupyter_core
        base = Path(os.environ.get("JUPYTER_DATA_DIR") or Path.home() / ".local" / "share" / "jupyter")
    return base / "ipyminesweeper" / DATABASE_NAME


class Unusable(Exception):
    """The database cannot be used in this session; the message says why."""


class Corrupt(Exception):
    """The database is not a statistics database we can read: it is moved aside."""

    def __init__(self, why: str, kind: str = "corrupt") -> None:
        super().__init__(why)
        self.kind = kind


class Busy(Exception):
    """Other kernels held the database for longer than the busy timeout."""


class Moved(Exception):
    """The database file was replaced (moved aside by another kernel) while we had it open."""


class StatsFile:
    """The statistics database: :meth:`load` reads the statistics, :meth:`add` records a finished game.

    ``path`` is the database (default :func:`default_stats_path`); its folder is the data directory, where
    every file of the store lives. ``timeout`` is how long a write waits for other kernels, in seconds.
    """

    def __init__(self, path: Path | str | None = None, *, timeout: float = 10.0) -> None:
        self.path = default_stats_path() if path is None else Path(path)
        self.folder = self.path.parent
        self.timeout = timeout
        self.problem = ""
        """Why the statistics are not (all) on disk; empty when they are."""
        self._notices: list[str] = []
        self._memory: GameLog | None = None  # the statistics, once the disk cannot be used
        self._pending: list[GameResult] = []  # games that met a busy database: written with the next one
        self._last = Stats()
        self._db: sqlite3.Connection | None = None  # kept open between calls
        self._identity = (0, 0)  # (device, inode) of the file it opened
        self._lock = threading.Lock()
        if not HAVE_SQLITE:
            self._to_memory("this Python has no sqlite3 module (some Pyodide builds leave it out)")

    # --- the interface ----------------------------------------------------------------------------------

    def load(self) -> Stats:
        """The statistics: from the database (totals and medians, never every game), or from memory."""
        with self._lock:
            if self._memory is None:
                try:
                    if self._pending:
                        return self._on_disk(self._write_pending_and_read)
                    return self._on_disk(self._summary)
                except Busy:
                    return Stats(self._last.rows, self._busy_note())
                except Unusable as error:
                    self._to_memory(str(error))
            assert self._memory is not None
            return self._memory.stats(self.problem)

    def add(self, result: GameResult) -> Stats:
        """Record ``result`` (replacing an earlier result of the same game); return the new statistics."""
        return self.add_many([result])

    def add_many(self, results: Iterable[GameResult]) -> Stats:
        """Record ``results`` in order, in one transaction; return the new statistics."""
        batch = list(results)
        for result in batch:
            if not isinstance(result, GameResult):
                raise TypeError(f"add records a GameResult, not {type(result).__name__}")
        with self._lock:
            if self._memory is None:
                self._pending.extend(batch)
                try:
                    return self._on_disk(self._write_pending_and_read)
                except Busy:
                    self._notices.append(self._busy_note())
                    return Stats(self._last.rows, self._busy_note())
                except Unusable as error:
                    self._to_memory(str(error))  # the pending games, these included, go to memory
            else:
                for result in batch:
                    self._memory = record(self._memory, result)
            assert self._memory is not None
            return self._memory.stats(self.problem)

    def close(self) -> None:
        """Close the database connection (the next call opens it again)."""
        with self._lock:
            self._close()

    def notice(self) -> str:
        """What happened to the statistics since the last call (a file moved aside, memory only, ...),
        each said once; "" when nothing did."""
        with self._lock:
            text, self._notices = " ".join(self._notices), []
            return text

    # --- memory -----------------------------------------------------------------------------------------

    def _to_memory(self, why: str) -> None:
        self.problem = f"statistics kept in memory for this session only: {why}"
        self._notices.append(self.problem)
        self._memory = GameLog()
        for result in self._pending:
            self._memory = record(self._memory, result)
        self._pending = []

    def _busy_note(self) -> str:
        return (
            f"the statistics database is busy (other kernels held it for over {self.timeout:g} s): "
            f"{len(self._pending)} game(s) will be written with the next one"
        )

    # --- the database -----------------------------------------------------------------------------------

    def _on_disk(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Do ``work`` with the database (opened, checked, created or migrated as needed).

        While other kernels set a corrupt file aside and start a new one, the file changes a few times:
        this tries again until it settles, for up to ``timeout`` seconds (a loaded machine needs more
        than a fixed number of tries). A database still busy then is Busy; one still changing, Unusable.
        """
        deadline = time.monotonic() + self.timeout
        tries = 0
        while tries < 4 or time.monotonic() < deadline:
            tries += 1
            try:
                return work(self._connection())
            except Moved:
                self._close()
            except Corrupt as error:
                self._close()
                self._set_aside_database(str(error), error.kind)
            except sqlite3.Error as error:
                kind = error_kind(error)
                if kind == "busy":
                    if time.monotonic() >= deadline:
                        raise Busy from error
                    time.sleep(0.01)  # a lock SQLite does not wait for (a deadlock it avoids): try again
                    continue
                self._close()
                if kind != "corrupt":
                    raise Unusable(f"cannot use {self.path}: {error}") from error
                self._set_aside_database(str(error), "corrupt")
            except Unusable:
                self._close()
                raise
        raise Unusable(f"{self.path} kept changing under this kernel")

    def _connection(self) -> sqlite3.Connection:
        """The connection already open while the file is the one it opened; else a new one, checked."""
        info = lstat(self.path)
        if self._db is not None and info is not None and (info.st_dev, info.st_ino) == self._identity:
            return self._db
        self._close()
        self._db, self._identity = self._open()
        self._prepare(self._db)
        return self._db

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _open(self) -> tuple[sqlite3.Connection, tuple[int, int]]:
        """A connection to the database file, after checking that no path goes through a link."""
        try:
            self._check_folder()
            for name in (self.path.name, *(self.path.name + s for s in SIDE_FILES)):
                path = self.folder / name
                info = lstat(path)
                if info is not None and not stat.S_ISREG(info.st_mode):
                    kind = "link" if stat.S_ISLNK(info.st_mode) else "foreign"
                    target = self._set_aside(path, kind, lambda now: not stat.S_ISREG(now.st_mode))
                    if target is not None:
                        self._notices.append(
                            f"{path} was not a plain file (a {describe(info)}); it was moved aside to "
                            f"{target.name}, and nothing was written through it"
                        )
            if not self.path.exists():
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                with suppress(FileExistsError):  # another kernel made it first
                    os.close(os.open(self.path, flags, 0o600))
            info = os.lstat(self.path)
            if not stat.S_ISREG(info.st_mode):
                raise Unusable(f"{self.path} keeps being replaced by a {describe(info)}")
            db = sqlite3.connect(
                str(self.path), timeout=self.timeout, isolation_level=None, check_same_thread=False
            )
        except OSError as error:
            raise Unusable(f"cannot use the folder {self.folder}: {error}") from error
        except sqlite3.Error as error:
            raise Unusable(f"cannot open {self.path}: {error}") from error
        return db, (info.st_dev, info.st_ino)

    def _check_folder(self) -> None:
        """The data folder exists and is a real folder (not a link to somewhere else)."""
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        info = lstat(self.folder)
        if info is None:
            with suppress(FileExistsError):
                self.folder.mkdir(mode=0o700)
            info = os.lstat(self.folder)
        if not stat.S_ISDIR(info.st_mode):
            raise Unusable(
                f"{self.folder} is a {describe(info)}, not a folder: nothing is written through it"
            )

    def _prepare(self, db: sqlite3.Connection) -> None:
        """Check the database is ours and current; create, migrate and import as needed (one transaction).

        Nothing is written to a file before it is known to be ours (or empty): a foreign or newer one
        stays byte for byte as it was.
        """
        db.execute("BEGIN")  # one snapshot: a kernel creating the file meanwhile is seen before or after
        try:
            state = self._verdict(db)
        finally:  # it only read
            if db.in_transaction:
                db.execute("ROLLBACK")
        db.execute("PRAGMA journal_mode = WAL")  # ours: safe to switch (a no-op once it is WAL)
        db.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash never corrupts; commits skip fsync
        if state == "ready":
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            state = self._verdict(db)  # again, under the write lock: another kernel may have done it
            if state != "ready":
                version = 0 if state == "fresh" else self._header(db)[1]
                for migrate in MIGRATIONS[version:]:
                    migrate(db)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                if state == "fresh":
                    self._import_legacy(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _verdict(self, db: sqlite3.Connection) -> str:
        """``"ready"``, ``"fresh"`` (an empty file) or ``"older"`` (to migrate); Corrupt for a foreign or
        damaged database, Unusable for a newer one."""
        (application, version), tables = self._header(db), self._tables(db)
        if (application, version, tables) == (0, 0, set()):
            return "fresh"
        if application != APPLICATION_ID:
            raise Corrupt("it is not an ipyminesweeper statistics database", "foreign")
        if version > SCHEMA_VERSION:
            raise Unusable(
                f"{self.path} was written by a newer ipyminesweeper (schema version {version}; this one "
                f"reads up to {SCHEMA_VERSION}): it is left as it is"
            )
        if version == SCHEMA_VERSION:
            if not tables >= TABLES:
                raise Corrupt(f"its tables are {sorted(tables)}, not those of version {version}")
            return "ready"
        return "older"

    @staticmethod
    def _header(db: sqlite3.Connection) -> tuple[int, int]:
        application = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        return application, version

    @staticmethod
    def _tables(db: sqlite3.Connection) -> set[str]:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _import_legacy(self, db: sqlite3.Connection) -> None:
        """Import the ``stats.json`` of earlier versions into a new database; move it aside if unreadable."""
        legacy = self.folder / LEGACY_NAME
        info = lstat(legacy)
        if info is None:
            return
        why = "" if stat.S_ISREG(info.st_mode) else f"it is a {describe(info)}"
        log = GameLog()
        if not why:
            try:
                log = log_from_json(read_capped(legacy, MAX_JSON_BYTES))
            except (OSError, ValueError) as error:
                why = str(error)
        if why:
            kind = "link" if stat.S_ISLNK(info.st_mode) else "corrupt"
            target = self._set_aside(legacy, kind, lambda now: same_file(now, info))
            if target is not None:
                self._notices.append(
                    f"the statistics file {legacy} could not be imported ({why}); it was moved aside to "
                    f"{target.name}"
                )
            return
        self._record_all(db, log.games)
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('imported', ?)",
            (f"{len(log.games)} games from {LEGACY_NAME}",),
        )
        self._notices.append(
            f"imported {len(log.games)} games from {legacy} into {self.path.name} (the JSON file is kept)"
        )

    def _set_aside_database(self, why: str, kind: str) -> None:
        """Move the database and its side files aside, unless another kernel already replaced it."""
        with folder_lock(self.folder):
            info = lstat(self.path)
            if info is None or (info.st_dev, info.st_ino) != self._identity:
                return
            stamp = time.strftime("%Y%m%dT%H%M%S")
            try:
                target = free_name(self.path, kind, stamp)
                for suffix in SIDE_FILES:  # first, so a new database never meets the old one's journal
                    side = Path(str(self.path) + suffix)
                    if lstat(side) is not None:
                        move_aside(side, Path(str(target) + suffix))
                move_aside(self.path, target)
            except OSError as error:
                raise Unusable(f"{self.path} cannot be read ({why}) nor moved aside: {error}") from error
        self._notices.append(
            f"the statistics database {self.path} could not be used ({why}); it was moved aside to "
            f"{target.name} and a new one was started"
        )

    def _set_aside(self, path: Path, kind: str, still: Callable[[os.stat_result], bool]) -> Path | None:
        """Move ``path`` aside if it is still there and ``still`` holds of it (one kernel does it)."""
        with folder_lock(self.folder):
            info = lstat(path)
            if info is None or not still(info):
                return None
            target = free_name(path, kind, time.strftime("%Y%m%dT%H%M%S"))
            move_aside(path, target)
            return target

    # --- writing ----------------------------------------------------------------------------------------

    def _write_pending_and_read(self, db: sqlite3.Connection) -> Stats:
        db.execute("BEGIN IMMEDIATE")
        try:
            info = lstat(self.path)  # under the write lock: the file is still the one we opened
            if info is None or (info.st_dev, info.st_ino) != self._identity:
                raise Moved
            self._record_all(db, self._pending)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._pending = []
        return self._summary(db)

    def _record_all(self, db: sqlite3.Connection, results: Iterable[GameResult]) -> None:
        """Add ``results`` in order, in the transaction under way (each level's row kept in memory
        meanwhile, and written once at the end)."""
        levels: dict[tuple[str, str], LevelRow] = {}
        for r in results:
            key = (r.level, r.first_click)
            old = db.execute("SELECT level, first_click FROM games WHERE game = ?", (r.game,)).fetchone()
            if old is not None:
                db.execute("DELETE FROM games WHERE game = ?", (r.game,))
            seq = db.execute(
                "INSERT INTO games (game, level, first_click, won, seconds, assisted, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (r.game, r.level, r.first_click, int(r.won), float(r.seconds), r.assisted, r.finished_at),
            ).lastrowid
            assert seq is not None, "an INSERT always sets lastrowid"
            if old is not None:  # the game moved to the end: count its level (and its old one) again
                store_levels(db, levels)
                for level in {key, (old[0], old[1])}:
                    recount(db, level)
                continue
            row = levels.get(key) or read_level(db, key) or LevelRow(seq, Tally(), None)
            middle = row.middle
            if r.won:
                here = (float(r.seconds), seq)
                if middle is None:
                    middle = here if row.tally.won == 0 else ranked(db, key, row.tally.won // 2)
                else:  # the lower median moves by at most one place: one step along the index
                    place = (row.tally.won - 1) // 2 + (here < middle)
                    step = row.tally.won // 2 - place
                    middle = neighbour(db, key, middle, step) if step else middle
            levels[key] = LevelRow(row.first_seq, row.tally.add(r.won, r.seconds, r.honest), middle)
        store_levels(db, levels)

    # --- reading ----------------------------------------------------------------------------------------

    def _summary(self, db: sqlite3.Connection) -> Stats:
        """Every level's totals and median winning time: a few rows per level, whatever the number of
        games (one snapshot)."""
        rows = []
        db.execute("BEGIN")
        try:
            for (level, first_click), row in read_levels(db):
                median = None
                if row.tally.won:
                    assert row.middle is not None  # read_levels checks it
                    upper = (
                        row.middle
                        if row.tally.won % 2
                        else neighbour(db, (level, first_click), row.middle, 1)
                    )
                    if upper is None:
                        raise Corrupt(f"the median of {level!r} is not among its games")
                    median = (row.middle[0] + upper[0]) / 2
                rows.append(LevelStats.of(level, first_click, row.tally, median))
        finally:
            db.execute("COMMIT")
        self._last = Stats(tuple(rows))
        return self._last


@dataclass(frozen=True)
class LevelRow:
    """A row of the ``levels`` table: when the level was first played, its totals, and its lower median
    winning time as ``(seconds, seq)``, the index entry at rank ``(won - 1) // 2`` (None with no win)."""

    first_seq: int
    tally: Tally
    middle: tuple[float, int] | None


LEVEL_COLUMNS = "first_seq, played, won, best_seconds, streak, best_streak, middle_seconds, middle_seq"


def level_row(values: tuple[object, ...]) -> LevelRow:
    """A :class:`LevelRow` from the columns :data:`LEVEL_COLUMNS`; Corrupt if they are malformed."""
    first, played, won, best, streak, best_streak, middle_seconds, middle_seq = values
    best_time = None if best is None else read_seconds(best)
    tally = Tally(read_count(played), read_count(won), best_time, read_count(streak), read_count(best_streak))
    middle = None if middle_seconds is None else (read_seconds(middle_seconds), read_count(middle_seq))
    if (tally.won == 0) != (middle is None):
        raise Corrupt("the median of a level is malformed")
    return LevelRow(read_count(first), tally, middle)


def read_count(value: object) -> int:
    """``value`` if it is a count read from the database, else Corrupt."""
    if not isinstance(value, int) or value < 0:
        raise Corrupt(f"a level's totals hold {str(value)[:40]!r} where a count belongs")
    return value


def read_seconds(value: object) -> float:
    """``value`` if it is a time read from the database, else Corrupt."""
    if not isinstance(value, float) or not 0 <= value < 1e9:
        raise Corrupt(f"a level's totals hold {str(value)[:40]!r} where a time belongs")
    return value


def read_level(db: sqlite3.Connection, key: tuple[str, str]) -> LevelRow | None:
    values = db.execute(
        f"SELECT {LEVEL_COLUMNS} FROM levels WHERE level = ? AND first_click = ?", key
    ).fetchone()
    return None if values is None else level_row(values)


def read_levels(db: sqlite3.Connection) -> list[tuple[tuple[str, str], LevelRow]]:
    """Every level, in order of first play."""
    out = []
    for level, first_click, *values in db.execute(
        f"SELECT level, first_click, {LEVEL_COLUMNS} FROM levels ORDER BY first_seq"
    ).fetchall():
        if not (isinstance(level, str) and isinstance(first_click, str)):
            raise Corrupt("a level's name is malformed")
        out.append(((level, first_click), level_row(tuple(values))))
    return out


def store_levels(db: sqlite3.Connection, levels: dict[tuple[str, str], LevelRow]) -> None:
    """Write the rows of ``levels`` and forget them."""
    for (level, first_click), row in levels.items():
        t, middle = row.tally, row.middle or (None, None)
        db.execute(
            f"INSERT OR REPLACE INTO levels (level, first_click, {LEVEL_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                level,
                first_click,
                row.first_seq,
                t.played,
                t.won,
                t.best_seconds,
                t.streak,
                t.best_streak,
                *middle,
            ),
        )
    levels.clear()


def recount(db: sqlite3.Connection, key: tuple[str, str]) -> None:
    """Count a level's row again from its games (after a game was replaced: rare)."""
    tally, first = Tally(), None
    for seq, won, seconds, assisted in db.execute(
        "SELECT seq, won, seconds, assisted FROM games WHERE level = ? AND first_click = ? ORDER BY seq", key
    ):
        first = seq if first is None else first
        tally = tally.add(bool(won), seconds, not assisted)
    if first is None:
        db.execute("DELETE FROM levels WHERE level = ? AND first_click = ?", key)
        return
    middle = ranked(db, key, (tally.won - 1) // 2) if tally.won else None
    store_levels(db, {key: LevelRow(first, tally, middle)})


def ranked(db: sqlite3.Connection, key: tuple[str, str], rank: int) -> tuple[float, int] | None:
    """The win at ``rank`` (0 is the fastest) as ``(seconds, seq)``: a walk along the index."""
    row = db.execute(
        "SELECT seconds, seq FROM games WHERE level = ? AND first_click = ? AND won = 1 "
        "ORDER BY seconds, seq LIMIT 1 OFFSET ?",
        (*key, rank),
    ).fetchone()
    return None if row is None else (row[0], row[1])


def neighbour(
    db: sqlite3.Connection, key: tuple[str, str], at: tuple[float, int], step: int
) -> tuple[float, int] | None:
    """The win just after (``step`` 1) or before (-1) ``at`` in time order: one index seek."""
    after = step > 0
    row = db.execute(
        "SELECT seconds, seq FROM games WHERE level = ? AND first_click = ? AND won = 1 AND "
        f"(seconds, seq) {'>' if after else '<'} (?, ?) "
        f"ORDER BY seconds {'ASC' if after else 'DESC'}, seq {'ASC' if after else 'DESC'} LIMIT 1",
        (*key, *at),
    ).fetchone()
    return None if row is None else (row[0], row[1])


def error_kind(error: sqlite3.Error) -> str:
    """``"busy"`` (other kernels hold the database), ``"corrupt"`` (not a database) or ``"other"``."""
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        if code == SHORT_READ:
            return "corrupt"
        kinds = {BUSY: "busy", LOCKED: "busy", PROTOCOL: "busy", CORRUPT: "corrupt", NOTADB: "corrupt"}
        return kinds.get(code & 0xFF, "other")
    if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
        return "busy"
    return "corrupt" if type(error) is sqlite3.DatabaseError else "other"


BUSY, LOCKED, CORRUPT, PROTOCOL, NOTADB = 5, 6, 11, 15, 26
SHORT_READ = 10 | 2 << 8
"""SQLite's result codes: SQLITE_IOERR_SHORT_READ is a file shorter than its pages (truncated);
SQLITE_PROTOCOL is a WAL lock not obtained after many tries (other kernels busy, on a loaded machine)."""


def lstat(path: Path) -> os.stat_result | None:
    """``os.lstat`` (never following a link), or None when nothing is there."""
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def describe(info: os.stat_result) -> str:
    """What kind of file ``info`` is, in words."""
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "plain file" if stat.S_ISREG(mode) else "special file"


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, opened without following a link; ValueError past ``limit`` bytes."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it is over {limit:,} bytes")
    return data


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    """Whether two ``lstat`` results are the same file."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def free_name(path: Path, kind: str, stamp: str) -> Path:
    """``<name>.<kind>-<stamp>`` next to ``path`` (numbered if taken): where it is moved aside."""
    for n in range(1000):
        target = path.with_name(f"{path.name}.{kind}-{stamp}{f'-{n}' if n else ''}")
        if not os.path.lexists(target):
            return target
    raise FileExistsError(f"no free name to move {path} aside")


def move_aside(path: Path, target: Path) -> None:
    """Rename ``path`` (the link itself, for a link) to ``target``, never replacing a file there."""
    try:
        os.link(path, target, follow_symlinks=False)  # fails if target exists: nothing is replaced
    except FileExistsError:
        raise
    except (OSError, NotImplementedError):  # no hard links on this file system: check, then rename
        if os.path.lexists(target):
            raise FileExistsError(f"{target} exists") from None
        os.rename(path, target)
        return
    os.unlink(path)


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive lock on ``folder`` between processes (``flock``), where the system has one."""
    try:
        import fcntl

        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except (ImportError, OSError):  # Windows, Pyodide: no lock (one kernel at a time there)
        yield
        return
    try:
        with suppress(OSError):  # a file system without locks: go on without
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
