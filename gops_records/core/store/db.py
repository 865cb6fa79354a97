"""Opening the DuckDB file: default location, lock retries, migrations.

DuckDB allows one read-write process or many read-only processes on a file, never
both. Writers (imports) and readers (the dashboard, analytics) therefore both retry
the lock with backoff, and readers keep their connections short-lived, or, like the
dashboard's :class:`SharedReader`, let them go as soon as a waiting writer asks.
"""

from __future__ import annotations

import contextlib
import os
import random
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from gops_records.core.errors import GopsError
from gops_records.core.sources import _kind as file_kind
from gops_records.core.store import aliases, lake
from gops_records.core.store.migrations import Version, fill_step
from gops_records.core.store.schema import MARK_APPLICATION, MARK_TABLE, MARK_VERSION, versions

if TYPE_CHECKING:  # polars loads only where a query's frame is wanted
    import polars as pl

#: The database's file name in the user's data folder (:func:`default_db_path`).
DEFAULT_DB_NAME = "gops.duckdb"
#: The folder name gops keeps its files under in the user's data folder.
APP_NAME = "gops-records"
ENV_VAR = "GOPS_DB"


def latest_version() -> int:
    """The schema version this program writes and reads: the last of every owner's steps
    (the installed games' and features', checked when first asked for)."""
    return versions()[-1].version


class DatabaseLocked(GopsError):
    """Another process holds the database file's lock for longer than we waited."""

    code = "locked"


class DatabaseUnusable(GopsError):
    """A database path that is not a gops database (not a regular file, not a DuckDB file,
    another application's DuckDB file), or a folder that cannot be created."""

    code = "unusable"


class DatabaseWriteFailed(GopsError):
    """Writing the database failed (a full disk, a file size limit): nothing was stored."""

    code = "write-failed"


#: What the operating system says when a write cannot be done for lack of room, and
#: what the user can do about it.
_NO_ROOM = {
    "No space left on device": "Free some space on the disk that holds {folder}",
    "Disk quota exceeded": "Free some of your disk quota on {folder} (or ask for more)",
    "File too large": "Raise the file size limit (ulimit -f) or put the database on a file "
                      "system that takes bigger files (--db)",
}


def write_failure(exc: BaseException, db: str | Path | None) -> DatabaseWriteFailed | None:
    """A plain error for a DuckDB error that says the disk could not take the write, else
    None. The transaction is rolled back by then: the file holds what it held before."""
    text = str(exc)
    reason = next((r for r in _NO_ROOM if r in text), None)
    if not isinstance(exc, duckdb.Error) or reason is None:
        return None
    path = resolve_db(db)
    advice = _NO_ROOM[reason].format(folder=path.parent.resolve())
    return DatabaseWriteFailed(
        f"could not write {path}: {reason.lower()}. Nothing from this import was stored; "
        f"the database holds what it held before. {advice} (the import needs room for "
        "about the size of its record files) and run the import again")


class DatabaseMissing(GopsError):
    """A read-only open of a database file that does not exist yet."""

    code = "missing"


def user_data_folder() -> Path:
    """gops's folder in the user's data directory, wherever the command runs (on Linux
    ``$XDG_DATA_HOME/gops-records``, by default ``~/.local/share/gops-records``; the
    platform's own place elsewhere, as platformdirs knows it). Not created here."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def default_db_path() -> Path:
    """``$GOPS_DB`` if set, else ``gops.duckdb`` in :func:`user_data_folder`: one file
    whatever folder a command runs from (an import and the dashboard started anywhere
    see the same games)."""
    return Path(os.environ.get(ENV_VAR) or user_data_folder() / DEFAULT_DB_NAME)


def resolve_db(path: str | Path | None) -> Path:
    """The database a command uses: ``path`` (``--db``) if given, else the default."""
    return Path(path) if path else default_db_path()


def shown_path(path: str | Path | None) -> Path:
    """The database as commands that write it name it: an absolute path, so that the
    user knows which file was written whatever folder they ran in."""
    return Path(os.path.abspath(resolve_db(path)))


def _is_lock_error(exc: Exception) -> bool:
    """Whether opening failed because the file is held: by another process (a file lock),
    or in this process by connections opened the other way (read-only vs read-write),
    such as a dashboard's shared reader not yet let go."""
    text = str(exc)
    return ("lock" in text.lower() and ("Conflicting" in text or "Could not set" in text)) \
        or "different configuration than existing connections" in text


