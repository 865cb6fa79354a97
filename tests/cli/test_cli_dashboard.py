"""`gops dashboard` / `gops demo`: a port in use is a plain message naming --port (before
anything starts or is imported); the demo says its rejects are broken on purpose, counted
from the database."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app, dashboard_cmd

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")


@pytest.fixture
def busy_port():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    yield holder.getsockname()[1]
    holder.close()


@pytest.fixture
def never_serve(monkeypatch):
    started = []
    monkeypatch.setattr(dashboard_cmd.os, "execve", lambda *a: started.append(a))
    monkeypatch.setattr(dashboard_cmd.subprocess, "run", lambda *a, **k: started.append(a))
    return started


def test_a_port_in_use_is_a_plain_message_naming_port(tmp_path, busy_port, never_serve):
    result = CliRunner().invoke(app, ["dashboard", "--db", str(tmp_path / "d.duckdb"),
                                      "--port", str(busy_port)], env=ENV)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gops: error: port {busy_port} on 127.0.0.1 is already "
                                    "in use")
    assert "choose another with --port" in result.stderr
    assert "dashboard on http" not in result.output and never_serve == []


def test_demo_checks_the_port_before_importing(tmp_path, busy_port, never_serve, monkeypatch):
    monkeypatch.setattr(dashboard_cmd, "samples_dir", lambda: tmp_path)
    (tmp_path / "s.gops").write_text(SMALL)
    db = tmp_path / "demo.duckdb"
    result = CliRunner().invoke(app, ["demo", "--db", str(db), "--port", str(busy_port)],
                                env=ENV)
    assert result.exit_code == 2 and "--port" in result.stderr
    assert not db.exists() and never_serve == []


def test_a_free_port_is_free():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert dashboard_cmd.port_problem("127.0.0.1", port) is None


def test_the_demo_says_its_rejects_are_broken_on_purpose(tmp_path, monkeypatch):
    samples = tmp_path / "samples"
    samples.mkdir()
    (samples / "evening.gops").write_text(club_game(1))
    (samples / "broken.gops").write_text(BROKEN + "\n" + BROKEN.replace('"Ann"', '"Anna"'))
    monkeypatch.setattr(dashboard_cmd, "samples_dir", lambda: samples)
    db = tmp_path / "demo.duckdb"
    for _ in range(2):  # the second run counts them again, from the database
        result = CliRunner().invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines()[-1] == (
            "The 2 rejected records are deliberately broken sample records (broken.gops), "
            f"there to show what the quarantine keeps: see them with gops rejects --db {db}, "
            "or on the dashboard's Data quality page.")


def test_a_demo_without_rejects_says_nothing_of_them(tmp_path, monkeypatch):
    monkeypatch.setattr(dashboard_cmd, "samples_dir", lambda: tmp_path)
    (tmp_path / "evening.gops").write_text(club_game(1))
    result = CliRunner().invoke(app, ["demo", "--db", str(tmp_path / "d.duckdb"),
                                      "--no-dashboard"], env=ENV)
    assert result.exit_code == 0 and "deliberately broken" not in result.stdout
    assert Path(tmp_path / "d.duckdb").exists()
