"""Each bid's hand facts and the bids grouped by them: the numpy core of the bidding frames.

A bid's hand facts are what the bidder's hand held when they bid (cards below the bid,
whether they still held the prize's card, ...): running bit masks of the cards spent and
the prizes shown, summed along the rounds of each (game, seat). The bids are then
grouped by everything the Players page's five frames tell apart (a few thousand groups
at most), with the per-game sums the game-clustered intervals read.

Two callers, one rule: :mod:`gops_records.games.gops.analytics.bidding` computes them from one
player's bids as a query fetches them, and the store
(:mod:`gops_records.games.gops.analytics.bid_groups`)
from every player's bids of the games an import adds, so that the unfiltered view of a
player reads its groups already summed. Both go through :meth:`HandFacts.of`,
:func:`group_frame` and :func:`cluster_frame`; groups and cluster sums add up over
disjoint sets of games, which is what lets the loader keep them import by import.

Pure numpy and polars: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

MAX_CARDS = 15  # a game's cards (13 at most) as a row index, with room to spare

#: The relative ranks' buckets the stored groups are kept for (the Players page's).
DEFAULT_BUCKETS = 5

#: 1/hand size is counted in whole units of 1/UNIFORM_UNIT (360360 = lcm(1..13): every
#: hand size divides it), so the sum is exact and the same however the bids are grouped.
UNIFORM_UNIT = 360360


@dataclass(frozen=True)
class HandFacts:
    """Every bid with what its bidder's hand held, as numpy columns (one per bid).

    who        the bidder, as a number (0 when the facts are of one player)
    game_no    the game, as a number
    cluster    the (bidder, game) pair, numbered 0.. : one cluster of the intervals (a
               bidder seated twice in a game is one cluster)
    hand_size  cards in hand before the bid (= prizes still to come, this one included)
    forced     hand_size = 1: the last card, no choice
    below_bid  cards in hand lower than the bid (0 = lowest card, hand_size-1 = highest)
    below_prize  unrevealed prizes lower than this prize
    has_prize, has_prize1  whether the player still held a card equal to prize / prize+1
    phase      1 early, 2 middle, 3 late: ceil(3 * round_no / cards)
    """

    who: np.ndarray
    game_no: np.ndarray
    cluster: np.ndarray
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

    @classmethod
    def empty(cls) -> HandFacts:
        return cls.of(*(np.zeros(0, dtype=np.int64) for _ in range(7)))

    @classmethod
    def of(cls, part: np.ndarray, game_no: np.ndarray, cards: np.ndarray,
           round_no: np.ndarray, bid: np.ndarray, prize: np.ndarray,
           carried_in: np.ndarray, who: np.ndarray | None = None) -> HandFacts:
        """The facts from the stored columns, one row per bid in any order: ``part``
        numbers the (game, seat) the bid belongs to (0, 1, ... with no gaps), ``game_no``,
        ``cards`` and ``who`` (the bidder; all 0 when None) are the part's.

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
        owners = np.zeros(parts, dtype=np.int32)
        if who is not None:
            owners[part] = who
        # the (bidder, game) pairs, numbered over the parts (a few per game, not per bid)
        span = int(games.max()) + 1 if parts else 1
        clusters = np.unique(owners.astype(np.int64) * span + games, return_inverse=True)[1]
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
            "who": owners[:, None], "game_no": games[:, None],
            "cluster": clusters.reshape(-1)[:, None], "bid": b, "prize": p,
            "carried_in": c, "pool_value": c + p, "hand_size": hand_size,
            "forced": hand_size == 1,
            "below_bid": b - 1 - np.bitwise_count(spent & (bid_bit - 1)),
            "below_prize": p - 1 - np.bitwise_count(shown & (prize_bit - 1)),
            "has_prize": (np.right_shift(spent, p) & 1) == 0,
            "has_prize1": (p < cards_of) & ((np.right_shift(spent, p + 1) & 1) == 0),
            "phase": phase}
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


#: The group columns of :func:`group_frame`, in order, and their types there.
GROUP_KEYS = {"prize": pl.Int32, "bid": pl.Int32, "phase": pl.Int32, "forced": pl.Boolean,
              "has_prize": pl.Boolean, "has_prize1": pl.Boolean, "highest": pl.Boolean,
              "lowest": pl.Boolean, "carried": pl.Boolean, "prize_rel_rank": pl.Int32,
              "bid_rel_rank": pl.Int32}
#: The sums of :func:`group_frame`, per group.
GROUP_SUMS = ("n", "pool_sum", "uniform_sum")


def _rel_rank(below: np.ndarray, h: HandFacts, buckets: int) -> np.ndarray:
    """The bucket 1..buckets of a rank fraction below / (hand_size - 1); 0 for forced bids."""
    span = np.where(h.forced, 1, h.hand_size - 1)
    scaled = below.astype(np.int32) * buckets
    return np.where(h.forced, 0, np.minimum(_sql_div(scaled, span), buckets - 1) + 1)


