"""A whole record file, chunk by chunk: chunks of bytes in, finished results out.

The text is cut into windows of about ``chunk_bytes``, each ending right after a word
that looks like a terminator (``45-46`` or ``*`` between whitespace). Windows are read
by worker processes, a few ahead of the caller (each window is independent: bytes in,
frames or report text out, no shared state). A window's cut is confirmed when its own
reading ends on a terminator there (not one inside a comment or a tag); if it does not
(the guess was wrong, or one game is longer than the window), its last game is left
to the next window, which starts at that game, and the windows guessed after it are
dropped. A single game longer than :data:`MAX_GAME_BYTES` is rejected whole, with the
first part of its text, so memory stays bounded whatever the file holds.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
import types
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np
import pyarrow as pa

from gops_records.core.sources import decode
from gops_records.games.gops.notation.tokens import Kind
from gops_records.games.gops.replay import read_chunk
from gops_records.games.gops.replay.frames import ChunkGames, LongGame

#: Bytes of text a two-player game takes, about, as ``gops simulate`` writes it.
BYTES_PER_GAME = 420
#: Bytes per window: about 20,000 such games.
CHUNK_BYTES = 20_000 * BYTES_PER_GAME
#: A game whose text is longer than this is rejected unread (a record needs a few KB).
MAX_GAME_BYTES = 4 << 20
#: Windows read to find where an over-long game ends (only game starts are looked for).
SCAN_BYTES = 1 << 20
#: Text of an over-long game kept in its reject.
KEPT_BYTES = 1 << 16
#: Most tokens a window should hold (memory is about 300 bytes a token while it is read):
#: a window of dense text (a hostile line of 3-byte tokens) is made smaller.
MAX_WINDOW_TOKENS = 1_500_000
#: Worker processes for files of more than this many default windows (smaller files are
#: read in process: starting a worker costs about a second). Measured for ``gops import``
#: (its windows are made into store frames): 5 windows (107k games) 10.6 s wall in
#: process, 6.1 s with two workers.
PARALLEL_FROM = 3
#: The same for ``gops validate``, whose windows cost little more than the compiled
#: reader: 10 windows (200k games) 2.5 s wall, 3.0 CPU-s in process against 2.3-3.8 s,
#: 4.6 CPU-s with two workers; 50 windows (1M) 22.8 s wall in process, 18.2 s with them
#: (load about 6 on 2 cores).
CHECK_PARALLEL_FROM = 16
#: The environment variable polars reads, once, when it is imported.
_POLARS_THREADS = "POLARS_MAX_THREADS"
_CUT = re.compile(rb"(?<=[\s])(?:[0-9]+(?:-[0-9]+)+|\*)(?=[\s])")
_WS = re.compile(rb"[\s]")


def record_body(data: bytes, encoding: str = "utf-8", name: str = "<bytes>") -> bytes | memoryview:
    """A record file's text as UTF-8 bytes without a BOM.

    UTF-8 input is checked in place (no copy); other encodings are decoded and
    re-encoded. Raises DecodeError exactly as :func:`~gops_records.core.sources.decode` does.
    """
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        body = memoryview(data)[len(codecs.BOM_UTF8):] if data.startswith(codecs.BOM_UTF8) \
            else memoryview(data)
        offsets = pa.py_buffer(np.array([0, len(body)], np.int64))
        try:
            pa.LargeStringArray.from_buffers(1, offsets, pa.py_buffer(body)).validate(full=True)
            return body
        except pa.ArrowInvalid:
            pass
    return decode(data, encoding, name).encode("utf-8")


def chunk_bytes_for(games: int) -> int:
    """Window size for about ``games`` games a window."""
    return max(1, games) * BYTES_PER_GAME


def count_lines(data: bytes | memoryview) -> int:
    """Line breaks in ``data``: LF, CRLF or a lone CR."""
    lines = lone = 0
    for begin in range(0, len(data), 1 << 24):  # in pieces: no copy of a large file
        buf = np.frombuffer(data[begin:begin + (1 << 24) + 1], np.uint8)
        piece = buf[: 1 << 24]
        lines += int(np.count_nonzero(piece == 10))
        cr = np.flatnonzero(piece == 13)
        if len(cr):
            after = cr + 1
            inside = after < len(buf)
            lone += int(np.count_nonzero(buf[after[inside]] != 10)) + int((~inside).sum())
    return lines + lone


@dataclass
class Window:
    """What reading one window gave: the games kept, the bytes and line breaks they
    span, and the payload the caller's ``finish`` made of them."""

    games: int
    consumed: int
    lines: int
    payload: Any


