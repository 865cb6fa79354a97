"""Games of the two variants in the store: the new columns (games.bid_cards, open_prizes;
rounds.cards_a..d, revealed, taken, discarded; bids.cards_played, strength) hold what the
replay found, scores add up from the rounds, and the exports give the same games back."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gops_records.core.export import export_games
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.notation import write_games
from gops_records.games.gops.reading import parse, read_reports
from gops_records.games.gops.replay import read_chunk, replay_tokens
from gops_records.games.gops.replay.frames import ChunkGames
from gops_records.games.gops.replay.records import record_tokens
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import simulate, write_simulation

PROFILES = {
    "bids2": RuleProfile(bid_cards=2, players=3),
    "bids3": RuleProfile(bid_cards=3, tie_rule=TieRule.DISCARD),
    "open3": RuleProfile(open_prizes=3),
    "open4": RuleProfile(open_prizes=4, players=4, tie_rule=TieRule.DISCARD),
    "classic": RuleProfile(),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("variants")
    for name, profile in PROFILES.items():
        with (folder / f"{name}.gops").open("w", encoding="utf-8") as f:
            write_simulation(f, 12, 4, profile)
    db = folder / "t.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_new == 60 and summary.games_rejected == 0
    return folder, db


def test_the_variants_columns(store):
    _, db = store
    with reading(db) as con:
        games = dict(con.execute("SELECT source, (min(bid_cards), max(open_prizes), "
                                 "bool_and(finished), min(rounds_played)) FROM games "
                                 "GROUP BY source").fetchall())
        assert {Path(k).stem: v for k, v in games.items()} == {
            "bids2": (2, None, True, 6), "bids3": (3, None, True, 4), "open3": (1, 3, True, 13),
            "open4": (1, 4, True, 13), "classic": (1, None, True, 13)}
        # a bid's strength is the sum of its cards; classic bids are their one card
        bad = con.execute("SELECT count(*) FROM bids WHERE strength <> list_sum(cards_played) "
                          "OR len(cards_played) <> (SELECT bid_cards FROM games g "
                          "WHERE g.game_id = bids.game_id)").fetchone()[0]
        assert bad == 0
        # the scores are the sum of pool_value by winner, in every game
        wrong = con.execute("""
            SELECT count(*) FROM game_players p LEFT JOIN (
                SELECT game_id, winner_seat AS seat, sum(pool_value) AS won FROM rounds
                WHERE NOT tie GROUP BY ALL) w USING (game_id, seat)
            WHERE p.score <> coalesce(w.won, 0)""").fetchone()[0]
        assert wrong == 0
        # open prizes: the prize taken is in the row; scores + unclaimed = N(N+1)/2
        rows = con.execute("""
            SELECT bool_and(list_contains(pool_cards, taken)) FILTER (taken IS NOT NULL),
                   bool_and(taken IS NULL) FILTER (tie),
                   count(*) FILTER (revealed IS NULL)
            FROM rounds JOIN games USING (game_id) WHERE open_prizes IS NOT NULL""").fetchone()
        assert rows == (True, True, 0)
        total = con.execute("""
            SELECT bool_and(s + unclaimed = cards::INTEGER * (cards + 1) // 2) FROM games JOIN (
                SELECT game_id, sum(score) AS s FROM game_players GROUP BY game_id
            ) USING (game_id) WHERE open_prizes IS NOT NULL""").fetchone()[0]
        assert total
        # bids of several cards: the points in play are the prizes revealed
        in_play = con.execute("""
            SELECT bool_and(s + unclaimed = p) FROM games JOIN (
                SELECT game_id, sum(score) AS s FROM game_players GROUP BY game_id
            ) USING (game_id) JOIN (SELECT game_id, sum(prize) AS p FROM rounds GROUP BY ALL)
            USING (game_id) WHERE bid_cards > 1""").fetchone()[0]
        assert in_play
        classic = con.execute("SELECT count(*) FROM rounds JOIN games USING (game_id) "
                              "WHERE bid_cards = 1 AND open_prizes IS NULL AND (revealed IS "
                              "NOT NULL OR taken IS NOT NULL OR len(cards_a) <> 1)").fetchone()
        assert classic == (0,)


def test_gops_export_gives_back_the_same_games_and_ids(store, tmp_path):
    folder, db = store
    out = tmp_path / "all.gops"
    summary = export_games(db, out, "gops")
    assert summary.games == 60
    exported = parse(out.read_text("utf-8"))
    originals = [g for f in sorted(folder.glob("*.gops")) for g in parse(f.read_text("utf-8"))]
    key = lambda g: (g.tags.get("Event"), g.tags.get("Date"), g.tags.get("Round"))  # noqa: E731
    assert sorted(exported, key=key) == sorted(originals, key=key)
    assert all(r.valid for r in read_reports(out.read_text("utf-8")))
    again = tmp_path / "again.duckdb"
    import_paths([out], again)
    with reading(db) as a, reading(again) as b:
        ids = "SELECT game_id FROM games ORDER BY game_id"
        assert a.execute(ids).fetchall() == b.execute(ids).fetchall()


def test_csv_export_round_trips_the_variants(store, tmp_path):
    _, db = store
    out = tmp_path / "all.csv"
    summary = export_games(db, out, "csv")
    assert summary.games == 60
    text = out.read_text("utf-8")
    header = text.splitlines()[0].split(",")
    assert {"bid_cards", "open_prizes", "revealed"} <= set(header)
    assert "+" in text and ",-," in text  # bids of several cards; open rounds nobody took
    again = tmp_path / "again.duckdb"
    back = import_paths([out], again)
    assert (back.games_new, back.games_rejected) == (60, 0)
    same = ("SELECT game_id, bid_cards, open_prizes, result, unclaimed FROM games "
            "ORDER BY game_id")
    rounds = ("SELECT game_id, round_no, prize, cards_a, cards_b, cards_c, cards_d, revealed, "
              "taken, discarded, winner_seat FROM rounds ORDER BY game_id, round_no")
    with reading(db) as a, reading(again) as b:
        assert a.execute(same).fetchall() == b.execute(same).fetchall()
        assert a.execute(rounds).fetchall() == b.execute(rounds).fetchall()
    stdout = io.StringIO()
    export_games(db, "-", "csv", stdout=stdout)
    assert stdout.getvalue() == text


def test_parquet_export_carries_the_new_columns(store, tmp_path):
    _, db = store
    export_games(db, tmp_path / "pq", "parquet")
    games = pq.read_table(tmp_path / "pq" / "games.parquet")
    assert {"bid_cards", "open_prizes"} <= set(games.column_names)
    rounds = pq.read_table(tmp_path / "pq" / "rounds.parquet")
    assert {"cards_a", "revealed", "taken", "discarded"} <= set(rounds.column_names)
    bids = pq.read_table(tmp_path / "pq" / "bids.parquet")
    assert {"cards_played", "strength"} <= set(bids.column_names)
    assert games.num_rows == 60


def test_a_variant_game_has_the_same_id_from_text_and_from_python():
    records = list(simulate(6, 2, RuleProfile(open_prizes=3)))
    text_ids = ChunkGames(read_chunk(write_games(records).encode()), "x").game_ids()
    record_ids = ChunkGames(replay_tokens(record_tokens(records)), "x").game_ids()
    assert text_ids.to_list() == record_ids.to_list() and len(set(text_ids.to_list())) == 6
