"""Opening the DuckDB file: default location, lock retries, migrations.

DuckDB allows one read-write process or many read-only processes on a file, never
both. Writers (imports) and readers (the dashboard, analytics) therefore both retry
the lock with backoff, and readers keep their connections short-lived.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from gops_records.errors import GopsError
from gops_records.store.schema import MIGRATIONS

DEFAULT_DB = Path("data") / "gops.duckdb"
ENV_VAR = "GOPS_DB"


class DatabaseLocked(GopsError):
    """Another process holds the database file's lock for longer than we waited."""

    code = "locked"


class DatabaseUnusable(GopsError):
    """A database path that is not a DuckDB file, or a folder that cannot be created."""

    code = "unusable"


class DatabaseMissing(GopsError):
    """A read-only open of a database file that does not exist yet."""

    code = "missing"


def default_db_path() -> Path:
    """``$GOPS_DB`` if set, else ``data/gops.duckdb`` under the current folder."""
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DB)


def resolve_db(path: str | Path | None) -> Path:
    return Path(path) if path else default_db_path()


def _is_lock_error(exc: Exception) -> bool:
    """Whether opening failed because the file is held: by another process (a file lock),
    or in this process by connections opened the other way (read-only vs read-write),
    such as a dashboard's shared reader not yet let go."""
    text = str(exc)
    return ("lock" in text.lower() and ("Conflicting" in text or "Could not set" in text)) \
        or "different configuration than existing connections" in text


def connect(path: str | Path | None = None, *, read_only: bool = False,
            timeout: float = 10.0) -> duckdb.DuckDBPyConnection:
    """Open the database, retrying a held lock with jittered backoff for up to ``timeout`` s.

    A read-write open creates the file (and its folder) and applies pending migrations.
    """
    db = resolve_db(path)
    if read_only and not db.exists():
        raise DatabaseMissing(f"no database at {db}: import some games first "
                              "(gops import PATH, or gops demo)")
    if not read_only:
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(f"cannot create the folder for {db}: {exc}") from exc
    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        try:
            con = duckdb.connect(str(db), read_only=read_only)
            break
        except (duckdb.IOException, duckdb.ConnectionException) as exc:
            if not _is_lock_error(exc):
                raise DatabaseUnusable(f"cannot use the database {db}: {exc}") from exc
            if time.monotonic() >= deadline:
                who = "an import (a writer)" if read_only else "another process"
                raise DatabaseLocked(
                    f"{db} is locked by {who}; waited {timeout:.0f} s. Close the other "
                    "program (or wait for its import to finish) and try again") from exc
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.5)
    if not read_only:
        migrate(con)
    return con


@contextmanager
def reading(path: str | Path | None = None, timeout: float = 10.0
            ) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short-lived read-only connection, closed on exit (for dashboards and reports)."""
    con = connect(path, read_only=True, timeout=timeout)
    try:
        yield con
    finally:
        con.close()


class SharedReader:
    """One read-only connection shared by a burst of reads, then let go.

    A dashboard page asks for a dozen small results in a row; opening the file for each
    costs about as much as the query (the catalog and the blocks are read again). Reads
    made while the connection is open share it (each on a cursor of its own, so threads
    may read at once); it is closed once nobody has used it for ``idle`` seconds, so the
    file is free for an import between two interactions, as with one connection per read.
    A connection older than ``max_age`` is not handed out again: the next read waits for
    the current ones to end, leaves the file free for ``gap`` seconds (a waiting import
    takes it then) and opens a new one. ``opens`` counts the connections opened.
    """

    def __init__(self, path: str | Path | None = None, *, idle: float = 0.25,
                 max_age: float = 5.0, gap: float = 0.5, timeout: float = 10.0) -> None:
        self.path = resolve_db(path)
        self.idle, self.max_age, self.gap, self.timeout = idle, max_age, gap, timeout
        self.opens = 0
        self._con: duckdb.DuckDBPyConnection | None = None
        self._opened = self._last_used = 0.0
        self._users = 0
        self._free = threading.Condition()
        self._timer: threading.Timer | None = None

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor on the shared connection (opened, with lock retries, when needed)."""
        with self._free:
            if self._con is not None and time.monotonic() - self._opened > self.max_age:
                while self._users:
                    self._free.wait()
                if self._con is not None:
                    self._close_now()
                    time.sleep(self.gap)
            if self._con is None:
                self._con = connect(self.path, read_only=True, timeout=self.timeout)
                self._opened = time.monotonic()
                self.opens += 1
            self._users += 1
            cursor = self._con.cursor()
        try:
            yield cursor
        finally:
            cursor.close()
            with self._free:
                self._users -= 1
                self._last_used = time.monotonic()
                self._free.notify_all()
                self._close_later()

    @property
    def is_open(self) -> bool:
        return self._con is not None

    def close(self) -> None:
        """Close the connection now (readers still using it finish first)."""
        with self._free:
            while self._users:
                self._free.wait()
            self._close_now()

    def _close_later(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.idle, self._close_if_idle)
        self._timer.daemon = True
        self._timer.start()

    def _close_if_idle(self) -> None:
        with self._free:
            if not self._users and time.monotonic() - self._last_used >= self.idle * 0.9:
                self._close_now()

    def _close_now(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None):
    """The single value a query returns (fetched completely, as DuckDB 2 requires)."""
    rows = con.execute(sql, params or []).fetchall()
    return rows[0][0] if rows else None


def schema_version(con: duckdb.DuckDBPyConnection) -> int:
    exists = scalar(con, "SELECT count(*) FROM information_schema.tables "
                         "WHERE table_name = 'schema_migrations'")
    if not exists:
        return 0
    return scalar(con, "SELECT coalesce(max(version), 0) FROM schema_migrations")


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Apply every migration newer than the database's version; returns the new version."""
    current = schema_version(con)
    pending = [m for m in MIGRATIONS if m.version > current]
    if not pending:
        return current
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                    " name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for m in pending:
            con.execute(m.sql)
            con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)",
                        [m.version, m.name])
        con.execute("COMMIT")
    except Exception:
        con.execute("ROLLBACK")
        raise
    return pending[-1].version
