"""Scouting covers classic games only: games of the variants (bids of several cards, open
prizes) are left out of the study, and the report, the terminal text and the errors say so.

The database holds the same simulated classic games as a classic-only database, plus
games of both variants between the same roster players: every figure of a scout must be
the one the classic-only database gives, and the report counts what it left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.games.gops.analytics import ALL_GAMES, list_players
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.scouting import ScoutError, scout
from gops_records.games.gops.scouting.features import studied
from gops_records.games.gops.simulate import write_simulation

SIMULATIONS = 60


def _write(path: Path, games: int, seed: int, profile: RuleProfile | None = None) -> Path:
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, profile)
    return path


@pytest.fixture(scope="module")
def dbs(tmp_path_factory) -> tuple[Path, Path]:
    """(classic only, the same classic games with games of both variants)."""
    tmp = tmp_path_factory.mktemp("scout_variants")
    classic = _write(tmp / "classic.gops", 120, 41)
    pairs = _write(tmp / "pairs.gops", 60, 42, RuleProfile(bid_cards=2))
    row = _write(tmp / "row.gops", 60, 43, RuleProfile(open_prizes=3))
    alone, mixed = tmp / "classic.duckdb", tmp / "mixed.duckdb"
    import_paths([classic], alone)
    summary = import_paths([classic, pairs, row], mixed)
    assert summary.games_new == 240, summary.as_dict()
    return alone, mixed


def _variant_games(con: duckdb.DuckDBPyConnection, player: str) -> int:
    return con.execute("""SELECT count(*) FROM games g JOIN game_players p USING (game_id)
                          WHERE p.player = ? AND (g.bid_cards > 1 OR g.open_prizes IS NOT NULL)
                          """, [player]).fetchall()[0][0]


def test_the_variants_change_nothing_in_the_report(dbs):
    alone_db, mixed_db = dbs
    alone = duckdb.connect(str(alone_db), read_only=True)
    mixed = duckdb.connect(str(mixed_db), read_only=True)
    try:
        players = list_players(alone, ALL_GAMES)
        both = [p for p in players if _variant_games(mixed, p)]
        assert len(both) >= 3  # players with games of both kinds
        for player in both[:3]:
            expected = scout(alone, player, seed=2, simulations=SIMULATIONS)
            got = scout(mixed, player, seed=2, simulations=SIMULATIONS)
            assert got.as_json() == expected.as_json()
            assert list(got.as_json())[:10] == ["player", "games", "bids", "predictability",
                                                "habits", "counter", "small_sample",
                                                "can_tell", "exploit_verdict",
                                                "min_games_to_tell"]
            assert expected.variant_games == 0
            assert got.variant_games == _variant_games(mixed, player) > 0
            assert studied(mixed, player).frame.equals(studied(alone, player).frame)
            text = got.text()
            assert f"Classic games only: {got.variant_games} games of the variants" in text
            assert "Classic games only" not in expected.text()
    finally:
        alone.close()
        mixed.close()


def test_a_player_of_variant_games_only_is_told_why(dbs):
    _, mixed_db = dbs
    con = duckdb.connect(str(mixed_db), read_only=True)
    try:
        only_variants = [p for p in list_players(con, ALL_GAMES)
                         if not studied(con, p).frame.height]
        assert only_variants  # the roster gives some players variant games only
        player = only_variants[0]
        assert _variant_games(con, player) > 0
        with pytest.raises(ScoutError, match="covers classic games only"):
            scout(con, player, simulations=SIMULATIONS)
    finally:
        con.close()
    result = CliRunner().invoke(app, ["scout", player, "--db", str(mixed_db)],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 2
    assert "of the variants" in result.output and "classic games only" in result.output


def test_the_terminal_report_says_what_it_left_out(dbs):
    _, mixed_db = dbs
    con = duckdb.connect(str(mixed_db), read_only=True)
    try:
        player = next(p for p in list_players(con, ALL_GAMES) if _variant_games(con, p)
                      and studied(con, p).frame.height)
        left_out = _variant_games(con, player)
    finally:
        con.close()
    runner = CliRunner()
    text = runner.invoke(app, ["scout", player, "--db", str(mixed_db), "--simulations",
                               str(SIMULATIONS)], env={"COLUMNS": "250"})
    assert text.exit_code == 0, text.output
    assert f"Classic games only: {left_out} game" in text.stdout
    doc = runner.invoke(app, ["scout", player, "--db", str(mixed_db), "--json",
                              "--simulations", str(SIMULATIONS)], env={"COLUMNS": "250"})
    assert list(json.loads(doc.stdout))[:10] == ["player", "games", "bids", "predictability",
                                                 "habits", "counter", "small_sample",
                                                 "can_tell", "exploit_verdict",
                                                 "min_games_to_tell"]
