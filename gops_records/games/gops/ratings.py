"""Gops's placings for the shared ratings (:mod:`gops_records.core.ratings`), its registry
part ``ratings``: every finished game, each player placed by points (equal points, equal
places: ``rank()``, so scores 8, 8, 3 place 1, 1, 3).

A game whose record names nobody in a seat (the seat letter stands for the name) is left
out: a rating of "A" would mean nothing; so is one where a player holds two seats.
"""

from __future__ import annotations

import duckdb
import polars as pl

PLACINGS_SQL = """
SELECT g.date, g.event, g.game_id AS game_key, p.player,
       rank() OVER (PARTITION BY g.game_id ORDER BY p.score DESC)::BIGINT AS place
FROM games g JOIN game_players p USING (game_id)
WHERE g.finished
  AND g.game_id NOT IN (SELECT game_id FROM game_players WHERE player = seat)
  AND g.game_id NOT IN (SELECT game_id FROM game_players GROUP BY game_id, player
                        HAVING count(*) > 1)
"""


def placings(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per player of each finished game: date, event, game_key, player, place."""
    return con.sql(PLACINGS_SQL).pl()
