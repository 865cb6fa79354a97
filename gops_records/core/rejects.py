"""The quarantine: the records ``gops import`` rejected, shown and re-checked.

Each reject is kept exactly as written with every problem (table ``rejects``). This
module lists them (``gops rejects``, the dashboard's Data quality page), shows one with
the line each problem points at numbered as in its file (:func:`record_lines`), and
re-checks them (:func:`recheck`): a record since imported in a fixed form, typed again
right, or removed from its file is marked resolved in ``reject_resolutions`` (the rules
are in docs/schema.md); an import that reads a record's file again, fixed, marks it
resolved itself by the same file rule (:func:`resolve_imported`, in the import's
transaction). A record's file is the one its import read, found by the absolute
path and SHA-256 the import kept (``imports.source_paths``, ``source_sha256``), never a
file of the same name where the command runs. A reject is never changed or deleted: it
stays the history.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path

import duckdb
import polars as pl

from gops_records.core.errors import GopsError
from gops_records.core.games_query import game_ref
from gops_records.core.problems import Problem
from gops_records.core.reading import (
    Batch,
    FileReader,
    Identity,
    RecordLine,
    RejectsOnly,
    read_batches,
    reader_of,
)
from gops_records.core.sources import read_regular_file
from gops_records.core.store.db import scalar
from gops_records.core.store.source_files import file_sha256
from gops_records.core.verdicts import echo

#: Rejects ``gops import`` names one by one before giving the count of the rest.
IMPORT_EXAMPLES = 5


class ResolvedHow(StrEnum):
    """How a quarantined record was found resolved (``reject_resolutions.how``)."""

    FIXED = "fixed"          # the same file and position now holds it, valid and stored
    SAME_GAME = "same-game"  # a stored game has its identifying tags and players
    REMOVED = "removed"      # its file no longer holds it


class RejectNotFound(GopsError, LookupError):
    """No quarantined record has the id asked for (or a prefix names several)."""

    code = "no-reject"


@dataclass(frozen=True, slots=True)
class Resolution:
    how: ResolvedHow
    game_id: int | None
    resolved_at: datetime
    note: str

    def as_json(self) -> dict:
        return {"how": self.how.value, "game_id": self.game_id,
                "game_ref": game_ref(self.game_id) if self.game_id is not None else None,
                "resolved_at": self.resolved_at.isoformat(timespec="seconds"),
                "note": self.note}


@dataclass(frozen=True, slots=True)
class Reject:
    """A quarantined record, with its resolution if a re-check found one."""

    reject_id: str
    import_id: int
    source: str
    source_game: int | None
    source_line: int | None
    raw_text: str
    errors: tuple[Problem, ...]
    resolution: Resolution | None = None

    @property
    def resolved(self) -> bool:
        return self.resolution is not None

    @property
    def codes(self) -> list[str]:
        """The distinct problem codes, sorted."""
        return sorted({p.code for p in self.errors})

    @property
    def reader(self) -> FileReader:
        """The reader of its file's notation (by the file's name)."""
        return reader_of(self.source)

    @property
    def caret(self) -> bool:
        """Whether a problem's column counts characters of its line (a caret is shown
        under it), as in a whole file; else fields (a round log's row)."""
        return self.source_game is None or self.reader.caret

    def headline(self) -> str:
        """``file:line: code: message`` of its first problem (and how many more)."""
        return headline(self.source, self.source_line, self.errors)

    def as_json(self, *, with_text: bool = False) -> dict:
        """The object ``gops rejects --json`` prints (``--show`` adds the text)."""
        out = {"reject_id": self.reject_id, "import_id": self.import_id,
               "source": self.source, "source_game": self.source_game,
               "source_line": self.source_line, "codes": self.codes,
               "errors": [p.as_dict() for p in self.errors], "resolved": self.resolved,
               "resolution": self.resolution.as_json() if self.resolution else None}
        if with_text:
            out["raw_text"] = self.raw_text
            out["lines"] = [{"line": line.number, "text": line.text}
                            for line in record_lines(self)]
        return out


def headline(source: str, source_line: int | None, errors: Iterable[Problem]) -> str:
    """One line for a rejected record: where its first problem is, its code and message,
    and how many more problems it has."""
    errors = list(errors)
    if not errors:
        return f"{source}:{source_line or 1}: rejected"
    first = errors[0]
    line = first.line or source_line or 1
    more = len(errors) - 1
    return (f"{source}:{line}: {first.code}: {first.message}"
            + (f" (+{more} more problem{'s' * (more != 1)})" if more else ""))


def _problem(e: dict) -> Problem:
    return Problem(e["code"], e["message"], e["line"], e["column"], e["round"])


_SELECT = """
    SELECT r.reject_id, r.import_id, r.source, r.source_game, r.source_line, r.raw_text,
           r.errors, s.how, s.game_id, s.resolved_at, s.note
    FROM rejects r LEFT JOIN reject_resolutions s USING (reject_id)
"""
_ORDER = " ORDER BY r.import_id DESC, r.source, r.source_game NULLS FIRST, r.reject_id"


def _reject(row: tuple) -> Reject:
    how, game_id, at, note = row[7:]
    resolution = Resolution(ResolvedHow(how), None if game_id is None else int(game_id), at,
                            note) if how is not None else None
    return Reject(row[0], row[1], row[2], row[3], row[4], row[5],
                  tuple(_problem(e) for e in row[6]), resolution)


def list_rejects(con: duckdb.DuckDBPyConnection, *, open_only: bool = False,
                 limit: int | None = None) -> list[Reject]:
    """The quarantined records, newest import first, in file order; only the open ones
    (not found resolved) with ``open_only``; at most ``limit``."""
    where = " WHERE s.reject_id IS NULL" if open_only else ""
    page = f" LIMIT {int(limit)}" if limit is not None else ""
    return [_reject(r) for r in con.execute(_SELECT + where + _ORDER + page).fetchall()]


@dataclass(frozen=True, slots=True)
class QuarantineCounts:
    """Records in quarantine (each kept once), open and resolved, and how many times the
    imports counted a record as rejected (a record read by three imports counts three)."""

    records: int
    open: int
    resolved: int
    rejected_at_imports: int


def counts(con: duckdb.DuckDBPyConnection) -> QuarantineCounts:
    records, resolved = con.execute(
        "SELECT count(*), count(s.reject_id) FROM rejects r "
        "LEFT JOIN reject_resolutions s USING (reject_id)").fetchone()
    at_imports = scalar(con, "SELECT coalesce(sum(games_rejected), 0) FROM imports")
    return QuarantineCounts(records, records - resolved, resolved, at_imports)


def find_reject(con: duckdb.DuckDBPyConnection, ref: str) -> Reject:
    """The reject whose id is ``ref``, or starts with it (at least 4 hex digits)."""
    text = ref.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{4,16}", text):
        raise RejectNotFound(f"{ref!r} is not a reject id: give its 16 hex digits, or the "
                             "first 4 or more (gops rejects lists them)")
    rows = con.execute(_SELECT + " WHERE starts_with(r.reject_id, ?)" + _ORDER + " LIMIT 3",
                       [text]).fetchall()
    if not rows:
        raise RejectNotFound(f"no quarantined record has the id {ref!r} (gops rejects lists "
                             "them)")
    if len(rows) > 1:
        raise RejectNotFound(f"{ref!r} starts the ids of several records; give more digits")
    return _reject(rows[0])


# -- the record's lines, numbered as in its file -------------------------------------------


def identity_of(reject: Reject) -> Identity | None:
    """Who played the record and its tags, read back from its text; None for a whole
    file, or when its text (or its game) does not say."""
    if reject.source_game is None:
        return None
    return reject.reader.identity(reject.raw_text)


def record_lines(reject: Reject) -> list[RecordLine]:
    """The record's text line by line, each numbered with its line in the file (as its
    notation's reader numbers them)."""
    return reject.reader.lines(reject.raw_text, reject.source_game, reject.source_line,
                               reject.errors)


def problem_text(reject: Reject, problem: Problem,
                 lines: list[RecordLine] | None = None) -> str | None:
    """The text of the line ``problem`` points at, from the record's own text (None when
    the line is outside it)."""
    lines = record_lines(reject) if lines is None else lines
    for line in lines:
        if line.number == problem.line:
            return line.text
    if reject.source_game is None:
        return None
    return reject.reader.problem_line(reject.raw_text, problem, lines)  # e.g. a row


def describe(reject: Reject) -> str:
    """``gops rejects --show``: the record, its status, each problem with the line it
    points at (a caret under the column in .gops text), and the record numbered."""
    where = f"game {reject.source_game}, line {reject.source_line}" \
        if reject.source_game is not None else "the whole file"
    status = (f"resolved ({reject.resolution.how.value}, "
              f"{reject.resolution.resolved_at:%Y-%m-%d %H:%M}): {reject.resolution.note}"
              if reject.resolution else "open")
    out = [f"reject {reject.reject_id}: {reject.source}, {where} (quarantined by import "
           f"{reject.import_id})", f"status: {status}", ""]
    lines = record_lines(reject)
    noun = "problem" if len(reject.errors) == 1 else "problems"
    out.append(f"{len(reject.errors)} {noun}:")
    caret = reject.caret
    for p in reject.errors:
        column = f":{p.column}" if p.column else ""
        out.append(f"  {reject.source}:{p.line}{column}: {p.code}: {p.message}")
        text = problem_text(reject, p, lines)
        if text is None:
            if p.line:
                out.append(f"      (line {p.line} is not in the record's text)")
            continue
        shown, col = echo(text, p.column or 1)
        out.append(f"      {p.line:>5} | {shown}")
        if caret and p.column and 1 <= p.column <= len(text) + 1:
            out.append("      " + " " * 8 + " " * (col - 1) + "^")
    out += ["", "The record as written (with its lines in the file):"]
    width = max((len(str(line.number)) for line in lines if line.number), default=1)
    out += [f"  {line.number if line.number else '':>{width}} | {line.text}" for line in lines]
    return "\n".join(out)


# -- re-checking -----------------------------------------------------------------------


@dataclass
class RecheckResult:
    """What :func:`recheck` found: records checked, resolved in all (``resolved``), newly
    resolved and reopened by this check, and a note for open records it learnt about
    (e.g. fixed in the file but not imported yet)."""

    checked: int = 0
    resolved: int = 0
    newly_resolved: list[str] = field(default_factory=list)
    reopened: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def open(self) -> int:
        return self.checked - self.resolved


@dataclass(frozen=True, slots=True)
class _Found:
    how: ResolvedHow
    game_id: int | None
    note: str


def recheck(con: duckdb.DuckDBPyConnection, *, read_files: bool = True,
            encoding: str = "utf-8", now: datetime | None = None) -> RecheckResult:
    """Re-check every quarantined record and store which are resolved (the caller's
    connection must be read-write; this runs in one transaction). The rules, in order:
    the same file and position now holds a valid stored game with the same players
    (``fixed``); a stored game has the record's identifying tags and players
    (``same-game``); reading the file again (``read_files``: the file its import read, at
    the absolute path the import kept, when it is still there and its bytes changed)
    finds it no longer holds the record as written (``fixed`` or ``removed``; see
    docs/schema.md). A file missing at its path, or a reject whose import kept no path
    (a gops before schema 13) and whose name is relative, stays open with a note."""
    rejects = list_rejects(con)
    result = RecheckResult(checked=len(rejects))
    records = {r.reject_id: identity_of(r) for r in rejects}
    origins = _Origins(con)
    found: dict[str, _Found] = {}
    _same_position(con, rejects, records, origins, found)
    _same_game(con, [r for r in rejects if r.reject_id not in found], records, found)
    if read_files:
        _from_files(con, [r for r in rejects if r.reject_id not in found], encoding, origins,
                    found, result.notes)
    before = {r.reject_id for r in rejects if r.resolved}
    result.resolved = len(found)
    result.newly_resolved = [r.reject_id for r in rejects
                             if r.reject_id in found and r.reject_id not in before]
    result.reopened = sorted(before - set(found))
    _store(con, found, now or datetime.now())
    return result


@dataclass(frozen=True, slots=True)
class _Origin:
    """The file an import read: its absolute path, and its bytes' SHA-256 then (None when
    the import did not keep it)."""

    path: str
    sha256: str | None


class _Origins:
    """Where each import's files were (``imports.source_paths``, ``source_sha256``)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.kept: dict[tuple[int, str], _Origin] = {
            (import_id, source): _Origin(path, sha256)
            for import_id, source, path, sha256 in con.execute(
                "SELECT import_id, unnest(sources), unnest(source_paths), "
                "unnest(source_sha256) FROM imports WHERE source_paths IS NOT NULL").fetchall()
            if source is not None and path is not None}

    def of(self, import_id: int, source: str) -> _Origin | None:
        """The file ``import_id`` read under the name ``source``: as kept, else the name
        itself when it is absolute (an older import named it so); None when it cannot be
        known (a relative name from an import that kept no paths)."""
        kept = self.kept.get((import_id, source))
        if kept is not None:
            return kept
        return _Origin(source, None) if os.path.isabs(source) else None


def _same_position(con: duckdb.DuckDBPyConnection, rejects: list[Reject],
                   records: dict[str, Identity | None], origins: _Origins,
                   found: dict[str, _Found]) -> None:
    """Rule 1: a game stored from the same file (the same absolute path, both known) and
    position by a later import, with the same players in the same seats."""
    keyed = pl.DataFrame({
        "reject_id": [r.reject_id for r in rejects if r.source_game is not None],
        "source": [r.source for r in rejects if r.source_game is not None],
        "source_game": [r.source_game for r in rejects if r.source_game is not None],
        "import_id": [r.import_id for r in rejects if r.source_game is not None],
    }, schema={"reject_id": pl.String, "source": pl.String, "source_game": pl.Int32,
               "import_id": pl.Int32})
    if keyed.is_empty():
        return
    rows = [row for reader, part in _by_reader(keyed)
            for row in reader.same_position(con, part)]
    by_id = {r.reject_id: r for r in rejects}
    for reject_id, game_id, import_id, players in rows:
        record = records.get(reject_id)
        reject = by_id[reject_id]
        there, here = origins.of(reject.import_id, reject.source), origins.of(import_id,
                                                                               reject.source)
        if there is None or here is None or here.path != there.path:
            continue  # the same name, maybe in another folder: not known to be the same file
        if record is not None and record.players == list(players):
            found[reject_id] = _Found(ResolvedHow.FIXED, int(game_id),
                                      f"game {reject.source_game} of {reject.source} is now "
                                      f"valid and stored ({game_ref(game_id)})")


def _same_game(con: duckdb.DuckDBPyConnection, rejects: list[Reject],
               records: dict[str, Identity | None], found: dict[str, _Found]) -> None:
    """Rule 2: a stored game with the record's identity (its reader's rule: for a Gops
    record, its Event, Site, Date, Round and Match tags and its players)."""
    wanted: dict[int, tuple[FileReader, list[tuple[str, Identity]]]] = {}
    for r in rejects:
        record = records.get(r.reject_id)
        if record is not None:
            reader = r.reader
            wanted.setdefault(id(reader), (reader, []))[1].append((r.reject_id, record))
    for reader, identities in wanted.values():
        for reject_id, game_id in reader.same_game(con, identities):
            found[reject_id] = _Found(ResolvedHow.SAME_GAME, int(game_id),
                                      f"the same game (tags and players) is stored as "
                                      f"{game_ref(game_id)}")


@dataclass
class FileNow:
    """What reading a file gives now, gathered batch by batch (by a re-check, or by the
    import that reads it): its rejects' ids and positions, its valid records by position
    (their stored ids), and whether it could be read as records at all."""

    reader: FileReader
    reject_ids: set[str] = field(default_factory=set)
    reject_positions: set[int] = field(default_factory=set)
    games: dict[int, int] = field(default_factory=dict)
    readable: bool = True

    def add(self, batch: Batch) -> None:
        """Take in one batch the file's reader gave."""
        rejects = batch["rejects"]
        if not isinstance(batch, RejectsOnly):
            self.games.update(self.reader.positions(batch))
        self.reject_ids.update(rejects["reject_id"].to_list())
        for position in rejects["source_game"].to_list():
            if position is None:
                self.readable = False
            else:
                self.reject_positions.add(position)


