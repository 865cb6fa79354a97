"""How one player bids: bid against prize, relative bids, habits by game phase, carried pools.

All functions take the player's name and look at that player's bids in the games the
filters keep. The hand-aware measures (relative bids, habits, carry effect) know which
cards the player had left: a running bit mask of the cards already spent (bit v = card v),
computed with a window sum over the player's rounds of each game, so no row ever comes to
Python. They leave out *forced* bids (the last card in hand), which show no choice.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, run
from gops_records.analytics.stats import wilson_exprs

HABITS = ("exact_prize", "prize_plus_one", "highest_remaining", "lowest_remaining")
PHASES = ("all", "early", "middle", "late")
POOLS = ("carried pool", "single prize")


def _player_bids(f: Filters, player: str) -> tuple[str, list]:
    """WITH-clause bodies ending in ``pb``: one row per bid of ``player`` with its round."""
    scope, params = games_cte(f, "g.game_id, g.cards")
    sql = f"""{scope},
    pb AS (
        SELECT b.game_id, b.seat, b.round_no, b.bid, r.prize, r.carried_in, r.pool_value,
               fg.cards
        FROM bids b
        JOIN fg USING (game_id)
        JOIN rounds r USING (game_id, round_no)
        WHERE b.player = ?
    )"""
    return sql, [*params, player]


def _hands(f: Filters, player: str) -> tuple[str, list]:
    """WITH-clause bodies ending in ``hb``: the player's unforced bids with hand facts.

    hand_size  cards in hand before the bid (= prizes still to come, this one included)
    below_bid  cards in hand lower than the bid (0 = lowest card, hand_size-1 = highest)
    below_prize  unrevealed prizes lower than this prize
    has_prize, has_prize1  whether the player still held a card equal to prize / prize+1
    phase      1 early, 2 middle, 3 late: ceil(3 * round_no / cards)
    """
    base, params = _player_bids(f, player)
    sql = f"""{base},
    masks AS (
        SELECT *,
               sum(1::BIGINT << bid) OVER w - (1::BIGINT << bid) AS spent,
               sum(1::BIGINT << prize) OVER w - (1::BIGINT << prize) AS shown
        FROM pb
        WINDOW w AS (PARTITION BY game_id, seat ORDER BY round_no)
    ),
    hb AS (
        SELECT *,
               cards - round_no + 1 AS hand_size,
               bid - 1 - bit_count(spent & ((1::BIGINT << bid) - 1)) AS below_bid,
               prize - 1 - bit_count(shown & ((1::BIGINT << prize) - 1)) AS below_prize,
               (spent >> prize) & 1 = 0 AS has_prize,
               prize < cards AND (spent >> (prize + 1)) & 1 = 0 AS has_prize1,
               ceil(3.0 * round_no / cards)::INTEGER AS phase
        FROM masks
        WHERE cards - round_no + 1 > 1
    )"""
    return sql, params


def bid_heatmap(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Counts of (prize, bid) over every bid of the player; row_share = count / bids on that prize.

    Columns: prize, bid, count, row_share. Forced bids are included (this is what was played).
    """
    base, params = _player_bids(f, player)
    return run(con, f"""WITH {base}
        SELECT prize::INTEGER AS prize, bid::INTEGER AS bid, count(*) AS count,
               count(*) / sum(count(*)) OVER (PARTITION BY prize) AS row_share
        FROM pb GROUP BY prize, bid ORDER BY prize, bid""", params)


