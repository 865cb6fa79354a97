"""Opening the DuckDB file: default location, lock retries, migrations.

DuckDB allows one read-write process or many read-only processes on a file, never
both. Writers (imports) and readers (the dashboard, analytics) therefore both retry
the lock with backoff, and readers keep their connections short-lived.
"""

from __future__ import annotations

import os
import random
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
    text = str(exc)
    return "lock" in text.lower() and ("Conflicting" in text or "Could not set" in text)


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
