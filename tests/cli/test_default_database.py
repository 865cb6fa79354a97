"""One default database, wherever a command runs: the user's data folder (the tests'
is a temporary one: tests/conftest.py sets $XDG_DATA_HOME), $GOPS_DB and --db before it;
every command that writes names the absolute path of the file it wrote."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app, dashboard_cmd
from gops_records.core.store.db import default_db_path, shown_path

ENV = {"COLUMNS": "250", "GOPS_DB": ""}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user data folder of this test's own (no database in it yet)."""
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    monkeypatch.delenv("GOPS_DB", raising=False)
    return folder


@pytest.fixture
def records(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "evening.gops").write_text(club_game(1) + "\n" + club_game(2))
    return folder


def test_the_default_is_in_the_user_data_folder_whatever_the_folder(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = home / "gops-records" / "gops.duckdb"
    for where in (tmp_path, Path("/")):
        monkeypatch.chdir(where)
        assert default_db_path() == expected
        assert shown_path(None) == expected
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GOPS_DB", "club.duckdb")  # $GOPS_DB wins, a relative one shown whole
    assert default_db_path() == Path("club.duckdb")
    assert shown_path(None) == tmp_path / "club.duckdb"
    assert shown_path("other.duckdb") == tmp_path / "other.duckdb"  # and --db before it


def test_import_from_another_folder_writes_the_one_default_and_says_where(
        home: Path, records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(app, ["import", str(records)], env=ENV)
    assert result.exit_code == 0, result.output
    db = home / "gops-records" / "gops.duckdb"
    assert result.stdout.startswith(f"import 1 into {db}: 1 files, 2 games seen: 2 new")
    assert db.is_file()
    assert not (elsewhere / "data").exists()  # nothing made where the command ran
    monkeypatch.chdir(records)  # from any other folder: the same file, the games there
    again = CliRunner().invoke(app, ["import", "--json", "evening.gops"], env=ENV)
    assert again.exit_code == 0, again.output
    summary = json.loads(again.stdout)
    assert summary["db"] == str(db) and summary["games_duplicate"] == 2


def test_a_relative_db_is_named_whole(home: Path, records: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["import", str(records), "--db", "club.duckdb"], env=ENV)
    assert result.exit_code == 0, result.output
    assert f"into {tmp_path / 'club.duckdb'}: " in result.stdout
    upgraded = CliRunner().invoke(app, ["upgrade", "--db", "club.duckdb"], env=ENV)
    assert upgraded.exit_code == 0, upgraded.output
    assert upgraded.stdout.startswith(f"{tmp_path / 'club.duckdb'}: schema version ")
    assert not (home / "gops-records").exists()  # --db: the default is left alone


def test_recheck_names_the_database_it_marked(home: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken.gops").write_text(SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S"))
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["import", "broken.gops"], env=ENV).exit_code == 0
    result = CliRunner().invoke(app, ["rejects", "--recheck"], env=ENV)
    assert result.exit_code == 0, result.output
    db = home / "gops-records" / "gops.duckdb"
    assert f"re-checked: 0 newly resolved, 0 reopened (marks stored in {db})" in result.stdout


def test_the_dashboard_opens_the_database_import_wrote(
        home: Path, records: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(records)
    assert CliRunner().invoke(app, ["import", "."], env=ENV).exit_code == 0
    started: list[tuple] = []
    monkeypatch.setattr(dashboard_cmd.os, "execve", lambda *a: started.append(a))
    monkeypatch.setattr(dashboard_cmd.subprocess, "run", lambda *a, **k: started.append(a))
    monkeypatch.chdir(tmp_path)  # started from another folder
    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = CliRunner().invoke(app, ["dashboard", "--port", str(port)], env=ENV)
    assert started, result.output
    _, command, env = started[0]
    db = home / "gops-records" / "gops.duckdb"
    assert command[-2:] == ["--db", str(db)] and env["GOPS_DB"] == str(db)
    assert f"(database {db})" in result.stderr
