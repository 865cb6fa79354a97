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
from gops_records.analytics.stats import CLUSTER_SUMS, design_effect_expr, wilson_deff_exprs

HABITS = ("exact_prize", "prize_plus_one", "highest_remaining", "lowest_remaining")
PHASES = ("all", "early", "middle", "late")
POOLS = ("carried pool", "single prize")


def _hands(f: Filters, player: str, materialized: bool = False) -> tuple[str, list]:
    """WITH-clause bodies ending in ``hb``: every bid of ``player`` with hand facts.

    hand_size  cards in hand before the bid (= prizes still to come, this one included)
    forced     hand_size = 1: the last card, no choice
    below_bid  cards in hand lower than the bid (0 = lowest card, hand_size-1 = highest)
    below_prize  unrevealed prizes lower than this prize
    has_prize, has_prize1  whether the player still held a card equal to prize / prize+1
    phase      1 early, 2 middle, 3 late: ceil(3 * round_no / cards)

    ``materialized``: ``hb`` is computed once for a query that reads it twice, and says
    which bids are in the games the design effect is measured on (``sampled``: at most
    :data:`DEFF_GAMES` of the player's games, the same ones every time).
    """
    scope, params = games_cte(f, "g.game_id, g.cards")
    sample = (f",\n               row_number() OVER (ORDER BY p.game_id) <= {DEFF_GAMES} "
              "AS sampled") if materialized else ""
    sampled = ", s.sampled" if materialized else ""
    sampled_hb = ", sampled" if materialized else ""
    sql = f"""{scope},
    seats AS (
        -- the seat as a number (A = 0): partitioning the window below by a small integer
        -- rather than text takes a tenth off the whole query
        SELECT p.game_id, (ascii(p.seat) - 65)::UTINYINT AS seat_no, fg.cards{sample}
        FROM game_players p JOIN fg USING (game_id) WHERE p.player = ?
    ),
    pb AS (
        SELECT r.game_id, s.seat_no, r.round_no,
               CASE s.seat_no WHEN 0 THEN r.bid_a WHEN 1 THEN r.bid_b
                              WHEN 2 THEN r.bid_c ELSE r.bid_d END AS bid,
               r.prize, r.carried_in, r.pool_value, s.cards{sampled}
        FROM rounds r JOIN seats s USING (game_id)
    ),
    masks AS (
        SELECT *,
               sum(1::BIGINT << bid) OVER w - (1::BIGINT << bid) AS spent,
               sum(1::BIGINT << prize) OVER w - (1::BIGINT << prize) AS shown
        FROM pb
        WINDOW w AS (PARTITION BY game_id, seat_no ORDER BY round_no)
    ),
    hb AS {"MATERIALIZED " if materialized else ""}(
        SELECT game_id, round_no, bid, prize, carried_in, pool_value, cards,
               cards - round_no + 1 AS hand_size,
               cards - round_no + 1 = 1 AS forced,
               bid - 1 - bit_count(spent & ((1::BIGINT << bid) - 1)) AS below_bid,
               prize - 1 - bit_count(shown & ((1::BIGINT << prize) - 1)) AS below_prize,
               (spent >> prize) & 1 = 0 AS has_prize,
               prize < cards AND (spent >> (prize + 1)) & 1 = 0 AS has_prize1,
               ceil(3.0 * round_no / cards)::INTEGER AS phase{sampled_hb}
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

#: The design effect of a rate is measured on at most this many of the player's games (the
#: lowest game ids: content hashes, so a fixed pseudo-random choice) and applied to the
#: rate over all of them: a variance ratio is measured well by 5,000 games (to about 2%),
#: and the per-game sums of a player with 80,000 games cost the Players page 20-40%.
DEFF_GAMES = 5000

#: Per game (of the sampled ones), the unforced bids where each habit was possible (n_*)
#: and followed (k_*), for each phase (part 1-3), the whole game (part 0) and each kind of
#: pool (part 10: single prize, 11: carried); then per part the sums over games that the
#: design effect reads (analytics.stats.design_effect_expr): k, n, k*k, n*n, k*n, games.
_CLUSTERS = """,
    per_game AS (
        SELECT game_id,
               CASE WHEN GROUPING(phase) = 0 THEN phase
                    WHEN GROUPING(carried) = 0 THEN 10 + carried::INTEGER ELSE 0 END AS part,
               count(*) FILTER (has_prize) AS n_exact,
               count(*) FILTER (has_prize AND bid = prize) AS k_exact,
               count(*) FILTER (has_prize1) AS n_plus,
               count(*) FILTER (has_prize1 AND bid = prize + 1) AS k_plus,
               count(*) AS n_all,
               count(*) FILTER (below_bid = hand_size - 1) AS k_high,
               count(*) FILTER (below_bid = 0) AS k_low
        FROM (SELECT *, carried_in > 0 AS carried FROM hb WHERE sampled AND NOT forced)
        GROUP BY GROUPING SETS ((game_id, phase), (game_id), (game_id, carried))
    ),
    clusters AS (
        SELECT part, {sums} FROM per_game GROUP BY part
    )"""
#: (habit or carry figure) -> the per-game columns of its trials and successes
_CLUSTER_PAIRS = {"exact_prize": ("n_exact", "k_exact"), "prize_plus_one": ("n_plus", "k_plus"),
                  "highest_remaining": ("n_all", "k_high"), "lowest_remaining": ("n_all", "k_low")}


def _cluster_sums() -> str:
    out = []
    for habit, (n, k) in _CLUSTER_PAIRS.items():
        out += [f"sum({k})::BIGINT AS k_{habit}", f"sum({n})::BIGINT AS n_{habit}",
                f"sum({k} * {k})::BIGINT AS kk_{habit}", f"sum({n} * {n})::BIGINT AS nn_{habit}",
                f"sum({k} * {n})::BIGINT AS kn_{habit}",
                f"count(*) FILTER ({n} > 0) AS games_{habit}"]
    return ",\n               ".join(out)


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


def _groups_and_clusters(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                         buckets: int = 5) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`_groups` and, from the same pass over the bids, the per-part cluster sums
    (``_CLUSTERS``): one query, its two results told apart by a ``what`` column."""
    bucket_params = _bucket_params(buckets)
    hands, params = _hands(f, player, materialized=True)
    clusters = _CLUSTERS.format(sums=_cluster_sums())
    out = run(con, f"""WITH {hands}{clusters}, grp AS ({_GROUPS})
        SELECT 'g' AS what, * FROM grp
        UNION ALL BY NAME SELECT 'c' AS what, * FROM clusters""",
              [*params, *bucket_params, UNIFORM_UNIT])
    sums = [c for c in out.columns if c.split("_", 1)[0] in ("k", "n", "kk", "nn", "kn", "games")
            and c.split("_", 1)[-1] in _CLUSTER_PAIRS]
    groups = out.filter(pl.col("what") == "g").drop("what", "part", *sums)
    return groups, out.filter(pl.col("what") == "c").select("part", *sums)


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


