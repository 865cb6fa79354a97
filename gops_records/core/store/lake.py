"""A Parquet lake as the store: its layout, its commits, and a DuckDB connection over it.

A lake is a folder of Parquet files written by ``gops lake build``
(:mod:`gops_records.core.lake`), partitioned Hive-style by table, game kind and the
year/month of the game's date (docs/lake.md)::

    LAKE/_lake                        the marker: this folder is a lake
    LAKE/_commits/00000001.json       one file per commit: the data files it added
    LAKE/_staging/<build>/...         a build's files before its commit (never read)
    LAKE/<table>/game=<name>/year=<YYYY>/month=<MM>/part-<uuid>.parquet

Only the files a commit lists are part of the lake: a commit is written whole to a
temporary name and linked to its number (a link fails if the number is taken), so a build
killed at any moment leaves the lake as it was, or with whole files no commit names.

:func:`connect` gives the read-only connection the read commands and the dashboard use:
an in-memory DuckDB with every table and view of the store's schema (the same
migrations), each stored table replaced by a view over its committed Parquet files. No
row is copied into a database file: only a row per commit (``imports``) and per file read
(``source_file_reads``), from the commits. The lists of each file's game ids
(``source_file_games``) are not kept: a lake skips a file by its SHA-256 alone. Imports
nothing of :mod:`~gops_records.core.store.db` (which opens a lake through this module).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from gops_records.core.errors import GopsError
from gops_records.core.store.schema import versions

MARKER = "_lake"
COMMITS = "_commits"
STAGING = "_staging"
FORMAT = "gops-records lake 1"
#: What the lake holds no file of: bookkeeping of one database, and the tables derived
#: from stored rows (a reader computes from the rows when they are empty).
KEYS = ("hand_id", "game_id", "reject_id")
NOT_STORED = ("schema_migrations", "imports", "source_file_reads", "reject_resolutions")
#: What each file read held (its valid records' and rejects' keys): stored as files of
#: the commit that read it, never deduplicated (the same game in two files is in both).
FILE_TABLES = ("source_file_games", "source_file_rejects")


class LakeError(GopsError):
    """A lake that cannot be read or written (named, with what to do)."""


@dataclass(frozen=True, slots=True)
class DataFile:
    """One Parquet file of a commit: its table, its path inside the lake, its rows."""

    table: str
    path: str
    rows: int

    def as_dict(self) -> dict:
        return {"table": self.table, "path": self.path, "rows": self.rows}


@dataclass(frozen=True, slots=True)
class SourceRead:
    """A record file a commit read: its name, the SHA-256 of its bytes, its reader (the
    notation and encoding: the same bytes read otherwise may give other rows)."""

    name: str
    sha256: str
    reader: str
    bytes: int
    games_valid: int = 0
    games_rejected: int = 0
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"name": self.name, "sha256": self.sha256, "reader": self.reader,
                "bytes": self.bytes, "games_valid": self.games_valid,
                "games_rejected": self.games_rejected, "notes": list(self.notes)}


@dataclass(frozen=True, slots=True)
class Commit:
    """One commit: its number, when, what it added, and what the build counted."""

    number: int
    started_at: str
    finished_at: str
    files: tuple[DataFile, ...]
    sources: tuple[SourceRead, ...]
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"number": self.number, "started_at": self.started_at,
                "finished_at": self.finished_at, "files": [f.as_dict() for f in self.files],
                "sources": [s.as_dict() for s in self.sources], "counts": self.counts,
                "seconds": self.seconds}

    @classmethod
    def of(cls, data: dict) -> Commit:
        return cls(int(data["number"]), data["started_at"], data["finished_at"],
                   tuple(DataFile(**f) for f in data["files"]),
                   tuple(SourceRead(**{**s, "notes": tuple(s.get("notes", ()))})
                         for s in data["sources"]),
                   dict(data.get("counts", {})), float(data.get("seconds", 0.0)))


def is_lake(path: str | Path | None) -> bool:
    """Whether ``path`` is a lake's folder (it holds the marker)."""
    return path is not None and (Path(path) / MARKER).is_file()


def create(lake: str | Path) -> Path:
    """Make ``lake`` a lake (its folders and marker); an existing lake is left as it is.
    LakeError for a folder that holds other files."""
    root = Path(lake)
    if is_lake(root):
        return root
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise LakeError(f"{root} is not a lake and not an empty folder: name a new folder "
                        "(or an empty one) for --lake")
    try:
        (root / COMMITS).mkdir(parents=True, exist_ok=True)
        (root / STAGING).mkdir(exist_ok=True)
        _write_whole(root / MARKER, FORMAT + "\n")
    except OSError as exc:
        raise LakeError(f"cannot create the lake at {root}: {exc}") from exc
    return root


def commits(lake: str | Path) -> list[Commit]:
    """The lake's commits, in order (the numbered files of ``_commits``)."""
    folder = Path(lake) / COMMITS
    if not is_lake(lake):
        raise LakeError(f"no lake at {lake}: build one first (gops lake build SRC --lake DIR)")
    found = []
    for entry in sorted(folder.glob("[0-9]*.json")):
        try:
            found.append(Commit.of(json.loads(entry.read_text("utf-8"))))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise LakeError(f"unreadable commit {entry}: {exc}") from exc
    return found