def _read_now(source: str, data: bytes, encoding: str) -> FileNow:
    """What the file's ``data`` gives now, read as the importer reads a file named
    ``source`` (its name decides how it is read)."""
    now = FileNow(reader_of(source))
    for batch, _ in read_batches(Path(source), encoding, data=data):
        now.add(batch)
    return now


def _changed(group: list[Reject], origin: _Origin, sha256: str) -> list[Reject]:
    """The rejects of ``group`` that the file's bytes now (``sha256``) can tell about: all
    of them when the bytes changed since their import read them; else only a whole file
    quarantined (read in another encoding its text, not the file, would change: each
    record is still as written)."""
    if origin.sha256 is not None and sha256 == origin.sha256:
        return [r for r in group if r.source_game is None]
    return group


def _from_files(con: duckdb.DuckDBPyConnection, rejects: list[Reject], encoding: str,
                origins: _Origins, found: dict[str, _Found], notes: dict[str, str]) -> None:
    """Rule 3: read each reject's file again, as the importer does: the very file its
    import read (:class:`_Origins`), only when it is still there and its bytes changed."""
    by_file: dict[tuple[str, _Origin], list[Reject]] = {}
    for r in rejects:
        origin = origins.of(r.import_id, r.source)
        if origin is None:
            notes[r.reject_id] = (
                f"unverifiable: import {r.import_id} (by a gops before schema 13) kept no "
                f"absolute path for {r.source}, so its file is not looked for in the folder "
                "gops runs in; a stored game with the record's tags and players still "
                "resolves it")
            continue
        by_file.setdefault((r.source, origin), []).append(r)
    for (source, origin), group in by_file.items():
        try:
            data = read_regular_file(origin.path)
        except GopsError as exc:
            gone = isinstance(exc.__cause__, (FileNotFoundError, NotADirectoryError))
            for r in group:
                notes[r.reject_id] = (
                    f"missing: {origin.path} is no longer there; the record stays open (a "
                    "file gone is no record fixed)" if gone
                    else f"not checked against its file: {exc}")
            continue
        group = _changed(group, origin, file_sha256(data))
        if not group:
            continue
        try:
            now = _read_now(source, data, encoding)
        except (GopsError, OSError):
            continue
        _judge(con, source, group, now, found, notes)


