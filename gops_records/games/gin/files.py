"""The Gin Rummy readers of files: ``.gin`` full hands and ``.ginsheet`` score sheets.

Each is the object a Gin Rummy :class:`~gops_records.core.registry.FileKind` names
(``GIN_READER``, ``SHEET_READER``) and follows the shared layers'
:class:`~gops_records.core.reading.FileReader` protocol. Both read through
:func:`gops_records.games.gin.checking.read_gin_source`, so ``gops validate`` says of a
file what ``gops import`` stores. A score sheet is checked against full hands: in a
``gops validate`` run those of the ``.gin`` files read before it (the run's
:class:`~gops_records.games.gin.sheet_check.FullHands`, kept between files), in an import
those stored (read after the hands: the sheet's notation has the later ``order``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import duckdb
import polars as pl

from gops_records.core.errors import DecodeError
from gops_records.core.problems import Problem
from gops_records.core.reading import (
    Batch,
    Identity,
    LoadSession,
    RecordLine,
    not_text,
    split_lines,
)
from gops_records.core.sources import decode
from gops_records.core.verdicts import Checked
from gops_records.games.gin import store
from gops_records.games.gin.checking import check_gin_bytes, read_gin_source
from gops_records.games.gin.frames import GinFrames, gin_frames
from gops_records.games.gin.sheet_check import FullHands


@dataclass(frozen=True, slots=True)
class GinReader:
    """The reader of one Gin Rummy notation: ``kind`` is ``gin`` or ``ginsheet``."""

    kind: str
    #: a problem's column counts characters: a caret goes under it
    caret: bool = True

    @property
    def records(self) -> str:
        """What a file of this notation holds, as notes name them."""
        return "sheets" if self.kind == "ginsheet" else "hands"

    # -- gops validate ---------------------------------------------------------------------

    def check_state(self) -> FullHands:
        """The full hands read so far in the run, for the sheets read after them."""
        return FullHands()

    def check(self, data: bytes, source: str, encoding: str, *, readable: bool,
              workers: int | None, state: FullHands, notes: list[str]
              ) -> Iterator[Checked]:
        return check_gin_bytes(data, source, encoding, readable=readable, full=state,
                               notes=notes)

    # -- gops import -----------------------------------------------------------------------

    def session(self, con: duckdb.DuckDBPyConnection, import_id: int,
                batch_games: int) -> store.GinLoad:
        return store.GinLoad(con, import_id)

    def batches(self, data: bytes, source: str, encoding: str, *, batch_games: int,
                notes: list[str], session: LoadSession | None
                ) -> Iterator[tuple[Batch, int]]:
        """The file's hands or sheets, window by window; a file that is not text in
        ``encoding`` is quarantined whole. Sheets are checked against the hands the
        import's ``session`` has stored (none when the file is only read again)."""
        try:
            text = decode(data, encoding, source)
        except DecodeError as exc:
            yield not_text(data, encoding, source, exc, notes)
            return
        full = session.full_hands() if self.kind == "ginsheet" and \
            isinstance(session, store.GinLoad) else None
        done = records = 0
        for batch in read_gin_source(text, source, full):
            records += len(batch.records)
            notes.extend(batch.notes)
            consumed = round(len(data) * batch.end / max(len(text), 1))
            yield gin_frames(batch), consumed - done
            done = consumed
        if not records:
            notes.append(f"{source}: no {self.records} found (only comments or blank lines)")

    def positions(self, batch: Batch) -> Mapping[int, int]:
        return batch.positions if isinstance(batch, GinFrames) else {}

    # -- the quarantine --------------------------------------------------------------------

    def stored(self, con: duckdb.DuckDBPyConnection, ids: Sequence[int]) -> dict[int, int]:
        return store.stored(con, list(ids))

    def identity(self, raw_text: str) -> Identity | None:
        return None  # a hand or a sheet is no Gops game: it is found by its file alone

    def lines(self, raw_text: str, source_game: int | None, source_line: int | None,
              errors: Sequence[Problem]) -> list[RecordLine]:
        """The record's text, numbered from its first line in the file."""
        start = 1 if source_game is None else source_line or 1
        return [RecordLine(start + i, t) for i, t in enumerate(split_lines(raw_text))]

    def problem_line(self, raw_text: str, problem: Problem, lines: list[RecordLine]
                     ) -> str | None:
        return None  # every line of a record is numbered

    def same_position(self, con: duckdb.DuckDBPyConnection, keyed: pl.DataFrame
                      ) -> list[tuple[str, int, int, list[str]]]:
        return []  # a record has no identity to compare (see identity)

    def same_game(self, con: duckdb.DuckDBPyConnection,
                  wanted: Sequence[tuple[str, Identity]]) -> list[tuple[str, int]]:
        return []


GIN_READER = GinReader("gin")
SHEET_READER = GinReader("ginsheet")
