"""The kept games grouped by their per-game summary: one small frame, many figures.

Tie rates (by rule and by round), tie streaks, carried and unclaimed points per game are
all sums over the games' summary columns (``rounds_played``, ``ties``, ``tie_mask``,
``carried``, ``unclaimed``). Games share few combinations of them, so one query groups the
kept games by all of them at once (a few thousand rows at a million games) and each figure
is summed from that in polars: a page that shows them together reads the games once.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, run


def game_shapes(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """The kept games counted by shape. Columns: tie_rule, cards, open_row (the game has
    open prizes: no pool, so nothing is ever carried), finished, rounds_played, ties,
    tie_mask, carried, unclaimed (NULL while unfinished), games."""
    scope, params = games_cte(f, "g.tie_rule, g.cards, g.open_prizes, g.finished, "
                                 "g.rounds_played, g.ties, g.tie_mask, g.carried, g.unclaimed")
    return run(con, f"""WITH {scope}
        SELECT tie_rule, cards::INTEGER AS cards, open_prizes IS NOT NULL AS open_row,
               finished,
               rounds_played::INTEGER AS rounds_played, ties::INTEGER AS ties,
               tie_mask::INTEGER AS tie_mask, carried::INTEGER AS carried,
               unclaimed::INTEGER AS unclaimed, count(*) AS games
        FROM fg GROUP BY ALL""", params)