def connect(path: str | Path | None = None, *, read_only: bool = False,
            timeout: float = 10.0, writer: str = "import", upgrade: bool = True,
            merged: bool = True) -> duckdb.DuckDBPyConnection:
    """Open the database, retrying a held lock with jittered backoff for up to ``timeout`` s.

    A read-write open creates the file (and its folder) and applies pending migrations. A
    read-only open never changes the file: one an older gops wrote is read through an
    upgraded copy in memory (up to :data:`MEMORY_UPGRADE_BYTES`; a bigger one must be
    upgraded once by a write command: DatabaseOutdated says which). Either way only a
    gops database, an empty DuckDB file or a new name is opened (:func:`_gops_version`).
    ``writer`` names what a read-write open is for (a key of :data:`_WRITES`), for the
    advice when the file may not be written. ``upgrade=False``: a read-write open that
    must not migrate (a report kept on the side) refuses an older file with
    DatabaseOutdated, unchanged. A read-only open shows names through the stored aliases
    (``gops alias``: :mod:`gops_records.core.store.aliases`) unless ``merged=False``
    (an export, a backup, keeps the stored spellings).
    """
    db = resolve_db(path)
    if lake.is_lake(db):  # a Parquet lake: read through views, never written here
        if not read_only:
            raise DatabaseUnusable(f"{db} is a Parquet lake: add files to it with "
                                   "gops lake build SRC --lake DIR")
        try:
            con = lake.connect(db)
        except (lake.LakeError, duckdb.Error) as exc:  # e.g. a commit or data file damaged
            raise DatabaseUnusable(f"cannot read the lake at {db}: {exc}") from exc
        if merged:
            aliases.install(con)
        return con
    if read_only and not db.exists():
        raise DatabaseMissing(f"no database at {db}: import some games first "
                              "(gops import PATH, or gops demo)")
    if not read_only:
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(f"cannot create the folder for {db}: {exc}") from exc
    latest = latest_version()  # SchemaBroken before the file is opened
    con = _open(db, read_only, timeout, writer=writer)
    try:
        version = _gops_version(con, db)
    except BaseException:
        con.close()
        raise
    if version > latest:
        con.close()
        raise DatabaseUnusable(f"{db} holds schema version {version}, written by a newer gops; "
                               f"this one reads up to version {latest}: upgrade gops")
    if read_only and version < latest:
        con.close()
        con = _upgraded_copy(db, version, timeout)
        if merged:
            aliases.install(con)
        return con
    if not read_only and not upgrade and version < latest:
        con.close()
        raise DatabaseOutdated(f"{db} holds schema version {version}, from an older gops; "
                               f"this open may not upgrade it to {latest}")
    if not read_only:
        try:
            migrate(con)
        except duckdb.Error as exc:
            con.close()
            raise DatabaseUnusable(f"cannot upgrade {db} to schema version {latest}: "
                                   f"{exc}") from exc
    elif merged:
        aliases.install(con)
    return con


def upgrade(path: str | Path | None = None, timeout: float = 10.0) -> tuple[int, int]:
    """Migrate the file in place; returns its schema version before and after. A file up
    to date is only read (it may then be on a read-only file system)."""
    db = resolve_db(path)
    latest = latest_version()
    if not db.exists():
        raise DatabaseMissing(f"no database at {db}: nothing to upgrade")
    con = _open(db, True, timeout)
    try:
        before = _gops_version(con, db)
    finally:
        con.close()
    if before == latest:
        return before, before
    connect(db, timeout=timeout, writer="upgrade").close()  # applies what is pending
    return before, latest


