"""A disk that cannot take an import: a plain message, exit 2, and the database unchanged.

Two ways to make the write fail: a file size limit in a subprocess (``RLIMIT_FSIZE``:
works anywhere) and, where the test may mount one, a tiny tmpfs that really fills up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

SAMPLES = Path(__file__).parents[2] / "gops_records" / "samples"
TABLES = ("games", "game_players", "round_rows", "rejects", "imports", "source_file_reads")


def _contents(db: Path) -> dict[str, list]:
    with reading(db) as con:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


def _more_games(path: Path, games: int = 3000) -> Path:
    result = CliRunner().invoke(app, ["simulate", "-n", str(games), "--seed", "5",
                                      "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _import_limited(db: Path, records: Path, limit: int) -> subprocess.CompletedProcess:
    """`gops import` in a subprocess whose files may not grow beyond ``limit`` bytes."""
    script = textwrap.dedent(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        sys.argv = ["gops", "import", "--db", {str(db)!r}, {str(records)!r}]
        from gops_records.cli import main
        main()
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.skipif(not hasattr(os, "setrlimit") and sys.platform == "win32",
                    reason="POSIX resource limits")
def test_a_write_that_fails_leaves_the_database_as_it_was_and_says_what_to_do(
        tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([SAMPLES], db)
    before = _contents(db)
    records = _more_games(tmp_path / "more.gops")
    failed = _import_limited(db, records, 256 * 1024)  # smaller than the file: no write
    assert failed.returncode == 2, failed.stderr
    assert "Traceback" not in failed.stderr
    assert "could not write" in failed.stderr and "file too large" in failed.stderr
    assert "Nothing from this import was stored" in failed.stderr
    assert "ulimit -f" in failed.stderr
    assert _contents(db) == before
    # with room again, the next import works and stores the new games
    summary = import_paths([records], db)
    assert summary.games_new == 3000
    assert len(_contents(db)["games"]) == len(before["games"]) + 3000


def test_a_full_disk_at_commit_is_a_plain_message_and_space_freed_makes_it_work(
        tmpfs, tmp_path: Path) -> None:
    db = tmpfs.path / "t.duckdb"
    filler = tmpfs.path / "filler"
    filler.write_bytes(bytes(7_000_000))
    import_paths(sorted(SAMPLES.glob("*.gops")), db)  # the room left is sized for these
    before = _contents(db)
    records = _more_games(tmp_path / "more.gops")
    result = CliRunner().invoke(app, ["import", "--db", str(db), str(records)],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 2, result.output
    assert "no space left on device" in result.stderr
    assert "Free some space" in result.stderr
    assert _contents(db) == before
    filler.unlink()
    assert import_paths([records], db).games_new == 3000
