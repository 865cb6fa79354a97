"""How one player bids: bid against prize, relative bids, habits by game phase, carried pools.

All functions take the player's name and look at that player's bids in the games the
filters keep. The hand-aware measures (relative bids, habits, carry effect) know which
cards the player had left: a running bit mask of the cards already spent (bit v = card v),
summed along the rounds of each game the player sat in. They leave out *forced* bids (the
last card in hand), which show no choice.

They read **classic games only** (one card a bid, one prize a round: a hand loses one card
a round and the prize is the card shown), whatever the filters: a game of bids of several
cards or of open prizes is left out (:meth:`Filters.only` with :data:`CLASSIC`), and a filter
on such a variant reads no bids.

Each function groups the player's bids by everything the five frames tell apart (a few
thousand groups at most; :mod:`gops_records.games.gops.hand_facts`) and sums the frames from those
groups in polars. When the filters keep all of the player's classic games, or all of
those of some events (no filter, events, this player), the groups are read as the loader
kept them, import by import (``player_bid_groups``, ``player_bid_clusters``); otherwise
one query fetches the player's bids (one row each, as stored) and the hand facts are
added in numpy.
:func:`player_bidding` computes all five from one such pass.
"""

from __future__ import annotations

from dataclasses import replace

import duckdb
import numpy as np
import polars as pl

from gops_records.core.stats import CLUSTER_SUMS, design_effect_expr, wilson_deff_exprs
from gops_records.games.gops.analytics.bid_groups import has_stored_groups, stored_groups
from gops_records.games.gops.analytics.filters import CLASSIC, Filters, games_cte
from gops_records.games.gops.hand_facts import (
    DEFAULT_BUCKETS,
    UNIFORM_UNIT,
    HandFacts,
    cluster_frame,
    group_frame,
)

HABITS = ("exact_prize", "prize_plus_one", "highest_remaining", "lowest_remaining")
PHASES = ("all", "early", "middle", "late")
POOLS = ("carried pool", "single prize")


#: The player's bids as stored, one row per bid and no window, so the hand facts can be
#: accumulated along each (game, seat) the player sat in, in numpy. ``slot`` packs the
#: game's number (in game-id order), the seat and the game's cards into one integer
#: (game * 64 + seat * 16 + cards), worked out once per seat: each column more costs the
#: fetch of a million rows a tenth more. A window over the player's rounds in DuckDB
#: (``sum(1 << bid) OVER (PARTITION BY game, seat ORDER BY round_no)``) was most of a
#: Players pick for a player with 1.08M bids at 1,000,000 games (README, Speed).
_BIDS = """{scope},
    seats AS (
        SELECT p.game_id, (ascii(p.seat) - 65)::UTINYINT AS seat_no,
               ((dense_rank() OVER (ORDER BY p.game_id) - 1) * 64
                + (ascii(p.seat) - 65) * 16 + fg.cards)::BIGINT AS slot
        FROM game_players p JOIN fg USING (game_id) WHERE p.player = ?
    )
    SELECT s.slot, r.round_no,
           CASE s.seat_no WHEN 0 THEN r.bid_a WHEN 1 THEN r.bid_b
                          WHEN 2 THEN r.bid_c ELSE r.bid_d END AS bid,
           r.prize, r.carried_in
    FROM rounds r JOIN seats s USING (game_id)"""




def _read_facts(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> HandFacts:
    """The player's bids in the classic games ``f`` keeps (one query, then numpy)."""
    classic = f.only(CLASSIC)
    if classic is None:  # the filters keep other variants only
        return HandFacts.empty()
    scope, params = games_cte(classic, "g.game_id, g.cards")
    table = con.sql(f"WITH {_BIDS.format(scope=scope)}",
                    params=[*params, player]).arrow().read_all()
    cols = {name: table.column(name).to_numpy().astype(np.int64)
            for name in ("slot", "round_no", "bid", "prize", "carried_in")}
    slot = cols.pop("slot")
    key = slot >> 4                      # game * 4 + seat: one per (game, seat)
    seen = np.zeros(int(key.max()) + 1 if len(key) else 0, dtype=bool)
    seen[key] = True
    part = (np.cumsum(seen) - 1)[key]    # the (game, seat) pairs numbered 0.. in order
    return HandFacts.of(part=part, game_no=slot >> 6, cards=slot & 15, **cols)


def _reads_stored(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                  buckets: int) -> bool:
    """Whether ``f`` keeps all of ``player``'s classic games (of its events, if it names
    some), so the groups the loader kept (``player_bid_groups``, per player and event,
    summed over every import) are the answer: no filter but events, the classic variant
    and a player filter naming this player (any of the named players played: every game
    of theirs), with the page's buckets."""
    return (buckets == DEFAULT_BUCKETS and f.variant in (None, CLASSIC)
            and replace(f, variant=None, players=(), events=()).is_empty
            and (not f.players or player in f.players) and has_stored_groups(con))


def _groups_and_clusters(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                         buckets: int = DEFAULT_BUCKETS) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The player's bids in the games ``f`` keeps, grouped, and their per-part cluster
    sums: read as the loader kept them when ``f`` keeps all the player's classic games
    (of some events), else computed from the bids (one query, one pass)."""
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    if _reads_stored(con, f, player, buckets):
        groups, clusters = stored_groups(con, player, f.events)
    else:
        facts = _read_facts(con, f, player)
        groups, clusters = group_frame(facts, buckets), cluster_frame(facts)
    return groups.drop("who"), clusters.drop("who")


def _groups(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
            buckets: int = DEFAULT_BUCKETS) -> pl.DataFrame:
    """The player's bids in the games ``f`` keeps, grouped."""
    return _groups_and_clusters(con, f, player, buckets)[0]


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
    Wilson's with n / design_effect trials, the design effect measured over every game
    (analytics.stats.design_effect_expr).
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
