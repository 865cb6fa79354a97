"""Gin Rummy's placings for the ratings (games/gin/ratings.py): one result per finished game."""

from __future__ import annotations

from pathlib import Path

from paths import TESTS

from gops_records.core import ratings
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading


def test_each_finished_game_places_its_winner_first(tmp_path: Path) -> None:
    db = tmp_path / "gin.duckdb"
    import_paths([TESTS / "games" / "gin" / "gin_club.gin"], db)
    with reading(db) as con:
        games = con.sql("SELECT game_id, winner, player_a, player_b FROM gin_games "
                        "WHERE finished AND winner IS NOT NULL").pl()
        found = ratings.placings_of(con, "gin")
        rated = ratings.ratings_of(con, "gin")
    assert games.height > 0
    assert found.height == 2 * games.height
    winners = found.filter(found["place"] == 1).sort("game_key")
    assert winners["player"].to_list() == games.sort("game_id")["winner"].to_list()
    assert set(found["place"].to_list()) == {1, 2}
    assert rated.table["games"].sum() == 2 * games.height