def _gops_version(con: duckdb.DuckDBPyConnection, db: Path) -> int:
    """The schema version of what ``con`` opened, once it is known to be a gops database:
    one with gops's mark (:data:`MARK_TABLE`), one an older gops made before the mark (its
    ``schema_migrations`` of integer versions older than the mark, and the shared tables
    every gops database has had since version 1: ``imports``, ``rejects``), or an
    empty DuckDB file (no table: version 0, adopted). Any other DuckDB file belongs to
    another application: DatabaseUnusable, before anything reads or writes its tables."""
    tables = con.execute("SELECT table_schema, table_name FROM information_schema.tables "
                         "WHERE table_catalog = current_database() ORDER BY ALL").fetchall()
    if not tables:
        return 0
    main = {name for schema, name in tables if schema == "main"}
    if MARK_TABLE in main and _has_mark(con):
        return schema_version(con)
    if {"schema_migrations", "imports", "rejects"} <= main and _integer_versions(con) \
            and schema_version(con) < MARK_VERSION:
        return schema_version(con)
    names = [name if schema == "main" else f"{schema}.{name}" for schema, name in tables]
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    raise DatabaseUnusable(
        f"{db} is not a gops database: it is a DuckDB file of another application (its "
        f"tables: {shown}), without the table {MARK_TABLE} that marks a gops database. "
        "gops leaves it as it is: pass --db a gops database, or a new name to make one")


def _has_mark(con: duckdb.DuckDBPyConnection) -> bool:
    try:
        return bool(scalar(con, f"SELECT count(*) FROM main.{MARK_TABLE} "
                                "WHERE application = ?", [MARK_APPLICATION]))
    except duckdb.Error:  # a table of that name, but not gops's
        return False


def _integer_versions(con: duckdb.DuckDBPyConnection) -> bool:
    return scalar(con, "SELECT data_type FROM information_schema.columns "
                       "WHERE table_catalog = current_database() AND table_schema = 'main' "
                       "AND table_name = 'schema_migrations' AND column_name = 'version'"
                  ) == "INTEGER"


class DatabaseOutdated(GopsError):
    """A read-only open of a file an older gops wrote, too big to upgrade in memory."""

    code = "outdated"


#: A read-only open of an older database reads an upgraded copy of it in memory up to
#: this file size (the copy takes about as much memory as the file takes on disk).
MEMORY_UPGRADE_BYTES = 512 << 20


def _upgraded_copy(db: Path, version: int, timeout: float) -> duckdb.DuckDBPyConnection:
    """An in-memory copy of an older database, migrated; the file is only read."""
    size = db.stat().st_size
    if size > MEMORY_UPGRADE_BYTES:
        raise DatabaseOutdated(
            f"{db} holds schema version {version}, from an older gops; this one reads version "
            f"{latest_version()}. Upgrade the file once with: gops upgrade --db {db} (any gops "
            "import upgrades it too); read-only commands never change it")
    con = _open(db, True, timeout, opener=lambda: _memory_copy(db))
    try:
        migrate(con, fill=False)
    except duckdb.Error as exc:
        con.close()
        raise DatabaseUnusable(f"cannot read {db} (schema version {version}) as version "
                               f"{latest_version()}: {exc}") from exc
    return con


def _memory_copy(db: Path) -> duckdb.DuckDBPyConnection:
    """A connection to a new in-memory database holding everything in ``db``."""
    con = duckdb.connect(":memory:", config=SAFE_CONFIG)
    try:
        quoted = str(db).replace("'", "''")
        con.execute(f"ATTACH '{quoted}' AS stored (READ_ONLY)")
        con.execute("COPY FROM DATABASE stored TO memory")
        con.execute("DETACH stored")
    except BaseException:
        con.close()
        raise
    return con


#: Every connection the project opens: DuckDB must never fetch or load an extension on
#: its own (it would try to download ``sqlite_scanner`` for an SQLite file given as --db).
SAFE_CONFIG = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}


def _check_kind(db: Path) -> None:
    """Refuse what is not a DuckDB file, before DuckDB opens it: anything but a regular file
    (a symlink to one is fine; a named pipe would make the open wait for a writer forever;
    a folder, a device or a socket holds no database), and a file of another format
    (SQLite, Parquet, text, ...). A name that does not exist yet is fine."""
    try:
        mode = os.stat(db).st_mode
    except OSError:
        return  # missing (it will be created) or unreachable (connect says why)
    if not stat.S_ISREG(mode):
        raise DatabaseUnusable(f"{db} is {file_kind(mode)}, not a database file: --db names a "
                               "DuckDB file gops made, or a new name to make one")
    try:
        with open(db, "rb") as handle:
            head = handle.read(16)
    except OSError:
        return  # missing (it will be created) or unreadable (connect says why)
    if head and head[8:12] != b"DUCK":
        raise DatabaseUnusable(f"{db} is not a gops database (not a DuckDB file); name a new "
                               "file, or one that gops import made")


