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

Each function runs one query for the player's bids (one row each, as stored), adds the
hand facts in numpy and groups the bids by everything the five frames tell apart (a few
thousand groups at most); the frames are summed from those groups in polars.
:func:`player_bidding` computes all five from one such pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl

from gops_records.analytics.filters import CLASSIC, Filters, games_cte
from gops_records.analytics.stats import CLUSTER_SUMS, design_effect_expr, wilson_deff_exprs

HABITS = ("exact_prize", "prize_plus_one", "highest_remaining", "lowest_remaining")
MAX_CARDS = 15  # a game's cards (13 at most) as a row index, with room to spare
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


@dataclass(frozen=True)
class _HandFacts:
    """Every bid of the player with what their hand held, as numpy columns (one per bid).

    hand_size  cards in hand before the bid (= prizes still to come, this one included)
    forced     hand_size = 1: the last card, no choice
    below_bid  cards in hand lower than the bid (0 = lowest card, hand_size-1 = highest)
    below_prize  unrevealed prizes lower than this prize
    has_prize, has_prize1  whether the player still held a card equal to prize / prize+1
    phase      1 early, 2 middle, 3 late: ceil(3 * round_no / cards)
    sampled    the bid is in one of the (game, seat) parts the design effect is measured
               on (the first :data:`DEFF_GAMES` of them in game-id order)
    """

    game_no: np.ndarray
    bid: np.ndarray
    prize: np.ndarray
    carried_in: np.ndarray
    pool_value: np.ndarray
    hand_size: np.ndarray
    forced: np.ndarray
    below_bid: np.ndarray
    below_prize: np.ndarray
    has_prize: np.ndarray
    has_prize1: np.ndarray
    phase: np.ndarray
    sampled: np.ndarray

    @classmethod
    def read(cls, con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> _HandFacts:
        """The player's bids in the classic games ``f`` keeps (one query, then numpy)."""
        classic = f.only(CLASSIC)
        if classic is None:  # the filters keep other variants only
            return cls.of(*(np.zeros(0, dtype=np.int64) for _ in range(7)))
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
        return cls.of(part=part, game_no=slot >> 6, cards=slot & 15, **cols)

    @classmethod
    def of(cls, part: np.ndarray, game_no: np.ndarray, cards: np.ndarray,
           round_no: np.ndarray, bid: np.ndarray, prize: np.ndarray,
           carried_in: np.ndarray) -> _HandFacts:
        """The facts from the stored columns (one row per part and round, in any order).

        The rows are laid out as a (parts, rounds) grid, so each bid's cards spent and
        prizes shown before it are running sums along its part's row (a card is spent
        once and a prize shown once, so the sum of the bits is their union).
        """
        parts = int(part.max()) + 1 if len(part) else 0
        width = int(round_no.max()) if len(part) else 1
        at = part * width + (round_no - 1)

        # one scatter for the three columns: bid and prize in 8 bits each, carried above
        if len(part) and (max(int(bid.max()), int(prize.max())) > 0xFF
                          or int(carried_in.max()) > 0xFFFF or min(int(bid.min()),
                                                                   int(prize.min())) < 0):
            raise ValueError("bids and prizes must be 0..255 and carried values 0..65535")
        packed = np.zeros(parts * width, dtype=np.int64)
        packed[at] = bid | (prize << 8) | (carried_in << 16) | (1 << 62)   # bit 62: held
        packed = packed.reshape(parts, width)
        held = packed != 0
        every = bool(held.all())
        # small integers (cards, prizes, ranks) in 16 bits, the card masks in 64: the
        # million-bid passes below move a quarter of the bytes
        b = (packed & 0xFF).astype(np.int16)
        p = ((packed >> 8) & 0xFF).astype(np.int16)
        c = ((packed >> 16) & 0xFFFF).astype(np.int16)
        n = np.zeros(parts, dtype=np.int16)
        n[part] = cards
        games = np.zeros(parts, dtype=np.int64)
        games[part] = game_no
        bid_bit = np.left_shift(1, b, dtype=np.int64)
        prize_bit = np.left_shift(1, p, dtype=np.int64)
        if not every:  # rounds never played (unfinished games) add nothing
            bid_bit[~held] = 0
            prize_bit[~held] = 0
        spent = np.cumsum(bid_bit, axis=1) - bid_bit
        shown = np.cumsum(prize_bit, axis=1) - prize_bit
        cards_of = n[:, None]
        # hand size and phase depend on the game's cards and the round only: one row of
        # each per number of cards, picked per part
        rounds = np.arange(1, width + 1, dtype=np.int16)[None, :]
        decks = np.arange(MAX_CARDS + 1, dtype=np.int16)[:, None]
        hand_size = (decks - rounds + 1)[n]
        phase = np.ceil(3.0 * rounds / np.maximum(decks, 1)).astype(np.int16)[n]
        facts = {
            "game_no": np.broadcast_to(games[:, None], held.shape), "bid": b, "prize": p,
            "carried_in": c, "pool_value": c + p, "hand_size": hand_size,
            "forced": hand_size == 1,
            "below_bid": b - 1 - np.bitwise_count(spent & (bid_bit - 1)),
            "below_prize": p - 1 - np.bitwise_count(shown & (prize_bit - 1)),
            "has_prize": (np.right_shift(spent, p) & 1) == 0,
            "has_prize1": (p < cards_of) & ((np.right_shift(spent, p + 1) & 1) == 0),
            "phase": phase,
            "sampled": np.broadcast_to((np.arange(parts) < DEFF_GAMES)[:, None], held.shape)}
        keep = held.reshape(-1)
        return cls(**{name: (np.broadcast_to(v, held.shape).reshape(-1) if every
                             else np.broadcast_to(v, held.shape).reshape(-1)[keep])
                      for name, v in facts.items()})


def _sql_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer division as SQL does it (truncated towards zero), not numpy's floor."""
    if (a >= 0).all() and (b > 0).all():
        return a // b
    q = np.abs(a) // np.maximum(np.abs(b), 1)
    return np.where((a < 0) != (b < 0), -q, q)


#: The group columns of :func:`_group_frame`, in order, and their types there.
_GROUP_KEYS = {"prize": pl.Int32, "bid": pl.Int32, "phase": pl.Int32, "forced": pl.Boolean,
               "has_prize": pl.Boolean, "has_prize1": pl.Boolean, "highest": pl.Boolean,
               "lowest": pl.Boolean, "carried": pl.Boolean, "prize_rel_rank": pl.Int32,
               "bid_rel_rank": pl.Int32}


def _rel_rank(below: np.ndarray, h: _HandFacts, buckets: int) -> np.ndarray:
    """The bucket 1..buckets of a rank fraction below / (hand_size - 1); 0 for forced bids."""
    span = np.where(h.forced, 1, h.hand_size - 1)
    scaled = below.astype(np.int32) * buckets
    return np.where(h.forced, 0, np.minimum(_sql_div(scaled, span), buckets - 1) + 1)


def _group_frame(h: _HandFacts, buckets: int) -> pl.DataFrame:
    """The player's bids grouped by everything the five frames tell apart (a few thousand
    rows at most: prize x bid x phase x relative ranks x flags, whatever the number of
    bids), with n, pool_sum and uniform_sum (sum of UNIFORM_UNIT // hand_size) per group.
    prize_rel_rank and bid_rel_rank are null for forced bids."""
    keys = [h.prize, h.bid, h.phase, h.forced, h.has_prize, h.has_prize1,
            h.below_bid == h.hand_size - 1, h.below_bid == 0, h.carried_in > 0,
            _rel_rank(h.below_prize, h, buckets), _rel_rank(h.below_bid, h, buckets)]
    uniform = UNIFORM_UNIT // np.maximum(h.hand_size.astype(np.int32), 1)
    values, sums = _grouped(keys, [None, h.pool_value, uniform])  # None: count the bids
    frame = pl.DataFrame([pl.Series(name, v, dtype=dtype)
                          for (name, dtype), v in zip(_GROUP_KEYS.items(), values, strict=True)])
    unforced = ~pl.col("forced")
    return frame.with_columns(
        pl.when(unforced).then(pl.col("prize_rel_rank")).alias("prize_rel_rank"),
        pl.when(unforced).then(pl.col("bid_rel_rank")).alias("bid_rel_rank"),
        *(pl.Series(name, s, dtype=pl.Int64)
          for name, s in zip(("n", "pool_sum", "uniform_sum"), sums, strict=True)))


def _grouped(keys: list[np.ndarray], weights: list[np.ndarray | None]
             ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """GROUP BY ``keys`` with exact integer sums of ``weights`` (None: the count): each key
    column's values per group and each weight's sums (groups in key order).

    The keys are numbered in mixed radix (each column's span of values); with a few
    million numbers or fewer they are counted with bincount (no sort), else sorted.
    """
    lows, spans = [], []
    for column in keys:
        if column.dtype == bool:
            low, span = 0, 2
        else:
            low = int(column.min()) if len(column) else 0
            span = (int(column.max()) - low + 1) if len(column) else 1
        lows.append(low)
        spans.append(span)
    total = int(np.prod(spans, dtype=object))
    key = np.zeros(len(keys[0]), dtype=np.int32 if total < 1 << 31 else np.int64)
    for column, low, span in zip(keys, lows, spans, strict=True):
        key *= span
        key += column
        if low:
            key -= low
    if total <= max(1 << 22, 4 * len(key)):
        counts = np.bincount(key, minlength=total)
        present = np.flatnonzero(counts)
        sums = [counts[present] if w is None else _int_sums(key, w, total)[present]
                for w in weights]
    else:
        present, group = np.unique(key, return_inverse=True)
        group = group.reshape(-1)
        sums = [np.bincount(group, minlength=len(present)) if w is None
                else _int_sums(group, w, len(present)) for w in weights]
    values, rest = [], present
    for low, span in zip(reversed(lows), reversed(spans), strict=True):
        values.append(rest % span + low)
        rest = rest // span
    return values[::-1], sums


def _int_sums(group: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Exact integer sums of ``values`` per group (bincount's float sums are exact while
    every sum stays below 2**53; beyond that, integer adds)."""
    if len(values) and int(np.abs(values).max()) * len(values) < 1 << 53:
        return np.bincount(group, weights=values, minlength=size).astype(np.int64)
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, group, values)
    return out


#: (habit or carry figure) -> what counts as a trial and a success of it, per bid
_CLUSTER_PAIRS = {"exact_prize": ("n_exact", "k_exact"), "prize_plus_one": ("n_plus", "k_plus"),
                  "highest_remaining": ("n_all", "k_high"), "lowest_remaining": ("n_all", "k_low")}


def _cluster_frame(h: _HandFacts) -> pl.DataFrame:
    """Per part of the game, the sums over the sampled games that the design effect reads
    (analytics.stats.design_effect_expr): for each habit k, n, k*k, n*n, k*n and the games
    with a trial, where k and n count one game's unforced bids following the habit and
    those where it was possible. Parts: 0 the whole game, 1-3 its phases, 10 single
    prizes, 11 carried pools."""
    keep = h.sampled & ~h.forced
    bid, prize, below, size = h.bid[keep], h.prize[keep], h.below_bid[keep], h.hand_size[keep]
    per_bid = {"n_exact": h.has_prize[keep], "k_exact": h.has_prize[keep] & (bid == prize),
               "n_plus": h.has_prize1[keep],
               "k_plus": h.has_prize1[keep] & (bid == prize + 1),
               "n_all": np.ones(len(bid), dtype=bool), "k_high": below == size - 1,
               "k_low": below == 0}
    game = h.game_no[keep]
    games = int(game.max()) + 1 if len(game) else 0
    phase, carried = h.phase[keep], h.carried_in[keep] > 0
    parts = {0: np.ones(len(bid), dtype=bool),
             **{p: phase == p for p in (1, 2, 3)}, 10: ~carried, 11: carried}
    rows = []
    for part, inside in parts.items():
        counts = {name: np.bincount(game[inside & v], minlength=games).astype(np.int64)
                  for name, v in per_bid.items()}
        row = {"part": part}
        for habit, (n_name, k_name) in _CLUSTER_PAIRS.items():
            k, n = counts[k_name], counts[n_name]
            row |= {f"k_{habit}": int(k.sum()), f"n_{habit}": int(n.sum()),
                    f"kk_{habit}": int((k * k).sum()), f"nn_{habit}": int((n * n).sum()),
                    f"kn_{habit}": int((k * n).sum()), f"games_{habit}": int((n > 0).sum())}
        rows.append(row)
    return pl.DataFrame(rows, schema={"part": pl.Int32, **{
        f"{s}_{habit}": pl.Int64 for habit in _CLUSTER_PAIRS
        for s in ("k", "n", "kk", "nn", "kn", "games")}})


#: The design effect of a rate is measured on at most this many of the player's games (the
#: lowest game ids: content hashes, so a fixed pseudo-random choice) and applied to the
#: rate over all of them: a variance ratio is measured well by 5,000 games (to about 2%),
#: and the per-game sums of a player with 80,000 games cost the Players page 20-40%.
DEFF_GAMES = 5000

#: 1/hand size is counted in whole units of 1/UNIFORM_UNIT (360360 = lcm(1..13): every
#: hand size divides it), so the sum is exact and the same however the bids are grouped.
UNIFORM_UNIT = 360360


def _bucket_params(buckets: int) -> int:
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    return buckets


def _groups(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
            buckets: int = 5) -> pl.DataFrame:
    """The player's bids in the games ``f`` keeps, grouped (one query, one pass)."""
    buckets = _bucket_params(buckets)
    return _group_frame(_HandFacts.read(con, f, player), buckets)


def _groups_and_clusters(con: duckdb.DuckDBPyConnection, f: Filters, player: str,
                         buckets: int = 5) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`_groups` and, from the same bids, the per-part cluster sums."""
    buckets = _bucket_params(buckets)
    facts = _HandFacts.read(con, f, player)
    return _group_frame(facts, buckets), _cluster_frame(facts)


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