def bid_minus_prize(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Mean of (bid - prize) for each prize value. Columns: prize, n, mean_diff."""
    base, params = _player_bids(f, player)
    return run(con, f"""WITH {base}
        SELECT prize::INTEGER AS prize, count(*) AS n, avg(bid - prize) AS mean_diff
        FROM pb GROUP BY prize ORDER BY prize""", params)


def relative_bids(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                  buckets: int = 5) -> pl.DataFrame:
    """The bid's rank in the hand against the prize's rank among prizes still to come.

    Both ranks are fractions r = (cards below) / (cards left - 1), 0 = lowest, 1 = highest,
    bucketed into ``buckets`` equal bins and reported as the bin number 1..buckets
    (1 = lowest fifth with the default 5). Unforced bids only. Columns: prize_rel_rank,
    bid_rel_rank, count.
    """
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    base, params = _hands(f, player)
    bin_of = "least(({x} * ?) // (hand_size - 1), ? - 1)::INTEGER + 1"
    return run(con, f"""WITH {base}
        SELECT {bin_of.format(x="below_prize")} AS prize_rel_rank,
               {bin_of.format(x="below_bid")} AS bid_rel_rank,
               count(*) AS count
        FROM hb GROUP BY ALL ORDER BY prize_rel_rank, bid_rel_rank""",
               [*params, buckets, buckets, buckets, buckets])


def bid_habits(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """How often the player bids the prize, prize + 1, their highest or lowest card, by phase.

    ``n`` counts the unforced bids where the habit was possible (for exact_prize and
    prize_plus_one: the player still held that card), ``k`` those that followed it.
    Phases are thirds of the game by round (round r of N is in third ceil(3r/N)), plus all.
    Columns: habit, phase, k, n, rate, ci_low, ci_high; always 16 rows.
    """
    base, params = _hands(f, player)
    agg = run(con, f"""WITH {base}
        SELECT phase,
               count(*) FILTER (has_prize) AS n_exact_prize,
               count(*) FILTER (has_prize AND bid = prize) AS k_exact_prize,
               count(*) FILTER (has_prize1) AS n_prize_plus_one,
               count(*) FILTER (has_prize1 AND bid = prize + 1) AS k_prize_plus_one,
               count(*) AS n_highest_remaining,
               count(*) FILTER (below_bid = hand_size - 1) AS k_highest_remaining,
               count(*) AS n_lowest_remaining,
               count(*) FILTER (below_bid = 0) AS k_lowest_remaining
        FROM hb GROUP BY phase""", params)
    rows = []
    for p_index, phase in enumerate(PHASES):
        part = agg if p_index == 0 else agg.filter(pl.col("phase") == p_index)
        for habit in HABITS:
            rows.append({"habit": habit, "phase": phase,
                         "k": int(part[f"k_{habit}"].sum()), "n": int(part[f"n_{habit}"].sum())})
    out = pl.DataFrame(rows, schema={"habit": pl.String, "phase": pl.String,
                                     "k": pl.Int64, "n": pl.Int64})
    rate, low, high = wilson_exprs(pl.col("k"), pl.col("n"))
    return out.with_columns(rate.alias("rate"), low.alias("ci_low"), high.alias("ci_high"))


def carry_effect(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Unforced bids with a carried pool on offer against those for a single prize.

    rate_highest is how often the player bid their highest remaining card (with its
    Wilson interval). Columns: pool, n, mean_bid, mean_bid_minus_prize, rate_highest,
    ci_low, ci_high, mean_pool_value; always 2 rows.
    """
    base, params = _hands(f, player)
    out = run(con, f"""WITH {base},
        agg AS (
            SELECT CASE WHEN carried_in > 0 THEN 'carried pool' ELSE 'single prize' END AS pool,
                   count(*) AS n, avg(bid) AS mean_bid, avg(bid - prize) AS mean_bid_minus_prize,
                   count(*) FILTER (below_bid = hand_size - 1) AS k_highest,
                   avg(pool_value) AS mean_pool_value
            FROM hb GROUP BY 1
        )
        SELECT kinds.pool, coalesce(agg.n, 0) AS n, agg.mean_bid, agg.mean_bid_minus_prize,
               coalesce(agg.k_highest, 0) AS k_highest, agg.mean_pool_value
        FROM (VALUES (1, 'carried pool'), (2, 'single prize')) AS kinds(pos, pool)
        LEFT JOIN agg USING (pool)
        ORDER BY kinds.pos""", params)
    rate, low, high = wilson_exprs(pl.col("k_highest"), pl.col("n"))
    return out.with_columns(rate.alias("rate_highest"), low.alias("ci_low"),
                            high.alias("ci_high")).select(
        "pool", "n", "mean_bid", "mean_bid_minus_prize", "rate_highest", "ci_low", "ci_high",
        "k_highest", "mean_pool_value")
