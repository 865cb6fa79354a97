"""`gops scout`: the terminal report, --json, --vs, and errors a user can act on."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.games.gops.simulate import write_simulation

runner = CliRunner()
ENV = {"COLUMNS": "250"}


def run(*args: str):
    return runner.invoke(app, ["scout", *args], env=ENV)


def test_json_is_one_object_with_the_contract_keys(sim_db):
    result = run("Clara Nowak", "--db", str(sim_db), "--json", "--simulations", "60")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == ["player", "games", "bids", "predictability", "habits", "counter",
                         "small_sample", "can_tell",
                         "exploit_verdict", "min_games_to_tell", "equilibrium"]
    assert doc["player"] == "Clara Nowak"
    assert doc["habits"][0]["description"].startswith("bids the prize plus one")
    c = doc["counter"]
    assert c["expected_gain_per_game"] > c["random_gain_per_game"]
    # against a prize-plus-one bidder, bidding the prize loses nearly every round; the
    # counter outbids by one: exploiting is worth the whole difference
    assert c["generic_gain_per_game"] < 0
    assert c["exploit_gain_per_game"] == pytest.approx(
        c["expected_gain_per_game"] - c["generic_gain_per_game"], abs=0.011)
    assert doc["small_sample"] is False and doc["games"] >= 30


def test_same_seed_same_report(sim_db):
    args = ("Anna de Vries", "--db", str(sim_db), "--json", "--simulations", "40")
    first, again = run(*args, "--seed", "3"), run(*args, "--seed", "3")
    other = run(*args, "--seed", "4")
    assert first.stdout == again.stdout != other.stdout


def test_terminal_report(sim_db):
    result = run("Bruno Keller", "--db", str(sim_db), "--simulations", "40")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Scouting Bruno Keller: ")
    assert "highly predictable" in out
    assert "  - bids exactly the prize 100% of the time" in out
    assert "expected gain: +" in out and "a uniformly random reply: " in out
    assert "the generic strategy (bid the prize): " in out
    assert "gain from exploiting Bruno Keller (counter minus generic): +" in out
    assert "Small sample" not in out


def test_a_small_sample_says_so(club_db):
    result = run("Ann", "--db", str(club_db), "--json", "--simulations", "20")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 2 and doc["small_sample"] is True
    text = run("Ann", "--db", str(club_db), "--simulations", "20").stdout
    assert "Small sample: 2 games (fewer than 30)" in text
    assert "on only 2 games: a small sample" in text  # in the verdict itself


def test_vs_restricts_to_games_against_me(sim_db):
    every = json.loads(run("Bruno Keller", "--db", str(sim_db), "--json",
                           "--simulations", "20").stdout)
    result = run("Bruno Keller", "--db", str(sim_db), "--vs", "Anna de Vries",
                 "--simulations", "20")
    assert result.exit_code == 0, result.output
    assert "(games against Anna de Vries only)" in result.stdout
    games = int(result.stdout.split(": ")[1].split(" games")[0])
    assert 2 <= games < every["games"]


def test_unknown_player_suggests_a_name(sim_db):
    result = run("Bruno Kellr", "--db", str(sim_db))
    assert result.exit_code == 2
    assert "gops: error: no stored player 'Bruno Kellr'; did you mean " \
           "'Bruno Keller'?" in result.stderr


def test_a_name_is_scouted_as_people_type_it(sim_db):
    result = run("bruno  KELLER", "--db", str(sim_db))
    assert result.exit_code == 0, result.output
    assert "Bruno Keller" in result.stdout and "bruno  KELLER" not in result.stdout


def test_missing_database(tmp_path):
    result = run("Bruno Keller", "--db", str(tmp_path / "none.duckdb"))
    assert result.exit_code == 2
    assert "no database at" in result.stderr


def test_help_has_an_example():
    result = runner.invoke(app, ["scout", "--help"], env=ENV)
    assert result.exit_code == 0
    assert "Example:" in result.stdout and 'gops scout "Bruno Keller"' in result.stdout


def _scout_json(db, player: str) -> str:
    result = run(player, "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    return result.stdout


def _renamed(path, games: int, seed: int, names: dict[str, str]):
    """Simulated records with the players of seats A and B renamed."""
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, bots=["prize", "random"])
    text = path.read_text(encoding="utf-8")
    for seat, name in names.items():
        text = "\n".join(f'[{seat} "{name}"]' if line.startswith(f"[{seat} ") else line
                         for line in text.splitlines())
    path.write_text(text + "\n", encoding="utf-8")
    return path


def test_the_first_scout_keeps_the_report_until_the_players_games_change(
        tmp_path, monkeypatch):
    """The import computes nothing; the first `gops scout` computes and keeps; the second
    reads the kept report; an import of others' games leaves it kept, one of the player's
    games retires it."""
    from gops_records.games.gops.scouting import kept_store

    monkeypatch.setattr(kept_store, "KEEP_FROM_GAMES", 2)
    calls: list[str] = []
    import gops_records.games.gops.scouting as scouting

    real = scouting.scout
    monkeypatch.setattr(scouting, "scout", lambda con, player, *a, **k: (
        calls.append(player), real(con, player, *a, **k))[1])
    db = tmp_path / "t.duckdb"
    import_paths([_renamed(tmp_path / "a.gops", 30, 4, {"A": "Pia", "B": "Ravi"})], db)
    assert calls == []
    first = _scout_json(db, "Pia")
    assert calls == ["Pia"] and _kept_players(db) == ["Pia"]
    assert _scout_json(db, "Pia") == first and calls == ["Pia"]  # read back, value for value
    import_paths([_renamed(tmp_path / "b.gops", 3, 8, {"A": "Zed", "B": "Yve"})], db)
    assert _scout_json(db, "Pia") == first and calls == ["Pia"]  # others' games: still kept
    import_paths([_renamed(tmp_path / "c.gops", 3, 9, {"A": "Pia", "B": "Yve"})], db)
    again = json.loads(_scout_json(db, "Pia"))
    assert calls == ["Pia", "Pia"]  # the player's games changed: computed anew
    assert again["games"] == json.loads(first)["games"] + 3
    assert _scout_json(db, "Pia") == json.dumps(again, ensure_ascii=False) + "\n"
    assert calls == ["Pia", "Pia"]  # and kept again


def test_scout_answers_when_the_report_cannot_be_kept(tmp_path, monkeypatch):
    from gops_records.games.gops.scouting import kept_store

    monkeypatch.setattr(kept_store, "KEEP_FROM_GAMES", 2)
    monkeypatch.setattr(kept_store, "keep", lambda *a, **k: False)  # e.g. the file is held
    db = tmp_path / "t.duckdb"
    import_paths([_renamed(tmp_path / "a.gops", 30, 4, {"A": "Pia", "B": "Ravi"})], db)
    assert json.loads(_scout_json(db, "Pia"))["player"] == "Pia"
    assert _kept_players(db) == []


def _kept_players(db) -> list[str]:
    from gops_records.core.store.db import reading

    with reading(db) as con:
        return [r[0] for r in con.execute("SELECT player FROM scout_reports").fetchall()]