def _open(db: Path, read_only: bool, timeout: float,
          opener: Callable[[], duckdb.DuckDBPyConnection] | None = None,
          writer: str = "import") -> duckdb.DuckDBPyConnection:
    """``duckdb.connect`` (or ``opener``) with lock retries; a writer renews a write
    request meanwhile."""
    _check_kind(db)
    if opener is None:
        def opener() -> duckdb.DuckDBPyConnection:
            return duckdb.connect(str(db), read_only=read_only, config=SAFE_CONFIG)
    deadline = time.monotonic() + timeout
    delay = 0.02
    request = None if read_only else write_request_path(db)
    try:
        while True:
            try:
                return opener()
            except (duckdb.IOException, duckdb.ConnectionException) as exc:
                if not _is_lock_error(exc):
                    raise DatabaseUnusable(f"cannot use the database {db}: {exc}"
                                           + _advice(str(exc), read_only, writer)) from exc
                if time.monotonic() >= deadline:
                    who = "an import (a writer)" if read_only else "another process"
                    raise DatabaseLocked(
                        f"{db} is locked by {who}; waited {timeout:.0f} s. Close the other "
                        "program (or wait for its import to finish) and try again") from exc
                if request is not None:
                    _touch(request)  # readers that see it let the file go
                time.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 0.5)
    finally:
        if request is not None:
            with contextlib.suppress(OSError):  # e.g. a read-only folder: the real error wins
                request.unlink(missing_ok=True)


#: What each command that opens the file read-write does with it, and what to do when
#: it may not (a read-only file system, no permission).
_WRITES = {
    "import": "Importing writes the database file and its folder: give --db a file in a "
              "folder you can write (read-only commands such as gops export can still read "
              "this one)",
    "upgrade": "gops upgrade rewrites the file in place (with a .wal file beside it while it "
               "works), so it needs the file and its folder writable: make them writable, "
               "or copy the file to a folder you can write and upgrade the copy "
               "(gops upgrade --db COPY). Nothing was changed; read-only commands such as "
               "gops export and the dashboard can still read this one, through an upgraded "
               "copy in memory",
    "recheck": "gops rejects --recheck marks rejects resolved in the database, so it needs "
               "the file and its folder writable: make them writable, or recheck a copy "
               "(gops rejects --recheck --db COPY). Nothing was changed; gops rejects without "
               "--recheck can still list and show this one",
    "alias": "gops alias stores its rule in the database, so it needs the file and its "
             "folder writable: make them writable. Nothing was changed; every read-only "
             "command can still read this one",
}


def _advice(error: str, read_only: bool, writer: str = "import") -> str:
    """What to do about a read-write open that failed for want of permission."""
    if read_only or not ("Read-only file system" in error or "Permission denied" in error):
        return ""
    return ". " + _WRITES[writer]


#: How long a write request stays in force after the writer last renewed it (a writer
#: killed while waiting leaves its file behind; it is then ignored).
REQUEST_FRESH_SECONDS = 2.0


def write_request_path(db: str | Path) -> Path:
    """The file a writer waiting for ``db`` renews while it waits (``<db>.write-request``)."""
    db = Path(db)
    return db.with_name(db.name + ".write-request")


def write_requested(db: str | Path) -> bool:
    """Whether a writer is waiting for ``db`` (its request file was renewed just now)."""
    try:
        age = time.time() - os.stat(write_request_path(db)).st_mtime
    except OSError:
        return False
    return age <= REQUEST_FRESH_SECONDS


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only folder: readers let go when idle only
        path.touch()