def _judge(con: duckdb.DuckDBPyConnection, source: str, group: list[Reject], now: FileNow,
           found: dict[str, _Found], notes: dict[str, str]) -> None:
    """Rule 3 for the rejects of one file (``group``, its name ``source``) against what
    the file gives now (``now``): each found resolved goes to ``found``, what is learnt
    of an open one to ``notes``. Shared by the re-check and the import."""
    stored = now.reader.stored(con, list(now.games.values()))
    for r in group:
        if r.reject_id in now.reject_ids:
            continue  # still there, as written
        if r.source_game is None:  # a whole file: it reads now
            missing = [g for g in now.games.values() if g not in stored]
            if now.readable and not missing:
                found[r.reject_id] = _Found(ResolvedHow.FIXED, None,
                                            f"{source} now reads as records and all its "
                                            f"{len(now.games)} valid games are stored")
            elif now.readable:
                notes[r.reject_id] = (f"{source} now reads, but {len(missing)} of its "
                                      f"games are not stored: gops import {source}")
            continue
        if not now.readable:
            notes[r.reject_id] = (f"{source} cannot be read now (another --encoding?); "
                                  "not checked against the file")
            continue
        game_id = now.games.get(r.source_game)
        if game_id is not None and game_id in stored:
            if stored[game_id] > r.import_id:
                found[r.reject_id] = _Found(ResolvedHow.FIXED, game_id,
                                            f"game {r.source_game} of {source} is now "
                                            f"valid and stored ({game_ref(game_id)})")
            else:
                found[r.reject_id] = _Found(ResolvedHow.REMOVED, None,
                                            f"{source} no longer holds the record; "
                                            f"game {r.source_game} there is one stored "
                                            "before")
        elif game_id is not None:
            notes[r.reject_id] = (f"game {r.source_game} of {source} is valid now but not "
                                  f"imported: gops import {source}")
        elif r.source_game in now.reject_positions:
            notes[r.reject_id] = (f"game {r.source_game} of {source} was changed but is "
                                  f"still broken: gops validate {source}")
        else:
            found[r.reject_id] = _Found(ResolvedHow.REMOVED, None,
                                        f"{source} no longer holds the record")


