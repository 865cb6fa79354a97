"""`gops ratings`: the table, --json, --csv, --player and --game gin."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from paths import TESTS
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths

ENV = {"COLUMNS": "250", "GOPS_DB": ""}

EVENINGS = """\
[Event "Tuesday club"] [Date "2026.03.03"] [A "Alice"] [B "Bruno"] [Cards "5"]
[TieRule "carry"]
1. 3♦ 3♣ 2♠  2. 5♦ 4♣ 4♠  3. A♦ A♣ 5♠  4. 4♦ 5♣ 3♠  5. 2♦ 2♣ A♠
9-6

[Event "Friday cup"] [Date "2026.03.06"] [A "Carla"] [B "Alice"] [C "Bruno"] [Cards "5"]
[TieRule "carry"]
1. 5♦ 5♣ 4♠ 3♥  2. 4♦ A♣ 5♠ 4♥  3. 3♦ 4♣ 3♠ 5♥  4. 2♦ 3♣ 2♠ 2♥  5. A♦ 2♣ A♠ A♥
8-4-3
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("ratings")
    (tmp / "club.gops").write_text(EVENINGS, encoding="utf-8")
    path = tmp / "club.duckdb"
    import_paths([tmp / "club.gops", TESTS / "games" / "gin" / "gin_club.gin"], path)
    return path


def run(*args: str):
    return CliRunner().invoke(app, ["ratings", *args], env=ENV)


def test_the_table_is_readable_best_first(db: Path) -> None:
    result = run("--db", str(db))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["player", "rating", "interval", "mu", "sigma", "games",
                                "last", "played", "change"]
    names = [line.split()[0] for line in lines[1:4]]
    assert names[2] == "Bruno"  # lost both games
    assert set(names[:2]) == {"Alice", "Carla"}
    assert all(line.split()[1].endswith("?") for line in lines[1:4])  # provisional
    assert all("2026-03-06" in line for line in lines[1:4])
    assert "3 players" in lines[-1]


def test_json_keys_are_the_contract(db: Path) -> None:
    result = run("--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert list(rows[0]) == ["player", "rating", "mu", "sigma", "low", "high", "games",
                             "provisional", "last_played", "last_event", "change"]
    alice = next(r for r in rows if r["player"] == "Alice")
    assert alice["games"] == 2 and alice["provisional"] is True
    assert alice["last_played"] == "2026-03-06" and alice["last_event"] == "Friday cup"
    assert alice["rating"] == pytest.approx(alice["mu"] - 3 * alice["sigma"], abs=0.01)


def test_csv_and_gin(db: Path) -> None:
    result = run("--db", str(db), "--game", "gin", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows and {"Alice", "Bruno"} <= {r["player"] for r in rows}
    assert float(rows[0]["rating"]) >= float(rows[-1]["rating"])


def test_a_players_form_and_an_unknown_name(db: Path) -> None:
    result = run("--db", str(db), "--player", "Alice")
    assert result.exit_code == 0, result.output
    assert "Tuesday club" in result.stdout and "Friday cup" in result.stdout
    assert "Alice: 2 evenings, 2 games" in result.stdout
    form = [json.loads(line) for line in run("--db", str(db), "--player", "Alice",
                                             "--json").stdout.splitlines()]
    assert [f["games"] for f in form] == [1, 1] and form[0]["change"] > 0
    bad = run("--db", str(db), "--player", "Alise")
    assert bad.exit_code == 2 and "did you mean 'Alice'" in bad.stderr
    typed = run("--db", str(db), "--player", "  ALICE ")  # as people type it
    assert typed.exit_code == 0, typed.output
    assert "Alice: 2 evenings, 2 games" in typed.stdout


def test_json_and_csv_together_is_a_usage_error(db: Path) -> None:
    result = run("--db", str(db), "--json", "--csv")
    assert result.exit_code == 2 and "--json" in result.stderr
