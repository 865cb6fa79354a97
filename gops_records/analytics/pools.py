"""Pool sizes: how much was on offer each round, the largest pools, carried and unclaimed points.

The pool of a round is the prize just revealed plus any prizes carried in from ties
before it (``rounds.pool_value``, ``rounds.pool_cards``).
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, in_scope, run


def pool_distribution(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Rounds by pool value and number of prize cards in the pool.

    Columns: pool_value, pool_cards, rounds.
    """
    scope, params = games_cte(f, "g.game_id")
    return run(con, f"""WITH {scope}
        SELECT r.pool_value::INTEGER AS pool_value, len(r.pool_cards)::INTEGER AS pool_cards,
               count(*) AS rounds
        FROM rounds r {in_scope(f)}
        GROUP BY ALL ORDER BY pool_value, pool_cards""", params)


def largest_pools(con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 10) -> pl.DataFrame:
    """The ``limit`` rounds with the largest pools and who took them ('tie' when nobody did).

    Larger value first, then more cards, then newer games. Columns: game_id, event, date,
    round_no, pool_value, pool_cards (text such as '8+5+3'), winner.
    """
    # The limit-th largest pool value (found reading pool values alone) bounds the
    # candidates, so only a handful of whole rounds are read and joined to their games (for
    # the date order); only the chosen rounds look up the winner's name.
    scope, params = games_cte(f, "g.game_id, g.event, g.date")
    limit = max(int(limit), 0)
    return run(con, f"""WITH {scope},
        bound AS (
            SELECT r.pool_value FROM rounds r {in_scope(f)}
            ORDER BY r.pool_value DESC LIMIT 1 OFFSET ?
        ),
        candidates AS (
            SELECT r.game_id, r.round_no, r.pool_value, r.pool_cards, r.winner_seat
            FROM rounds r
            WHERE r.pool_value >= coalesce((SELECT pool_value FROM bound), 0)
        ),
        top AS (
            SELECT c.*, fg.event, fg.date
            FROM candidates c JOIN fg USING (game_id)
            ORDER BY c.pool_value DESC, len(c.pool_cards) DESC, fg.date DESC NULLS LAST,
                     c.game_id, c.round_no
            LIMIT ?
        )
        SELECT t.game_id, t.event, t.date, t.round_no::INTEGER AS round_no,
               t.pool_value::INTEGER AS pool_value,
               array_to_string(t.pool_cards, '+') AS pool_cards,
               coalesce(p.player, 'tie') AS winner
        FROM top t
        LEFT JOIN game_players p ON p.game_id = t.game_id AND p.seat = t.winner_seat
        ORDER BY t.pool_value DESC, len(t.pool_cards) DESC, t.date DESC NULLS LAST,
                 t.game_id, t.round_no""", [*params, max(limit - 1, 0), limit])


def carried_per_game(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Games of the carry rule by the value they carried over.

    A game's carried value is the total of the prize cards that were carried into a later
    round at least once, each card counted once: the prizes of its tied rounds except a
    tied last round (whose pool is left unclaimed). Discard-rule games never carry and are
    left out. Columns: carried_value, games (a game with no tie counts at 0).
    """
    scope, params = games_cte(f, "g.game_id, g.cards, g.tie_rule")
    return run(con, f"""WITH {scope},
        carry AS (SELECT game_id, cards FROM fg WHERE tie_rule = 'carry'),
        per_game AS (
            SELECT r.game_id, sum(r.prize)::INTEGER AS carried_value
            FROM rounds r JOIN carry c USING (game_id)
            WHERE r.tie AND r.round_no < c.cards
            GROUP BY r.game_id
        ),
        per_value AS MATERIALIZED (
            SELECT carried_value, count(*) AS games FROM per_game GROUP BY carried_value
        ),
        counted AS (
            SELECT carried_value, games FROM per_value
            UNION ALL
            SELECT 0, (SELECT count(*) FROM carry) - (SELECT coalesce(sum(games), 0)
                                                      FROM per_value)
        )
        SELECT carried_value, sum(games)::BIGINT AS games
        FROM counted GROUP BY carried_value HAVING sum(games) > 0
        ORDER BY carried_value""", params)


def unclaimed_per_game(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Finished games by the points nobody won (tied last pools, discarded ties).

    Columns: unclaimed, games.
    """
    scope, params = games_cte(f, "g.unclaimed, g.finished")
    return run(con, f"""WITH {scope}
        SELECT unclaimed::INTEGER AS unclaimed, count(*) AS games
        FROM fg WHERE finished GROUP BY unclaimed ORDER BY unclaimed""", params)