@contextmanager
def reading(path: str | Path | None = None, timeout: float = 10.0, *, merged: bool = True
            ) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection, closed on exit (for reports and notebooks);
    names merged by the aliases unless ``merged=False`` (:func:`connect`)."""
    con = connect(path, read_only=True, timeout=timeout, merged=merged)
    try:
        yield con
    finally:
        con.close()


class SharedReader:
    """One read-only connection shared by a dashboard's reads, let go when a writer asks.

    Opening the file for each read costs about as much as a dashboard query (the catalog
    and the blocks are read again), so reads share one connection (each on a cursor of
    its own, so threads may read at once) and it stays open between interactions. It is
    closed, as soon as no read is running, when an import waits for the file (the
    importer renews a request file next to the database while it waits:
    :func:`write_requested`), or when nobody has read for ``idle`` seconds. Reads made
    while an import holds the file wait for it (lock retries with backoff, up to
    ``timeout`` seconds), so a page shows the new games afterwards. ``opens`` counts the
    connections opened.
    """

    def __init__(self, path: str | Path | None = None, *, idle: float = 20.0,
                 poll: float = 0.1, timeout: float = 10.0) -> None:
        self.path = resolve_db(path)
        self.idle, self.poll, self.timeout = idle, poll, timeout
        self.opens = 0
        self._con: duckdb.DuckDBPyConnection | None = None
        self._views: tuple[str, ...] = ()
        self._last_used = 0.0
        self._users = 0
        self._free = threading.Condition()
        self._watch: threading.Thread | None = None

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor on the shared connection (opened, with lock retries, when needed)."""
        with self._free:
            if write_requested(self.path):
                # an import waits: no new reads on this connection; once the running ones
                # end it is closed, and the file is left alone until the import has it
                while self._users:
                    self._free.wait()
                self._close_now()
                deadline = time.monotonic() + self.timeout
                while write_requested(self.path) and time.monotonic() < deadline:
                    time.sleep(self.poll)
            if self._con is None:
                self._con = connect(self.path, read_only=True, timeout=self.timeout)
                self._views = aliases.merged_views(self._con)  # a cursor needs its own
                self.opens += 1
                self._watch = threading.Thread(target=self._watch_file, args=(self._con,),
                                               daemon=True)
                self._watch.start()
            cursor = self._con.cursor()
            aliases.install(cursor, self._views)
            self._users += 1
        try:
            yield cursor
        finally:
            cursor.close()
            with self._free:
                self._users -= 1
                self._last_used = time.monotonic()
                if not self._users and write_requested(self.path):
                    self._close_now()
                self._free.notify_all()

    @property
    def is_open(self) -> bool:
        return self._con is not None

    def close(self) -> None:
        """Close the connection now (reads still running finish first)."""
        with self._free:
            while self._users:
                self._free.wait()
            self._close_now()

    def _watch_file(self, con: duckdb.DuckDBPyConnection) -> None:
        """While ``con`` is the open connection: close it when idle or asked to."""
        while True:
            time.sleep(self.poll)
            with self._free:
                if self._con is not con:
                    return
                if self._users:
                    continue
                if (time.monotonic() - self._last_used >= self.idle
                        or write_requested(self.path)):
                    self._close_now()
                    return

    def _close_now(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None):
    """The single value a query returns (fetched completely, as DuckDB 2 requires)."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0][0] if rows else None


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> pl.DataFrame:
    """A query's whole result as a polars frame (typed columns even when it is empty)."""
    return con.sql(sql, params=params or []).pl()


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    exists = scalar(con, "SELECT count(*) FROM information_schema.tables "
                         "WHERE table_name = 'schema_migrations'")
    if not exists:
        return 0
    return scalar(con, "SELECT coalesce(max(version), 0) FROM schema_migrations")


def migrate(con: duckdb.DuckDBPyConnection, fill: bool = True) -> int:
    """Apply every version newer than the database's, each owner's part in turn (the order of
    :mod:`gops_records.core.store.migrations`), in one transaction; returns the new version.

    ``fill=False`` leaves the tables a part fills from the rows stored (the derived ones
    its feature registers) empty: an in-memory copy read once is not worth the work, and
    what reads them falls back to computing from the rows."""
    current = schema_version(con)
    pending = [v for v in versions() if v.version > current]
    if not pending:
        return current
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                    " name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for version in pending:
            _apply(con, version, fill)
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return pending[-1].version


def _apply(con: duckdb.DuckDBPyConnection, version: Version, fill: bool) -> None:
    """Run one version's parts, then record it in ``schema_migrations`` under its name."""
    for _owner, part in version.parts:
        con.execute(part.sql)
        step = fill_step(part) if fill else None
        if step is not None:
            step(con)
    con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)",
                [version.version, version.name])
