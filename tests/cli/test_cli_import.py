"""`gops import`: summary, --json, exit codes."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game, run_python
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core import importer
from gops_records.core.importer import import_paths

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "logs"
    path.mkdir()
    (path / "a.gops").write_text(club_game(1) + "\n" + BROKEN + "\n" + club_game(2))
    (path / "b.csv").write_text("game,round,prize,bid_a,bid_b,cards\n1,1,2,3,1,3\n"
                                "1,2,3,1,2,3\n1,3,1,2,3,3\n")
    (path / "notes.txt").write_text("not a record file: skipped")
    return path


def _run(*args: str | Path):
    return CliRunner().invoke(app, ["import", *map(str, args)], env=ENV)


def test_summary_line(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    result = _run(folder, "--db", db)
    assert result.exit_code == 0, result.output
    line, *listed = result.stdout.strip().splitlines()
    broken_line = (club_game(1) + "\n").count("\n") + 7  # round 2 of BROKEN
    assert listed == [
        f"  {folder / 'a.gops'}:{broken_line}: card-not-in-hand: Ann (A) bids 3, already "
        f"spent in round 1 (line {broken_line - 1}) (+1 more problem)",
        f"  see the quarantine with gops rejects --db {db}"]
    assert re.fullmatch(
        rf"import 1 into {re.escape(str(db))}: 2 files, 4 games seen: 3 new, 0 duplicate, "
        r"1 rejected \(1 newly quarantined, 0 already kept\); [\d.]+ s, [\d,]+ games/s", line)
    again = _run(folder, "--db", db)
    assert "import 2 " in again.stdout and ": 0 new, 3 duplicate, 1 rejected (0 newly " \
        "quarantined, 1 already kept)" in again.stdout
    assert ": 2 files (2 unchanged, not read again), 4 games seen" in again.stdout
    reread = _run(folder, "--db", db, "--reparse")
    assert ": 2 files, 4 games seen: 0 new, 3 duplicate" in reread.stdout


def test_json_summary_keys(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    result = _run(folder, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"db", "import_id", "files", "files_unchanged", "games_seen", "games_new",
                         "games_duplicate", "games_rejected", "rejects_new",
                         "rejects_duplicate", "seconds", "games_per_second",
                         "scout_reports", "scout_seconds", "rejects_resolved", "notes"}
    assert (data["db"], data["files"], data["games_seen"], data["games_new"],
            data["games_rejected"]) == (str(db), 2, 4, 3, 1)


def test_db_from_environment(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "env.duckdb"
    result = CliRunner().invoke(app, ["import", str(folder), "--json"],
                                env={**ENV, "GOPS_DB": str(db)})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["db"] == str(db) and db.exists()


def test_strict_exits_1_when_anything_was_rejected(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert _run(folder, "--db", db, "--strict").exit_code == 1
    assert _run(folder / "b.csv", "--db", db, "--strict").exit_code == 0
    # rejects already kept from an earlier import still count as rejected
    assert _run(folder, "--db", db, "--strict").exit_code == 1


def test_missing_path_exits_2_with_a_plain_message(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    result = _run(folder, tmp_path / "nope.gops", "--db", db)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"gops: error: {tmp_path / 'nope.gops'}: no such file or folder"
    assert not db.exists()  # nothing was started


def test_notes_go_to_stderr(tmp_path: Path) -> None:
    (tmp_path / "old.gops").write_bytes('[Site "José\'s"]\n'.encode("latin-1") + SMALL.encode())
    result = _run(tmp_path / "old.gops", "--db", tmp_path / "t.duckdb")
    assert result.exit_code == 0
    assert "gops: note:" in result.stderr and "--encoding latin-1" in result.stderr
    assert "gops: note" not in result.stdout
    ok = _run(tmp_path / "old.gops", "--db", tmp_path / "u.duckdb", "--encoding", "latin-1")
    assert ": 1 new, 0 duplicate, 0 rejected;" in ok.stdout


def test_locked_database_exits_2_with_a_plain_message(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "t.duckdb"
    (tmp_path / "g.gops").write_text(SMALL)
    holder = run_python(f"import duckdb, time\ncon = duckdb.connect({str(db)!r})\n"
                        "print('holding', flush=True)\ntime.sleep(60)")
    # gops import calls gops_records.core.importer.import_paths (imported when the command runs)
    monkeypatch.setattr(importer, "import_paths",
                        functools.partial(import_paths, lock_timeout=0.5))
    try:
        assert holder.stdout.readline().strip() == "holding"
        result = _run(tmp_path / "g.gops", "--db", db)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gops: error: {db} is locked by another process")
    assert "Traceback" not in result.output


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(app, ["import", "--help"], env=ENV)
    assert result.exit_code == 0 and "Example:" in result.stdout


def test_a_db_that_is_not_a_database_exits_2_with_a_plain_message(tmp_path: Path) -> None:
    (tmp_path / "g.gops").write_text(SMALL)
    (tmp_path / "notes.txt").write_text("my notes, not a database")
    result = _run(tmp_path / "g.gops", "--db", tmp_path / "notes.txt")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gops: error: {tmp_path}/notes.txt is not a gops "
                                    "database (not a DuckDB file)")
    assert (tmp_path / "notes.txt").read_text() == "my notes, not a database"
    inside_a_file = _run(tmp_path / "g.gops", "--db", tmp_path / "notes.txt" / "t.duckdb")
    assert inside_a_file.exit_code == 2 and "Traceback" not in inside_a_file.output


def test_the_rejects_are_listed_a_few_then_counted(tmp_path: Path) -> None:
    games = [club_game(n) for n in range(1, 4)] + [
        BROKEN.replace('[A "Ann"]', f'[A "Ann {n}"]') for n in range(8)]
    (tmp_path / "many.gops").write_text("\n".join(games))
    db = tmp_path / "t.duckdb"
    result = _run(tmp_path / "many.gops", "--db", db)
    lines = result.stdout.splitlines()
    assert ": 3 new, 0 duplicate, 8 rejected (8 newly quarantined" in lines[0]
    assert len(lines) == 1 + 5 + 1
    assert all(re.match(rf"  {re.escape(str(tmp_path / 'many.gops'))}:\d+: card-not-in-hand: ",
                        line) for line in lines[1:6])
    assert lines[6] == f"  ... and 3 more rejected; see them all with gops rejects --db {db}"
    # a file counted without being read again lists its rejects from the database
    again = _run(tmp_path / "many.gops", "--db", db).stdout.splitlines()
    assert "(1 unchanged, not read again)" in again[0]
    assert again[1:] == lines[1:]
