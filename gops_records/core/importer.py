"""Importing record files into the DuckDB store: idempotent, in one transaction, losing nothing.

Every game found is either stored (valid) or quarantined in ``rejects`` with its exact
text and every problem (invalid). A file that cannot be decoded is quarantined whole.
The whole import is one transaction: if it is interrupted, the database is left as it
was before. Re-importing the same records adds nothing and counts them as duplicates.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl

from gops_records.core.errors import DecodeError
from gops_records.core.problems import Problem
from gops_records.core.rejects import IMPORT_EXAMPLES, headline
from gops_records.core.sources import (
    SourceError,
    SourcesUnreadable,
    decode,
    find_files,
    read_regular_file,
    source_name,
)
from gops_records.core.store import source_files
from gops_records.core.store.db import connect, scalar, write_failure
from gops_records.core.store.loader import KnownGames, LoadCounts, batch_game_ids, load_frames
from gops_records.core.store.source_files import FileRead, file_sha256, reader_of
from gops_records.games.gin import store as gin_store
from gops_records.games.gin.checking import GIN_KINDS, gin_kind, gin_last, read_gin_source
from gops_records.games.gin.frames import GinFrames, gin_frames
from gops_records.games.gin.sheet_check import FullHands
from gops_records.games.gops.analytics import bid_groups
from gops_records.games.gops.replay.chunks import chunk_bytes_for, record_body
from gops_records.games.gops.replay.chunks import read_file as read_records
from gops_records.games.gops.replay.frames import ChunkGames, Frames
from gops_records.games.gops.roundlogs import (  # noqa: F401  (find_long_line, MAX_LINE_BYTES: API)
    MAX_LINE_BYTES,
    ROUND_LOG_KINDS,
    LineTooLong,
    RoundLogError,
    find_long_line,
    round_log_games,
)

IMPORT_SUFFIXES = (".gops", *ROUND_LOG_KINDS, *GIN_KINDS)
BATCH_GAMES = 20_000
#: DuckDB threads of the import's connection (the parsing has threads of its own).
IMPORT_THREADS = 1
_BLANK = re.compile(rb"[ \t\n\r\x0b\x0c]*")  # what bytes.strip() removes

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
    #: when first asked for: gops_records/games/gops/scouting/kept_store.py); the keys stay for
    #: scripts
    scout_reports: int = 0
    scout_seconds: float = 0.0
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
    files = gin_last(list(find_files(paths, IMPORT_SUFFIXES, unreadable)))  # hands first
    started, clock = datetime.now(), time.perf_counter()
    summary = ImportSummary(sources=[source_name(p) for p in files], files=len(files))
    if not files and not unreadable:
        summary.notes.append("no record files (" + ", ".join(IMPORT_SUFFIXES) + ") in "
                             + ", ".join(map(str, paths)))
    con = connect(db, timeout=lock_timeout)
    known: KnownGames | None = None
    groups: bid_groups.Background | None = None
    try:
        # The fast path's worker threads keep the other core busy; a second DuckDB thread
        # here only competes with them (measured: a million games load ~1 s faster).
        con.execute(f"SET threads = {IMPORT_THREADS}")
        con.execute("BEGIN TRANSACTION")
        summary.import_id = scalar(con, "SELECT coalesce(max(import_id), 0) + 1 FROM imports")
        known = KnownGames(con)  # stored game ids, read in the background
        source_files.forget_other_readers(con)
        groups = bid_groups.Background(summary.import_id)
        pending = PendingLoad(con, summary, known, batch_games, groups)
        earlier = source_files.read_sizes(con)
        for path in files:
            try:
                _import_file(con, path, summary, known, pending, earlier, encoding=encoding,
                             progress=progress, batch_games=batch_games, reparse=reparse)
            except SourceError as exc:  # it cannot be read: named, and the rest imported
                unreadable.append(exc)
        summary.sources = [name for name, _, _ in summary.read_files]
        summary.files = len(summary.sources)
        pending.flush()
        groups.finish(con)
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
        if groups is not None:
            groups.close()
        if known is not None:
            known.close()  # its cursor must be idle before the connection closes
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
    """Batches gathered into loads of about ``batch_games`` records, and the files' reads
    saved together at the end: a club's folder is mostly small files, and one DuckDB
    statement costs about as much as reading a small file (393 files of a few games:
    21.8 s fresh, 7.8 s unchanged, when each was loaded and recorded on its own)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, summary: ImportSummary,
                 known: KnownGames, batch_games: int,
                 groups: bid_groups.Background | None = None) -> None:
        self.con, self.summary, self.known, self.limit = con, summary, known, batch_games
        self.groups = groups
        self.parts: list[Frames] = []
        self.records = 0
        self.reads: list[FileRead] = []

    def add(self, frames: Frames | GinFrames) -> None:
        if isinstance(frames, GinFrames):  # loaded at once: a sheet is checked against them
            counts, notes = gin_store.load_gin(self.con, self.summary.import_id, frames)
            self.summary.add(counts)
            self.summary.notes.extend(notes)
            return
        self.parts.append(frames)
        self.records += batch_game_ids(frames).len() + frames["rejects"].height
        if self.records >= self.limit:
            self.load()

    def load(self) -> None:
        """Store the batches gathered so far (duplicates across them are counted once)."""
        if not self.parts:
            return
        merged = self.parts[0] if len(self.parts) == 1 else Frames(
            {table: pl.concat([part[table] for part in self.parts]) for table in self.parts[0]},
            pl.concat([batch_game_ids(part) for part in self.parts]))
        self.summary.add(load_frames(self.con, self.summary.import_id, merged, self.known,
                                     self.groups))
        self.parts, self.records = [], 0

    def holds(self, size: int, reader: str, digest: Future[str]) -> bool:
        """Whether a file read in this import, not yet saved, had these bytes."""
        return any(r.bytes == size and r.reader == reader and r.sha256 == digest.result()
                   for r in self.reads)

    def flush(self) -> None:
        """Store everything gathered: the batches, then the files' reads."""
        self.load()
        source_files.save_all(self.con, self.reads, self.summary.import_id)
        self.reads = []


