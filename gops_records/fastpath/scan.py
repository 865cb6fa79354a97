"""Cutting a chunk of record text into lines and units: games for the fast path, or
regions of text for the exact path.

A *segment* is the run of lines up to and including a terminator line. Its game is
the one the exact parser would read there, provided the parser is not inside a
``{...}`` comment at the segment's start. That holds at the start of the text and
after any line that is not ``COMPLEX`` (such lines close every comment they open), so
every segment before the first ``COMPLEX`` line is safe. From a ``COMPLEX`` line on,
the exact parser itself is run until it ends a game at the end of a line: that text
is a *region* for the exact path, and safe segments start again after it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.fastpath.lines import BLANK, COMMENT, COMPLEX, TERM, LineBook
from gops_records.notation import iter_games

#: First window of text the exact parser reads to find where a region ends.
_WINDOW = 1 << 16


@dataclass
class Lines:
    """A chunk's lines: byte offsets (``offsets[i]`` to ``offsets[i + 1]``, newline
    included), their rows in the :class:`LineBook`, and their kinds."""

    data: bytes | memoryview
    offsets: np.ndarray
    rows: np.ndarray
    kind: np.ndarray
    book: LineBook

    @property
    def count(self) -> int:
        return len(self.rows)


@dataclass
class Units:
    """The chunk as consecutive units. ``start[u]`` is the first line of unit ``u``
    (``start[-1]`` is where the units end); ``exact[u]`` says the unit is a region
    for the exact path, else it is a segment ending in a terminator line."""

    start: np.ndarray
    exact: np.ndarray

    @property
    def count(self) -> int:
        return len(self.exact)

    def of_lines(self, n_lines: int) -> np.ndarray:
        """The unit of every line (lines past the last unit get ``count``)."""
        sizes = np.diff(self.start)
        ids = np.repeat(np.arange(self.count, dtype=np.int64), sizes)
        return np.concatenate([ids, np.full(n_lines - len(ids), self.count, np.int64)])


def split_lines(data: bytes | memoryview, book: LineBook) -> Lines:
    """Lines of ``data`` (valid UTF-8), each looked up in ``book``."""
    buf = np.frombuffer(data, np.uint8)
    breaks = np.flatnonzero(buf == 10)
    starts = np.concatenate([[0], breaks + 1])
    if starts[-1] == len(buf):
        starts = starts[:-1]
    offsets = np.append(starts, len(buf)).astype(np.int64)
    array = pa.LargeStringArray.from_buffers(len(starts), pa.py_buffer(offsets),
                                             pa.py_buffer(data))
    rows = book.rows(pl.Series(array)) if len(starts) else np.zeros(0, np.int32)
    return Lines(data, offsets, rows, book.arrays["kind"][rows], book)


def find_units(lines: Lines, at_eof: bool) -> Units:
    """Segments and exact regions, in order. Without ``at_eof``, a trailing part that
    does not end in a safe terminator line is left out (the next chunk re-reads it)."""
    kind = lines.kind
    is_term = kind == TERM
    term_lines = np.flatnonzero(is_term)
    seg_first = np.concatenate([[0], term_lines + 1])
    seg_of = np.cumsum(is_term) - is_term
    starts: list[int] = []
    exact: list[bool] = []
    covered = 0  # lines before this are in units already

    def add_segments(upto: int) -> None:
        """Segments between ``covered`` and the terminator lines before ``upto``."""
        lo = np.searchsorted(term_lines, covered)
        hi = np.searchsorted(term_lines, upto)
        firsts = [covered] + [int(t) + 1 for t in term_lines[lo:hi - 1]] if hi > lo else []
        starts.extend(firsts)
        exact.extend([False] * len(firsts))

    for line in np.flatnonzero(kind == COMPLEX):
        if line < covered:
            continue
        begin = max(int(seg_first[seg_of[line]]), covered)
        add_segments(begin)
        end = _region_end(lines, begin, int(line), at_eof)
        if end is None:  # the region runs past the chunk: the next chunk starts here
            return _units(starts, exact, begin)
        starts.append(begin)
        exact.append(True)
        covered = end
    last = int(term_lines[-1]) + 1 if len(term_lines) and term_lines[-1] >= covered else covered
    add_segments(last)
    covered = max(covered, last)
    if at_eof and covered < lines.count:
        tail = kind[covered:]
        if np.any((tail != BLANK) & (tail != COMMENT)):  # an unterminated game
            starts.append(covered)
            exact.append(True)
        covered = lines.count
    return _units(starts, exact, covered)


def _units(starts: list[int], exact: list[bool], end: int) -> Units:
    return Units(np.array(starts + [end], np.int64), np.array(exact, bool))


def _region_end(lines: Lines, begin: int, complex_line: int, at_eof: bool) -> int | None:
    """The line after the first terminator line, at or after ``complex_line``, at which
    the exact parser (started at line ``begin``) ends a game with nothing else on the
    line. None if the chunk ends first (unless ``at_eof``: then the chunk's end)."""
    offsets = lines.offsets
    base = int(offsets[begin])
    window = _WINDOW
    while True:
        stop = min(int(np.searchsorted(offsets, base + window)), lines.count)
        text = bytes(lines.data[base:int(offsets[stop])]).decode("utf-8")
        for record in iter_games(text):
            if record.result_span is None or record.result_span.line - 1 + begin < complex_line:
                continue
            newline = text.find("\n", record.end)
            rest = text[record.end:] if newline < 0 else text[record.end:newline]
            if rest.strip() or "\ufeff" in rest:
                continue
            end = begin + record.result_span.line
            if newline < 0 and stop < lines.count:
                break  # the terminator's line runs past the window
            return end
        if stop >= lines.count:
            return lines.count if at_eof else None
        window *= 4
