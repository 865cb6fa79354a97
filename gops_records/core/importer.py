"""Importing record files into the DuckDB store: idempotent, in one transaction, losing nothing.

Every game found is either stored (valid) or quarantined in ``rejects`` with its exact
text and every problem (invalid). A file that cannot be decoded is quarantined whole.
The whole import is one transaction: if it is interrupted, the database is left as it
was before. Re-importing the same records adds nothing and counts them as duplicates.

Each file is read by the reader its name selects (the game registry; the protocol is
:class:`gops_records.core.reading.FileReader`) and stored through its game's load session,
one per game for the whole import: this module names no game.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl

from gops_records.core import registry
from gops_records.core.problems import Problem
from gops_records.core.reading import (
    BATCH_GAMES,
    Batch,
    FileReader,
    LoadSession,
    RejectsOnly,
    kind_of,
    read_batches,
    read_file,
    read_order,
)
from gops_records.core.rejects import (
    IMPORT_EXAMPLES,
    FileNow,
    ImportedFile,
    ResolvedHow,
    headline,
    open_reject_paths,
    resolve_imported,
)
from gops_records.core.sources import SourceError, SourcesUnreadable, find_files, source_name
from gops_records.core.store import source_files
from gops_records.core.store.db import connect, scalar, write_failure
from gops_records.core.store.loader import LoadCounts, load_rejects
from gops_records.core.store.source_files import FileRead, file_sha256, reader_of

#: DuckDB threads of the import's connection (the parsing has threads of its own).
IMPORT_THREADS = 1

#: Called with (bytes just processed, file being read) to drive a progress bar.
Progress = Callable[[int, str], None]


@dataclass
class ImportSummary(LoadCounts):
    """What one import did; the same figures are stored in the ``imports`` table."""

    import_id: int = 0
    sources: list[str] = field(default_factory=list)
    files: int = 0
    files_unchanged: int = 0  # files skipped: read before, all their records stored
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: The first few rejected records, as ``file:line: code: message`` (``gops import``
    #: lists them; ``gops rejects`` lists every one)
    rejected: list[str] = field(default_factory=list)
    #: Always 0 and 0.0: an import computes no scouting report any more (they are computed
    #: when first asked for, by ``gops scout``); the keys stay for scripts
    scout_reports: int = 0
    scout_seconds: float = 0.0
    #: Quarantined records of earlier imports this one found fixed (or gone) in the files
    #: it read, by how, marked resolved in its transaction (:func:`resolve_imported`)
    resolved: dict[ResolvedHow, int] = field(default_factory=dict)
    #: Each file read or counted: its name (as in ``sources``), its absolute path and the
    #: SHA-256 of its bytes (being computed), kept in ``imports`` for ``gops rejects``
    read_files: list[tuple[str, str, Future[str]]] = field(default_factory=list, repr=False)

    def note_rejects(self, rejects: pl.DataFrame) -> None:
        """Keep the headlines of a batch's rejects while fewer than a few are kept."""
        room = IMPORT_EXAMPLES - len(self.rejected)
        for row in rejects.head(max(room, 0)).iter_rows(named=True):
            errors = [Problem(**e) for e in row["errors"]]
            self.rejected.append(headline(row["source"], row["source_line"], errors)
                                 if errors else f"{row['source']}:{row['source_line'] or 1}: "
                                 "rejected (the same text as a record before it)")

    def note_stored_rejects(self, con: duckdb.DuckDBPyConnection, ids: pl.Series) -> None:
        """Keep the headlines of stored rejects (a file counted, not read again)."""
        room = IMPORT_EXAMPLES - len(self.rejected)
        if room > 0 and len(ids):
            wanted = pl.DataFrame({"reject_id": ids})  # noqa: F841  (read by name in the SQL)
            self.note_rejects(con.sql(
                "SELECT source, source_line, errors FROM rejects SEMI JOIN wanted USING "
                f"(reject_id) ORDER BY source, source_game LIMIT {room}").pl())

    @property
    def rejects_resolved(self) -> int:
        """Quarantined records this import marked resolved."""
        return sum(self.resolved.values())

    @property
    def games_per_second(self) -> float:
        return self.games_seen / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict:
        return {
            "import_id": self.import_id, "files": self.files,
            "files_unchanged": self.files_unchanged, "games_seen": self.games_seen,
            "games_new": self.games_new, "games_duplicate": self.games_duplicate,
            "games_rejected": self.games_rejected, "rejects_new": self.rejects_new,
            "rejects_duplicate": self.rejects_duplicate, "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "scout_reports": self.scout_reports, "scout_seconds": round(self.scout_seconds, 3),
            "rejects_resolved": self.rejects_resolved,
            "notes": self.notes,
        }


