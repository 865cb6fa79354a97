"""gops players, gops events, gops alias, gops games --csv and name completion."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from names_fixture import names_db  # noqa: E402

from gops_records.cli import app  # noqa: E402
from gops_records.cli.name_completion import complete_event, complete_player  # noqa: E402

ENV = {"COLUMNS": "250", "GOPS_DB": ""}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return names_db(tmp_path)


def gops(*args: str | Path) -> object:
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def test_players_and_events_list_names_with_counts_and_dates(db: Path) -> None:
    table = gops("players", "--db", db)
    assert table.exit_code == 0, table.output
    header, *rows, summary = table.stdout.splitlines()
    assert header.split() == ["player", "game", "games", "first", "last"]
    assert rows[0].split() == ["Joost", "gops", "3", "2026-01-15", "2026-01-22"]
    assert summary.startswith("4 players")
    events = [json.loads(line) for line in gops("events", "--db", db, "--json").stdout.splitlines()]
    assert events == [
        {"name": "Thursday Club", "game": "gops", "games": 2, "first": "2026-01-15",
         "last": "2026-01-15"},
        {"name": "Thursday club", "game": "gops", "games": 1, "first": "2026-01-22",
         "last": "2026-01-22"}]
    assert gops("events", "--db", db, "--game", "gin").stdout == "no events are stored\n"


def test_csv_outputs_are_read_by_polars(db: Path) -> None:
    players = pl.read_csv(io.StringIO(gops("players", "--db", db, "--csv").stdout),
                          try_parse_dates=True)
    assert players.columns == ["name", "game", "games", "first", "last"]
    assert dict(zip(players["name"], players["games"], strict=True)) == {
        "Joost": 3, "Karin Vos": 3, "Marta": 2, "Márta": 1}
    assert players.schema["first"] == pl.Date
    games = gops("games", "--db", db, "--csv", "--player", "JOOST")
    assert games.exit_code == 0, games.output
    frame = pl.read_csv(io.StringIO(games.stdout))
    assert frame.height == 3 and frame["game_ref"].str.starts_with("g").all()
    assert sorted(frame["players"].to_list())[0] == "Karin Vos;Marta;Joost"
    assert set(frame["event"]) == {"Thursday Club", "Thursday club"}
    both = gops("games", "--db", db, "--csv", "--json")
    assert both.exit_code == 2 and "give one of them" in both.stderr


def test_alias_add_list_remove_round_trip_merges_counts_in_commands(db: Path) -> None:
    added = gops("alias", "Thursday club", "thursday CLUB", "--db", db, "--json")
    assert added.exit_code == 0, added.output
    assert {k: v for k, v in json.loads(added.stdout).items() if k != "added_at"} == {
        "action": "added", "kind": "event", "alias": "Thursday club", "name": "Thursday Club"}
    listed = [json.loads(line) for line in
              gops("alias", "--list", "--json", "--db", db).stdout.splitlines()]
    assert [(a["kind"], a["alias"], a["name"]) for a in listed] == [
        ("event", "Thursday club", "Thursday Club")]
    events = gops("events", "--db", db, "--csv").stdout
    assert pl.read_csv(io.StringIO(events))["games"].to_list() == [3]  # merged
    games = gops("games", "--db", db, "--event", "thursday club")
    assert "Thursday club" not in games.stdout and games.stdout.count("Thursday Club") == 3
    removed = gops("alias", "--remove", "thursday club", "--db", db)
    assert removed.exit_code == 0 and "shown as itself again" in removed.stdout
    assert gops("alias", "--list", "--db", db).stdout.startswith("no aliases are stored")
    assert pl.read_csv(io.StringIO(gops("events", "--db", db, "--csv").stdout)).height == 2


@pytest.mark.parametrize("args, message", [
    (("Nobody", "Joost"), "no stored player or event is named 'Nobody'"),
    (("Joost",), "give ALIAS NAME to add an alias"),
    (("--list", "--remove", "Joost"), "give ALIAS NAME to add an alias"),
    (("--remove", "Joost"), "no alias 'Joost' is stored (gops alias --list shows them)"),
])
def test_a_refused_alias_exits_2_with_a_plain_message(db: Path, args, message) -> None:
    result = gops("alias", *args, "--db", db)
    assert result.exit_code == 2 and f"gops: error: {message}" in result.stderr


def test_a_cycle_is_refused(db: Path) -> None:
    assert gops("alias", "Márta", "Marta", "--db", db).exit_code == 0
    cycle = gops("alias", "Marta", "Márta", "--db", db)
    assert cycle.exit_code == 2 and "would make a cycle" in cycle.stderr


class _Ctx:
    def __init__(self, db: Path | None) -> None:
        self.params = {"db": db}


def test_shell_completion_offers_stored_names_as_typed_and_fails_silently(db, tmp_path):
    assert complete_player(_Ctx(db), "mar") == ["Marta", "Márta"]
    assert complete_player(_Ctx(db), "MÁR") == ["Marta", "Márta"]
    assert complete_event(_Ctx(db), "thursday c") == ["Thursday Club", "Thursday club"]
    assert complete_player(_Ctx(tmp_path / "none.duckdb"), "m") == []
    (tmp_path / "junk.duckdb").write_text("not a database")
    assert complete_event(_Ctx(tmp_path / "junk.duckdb"), "") == []