def _import_file(con: duckdb.DuckDBPyConnection, path: Path, summary: ImportSummary,
                 known: KnownGames, pending: PendingLoad, earlier: set[tuple[int, str]], *,
                 encoding: str, progress: Progress | None, batch_games: int,
                 reparse: bool) -> None:
    """Gather one file's batches for loading, or only count them if the same bytes were
    read before (``earlier``: the sizes and readers of the files read before)."""
    data = read_file(path)
    kind = gin_kind(path) or ROUND_LOG_KINDS.get(path.suffix.lower(), "gops")
    reader = reader_of(kind, encoding)
    with ThreadPoolExecutor(max_workers=1) as hashing:  # hashlib runs beside the parsing
        digest = hashing.submit(file_sha256, data)
        summary.read_files.append((source_name(path), source_name(os.path.abspath(path)),
                                   digest))
        if not reparse and (len(data), reader) in earlier:
            if pending.holds(len(data), reader, digest):
                pending.flush()  # the same bytes read earlier in this import: stored now
            if _counted_unchanged(con, path, reader, digest, summary, known,
                                  gin=kind in GIN_KINDS.values()):
                if progress:
                    progress(len(data), source_name(path))
                return
        notes: list[str] = []
        read = FileRead("", reader, len(data), source_name(path), notes=notes)
        full = FullHands(gin_store.stored_full_hands(con)) if kind == "ginsheet" else None
        for batch, consumed in file_batches(path, encoding, batch_games, notes, data=data,
                                            full_hands=full):
            frames = batch.frames()
            pending.add(frames)
            summary.note_rejects(frames["rejects"])
            read.add(batch_game_ids(frames), frames["rejects"]["reject_id"])
            if progress and consumed:
                progress(consumed, source_name(path))
        read.sha256 = digest.result()
    summary.notes.extend(notes)
    pending.reads.append(read)
    earlier.add((read.bytes, reader))  # a copy later in this import is counted, not read


def _counted_unchanged(con: duckdb.DuckDBPyConnection, path: Path, reader: str,
                       digest: Future[str], summary: ImportSummary, known: KnownGames, *,
                       gin: bool = False) -> bool:
    """If an earlier read of these bytes left everything it found stored, count the file
    from that read (as duplicates) and say True; else False: the file must be read."""
    earlier = source_files.find(con, digest.result(), reader)
    if earlier is None or not _still_stored(con, earlier, known, gin=gin):
        return False
    summary.add(earlier.counts())
    summary.note_stored_rejects(con, earlier.distinct_reject_ids())
    summary.files_unchanged += 1
    source_files.skipped(con, earlier, source_name(path), summary.import_id)
    # the notes name the file as it was called then
    summary.notes.extend(n.replace(earlier.source, source_name(path)) for n in earlier.notes)
    return True


def _still_stored(con: duckdb.DuckDBPyConnection, earlier: FileRead, known: KnownGames, *,
                  gin: bool = False) -> bool:
    """Whether every game and reject an earlier read of the file yielded is stored (of a
    Gin Rummy file: its hands, its sheets' games)."""
    ids = earlier.distinct_game_ids()
    if gin:
        missing = gin_store.missing(con, ids)
    else:
        missing = int(known.new(ids).sum()) if known.usable else \
            source_files.missing_games(con, ids)
    return not missing and not source_files.missing_rejects(con, earlier.distinct_reject_ids())


def read_file(path: Path) -> bytes:
    """A file's bytes; SourceError if it cannot be read or is not a regular file."""
    return read_regular_file(path)


