"""The two variants of the rules in the analytics: which are stored, how bids of several
cards are bid, and what open-prize winners take.

- :func:`list_variants`: the variants the database holds, for the variant filter;
  :func:`games_by_variant`: how many of the kept games each has.
- :func:`strength_by_prize`: with bids of several cards a bid's *strength* (the sum of its
  cards) is what wins; how strong a player bids on each prize.
- :func:`open_row_bids` and :func:`row_choices`: with open prizes there is no pool, but a
  row of face-up prizes, and the winner picks one. What a player bids against the best
  prize on offer, and which prize of the row a winner takes (the highest, the lowest or
  one between), with game-clustered intervals like every per-round rate.

The hand-aware bidding measures (:mod:`gops_records.games.gops.analytics.bidding`: relative bids,
habits, carried pools) follow one card a bid and one prize a round, so they are computed
on the classic games only (:meth:`Filters.only` with :data:`CLASSIC`).
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.core.stats import with_cluster_ci
from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import Filters, Variant, VariantKind, games_cte

#: Which prize of the row a winner took (a row of two or more prizes), in display order.
CHOICES = ("highest", "between", "lowest")


def list_variants(con: duckdb.DuckDBPyConnection) -> list[Variant]:
    """The variants of the stored games: the classic game first, then bids of k cards,
    then open prizes, each by k."""
    rows = con.execute("SELECT DISTINCT bid_cards, open_prizes FROM games").fetchall()
    return sorted({Variant.of(bid_cards, open_prizes) for bid_cards, open_prizes in rows},
                  key=_order)


def _order(variant: Variant) -> tuple[int, int]:
    """Classic first, then bids of k cards, then open prizes, each by k."""
    return list(VariantKind).index(variant.kind), variant.k or 0


def games_by_variant(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How many of the kept games each variant has, so a page can say what it shows.

    Columns: variant (``classic``, ``bid-cards-2``, ...), label (in words), games; in the
    order of :func:`list_variants`, variants without a kept game left out.
    """
    scope, params = games_cte(f, "g.bid_cards, g.open_prizes")
    rows = con.execute(f"WITH {scope} SELECT bid_cards, open_prizes, count(*) FROM fg "
                       "GROUP BY ALL", params).fetchall()
    counts = {Variant.of(k, row): n for k, row, n in rows}
    kept = sorted(counts, key=_order)
    return pl.DataFrame({"variant": [str(v) for v in kept], "label": [v.label for v in kept],
                         "games": [counts[v] for v in kept]},
                        schema={"variant": pl.String, "label": pl.String, "games": pl.Int64})


def _seat_bids(f: Filters, player: str, condition: str) -> tuple[str, list]:
    """WITH-clause bodies ending in ``pb``: every bid of ``player`` in the kept games that
    meet ``condition`` (over their ``bid_cards`` and ``open_prizes``), with its round."""
    scope, params = games_cte(f, "g.game_id, g.bid_cards, g.open_prizes")
    return f"""{scope},
    kept AS (SELECT game_id, bid_cards FROM fg WHERE {condition}),
    pb AS (
        SELECT r.*, k.bid_cards, p.seat,
               CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                           WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid
        FROM game_players p JOIN kept k USING (game_id) JOIN rounds r USING (game_id)
        WHERE p.player = ?
    )""", [*params, player]


def strength_by_prize(con: duckdb.DuckDBPyConnection, f: Filters,
                      player: str) -> dict[str, pl.DataFrame]:
    """How strong ``player`` bids on each prize in the kept games of bids of several cards.

    ``heatmap``: bid_cards, prize, strength, count, row_share (the share of the bids on
    that prize, in games of that many cards a bid); ``by_prize``: bid_cards, prize, n (bids),
    mean_strength and mean_card (the strength over the cards in a bid: comparable with the
    prize, as a classic bid is). Every bid counts (the last, forced one too).
    """
    bids, params = _seat_bids(f, player, "bid_cards > 1")
    grouped = run(con, f"""WITH {bids}
        SELECT bid_cards::INTEGER AS bid_cards, prize::INTEGER AS prize,
               bid::INTEGER AS strength, count(*) AS count
        FROM pb GROUP BY ALL ORDER BY ALL""", params)
    heat = grouped.with_columns(
        (pl.col("count") / pl.col("count").sum().over("bid_cards", "prize")).alias("row_share"))
    by_prize = (grouped.group_by("bid_cards", "prize")
                .agg(pl.col("count").sum().alias("n"),
                     (pl.col("strength") * pl.col("count")).sum().alias("total"))
                .with_columns((pl.col("total") / pl.col("n")).alias("mean_strength"))
                .with_columns((pl.col("mean_strength") / pl.col("bid_cards")).alias("mean_card"))
                .drop("total").sort("bid_cards", "prize"))
    return {"heatmap": heat, "by_prize": by_prize}


