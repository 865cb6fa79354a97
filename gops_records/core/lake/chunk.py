"""The lake's unit of work: one record file read into Parquet files, on any worker.

:func:`read_chunk` is the function a cluster runs (Dask here; Spark's ``mapInArrow`` or
Ray Data's ``map_batches`` can call it the same way, docs/lake.md). Its contract:

- **in**: a :class:`Chunk` (a file's path as the worker sees it, its notation, the
  encoding, the build's number and staging folder): plain values, picklable;
- **out**: a :class:`ChunkResult`: the Parquet files written under the staging folder
  (whole files, never renamed into the lake here) with, per file, the content keys of its
  rows, and what reading counted;
- **no shared state**: it reads the file through the one reading core
  (:func:`gops_records.core.reading.read_batches`) into the frames its game's load session
  stores (:meth:`~gops_records.core.reading.FileReader.session`) in a private in-memory
  DuckDB with the store's schema, and writes each record table's rows as Parquet
  partitioned by game kind and the year/month of the game's date. Running it twice
  (a retried task) writes other files with the same rows; the build commits one run's.

Memory is bounded by ``batch_games``: the tables are written out and emptied every time
that many records are stored, so a worker never holds a whole big file's rows.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

from gops_records.core import registry
from gops_records.core.reading import BATCH_GAMES, RejectsOnly, read_batches, read_file
from gops_records.core.store import lake
from gops_records.core.store.loader import LoadCounts, load_rejects

#: Partition value of a row whose game has no (whole) date, and of a reject.
NO_DATE = "unknown"


@dataclass(frozen=True, slots=True)
class Chunk:
    """One task: a file to read and where its Parquet files go."""

    path: str
    notation: str
    encoding: str
    build: int
    staging: str
    #: committed files of the game's tables a notation read after others is checked
    #: against (a Gin score sheet against the full hands): table -> paths
    context: dict[str, list[str]] = field(default_factory=dict)
    batch_games: int = BATCH_GAMES
    #: the name the file's rows are stored under (as ``gops import`` names it: as given
    #: on the command line or found in a folder); ``path`` when empty
    source: str = ""
    #: the file's SHA-256 and reader, as the commit names them (``source_file_games``)
    sha256: str = ""
    reader: str = ""


@dataclass(frozen=True, slots=True)
class WrittenFile:
    """A Parquet file a chunk wrote: its table, its path relative to the staging folder,
    its rows and the distinct content keys of its rows (``key_of`` the table)."""

    table: str
    path: str
    rows: int
    keys: np.ndarray


@dataclass
class ChunkResult:
    """What one chunk wrote and counted."""

    path: str
    files: list[WrittenFile] = field(default_factory=list)
    #: the file's valid records (their content keys, distinct) and the table keyed by them
    valid: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint64))
    valid_table: str | None = None
    counts: LoadCounts = field(default_factory=LoadCounts)
    notes: list[str] = field(default_factory=list)


def read_chunk(chunk: Chunk) -> ChunkResult:
    """Read ``chunk``'s file into Parquet files under its staging folder (the contract is
    the module's docstring). Problems in the records never raise: they are rejects."""
    game, kind = registry.file_kind(chunk.notation)
    reader = registry.load(kind.reader)
    result = ChunkResult(chunk.path)
    con = lake.schema_connection()
    try:
        con.execute("SET threads = 1")  # one task a core: the cluster runs the others
        tables = lake.stored_tables(con)
        before = _load_context(con, chunk.context, tables)
        session = reader.session(con, chunk.build, chunk.batch_games)
        try:
            held = 0
            data = read_file(Path(chunk.path))
            valid: list[np.ndarray] = []
            rejects: list[pl.Series] = []
            for batch, _ in read_batches(Path(chunk.source or chunk.path), chunk.encoding,
                                         chunk.batch_games, result.notes, data=data,
                                         session=session):
                valid.append(batch.game_ids().to_numpy())
                rejects.append(batch["rejects"]["reject_id"])
                if isinstance(batch, RejectsOnly):
                    result.counts.add(load_rejects(con, chunk.build, batch.rejects))
                else:
                    counts, notes = session.add(batch)
                    result.counts.add(counts)
                    result.notes.extend(notes)
                held += batch.game_ids().len() + batch["rejects"].height
                if held >= chunk.batch_games and not before:
                    _flush(session, result)
                    result.valid_table = result.valid_table or _valid_table(
                        con, tables, valid, before)
                    _write(con, tables, game.name, chunk, before, result)
                    held = 0
            _flush(session, result)
            session.finish()
            result.valid = np.unique(np.concatenate(valid)) if valid else result.valid
            result.valid_table = result.valid_table or _valid_table(con, tables, valid, before)
            _what_the_file_held(con, chunk, result.valid, rejects)
        finally:
            session.close()
        _write(con, tables, game.name, chunk, before, result)
    finally:
        con.close()
    return result


