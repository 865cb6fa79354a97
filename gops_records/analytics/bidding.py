"""How one player bids: bid against prize, relative bids, habits by game phase, carried pools.

All functions take the player's name and look at that player's bids in the games the
filters keep. The hand-aware measures (relative bids, habits, carry effect) know which
cards the player had left: a running bit mask of the cards already spent (bit v = card v),
computed with a window sum over the player's rounds of each game, so no row ever comes to
Python. They leave out *forced* bids (the last card in hand), which show no choice.

Each function runs one query, which groups the player's bids by everything the five frames
tell apart (a few thousand rows at most); the frames are summed from those groups in
polars. :func:`player_bidding` computes all five from one such query.
"""

from __future__ import annotations

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
        -- the seat as a number (A = 0): partitioning the window below by a small integer
        -- rather than text takes a tenth off the whole query
        SELECT p.game_id, (ascii(p.seat) - 65)::UTINYINT AS seat_no, fg.cards
        FROM game_players p JOIN fg USING (game_id) WHERE p.player = ?
    ),
    pb AS (
        SELECT r.game_id, s.seat_no, r.round_no,
               CASE s.seat_no WHEN 0 THEN r.bid_a WHEN 1 THEN r.bid_b
                              WHEN 2 THEN r.bid_c ELSE r.bid_d END AS bid,
               r.prize, r.carried_in, r.pool_value, s.cards
        FROM rounds r JOIN seats s USING (game_id)
    ),
    masks AS (
        SELECT *,
               sum(1::BIGINT << bid) OVER w - (1::BIGINT << bid) AS spent,
               sum(1::BIGINT << prize) OVER w - (1::BIGINT << prize) AS shown
        FROM pb
        WINDOW w AS (PARTITION BY game_id, seat_no ORDER BY round_no)
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


#: The player's bids grouped by everything the five frames tell apart: a few thousand rows
#: at most (prize x bid x phase x relative ranks x flags), whatever the number of bids.
_GROUPS = """
    SELECT prize::INTEGER AS prize, bid::INTEGER AS bid, phase, forced, has_prize,
           has_prize1, below_bid = hand_size - 1 AS highest, below_bid = 0 AS lowest,
           carried_in > 0 AS carried,
           CASE WHEN NOT forced
                THEN least((below_prize * ?) // (hand_size - 1), ? - 1)::INTEGER + 1
           END AS prize_rel_rank,
           CASE WHEN NOT forced
                THEN least((below_bid * ?) // (hand_size - 1), ? - 1)::INTEGER + 1
           END AS bid_rel_rank,
           count(*) AS n, sum(pool_value)::BIGINT AS pool_sum,
           sum(? // hand_size)::BIGINT AS uniform_sum
    FROM hb GROUP BY ALL"""

#: 1/hand size is counted in whole units of 1/UNIFORM_UNIT (360360 = lcm(1..13): every
#: hand size divides it), so the sum is exact and the same however the bids are grouped.
UNIFORM_UNIT = 360360


def _bucket_params(buckets: int) -> list[int]:
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    return [buckets] * 4


def _groups(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
            buckets: int = 5) -> pl.DataFrame:
    """The player's bids in the games ``f`` keeps, grouped (one query, one pass)."""
    bucket_params = _bucket_params(buckets)
    hands, params = _hands(f, player)
    return run(con, f"WITH {hands} {_GROUPS}", [*params, *bucket_params, UNIFORM_UNIT])


def _heatmap(g: pl.DataFrame) -> pl.DataFrame:
    out = g.group_by("prize", "bid").agg(pl.col("n").sum().alias("count"))
    return out.with_columns(
        (pl.col("count") / pl.col("count").sum().over("prize")).alias("row_share")
    ).sort("prize", "bid")


def _minus(g: pl.DataFrame) -> pl.DataFrame:
    return g.group_by("prize").agg(
        pl.col("n").sum(),
        ((pl.col("bid") - pl.col("prize")) * pl.col("n")).sum().alias("diff_sum"),
    ).select("prize", "n", (pl.col("diff_sum") / pl.col("n")).alias("mean_diff")).sort("prize")


def _relative(g: pl.DataFrame) -> pl.DataFrame:
    return (g.filter(~pl.col("forced"))
            .group_by("prize_rel_rank", "bid_rel_rank").agg(pl.col("n").sum().alias("count"))
            .sort("prize_rel_rank", "bid_rel_rank"))


def _habit_counts(g: pl.DataFrame) -> pl.DataFrame:
    """Per phase: k (followed) and n (possible) of each habit, over unforced bids."""
    n, u = pl.col("n"), pl.col("uniform_sum")
    exact = pl.col("has_prize") & (pl.col("bid") == pl.col("prize"))
    plus_one = pl.col("has_prize1") & (pl.col("bid") == pl.col("prize") + 1)
    return g.filter(~pl.col("forced")).group_by("phase").agg(
        n.filter(pl.col("has_prize")).sum().alias("n_exact_prize"),
        n.filter(exact).sum().alias("k_exact_prize"),
        n.filter(pl.col("has_prize1")).sum().alias("n_prize_plus_one"),
        n.filter(plus_one).sum().alias("k_prize_plus_one"),
        n.sum().alias("n_highest_remaining"),
        n.filter(pl.col("highest")).sum().alias("k_highest_remaining"),
        n.sum().alias("n_lowest_remaining"),
        n.filter(pl.col("lowest")).sum().alias("k_lowest_remaining"),
        # Uniform play over the hand follows each habit with chance 1/hand_size.
        u.filter(pl.col("has_prize")).sum().alias("u_exact_prize"),
        u.filter(pl.col("has_prize1")).sum().alias("u_prize_plus_one"),
        u.sum().alias("u_highest_remaining"),
        u.sum().alias("u_lowest_remaining"),
    )


def _carry(g: pl.DataFrame) -> pl.DataFrame:
    """Per kind of pool (carried, single prize; both always there): the unforced bids."""
    n = pl.col("n")
    agg = g.filter(~pl.col("forced")).group_by("carried").agg(
        n.sum(), (pl.col("bid") * n).sum().alias("bid_sum"),
        ((pl.col("bid") - pl.col("prize")) * n).sum().alias("diff_sum"),
        n.filter(pl.col("highest")).sum().alias("k_highest"), pl.col("pool_sum").sum())
    kinds = pl.DataFrame({"pool": list(POOLS), "carried": [True, False]})
    out = kinds.join(agg, on="carried", how="left", maintain_order="left")
    return out.select(
        "pool", pl.col("n").fill_null(0),
        (pl.col("bid_sum") / pl.col("n")).alias("mean_bid"),
        (pl.col("diff_sum") / pl.col("n")).alias("mean_bid_minus_prize"),
        pl.col("k_highest").fill_null(0),
        (pl.col("pool_sum") / pl.col("n")).alias("mean_pool_value"))


def _habit_table(agg: pl.DataFrame) -> pl.DataFrame:
    """Per-phase counts -> one row per (habit, phase) with the Wilson interval; 16 rows."""
    rows = []
    for p_index, phase in enumerate(PHASES):
        part = agg if p_index == 0 else agg.filter(pl.col("phase") == p_index)
        for habit in HABITS:
            rows.append({"habit": habit, "phase": phase,
                         "k": int(part[f"k_{habit}"].sum()), "n": int(part[f"n_{habit}"].sum()),
                         "u": int(part[f"u_{habit}"].sum())})
    out = pl.DataFrame(rows, schema={"habit": pl.String, "phase": pl.String,
                                     "k": pl.Int64, "n": pl.Int64, "u": pl.Int64})
    rate, low, high = wilson_exprs(pl.col("k"), pl.col("n"))
    uniform = pl.when(pl.col("n") > 0).then(pl.col("u") / UNIFORM_UNIT / pl.col("n"))
    return out.with_columns(rate.alias("rate"), low.alias("ci_low"), high.alias("ci_high"),
                            uniform.alias("uniform")).drop("u")


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
    return _heatmap(_groups(con, f, player))


def bid_minus_prize(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Mean of (bid - prize) for each prize value, over every bid. Columns: prize, n, mean_diff."""
    return _minus(_groups(con, f, player))


def relative_bids(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                  buckets: int = 5) -> pl.DataFrame:
    """The bid's rank in the hand against the prize's rank among prizes still to come.

    Both ranks are fractions r = (cards below) / (cards left - 1), 0 = lowest, 1 = highest,
    bucketed into ``buckets`` equal bins and reported as the bin number 1..buckets
    (1 = lowest fifth with the default 5). Unforced bids only. Columns: prize_rel_rank,
    bid_rel_rank, count.
    """
    return _relative(_groups(con, f, player, buckets))


def bid_habits(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """How often the player bids the prize, prize + 1, their highest or lowest card, by phase.

    ``n`` counts the unforced bids where the habit was possible (for exact_prize and
    prize_plus_one: the player still held that card), ``k`` those that followed it.
    Phases are thirds of the game by round (round r of N is in third ceil(3r/N)), plus all.
    ``uniform`` is the rate uniform play over the hand would give in the same bids (the
    mean of 1/hand size over them), the baseline a rate means something against.
    Columns: habit, phase, k, n, rate, ci_low, ci_high, uniform; always 16 rows.
    """
    return _habit_table(_habit_counts(_groups(con, f, player)))


def carry_effect(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Unforced bids with a carried pool on offer against those for a single prize.

    rate_highest is how often the player bid their highest remaining card (with its
    Wilson interval). Columns: pool, n, mean_bid, mean_bid_minus_prize, rate_highest,
    ci_low, ci_high, k_highest, mean_pool_value; always 2 rows.
    """
    return _carry_table(_carry(_groups(con, f, player)))


def player_bidding(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                   buckets: int = 5) -> dict[str, pl.DataFrame]:
    """All five bidding frames from one pass over the player's bids, keyed by function name.

    The same frames as :func:`bid_heatmap`, :func:`bid_minus_prize`, :func:`relative_bids`,
    :func:`bid_habits` and :func:`carry_effect`, for the cost of one of them: each is
    summed from the same grouped bids.
    """
    g = _groups(con, f, player, buckets)
    return {
        "bid_heatmap": _heatmap(g),
        "bid_minus_prize": _minus(g),
        "relative_bids": _relative(g),
        "bid_habits": _habit_table(_habit_counts(g)),
        "carry_effect": _carry_table(_carry(g)),
    }
