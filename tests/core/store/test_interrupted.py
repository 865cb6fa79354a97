"""An import killed mid-way (SIGKILL: no cleanup at all) leaves the database as it was."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from gamefiles import counts, run_python, snapshot, write_club_games

from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect

# Loads batches of 100 games; after the first batch is in (inside the open transaction)
# it says so and hangs, so the test kills it at a known point whatever the import's speed.
KILLABLE = """
import sys, time
from gops_records.core.importer import import_paths
def progress(done, name):
    print("loaded", flush=True)
    time.sleep(120)
import_paths([{path!r}], {db!r}, progress=progress, batch_games=100)
"""


def _prepared(tmp_path: Path, games: int) -> tuple[Path, Path, dict]:
    db = tmp_path / "t.duckdb"
    first = write_club_games(tmp_path / "first.gops", 3, event="Before")
    import_paths([first], db)
    big = write_club_games(tmp_path / "big.gops", games, event="Killed")
    return db, big, snapshot(db)


def test_killed_import_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    db, big, before = _prepared(tmp_path, 1_000)
    proc = run_python(KILLABLE.format(path=str(big), db=str(db)))
    try:
        assert proc.stdout.readline().strip() == "loaded", proc.stderr.read()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert snapshot(db) == before
    assert counts(db)["games"] == 3

    # the file is healthy: it opens read-write, and the next import completes normally
    connect(db).close()
    summary = import_paths([big], db)
    assert (summary.import_id, summary.games_new) == (2, 1_000)
    assert counts(db)["games"] == 1_003


def test_killed_cli_import_is_all_or_nothing(tmp_path: Path) -> None:
    db, big, before = _prepared(tmp_path, 3_000)
    proc = subprocess.Popen(["gops", "import", str(big), "--db", str(db), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=20)
    games = counts(db)["games"]
    if proc.returncode == -signal.SIGKILL and games != 3_003:  # killed before its commit
        assert snapshot(db) == before
    else:  # the import committed before the kill landed: then it is complete
        assert proc.returncode in (0, -signal.SIGKILL) and games == 3_003