def _what_the_file_held(con: duckdb.DuckDBPyConnection, chunk: Chunk, valid: np.ndarray,
                        rejects: list[pl.Series]) -> None:
    """The file's valid records' and rejects' keys, as ``gops import`` keeps them."""
    held_games = pl.DataFrame({"game_id": valid})  # noqa: F841  (read by name in the SQL)
    held_rejects = pl.DataFrame(  # noqa: F841
        {"reject_id": pl.concat(rejects).unique() if rejects else pl.Series([], dtype=pl.String)})
    con.execute("INSERT INTO source_file_games SELECT ?, ?, game_id FROM held_games",
                [chunk.sha256, chunk.reader])
    con.execute("INSERT INTO source_file_rejects SELECT ?, ?, reject_id FROM held_rejects",
                [chunk.sha256, chunk.reader])


def _valid_table(con: duckdb.DuckDBPyConnection, tables: list[str],
                 valid: list[np.ndarray], before: dict[str, int]) -> str | None:
    """The table whose content key the reader's valid records are (``game_ids()``):
    the first holding every one of them, now (e.g. ``games``, ``gin_hands``)."""
    ids = np.unique(np.concatenate(valid)) if valid else np.zeros(0, np.uint64)
    if not len(ids):
        return None
    wanted = pl.DataFrame({"k": ids})  # noqa: F841  (read by name in the SQL)
    for table in tables:
        key = lake.key_of(con, table)
        if key in (None, "reject_id"):
            continue
        missing = con.execute(f"SELECT count(*) FROM wanted WHERE k NOT IN (SELECT {key} "
                              f"FROM {lake.quoted(table)})").fetchone()[0]
        if not missing:
            return table
    return None


def _flush(session, result: ChunkResult) -> None:
    counts, notes = session.flush()
    result.counts.add(counts)
    result.notes.extend(notes)


def _load_context(con: duckdb.DuckDBPyConnection, context: dict[str, list[str]],
                  tables: list[str]) -> dict[str, int]:
    """Fill the tables a notation is checked against from the lake's committed files;
    the rows each held then (new rows come after them: DuckDB's rowid)."""
    before: dict[str, int] = {}
    for table in tables:
        paths = context.get(table)
        if paths:
            names = ", ".join(lake.quoted(c) for c in lake.columns(con, table))
            con.execute(f"INSERT INTO {lake.quoted(table)} SELECT {names} FROM read_parquet("
                        f"{lake.file_list(paths)}, hive_partitioning = false)")
            before[table] = con.execute(f"SELECT count(*) FROM {lake.quoted(table)}"
                                        ).fetchone()[0]
    return before


def _dates(con: duckdb.DuckDBPyConnection, tables: list[str], key: str) -> str | None:
    """SQL of (key, year, month) from the tables that have ``key`` and a ``date``."""
    parts = [f"SELECT {key} AS k, date FROM {lake.quoted(t)}" for t in tables
             if {key, "date"} <= set(lake.columns(con, t))]
    return " UNION ALL ".join(parts) if parts else None


def _write(con: duckdb.DuckDBPyConnection, tables: list[str], kind: str, chunk: Chunk,
           before: dict[str, int], result: ChunkResult) -> None:
    """Write the rows stored since the last write as Parquet, partitioned; then empty
    the tables (a context's rows are kept: they are not this chunk's)."""
    keys = {t: lake.key_of(con, t) for t in tables}
    for key in set(keys.values()) - {None}:  # each key's partition, before any table is emptied
        dates = _dates(con, tables, key)
        select = (f"SELECT k, any_value(date) AS date FROM ({dates}) GROUP BY k" if dates
                  else "SELECT NULL AS k, NULL::DATE AS date WHERE false")
        con.execute(f"CREATE OR REPLACE TEMP TABLE part_{key} AS {select}")
    for table in tables:
        start = before.get(table, 0)
        name = lake.quoted(table)
        rows = con.execute(f"SELECT count(*) FROM {name} WHERE rowid >= {start}").fetchone()[0]
        if not rows:
            continue
        key = keys[table]
        dated = f"LEFT JOIN part_{key} d ON d.k = t.{key}" if key else \
            "LEFT JOIN (SELECT NULL::DATE AS date) d ON true"
        out = Path(chunk.staging) / table
        prefix = f"part-{uuid.uuid4().hex[:12]}"
        con.execute(
            f"COPY (SELECT t.* EXCLUDE (rowid_), '{kind}' AS game, "
            f"coalesce(strftime(d.date, '%Y'), '{NO_DATE}') AS year, "
            f"coalesce(strftime(d.date, '%m'), '{NO_DATE}') AS month "
            f"FROM (SELECT *, rowid AS rowid_ FROM {name} WHERE rowid >= {start}) t "
            f"{dated}) TO '{out}' "
            f"(FORMAT parquet, PARTITION_BY (game, year, month), OVERWRITE_OR_IGNORE, "
            f"FILENAME_PATTERN '{prefix}-{{i}}')")
        for written in sorted(out.rglob(f"{prefix}-*.parquet")):
            relative = written.relative_to(chunk.staging).as_posix()
            found = con.execute(f"SELECT DISTINCT {key} FROM read_parquet('{written}', "
                                "hive_partitioning = false)").fetchnumpy()[key] if key \
                else np.zeros(0, np.uint64)
            count = con.execute(f"SELECT count(*) FROM read_parquet('{written}', "
                                "hive_partitioning = false)").fetchone()[0]
            result.files.append(WrittenFile(table, relative, int(count), np.asarray(found)))
    for table in tables:
        if table not in before:
            con.execute(f"DELETE FROM {lake.quoted(table)}")