_SAMPLE_SUMS = ("k", "n", *CLUSTER_SUMS)


def _sums_of(clusters: pl.DataFrame, part: int, habit: str) -> dict[str, int]:
    """The sampled games' sums of one habit in one part, as s_k, s_n, s_kk, s_nn, s_kn,
    s_games (zeros when absent)."""
    row = clusters.filter(pl.col("part") == part)
    return {f"s_{s}": int(row[f"{s}_{habit}"].sum()) for s in _SAMPLE_SUMS}


def _with_interval(frame: pl.DataFrame, k: str, rate: str) -> pl.DataFrame:
    """``frame`` with ``rate`` = k / n, ci_low, ci_high (Wilson at n / deff) and
    design_effect (measured on the sampled games' sums s_*, which are dropped)."""
    deff = design_effect_expr(*(pl.col(f"s_{c}") for c in _SAMPLE_SUMS))
    r, low, high = wilson_deff_exprs(pl.col(k), pl.col("n"), deff)
    return frame.with_columns(r.alias(rate), low.alias("ci_low"), high.alias("ci_high"),
                              pl.when(pl.col("n") > 0).then(deff).alias("design_effect"))


def _habit_table(agg: pl.DataFrame, clusters: pl.DataFrame) -> pl.DataFrame:
    """Per-phase counts -> one row per (habit, phase) with the game-clustered interval;
    16 rows."""
    rows = []
    for p_index, phase in enumerate(PHASES):
        part = agg if p_index == 0 else agg.filter(pl.col("phase") == p_index)
        for habit in HABITS:
            rows.append({"habit": habit, "phase": phase,
                         "k": int(part[f"k_{habit}"].sum()), "n": int(part[f"n_{habit}"].sum()),
                         "u": int(part[f"u_{habit}"].sum()),
                         **_sums_of(clusters, p_index, habit)})
    out = pl.DataFrame(rows, schema={"habit": pl.String, "phase": pl.String, "k": pl.Int64,
                                     "n": pl.Int64, "u": pl.Int64,
                                     **{f"s_{c}": pl.Int64 for c in _SAMPLE_SUMS}})
    uniform = pl.when(pl.col("n") > 0).then(pl.col("u") / UNIFORM_UNIT / pl.col("n"))
    out = _with_interval(out.with_columns(uniform.alias("uniform")), "k", "rate")
    return out.select("habit", "phase", "k", "n", "rate", "ci_low", "ci_high", "uniform",
                      "design_effect")


