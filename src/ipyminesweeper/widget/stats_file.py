"""Where the statistics live between kernel restarts: an SQLite file in the user's Jupyter data directory.

The file is ``<jupyter data dir>/ipyminesweeper/stats.sqlite3`` (``jupyter --data-dir`` prints the folder;
``JUPYTER_DATA_DIR`` moves it), or any path ending in ``.sqlite3`` given to :class:`StatsFile`, the store
the widget uses unless it is given another (:class:`~.stats.MemoryStats` keeps the games in memory).

- **A table of results.** ``games`` has one row per finished game, appended (a game that ends again moves
  to the end). ``levels`` is what they add up to, a row per level and first-click rule, updated by the
  write that appends a game (:meth:`~.stats.Tally.add`, and the median read through an index): reading
  the statistics is one query of a few rows, whatever the number of games (``python -m benchmarks stats``).
- **Several kernels at once**: WAL mode and a busy timeout.
- **A game that cannot be written waits** (the file busy past the timeout, a full disk, a read-only
  folder): it is kept in memory and written by the next call that can. Meanwhile the statistics are read
  from the file opened read-only, or else are this session's games; their note says which, and why.
- **Never overwritten.** A corrupt or foreign file is moved aside as ``<name>.corrupt-<time>`` (or
  ``.foreign-``), byte for byte, and a new one is started; a newer version's file is left alone.
  ``PRAGMA user_version`` is the schema version; :data:`MIGRATIONS` update an older file in one transaction.
- **Never through a link.** The folder must be a real folder, and a symbolic link in place of the file or
  of its side files is moved aside (the link itself: what it points to is never opened).
- **Memory** where ``sqlite3`` is missing (some Pyodide builds).

What happened is said once, by :meth:`StatsFile.notice`; :attr:`StatsFile.problem` is what is wrong now.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any

try:
    import sqlite3

    HAVE_SQLITE = True
except ImportError:  # some Pyodide builds leave it out
    HAVE_SQLITE = False

from ..engine import ClickCounts, GameMetrics
from .stats import MAX_LOG, GameLog, GameResult, LevelStats, Stats, Tally

__all__ = [
    "APPLICATION_ID",
    "DATABASE_NAME",
    "HAVE_SQLITE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "StatsFile",
    "default_stats_path",
]

DATABASE_NAME = "stats.sqlite3"
APPLICATION_ID = 0x4D696E65  # "Mine": ``PRAGMA application_id`` of our files; any other is a foreign file
SIDE_FILES = ("-wal", "-shm", "-journal")
NO_SQLITE = (
    "statistics kept in memory for this session only: "
    "this Python has no sqlite3 module (some Pyodide builds leave it out)"
)
COLUMNS = (
    "level, first_click, played, won, best_seconds, median_seconds, streak, best_streak, "
    "best_bbbv_per_second, best_efficiency"
)
"""The columns of ``levels``, in the order of the fields of :class:`~.stats.LevelStats`."""
METRICS = (
    ("bbbv", "INTEGER"),
    ("solved_bbbv", "INTEGER"),
    ("zini", "INTEGER"),
    ("left_clicks", "INTEGER"),
    ("right_clicks", "INTEGER"),
    ("chord_clicks", "INTEGER"),
    ("left_effective", "INTEGER"),
    ("right_effective", "INTEGER"),
    ("chord_effective", "INTEGER"),
    ("metrics_seconds", "REAL"),
)
"""The columns of a game's figures in ``games`` (version 3; NULL where they are not known)."""
GAME_COLUMNS = "game, level, first_click, won, seconds, assisted, finished_at, " + ", ".join(
    name for name, _ in METRICS
)
"""The columns of ``games`` that make a :class:`~.stats.GameResult`."""
Key = tuple[str, str]
"""A level and a first-click rule."""


def create_version_1(db: sqlite3.Connection) -> None:
    """Version 1: the table of games, indexed by time (for the median) and in order of play. (It also had
    the tables ``levels`` and ``meta``, which version 2 replaces.)"""
    db.execute(
        """CREATE TABLE games (seq INTEGER PRIMARY KEY, game TEXT NOT NULL UNIQUE, level TEXT NOT NULL,
            first_click TEXT NOT NULL, won INTEGER NOT NULL CHECK (won IN (0, 1)), seconds REAL NOT NULL
            CHECK (seconds >= 0), assisted TEXT NOT NULL, finished_at INTEGER NOT NULL)"""
    )
    db.execute("CREATE INDEX games_by_time ON games (level, first_click, won, seconds)")
    db.execute("CREATE INDEX games_in_order ON games (level, first_click, seq)")


