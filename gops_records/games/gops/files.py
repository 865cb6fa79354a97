"""The Gops readers of files: ``.gops`` records and CSV / JSONL round logs.

Each is the object a Gops :class:`~gops_records.core.registry.FileKind` names
(``GOPS_READER``, ``CSV_READER``, ``JSONL_READER``) and follows the shared layers'
:class:`~gops_records.core.reading.FileReader` protocol: ``gops validate`` checks through
:mod:`gops_records.games.gops.checking`, ``gops import`` reads batches of frames
(:mod:`gops_records.games.gops.replay`, :mod:`gops_records.games.gops.roundlogs`) and
stores them through :class:`gops_records.games.gops.store.GopsLoad`, and the quarantine
reads a rejected record back (its players and tags, its lines in the file).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import duckdb
import polars as pl

from gops_records.core.errors import DecodeError, GopsError
from gops_records.core.problems import Problem
from gops_records.core.reading import (
    Batch,
    Identity,
    LoadSession,
    RecordLine,
    line_of,
    not_text,
    split_lines,
    whole_file_reject,
)
from gops_records.core.verdicts import Checked
from gops_records.games.gops import checking, store
from gops_records.games.gops.notation.model import GameRecord
from gops_records.games.gops.replay.chunks import chunk_bytes_for, record_body
from gops_records.games.gops.replay.chunks import read_file as read_records
from gops_records.games.gops.replay.frames import ChunkGames, Frames
from gops_records.games.gops.roundlogs import (
    LineTooLong,
    RoundLogError,
    read_round_log,
    round_log_games,
)

#: Tags that, with the players, say which game a record is (the quarantine's rule 2).
IDENTITY_TAGS = ("Event", "Site", "Date", "Round", "Match")


@dataclass(frozen=True, slots=True)
class GopsReader:
    """The reader of one Gops notation: ``kind`` is ``gops``, ``csv`` or ``jsonl``."""

    kind: str

    @property
    def round_log(self) -> bool:
        return self.kind != "gops"

    @property
    def caret(self) -> bool:
        """A ``.gops`` problem's column counts characters; a round log's counts fields."""
        return not self.round_log

    # -- gops validate ---------------------------------------------------------------------

    def check_state(self) -> None:
        return None  # each Gops file is checked on its own

    def check(self, data: bytes, source: str, encoding: str, *, readable: bool,
              workers: int | None, state: None, notes: list[str]) -> Iterator[Checked]:
        if self.round_log:
            return checking.check_round_log(data, source, self.kind, encoding,
                                            readable=readable)
        return checking.check_bytes(data, source, encoding, readable=readable, workers=workers)

    # -- gops import -----------------------------------------------------------------------

    def session(self, con: duckdb.DuckDBPyConnection, import_id: int,
                batch_games: int) -> store.GopsLoad:
        return store.GopsLoad(con, import_id, batch_games)

    def batches(self, data: bytes, source: str, encoding: str, *, batch_games: int,
                notes: list[str], session: LoadSession | None
                ) -> Iterator[tuple[Batch, int]]:
        if self.round_log:
            yield from _round_log_batches(data, self.kind, source, encoding, notes)
            return
        try:  # records stay UTF-8 bytes (no 2-bytes-a-character str)
            text = record_body(data, encoding, source)
        except DecodeError as exc:
            yield not_text(data, encoding, source, exc, notes)
            return
        yield from _record_batches(text, source, len(data), batch_games, notes)

    def positions(self, batch: Batch) -> Mapping[int, int]:
        valid = batch["games"]
        return dict(zip(valid["source_game"].to_list(), valid["game_id"].to_list(),
                        strict=True))

    # -- the quarantine --------------------------------------------------------------------

    def stored(self, con: duckdb.DuckDBPyConnection, ids: Sequence[int]) -> dict[int, int]:
        return store.stored(con, list(ids))

    def record(self, raw_text: str) -> GameRecord | None:
        """The record read back from its text (its tags and rounds), None if it reads as
        none."""
        try:
            if self.round_log:
                games = read_round_log(raw_text, self.kind)
                return games[0].record if games else None
            from gops_records.games.gops.reading import parse

            records = parse(raw_text)
            return records[0] if records else None
        except (RoundLogError, GopsError):
            return None

    def identity(self, raw_text: str) -> Identity | None:
        record = self.record(raw_text)
        return None if record is None else Identity(record.players, dict(record.tags))

    def lines(self, raw_text: str, source_game: int | None, source_line: int | None,
              errors: Sequence[Problem]) -> list[RecordLine]:
        """A ``.gops`` record is one slice of its file, from its first token (a comment
        before the tags included) while ``source_line`` is the line of its first tag or
        round: the slice starts that many lines earlier. A round log's record is the
        header (line 1) and the game's rows, which may stand between other games' rows:
        each row is numbered from its problems' lines, all of them when they agree the
        rows are consecutive."""
        texts = _split(raw_text, self.round_log)
        if source_game is None:  # a whole file
            return [RecordLine(i + 1, t) for i, t in enumerate(texts)]
        if not self.round_log:
            record = self.record(raw_text)
            local = record.line if record is not None and record.line else 1
            start = (source_line or local) - (local - 1)
            return [RecordLine(start + i, t) for i, t in enumerate(texts)]
        return self._round_log_lines(raw_text, source_line, errors, texts)

    def _round_log_lines(self, raw_text: str, source_line: int | None,
                         errors: Sequence[Problem], texts: list[str]) -> list[RecordLine]:
        games = read_round_log(raw_text, self.kind) if texts else []
        if not games:
            return [RecordLine(None, t) for t in texts]
        record = games[0].record
        row_of_round = {r.number: r.span.line for r in record.rounds if r.span is not None}
        known = {games[0].line: source_line} if source_line else {}
        for p in errors:
            if p.round in row_of_round and p.line:
                known.setdefault(row_of_round[p.round], p.line)
        header = 1 if self.kind == "csv" else None
        offsets = {file - local for local, file in known.items() if file is not None}
        out = []
        for local, text in enumerate(texts, start=1):
            if local == header:
                out.append(RecordLine(1, text))
            elif len(offsets) == 1:
                out.append(RecordLine(local + next(iter(offsets)), text))
            else:
                out.append(RecordLine(known.get(local), text))
        return out

    def problem_line(self, raw_text: str, problem: Problem, lines: list[RecordLine]
                     ) -> str | None:
        """A round log's row a problem's round points at, even unnumbered."""
        if not self.round_log or problem.round is None:
            return None
        record = self.record(raw_text)
        for r in record.rounds if record is not None else ():
            if r.number == problem.round and r.span is not None and r.span.line <= len(lines):
                return lines[r.span.line - 1].text
        return None

    def same_position(self, con: duckdb.DuckDBPyConnection, keyed: pl.DataFrame
                      ) -> list[tuple[str, int, int, list[str]]]:
        return store.same_position(con, keyed)

    def same_game(self, con: duckdb.DuckDBPyConnection,
                  wanted: Sequence[tuple[str, Identity]]) -> list[tuple[str, int]]:
        """Games with a record's Event, Site, Date, Round and Match tags and its players,
        for records that name their players and give a Date and a Round."""
        keys = []
        for reject_id, identity in wanted:
            tags = identity.tags
            named = all(seat in tags for seat in ("A", "B"))
            if named and tags.get("Date") and tags.get("Round"):
                keys.append({"reject_id": reject_id,
                             **{t.lower(): tags.get(t) for t in IDENTITY_TAGS},
                             "players": identity.players})
        if not keys:
            return []
        return store.same_game(con, pl.DataFrame(keys, schema={
            "reject_id": pl.String, "event": pl.String, "site": pl.String, "date": pl.String,
            "round": pl.String, "match": pl.String, "players": pl.List(pl.String)}))


def _split(text: str, round_log: bool) -> list[str]:
    """Lines as the file counts them: LF, CRLF or a lone CR in .gops; LF in round logs."""
    if not round_log:
        return split_lines(text)
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines or [""]


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
                       notes: list[str]) -> Iterator[tuple[Batch, int]]:
    """A round log's games, read as ``gops validate`` reads them
    (:func:`~gops_records.games.gops.roundlogs.round_log_games`); a file that is not a
    round log is quarantined whole."""
    try:
        games = round_log_games(data, kind, source, encoding)
    except DecodeError as exc:
        yield whole_file_reject(data, encoding, source,
                                Problem("encoding", str(exc), line_of(exc), 1)), len(data)
        notes.append(str(exc))
        return
    except RoundLogError as exc:
        notes.append(str(exc) if isinstance(exc, LineTooLong) else f"{source}: {exc}")
        yield whole_file_reject(data, encoding, source,
                                Problem(exc.code, str(exc), exc.line, 1)), len(data)
        return
    if games is None:
        notes.append(f"{source}: no rounds found")
        return
    yield Frames(games.frames(), games.game_ids()), len(data)


GOPS_READER = GopsReader("gops")
CSV_READER = GopsReader("csv")
JSONL_READER = GopsReader("jsonl")
