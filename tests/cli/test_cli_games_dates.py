"""`gops games` and `gops replay` on a store holding dates Python cannot hold (issue 21).

An earlier gops stored ``[Date "0000.01.01"]`` as a year-0 date; `gops games` then ended in
``AttributeError: 'str' object has no attribute 'isoformat'``. Such a date reads as
unknown: the game is listed after the dated ones, with its Date tag as written in the
text table and ``"date": null`` (and ``date_text``) in --json."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from core.store.gamefiles import club_game
from paths import TESTS
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
GIN_CLUB = TESTS / "games" / "gin" / "gin_club.gin"
#: (Date tag as an earlier gops would have stored it, the DATE it stored), by round.
ODD = {"1": ("0000.01.01", "0000-01-01"), "2": ("-0044.03.15", "-0044-03-15"),
       "3": ("10000.01.01", "10000-01-01"), "4": ("infinity", "infinity")}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """Two dated games of one evening, four "Odd" games with odd dates, gin_club.gin's
    games (two dated 2026-03-12, one 2026-03-05), the latter given year 0."""
    folder = tmp_path_factory.mktemp("odd")
    dated = [club_game(n, event="Thursday club", extra_tags='[Date "2026.11.26"]\n')
             for n in (1, 2)]
    odd = [club_game(int(n), event="Odd", extra_tags='[Date "2026.01.01"]\n') for n in ODD]
    (folder / "games.gops").write_text("\n".join(dated + odd), encoding="utf-8")
    (folder / "club.gin").write_text(GIN_CLUB.read_text(encoding="utf-8"), encoding="utf-8")
    path = folder / "t.duckdb"
    assert import_paths([folder], path).games_new == 6 + 4  # 4 Gin hands
    con = duckdb.connect(str(path))
    for rnd, (text, date) in ODD.items():
        con.execute("UPDATE games SET date = ?::DATE, date_text = ? "
                    "WHERE event = 'Odd' AND round = ?", [date, text, rnd])
    for table in ("gin_games", "gin_hands"):
        con.execute(f"UPDATE {table} SET date = DATE '0000-01-01', date_text = '0000.01.01' "
                    "WHERE date = DATE '2026-03-05'")
    con.close()
    return path


def _run(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


def _objects(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_games_lists_odd_dates_last_as_written(db: Path) -> None:
    result = _run("games", "--db", str(db))
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()[1:-1]
    assert [r.split()[0] for r in rows] == ["2026-11-26", "2026-11-26", "0000.01.01",
                                            "-0044.03.15", "10000.01.01", "infinity"]
    assert all(" Odd " in r for r in rows[2:])


def test_games_json_gives_unknown_dates_as_null(db: Path) -> None:
    objs = _objects(_run("games", "--db", str(db), "--json"))
    assert [(o["date"], o["date_text"]) for o in objs] == [
        ("2026-11-26", "2026.11.26"), ("2026-11-26", "2026.11.26"),
        *[(None, text) for text, _ in ODD.values()]]
    dated = _objects(_run("games", "--db", str(db), "--json", "--from", "0001-01-01"))
    assert [o["event"] for o in dated] == ["Thursday club"] * 2
    assert _objects(_run("games", "--db", str(db), "--json", "--to", "9999-12-31")) == dated


def test_gin_games_list_a_year_zero_game(db: Path) -> None:
    text = _run("games", "--db", str(db), "--game", "gin")
    assert text.exit_code == 0, text.output
    assert [r.split()[0] for r in text.stdout.splitlines()[1:-1]] == [
        "2026-03-12", "2026-03-12", "0000.01.01"]
    objs = _objects(_run("games", "--db", str(db), "--game", "gin", "--json"))
    assert [o["date"] for o in objs] == ["2026-03-12", "2026-03-12", None]
    assert objs[-1]["date_text"] == "0000.01.01" and objs[-1]["winner"] == "Alice"


def test_replay_an_oddly_dated_game(db: Path) -> None:
    objs = _objects(_run("games", "--db", str(db), "--json", "--event", "Odd"))
    assert len(objs) == len(ODD)
    for obj in objs:
        result = _run("replay", obj["game_ref"], "--db", str(db))
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"game {obj['game_ref']} ({obj['game_id']})")