def files_by_table(lake: str | Path, found: Iterable[Commit] | None = None
                   ) -> dict[str, list[str]]:
    """Every committed data file (absolute paths), by table."""
    root = Path(lake).resolve()
    out: dict[str, list[str]] = {}
    for commit in commits(lake) if found is None else found:
        for f in commit.files:
            out.setdefault(f.table, []).append(str(root / f.path))
    return out


def write_commit(lake: str | Path, commit: Commit) -> None:
    """Publish ``commit`` atomically: written whole to a temporary file, then linked to
    its number; LakeError if another build took that number meanwhile."""
    folder = Path(lake) / COMMITS
    final = folder / f"{commit.number:08d}.json"
    temporary = folder / f".{uuid.uuid4().hex}.tmp"
    _write_whole(temporary, json.dumps(commit.as_dict(), indent=1))
    try:
        os.link(temporary, final)
    except FileExistsError as exc:
        raise LakeError(f"another build committed {final.name} to {lake} meanwhile: "
                        "run the build again (it adds only what is missing)") from exc
    finally:
        temporary.unlink(missing_ok=True)
    _sync_folder(folder)


def _write_whole(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def schema_connection() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with every table and view of the store's schema, empty (the
    same migrations a database file gets; the steps that fill derived tables skipped)."""
    con = duckdb.connect(":memory:")
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,"
                " name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
    for version in versions():
        for _owner, part in version.parts:
            con.execute(part.sql)
        con.execute("INSERT INTO schema_migrations VALUES (?, ?, now()::TIMESTAMP)",
                    [version.version, version.name])
    return con


def stored_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The base tables of the schema a lake holds files of (in creation order): the
    record tables (those with a content key: :func:`key_of`) and :data:`FILE_TABLES`."""
    rows = con.execute("SELECT table_name FROM duckdb_tables() WHERE NOT temporary "
                       "ORDER BY table_oid").fetchall()
    return [name for (name,) in rows if name not in NOT_STORED
            and (name in FILE_TABLES or key_of(con, name))]


def key_of(con: duckdb.DuckDBPyConnection, table: str) -> str | None:
    """The content key a record table's rows belong to (the first of :data:`KEYS` it
    has): a game's (or hand's) rows are stored once whatever file holds it, a reject's
    text once; None for other tables (and :data:`FILE_TABLES`)."""
    if table in FILE_TABLES:
        return None
    names = columns(con, table)
    return next((k for k in KEYS if k in names), None)


def columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    """A table's columns, in order."""
    return [name for (name,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
        "ORDER BY column_index", [table]).fetchall()]


def key_of_file(con: duckdb.DuckDBPyConnection, path: str) -> str | None:
    """The content key of a data file's rows (as :func:`key_of`), from its columns."""
    names = [name for (name,) in con.execute(
        f"SELECT name FROM parquet_schema({file_list([path])})").fetchall()]
    return next((k for k in KEYS if k in names), None)


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def file_list(paths: Iterable[str]) -> str:
    """A SQL list of file paths, for ``read_parquet``."""
    return "[" + ", ".join("'" + p.replace("'", "''") + "'" for p in paths) + "]"


def connect(lake: str | Path) -> duckdb.DuckDBPyConnection:
    """A connection presenting the lake under the store's table and view names: each
    stored table a view over its committed Parquet files (none: the empty table), and
    ``imports`` one row per commit. LakeError when ``lake`` is no lake."""
    found = commits(lake)
    by_table = files_by_table(lake, found)
    con = schema_connection()
    for table in stored_tables(con):
        paths = by_table.get(table)
        if not paths:
            continue
        names = ", ".join(quoted(c) for c in columns(con, table))
        con.execute(f"DROP TABLE {quoted(table)}")
        con.execute(f"CREATE VIEW {quoted(table)} AS SELECT {names} FROM read_parquet("
                    f"{file_list(paths)}, hive_partitioning = false)")
    for c in found:
        counts = c.counts
        con.execute(
            "INSERT INTO imports (import_id, started_at, finished_at, sources, games_seen, "
            "games_new, games_duplicate, games_rejected, rejects_new, rejects_duplicate, "
            "seconds, source_paths, source_sha256) VALUES (?, ?::TIMESTAMP, ?::TIMESTAMP, ?, "
            "?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [c.number, c.started_at, c.finished_at, [s.name for s in c.sources],
             *(int(counts.get(k, 0)) for k in ("games_seen", "games_new", "games_duplicate",
                                              "games_rejected", "rejects_new",
                                              "rejects_duplicate")),
             c.seconds, [s.name for s in c.sources], [s.sha256 for s in c.sources]])
        for s in c.sources:
            con.execute("INSERT INTO source_file_reads VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [s.sha256, s.reader, s.bytes, c.number, s.name, s.games_valid,
                         s.games_rejected, list(s.notes)])
    return con
