"""Tie frequencies: overall and by tie rule, by round number, per player pair, streaks, last rounds.

A round is tied when the highest bid is shared (the ``rounds.tie`` column), with two
players or more. Every rate comes with its count and a 95% Wilson interval.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.analytics.filters import Filters, games_cte, in_scope, run
from gops_records.analytics.stats import wilson, with_wilson


def tie_summary(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tied rounds per tie rule, then an ``all`` row. Columns: tie_rule, rounds, ties, rate,
    ci_low, ci_high."""
    # Rounds are counted from games.rounds_played; only the (few) tied rounds are read.
    scope, params = games_cte(f, "g.game_id, g.tie_rule, g.rounds_played")
    out = run(con, f"""WITH {scope},
        played AS (SELECT tie_rule, sum(rounds_played)::BIGINT AS rounds FROM fg GROUP BY 1),
        tied AS (
            SELECT fg.tie_rule, count(*) AS ties
            FROM rounds r JOIN fg USING (game_id) WHERE r.tie GROUP BY 1
        ),
        per_rule AS (
            SELECT p.tie_rule, p.rounds, coalesce(t.ties, 0) AS ties
            FROM played p LEFT JOIN tied t USING (tie_rule)
        )
        SELECT tie_rule, rounds, ties FROM per_rule
        UNION ALL
        SELECT 'all', coalesce(sum(rounds), 0)::BIGINT, coalesce(sum(ties), 0)::BIGINT
        FROM per_rule
        ORDER BY tie_rule = 'all', tie_rule""", params)
    return with_wilson(out, "ties", "rounds")