def version_2(db: sqlite3.Connection) -> None:
    """Version 2: a level's row keeps its median (version 1 kept its place in the index); no ``meta``.
    Its rows are counted by version 3, which comes next in the same transaction."""
    db.execute("DROP TABLE IF EXISTS levels")
    db.execute("DROP TABLE IF EXISTS meta")
    db.execute(
        """CREATE TABLE levels (level TEXT NOT NULL, first_click TEXT NOT NULL, played INTEGER NOT NULL,
            won INTEGER NOT NULL, best_seconds REAL, median_seconds REAL, streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL, PRIMARY KEY (level, first_click))"""
    )


def version_3(db: sqlite3.Connection) -> None:
    """Version 3 (issue 58): each game's figures (3BV, clicks by kind, effective or not, the time they
    count), NULL for the games before; each level's best 3BV/s and efficiency. The levels are counted
    again from their games."""
    for name, kind in METRICS:
        db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind} CHECK ({name} >= 0)")
    db.execute("ALTER TABLE levels ADD COLUMN best_bbbv_per_second REAL")
    db.execute("ALTER TABLE levels ADD COLUMN best_efficiency REAL")
    keys = db.execute("SELECT DISTINCT level, first_click FROM games").fetchall()
    write_levels(db, {(level, rule): recount(db, (level, rule)) for level, rule in keys})


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (create_version_1, version_2, version_3)
"""``MIGRATIONS[k]`` brings a file of schema version ``k`` to ``k + 1`` (version 0 is an empty file)."""
SCHEMA_VERSION = len(MIGRATIONS)


def default_stats_path() -> Path:
    """``<jupyter data dir>/ipyminesweeper/stats.sqlite3``."""
    try:
        from jupyter_core.paths import jupyter_data_dir

        base = Path(jupyter_data_dir())
    except Exception:  # no jupyter_core (a bare Pyodide): the documented default of jupyter_core
        base = Path(os.environ.get("JUPYTER_DATA_DIR") or Path.home() / ".local" / "share" / "jupyter")
    return base / "ipyminesweeper" / DATABASE_NAME


class Unusable(Exception):
    """The file cannot be written now; the message says why."""


class Corrupt(Exception):
    """The file is not a statistics file this version can read: it is moved aside."""

    kind = "corrupt"


class ForeignFile(Corrupt):
    kind = "foreign"


class Moved(Exception):
    """The file was moved aside (by another kernel) while this one had it open."""


