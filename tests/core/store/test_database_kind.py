"""What --db may name: a gops database, an empty DuckDB file or a new name; nothing else.

A FIFO, a folder, a device or a socket is refused before DuckDB opens it (a FIFO made every
command wait forever); a DuckDB file of another application (tables, but not gops's mark)
is refused by every command, reading or writing, and left exactly as it was; an empty
DuckDB file is adopted; a gops database an older gops wrote, before the mark, is still a
gops database and gets the mark when it is upgraded.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.store import db as db_module
from gops_records.core.store.db import (
    DatabaseUnusable,
    connect,
    reading,
    schema_version,
    upgrade,
)
from gops_records.core.store.schema import MARK_APPLICATION, MARK_TABLE, MARK_VERSION, versions

SAMPLE = ROOT / "gops_records" / "samples" / "2026-01-13-gops-society.gops"
ENV = {"COLUMNS": "250", "GOPS_DB": ""}


def gops(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def _gops_process(*args: str | Path) -> subprocess.CompletedProcess:
    """``gops ARGS`` in a process of its own: one that waits forever is killed at 60 s."""
    return subprocess.run([sys.executable, "-m", "gops_records", *map(str, args)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **ENV})


# --- what the path is ------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["import", str(SAMPLE)], ["games"], ["rejects"], ["upgrade"], ["export", "--format",
                                                                   "gops", "--out", "-"]])
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "pipe.duckdb"
    os.mkfifo(fifo)
    done = _gops_process(*command, "--db", fifo)  # before: waited for a writer forever
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("gops: error: ")
    assert str(fifo) in done.stderr and "a named pipe" in done.stderr
    assert "Traceback" not in done.stderr
    assert fifo.is_fifo()


def _socket(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


@pytest.mark.parametrize("kind, make", [
    ("a folder", lambda p: p.mkdir()),
    ("a socket", _socket),
    ("a character device", None),
])
@pytest.mark.parametrize("read_only", [True, False])
def test_only_a_regular_file_is_a_database(tmp_path: Path, kind: str, make, read_only: bool
                                           ) -> None:
    path = tmp_path / "db.duckdb"
    if make is None:
        path = Path(os.devnull)
    else:
        kept = make(path)  # noqa: F841  (a socket is bound while it lives)
    with pytest.raises(DatabaseUnusable, match=re.escape(f"{path} is {kind}, not a database")):
        connect(path, read_only=read_only)
    if make is None:
        assert Path(os.devnull).is_char_device()  # still the device


def test_a_symlink_to_a_gops_database_is_that_database(tmp_path: Path) -> None:
    real = tmp_path / "real.duckdb"
    import_paths([SAMPLE], real)
    link = tmp_path / "link.duckdb"
    link.symlink_to(real)
    result = gops("games", "--db", link, "--json", "--limit", "0")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) > 10


def test_a_symlink_to_a_fifo_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link.duckdb"
    link.symlink_to(fifo)
    done = _gops_process("games", "--db", link)
    assert done.returncode == 2 and "a named pipe" in done.stderr, done.stderr


# --- what the file holds ---------------------------------------------------------------

def _foreign_with_text_versions(path: Path) -> None:
    """Another application's migrations table: text versions (a BinderException before)."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE schema_migrations (version VARCHAR PRIMARY KEY, "
                "applied_at TIMESTAMP)")
    con.execute("INSERT INTO schema_migrations VALUES ('20240101_init', now()::TIMESTAMP)")
    con.execute("CREATE TABLE users (id INTEGER, name VARCHAR)")
    con.execute("INSERT INTO users VALUES (1, 'ann')")
    con.close()


def _foreign_without_games(path: Path) -> None:
    """A DuckDB file of tables of its own (taken over silently before: 23 tables added)."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE measurements (t TIMESTAMP, value DOUBLE)")
    con.execute("INSERT INTO measurements VALUES (now()::TIMESTAMP, 1.5)")
    con.close()


def _foreign_with_games(path: Path) -> None:
    """Someone's own `games` table, with integer migrations: still not gops's mark."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE games (name VARCHAR)")
    con.execute("CREATE TABLE schema_migrations (version INTEGER, name VARCHAR, "
                "applied_at TIMESTAMP)")
    con.execute(f"INSERT INTO schema_migrations VALUES ({MARK_VERSION + 5}, 'theirs', "
                "now()::TIMESTAMP)")
    con.close()


FOREIGN = {"text versions": _foreign_with_text_versions,
           "no games table": _foreign_without_games,
           "their own games table": _foreign_with_games}


