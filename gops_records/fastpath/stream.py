"""A whole .gops file as frames, chunk by chunk: the fast path first, the exact path for
everything it leaves.

The text is cut into chunks of about ``chunk_bytes`` at terminator lines. In each chunk
the fast path takes the plain, valid games (:mod:`.games`); the rest (complex layouts,
games with any problem, text it cannot place) goes through the notation parser, the
validator and :class:`~gops_records.store.frames.Batch` unchanged, so rejects keep
their exact messages. Games are numbered as the parser numbers them over the whole
file, lines are the file's lines, and the frames of a chunk list games in file order.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.fastpath.build import FastFrames
from gops_records.fastpath.games import Replayed, replay
from gops_records.fastpath.lines import LineBook
from gops_records.fastpath.scan import Lines, Units, find_units, split_lines
from gops_records.notation import iter_games
from gops_records.notation.model import Problem
from gops_records.sources import decode
from gops_records.store.frames import Batch
from gops_records.validate import validate_game

#: Bytes of text a simulated two-player game takes, about.
BYTES_PER_GAME = 420
#: Bytes of text per chunk: about 20,000 simulated games.
CHUNK_BYTES = 20_000 * BYTES_PER_GAME
#: Threads checking and replaying chunks (the machine this was tuned on has 2 cores).
WORKERS = 2
_TERMINATOR_LINE = re.compile(rb"\n[ \t]*(?:[0-9]+(?:-[0-9]+)+|\*)[ \t\r]*\n")
_TABLES = ("games", "game_players", "round_rows", "rejects")
_EMPTY = Batch().frames()


class ChunkTables(Mapping[str, pl.DataFrame]):
    """A chunk's frames by table, built when first asked for (a re-import of known games
    only needs :meth:`game_ids`). ``source_game`` counts from ``offset``, the number of
    games before the chunk, known once the chunks before it are done."""

    def __init__(self, game_ids: pl.Series, build: Callable[[str], pl.DataFrame]) -> None:
        self._game_ids = game_ids
        self._build = build
        self._built: dict[str, pl.DataFrame] = {}
        self.offset = 0

    def game_ids(self) -> pl.Series:
        """The ``game_id`` column of the games frame, without building the frame."""
        return self._game_ids

    def prepare(self) -> None:
        """Build every frame now (in a worker thread, while the caller loads others)."""
        for table in _TABLES:
            self._frame(table)

    @property
    def used(self) -> bool:
        """Whether the child frames were asked for."""
        return "round_rows" in self._built

    def _frame(self, table: str) -> pl.DataFrame:
        if table not in self._built:
            self._built[table] = self._build(table)
        return self._built[table]

    def __getitem__(self, table: str) -> pl.DataFrame:
        frame = self._frame(table)
        if self.offset and table in ("games", "rejects"):
            frame = frame.with_columns(pl.col("source_game") + self.offset)
        return frame

    def __iter__(self) -> Iterator[str]:
        return iter(_TABLES)

    def __len__(self) -> int:
        return len(_TABLES)


@dataclass
class ChunkFrames:
    """One chunk's frames (games in file order), the bytes it used and its game count.

    Like :class:`~gops_records.store.frames.Batch` it has ``frames()`` and a length.
    """

    tables: ChunkTables
    consumed: int
    games: int
    fast_games: int
    lines: int = 0

    def frames(self) -> ChunkTables:
        return self.tables

    def __len__(self) -> int:
        return self.games


def chunk_bytes_for(games: int) -> int:
    """Chunk size for about ``games`` games a batch (a simulated game takes ~420 bytes)."""
    return max(1, games) * BYTES_PER_GAME


def record_body(data: bytes, encoding: str = "utf-8", name: str = "<bytes>") -> bytes | memoryview:
    """A record file's text as UTF-8 bytes without a BOM, for :func:`record_frames`.

    UTF-8 input is checked in place (no copy); other encodings are decoded and
    re-encoded. Raises DecodeError exactly as :func:`~gops_records.sources.decode` does.
    """
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        body = memoryview(data)[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) \
            else memoryview(data)
        if _valid_utf8(body):
            return body
    return decode(data, encoding, name).encode("utf-8")


def _valid_utf8(body: memoryview) -> bool:
    """Whether ``body`` is valid UTF-8 (checked by Arrow, in two halves at once when big)."""
    cut = len(body) // 2
    cut = bytes(body[cut:cut + 4096]).find(b"\n") + cut + 1 if len(body) > 1 << 24 else 0
    parts = [body[:cut], body[cut:]] if cut > len(body) // 2 else [body]

    def check(part: memoryview) -> bool:
        offsets = pa.py_buffer(np.array([0, len(part)], np.int64))
        try:
            pa.LargeStringArray.from_buffers(1, offsets, pa.py_buffer(part)).validate(full=True)
        except pa.ArrowInvalid:
            return False
        return True

    if len(parts) == 1:
        return check(body)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return all(pool.map(check, parts))


def record_frames(data: bytes | memoryview, source: str, *, chunk_bytes: int = CHUNK_BYTES,
                  workers: int = WORKERS) -> Iterator[ChunkFrames]:
    """Frames of every game in ``data`` (UTF-8 .gops text without a BOM), chunk by chunk.

    Chunks are cut at terminator lines and handed to ``workers`` threads (numpy,
    polars and DuckDB release the GIL), a few ahead of the caller, who is left free to
    load the frames. A chunk is cut before the one ahead of it is read, on the guess
    that the whole of that one is safe to take; when it is not (a comment left open
    across the cut), the chunks after it are dropped and cut again from where it ended.
    """
    book = LineBook()
    size = len(data)
    newline = np.frombuffer(data, np.uint8)
    pending: deque[tuple[int, int, int, Future[ChunkFrames]]] = deque()
    pos, line, games, want = 0, 1, 0, chunk_bytes
    eager = False  # the caller builds every frame: build them ahead, in the workers
    with ThreadPoolExecutor(max_workers=workers) as pool:
        try:
            while True:
                while pos < size and len(pending) <= workers:
                    end = _cut(data, pos + want)
                    pending.append((pos, end, line, pool.submit(
                        _work, data, pos, end, end >= size, line, book, source, eager)))
                    line += int(np.count_nonzero(newline[pos:end] == 10))
                    pos = end
                if not pending:
                    return
                start, end, first_line, future = pending.popleft()
                result = future.result()
                if result.consumed < end - start:  # the chunks ahead start in the wrong place
                    for *_, later in pending:
                        later.cancel()
                    pending.clear()
                    pos, line = start + result.consumed, first_line + result.lines
                    if not result.consumed:  # one region longer than the chunk: read more
                        want *= 2
                        continue
                want = chunk_bytes
                result.tables.offset = games
                games += result.games
                yield result
                eager = result.tables.used
        finally:
            for *_, later in pending:
                later.cancel()


def _work(data: bytes | memoryview, start: int, end: int, at_eof: bool, first_line: int,
          book: LineBook, source: str, eager: bool) -> ChunkFrames:
    """One chunk, in a worker thread: its lines, its units, then both paths over them."""
    lines = split_lines(memoryview(data)[start:end], book)
    units = find_units(lines, at_eof)
    used_lines = int(units.start[-1])
    if not used_lines:
        return ChunkFrames(ChunkTables(pl.Series([], dtype=pl.UInt64), _EMPTY.__getitem__),
                           0, 0, 0, 0)
    result = _chunk_frames(lines, units, source, first_line, eager)
    result.consumed = int(lines.offsets[used_lines])
    result.lines = used_lines
    return result


def _cut(data: bytes | memoryview, target: int) -> int:
    """The end of the first terminator line at or after ``target`` (or the end)."""
    if target >= len(data):
        return len(data)
    m = _TERMINATOR_LINE.search(data, target - 1)
    return m.end() if m else len(data)


def _chunk_frames(lines: Lines, units: Units, source: str, first_line: int,
                  eager: bool) -> ChunkFrames:
    """Both paths over one chunk; games are numbered from 1 (the caller adds an offset)."""
    book = lines.book
    rep = replay(lines, units, book, first_line)
    fast = np.zeros(units.count, bool)
    fast[rep.unit] = True
    # runs of units taken by the same path, in file order
    edges = np.flatnonzero(np.diff(fast.astype(np.int8))) + 1
    run_first = np.concatenate([[0], edges]).astype(np.int64)[:units.count]
    run_end = np.append(edges, units.count).astype(np.int64)[:units.count]
    per_unit = fast.astype(np.int64)
    exact_runs = []
    for first, end in zip(run_first, run_end, strict=True):
        if fast[first]:
            continue
        begin, stop = int(units.start[first]), int(units.start[end])
        text = str(lines.data[int(lines.offsets[begin]):int(lines.offsets[stop])], "utf-8")
        records = list(iter_games(text))
        per_unit[end - 1] += len(records)
        exact_runs.append((int(first), int(end), records, text, first_line + begin))
    number = np.cumsum(per_unit)  # source_game of each unit's last game
    fast_frames = FastFrames(rep, book, source, number[rep.unit].astype(np.int32))
    exact = {first: _exact_frames(records, text, source, int(number[end - 1]) - len(records) + 1,
                                  line)
             for first, end, records, text, line in exact_runs}
    slices = _fast_slices(rep, run_first, fast)
    order = sorted([*slices, *exact])
    children: dict[str, pl.DataFrame] = {}

    def fast_part(table: str) -> pl.DataFrame:
        if table == "games":
            return fast_frames.games
        if not children:
            children.update(fast_frames.children())
        return children[table]

    def build(table: str) -> pl.DataFrame:
        if table == "rejects":
            return _concat([exact[k]["rejects"] for k in sorted(exact)], table)
        rows = _rows_per_game(rep, table)
        pieces = []
        for k in order:
            if k in exact:
                pieces.append(exact[k][table])
            else:
                g0, g1 = slices[k]
                pieces.append(fast_part(table).slice(int(rows[g0]), int(rows[g1] - rows[g0])))
        return _concat(pieces, table)

    ids = [exact[k]["games"]["game_id"] if k in exact else
           fast_frames.game_id.slice(slices[k][0], slices[k][1] - slices[k][0]) for k in order]
    game_ids = pl.concat(ids) if ids else pl.Series("game_id", [], dtype=pl.UInt64)
    tables = ChunkTables(game_ids.rename("game_id"), build)
    if eager:
        tables.prepare()
    return ChunkFrames(tables, 0, int(per_unit.sum()), rep.count)


def _concat(frames: list[pl.DataFrame], table: str) -> pl.DataFrame:
    if not frames:
        return _EMPTY[table]
    return frames[0] if len(frames) == 1 else pl.concat(frames)


def _fast_slices(rep: Replayed, run_first: np.ndarray,
                 fast: np.ndarray) -> dict[int, tuple[int, int]]:
    """For each run of fast units (by its first unit), the range of its games."""
    runs = [int(f) for f in run_first if fast[f]]
    bounds = np.append(np.searchsorted(rep.unit, runs), rep.count)
    return {first: (int(bounds[k]), int(bounds[k + 1])) for k, first in enumerate(runs)}


def _rows_per_game(rep: Replayed, table: str) -> np.ndarray:
    """Where each fast game's rows start in ``table`` (one more entry: the end)."""
    per_game = {"games": np.ones(rep.count, np.int64), "game_players": rep.players,
                "round_rows": rep.n_rounds}[table]
    return np.concatenate([[0], np.cumsum(per_game)])


def _exact_frames(records: list, text: str, source: str, first_number: int,
                  first_line: int) -> dict[str, pl.DataFrame]:
    """The exact path for one region: parse, validate, and batch every game in it."""
    batch = Batch()
    shift = first_line - 1
    for number, record in enumerate(records, start=first_number):
        report = validate_game(record)
        if report.valid:
            if shift:
                report = dataclasses.replace(
                    report, record=dataclasses.replace(record, line=record.line + shift))
            batch.add_game(report, source, number)
        else:
            batch.add_reject(text[record.start:record.end], _shifted(report.problems, shift),
                             source, number, record.line + shift)
    return batch.frames()


def _shifted(problems: tuple[Problem, ...], shift: int) -> list[Problem]:
    if not shift:
        return list(problems)
    return [dataclasses.replace(p, line=p.line + shift) if p.line > 0 else p for p in problems]