def open_row_bids(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """What ``player`` bids against the best prize on offer, in the kept open-prize games.

    Columns: best_prize (the highest prize in the row after the top-up), bid, count,
    row_share (the share of the bids against that best prize). Every bid counts.
    """
    bids, params = _seat_bids(f, player, "open_prizes IS NOT NULL")
    grouped = run(con, f"""WITH {bids}
        SELECT list_max(pool_cards)::INTEGER AS best_prize, bid::INTEGER AS bid,
               count(*) AS count
        FROM pb GROUP BY ALL ORDER BY ALL""", params)
    return grouped.with_columns(
        (pl.col("count") / pl.col("count").sum().over("best_prize")).alias("row_share"))


def row_choices(con: duckdb.DuckDBPyConnection, f: Filters,
                player: str | None = None) -> pl.DataFrame:
    """Which prize of the row the winner of an open-prize round takes: the highest on
    offer, the lowest, or one between; over the won rounds whose row held two prizes or
    more (with one there is no choice), in the kept games (of ``player``'s wins only, when
    given).

    Columns: choice (:data:`CHOICES`, always three rows), rounds (won rounds with a choice),
    taken (how many of them took that prize), rate, ci_low, ci_high (95%, game-clustered:
    the rounds of one game go together), games, design_effect.
    """
    scope, params = games_cte(f, "g.game_id, g.open_prizes")
    who = ""
    if player is not None:
        who = ("JOIN game_players p ON p.game_id = r.game_id AND p.seat = r.winner_seat "
               "AND p.player = ?")
        params = [*params, player]
    per_game = run(con, f"""WITH {scope},
        won AS (
            SELECT r.game_id,
                   CASE WHEN r.taken = list_max(r.pool_cards) THEN 'highest'
                        WHEN r.taken = list_min(r.pool_cards) THEN 'lowest'
                        ELSE 'between' END AS choice
            FROM rounds r
            JOIN (SELECT game_id FROM fg WHERE open_prizes IS NOT NULL) k USING (game_id)
            {who}
            WHERE r.taken IS NOT NULL AND len(r.pool_cards) > 1
        ),
        n_games AS (SELECT game_id, count(*) AS n FROM won GROUP BY game_id),
        k_games AS (SELECT game_id, choice, count(*) AS k FROM won GROUP BY ALL),
        choices AS (SELECT unnest(?::VARCHAR[]) AS choice)
        SELECT c.choice, coalesce(sum(coalesce(kg.k, 0)), 0)::BIGINT AS k,
               coalesce(sum(ng.n), 0)::BIGINT AS n,
               coalesce(sum(coalesce(kg.k, 0) ** 2), 0)::BIGINT AS kk,
               coalesce(sum(ng.n ** 2), 0)::BIGINT AS nn,
               coalesce(sum(coalesce(kg.k, 0) * ng.n), 0)::BIGINT AS kn,
               count(ng.game_id)::BIGINT AS games
        FROM choices c CROSS JOIN n_games ng
        LEFT JOIN k_games kg ON kg.game_id = ng.game_id AND kg.choice = c.choice
        GROUP BY c.choice""", [*params, list(CHOICES)])
    order = pl.DataFrame({"choice": list(CHOICES)})
    sums = order.join(per_game, on="choice", how="left", maintain_order="left").fill_null(0)
    out = with_cluster_ci(sums.rename({"k": "taken", "n": "rounds"}), "taken", "rounds")
    return out.select("choice", "rounds", "taken", "rate", "ci_low", "ci_high", "games",
                      "design_effect")