# -- resolving within an import -------------------------------------------------------

#: Each import's files: the name it stored them under, the absolute path it kept.
_KEPT_PATHS = ("SELECT import_id, unnest(sources) AS source, unnest(source_paths) AS path "
               "FROM imports WHERE source_paths IS NOT NULL")
#: The open rejects, each with the absolute path of its file when it is known (kept by
#: its import, else its name when that is absolute), as :meth:`_Origins.of` finds it.
_OPEN_WITH_PATH = f"""
    SELECT r.reject_id, r.import_id, coalesce(k.path, r.source) AS path
    FROM rejects r LEFT JOIN ({_KEPT_PATHS}) k USING (import_id, source)
    WHERE r.reject_id NOT IN (SELECT reject_id FROM reject_resolutions)
"""


def open_reject_paths(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """The absolute paths of the files that hold open rejects: an import that reads one
    of them gathers what it holds now (:class:`FileNow`) for :func:`resolve_imported`."""
    return frozenset(path for (path,) in con.execute(
        f"SELECT DISTINCT path FROM ({_OPEN_WITH_PATH}) WHERE path IS NOT NULL").fetchall())


@dataclass(frozen=True, slots=True)
class ImportedFile:
    """A file an import read: its name as stored, its absolute path, the SHA-256 of its
    bytes and what reading them gave."""

    source: str
    path: str
    sha256: str
    now: FileNow


def resolve_imported(con: duckdb.DuckDBPyConnection, import_id: int,
                     files: Iterable[ImportedFile], now: datetime | None = None
                     ) -> dict[ResolvedHow, int]:
    """Mark resolved the open rejects whose file import ``import_id`` has just read, by
    rule 3 of the re-check (:func:`_judge`, the same code): a reject quarantined by an
    earlier import from the same absolute path, when the bytes read now differ and no
    longer hold the record as written, is ``fixed`` when the record now at its position
    is valid and stored by a later import than its own (this one, typically), and
    ``removed`` when nothing valid stands there or a game stored before it does.

    Runs inside the import's transaction (a rollback leaves the rejects open) and writes
    only new rows of ``reject_resolutions``. Returns how many were resolved, by how."""
    by_path = {f.path: f for f in files}
    if not by_path:
        return {}
    paths = pl.DataFrame({"path": list(by_path)}, schema={"path": pl.String})  # noqa: F841
    rows = con.execute(
        _SELECT + f" WHERE r.reject_id IN (SELECT reject_id FROM ({_OPEN_WITH_PATH}) "
        "WHERE import_id < ? AND path IN (SELECT path FROM paths))" + _ORDER,
        [import_id]).fetchall()
    origins = _Origins(con)
    groups: dict[tuple[str, _Origin], list[Reject]] = {}
    for reject in map(_reject, rows):
        origin = origins.of(reject.import_id, reject.source)
        if origin is not None and origin.path in by_path:
            groups.setdefault((reject.source, origin), []).append(reject)
    found: dict[str, _Found] = {}
    for (source, origin), group in groups.items():
        read = by_path[origin.path]
        changed = _changed(group, origin, read.sha256)
        if changed:
            _judge(con, source, changed, read.now, found, {})
    if found:
        fresh = _found_frame(found)  # noqa: F841  (read by name in the SQL)
        con.execute("INSERT INTO reject_resolutions SELECT reject_id, ?::TIMESTAMP, how, "
                    "game_id, note FROM fresh ANTI JOIN reject_resolutions USING (reject_id)",
                    [now or datetime.now()])
    counts: dict[ResolvedHow, int] = {}
    for f in found.values():
        counts[f.how] = counts.get(f.how, 0) + 1
    return counts


def _by_reader(frame: pl.DataFrame) -> Iterable[tuple[FileReader, pl.DataFrame]]:
    """``frame``'s rows (one a reject, with its ``source``) by the reader of their file."""
    readers: dict[int, tuple[FileReader, list[int]]] = {}
    for i, source in enumerate(frame["source"].to_list()):
        reader = reader_of(source)
        readers.setdefault(id(reader), (reader, []))[1].append(i)
    for reader, rows in readers.values():
        yield reader, frame[rows]


def _found_frame(found: dict[str, _Found]) -> pl.DataFrame:
    """``found`` as rows of ``reject_resolutions`` (without ``resolved_at``)."""
    return pl.DataFrame({
        "reject_id": list(found), "how": [f.how.value for f in found.values()],
        "game_id": [f.game_id for f in found.values()],
        "note": [f.note for f in found.values()],
    }, schema={"reject_id": pl.String, "how": pl.String, "game_id": pl.UInt64,
               "note": pl.String})


def _store(con: duckdb.DuckDBPyConnection, found: dict[str, _Found], now: datetime) -> None:
    """Make ``reject_resolutions`` hold exactly ``found``, keeping when each was first
    found resolved; one transaction."""
    current = _found_frame(found)  # noqa: F841  (read by name in the SQL)
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("DELETE FROM reject_resolutions WHERE reject_id NOT IN "
                    "(SELECT reject_id FROM current)")
        con.execute("UPDATE reject_resolutions r SET how = c.how, game_id = c.game_id, "
                    "note = c.note FROM current c WHERE r.reject_id = c.reject_id")
        con.execute("INSERT INTO reject_resolutions SELECT reject_id, ?::TIMESTAMP, how, "
                    "game_id, note FROM current ANTI JOIN reject_resolutions USING (reject_id)",
                    [now])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _first_error(r: Reject) -> str:
    """'line L, column C: message' of the first problem (as the Data quality page shows)."""
    if not r.errors:
        return ""
    p = r.errors[0]
    return f"line {p.line or '?'}, column {p.column or '?'}: {p.message}"


def reject_frame(rows: list[Reject]) -> pl.DataFrame:
    """Quarantined records as a table (the dashboard's): reject_id, import_id, source,
    source_game, source_line, codes (text), n_errors, first_error ('line L, column C:
    message'), status ('open', or 'resolved: ' and how), note (how it was found
    resolved), raw_text, errors (list of structs)."""
    return pl.DataFrame({
        "reject_id": [r.reject_id for r in rows], "import_id": [r.import_id for r in rows],
        "source": [r.source for r in rows], "source_game": [r.source_game for r in rows],
        "source_line": [r.source_line for r in rows],
        "codes": [", ".join(r.codes) for r in rows],
        "n_errors": [len(r.errors) for r in rows],
        "first_error": [_first_error(r) for r in rows],
        "status": [f"resolved: {r.resolution.how.value}" if r.resolution else "open"
                   for r in rows],
        "note": [r.resolution.note if r.resolution else "" for r in rows],
        "raw_text": [r.raw_text for r in rows],
        "errors": [[p.as_dict() for p in r.errors] for r in rows],
    }, schema={"reject_id": pl.String, "import_id": pl.Int64, "source": pl.String,
               "source_game": pl.Int64, "source_line": pl.Int64, "codes": pl.String,
               "n_errors": pl.Int64, "first_error": pl.String, "status": pl.String,
               "note": pl.String, "raw_text": pl.String,
               "errors": pl.List(pl.Struct({"code": pl.String, "message": pl.String,
                                            "line": pl.Int64, "column": pl.Int64,
                                            "round": pl.Int64}))})