def file_batches(path: Path, encoding: str = "utf-8", batch_games: int = BATCH_GAMES,
                 notes: list[str] | None = None, *, data: bytes | None = None,
                 full_hands: FullHands | None = None,
                 ) -> Iterator[tuple[Frames | GinFrames, int]]:
    """Frames of the replayed games and rejects of one file (its ``data`` if given), batch
    by batch, with the bytes each consumed. A Gin Rummy file gives Gin frames; its sheets
    are checked against ``full_hands`` (the stored hands, for an import)."""
    notes = notes if notes is not None else []
    source = source_name(path)
    data = read_file(path) if data is None else data
    if _BLANK.fullmatch(data):
        notes.append(f"{source}: empty file, no games")
        return
    if gin_kind(path):
        yield from _gin_batches(data, source, encoding, notes, full_hands)
        return
    kind = ROUND_LOG_KINDS.get(path.suffix.lower())
    if kind:
        yield from _round_log_batches(data, kind, source, encoding, notes)
        return
    try:  # records stay UTF-8 bytes (no 2-bytes-a-character str)
        text = record_body(data, encoding, source)
    except DecodeError as exc:
        yield _not_text(data, encoding, source, exc, notes)
        return
    yield from _record_batches(text, source, len(data), batch_games, notes)


def _not_text(data: bytes, encoding: str, source: str, exc: DecodeError,
              notes: list[str]) -> tuple[Frames, int]:
    """A file that is not text in ``encoding``: quarantined whole, with a note."""
    notes.append(str(exc))
    return _whole_file_reject(data, encoding, source,
                              Problem("encoding", str(exc), _line_of(exc), 1)), len(data)


def _whole_file_reject(data: bytes, encoding: str, source: str, problem: Problem) -> Frames:
    """Frames quarantining a whole file, its text as close to its bytes as text can be."""
    try:
        text = decode(data, encoding, source)
    except DecodeError:  # undecodable bytes are kept as escapes, e.g. \xfc
        text = data.decode("utf-8", errors="backslashreplace")
    return Frames.of_reject(text, problem, source)


def _line_of(exc: DecodeError) -> int:
    text = str(exc)
    try:
        return int(text.split(": line ", 1)[1].split(":", 1)[0])
    except (IndexError, ValueError):
        return 1


def _record_batches(body: bytes | memoryview, source: str, size: int, batch_games: int,
                    notes: list[str]) -> Iterator[tuple[Frames, int]]:
    """Every game through the one reading core, window by window (workers for big files)."""
    done = pos = games = 0
    chunk = chunk_bytes_for(batch_games)
    for window in read_records(body, source, _frames_of, chunk_bytes=chunk):
        frames: Frames = window.payload
        frames.shift(games)
        games += window.games
        pos += window.consumed
        consumed = round(size * pos / max(len(body), 1))
        yield frames, consumed - done
        done = consumed
    if not games:
        notes.append(f"{source}: no games found (only comments or blank lines)")


def _frames_of(games: ChunkGames) -> Frames:
    """In a worker: a window's frames."""
    return Frames(games.frames(), games.game_ids())


def _round_log_batches(data: bytes, kind: str, source: str, encoding: str,
                       notes: list[str]) -> Iterator[tuple[Frames, int]]:
    """A round log's games, read as ``gops validate`` reads them
    (:func:`~gops_records.games.gops.roundlogs.round_log_games`); a file that is not a round log is
    quarantined whole."""
    try:
        games = round_log_games(data, kind, source, encoding)
    except DecodeError as exc:
        yield _whole_file_reject(data, encoding, source,
                                 Problem("encoding", str(exc), _line_of(exc), 1)), len(data)
        notes.append(str(exc))
        return
    except RoundLogError as exc:
        notes.append(str(exc) if isinstance(exc, LineTooLong) else f"{source}: {exc}")
        yield _whole_file_reject(data, encoding, source,
                                 Problem(exc.code, str(exc), exc.line, 1)), len(data)
        return
    if games is None:
        notes.append(f"{source}: no rounds found")
        return
    yield Frames(games.frames(), games.game_ids()), len(data)


def _gin_batches(data: bytes, source: str, encoding: str, notes: list[str],
                 full_hands: FullHands | None) -> Iterator[tuple[GinFrames, int]]:
    """A Gin Rummy file's hands or sheets, read as ``gops validate`` reads them
    (:func:`gops_records.games.gin.checking.read_gin_source`), window by window; a file that is
    not text in ``encoding`` is quarantined whole."""
    try:
        text = decode(data, encoding, source)
    except DecodeError as exc:
        yield _not_text(data, encoding, source, exc, notes)
        return
    done = records = 0
    for batch in read_gin_source(text, source, full_hands):
        records += len(batch.records)
        notes.extend(batch.notes)
        consumed = round(len(data) * batch.end / max(len(text), 1))
        yield gin_frames(batch), consumed - done
        done = consumed
    if not records:
        notes.append(f"{source}: no {'sheets' if gin_kind(source) == 'ginsheet' else 'hands'} "
                     "found (only comments or blank lines)")