def import_paths(paths: Iterable[str | Path], db: str | Path | None = None, *,
                 encoding: str = "utf-8", progress: Progress | None = None,
                 lock_timeout: float = 30.0, batch_games: int = BATCH_GAMES,
                 reparse: bool = False) -> ImportSummary:
    """Import record files and folders (searched recursively) into the database at ``db``.

    A file whose exact bytes an earlier import read (with this gops and encoding) is not
    read again when every game and reject it yielded is still stored: its records are
    counted as duplicates, as reading it would count them. ``reparse`` reads every file.

    A file or folder that cannot be read (no permission, not a regular file) does not stop
    the others: the rest is imported and committed, then SourcesUnreadable (a SourceError)
    is raised naming each, with the summary of what was imported.

    Raises SourceError for a path that does not exist, DatabaseLocked when the file
    stays locked for ``lock_timeout`` seconds and DatabaseWriteFailed when the disk cannot
    take the write (the database is then as it was); problems in the records never raise.
    """
    paths = list(paths)
    unreadable: list[SourceError] = []
    suffixes = registry.suffixes()
    files = read_order(list(find_files(paths, suffixes, unreadable)))  # e.g. hands first
    started, clock = datetime.now(), time.perf_counter()
    summary = ImportSummary(sources=[source_name(p) for p in files], files=len(files))
    if not files and not unreadable:
        summary.notes.append("no record files (" + ", ".join(suffixes) + ") in "
                             + ", ".join(map(str, paths)))
    con = connect(db, timeout=lock_timeout)
    pending: PendingLoad | None = None
    try:
        # The fast path's worker threads keep the other core busy; a second DuckDB thread
        # here only competes with them (measured: a million games load ~1 s faster).
        con.execute(f"SET threads = {IMPORT_THREADS}")
        con.execute("BEGIN TRANSACTION")
        summary.import_id = scalar(con, "SELECT coalesce(max(import_id), 0) + 1 FROM imports")
        source_files.forget_other_readers(con)
        pending = PendingLoad(con, summary, batch_games)
        earlier = source_files.read_sizes(con)
        for path in files:
            try:
                _import_file(con, path, summary, pending, earlier, encoding=encoding,
                             progress=progress, batch_games=batch_games, reparse=reparse)
            except SourceError as exc:  # it cannot be read: named, and the rest imported
                unreadable.append(exc)
        summary.sources = [name for name, _, _ in summary.read_files]
        summary.files = len(summary.sources)
        pending.flush()
        pending.finish()
        summary.resolved = resolve_imported(con, summary.import_id, pending.reread)
        if summary.files_unchanged:
            summary.notes.append(
                f"{summary.files_unchanged} of {summary.files} files unchanged since an earlier "
                "import, not read again: their games and rejects are all stored (--reparse "
                "reads them anyway)")
        summary.seconds = time.perf_counter() - clock
        _record_import(con, summary, started)
        con.execute("COMMIT")
    except BaseException as exc:
        _rollback(con)
        failure = write_failure(exc, db)
        if failure is not None:
            raise failure from exc
        raise
    finally:
        if pending is not None:
            pending.close()  # background work must be idle before the connection closes
        con.close()
    if unreadable:
        raise SourcesUnreadable(unreadable, summary)
    return summary


def _rollback(con: duckdb.DuckDBPyConnection) -> None:
    with contextlib.suppress(duckdb.Error):  # no transaction open (failed before BEGIN)
        con.execute("ROLLBACK")


def _record_import(con: duckdb.DuckDBPyConnection, s: ImportSummary, started: datetime) -> None:
    row = pl.DataFrame([{
        "import_id": s.import_id, "started_at": started, "finished_at": datetime.now(),
        "sources": s.sources, "games_seen": s.games_seen, "games_new": s.games_new,
        "games_duplicate": s.games_duplicate, "games_rejected": s.games_rejected,
        "rejects_new": s.rejects_new, "rejects_duplicate": s.rejects_duplicate,
        "seconds": s.seconds, "source_paths": [path for _, path, _ in s.read_files],
        "source_sha256": [digest.result() for _, _, digest in s.read_files],
    }], schema_overrides={"sources": pl.List(pl.String), "source_paths": pl.List(pl.String),
                          "source_sha256": pl.List(pl.String)})
    con.register("stage_import", row)
    con.execute("INSERT INTO imports BY NAME SELECT * FROM stage_import")
    con.unregister("stage_import")


