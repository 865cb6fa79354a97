"""One writer or many readers: both sides retry the file lock, and say so when it is held."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from gamefiles import counts, run_python, write_club_games

from gops_records.core.importer import import_paths
from gops_records.core.store.db import DatabaseLocked, reading

# Opens a short-lived read-only connection per read, as a notebook would, until the
# stop file appears; says when its first read is done, then prints what it saw. Any
# exception ends it with a traceback.
READER = """
import json, os, time
from gops_records.core.store.db import reading
seen, started = [], time.monotonic()
while time.monotonic() - started < 60:
    stop = os.path.exists({stop!r})
    with reading({db!r}, timeout=30) as con:
        seen.append(con.execute("SELECT count(*) FROM games").fetchall()[0][0])
    if len(seen) == 1:
        print("reading", flush=True)
    if stop:
        break
    time.sleep(0.01)
print(json.dumps(seen))
"""

HOLDER = """
import sys, time, duckdb
con = duckdb.connect({db!r})
print("holding", flush=True)
time.sleep(60)
"""


def test_reader_and_writer_both_succeed_and_readers_never_see_half_an_import(
        tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([write_club_games(tmp_path / "before.gops", 5, event="Before")], db)
    big = write_club_games(tmp_path / "big.gops", 2_000, event="Big")
    stop = tmp_path / "stop"
    reader = run_python(READER.format(db=str(db), stop=str(stop)))
    try:
        assert reader.stdout.readline().strip() == "reading", reader.stderr.read()
        clock = time.monotonic()
        writer = subprocess.run(["gops", "import", str(big), "--db", str(db), "--quiet"],
                                capture_output=True, text=True, timeout=60)
        writer_seconds = time.monotonic() - clock
        stop.touch()
        out, err = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert writer.returncode == 0, writer.stderr
    assert "2000 new" in writer.stdout
    assert reader.returncode == 0, err
    seen = json.loads(out)
    assert seen[0] == 5 and seen[-1] == 2_005
    assert set(seen) == {5, 2_005}  # one transaction: all of the import or none of it
    assert writer_seconds < 30
    assert counts(db)["games"] == 2_005


def test_a_lock_held_too_long_is_a_plain_database_locked_error(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    game = write_club_games(tmp_path / "g.gops", 1)
    import_paths([game], db)
    holder = run_python(HOLDER.format(db=str(db)))
    try:
        assert holder.stdout.readline().strip() == "holding", holder.stderr.read()
        clock = time.monotonic()
        with pytest.raises(DatabaseLocked) as caught:
            import_paths([game], db, lock_timeout=0.5)
        assert 0.5 <= time.monotonic() - clock < 5
        message = str(caught.value)
        assert message.startswith(f"{db} is locked by another process; waited")
        assert "try again" in message and "Traceback" not in message
        with pytest.raises(DatabaseLocked, match="locked by an import"), reading(db, 0.3):
            pass
    finally:
        holder.kill()
        holder.wait(timeout=10)
    summary = import_paths([game], db, lock_timeout=5)  # released: it goes through
    assert summary.games_duplicate == 1
