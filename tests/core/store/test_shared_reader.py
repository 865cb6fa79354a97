"""SharedReader: the dashboard's reads share one read-only connection, kept between
interactions and let go as soon as an import (another process) asks for the file."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from gamefiles import run_python

from gops_records.core.store.db import (
    REQUEST_FRESH_SECONDS,
    SharedReader,
    connect,
    write_request_path,
    write_requested,
)

#: Opens the file read-write in another process, as an import does; prints "ok <seconds
#: waited>" or "locked".
WRITER = """
import time
from gops_records.core.store.db import connect, DatabaseLocked
start = time.monotonic()
try:
    connect({db!r}, timeout={timeout}).close()
    print("ok", round(time.monotonic() - start, 2))
except DatabaseLocked:
    print("locked")
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "t.duckdb"
    con = connect(path)
    con.execute("INSERT INTO imports (import_id, started_at, finished_at, sources, games_seen, "
                "games_new, games_duplicate, games_rejected, rejects_new, rejects_duplicate, "
                "seconds) VALUES (1, now()::TIMESTAMP, now()::TIMESTAMP, ['x'], "
                "0, 0, 0, 0, 0, 0, 0.0)")
    con.close()
    return path


def _writer(db: Path, timeout: float) -> tuple[str, float]:
    proc = run_python(WRITER.format(db=str(db), timeout=timeout))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    word, *waited = out.split()
    return word, float(waited[0]) if waited else timeout


def _imports(reader: SharedReader) -> int:
    with reader.read() as con:
        return con.execute("SELECT count(*) FROM imports").fetchall()[0][0]


def test_reads_share_one_connection_between_interactions(db: Path) -> None:
    reader = SharedReader(db)
    assert _imports(reader) == 1
    time.sleep(0.3)  # a pause between two interactions: the connection stays
    assert [_imports(reader) for _ in range(4)] == [1] * 4
    assert reader.opens == 1 and reader.is_open
    reader.close()
    assert not reader.is_open


def test_an_import_waiting_for_the_file_gets_it_at_once(db: Path) -> None:
    reader = SharedReader(db, poll=0.05)
    assert _imports(reader) == 1 and reader.is_open
    word, waited = _writer(db, timeout=10)
    assert word == "ok"
    assert waited < 2.0  # the reader let go within a few polls, not after its idle time
    assert not reader.is_open
    assert not write_request_path(db).exists()  # the writer withdrew its request
    # the next read opens again and sees what the writer left
    assert _imports(reader) == 1 and reader.opens == 2
    reader.close()


def test_an_import_waits_while_a_read_is_running(db: Path) -> None:
    reader = SharedReader(db, poll=0.05)
    with reader.read():
        writer = run_python(WRITER.format(db=str(db), timeout=10))
        deadline = time.monotonic() + 20
        while not write_requested(db) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert write_requested(db)  # it waits, and says so
        time.sleep(0.3)
        assert writer.poll() is None and reader.is_open  # a running read is not cut short
    out, err = writer.communicate(timeout=60)
    assert out.split()[0] == "ok", err
    assert not reader.is_open  # let go as soon as the read ended
    reader.close()


def test_overlapping_reads_do_not_keep_an_import_out(db: Path) -> None:
    reader = SharedReader(db, poll=0.02)
    stop = threading.Event()

    def keep_reading() -> None:
        while not stop.is_set():
            with reader.read() as con:
                con.execute("SELECT count(*) FROM imports").fetchall()
                time.sleep(0.01)

    threads = [threading.Thread(target=keep_reading) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        time.sleep(0.2)
        word, waited = _writer(db, timeout=6)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    assert word == "ok" and waited < 3
    assert reader.opens >= 2  # let go for the import, opened again after it
    reader.close()


def test_the_connection_is_let_go_after_the_idle_time(db: Path) -> None:
    reader = SharedReader(db, idle=0.1, poll=0.02)
    assert _imports(reader) == 1
    deadline = time.monotonic() + 5
    while reader.is_open and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not reader.is_open
    assert _writer(db, timeout=0)[0] == "ok"


def test_a_stale_request_is_ignored(db: Path) -> None:
    request = write_request_path(db)
    request.touch()
    assert write_requested(db)
    old = time.time() - REQUEST_FRESH_SECONDS - 5
    os.utime(request, (old, old))  # a writer killed while waiting left it behind
    assert not write_requested(db)
    reader = SharedReader(db)
    _imports(reader)
    _imports(reader)
    assert reader.opens == 1
    reader.close()


def test_threads_read_at_once_on_cursors_of_their_own(db: Path) -> None:
    reader = SharedReader(db)
    results: list[int] = []
    barrier = threading.Barrier(4)

    def work() -> None:
        with reader.read() as con:
            barrier.wait(timeout=10)  # all four hold a cursor at the same time
            results.append(con.execute("SELECT count(*) FROM imports").fetchall()[0][0])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert results == [1, 1, 1, 1] and reader.opens == 1
    reader.close()
