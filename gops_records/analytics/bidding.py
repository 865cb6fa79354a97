"""How one player bids: bid against prize, relative bids, habits by game phase, carried pools.

All functions take the player's name and look at that player's bids in the games the
filters keep. The hand-aware measures (relative bids, habits, carry effect) know which
cards the player had left: a running bit mask of the cards already spent (bit v = card v),
computed with a window sum over the player's rounds of each game, so no row ever comes to
Python. They leave out *forced* bids (the last card in hand), which show no choice.

Each function runs one query. :func:`player_bidding` computes all five from one pass over
the bids (a temporary table), for pages that show them together.
"""

from __future__ import annotations

import uuid

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, run
from gops_records.analytics.stats import wilson_exprs

HABITS = ("exact_prize", "prize_plus_one", "highest_remaining", "lowest_remaining")
PHASES = ("all", "early", "middle", "late")
POOLS = ("carried pool", "single prize")


def _hands(f: Filters, player: str) -> tuple[str, list]:
    """WITH-clause bodies ending in ``hb``: every bid of ``player`` with hand facts.

    hand_size  cards in hand before the bid (= prizes still to come, this one included)
    forced     hand_size = 1: the last card, no choice
    below_bid  cards in hand lower than the bid (0 = lowest card, hand_size-1 = highest)
    below_prize  unrevealed prizes lower than this prize
    has_prize, has_prize1  whether the player still held a card equal to prize / prize+1
    phase      1 early, 2 middle, 3 late: ceil(3 * round_no / cards)
    """
    scope, params = games_cte(f, "g.game_id, g.cards")
    sql = f"""{scope},
    seats AS (
        SELECT p.game_id, p.seat, fg.cards
        FROM game_players p JOIN fg USING (game_id) WHERE p.player = ?
    ),
    pb AS (
        SELECT r.game_id, s.seat, r.round_no,
               CASE s.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                           WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid,
               r.prize, r.carried_in, r.pool_value, s.cards
        FROM rounds r JOIN seats s USING (game_id)
    ),
    masks AS (
        SELECT *,
               sum(1::BIGINT << bid) OVER w - (1::BIGINT << bid) AS spent,
               sum(1::BIGINT << prize) OVER w - (1::BIGINT << prize) AS shown
        FROM pb
        WINDOW w AS (PARTITION BY game_id, seat ORDER BY round_no)
    ),
    hb AS (
        SELECT round_no, bid, prize, carried_in, pool_value, cards,
               cards - round_no + 1 AS hand_size,
               cards - round_no + 1 = 1 AS forced,
               bid - 1 - bit_count(spent & ((1::BIGINT << bid) - 1)) AS below_bid,
               prize - 1 - bit_count(shown & ((1::BIGINT << prize) - 1)) AS below_prize,
               (spent >> prize) & 1 = 0 AS has_prize,
               prize < cards AND (spent >> (prize + 1)) & 1 = 0 AS has_prize1,
               ceil(3.0 * round_no / cards)::INTEGER AS phase
        FROM masks
    )"""
    return sql, [*params, player]


# Final queries over a relation {src} shaped like ``hb``.
_HEATMAP = """
    SELECT prize::INTEGER AS prize, bid::INTEGER AS bid, count(*) AS count,
           count(*) / sum(count(*)) OVER (PARTITION BY prize) AS row_share
    FROM {src} GROUP BY prize, bid ORDER BY prize, bid"""

_MINUS = """
    SELECT prize::INTEGER AS prize, count(*) AS n, avg(bid - prize) AS mean_diff
    FROM {src} GROUP BY prize ORDER BY prize"""

_RELATIVE = """
    SELECT least((below_prize * ?) // (hand_size - 1), ? - 1)::INTEGER + 1 AS prize_rel_rank,
           least((below_bid * ?) // (hand_size - 1), ? - 1)::INTEGER + 1 AS bid_rel_rank,
           count(*) AS count
    FROM {src} WHERE NOT forced
    GROUP BY ALL ORDER BY prize_rel_rank, bid_rel_rank"""

_HABITS = """
    SELECT phase,
           count(*) FILTER (has_prize) AS n_exact_prize,
           count(*) FILTER (has_prize AND bid = prize) AS k_exact_prize,
           count(*) FILTER (has_prize1) AS n_prize_plus_one,
           count(*) FILTER (has_prize1 AND bid = prize + 1) AS k_prize_plus_one,
           count(*) AS n_highest_remaining,
           count(*) FILTER (below_bid = hand_size - 1) AS k_highest_remaining,
           count(*) AS n_lowest_remaining,
           count(*) FILTER (below_bid = 0) AS k_lowest_remaining
    FROM {src} WHERE NOT forced GROUP BY phase"""

