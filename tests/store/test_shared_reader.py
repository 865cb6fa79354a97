"""SharedReader: a burst of reads shares one read-only connection, which is then let go,
so an import (another process) gets the file between bursts."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from gamefiles import run_python

from gops_records.store.db import SharedReader, connect

#: Opens the file read-write in another process; prints "ok" or the error's class.
WRITER = """
from gops_records.store.db import connect, DatabaseLocked
try:
    connect({db!r}, timeout={timeout}).close()
    print("ok")
except DatabaseLocked:
    print("locked")
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "t.duckdb"
    con = connect(path)
    con.execute("INSERT INTO imports VALUES (1, now()::TIMESTAMP, now()::TIMESTAMP, ['x'], "
                "0, 0, 0, 0, 0, 0, 0.0)")
    con.close()
    return path


def _writer(db: Path, timeout: float) -> str:
    proc = run_python(WRITER.format(db=str(db), timeout=timeout))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return out.strip()


def _imports(reader: SharedReader) -> int:
    with reader.read() as con:
        return con.execute("SELECT count(*) FROM imports").fetchall()[0][0]


def test_a_burst_of_reads_opens_the_file_once(db: Path) -> None:
    reader = SharedReader(db, idle=5.0)
    assert [_imports(reader) for _ in range(5)] == [1] * 5
    assert reader.opens == 1 and reader.is_open
    reader.close()
    assert not reader.is_open


def test_the_file_is_let_go_after_the_idle_time(db: Path) -> None:
    reader = SharedReader(db, idle=0.1)
    assert _imports(reader) == 1
    deadline = time.monotonic() + 5
    while reader.is_open and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not reader.is_open
    assert _writer(db, timeout=0) == "ok"  # no wait needed: nobody holds the file
    assert _imports(reader) == 1 and reader.opens == 2


def test_an_import_waits_while_the_connection_is_in_use(db: Path) -> None:
    reader = SharedReader(db, idle=30.0)
    with reader.read():
        assert _writer(db, timeout=0.3) == "locked"
    reader.close()
    assert _writer(db, timeout=0) == "ok"


def test_an_old_connection_is_replaced_after_a_gap(db: Path) -> None:
    reader = SharedReader(db, idle=30.0, max_age=0.05, gap=0.2)
    _imports(reader)
    time.sleep(0.1)
    started = time.monotonic()
    _imports(reader)
    assert reader.opens == 2
    assert time.monotonic() - started >= 0.2  # the file was left free for the gap
    reader.close()


def test_threads_read_at_once_on_cursors_of_their_own(db: Path) -> None:
    reader = SharedReader(db, idle=5.0)
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