def _state(path: Path) -> tuple[bytes, list[str], list]:
    """The file's bytes, the folder's names and the tables DuckDB sees in it."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = con.execute("SELECT table_name, table_type FROM information_schema.tables "
                             "ORDER BY ALL").fetchall()
    finally:
        con.close()
    return path.read_bytes(), sorted(p.name for p in path.parent.iterdir()), tables


def _assert_refused(message: str, path: Path) -> None:
    assert message.startswith("gops: error: "), message
    assert f"{path} is not a gops database" in message
    assert "--db" in message  # what to do
    assert "Traceback" not in message and "Binder" not in message


@pytest.mark.parametrize("which", sorted(FOREIGN))
@pytest.mark.parametrize("command", [
    ["import", str(SAMPLE)], ["games"], ["games", "--game", "gin"], ["rejects"],
    ["rejects", "--recheck"], ["upgrade"], ["export", "--format", "gops", "--out", "-"],
    ["replay", "g1234"], ["scout", "Ann"],
])
def test_another_applications_duckdb_file_is_refused_and_left_as_it_was(
        tmp_path: Path, which: str, command: list[str]) -> None:
    path = tmp_path / "theirs.duckdb"
    FOREIGN[which](path)
    before = _state(path)
    result = gops(*command, "--db", path)
    assert result.exit_code == 2, result.output
    _assert_refused(result.stderr, path)
    assert _state(path) == before


@pytest.mark.parametrize("read_only", [True, False])
def test_connect_refuses_a_foreign_file_either_way(tmp_path: Path, read_only: bool) -> None:
    path = tmp_path / "theirs.duckdb"
    _foreign_without_games(path)
    before = _state(path)
    with pytest.raises(DatabaseUnusable, match="not a gops database.*measurements"):
        connect(path, read_only=read_only)
    with pytest.raises(DatabaseUnusable, match="not a gops database"):
        upgrade(path)
    assert _state(path) == before


def test_an_empty_duckdb_file_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "empty.duckdb"
    duckdb.connect(str(path)).close()  # a DuckDB file with no table at all
    assert path.stat().st_size > 0
    result = gops("import", SAMPLE, "--db", path)
    assert result.exit_code == 0, result.output
    with reading(path) as con:
        assert con.execute(f"SELECT * FROM {MARK_TABLE}").fetchall() == [(MARK_APPLICATION,)]
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] > 10


def test_an_empty_duckdb_file_reads_as_an_empty_gops_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.duckdb"
    duckdb.connect(str(path)).close()
    before = path.read_bytes()
    result = gops("games", "--db", path)
    assert result.exit_code == 0, result.output
    assert path.read_bytes() == before


def test_a_new_database_carries_the_mark(tmp_path: Path) -> None:
    path = tmp_path / "new.duckdb"
    connect(path).close()
    raw = duckdb.connect(str(path), read_only=True)
    assert raw.execute(f"SELECT application FROM {MARK_TABLE}").fetchall() == [
        (MARK_APPLICATION,)]
    raw.close()


def _older_gops_database(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database as a gops from before the mark made it: every migration before it."""
    with monkeypatch.context() as patch:
        older = tuple(v for v in versions() if v.version < MARK_VERSION)
        patch.setattr(db_module, "versions", lambda: older)
        con = duckdb.connect(str(path))
        db_module.migrate(con)
        con.close()


def test_a_gops_database_from_before_the_mark_is_read_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.duckdb"
    _older_gops_database(path, monkeypatch)
    before = _state(path)
    assert MARK_TABLE not in {t for t, _ in before[2]}
    with reading(path) as con:  # an upgraded copy in memory, with the mark
        assert con.execute(f"SELECT count(*) FROM {MARK_TABLE}").fetchone()[0] == 1
    result = gops("games", "--db", path)
    assert result.exit_code == 0, result.output
    assert _state(path) == before  # read-only: not one byte written


def test_a_gops_database_from_before_the_mark_gets_it_when_upgraded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.duckdb"
    _older_gops_database(path, monkeypatch)
    assert upgrade(path) == (MARK_VERSION - 1, versions()[-1].version)
    with reading(path) as con:
        assert schema_version(con) == versions()[-1].version
        assert con.execute(f"SELECT * FROM {MARK_TABLE}").fetchall() == [(MARK_APPLICATION,)]


def test_the_mark_is_documented(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "schema.md").read_text("utf-8")
    section = re.search(rf"`{MARK_TABLE}`:\n(.*?)(?=\n\n)", text, re.DOTALL)
    assert section, f"docs/schema.md does not describe {MARK_TABLE}"
    documented = re.findall(r"^\| `(\w+)` \|", section.group(1), re.MULTILINE)
    path = tmp_path / "new.duckdb"
    connect(path).close()
    with reading(path) as con:
        columns = [r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position", [MARK_TABLE]).fetchall()]
    assert documented == columns
    assert f"'{MARK_APPLICATION}'" in section.group(0) or MARK_APPLICATION in text