def group_frame(h: HandFacts, buckets: int = DEFAULT_BUCKETS) -> pl.DataFrame:
    """The bids grouped by bidder (``who``) and everything the five frames tell apart (a
    few thousand rows a bidder at most, whatever the number of bids), with n, pool_sum and
    uniform_sum (sum of UNIFORM_UNIT // hand_size) per group, in key order.
    prize_rel_rank and bid_rel_rank are null for forced bids."""
    if buckets < 1:
        raise ValueError(f"buckets must be at least 1, not {buckets}")
    keys = [h.who, h.prize, h.bid, h.phase, h.forced, h.has_prize, h.has_prize1,
            h.below_bid == h.hand_size - 1, h.below_bid == 0, h.carried_in > 0,
            _rel_rank(h.below_prize, h, buckets), _rel_rank(h.below_bid, h, buckets)]
    uniform = UNIFORM_UNIT // np.maximum(h.hand_size.astype(np.int32), 1)
    values, sums = _grouped(keys, [None, h.pool_value, uniform])  # None: count the bids
    names = {"who": pl.Int32, **GROUP_KEYS}
    frame = pl.DataFrame([pl.Series(name, v, dtype=dtype)
                          for (name, dtype), v in zip(names.items(), values, strict=True)])
    unforced = ~pl.col("forced")
    return frame.with_columns(
        pl.when(unforced).then(pl.col("prize_rel_rank")).alias("prize_rel_rank"),
        pl.when(unforced).then(pl.col("bid_rel_rank")).alias("bid_rel_rank"),
        *(pl.Series(name, s, dtype=pl.Int64) for name, s in zip(GROUP_SUMS, sums, strict=True)))


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
        if span > 1:
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
CLUSTER_PAIRS = {"exact_prize": ("n_exact", "k_exact"), "prize_plus_one": ("n_plus", "k_plus"),
                 "highest_remaining": ("n_all", "k_high"), "lowest_remaining": ("n_all", "k_low")}
#: What :func:`cluster_frame` sums per habit (analytics.stats.design_effect_expr reads them).
CLUSTER_COLUMNS = ("k", "n", "kk", "nn", "kn", "games")
#: The parts of a game the cluster sums are kept for: 0 the whole game, 1-3 its phases,
#: 10 single prizes, 11 carried pools.
CLUSTER_PARTS = (0, 1, 2, 3, 10, 11)


def cluster_schema() -> dict[str, pl.DataType]:
    return {"who": pl.Int32, "part": pl.Int32, **{
        f"{s}_{habit}": pl.Int64 for habit in CLUSTER_PAIRS for s in CLUSTER_COLUMNS}}


def cluster_frame(h: HandFacts) -> pl.DataFrame:
    """Per bidder and part of the game, the sums over their games that the design effect
    reads (analytics.stats.design_effect_expr): for each habit k, n, k*k, n*n, k*n and the
    games with a trial, where k and n count one game's unforced bids following the habit
    and those where it was possible (a bidder seated twice in a game: one game). One row
    per bidder and part of :data:`CLUSTER_PARTS`, zeros where a part has no bids."""
    keep = ~h.forced
    bid, prize, below, size = h.bid[keep], h.prize[keep], h.below_bid[keep], h.hand_size[keep]
    per_bid = {"n_exact": h.has_prize[keep], "k_exact": h.has_prize[keep] & (bid == prize),
               "n_plus": h.has_prize1[keep],
               "k_plus": h.has_prize1[keep] & (bid == prize + 1),
               "n_all": None, "k_high": below == size - 1, "k_low": below == 0}
    clusters = int(h.cluster.max()) + 1 if len(h.cluster) else 0
    owner = np.zeros(clusters, dtype=np.int64)
    owner[h.cluster] = h.who
    # clusters are numbered in (bidder, game) order, so each bidder's are one run of them
    owners, starts = np.unique(owner, return_index=True)
    # each cluster's counts in the six cells (third of the game x carried or not) at once;
    # a part is a sum of cells (0 all six, 1-3 a third's two, 10/11 the three of a kind)
    cell = (h.cluster[keep].astype(np.int64) * 6 + (h.phase[keep] - 1) * 2
            + (h.carried_in[keep] > 0))
    by_part = {}
    for name, v in per_bid.items():
        c = np.bincount(cell if v is None else cell[v], minlength=clusters * 6)
        c = c.reshape(clusters, 6)
        by_part[name] = (c.sum(axis=1), c[:, 0] + c[:, 1], c[:, 2] + c[:, 3],
                         c[:, 4] + c[:, 5], c[:, 0] + c[:, 2] + c[:, 4],
                         c[:, 1] + c[:, 3] + c[:, 5])   # in the order of CLUSTER_PARTS

    def per_owner(value: np.ndarray) -> np.ndarray:
        return (np.add.reduceat(value.astype(np.int64), starts) if clusters
                else np.zeros(0, dtype=np.int64))

    columns: dict[str, list] = {"who": [], "part": []}
    for column, part in enumerate(CLUSTER_PARTS):
        columns["who"].append(owners)
        columns["part"].append(np.full(len(owners), part))
        for habit, (n_name, k_name) in CLUSTER_PAIRS.items():
            k, n = by_part[k_name][column], by_part[n_name][column]
            for name, value in (("k", k), ("n", n), ("kk", k * k), ("nn", n * n),
                                ("kn", k * n), ("games", n > 0)):
                columns.setdefault(f"{name}_{habit}", []).append(per_owner(value))
    schema = cluster_schema()
    return pl.DataFrame({name: np.concatenate(v) for name, v in columns.items()},
                        schema=schema)
