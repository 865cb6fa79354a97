"""Files the importer has read, by content: a re-import skips a file it has read before.

Reading a file always yields the same games and rejects, so once a file's games and
rejects are all stored, reading it again can only count them as duplicates. Each file
read is recorded in ``source_files`` with the SHA-256 of its bytes, what read it (see
:func:`reader_of`) and what it yielded: the ids of its valid games, the ids of its
rejects, the counts and the notes. A later import of the same bytes, by the same reader,
checks that every one of those ids is still stored and then reports the file's counts
instead of parsing it. If anything is missing (rows deleted by hand), or the reader
changed (another gops, another ``--encoding``), the file is read in full as before.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

import gops_records
from gops_records.core.store.loader import LoadCounts


@cache
def code_digest() -> str:
    """SHA-256 (12 hex digits) of the package's own source files: any change to the code
    counts as a new reader, so no file is skipped on the word of an older parser."""
    root = Path(gops_records.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def this_build() -> str:
    """This gops, e.g. ``gops 0.1.0 (3f2a9c01b7de)``: its version and its code's digest."""
    return f"gops {gops_records.__version__} ({code_digest()})"


def reader_of(kind: str, encoding: str) -> str:
    """What reads a file, e.g. ``gops 0.1.0 (3f2a9c01b7de) gops utf-8``: this build, the
    file's kind and the encoding asked for."""
    return f"{this_build()} {kind} {encoding.lower()}"


def file_sha256(data: bytes) -> str:
    """Hex SHA-256 of a file's bytes (hashlib lets other threads run meanwhile)."""
    return hashlib.sha256(data).hexdigest()


@dataclass
class FileRead:
    """What reading one file yielded: enough to report a re-import without reading it."""

    sha256: str
    reader: str
    bytes: int
    source: str
    games_valid: int = 0      # valid games, a game written twice in the file counted twice
    games_rejected: int = 0   # rejected records, the same counting
    game_ids: list[np.ndarray] = field(default_factory=list)  # parts, as read
    reject_ids: list[pl.Series] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, game_ids: pl.Series, reject_ids: pl.Series) -> None:
        """One batch's valid game ids and reject ids."""
        self.games_valid += game_ids.len()
        self.games_rejected += reject_ids.len()
        if game_ids.len():
            self.game_ids.append(game_ids.to_numpy())
        if reject_ids.len():
            self.reject_ids.append(reject_ids)

    def counts(self) -> LoadCounts:
        """What importing the file counts when all its records are stored already."""
        return LoadCounts(games_seen=self.games_valid + self.games_rejected,
                          games_duplicate=self.games_valid, games_rejected=self.games_rejected,
                          rejects_duplicate=self.games_rejected)

    def distinct_game_ids(self) -> np.ndarray:
        """The valid games' ids, distinct and sorted (by sorting: numpy's hashing
        ``unique`` takes several times longer on a million random ids)."""
        parts = self.game_ids or [np.zeros(0, np.uint64)]
        ids = np.sort(np.concatenate(parts).astype(np.uint64))
        return ids[np.concatenate([[True], ids[1:] != ids[:-1]])] if len(ids) else ids

    def distinct_reject_ids(self) -> pl.Series:
        if not self.reject_ids:
            return pl.Series("reject_id", [], dtype=pl.String)
        return pl.concat(self.reject_ids).unique().sort()


def find(con: duckdb.DuckDBPyConnection, sha256: str, reader: str) -> FileRead | None:
    """The last read of these bytes by this reader, if any."""
    rows = con.sql("SELECT bytes, source, games_valid, games_rejected, notes "
                   "FROM source_file_reads WHERE sha256 = ? AND reader = ?",
                   params=[sha256, reader]).pl()
    if not rows.height:
        return None
    row = rows.row(0, named=True)
    read = FileRead(sha256, reader, row["bytes"], row["source"], row["games_valid"],
                    row["games_rejected"], notes=list(rows["notes"][0]))
    key = [sha256, reader]
    read.game_ids = [con.sql("SELECT game_id FROM source_file_games WHERE sha256 = ? AND "
                             "reader = ?", params=key).pl()["game_id"].to_numpy()]
    read.reject_ids = [con.sql("SELECT reject_id FROM source_file_rejects WHERE sha256 = ? AND "
                               "reader = ?", params=key).pl()["reject_id"]]
    return read


def _delete(con: duckdb.DuckDBPyConnection, where: str, params: list) -> None:
    """Delete the reads matching ``where`` (on source_file_reads) and their id rows."""
    for table in ("source_file_games", "source_file_rejects"):
        con.execute(f"DELETE FROM {table} t USING (SELECT sha256, reader FROM "
                    f"source_file_reads WHERE {where}) d "
                    "WHERE t.sha256 = d.sha256 AND t.reader = d.reader", params)
    con.execute(f"DELETE FROM source_file_reads WHERE {where}", params)


def forget_other_readers(con: duckdb.DuckDBPyConnection) -> None:
    """Drop what older (or other) builds of gops recorded: this one can never match it."""
    _delete(con, "NOT starts_with(reader, ?)", [this_build() + " "])


