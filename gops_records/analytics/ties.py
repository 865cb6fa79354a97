"""Tie frequencies: overall and by tie rule, by round number, per player pair, streaks, last rounds.

A round is tied when the highest bid is shared (the ``rounds.tie`` column), with two
players or more. Every rate comes with its count and a 95% Wilson interval.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, run
from gops_records.analytics.stats import wilson, with_wilson


def tie_summary(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tied rounds per tie rule, then an ``all`` row. Columns: tie_rule, rounds, ties, rate,
    ci_low, ci_high."""
    scope, params = games_cte(f, "g.game_id, g.tie_rule")
    out = run(con, f"""WITH {scope}
        SELECT coalesce(fg.tie_rule, 'all') AS tie_rule, count(r.game_id) AS rounds,
               count(*) FILTER (r.tie) AS ties
        FROM rounds r JOIN fg USING (game_id)
        GROUP BY GROUPING SETS ((fg.tie_rule), ())
        ORDER BY grouping(fg.tie_rule), tie_rule""", params)
    return with_wilson(out, "ties", "rounds")


def ties_by_round(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tie rate by round number. Columns: round_no, rounds, ties, rate, ci_low, ci_high."""
    scope, params = games_cte(f, "g.game_id")
    out = run(con, f"""WITH {scope}
        SELECT r.round_no::INTEGER AS round_no, count(*) AS rounds,
               count(*) FILTER (r.tie) AS ties
        FROM rounds r JOIN fg USING (game_id)
        GROUP BY r.round_no ORDER BY r.round_no""", params)
    return with_wilson(out, "ties", "rounds")


def ties_by_pair(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How often two players tied each other, over the rounds they played together.

    A tie between two players is a tied round in which both bid the shared highest card
    (with 3-4 players, a tie between two others does not count for them). Each pair
    appears twice, once from each side. Columns: player, opponent, rounds, ties, rate,
    ci_low, ci_high; most rounds first.
    """
    scope, params = games_cte(f, "g.game_id, g.rounds_played")
    out = run(con, f"""WITH {scope},
        together AS (
            SELECT p.player, o.player AS opponent, sum(fg.rounds_played)::BIGINT AS rounds
            FROM game_players p
            JOIN game_players o ON o.game_id = p.game_id AND o.seat <> p.seat
            JOIN fg ON fg.game_id = p.game_id
            GROUP BY ALL
        ),
        top AS (
            SELECT b.game_id, b.round_no, b.seat, b.player
            FROM rounds r
            JOIN fg USING (game_id)
            JOIN bids b USING (game_id, round_no)
            WHERE r.tie
            QUALIFY b.bid = max(b.bid) OVER (PARTITION BY b.game_id, b.round_no)
        ),
        tied AS (
            SELECT t.player, u.player AS opponent, count(*) AS ties
            FROM top t JOIN top u
              ON u.game_id = t.game_id AND u.round_no = t.round_no AND u.seat <> t.seat
            GROUP BY ALL
        )
        SELECT player, opponent, rounds, coalesce(ties, 0) AS ties
        FROM together LEFT JOIN tied USING (player, opponent)
        ORDER BY rounds DESC, player, opponent""", params)
    return with_wilson(out, "ties", "rounds")


def tie_streaks(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How many maximal runs of consecutive tied rounds there were, by length.

    A lone tie is a streak of length 1. Columns: streak_length, streaks.
    """
    scope, params = games_cte(f, "g.game_id")
    return run(con, f"""WITH {scope},
        tied AS (
            SELECT r.game_id,
                   r.round_no - row_number() OVER (PARTITION BY r.game_id
                                                   ORDER BY r.round_no) AS island
            FROM rounds r JOIN fg USING (game_id)
            WHERE r.tie
        ),
        runs AS (SELECT count(*) AS streak_length FROM tied GROUP BY game_id, island)
        SELECT streak_length::INTEGER AS streak_length, count(*) AS streaks
        FROM runs GROUP BY streak_length ORDER BY streak_length""", params)


def final_ties(con: duckdb.DuckDBPyConnection, f: Filters) -> dict:
    """How often a finished game ended on a tie, leaving its last pool unclaimed.

    Keys: games (finished games), games_ending_on_tie, rate, ci (Wilson low, high),
    mean_unclaimed (unclaimed points per finished game, from every cause: discarded
    ties too), mean_pool_left (mean last-round pool in games that ended on a tie).
    Rate, ci and means are None when there are no finished games.
    """
    scope, params = games_cte(f, "g.game_id, g.cards, g.unclaimed, g.finished")
    row = run(con, f"""WITH {scope}
        SELECT count(*) AS games,
               count(*) FILTER (r.tie) AS ending_on_tie,
               avg(fg.unclaimed) AS mean_unclaimed,
               avg(r.pool_value) FILTER (r.tie) AS mean_pool_left
        FROM fg LEFT JOIN rounds r ON r.game_id = fg.game_id AND r.round_no = fg.cards
        WHERE fg.finished""", params).row(0, named=True)
    games, tied = int(row["games"]), int(row["ending_on_tie"])
    return {
        "games": games,
        "games_ending_on_tie": tied,
        "rate": tied / games if games else None,
        "ci": wilson(tied, games) if games else (None, None),
        "mean_unclaimed": row["mean_unclaimed"],
        "mean_pool_left": row["mean_pool_left"],
    }