def ties_by_round(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Tie rate by round number. Columns: round_no, rounds, ties, rate, ci_low, ci_high."""
    scope, params = games_cte(f, "g.game_id, g.rounds_played")
    out = run(con, f"""WITH {scope},
        lengths AS (SELECT rounds_played, count(*) AS games FROM fg GROUP BY 1),
        played AS (
            SELECT n.round_no, sum(l.games)::BIGINT AS rounds
            FROM range(1, 14) AS n(round_no) JOIN lengths l ON l.rounds_played >= n.round_no
            GROUP BY n.round_no
        ),
        tied AS (
            SELECT r.round_no, count(*) AS ties
            FROM rounds r {in_scope(f)} WHERE r.tie GROUP BY r.round_no
        )
        SELECT p.round_no::INTEGER AS round_no, p.rounds, coalesce(t.ties, 0) AS ties
        FROM played p LEFT JOIN tied t USING (round_no)
        ORDER BY p.round_no""", params)
    return with_wilson(out, "ties", "rounds")


def ties_by_pair(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How often two players tied each other, over the rounds they played together.

    A tie between two players is a tied round in which both bid the shared highest card
    (with 3-4 players, a tie between two others does not count for them). Each pair
    appears twice, once from each side. Columns: player, opponent, rounds, ties, rate,
    ci_low, ci_high; most rounds first.
    """
    # Each game's roster (one row per game, players by seat, as small numbers: grouping
    # a million games by four names costs more than looking the names up) and its tie
    # count (from the tied rounds only) are joined to the kept games once; games are then
    # summed per roster (the same players in the same seats), which leaves few rows to
    # expand into pairs. With two players every tie is theirs; only the tied rounds of 3-4
    # player games need the bids, to see who shared the top bid.
    scope, params = games_cte(f, "g.game_id, g.rounds_played, g.n_players")
    out = run(con, f"""WITH {scope},
        names AS (
            SELECT player, (row_number() OVER ())::INTEGER AS pid
            FROM (SELECT DISTINCT player FROM game_players)
        ),
        roster AS (
            SELECT game_id,
                   any_value(pid) FILTER (seat = 'A') AS a,
                   any_value(pid) FILTER (seat = 'B') AS b,
                   any_value(pid) FILTER (seat = 'C') AS c,
                   any_value(pid) FILTER (seat = 'D') AS d
            FROM game_players JOIN names USING (player) {in_scope(f)} GROUP BY game_id
        ),
        tied AS (
            SELECT game_id, count(*) AS ties FROM rounds {in_scope(f)} WHERE tie GROUP BY game_id
        ),
        per_game AS (
            SELECT a, b, c, d, fg.rounds_played AS rounds, fg.n_players,
                   coalesce(tied.ties, 0)::BIGINT AS ties
            FROM fg JOIN roster USING (game_id) LEFT JOIN tied USING (game_id)
        ),
        per_pids AS (
            SELECT a, b, c, d, n_players, sum(rounds)::BIGINT AS rounds,
                   sum(ties)::BIGINT AS ties
            FROM per_game GROUP BY ALL
        ),
        per_roster AS (
            SELECT list_value(na.player, nb.player, nc.player, nd.player) AS seats,
                   n_players, rounds, ties
            FROM per_pids
            LEFT JOIN names na ON na.pid = a LEFT JOIN names nb ON nb.pid = b
            LEFT JOIN names nc ON nc.pid = c LEFT JOIN names nd ON nd.pid = d
        ),
        together AS (
            SELECT seats[i] AS player, seats[j] AS opponent, sum(rounds)::BIGINT AS rounds,
                   coalesce(sum(ties) FILTER (n_players = 2), 0)::BIGINT AS ties_two
            FROM per_roster, range(1, 5) AS s(i), range(1, 5) AS t(j)
            WHERE i <> j AND i <= n_players AND j <= n_players
            GROUP BY ALL
        ),
        many AS (
            SELECT r.game_id, r.round_no
            FROM rounds r JOIN fg USING (game_id) WHERE fg.n_players > 2 AND r.tie
        ),
        top AS (
            SELECT b.game_id, b.round_no, b.seat, b.player
            FROM bids b SEMI JOIN many USING (game_id, round_no)
            QUALIFY b.bid = max(b.bid) OVER (PARTITION BY b.game_id, b.round_no)
        ),
        ties_many AS (
            SELECT t.player, u.player AS opponent, count(*) AS ties
            FROM top t JOIN top u
              ON u.game_id = t.game_id AND u.round_no = t.round_no AND u.seat <> t.seat
            GROUP BY ALL
        )
        SELECT player, opponent, rounds, (ties_two + coalesce(m.ties, 0))::BIGINT AS ties
        FROM together LEFT JOIN ties_many m USING (player, opponent)
        ORDER BY rounds DESC, player, opponent""", params)
    return with_wilson(out, "ties", "rounds")


def tie_streaks(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How many maximal runs of consecutive tied rounds there were, by length.

    A lone tie is a streak of length 1. Columns: streak_length, streaks.
    """
    # Each game's tied rounds become one bit mask (round r is bit r-1; rounds are at most
    # MAX_RANK = 13); games share few masks, so the runs are counted once per distinct mask
    # instead of ordering every tied round of every game.
    scope, params = games_cte(f, "g.game_id")
    masks = con.execute(f"""WITH {scope}
        SELECT m, count(*) AS games
        FROM (SELECT r.game_id, bit_or(1::BIGINT << (r.round_no - 1)) AS m
              FROM rounds r {in_scope(f)} WHERE r.tie GROUP BY r.game_id)
        GROUP BY m""", params).fetchall()
    counts: dict[int, int] = {}
    for mask, games in masks:
        for length in _runs(mask):
            counts[length] = counts.get(length, 0) + games
    lengths = sorted(counts)
    return pl.DataFrame({"streak_length": lengths, "streaks": [counts[n] for n in lengths]},
                        schema={"streak_length": pl.Int32, "streaks": pl.Int64})


def _runs(mask: int) -> list[int]:
    """Lengths of the runs of consecutive set bits in ``mask`` (0b1101 -> [1, 2])."""
    out: list[int] = []
    while mask:
        mask >>= (mask & -mask).bit_length() - 1  # drop trailing zeros
        length = (~mask & (mask + 1)).bit_length() - 1  # trailing ones
        out.append(length)
        mask >>= length
    return out


def final_ties(con: duckdb.DuckDBPyConnection, f: Filters) -> dict:
    """How often a finished game ended on a tie, leaving its last pool unclaimed.

    Keys: games (finished games), games_ending_on_tie, rate, ci (Wilson low, high),
    mean_unclaimed (unclaimed points per finished game, from every cause: discarded
    ties too), mean_pool_left (mean last-round pool in games that ended on a tie).
    Rate, ci and means are None when there are no finished games.
    """
    scope, params = games_cte(f, "g.game_id, g.cards, g.unclaimed, g.finished")
    row = run(con, f"""WITH {scope},
        last_tied AS (
            SELECT r.pool_value
            FROM rounds r JOIN fg ON fg.game_id = r.game_id AND r.round_no = fg.cards
            WHERE r.tie AND fg.finished
        )
        SELECT (SELECT count(*) FROM fg WHERE finished) AS games,
               (SELECT count(*) FROM last_tied) AS ending_on_tie,
               (SELECT avg(unclaimed) FROM fg WHERE finished) AS mean_unclaimed,
               (SELECT avg(pool_value) FROM last_tied) AS mean_pool_left
        """, params).row(0, named=True)
    games, tied = int(row["games"]), int(row["ending_on_tie"])
    return {
        "games": games,
        "games_ending_on_tie": tied,
        "rate": tied / games if games else None,
        "ci": wilson(tied, games) if games else (None, None),
        "mean_unclaimed": row["mean_unclaimed"],
        "mean_pool_left": row["mean_pool_left"],
    }