Finish = Callable[[ChunkGames], Any]


def window_end(data: bytes | memoryview, pos: int, size: int) -> int:
    """Where a window of about ``size`` bytes from ``pos`` ends, made smaller when its text
    is dense (more than :data:`MAX_WINDOW_TOKENS` tokens, counted by their separators)."""
    head = np.frombuffer(data[pos:pos + size], np.uint8)
    separators = int(np.count_nonzero(head == 32)) + int(np.count_nonzero(head == 10))
    if separators > MAX_WINDOW_TOKENS:
        size = max(1, size * MAX_WINDOW_TOKENS // separators)
    return _cut(data, pos + size)


def _cut(data: bytes | memoryview, target: int, reach: int = CHUNK_BYTES) -> int:
    """The end of the first terminator-like word at or after ``target``; without one in
    the next ``reach`` bytes, the end of the first whitespace at ``target`` (a token
    boundary: the window then ends in an unsure game, read again with the next one; the
    window is not made any longer, so a dense text without terminators keeps its size);
    or the end of ``data``."""
    if target >= len(data):
        return len(data)
    stop = min(len(data), target + reach)
    m = _CUT.search(data, max(target - 1, 0), stop)
    if m:
        return m.end()
    space = _WS.search(data, target)
    return space.end() if space else len(data)


def read_window(window: bytes | memoryview, at_eof: bool, source: str, line_offset: int,
                finish: Finish) -> Window:
    """Read one window. Unless ``at_eof``, its last game is kept only when the window
    ends on its terminator (a sure game boundary), else it is left out."""
    rep = read_chunk(window)
    s, t = rep.structure, rep.tokens
    keep = s.count
    if not at_eof and keep:
        end = int(s.end_token[-1])
        sure = end >= 0 and int(t.end[end]) == len(window)
        unclosed = np.flatnonzero(t.kind == Kind.UNCLOSED)
        if len(unclosed):  # a { left open may close past the window: not sure before it
            opened = int(unclosed[-1])
            rest = bytes(window[int(t.end[opened]):])
            if not re.search(rb"[{}]|\n[ \t\r]*\n", rest):
                keep = min(keep, int(s.game[opened]))
                sure = False
        if not sure:
            keep = min(keep, s.count - 1)
    consumed = len(window) if keep == s.count else int(t.start[s.first[keep]])
    games = ChunkGames(rep, source, 0, line_offset, keep)
    lines = count_lines(window[:consumed]) if consumed < len(window) else count_lines(window)
    return Window(keep, consumed, lines, finish(games))


def _too_long(data: bytes | memoryview, start: int, source: str, line_offset: int,
              finish: Finish) -> Window:
    """A game longer than MAX_GAME_BYTES from ``start``: rejected with its first bytes;
    reading goes on at the next game that a window after it finds."""
    pos = start + MAX_GAME_BYTES
    while pos < len(data):
        space = _WS.search(data, pos)  # start between two tokens (and two characters)
        pos = space.end() if space else len(data)
        end = min(len(data), pos + SCAN_BYTES)
        space = _WS.search(data, end) if end < len(data) else None
        end = space.start() if space else len(data)
        rep = read_chunk(data[pos:end])
        if rep.count >= 2:  # the long game ends where this window's second game starts
            nxt = pos + int(rep.tokens.start[rep.structure.first[1]])
            return _long_reject(data, start, nxt, source, line_offset, finish)
        pos = end
    return _long_reject(data, start, len(data), source, line_offset, finish)


def _long_reject(data: bytes | memoryview, start: int, end: int, source: str,
                 line_offset: int, finish: Finish) -> Window:
    kept = bytes(data[start:min(end, start + KEPT_BYTES)])
    kept = kept[: len(kept) - _partial_tail(kept)]
    games = LongGame(kept, source, line_offset, end - start)
    return Window(1, end - start, count_lines(data[start:end]), finish(games))


def _partial_tail(data: bytes) -> int:
    """Bytes of a UTF-8 character cut off at the end of ``data``."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:
            width = 1 if byte < 0x80 else 2 if byte >> 5 == 6 else 3 if byte >> 4 == 14 else 4
            return back if width > back else 0
    return 0


def read_file(data: bytes | memoryview, source: str, finish: Finish, *,
              chunk_bytes: int = CHUNK_BYTES, workers: int | None = None,
              parallel_from: int = PARALLEL_FROM) -> Iterator[Window]:
    """Every game of ``data`` (UTF-8 record text without a BOM), window by window, each
    made into a payload by ``finish`` (a module-level function: it runs in the workers).

    Workers (unless ``workers`` says how many) read files of more than
    ``parallel_from`` default windows.

    ``source_game`` numbers in the payloads count from 1 in each window: the caller
    adds the games of the windows before (``Window.games``). Line numbers are the file's.
    """
    size = len(data)
    if workers is None:  # worker processes pay off for files of several full windows
        workers = min(2, os.cpu_count() or 1) if size > parallel_from * CHUNK_BYTES else 0
    if not workers:
        pos = line = 0
        while pos < size:
            window = _step(data, pos, line, source, finish, chunk_bytes)
            yield window
            pos, line = pos + window.consumed, line + window.lines
        return
    # spawned, not forked: a fork of a process running polars' threads can deadlock
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        yield from _parallel(data, source, finish, chunk_bytes, workers, pool)


def _step(data: bytes | memoryview, pos: int, line: int, source: str, finish: Finish,
          chunk_bytes: int) -> Window:
    """One window from ``pos`` (in this process), grown until it holds a whole game."""
    size, want = len(data), chunk_bytes
    while True:
        end = window_end(data, pos, want)
        window = read_window(data[pos:end], end >= size, source, line, finish)
        if window.games or window.consumed == end - pos:  # games, or nothing but blanks
            return window
        if want >= MAX_GAME_BYTES:  # one game longer than any window: set it aside
            return _too_long(data, pos, source, line, finish)
        want = min(want * 4, MAX_GAME_BYTES)


@contextmanager
def _main_hidden() -> Iterator[None]:
    """While worker processes may start: a spawned worker imports the caller's main
    module again, and a script without an ``if __name__ == "__main__"`` guard would then
    run in every worker. The workers need only this package."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


@contextmanager
def _worker_threads(workers: int) -> Iterator[None]:
    """While worker processes may start: their polars thread pool capped to their share
    of the cores (a worker starts with this environment and imports polars after it).
    Uncapped, each of two workers ran as many threads as there are cores, and they
    competed with each other and with the caller for them."""
    share = str(max(1, (os.cpu_count() or 1) // max(1, workers)))
    before = os.environ.get(_POLARS_THREADS)
    os.environ[_POLARS_THREADS] = share
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(_POLARS_THREADS, None)
        else:
            os.environ[_POLARS_THREADS] = before


def _parallel(data: bytes | memoryview, source: str, finish: Finish, chunk_bytes: int,
              workers: int, pool: Executor) -> Iterator[Window]:
    """Windows read ahead by the workers; a wrong guess is read again from its last game."""
    size = len(data)
    pending: deque[tuple[int, int, int, Future[Window]]] = deque()
    pos = line = 0  # where the next window to submit starts, and its line offset
    while pos < size or pending:
        while pos < size and len(pending) <= workers:
            end = window_end(data, pos, chunk_bytes)
            with _main_hidden(), _worker_threads(workers):
                future = pool.submit(read_window, bytes(data[pos:end]), end >= size, source,
                                     line, finish)
            pending.append((pos, end, line, future))
            line += count_lines(data[pos:end])
            pos = end
        start, end, at_line, future = pending.popleft()
        window = future.result()
        if window.consumed == end - start:
            yield window
            continue
        for *_, later in pending:  # the windows ahead start in the wrong place
            later.cancel()
        pending.clear()
        if not window.games and window.consumed < end - start:
            # no game ends in the window: one game is longer than it
            window = (_too_long(data, start, source, at_line, finish)
                      if end - start >= MAX_GAME_BYTES else
                      _step(data, start, at_line, source, finish, chunk_bytes))
        yield window
        pos, line = start + window.consumed, at_line + window.lines