_CARRY = """
    SELECT kinds.pool, coalesce(agg.n, 0) AS n, agg.mean_bid, agg.mean_bid_minus_prize,
           coalesce(agg.k_highest, 0) AS k_highest, agg.mean_pool_value
    FROM (VALUES (1, 'carried pool'), (2, 'single prize')) AS kinds(pos, pool)
    LEFT JOIN (
        SELECT CASE WHEN carried_in > 0 THEN 'carried pool' ELSE 'single prize' END AS pool,
               count(*) AS n, avg(bid) AS mean_bid, avg(bid - prize) AS mean_bid_minus_prize,
               count(*) FILTER (below_bid = hand_size - 1) AS k_highest,
               avg(pool_value) AS mean_pool_value
        FROM {src} WHERE NOT forced GROUP BY 1
    ) AS agg USING (pool)
    ORDER BY kinds.pos"""


def _query(con: duckdb.DuckDBPyConnection, f: Filters, player: str, final: str,
           extra: list | None = None) -> pl.DataFrame:
    """Run ``final`` over the player's hand table, built in the same query."""
    hands, params = _hands(f, player)
    return run(con, f"WITH {hands} {final.format(src='hb')}", [*params, *(extra or [])])


def _bucket_params(buckets: int) -> list[int]:
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    return [buckets] * 4


def _habit_table(agg: pl.DataFrame) -> pl.DataFrame:
    """Per-phase counts -> one row per (habit, phase) with the Wilson interval; 16 rows."""
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


def _carry_table(out: pl.DataFrame) -> pl.DataFrame:
    rate, low, high = wilson_exprs(pl.col("k_highest"), pl.col("n"))
    return out.with_columns(rate.alias("rate_highest"), low.alias("ci_low"),
                            high.alias("ci_high")).select(
        "pool", "n", "mean_bid", "mean_bid_minus_prize", "rate_highest", "ci_low", "ci_high",
        "k_highest", "mean_pool_value")


def bid_heatmap(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Counts of (prize, bid) over every bid of the player; row_share = count / bids on that prize.

    Columns: prize, bid, count, row_share. Forced bids are included (this is what was played).
    """
    return _query(con, f, player, _HEATMAP)


def bid_minus_prize(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Mean of (bid - prize) for each prize value, over every bid. Columns: prize, n, mean_diff."""
    return _query(con, f, player, _MINUS)


def relative_bids(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                  buckets: int = 5) -> pl.DataFrame:
    """The bid's rank in the hand against the prize's rank among prizes still to come.

    Both ranks are fractions r = (cards below) / (cards left - 1), 0 = lowest, 1 = highest,
    bucketed into ``buckets`` equal bins and reported as the bin number 1..buckets
    (1 = lowest fifth with the default 5). Unforced bids only. Columns: prize_rel_rank,
    bid_rel_rank, count.
    """
    return _query(con, f, player, _RELATIVE, _bucket_params(buckets))


def bid_habits(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """How often the player bids the prize, prize + 1, their highest or lowest card, by phase.

    ``n`` counts the unforced bids where the habit was possible (for exact_prize and
    prize_plus_one: the player still held that card), ``k`` those that followed it.
    Phases are thirds of the game by round (round r of N is in third ceil(3r/N)), plus all.
    Columns: habit, phase, k, n, rate, ci_low, ci_high; always 16 rows.
    """
    return _habit_table(_query(con, f, player, _HABITS))


def carry_effect(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Unforced bids with a carried pool on offer against those for a single prize.

    rate_highest is how often the player bid their highest remaining card (with its
    Wilson interval). Columns: pool, n, mean_bid, mean_bid_minus_prize, rate_highest,
    ci_low, ci_high, k_highest, mean_pool_value; always 2 rows.
    """
    return _carry_table(_query(con, f, player, _CARRY))


def player_bidding(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                   buckets: int = 5) -> dict[str, pl.DataFrame]:
    """All five bidding frames from one pass over the player's bids, keyed by function name.

    The same frames as :func:`bid_heatmap`, :func:`bid_minus_prize`, :func:`relative_bids`,
    :func:`bid_habits` and :func:`carry_effect`, for about the cost of one of them: the
    hand table is built once into a temporary table (allowed on read-only connections).
    """
    bucket_params = _bucket_params(buckets)
    hands, params = _hands(f, player)
    name = f"gops_hands_{uuid.uuid4().hex}"
    con.execute(f"CREATE TEMP TABLE {name} AS WITH {hands} SELECT * FROM hb", params)
    try:
        def final(sql: str, extra: list | None = None) -> pl.DataFrame:
            return run(con, sql.format(src=name), extra)

        return {
            "bid_heatmap": final(_HEATMAP),
            "bid_minus_prize": final(_MINUS),
            "relative_bids": final(_RELATIVE, bucket_params),
            "bid_habits": _habit_table(final(_HABITS)),
            "carry_effect": _carry_table(final(_CARRY)),
        }
    finally:
        con.execute(f"DROP TABLE IF EXISTS {name}")
