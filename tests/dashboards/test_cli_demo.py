"""`gops demo --no-dashboard` and `gops dashboard`'s command line, without starting a server."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from club_fixture import GAMES, write_records
from typer.testing import CliRunner

from gops_records.cli import app, dashboard_cmd

ENV = {"COLUMNS": "250"}


def _games(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    finally:
        con.close()


def test_demo_imports_once_then_adds_nothing(tmp_path, monkeypatch):
    samples = write_records(tmp_path / "samples")
    monkeypatch.setattr(dashboard_cmd, "samples_dir", lambda: samples)
    db = tmp_path / "demo.duckdb"
    runner = CliRunner()
    first = runner.invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
    assert first.exit_code == 0, first.output
    assert f"{GAMES} new, 0 duplicate, 1 rejected" in first.stdout
    assert _games(db) == GAMES
    second = runner.invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
    assert second.exit_code == 0, second.output
    assert f"0 new, {GAMES} duplicate, 1 rejected (0 newly quarantined, 1 already kept)" \
        in second.stdout
    assert _games(db) == GAMES


def _records(db: Path) -> int:
    """Records as the import counts them: Gops games, Gin full hands and Gin sheets."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT (SELECT count(*) FROM games)"
            " + (SELECT count(*) FROM gin_hands WHERE recorded = 'full')"
            " + (SELECT count(*) FROM gin_games WHERE recorded = 'sheet')").fetchone()[0]
    finally:
        con.close()


def test_demo_on_the_bundled_samples(tmp_path):
    if dashboard_cmd.samples_dir() is None:
        pytest.skip("gops_records/samples/ has no record files")
    db = tmp_path / "demo.duckdb"
    runner = CliRunner()
    first = runner.invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
    assert first.exit_code == 0, first.output
    new = _records(db)
    assert new > 0
    assert f"{new} new, 0 duplicate" in first.stdout
    second = runner.invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
    assert second.exit_code == 0, second.output
    assert f"0 new, {new} duplicate" in second.stdout
    assert _records(db) == new


def test_demo_without_samples_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(dashboard_cmd, "samples_dir", lambda: None)
    result = CliRunner().invoke(app, ["demo", "--db", str(tmp_path / "x.duckdb"),
                                      "--no-dashboard"], env=ENV)
    assert result.exit_code == 2
    assert "cannot find the bundled samples" in result.stderr
    assert not (tmp_path / "x.duckdb").exists()


def test_streamlit_command_binds_localhost_and_passes_the_db(tmp_path):
    command = dashboard_cmd.streamlit_command(tmp_path / "c.duckdb", 8599, "127.0.0.1")
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]).name == "app.py" and Path(command[4]).is_file()
    assert "--server.address=127.0.0.1" in command
    assert "--server.port=8599" in command
    assert "--server.headless=true" in command
    assert command[-3:] == ["--", "--db", str(tmp_path / "c.duckdb")]


def test_dashboard_help_has_an_example():
    for name in ("dashboard", "demo"):
        result = CliRunner().invoke(app, [name, "--help"], env=ENV)
        assert result.exit_code == 0
        assert "Example:" in result.stdout and f"gops {name}" in result.stdout
        assert "[default: 127.0.0.1]" in " ".join(result.stdout.split())


def test_samples_are_package_data_stored_under_readable_names(tmp_path, monkeypatch):
    root = Path(__file__).resolve().parents[2]
    for where in (root, tmp_path):  # wherever the demo runs
        monkeypatch.chdir(where)
        assert dashboard_cmd.samples_dir() == root / "gops_records" / "samples"
    db = tmp_path / "demo.duckdb"
    result = CliRunner().invoke(app, ["demo", "--db", "demo.duckdb", "--no-dashboard"], env=ENV)
    assert result.exit_code == 0, result.output
    assert f"into {db}: " in result.stdout  # a relative --db, from where the command ran
    con = duckdb.connect(str(db), read_only=True)
    try:
        names, paths = con.execute("SELECT sources, source_paths FROM imports").fetchone()
    finally:
        con.close()
    assert "samples/2026-01-13-gops-society.gops" in names  # readable, not site-packages/...
    assert str(root / "gops_records" / "samples" / "quarantine-demo.gops") in paths
    assert "deliberately broken sample records" in result.stdout
