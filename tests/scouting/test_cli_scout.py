"""`gops scout`: the terminal report, --json, --vs, and errors a user can act on."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gops_records.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "250"}


def run(*args: str):
    return runner.invoke(app, ["scout", *args], env=ENV)


def test_json_is_one_object_with_the_contract_keys(sim_db):
    result = run("Clara Nowak", "--db", str(sim_db), "--json", "--simulations", "60")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert list(doc) == ["player", "games", "bids", "predictability", "habits", "counter",
                         "small_sample"]
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
    assert "gops: error: no recorded games for player 'Bruno Kellr'; did you mean " \
           "'Bruno Keller'?" in result.stderr


def test_missing_database(tmp_path):
    result = run("Bruno Keller", "--db", str(tmp_path / "none.duckdb"))
    assert result.exit_code == 2
    assert "no database at" in result.stderr


def test_help_has_an_example():
    result = runner.invoke(app, ["scout", "--help"], env=ENV)
    assert result.exit_code == 0
    assert "Example:" in result.stdout and 'gops scout "Bruno Keller"' in result.stdout
