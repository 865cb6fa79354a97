"""Tie frequencies: overall and by tie rule, by round number, per player pair, streaks, last rounds.

A round is tied when the highest bid is shared (the ``rounds.tie`` column), with two
players or more. Every rate comes with its count and a 95% interval. Rates over rounds
(by rule, by round, by pair) treat the game as the unit: their interval is the
game-clustered one of :func:`~gops_records.core.stats.with_cluster_ci`, with the
number of ``games`` and the ``design_effect`` beside it. The share of games ending on a
tie counts games, so its interval is Wilson's.
"""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl

from gops_records.core.stats import cluster_sums, wilson, with_cluster_ci
from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import Filters, games_cte
from gops_records.games.gops.analytics.shapes import game_shapes, part
from gops_records.games.gops.cards import MAX_RANK


def tie_summary(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tied rounds per tie rule, then an ``all`` row. Columns: tie_rule, rounds, ties, rate,
    ci_low, ci_high (game-clustered 95%), games, design_effect."""
    return tie_summary_of(game_shapes(con, f))


def _clustered(frame: pl.DataFrame) -> pl.DataFrame:
    """Cluster sums (k = ties, n = rounds) -> the tie frames' columns, in their order."""
    out = with_cluster_ci(frame.rename({"k": "ties", "n": "rounds"}), "ties", "rounds")
    keys = [c for c in frame.columns if c not in ("k", "n", "kk", "nn", "kn", "games")]
    return out.select(*keys, "rounds", "ties", "rate", "ci_low", "ci_high", "games",
                      "design_effect")


def tie_summary_of(shapes: pl.DataFrame) -> pl.DataFrame:
    """:func:`tie_summary` from :func:`~gops_records.games.gops.analytics.shapes.game_shapes`."""
    shapes = part(shapes, "ties")
    sums = cluster_sums(pl.col("ties"), pl.col("rounds_played"), pl.col("games"))
    per_rule = shapes.group_by("tie_rule").agg(sums).sort("tie_rule")
    everything = shapes.select(pl.lit("all").alias("tie_rule"), *sums)
    return _clustered(pl.concat([per_rule, everything.cast(per_rule.schema)]))


def ties_by_round(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tie rate by round number. Columns: round_no, rounds, ties, rate, ci_low, ci_high,
    games, design_effect.

    Each game plays round n at most once, so here every game is one trial: the
    game-clustered interval is Wilson's widened by G / (G - 1) only.
    """
    return ties_by_round_of(game_shapes(con, f))


def ties_by_round_of(shapes: pl.DataFrame) -> pl.DataFrame:
    """:func:`ties_by_round` from :func:`~gops_records.games.gops.analytics.shapes.game_shapes`."""
    shapes = part(shapes, "ties")
    played = shapes["rounds_played"].to_numpy()
    masks = shapes["tie_mask"].to_numpy()
    games = shapes["games"].to_numpy()
    round_no = np.arange(1, MAX_RANK + 1)
    reached = played[None, :] >= round_no[:, None]             # (round, shape)
    tied = reached & ((masks[None, :] >> (round_no[:, None] - 1)) & 1 == 1)
    n = (reached * games[None, :]).sum(axis=1)
    k = (tied * games[None, :]).sum(axis=1)
    # one trial per game: k_g, n_g are 0 or 1, so kk = kn = k, nn = n and games = n
    out = pl.DataFrame({"round_no": round_no, "k": k, "n": n, "kk": k, "nn": n, "kn": k,
                        "games": n},
                       schema={"round_no": pl.Int32, **dict.fromkeys(
                           ("k", "n", "kk", "nn", "kn", "games"), pl.Int64)})
    return _clustered(out.filter(pl.col("n") > 0))


def ties_by_pair(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How often two players tied each other, over the rounds they played together.

    A tie between two players is a tied round in which both bid the shared highest card
    (with 3-4 players, a tie between two others does not count for them). Each pair
    appears twice, once from each side. Columns: player, opponent, rounds, ties, rate,
    ci_low, ci_high (game-clustered 95%), games (played together), design_effect; most
    rounds first.
    """
    # Two-player games (nearly all) take their tie count from games.ties; 3-4 player games
    # pair every two seats, and only their tied rounds are read, to see who shared the top
    # bid. Each pair's rounds and ties are summed per game first (with their squares), for
    # the clustered interval.
    sums = ("n", "k", "kk", "nn", "kn", "games")
    two, more_games = _two_player_sums(con, f)
    sides = [two.select(pl.col("pa").alias("player"), pl.col("pb").alias("opponent"), *sums),
             two.select(pl.col("pb").alias("player"), pl.col("pa").alias("opponent"), *sums)]
    if more_games:
        sides.append(_more_player_sums(con, f).select("player", "opponent", *sums))
    out = (pl.concat(sides).group_by("player", "opponent").agg(pl.col(c).sum() for c in sums)
           .sort(["n", "player", "opponent"], descending=[True, False, False]))
    return _clustered(out)


#: The two-player games' sums per pair (seat A's player, seat B's), over ``counted``: the
#: kept games counted (``c``) by pa, pb, rounds ``n``, ties ``k`` and ``two`` (a
#: two-player game). Counting games by these few values first and summing the small result
#: costs less than six sums over every kept game.
_TWO_SUMS = """
    SELECT pa, pb, coalesce(sum(n * c) FILTER (two), 0)::BIGINT AS n,
           coalesce(sum(k * c) FILTER (two), 0)::BIGINT AS k,
           coalesce(sum(k * k * c) FILTER (two), 0)::BIGINT AS kk,
           coalesce(sum(n * n * c) FILTER (two), 0)::BIGINT AS nn,
           coalesce(sum(k * n * c) FILTER (two), 0)::BIGINT AS kn,
           coalesce(sum(c) FILTER (two), 0)::BIGINT AS games,
           coalesce(sum(c) FILTER (NOT two), 0)::BIGINT AS more_games
"""


def _two_player_sums(con: duckdb.DuckDBPyConnection, f: Filters) -> tuple[pl.DataFrame, int]:
    """Per pair of the kept two-player games (pa in seat A, pb in seat B): rounds ``n``,
    ties ``k``, their per-game squares and product, and games; and how many 3-4 player
    games the filters keep (0: :func:`_more_player_sums` has nothing to add).

    The pair is read from the game's own seat columns (schema 11), so ``games`` alone
    answers it (at 1,000,000 games 22-30 ms; matching each game to its two seat rows cost
    120-130 ms even zipped by position).
    """
    where, params = f.games_where("g")
    counted = run(con, f"""WITH counted AS (
            SELECT g.player_a AS pa, g.player_b AS pb, g.rounds_played::BIGINT AS n,
                   g.ties::BIGINT AS k, g.n_players = 2 AS two, count(*) AS c
            FROM games g WHERE {where}
            GROUP BY ALL
        )
        {_TWO_SUMS}
        FROM counted GROUP BY ALL""", params)
    more_games = int(counted["more_games"].sum())
    return counted.filter(pl.col("games") > 0).drop("more_games"), more_games


def _more_player_sums(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per ordered pair of the kept 3-4 player games: player, opponent, n, k, kk, nn, kn,
    games (see :func:`_two_player_sums`)."""
    scope, params = games_cte(f, "g.game_id, g.rounds_played::BIGINT AS rounds_played, "
                                 "g.ties::BIGINT AS ties, g.n_players", name="kept")
    return run(con, f"""WITH {scope},
        fg AS (SELECT game_id, rounds_played, ties FROM kept WHERE n_players > 2),
        more AS (
            SELECT fg.game_id, p.seat, q.seat AS opp_seat, p.player, q.player AS opponent,
                   fg.rounds_played AS rounds
            FROM fg
            JOIN game_players p ON p.game_id = fg.game_id
            JOIN game_players q ON q.game_id = fg.game_id AND q.seat <> p.seat
        ),
        many AS (
            SELECT r.game_id, r.round_no, s.seat,
                   CASE s.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                               WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid,
                   greatest(r.bid_a, r.bid_b, coalesce(r.bid_c, 0),
                            coalesce(r.bid_d, 0)) AS top_bid
            FROM rounds r
            JOIN (SELECT game_id FROM fg WHERE ties > 0) USING (game_id),
                 (VALUES ('A'), ('B'), ('C'), ('D')) AS s(seat)
            WHERE r.tie
        ),
        top AS (SELECT game_id, round_no, seat FROM many WHERE bid = top_bid),
        ties_many AS (
            SELECT t.game_id, t.seat, u.seat AS opp_seat, count(*) AS ties
            FROM top t JOIN top u
              ON u.game_id = t.game_id AND u.round_no = t.round_no AND u.seat <> t.seat
            GROUP BY ALL
        )
        SELECT m.player, m.opponent, sum(m.rounds)::BIGINT AS n,
               sum(coalesce(t.ties, 0))::BIGINT AS k,
               sum(coalesce(t.ties, 0) * coalesce(t.ties, 0))::BIGINT AS kk,
               sum(m.rounds * m.rounds)::BIGINT AS nn,
               sum(coalesce(t.ties, 0) * m.rounds)::BIGINT AS kn, count(*)::BIGINT AS games
        FROM more m LEFT JOIN ties_many t USING (game_id, seat, opp_seat)
        GROUP BY ALL""", params)


def tie_streaks(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How many maximal runs of consecutive tied rounds there were, by length.

    A lone tie is a streak of length 1. Columns: streak_length, streaks.
    """
    return tie_streaks_of(game_shapes(con, f))


def tie_streaks_of(shapes: pl.DataFrame) -> pl.DataFrame:
    """:func:`tie_streaks` from :func:`~gops_records.games.gops.analytics.shapes.game_shapes`."""
    # tie_mask has bit r-1 set when round r tied; games share few masks, so the runs are
    # counted once per distinct mask (all masks at once, as arrays of bits) instead of
    # ordering every tied round of every game.
    ties = part(shapes, "ties")
    masks = ties["tie_mask"].to_numpy().astype(np.int64)
    games = ties["games"].to_numpy().astype(np.int64)
    bits = (masks[:, None] >> np.arange(_MASK_BITS)) & 1          # (shape, bit)
    edges = np.diff(np.pad(bits, ((0, 0), (1, 1))), axis=1)        # +1 a run starts, -1 ends
    starts, ends = np.nonzero(edges == 1), np.nonzero(edges == -1)  # row-major: they pair up
    lengths = ends[1] - starts[1]
    counts = np.zeros(_MASK_BITS + 1, np.int64)
    np.add.at(counts, lengths, games[starts[0]])
    found = np.flatnonzero(counts)
    return pl.DataFrame({"streak_length": found, "streaks": counts[found]},
                        schema={"streak_length": pl.Int32, "streaks": pl.Int64})


#: The bits of games.tie_mask (a SMALLINT).
_MASK_BITS = 16


def final_ties(con: duckdb.DuckDBPyConnection, f: Filters) -> dict:
    """How often a finished game ended on a tie, leaving its last pool unclaimed.

    Keys: games (finished games), games_ending_on_tie, rate, ci (Wilson low, high),
    mean_unclaimed (unclaimed points per finished game, from every cause: discarded
    ties too), mean_pool_left (mean last-round pool in games that ended on a tie; with
    open prizes the value of the row the final tie left on the table). Rate, ci and means
    are None when there are no finished games.

    A game's last round is its ``rounds_played`` (a finished game of bids of k cards has
    floor(N / k) rounds, not N).
    """
    # Under carry, a game of one prize a round that ended on a tie left exactly its last
    # pool unclaimed (every earlier carried pool was won later or is part of it), so only
    # discard games, whose unclaimed points also count earlier ties, and open-prize games,
    # whose unclaimed points also count the pile, need their last round read: the prize
    # cards on offer then (the pool, or the row), summed.
    # One pass over the kept games answers it all when no game needs its last round read
    # (none of the discard or open-prize games ended on a tie); else the rounds are read.
    scope, params = games_cte(f, "g.game_id, g.rounds_played, g.unclaimed, g.finished, "
                                 "g.tie_mask, g.tie_rule, g.open_prizes")
    row = run(con, f"""WITH {scope},
        marked AS (
            SELECT finished, unclaimed,
                   finished AND (tie_mask >> (rounds_played - 1)) & 1 = 1 AS ended_tied,
                   tie_rule = 'discard' OR open_prizes IS NOT NULL AS read_last
            FROM fg
        )
        SELECT count(*) FILTER (finished) AS games,
               count(*) FILTER (ended_tied AND NOT read_last) AS ending_on_tie,
               avg(unclaimed) FILTER (finished) AS mean_unclaimed,
               avg(unclaimed) FILTER (ended_tied AND NOT read_last) AS mean_pool_left,
               count(*) FILTER (ended_tied AND read_last) AS to_read
        FROM marked""", params).row(0, named=True)
    if row["to_read"]:
        row = _final_ties_reading_rounds(con, f)
    games, tied = int(row["games"]), int(row["ending_on_tie"])
    return {
        "games": games,
        "games_ending_on_tie": tied,
        "rate": tied / games if games else None,
        "ci": wilson(tied, games) if games else (None, None),
        "mean_unclaimed": row["mean_unclaimed"],
        "mean_pool_left": row["mean_pool_left"],
    }


def _final_ties_reading_rounds(con: duckdb.DuckDBPyConnection, f: Filters) -> dict:
    """:func:`final_ties`' counts and means (games, ending_on_tie, mean_unclaimed,
    mean_pool_left), the last round of each discard or open-prize game that ended on a
    tie read from the rounds."""
    scope, params = games_cte(f, "g.game_id, g.rounds_played, g.unclaimed, g.finished, "
                                 "g.tie_mask, g.tie_rule, g.open_prizes")
    return run(con, f"""WITH {scope},
        ended_tied AS (
            SELECT game_id, rounds_played, tie_rule, unclaimed, open_prizes FROM fg
            WHERE finished AND (tie_mask >> (rounds_played - 1)) & 1 = 1
        ),
        read_last AS (
            SELECT game_id, rounds_played FROM ended_tied
            WHERE tie_rule = 'discard' OR open_prizes IS NOT NULL
        ),
        last_tied AS (
            SELECT unclaimed AS pool_value FROM ended_tied
            WHERE tie_rule = 'carry' AND open_prizes IS NULL
            UNION ALL
            SELECT list_sum(r.pool_cards)
            FROM rounds r
            JOIN read_last e ON e.game_id = r.game_id AND r.round_no = e.rounds_played
            WHERE r.tie AND r.round_no >= (SELECT min(rounds_played) FROM read_last)
        )
        SELECT (SELECT count(*) FROM fg WHERE finished) AS games,
               (SELECT count(*) FROM last_tied) AS ending_on_tie,
               (SELECT avg(unclaimed) FROM fg WHERE finished) AS mean_unclaimed,
               (SELECT avg(pool_value) FROM last_tied) AS mean_pool_left
        """, params).row(0, named=True)
