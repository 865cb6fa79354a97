"""The kept games grouped by their per-game summary: one small frame, many figures.

Tie rates (by rule and by round), tie streaks, carried and unclaimed points per game are
all sums over the games' summary columns (``rounds_played``, ``ties``, ``tie_mask``,
``carried``, ``unclaimed``). One query groups the kept games three ways at once (grouping
sets: by their ties, by what they carried, by what they left unclaimed; some thousands of
rows at a million games, where grouping by every column together gives a hundred thousand)
and each figure is summed from its part in polars: a page that shows them together reads
the games once.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import Filters, games_cte

#: The parts of :func:`game_shapes`, each counting every kept game once, and the columns
#: each is grouped by (the others are NULL in its rows).
PARTS = {"ties": ("tie_rule", "rounds_played", "ties", "tie_mask"),
         "carried": ("tie_rule", "open_row", "carried"),
         "unclaimed": ("finished", "unclaimed")}


def game_shapes(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """The kept games counted by shape, in three parts (:data:`PARTS`). Columns: part
    ('ties', 'carried' or 'unclaimed'), tie_rule, open_row (the game has open prizes: no
    pool, so nothing is ever carried), finished, rounds_played, ties, tie_mask, carried,
    unclaimed (NULL while unfinished), games; a column a part is not grouped by is NULL in
    its rows. :func:`part` gives one part."""
    scope, params = games_cte(f, "g.tie_rule, g.open_prizes IS NOT NULL AS open_row, "
                                 "g.finished, g.rounds_played::INTEGER AS rounds_played, "
                                 "g.ties::INTEGER AS ties, g.tie_mask::INTEGER AS tie_mask, "
                                 "g.carried::INTEGER AS carried, "
                                 "g.unclaimed::INTEGER AS unclaimed")
    sets = ", ".join(f"({', '.join(columns)})" for columns in PARTS.values())
    return run(con, f"""WITH {scope}
        SELECT CASE WHEN grouping(rounds_played) = 0 THEN 'ties'
                    WHEN grouping(carried) = 0 THEN 'carried' ELSE 'unclaimed' END AS part,
               tie_rule, open_row, finished, rounds_played, ties, tie_mask, carried,
               unclaimed, count(*) AS games
        FROM fg GROUP BY GROUPING SETS ({sets})""", params)


def part(shapes: pl.DataFrame, name: str) -> pl.DataFrame:
    """The rows of part ``name`` of :func:`game_shapes`, with the columns it is grouped by
    and games."""
    return shapes.filter(pl.col("part") == name).select(*PARTS[name], "games")
