"""Gin Rummy's placings for the shared ratings (:mod:`gops_records.core.ratings`), its
registry part ``ratings``.

One rated result per *game* (to 100 points, ``gin_games``), not per hand: a club plays
and reports games, and a hand's result leans on the deal far more than a game's (a hand
rated as a game would count a lucky gin as much as a won game, and the dozen hands of one
game would move a rating a dozen times for one sitting). The winner places 1, the loser 2;
unfinished games and games without both names are left out.
"""

from __future__ import annotations

import duckdb
import polars as pl

PLACINGS_SQL = """
SELECT g.date, g.event, g.game_id AS game_key,
       CASE s.seat WHEN 'A' THEN g.player_a ELSE g.player_b END AS player,
       (CASE WHEN g.winner_seat = s.seat THEN 1 ELSE 2 END)::BIGINT AS place
FROM gin_games g CROSS JOIN (VALUES ('A'), ('B')) AS s(seat)
WHERE g.finished AND g.winner_seat IS NOT NULL
  AND g.player_a IS NOT NULL AND g.player_b IS NOT NULL AND g.player_a <> g.player_b
"""


def placings(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per player of each finished game: date, event, game_key, player, place."""
    return con.sql(PLACINGS_SQL).pl()
