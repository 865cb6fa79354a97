"""Reading record files through their game's reader: the protocol and the shared steps.

Each notation a game reads (a :class:`~gops_records.core.registry.FileKind`) names a
reader (``FileKind.reader``, loaded lazily). The shared layers never read a game's file
themselves: ``gops validate`` checks a file's bytes into verdicts
(:meth:`FileReader.check`), ``gops import`` reads it into batches of frames
(:meth:`FileReader.batches`) that the game's load session stores
(:meth:`FileReader.session`), and the quarantine (:mod:`gops_records.core.rejects`) asks
the reader how a rejected record reads and what is stored (:meth:`FileReader.lines`,
:meth:`FileReader.stored`, ...). What every reader shares (an empty file, a file that is
not text, a whole file quarantined) is here: :func:`read_batches` is the one way a file
is read into frames, by the import and by the quarantine's re-check alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Protocol

import duckdb
import numpy as np
import polars as pl

from gops_records.core import registry
from gops_records.core.errors import DecodeError
from gops_records.core.problems import Problem
from gops_records.core.sources import decode, read_regular_file, source_name
from gops_records.core.store.frames import whole_file_rejects
from gops_records.core.store.loader import LoadCounts
from gops_records.core.verdicts import Checked

#: Records read into one batch (about: a reader may cut its batches otherwise).
BATCH_GAMES = 20_000
_BLANK = re.compile(rb"[ \t\n\r\x0b\x0c]*")  # what bytes.strip() removes

#: What storing a batch counted, and notes for the import's summary.
Loaded = tuple[LoadCounts, list[str]]


class Batch(Protocol):
    """A batch of frames a reader gives: tables by name, ``"rejects"`` always among them
    (:data:`~gops_records.core.store.frames.REJECTS_SCHEMA`), and the ids of its valid
    records (``game_ids()``)."""

    def __getitem__(self, table: str) -> pl.DataFrame: ...

    def game_ids(self) -> pl.Series: ...


class LoadSession(Protocol):
    """One import's loading of one game's batches, inside the import's transaction (one
    session per game, shared by the game's notations)."""

    def add(self, batch: Batch) -> Loaded:
        """Store the batch (now or with later ones)."""
        ...

    def flush(self) -> Loaded:
        """Store every batch gathered so far."""
        ...

    def missing(self, ids: np.ndarray) -> int:
        """How many of ``ids`` (a file's valid records, read before) are not stored now."""
        ...

    def finish(self) -> None:
        """After the last flush, before the commit: what the game keeps beside its rows."""
        ...

    def close(self) -> None:
        """Always, after the commit or the rollback: stop any background work."""
        ...


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One line of a quarantined record; ``number`` is its line in the file (None when
    it cannot be known: a round log's row between rows of other games)."""

    number: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Identity:
    """Who played a quarantined record and its tags, read back from its text: what says
    which game it is (the quarantine looks for a stored game with the same)."""

    players: list[str]
    tags: dict[str, str] = field(default_factory=dict)


class FileReader(Protocol):
    """What a game's reader of one notation does for the shared layers."""

    #: Whether a problem's column counts characters (a caret is shown under it) rather
    #: than fields.
    caret: bool

    def check_state(self) -> Any:
        """What one ``gops validate`` run keeps between the game's files (e.g. the full
        hands a later score sheet is checked against); None when nothing."""
        ...

    def check(self, data: bytes, source: str, encoding: str, *, readable: bool,
              workers: int | None, state: Any, notes: list[str]) -> Iterator[Checked]:
        """``gops validate`` of a file's bytes: verdicts (the keys of ``--json``) and, if
        ``readable``, the report lines. Raises DecodeError on bytes that are not text."""
        ...

    def batches(self, data: bytes, source: str, encoding: str, *, batch_games: int,
                notes: list[str], session: LoadSession | None
                ) -> Iterator[tuple[Batch, int]]:
        """A file's records as batches of frames, with the bytes each consumed (not
        called for an empty file). ``session`` is the import's (None when the file is
        only read again, by the quarantine)."""
        ...

    def session(self, con: duckdb.DuckDBPyConnection, import_id: int,
                batch_games: int) -> LoadSession:
        """A load session for one import."""
        ...

    def positions(self, batch: Batch) -> Mapping[int, int]:
        """The batch's valid records: their position in the file -> their stored id."""
        ...

    def stored(self, con: duckdb.DuckDBPyConnection, ids: Sequence[int]) -> dict[int, int]:
        """Which of ``ids`` are stored, with the import that stored each."""
        ...

    def identity(self, raw_text: str) -> Identity | None:
        """Who played a quarantined record and its tags; None when its text does not say
        (or the game keeps no such identity)."""
        ...

    def lines(self, raw_text: str, source_game: int | None, source_line: int | None,
              errors: Sequence[Problem]) -> list[RecordLine]:
        """A quarantined record's text line by line, numbered as in its file
        (``source_game`` None: a whole file)."""
        ...

    def problem_line(self, raw_text: str, problem: Problem, lines: list[RecordLine]
                     ) -> str | None:
        """The text of the line ``problem`` points at when the numbered ``lines`` do not
        hold it (e.g. a round log's row, unnumbered); None when unknown."""
        ...

    def same_position(self, con: duckdb.DuckDBPyConnection, keyed: pl.DataFrame
                      ) -> list[tuple[str, int, int, list[str]]]:
        """Valid records stored from the place of a reject (``keyed``: reject_id, source,
        source_game, import_id) by a later import: (reject_id, id, import_id, players)."""
        ...

    def same_game(self, con: duckdb.DuckDBPyConnection,
                  wanted: Sequence[tuple[str, Identity]]) -> list[tuple[str, int]]:
        """Stored records with the identity of a reject (``wanted``: reject ids and their
        identities): (reject_id, the smallest such id); none for an identity that says
        too little (the reader's rule)."""
        ...


def kind_of(path: str | PurePath) -> tuple[registry.Game, registry.FileKind]:
    """The game and notation of a file by its name; a file of no known suffix (named
    directly) is read as the first notation of the first game."""
    found = registry.file_kind_of(path)
    return found if found is not None else registry.file_kinds()[0]


def reader_of(path: str | PurePath) -> FileReader:
    """The reader of the file at ``path`` (by its name)."""
    return registry.load(kind_of(path)[1].reader)


def read_order(names: list, key=lambda name: name) -> list:
    """``names`` in the order a command reads them: by their notation's ``order`` (a
    notation checked against another's stored records comes after it), else as given."""
    return sorted(names, key=lambda name: kind_of(str(key(name)))[1].order)


def read_file(path: Path) -> bytes:
    """A file's bytes; SourceError if it cannot be read or is not a regular file."""
    return read_regular_file(path)


def read_batches(path: Path, encoding: str = "utf-8", batch_games: int = BATCH_GAMES,
                 notes: list[str] | None = None, *, data: bytes | None = None,
                 session: LoadSession | None = None) -> Iterator[tuple[Batch, int]]:
    """Frames of the valid records and rejects of one file (its ``data`` if given), batch
    by batch, with the bytes each consumed, by the reader its name selects. An empty
    file gives none (and a note)."""
    notes = notes if notes is not None else []
    source = source_name(path)
    data = read_file(path) if data is None else data
    if _BLANK.fullmatch(data):
        notes.append(f"{source}: empty file, no games")
        return
    yield from reader_of(path).batches(data, source, encoding, batch_games=batch_games,
                                       notes=notes, session=session)


@dataclass
class RejectsOnly:
    """A batch holding only rejects (a whole file that could not be read as records)."""

    rejects: pl.DataFrame

    def __getitem__(self, table: str) -> pl.DataFrame:
        if table != "rejects":
            raise KeyError(table)
        return self.rejects

    def game_ids(self) -> pl.Series:
        return pl.Series("game_id", [], dtype=pl.UInt64)


def whole_file_reject(data: bytes, encoding: str, source: str, problem: Problem
                      ) -> RejectsOnly:
    """A batch quarantining a whole file, its text as close to its bytes as text can be."""
    try:
        text = decode(data, encoding, source)
    except DecodeError:  # undecodable bytes are kept as escapes, e.g. \xfc
        text = data.decode("utf-8", errors="backslashreplace")
    return RejectsOnly(whole_file_rejects(text, problem, source))


def not_text(data: bytes, encoding: str, source: str, exc: DecodeError,
             notes: list[str]) -> tuple[RejectsOnly, int]:
    """A file that is not text in ``encoding``: quarantined whole, with a note."""
    notes.append(str(exc))
    return whole_file_reject(data, encoding, source,
                             Problem("encoding", str(exc), line_of(exc), 1)), len(data)


def line_of(exc: DecodeError) -> int:
    """The line a DecodeError names (``...: line N: ...``), else 1."""
    text = str(exc)
    try:
        return int(text.split(": line ", 1)[1].split(":", 1)[0])
    except (IndexError, ValueError):
        return 1


def split_lines(text: str) -> list[str]:
    """A record's lines as a text file counts them (LF, CRLF or a lone CR end a line)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines or [""]