class StatsFile:
    """The statistics file: :meth:`add` records a finished game, :meth:`load` reads the statistics.

    ``path`` ends in ``.sqlite3`` (default :func:`default_stats_path`); its folder holds every file of the
    store. ``timeout`` is how long a write waits for other kernels, in seconds.
    """

    def __init__(self, path: Path | str | None = None, *, timeout: float = 10.0) -> None:
        path = default_stats_path() if path is None else Path(path)
        if "\0" in str(path) or path.suffix != ".sqlite3":
            raise ValueError(f"a statistics file is a path that ends in .sqlite3, not {str(path)[:200]!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout <= 3600:
            raise ValueError(f"a statistics file's timeout is from 0 to 3600 seconds, not {timeout!r}")
        self.path = path.absolute()
        self.folder = self.path.parent
        self.timeout = float(timeout)
        self.problem = ""
        """What keeps the statistics from being all in the file now (the note shown); "" when nothing does."""
        self._notices: list[str] = []
        self._waiting: dict[str, GameResult] = {}  # games not written yet, oldest first, by game id
        self._db: sqlite3.Connection | None = None  # kept open between calls
        self._identity = (0, 0)  # (device, inode) of the file it opened
        self._lock = threading.Lock()

    def load(self) -> Stats:
        """The statistics, from the file (after writing any game still waiting)."""
        with self._lock:
            return self._sync()

    def add(self, result: GameResult) -> Stats:
        """Record ``result`` (replacing an earlier result of the same game); the statistics after it."""
        return self.add_many([result])

    def add_many(self, results: Iterable[GameResult]) -> Stats:
        """Record ``results`` in order, in one transaction; the statistics after them."""
        batch = list(results)
        for result in batch:
            if not isinstance(result, GameResult):
                raise TypeError(f"add records a GameResult, not {type(result).__name__}")
        with self._lock:
            for result in batch:
                self._waiting.pop(result.game, None)  # a game that ends again is the newest
                self._waiting[result.game] = result
            return self._sync()

    def close(self) -> None:
        """Close the connection (the next call opens it again)."""
        with self._lock:
            self._close()

    def notice(self) -> str:
        """What happened since the last call (a file moved aside, a game that waits...), each said once."""
        with self._lock:
            text, self._notices = " ".join(self._notices), []
            return text

    def __repr__(self) -> str:
        return f"StatsFile({str(self.path)!r})"

    # --- writing what waits, or saying why not ----------------------------------------------------------

    def _sync(self) -> Stats:
        """Write the games waiting, if any, and read the statistics; what can be read when that fails."""
        if not HAVE_SQLITE:
            return self._degraded(NO_SQLITE, None)
        try:
            stats = self._on_disk(self._write_and_read if self._waiting else read_stats)
        except Unusable as error:
            return self._degraded(str(error), self._read_only())
        self.problem = ""
        return stats

    def _degraded(self, why: str, disk: Stats | None) -> Stats:
        """The statistics while the file cannot be written: the file's, read-only, else this session's."""
        while len(self._waiting) > MAX_LOG:  # memory keeps the most recent games
            del self._waiting[next(iter(self._waiting))]
        if disk is None:
            note = why if why == NO_SQLITE else f"statistics kept in memory until they can be written: {why}"
            stats = GameLog(tuple(self._waiting.values())).stats(note)
        else:
            count = len(self._waiting)
            waiting = (
                f"; {count} game(s) will be written when it can be (tried with each game)" if count else ""
            )
            stats = Stats(disk.rows, f"statistics opened read-only: {why}{waiting}")
        if stats.note != self.problem:
            self._notices.append(stats.note)
        self.problem = stats.note
        return stats

    def _write_and_read(self, db: sqlite3.Connection) -> Stats:
        """Append the games waiting and update their levels, in one transaction; the statistics after."""
        with write_transaction(db):
            if not same(lstat(self.path), self._identity):  # under the write lock: still the file we opened
                raise Moved
            record_all(db, self._waiting.values())
        self._waiting.clear()
        return read_stats(db)

    def _read_only(self) -> Stats | None:
        """The statistics in the file, opened read-only and creating nothing; None if they cannot be read."""
        info = lstat(self.folder)
        if info is None or not stat.S_ISDIR(info.st_mode) or self._odd_files() or lstat(self.path) is None:
            return None
        for mode in ("mode=ro", "immutable=1"):  # immutable: a WAL file in a folder where no -shm can be made
            try:  # a short wait: the write has waited already
                with closing(sqlite3.connect(f"{self.path.as_uri()}?{mode}", uri=True, timeout=0.5)) as db:
                    return read_stats(db) if self._verdict(db) == "ready" else None
            except sqlite3.Error:
                continue
            except (Corrupt, Unusable):
                return None
        return None

    # --- the file ---------------------------------------------------------------------------------------

    def _on_disk(self, work: Callable[[sqlite3.Connection], Stats]) -> Stats:
        """Do ``work`` with the file (opened, checked, created or migrated as needed); Unusable when the
        file cannot be written now.

        While other kernels set a corrupt file aside and start a new one, the file changes a few times:
        this tries again until it settles, for up to ``timeout`` seconds.
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
                if kind == "busy" and time.monotonic() < deadline:
                    time.sleep(0.01)  # a lock SQLite does not wait for (a deadlock it avoids): try again
                    continue
                self._close()
                if kind == "busy":
                    why = f"{self.path} is busy (other kernels held it for over {self.timeout:g} s)"
                    raise Unusable(why) from None
                if kind != "corrupt":
                    raise Unusable(cannot_write(self.path, error)) from error
                self._set_aside_database(str(error), "corrupt")
            except Unusable:
                self._close()
                raise
        raise Unusable(f"{self.path} kept changing under this kernel")

    def _connection(self) -> sqlite3.Connection:
        """The connection already open while the file is the one it opened; else a new one, checked."""
        if self._db is not None and same(lstat(self.path), self._identity):
            return self._db
        self._close()
        db = self._open()
        try:
            self._prepare(db)
        except BaseException:
            db.close()
            raise
        self._db = db
        return db

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _open(self) -> sqlite3.Connection:
        """A connection to the file (made if missing), after checking that no path goes through a link."""
        try:
            self._check_folder()
            for path, info in self._odd_files():
                if not stat.S_ISLNK(info.st_mode):
                    raise Unusable(f"{path} is a {describe(info)}, not a statistics file: nothing is written")
                target = self._set_aside(path, "link", lambda now: stat.S_ISLNK(now.st_mode))
                if target is not None:
                    self._notices.append(
                        f"{path} was a symbolic link; it was moved aside to {target.name}, and nothing was "
                        "written through it"
                    )
            if lstat(self.path) is None:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                with suppress(FileExistsError):  # another kernel made it first
                    os.close(os.open(self.path, flags, 0o600))
            info = os.lstat(self.path)
        except OSError as error:
            raise Unusable(cannot_write(self.path, error)) from error
        if not stat.S_ISREG(info.st_mode):
            raise Unusable(f"{self.path} keeps being replaced by a {describe(info)}")
        self._identity = (info.st_dev, info.st_ino)
        return sqlite3.connect(
            str(self.path), timeout=self.timeout, isolation_level=None, check_same_thread=False
        )

    def _check_folder(self) -> None:
        """The folder exists (made if missing) and is a real folder, not a link to somewhere else."""
        info = lstat(self.folder)
        if info is None:
            self.folder.parent.mkdir(parents=True, exist_ok=True)
            with suppress(FileExistsError):
                self.folder.mkdir(mode=0o700)
            info = os.lstat(self.folder)
        if not stat.S_ISDIR(info.st_mode):
            raise Unusable(
                f"{self.folder} is a {describe(info)}, not a folder: nothing is written through it"
            )

    def _odd_files(self) -> list[tuple[Path, os.stat_result]]:
        """The file and its side files that are there but are not plain files."""
        paths = [self.folder / (self.path.name + suffix) for suffix in ("", *SIDE_FILES)]
        return [(path, info) for path in paths if (info := lstat(path)) and not stat.S_ISREG(info.st_mode)]

    def _prepare(self, db: sqlite3.Connection) -> None:
        """Check the file is ours and current, under the write lock (a kernel making the file meanwhile is
        seen before or after); create or migrate it as needed, in the same transaction.

        Nothing is written to a file before it is known to be ours (or empty): a foreign or newer one
        stays byte for byte as it was.
        """
        with write_transaction(db):
            state = self._verdict(db)
            if state != "ready":
                for migrate in MIGRATIONS[0 if state == "fresh" else self._header(db)[1] :]:
                    migrate(db)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("PRAGMA journal_mode = WAL")  # ours: safe to switch (a no-op once it is WAL)
        db.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash never corrupts; commits skip fsync

    def _verdict(self, db: sqlite3.Connection) -> str:
        """``"ready"``, ``"fresh"`` (an empty file) or ``"older"`` (to migrate); Corrupt for a foreign or
        damaged file, Unusable for a newer one."""
        application, version = self._header(db)
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if (application, version, tables) == (0, 0, set()):
            return "fresh"
        if application != APPLICATION_ID:
            raise ForeignFile("it is not an ipyminesweeper statistics database")
        if version > SCHEMA_VERSION:
            raise Unusable(
                f"{self.path} was written by a newer ipyminesweeper (schema version {version}; this one "
                f"reads up to {SCHEMA_VERSION}): it is left as it is"
            )
        if not tables >= ({"games", "levels"} if version == SCHEMA_VERSION else {"games"}):
            raise Corrupt(f"its tables are {sorted(tables)}, not those of version {version}")
        return "ready" if version == SCHEMA_VERSION else "older"

    @staticmethod
    def _header(db: sqlite3.Connection) -> tuple[int, int]:
        """``PRAGMA application_id`` and ``user_version``."""
        return db.execute("PRAGMA application_id").fetchone()[0], db.execute(
            "PRAGMA user_version"
        ).fetchone()[0]

    def _set_aside_database(self, why: str, kind: str) -> None:
        """Move the file and its side files aside, unless another kernel already did."""
        try:
            target = self._set_aside(self.path, kind, lambda now: same(now, self._identity), SIDE_FILES)
        except OSError as error:
            raise Unusable(f"{self.path} cannot be read ({why}) nor moved aside: {error}") from error
        if target is not None:
            self._notices.append(
                f"the statistics database {self.path} could not be used ({why}); it was moved aside to "
                f"{target.name} and a new one was started"
            )

    def _set_aside(
        self, path: Path, kind: str, still: Callable[[os.stat_result], bool], sides: tuple[str, ...] = ()
    ) -> Path | None:
        """Move ``path`` (and its ``sides`` first, so that a new file never meets the old one's journal)
        aside if it is still there and ``still`` holds of it (one kernel does it); where it went."""
        with folder_lock(self.folder):
            info = lstat(path)
            if info is None or not still(info):
                return None
            target = free_name(path, kind, time.strftime("%Y%m%dT%H%M%S"))
            for suffix in sides:
                if lstat(Path(f"{path}{suffix}")) is not None:
                    move_aside(Path(f"{path}{suffix}"), Path(f"{target}{suffix}"))
            move_aside(path, target)
            return target


# --- the tables -----------------------------------------------------------------------------------------


@contextmanager
def write_transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction that takes SQLite's write lock at its start (``BEGIN IMMEDIATE``): committed when
    the block ends, rolled back when it raises (the error goes on)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def record_all(db: sqlite3.Connection, results: Iterable[GameResult]) -> None:
    """Append ``results`` in order and update the rows of the levels they touch, in the transaction under
    way (each row is written once, at the end)."""
    totals: dict[Key, Tally] = {}
    for r in results:
        key = (r.level, r.first_click)
        old = db.execute("SELECT level, first_click FROM games WHERE game = ?", (r.game,)).fetchone()
        db.execute(  # a game that ends again: its old row goes, the new one is the newest
            f"INSERT OR REPLACE INTO games ({GAME_COLUMNS}) VALUES ({', '.join('?' * 17)})",
            (r.game, *key, int(r.won), float(r.seconds), r.assisted, r.finished_at, *metric_values(r)),
        )
        if old is None:
            totals[key] = (totals[key] if key in totals else read_tally(db, key)).add_result(r)
        else:  # count its level (and its old one) again: rare
            totals.update({level: recount(db, level) for level in {key, (old[0], old[1])}})
    write_levels(db, totals)


def metric_values(r: GameResult) -> tuple[int | float | None, ...]:
    """The figures of ``r`` in the order of :data:`METRICS` (NULLs where they are not known)."""
    m = r.metrics
    if m is None:
        return (None,) * len(METRICS)
    c = m.clicks
    counts = (c.left, c.right, c.chord, c.left_effective, c.right_effective, c.chord_effective)
    return (m.bbbv, m.solved_bbbv, m.zini, *counts, m.seconds)


def game_result(row: tuple[Any, ...]) -> GameResult:
    """A row of :data:`GAME_COLUMNS` as a GameResult, every field checked (by GameResult itself);
    Corrupt if it is malformed."""
    game, level, first_click, won, seconds, assisted, finished_at, *figures = row
    try:
        metrics = None
        if figures[0] is not None:
            bbbv, solved, zini, *clicks, timed = figures
            metrics = GameMetrics(bbbv, solved, zini, ClickCounts(*clicks), timed, won == 1)
        return GameResult(game, level, first_click, won == 1, seconds, assisted, finished_at, metrics)
    except (TypeError, ValueError) as error:
        raise Corrupt(f"a game is malformed: {error}") from None


def recount(db: sqlite3.Connection, key: Key) -> Tally:
    """A level's totals, counted from its games."""
    tally = Tally()
    query = f"SELECT {GAME_COLUMNS} FROM games WHERE level = ? AND first_click = ? ORDER BY seq"
    for row in db.execute(query, key):
        tally = tally.add_result(game_result(row))
    return tally


def write_levels(db: sqlite3.Connection, totals: dict[Key, Tally]) -> None:
    """Write each level's row: its totals, and its median read through the index (no row: no game)."""
    for key, t in totals.items():
        db.execute("DELETE FROM levels WHERE level = ? AND first_click = ?", key)
        if t.played:
            db.execute(
                f"INSERT INTO levels ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    *key,
                    t.played,
                    t.won,
                    t.best_seconds,
                    median(db, key, t.won),
                    t.streak,
                    t.best_streak,
                    t.best_bbbv_per_second,
                    t.best_efficiency,
                ),
            )


def median(db: sqlite3.Connection, key: Key, won: int) -> float | None:
    """The median time of a level's ``won`` wins: the middle one or two, one walk along the index."""
    if not won:
        return None
    query = "SELECT seconds FROM games WHERE level = ? AND first_click = ? AND won = 1 ORDER BY seconds"
    middle = [s for (s,) in db.execute(f"{query} LIMIT ? OFFSET ?", (*key, 2 - won % 2, (won - 1) // 2))]
    if len(middle) != 2 - won % 2 or not all(isinstance(s, float) for s in middle):
        raise Corrupt(f"the median of {key[0]!r} is not among its games")
    return float(sum(middle)) / len(middle)


def read_tally(db: sqlite3.Connection, key: Key) -> Tally:
    """A level's totals, from its row."""
    row = db.execute(f"SELECT {COLUMNS} FROM levels WHERE level = ? AND first_click = ?", key).fetchone()
    return Tally() if row is None else level_stats(row).tally


def read_stats(db: sqlite3.Connection) -> Stats:
    """Every level's statistics, in order of first play, and the newest game (one read transaction: one
    snapshot)."""
    first = "SELECT min(seq) FROM games g WHERE g.level = levels.level AND g.first_click = levels.first_click"
    db.execute("BEGIN")
    try:
        rows = db.execute(f"SELECT {COLUMNS} FROM levels ORDER BY ({first})").fetchall()
        last = db.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        db.execute("COMMIT")
    return Stats(tuple(level_stats(row) for row in rows), last=None if last is None else game_result(last))


def level_stats(row: tuple[object, ...]) -> LevelStats:
    """A row of :data:`COLUMNS` as a LevelStats; Corrupt if it is malformed."""
    names, counts, times = row[:2], row[2:4] + row[6:8], row[4:6] + row[8:]
    if not (
        all(isinstance(name, str) for name in names)
        and all(isinstance(n, int) and n >= 0 for n in counts)
        and all(t is None or (isinstance(t, float) and 0 <= t < 1e9) for t in times)
        and (row[3] == 0) == (row[5] is None)  # a median if and only if a win
    ):
        raise Corrupt(f"the totals of a level are malformed: {str(row)[:120]}")
    return LevelStats(*row)  # type: ignore[arg-type]  # each field checked above


# --- files ----------------------------------------------------------------------------------------------

BUSY, LOCKED, CORRUPT, PROTOCOL, NOTADB = 5, 6, 11, 15, 26
SHORT_READ = 10 | 2 << 8
"""SQLite's result codes: SQLITE_IOERR_SHORT_READ is a file shorter than its pages (truncated);
SQLITE_PROTOCOL is a WAL lock not obtained after many tries (other kernels busy, on a loaded machine)."""
READ_ONLY = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def error_kind(error: sqlite3.Error) -> str:
    """``"busy"`` (other kernels hold the file), ``"corrupt"`` (not a database) or ``"other"``."""
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        kinds = {BUSY: "busy", LOCKED: "busy", PROTOCOL: "busy", CORRUPT: "corrupt", NOTADB: "corrupt"}
        return "corrupt" if code == SHORT_READ else kinds.get(code & 0xFF, "other")
    if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
        return "busy"
    return "corrupt" if type(error) is sqlite3.DatabaseError else "other"


def cannot_write(path: Path, error: Exception) -> str:
    """Why ``path`` cannot be written, in words: a read-only folder is said as such."""
    if getattr(error, "errno", None) in READ_ONLY or "readonly" in str(error):
        return f"the folder {path.parent} is read-only ({error})"
    return f"cannot write {path}: {error}"


def lstat(path: Path) -> os.stat_result | None:
    """``os.lstat`` (never following a link), or None when nothing is there."""
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None


def same(info: os.stat_result | None, identity: tuple[int, int]) -> bool:
    """Whether ``info`` is the file of ``identity``, ``(device, inode)``."""
    return info is not None and (info.st_dev, info.st_ino) == identity


def describe(info: os.stat_result) -> str:
    """What kind of file ``info`` is, in words."""
    kinds = {stat.S_IFLNK: "symbolic link", stat.S_IFDIR: "folder", stat.S_IFREG: "plain file"}
    return kinds.get(stat.S_IFMT(info.st_mode), "special file")


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