class PendingLoad:
    """The import's load sessions, one per game (made when its first file is read: each
    game gathers and stores its batches its own way), and the files' reads saved
    together at the end: one DuckDB statement costs about as much as reading a small
    file."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: ImportSummary,
                 batch_games: int) -> None:
        self.con, self.summary, self.batch_games = con, summary, batch_games
        self.sessions: dict[str, LoadSession] = {}
        self.reads: list[FileRead] = []
        #: The files holding open rejects (absolute paths): what reading them gives is
        #: kept (``reread``), to resolve the rejects fixed in them at the end
        self.watched = open_reject_paths(con)
        self.reread: list[ImportedFile] = []

    def session(self, game: str, reader: FileReader) -> LoadSession:
        """The load session of ``game`` (made by its ``reader`` the first time)."""
        if game not in self.sessions:
            self.sessions[game] = reader.session(self.con, self.summary.import_id,
                                                 self.batch_games)
        return self.sessions[game]

    def add(self, session: LoadSession, batch: Batch) -> None:
        """Store a batch through its game's session (a whole file's reject at once)."""
        if isinstance(batch, RejectsOnly):
            self.summary.add(load_rejects(self.con, self.summary.import_id, batch.rejects))
        else:
            self._count(session.add(batch))

    def _count(self, loaded: tuple[LoadCounts, list[str]]) -> None:
        counts, notes = loaded
        self.summary.add(counts)
        self.summary.notes.extend(notes)

    def holds(self, size: int, reader: str, digest: Future[str]) -> bool:
        """Whether a file read in this import, not yet saved, had these bytes."""
        return any(r.bytes == size and r.reader == reader and r.sha256 == digest.result()
                   for r in self.reads)

    def flush(self) -> None:
        """Store everything gathered: the batches, then the files' reads."""
        for session in self.sessions.values():
            self._count(session.flush())
        source_files.save_all(self.con, self.reads, self.summary.import_id)
        self.reads = []

    def finish(self) -> None:
        """After the last flush: what each game keeps beside its rows."""
        for session in self.sessions.values():
            session.finish()

    def close(self) -> None:
        for session in self.sessions.values():
            session.close()


def _import_file(con: duckdb.DuckDBPyConnection, path: Path, summary: ImportSummary,
                 pending: PendingLoad, earlier: set[tuple[int, str]], *,
                 encoding: str, progress: Progress | None, batch_games: int,
                 reparse: bool) -> None:
    """Gather one file's batches for loading, or only count them if the same bytes were
    read before (``earlier``: the sizes and readers of the files read before)."""
    data = read_file(path)
    game, kind = kind_of(path)
    file_reader: FileReader = registry.load(kind.reader)
    session = pending.session(game.name, file_reader)
    reader = reader_of(kind.name, encoding)
    with ThreadPoolExecutor(max_workers=1) as hashing:  # hashlib runs beside the parsing
        digest = hashing.submit(file_sha256, data)
        absolute = source_name(os.path.abspath(path))
        summary.read_files.append((source_name(path), absolute, digest))
        if not reparse and (len(data), reader) in earlier:
            if pending.holds(len(data), reader, digest):
                pending.flush()  # the same bytes read earlier in this import: stored now
            if _counted_unchanged(con, path, reader, digest, summary, session):
                if progress:
                    progress(len(data), source_name(path))
                return
        notes: list[str] = []
        read = FileRead("", reader, len(data), source_name(path), notes=notes)
        now = FileNow(file_reader) if absolute in pending.watched else None
        for batch, consumed in read_batches(path, encoding, batch_games, notes, data=data,
                                            session=session):
            if now is not None:
                now.add(batch)  # before the session takes it (it may reuse its frames)
            pending.add(session, batch)
            summary.note_rejects(batch["rejects"])
            read.add(batch.game_ids(), batch["rejects"]["reject_id"])
            if progress and consumed:
                progress(consumed, source_name(path))
        read.sha256 = digest.result()
    if now is not None:
        pending.reread.append(ImportedFile(source_name(path), absolute, read.sha256, now))
    summary.notes.extend(notes)
    pending.reads.append(read)
    earlier.add((read.bytes, reader))  # a copy later in this import is counted, not read


def _counted_unchanged(con: duckdb.DuckDBPyConnection, path: Path, reader: str,
                       digest: Future[str], summary: ImportSummary,
                       session: LoadSession) -> bool:
    """If an earlier read of these bytes left everything it found stored, count the file
    from that read (as duplicates) and say True; else False: the file must be read."""
    earlier = source_files.find(con, digest.result(), reader)
    if earlier is None or not _still_stored(con, earlier, session):
        return False
    summary.add(earlier.counts())
    summary.note_stored_rejects(con, earlier.distinct_reject_ids())
    summary.files_unchanged += 1
    source_files.skipped(con, earlier, source_name(path), summary.import_id)
    # the notes name the file as it was called then
    summary.notes.extend(n.replace(earlier.source, source_name(path)) for n in earlier.notes)
    return True


def _still_stored(con: duckdb.DuckDBPyConnection, earlier: FileRead,
                  session: LoadSession) -> bool:
    """Whether every record and reject an earlier read of the file yielded is stored."""
    return not session.missing(earlier.distinct_game_ids()) and \
        not source_files.missing_rejects(con, earlier.distinct_reject_ids())