def save(con: duckdb.DuckDBPyConnection, read: FileRead, import_id: int) -> None:
    """Record what reading the file yielded, inside the caller's transaction. It replaces
    the record of the same bytes and of whatever the file held before (same name), so
    a file that grows keeps one row. Its ids are rows of their own (bulk loaded)."""
    _delete(con, "(sha256 = ? AND reader = ?) OR source = ?",
            [read.sha256, read.reader, read.source])
    stage_file = pl.DataFrame({  # noqa: F841  (read by name in the SQL)
        "sha256": [read.sha256], "reader": [read.reader], "bytes": [read.bytes],
        "import_id": [import_id], "source": [read.source], "games_valid": [read.games_valid],
        "games_rejected": [read.games_rejected],
        "notes": pl.Series([read.notes], dtype=pl.List(pl.String)),
    })
    con.execute("INSERT INTO source_file_reads BY NAME SELECT * FROM stage_file")
    stage_games = pl.DataFrame({"game_id": read.distinct_game_ids()},  # noqa: F841
                               schema={"game_id": pl.UInt64})
    con.execute("INSERT INTO source_file_games SELECT ?, ?, game_id FROM stage_games",
                [read.sha256, read.reader])
    stage_rejects = pl.DataFrame({"reject_id": read.distinct_reject_ids()},  # noqa: F841
                                 schema={"reject_id": pl.String})
    con.execute("INSERT INTO source_file_rejects SELECT ?, ?, reject_id FROM stage_rejects",
                [read.sha256, read.reader])


def read_sizes(con: duckdb.DuckDBPyConnection) -> set[tuple[int, str]]:
    """(bytes, reader) of every file read before: only a file of such a size can be
    unchanged, so no other file waits for its hash or asks the database."""
    return set(con.execute("SELECT DISTINCT bytes, reader FROM source_file_reads").fetchall())


def save_all(con: duckdb.DuckDBPyConnection, reads: list[FileRead], import_id: int) -> None:
    """:func:`save` for many files at once (a few statements, not a few per file)."""
    if not reads:
        return
    if len(reads) == 1:
        save(con, reads[0], import_id)
        return
    # as saving them one by one: a later read of the same bytes or name replaces an earlier
    latest: dict[tuple[str, str], FileRead] = {}
    for read in reads:
        latest.pop((read.sha256, read.reader), None)
        for key in [k for k, r in latest.items() if r.source == read.source]:
            del latest[key]
        latest[(read.sha256, read.reader)] = read
    kept = list(latest.values())
    stage_file = pl.DataFrame({
        "sha256": [r.sha256 for r in kept], "reader": [r.reader for r in kept],
        "bytes": [r.bytes for r in kept], "import_id": [import_id] * len(kept),
        "source": [r.source for r in kept], "games_valid": [r.games_valid for r in kept],
        "games_rejected": [r.games_rejected for r in kept],
        "notes": pl.Series([r.notes for r in kept], dtype=pl.List(pl.String)),
    })
    con.register("stage_file", stage_file)
    try:
        _delete(con, "(sha256, reader) IN (SELECT (sha256, reader) FROM stage_file) "
                     "OR source IN (SELECT source FROM stage_file)", [])
        con.execute("INSERT INTO source_file_reads BY NAME SELECT * FROM stage_file")
    finally:
        con.unregister("stage_file")
    stage_games = pl.concat([  # noqa: F841  (read by name in the SQL)
        pl.DataFrame({"game_id": r.distinct_game_ids()}, schema={"game_id": pl.UInt64})
        .with_columns(sha256=pl.lit(r.sha256), reader=pl.lit(r.reader)) for r in kept])
    con.execute("INSERT INTO source_file_games SELECT sha256, reader, game_id FROM stage_games")
    stage_rejects = pl.concat([  # noqa: F841
        pl.DataFrame({"reject_id": r.distinct_reject_ids()}, schema={"reject_id": pl.String})
        .with_columns(sha256=pl.lit(r.sha256), reader=pl.lit(r.reader)) for r in kept])
    con.execute("INSERT INTO source_file_rejects SELECT sha256, reader, reject_id "
                "FROM stage_rejects")


def skipped(con: duckdb.DuckDBPyConnection, earlier: FileRead, source: str,
            import_id: int) -> None:
    """Note that ``import_id`` found the file unchanged under the name ``source``: its row
    then reads as a full read would have left it."""
    _delete(con, "source = ? AND NOT (sha256 = ? AND reader = ?)",
            [source, earlier.sha256, earlier.reader])
    con.execute("UPDATE source_file_reads SET source = ?, import_id = ? "
                "WHERE sha256 = ? AND reader = ?",
                [source, import_id, earlier.sha256, earlier.reader])


def missing_rejects(con: duckdb.DuckDBPyConnection, reject_ids: pl.Series) -> int:
    """How many of ``reject_ids`` are not in ``rejects``."""
    if not len(reject_ids):
        return 0
    stage_ids = pl.DataFrame({"reject_id": reject_ids})  # noqa: F841  (read by name in the SQL)
    return con.execute("SELECT count(*) FROM stage_ids ANTI JOIN rejects USING (reject_id)"
                       ).fetchall()[0][0]
