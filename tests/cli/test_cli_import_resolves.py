"""`gops import` says how many quarantined records it found fixed in the files it read
(and marked resolved in its transaction): in its summary line and its --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
ALSO_BROKEN = club_game(2).replace("2. 5D 7C JS", "2. 5D")


def _import(*args: str):
    result = CliRunner().invoke(app, ["import", *args], env=ENV)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("club.gops").write_text(club_game(1) + "\n" + BROKEN + "\n" + ALSO_BROKEN)
    first = _import("club.gops", "--db", "t.duckdb")
    assert "2 rejected (2 newly quarantined, 0 already kept); " in first.stdout
    assert "resolved" not in first.stdout
    return tmp_path


def test_the_summary_says_how_many_it_resolved(club: Path) -> None:
    Path("club.gops").write_text(club_game(1) + "\n" + SMALL + "\n" + ALSO_BROKEN)
    result = _import("club.gops", "--db", "t.duckdb")
    assert ("1 rejected (0 newly quarantined, 1 already kept); resolved 1 quarantined "
            "record; ") in result.stdout
    listed = CliRunner().invoke(app, ["rejects", "--db", "t.duckdb"], env=ENV)
    assert "2 quarantined records: 1 open, 1 resolved" in listed.stdout
    assert "fixed: game 2 of club.gops is now valid and stored" in listed.stdout


def test_fixed_and_removed_are_told_apart_and_in_json(club: Path) -> None:
    Path("club.gops").write_text(club_game(1) + "\n" + SMALL)  # game 3 deleted
    result = _import("club.gops", "--db", "t.duckdb")
    assert ("0 rejected; resolved 2 quarantined records (1 no longer in its file); "
            in result.stdout)
    Path("club.gops").write_text(club_game(1) + "\n" + BROKEN)  # broken again: not reopened
    summary = json.loads(_import("club.gops", "--db", "t.duckdb", "--json").stdout)
    assert summary["rejects_resolved"] == 0 and summary["rejects_duplicate"] == 1
