"""Pool sizes: how much was on offer each round, the largest pools, carried and unclaimed points.

The pool of a round is the prize just revealed plus any prizes carried in from ties
before it (``rounds.pool_value``, ``rounds.pool_cards``). Games with open prizes have no
pool (the winner picks one prize from a row of face-up prizes, and nothing is carried), so
the pool figures leave them out; what they do with the row is in
:mod:`gops_records.games.gops.analytics.variants`. Their unclaimed points (a row or pile left at the
end, prizes a tie set aside) are counted with everyone's. Bids of several cards have pools
as the classic game does, one prize revealed a round.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import Filters, games_cte
from gops_records.games.gops.analytics.shapes import game_shapes, part
from gops_records.games.gops.cards import MAX_RANK

#: A game that reveals every prize 1..cards once (finished, one card a bid), and one that
#: has pools at all (no open prizes), over ``games AS g``.
_WHOLE = "g.finished AND g.bid_cards = 1"
_HAS_POOL = "g.open_prizes IS NULL"


def pool_distribution(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Rounds by pool value and number of prize cards in the pool (games with open prizes
    left out: they have no pool).

    Columns: pool_value, pool_cards, rounds.
    """
    # Reading every one of 13M rounds dominates, so read as few as possible: a finished
    # classic game reveals each prize 1..cards once, and a round nothing was carried into
    # has the prize alone as its pool. So the kept finished classic games give every prize
    # once, from which the rounds with a carried pool (a tenth of them), kept beside each
    # game in games.carried_pools (schema 12), are moved to their real pool; unfinished
    # games, and games of bids of several cards (which reveal only some of the prizes),
    # are read whole. (Matching the 1.8M carried rounds of a million games to the kept
    # games cost 0.15-0.2 s under an event.)
    scope, params = games_cte(f, f"g.cards, {_WHOLE} AS whole, {_HAS_POOL} AS has_pool, "
                                 "g.carried, g.carried_pools, g.game_id")
    return run(con, f"""WITH {scope},
        done AS (SELECT cards, count(*) AS games FROM fg WHERE whole AND has_pool
                 GROUP BY cards),
        deck AS (
            SELECT n.v AS pool_value, 1 AS pool_cards, sum(d.games) AS rounds
            FROM done d, range(1, {MAX_RANK + 1}) AS n(v) WHERE n.v <= d.cards GROUP BY n.v
        ),
        carried AS (
            SELECT c.prize, c.pool_value, c.pool_cards, count(*) AS rounds
            FROM (SELECT unnest(carried_pools) AS c FROM fg
                  WHERE whole AND has_pool AND carried > 0)
            GROUP BY ALL
        ),
        read_rounds AS (
            SELECT r.pool_value, len(r.pool_cards) AS pool_cards
            FROM rounds r
            SEMI JOIN (SELECT game_id FROM fg WHERE NOT whole AND has_pool) k USING (game_id)
        ),
        parts AS (
            SELECT pool_value, pool_cards, rounds FROM deck
            UNION ALL SELECT prize, 1, -sum(rounds) FROM carried GROUP BY prize
            UNION ALL SELECT pool_value, pool_cards, rounds FROM carried
            UNION ALL SELECT pool_value, pool_cards, count(*) FROM read_rounds GROUP BY ALL
        )
        SELECT pool_value::INTEGER AS pool_value, pool_cards::INTEGER AS pool_cards,
               sum(rounds)::BIGINT AS rounds
        FROM parts GROUP BY ALL HAVING sum(rounds) <> 0
        ORDER BY pool_value, pool_cards""", params)


def largest_pools(con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 10) -> pl.DataFrame:
    """The ``limit`` rounds with the largest pools and who took them ('tie' when nobody did),
    in games of one prize a round (open-prize games have no pool).

    Larger value first, then more cards, then newer games. Columns: game_id, event, date,
    round_no, pool_value, pool_cards (text such as '8+5+3'), winner.
    """
    # Each game's largest pool (games.max_pool) is one of its rounds, so the limit-th
    # largest max_pool among the kept games bounds the answer from below: only the rounds
    # of the games reaching it are read, and only the chosen rounds look up a name. The
    # bound is read first, so that the rounds' scan can drop at once every round whose
    # carried_in is too small for its pool (a prize is at most MAX_RANK) before it matches
    # a round to the kept games.
    scope, params = games_cte(f, "g.game_id, g.event, g.date, g.max_pool, g.open_prizes",
                              con=con)
    limit = max(int(limit), 0)
    found = con.execute(f"""WITH {scope}
        SELECT max_pool FROM fg WHERE open_prizes IS NULL
        ORDER BY max_pool DESC LIMIT 1 OFFSET ?""", [*params, max(limit - 1, 0)]).fetchall()
    bound = int(found[0][0]) if found else 0
    return run(con, f"""WITH {scope},
        reaching AS (
            SELECT game_id, event, date FROM fg WHERE open_prizes IS NULL AND max_pool >= ?
        ),
        top AS (
            SELECT r.game_id, r.round_no, r.pool_value, r.pool_cards, r.winner_seat,
                   g.event, g.date
            FROM rounds r JOIN reaching g USING (game_id)
            WHERE r.carried_in >= ? AND r.pool_value >= ?
            ORDER BY r.pool_value DESC, len(r.pool_cards) DESC, g.date DESC NULLS LAST,
                     r.game_id, r.round_no
            LIMIT ?
        )
        SELECT t.game_id, t.event, t.date, t.round_no::INTEGER AS round_no,
               t.pool_value::INTEGER AS pool_value,
               array_to_string(t.pool_cards, '+') AS pool_cards,
               coalesce(p.player, 'tie') AS winner
        FROM top t
        LEFT JOIN game_players p ON p.game_id = t.game_id AND p.seat = t.winner_seat
        ORDER BY t.pool_value DESC, len(t.pool_cards) DESC, t.date DESC NULLS LAST,
                 t.game_id, t.round_no""", [*params, bound, bound - MAX_RANK, bound, limit])


def carried_per_game(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Games of the carry rule by the value they carried over.

    A game's carried value is the total of the prize cards that were carried into a later
    round at least once, each card counted once: the prizes of its tied rounds except a
    tied last round (whose pool is left unclaimed), as ``games.carried`` holds it.
    Discard-rule games never carry and are left out, and so are open-prize games (a tie
    leaves the row as it is; no pool grows). Columns: carried_value, games (a game with no
    tie counts at 0).
    """
    return carried_per_game_of(game_shapes(con, f))


def carried_per_game_of(shapes: pl.DataFrame) -> pl.DataFrame:
    """:func:`carried_per_game` from
    :func:`~gops_records.games.gops.analytics.shapes.game_shapes`."""
    return (part(shapes, "carried").filter((pl.col("tie_rule") == "carry") & ~pl.col("open_row"))
            .group_by(pl.col("carried").alias("carried_value")).agg(pl.col("games").sum())
            .sort("carried_value"))


def unclaimed_per_game(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Finished games by the points nobody won (tied last pools, discarded ties).

    Columns: unclaimed, games.
    """
    return unclaimed_per_game_of(game_shapes(con, f))


def unclaimed_per_game_of(shapes: pl.DataFrame) -> pl.DataFrame:
    """:func:`unclaimed_per_game` from
    :func:`~gops_records.games.gops.analytics.shapes.game_shapes`."""
    return (part(shapes, "unclaimed").filter(pl.col("finished")).group_by("unclaimed")
            .agg(pl.col("games").sum()).sort("unclaimed"))