def _carry_table(out: pl.DataFrame, clusters: pl.DataFrame) -> pl.DataFrame:
    sums = pl.DataFrame([_sums_of(clusters, part, "highest_remaining") for part in (11, 10)],
                        schema={f"s_{c}": pl.Int64 for c in _SAMPLE_SUMS})
    out = _with_interval(pl.concat([out, sums], how="horizontal"), "k_highest", "rate_highest")
    return out.select(
        "pool", "n", "mean_bid", "mean_bid_minus_prize", "rate_highest", "ci_low", "ci_high",
        "k_highest", "mean_pool_value", "design_effect")


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
    The interval takes the game as the unit (the bids of one game go together): it is
    Wilson's with n / design_effect trials, the design effect measured over the games
    (on at most :data:`DEFF_GAMES` of them; analytics.stats.design_effect_expr).
    Columns: habit, phase, k, n, rate, ci_low, ci_high, uniform, design_effect; always
    16 rows.
    """
    groups, clusters = _groups_and_clusters(con, f, player)
    return _habit_table(_habit_counts(groups), clusters)


def carry_effect(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """Unforced bids with a carried pool on offer against those for a single prize.

    rate_highest is how often the player bid their highest remaining card (with its
    game-clustered interval, as in :func:`bid_habits`). Columns: pool, n, mean_bid,
    mean_bid_minus_prize, rate_highest, ci_low, ci_high, k_highest, mean_pool_value,
    design_effect; always 2 rows.
    """
    groups, clusters = _groups_and_clusters(con, f, player)
    return _carry_table(_carry(groups), clusters)


def player_bidding(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                   buckets: int = 5) -> dict[str, pl.DataFrame]:
    """All five bidding frames from one pass over the player's bids, keyed by function name.

    The same frames as :func:`bid_heatmap`, :func:`bid_minus_prize`, :func:`relative_bids`,
    :func:`bid_habits` and :func:`carry_effect`, for the cost of one of them: each is
    summed from the same grouped bids.
    """
    g, clusters = _groups_and_clusters(con, f, player, buckets)
    return {
        "bid_heatmap": _heatmap(g),
        "bid_minus_prize": _minus(g),
        "relative_bids": _relative(g),
        "bid_habits": _habit_table(_habit_counts(g), clusters),
        "carry_effect": _carry_table(_carry(g), clusters),
    }
