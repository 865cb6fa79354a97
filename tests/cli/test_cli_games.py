"""`gops games`: stored games found by player, event and date; `gops replay` of a stored
game by its id or reference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.game_refs import game_ref
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
THREE = """[Event "Friday"]
[Date "2026.11.27"]
[A "Ann"] [B "Bob"] [C "Cy"]
[Cards "5"] [TieRule "discard"] [PrizeOrder "ascending"]
1. AD 5C 5S AH
2. 2D AC 2S 5H
3. 3D 4C 4S 2H
4. 4D 2C 3S 4H
5. 5D 3C AS 3H
0-0-6
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "evening.gops").write_text("\n".join([
        club_game(1, event="Thursday club", extra_tags='[Date "2026.11.26"]\n'),
        club_game(2, event="Thursday club", extra_tags='[Date "2026.11.26"]\n'),
        THREE, SMALL]))
    path = tmp_path / "t.duckdb"
    assert import_paths([tmp_path / "evening.gops"], path).games_new == 4
    return path


def _games(db: Path, *args: str):
    return CliRunner().invoke(app, ["games", "--db", str(db), *args], env=ENV)


def _objects(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_json_has_one_object_per_game_with_the_contract_keys(db: Path) -> None:
    objs = _objects(_games(db, "--json"))
    assert len(objs) == 4
    for obj in objs:
        assert {"game_id", "date", "event", "players", "scores", "winner"} <= set(obj)
        assert isinstance(obj["game_id"], int) and obj["game_ref"] == game_ref(obj["game_id"])
    # newest date first, undated last; one evening in file order
    assert [(o["date"], o["event"]) for o in objs] == [
        ("2026-11-27", "Friday"), ("2026-11-26", "Thursday club"),
        ("2026-11-26", "Thursday club"), (None, "Club")]
    friday = objs[0]
    assert (friday["players"], friday["scores"], friday["winner"]) == (
        ["Ann", "Bob", "Cy"], [0, 0, 6], "Cy")
    assert objs[1]["players"] == ["Alice", "Bruno"] and objs[1]["scores"] == [45, 46]
    with reading(db) as con:
        stored = {r[0] for r in con.execute("SELECT game_id FROM games").fetchall()}
    assert {o["game_id"] for o in objs} == stored


def test_filters_combine(db: Path) -> None:
    def events(*args: str) -> list[str]:
        return [o["event"] for o in _objects(_games(db, "--json", *args))]

    assert events("--player", "Alice") == ["Thursday club", "Thursday club"]
    assert events("--player", "Ann", "--player", "Bruno") == [
        "Friday", "Thursday club", "Thursday club", "Club"]
    assert events("--event", "Friday") == ["Friday"]
    assert events("--from", "2026-11-27") == ["Friday"]
    assert events("--to", "2026-11-26", "--player", "Bruno") == ["Thursday club"] * 2
    assert events("--from", "2026-12-01") == []


def test_text_lists_the_games_with_their_reference(db: Path) -> None:
    result = _games(db, "--event", "Thursday club", "--limit", "1")
    assert result.exit_code == 0, result.output
    header, row, last = result.stdout.splitlines()
    assert header.split() == ["date", "event", "round", "players", "result", "winner", "game",
                              "id"]
    assert row.split()[:3] == ["2026-11-26", "Thursday", "club"]
    assert "Alice v Bruno" in row and "45-46" in row and "Bruno" in row
    ref = row.split()[-2]
    assert ref == game_ref(int(row.split()[-1])) and len(ref) == 9
    assert last == (f"the newest 1 of 2 games (--limit 0 shows every one); gops replay {ref} "
                    "replays one")


def test_names_match_as_typed_and_unknown_ones_have_close_matches(db: Path) -> None:
    typed = _games(db, "--player", "alice", "--event", " THURSDAY   Club")
    assert typed.exit_code == 0, typed.output
    assert "Alice" in typed.stdout and "Thursday club" in typed.stdout  # stored spellings
    player = _games(db, "--player", "Alcie")
    assert player.exit_code == 2 and "did you mean 'Alice'?" in player.stderr
    event = _games(db, "--event", "Thursday clubs")
    assert event.exit_code == 2 and "did you mean 'Thursday club'?" in event.stderr
    bad = _games(db, "--from", "tomorrow")
    assert bad.exit_code == 2 and "is not a date like" in bad.stderr


def test_replay_a_stored_game_by_its_reference_or_id(db: Path) -> None:
    (friday,) = _objects(_games(db, "--json", "--event", "Friday"))
    runner = CliRunner()
    by_ref = runner.invoke(app, ["replay", friday["game_ref"], "--db", str(db)], env=ENV)
    assert by_ref.exit_code == 0, by_ref.output
    first = by_ref.stdout.splitlines()[0]
    assert first.startswith(f"game {friday['game_ref']} ({friday['game_id']}) in {db}, first "
                            "imported from ")
    assert first.endswith(" game 3: Ann v Bob v Cy | 5 cards, tie rule discard, prizes "
                          "ascending")
    assert by_ref.stdout.splitlines()[-1] == ("Outcome: Ann 0, Bob 0, Cy 6; unclaimed 9: "
                                              "Cy wins")
    by_id = runner.invoke(app, ["replay", str(friday["game_id"]), "--db", str(db)], env=ENV)
    assert by_id.exit_code == 0 and by_id.stdout == by_ref.stdout
    missing = runner.invoke(app, ["replay", "g0000", "--db", str(db)], env=ENV)
    assert missing.exit_code == 2 and "no stored game has the reference 'g0000'" in \
        missing.stderr
