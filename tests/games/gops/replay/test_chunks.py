"""How a file is cut into windows: a window stays about its size whatever the text."""

from __future__ import annotations

from gops_records.games.gops.replay.chunks import CHUNK_BYTES, MAX_WINDOW_TOKENS, window_end


def test_a_dense_line_without_terminators_keeps_windows_small():
    # one line of 3-byte tokens and no result anywhere (the benchmark's hostile line):
    # the window is made smaller for its density and must not grow past that again
    data = b'[Event "x"] ' + b"1. 4d 3c 5s 2. 5d 4c 3s " * 600_000
    end = window_end(data, 0, CHUNK_BYTES)
    tokens = data[:end].count(b" ")
    assert MAX_WINDOW_TOKENS * 0.9 < tokens <= MAX_WINDOW_TOKENS + 2


def test_a_window_ends_right_after_a_terminator():
    game = b'[Event "x"]\n1. 4D 3C 5S\n2-3\n\n'
    data = game * 1000
    end = window_end(data, 0, len(game) * 10 + 5)
    assert data[:end].endswith(b"2-3")
    assert data[:end].count(b"2-3") == 11


def test_a_worker_runs_polars_on_its_share_of_the_cores():
    import multiprocessing
    import os

    import polars as pl

    from gops_records.games.gops.replay import chunks

    share = max(1, (os.cpu_count() or 1) // 2)
    before = os.environ.get("POLARS_MAX_THREADS")
    with chunks._main_hidden(), chunks._worker_threads(2), \
            multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(pl.thread_pool_size) == share
    assert os.environ.get("POLARS_MAX_THREADS") == before  # the caller's is left alone
