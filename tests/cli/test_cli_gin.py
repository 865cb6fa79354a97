"""One CLI for Gin Rummy: validate, replay, import, export, games and rejects on .gin and
.ginsheet files, with the conventions of .gops (JSON objects, exit codes, FILE:LINE:COL)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.store.db import reading

ROOT = Path(__file__).resolve().parents[2]
ENV = {"COLUMNS": "250", "GOPS_DB": ""}
(GAME,) = re.findall(r"```gin-game\n(.*?)```", (ROOT / "docs" / "gin.md").read_text("utf-8"),
                     re.S)
SHEET = """\
[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]
1. B up 6 B gin v 35 0-60 = 0-60
2. B up 3 A biggin v 79 129-0 = 129-60
169-0
"""
#: hand 2 with a stock draw of a card Bruno was dealt (line 28 of the file: turn 3)
BROKEN = GAME.replace("3. A s:Q♦ biggin", "3. A s:K♠ biggin")


def gops(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "game.gin").write_text(GAME, "utf-8")
    (folder / "game.ginsheet").write_text(SHEET, "utf-8")
    return folder


def test_validate_prints_one_object_per_hand_and_sheet(club: Path) -> None:
    result = gops("validate", "--json", club)
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["kind"], o["record"], o["valid"]) for o in objects] == [
        ("hand", 1, True), ("hand", 2, True), ("sheet", 1, True)]  # .gin read first
    hand, _, sheet = objects
    assert list(hand) == ["source", "record", "kind", "line", "players", "match", "game", "hand",
                          "valid", "finished", "outcome", "scores", "winner", "turns", "errors"]
    assert (hand["outcome"], hand["scores"], hand["winner"]) == ("gin", [0, 60], "Bruno")
    assert (sheet["scores"], sheet["winner"], sheet["totals"]) == ([169, 0], "Alice", [129, 60])


def test_validate_reports_problems_at_line_and_column_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "bad.gin").write_text(BROKEN, "utf-8")
    (tmp_path / "bad.ginsheet").write_text(SHEET.replace("1. B up 6", "1. A up 6"), "utf-8")
    result = gops("validate", tmp_path / "bad.gin", tmp_path / "bad.ginsheet")
    assert result.exit_code == 1
    out = result.stdout
    assert f"{tmp_path / 'bad.gin'}:28:6: card-seen: K♠ cannot come from the stock" in out
    # the sheet against the full hands of the same game, read first: Bruno dealt hand 1
    assert f"{tmp_path / 'bad.ginsheet'}:2:4: sheet-mismatch: the full record of hand 1" in out
    assert out.rstrip().endswith("3 games in 2 files: 1 valid, 2 invalid")
    objects = [json.loads(x) for x in gops("validate", "--json", tmp_path / "bad.gin").stdout
               .splitlines()]
    (error,) = objects[1]["errors"]
    assert (error["code"], error["line"], error["column"], error["turn"]) == (
        "card-seen", 28, 6, 3)


def test_replay_shows_a_hand_turn_by_turn_and_a_sheet_hand_by_hand(club: Path) -> None:
    result = gops("replay", club / "game.gin", "--number", "2")
    assert result.exit_code == 0, result.output
    assert "Alice goes big gin: (2♠ 3♠ 4♠ 5♠) (7♣ 7♦ 7♥) (9♦ 10♦ J♦ Q♦), deadwood 0" in \
        result.stdout
    assert "Outcome: big gin: Alice scores 129 (129-0)" in result.stdout
    assert re.search(r"^\s+3\s+Alice\s+s:Q♦\s+biggin\s+0\s+30$", result.stdout, re.M)
    sheet = gops("replay", club / "game.ginsheet")
    assert sheet.exit_code == 0
    assert ("Game: Alice wins 169: 129 - 60 + 100 + 20 x (1 - 1) = 169, "
            "no blitz (Bruno (B) won a hand)") in sheet.stdout
    assert gops("replay", club / "game.gin", "--number", "3").exit_code == 2
    (club / "bad.gin").write_text(BROKEN, "utf-8")
    broken = gops("replay", club / "bad.gin", "--number", "2")
    assert broken.exit_code == 1
    assert "3  illegal turn: not played" in broken.stdout and "card-seen" in broken.stdout


def test_import_export_and_import_again_give_back_the_same_records(club: Path, tmp_path):
    db = tmp_path / "t.duckdb"
    result = gops("import", club, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["games_new"], summary["games_duplicate"]) == (2, 1)  # the sheet: its game
    with reading(db) as con:
        before = con.execute("SELECT hand_id FROM gin_hands ORDER BY ALL").fetchall()
        games = con.execute("SELECT game_id, game_score FROM gin_games").fetchall()
    out = tmp_path / "out"
    assert gops("export", "-f", "gin", "-o", out / "all.gin", "--db", db).exit_code == 0
    result = gops("export", "-f", "ginsheet", "-o", out / "all.ginsheet", "--db", db)
    assert result.stdout.strip() == f"exported 1 sheet (2 hands) as ginsheet to {out}/all.ginsheet"
    assert (out / "all.ginsheet").read_text("utf-8") == SHEET.replace(
        '[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]\n',
        '[Match "Alice-Bruno"]\n[Game "1"]\n[A "Alice"]\n[B "Bruno"]\n\n')
    again = json.loads(gops("import", out, "--db", db, "--json").stdout)
    assert (again["games_new"], again["games_duplicate"], again["games_rejected"]) == (0, 3, 0)
    fresh = tmp_path / "fresh.duckdb"
    gops("import", out / "all.gin", "--db", fresh)
    with reading(fresh) as con:
        assert con.execute("SELECT hand_id FROM gin_hands ORDER BY ALL").fetchall() == before
        assert con.execute("SELECT game_id, game_score FROM gin_games").fetchall() == games
    stdout = gops("export", "-f", "gin", "-o", "-", "--db", db, "--player", "Alice")
    assert stdout.stdout.count("[Match") == 2
    assert gops("export", "-f", "gin", "-o", "-", "--db", db, "--player", "Alise").exit_code == 2


def test_games_lists_gin_games(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    gops("import", club, "--db", db)
    listed = gops("games", "--game", "gin", "--db", db)
    assert listed.exit_code == 0
    header, row, count = listed.stdout.strip().splitlines()
    assert header.split()[:4] == ["date", "event", "match", "game"]
    assert row.split()[:9] == ["Alice-Bruno", "1", "Alice", "v", "Bruno", "1-1", "129-60",
                               "Alice", "169"]
    assert count == "1 Gin Rummy game"
    (game,) = [json.loads(x) for x in gops("games", "--game", "gin", "--json", "--db", db)
               .stdout.splitlines()]
    assert (game["match"], game["game"], game["hands_won"], game["game_score"]) == (
        "Alice-Bruno", 1, [1, 1], 169)
    gops_listing = gops("games", "--db", db).stdout
    assert "1 Gin Rummy game stored: gops games --game gin lists them" in gops_listing


def test_rejects_lists_shows_and_rechecks_gin_records(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    path = club / "game.gin"
    path.write_text(BROKEN, "utf-8")
    db = tmp_path / "t.duckdb"
    gops("import", club, "--db", db)
    listed = gops("rejects", "--db", db, "--json")
    (reject,) = [json.loads(x) for x in listed.stdout.splitlines()]
    assert reject["codes"] == ["card-seen"] and reject["source_game"] == 2
    shown = gops("rejects", "--db", db, "--show", reject["reject_id"])
    assert "28:6: card-seen" in shown.stdout, shown.stdout
    assert "  28 | 3. A s:K♠ biggin" in shown.stdout  # numbered as in its file
    path.write_text(GAME, "utf-8")  # fixed in the file, imported again
    gops("import", club, "--db", db)
    rechecked = gops("rejects", "--recheck", "--db", db, "--json")
    (after,) = [json.loads(x) for x in rechecked.stdout.splitlines()]
    assert after["resolved"] and after["resolution"]["how"] == "fixed"
