"""Session results: what is in the database, standings, match results and head-to-head tables.

Results count finished games only (an unfinished game has no outcome). Players are
identified by the name written in the record.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import duckdb
import polars as pl

from gops_records.core.dates import known_date
from gops_records.core.stats import wilson_exprs
from gops_records.core.store.db import run, scalar
from gops_records.games.gops.analytics.filters import ALL_GAMES, Filters, games_cte, in_scope


def list_events(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every event name in the database, sorted."""
    rows = con.execute("SELECT DISTINCT event FROM games WHERE event IS NOT NULL "
                       "ORDER BY event").fetchall()
    return [r[0] for r in rows]


def list_matches(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every match name (the Match tag) in the database, sorted."""
    rows = con.execute("SELECT DISTINCT match FROM games WHERE match IS NOT NULL "
                       "ORDER BY match").fetchall()
    return [r[0] for r in rows]


def list_players(con: duckdb.DuckDBPyConnection, f: Filters = ALL_GAMES) -> list[str]:
    """Players who played in the games the filters keep, sorted."""
    if f.is_empty:
        rows = con.execute("SELECT DISTINCT player FROM game_players ORDER BY player"
                           ).fetchall()
    else:
        scope, params = games_cte(f, KEPT_PLAYERS)
        rows = con.execute(f"WITH {scope} {_DISTINCT_PLAYERS} ORDER BY p", params).fetchall()
    return [r[0] for r in rows]


#: The seat columns of the kept games (schema 11: ``games.player_a`` .. ``player_d``), and
#: their distinct players over a ``fg`` of them: the kept games' players without matching
#: a million seat rows to them (at 1,000,000 games, 17-26 ms against 23-56).
KEPT_PLAYERS = "g.player_a, g.player_b, g.player_c, g.player_d, g.n_players"
_DISTINCT_PLAYERS = """SELECT player_a AS p FROM fg UNION SELECT player_b FROM fg
    UNION SELECT player_c FROM fg WHERE n_players > 2
    UNION SELECT player_d FROM fg WHERE n_players > 3"""


def date_range(con: duckdb.DuckDBPyConnection) -> tuple[dt.date | None, dt.date | None]:
    """The first and last known game dates (None, None for no dated games); a date Python
    cannot hold is not known (:mod:`gops_records.core.dates`)."""
    known = known_date("date")
    rows = con.execute(f"SELECT min({known}), max({known}) FROM games").fetchall()
    return rows[0][0], rows[0][1]


def evenings(con: duckdb.DuckDBPyConnection, f: Filters, limit: int | None = None
             ) -> pl.DataFrame:
    """The evenings of the games the filters keep, newest first: one row per date and event.

    An evening is what a club plays on one date under one Event tag (as matches are told
    apart in :func:`match_results`). Undated games belong to no evening;
    :func:`evening_filters` narrows a filter to one row. ``limit`` keeps the newest.
    Order: date, then the evening whose games were imported last, then event.
    Columns: date, event (null: no Event tag), games, finished.
    """
    scope, params = games_cte(f, "g.date, g.event, g.finished, g.import_id", con=con)
    keep = "LIMIT ?" if limit is not None else ""
    extra = [max(int(limit), 0)] if limit is not None else []
    return run(con, f"""WITH {scope}
        SELECT date, event, count(*) AS games, count(*) FILTER (finished) AS finished
        FROM fg WHERE date IS NOT NULL GROUP BY date, event
        ORDER BY date DESC, max(import_id) DESC, event NULLS LAST {keep}""",
               [*params, *extra])


def evening_filters(f: Filters, date: dt.date, event: str | None) -> Filters:
    """``f`` narrowed to one evening of :func:`evenings`: that date, and that event when it
    has one (an evening without an Event tag is the whole date)."""
    return replace(f, date_from=date, date_to=date,
                   events=(event,) if event is not None else f.events)


def overview(con: duckdb.DuckDBPyConnection, f: Filters) -> dict:
    """Counts for a summary line: games, finished, players, rounds (of the filtered games),
    events, first_date, last_date; imports and rejects are database-wide (not filtered)."""
    scope, params = games_cte(f, "g.finished, g.rounds_played, g.event, g.date, "
                                 + KEPT_PLAYERS, con=con)
    row = run(con, f"""WITH {scope}
        SELECT count(*) AS games, count(*) FILTER (finished) AS finished,
               (SELECT count(*) FROM ({_DISTINCT_PLAYERS})) AS players,
               coalesce(sum(rounds_played), 0)::BIGINT AS rounds,
               count(DISTINCT event) AS events, min(date) AS first_date, max(date) AS last_date
        FROM fg""", params).row(0, named=True)
    row["imports"] = scalar(con, "SELECT count(*) FROM imports")
    row["rejects"] = scalar(con, "SELECT count(*) FROM rejects")
    return row


def standings(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """One row per player over the finished games the filters keep, best first.

    points_against is the best opponent's score in each game (the score to beat), so
    point_diff is positive exactly for wins and zero for draws, with 2 players or more.
    Order: wins + draws/2, then point_diff, then points_for. Columns: player, games, wins,
    draws, losses, points_for, points_against, point_diff, win_rate, ci_low, ci_high.
    """
    # outcome is NULL exactly for unfinished games, so no join is needed without filters.
    scope, params = games_cte(f, "g.game_id")
    out = run(con, f"""WITH {scope},
        scored AS (
            SELECT p.player, p.score, p.outcome,
                   max(p.score) OVER (PARTITION BY p.game_id ORDER BY p.seat
                                      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
                                      EXCLUDE CURRENT ROW) AS against
            FROM game_players p {in_scope(f)}
            WHERE p.outcome IS NOT NULL
        )
        SELECT player, count(*) AS games,
               count(*) FILTER (outcome = 'win') AS wins,
               count(*) FILTER (outcome = 'draw') AS draws,
               count(*) FILTER (outcome = 'loss') AS losses,
               sum(score)::BIGINT AS points_for, sum(against)::BIGINT AS points_against,
               (sum(score) - sum(against))::BIGINT AS point_diff
        FROM scored GROUP BY player
        ORDER BY wins + draws / 2 DESC, point_diff DESC, points_for DESC, player""", params)
    rate, low, high = wilson_exprs(pl.col("wins"), pl.col("games"))
    return out.with_columns(rate.alias("win_rate"), low.alias("ci_low"), high.alias("ci_high"))


def match_results(con: duckdb.DuckDBPyConnection, f: Filters,
                  limit: int | None = None) -> pl.DataFrame:
    """Each match scored two ways: cumulative points and best-of-N.

    A match is the finished games sharing an event, a date and a Match tag: clubs number
    their matches afresh every evening, so "match 1" of two evenings are two matches
    (games with no event or no date group with the others lacking the same).
    total_points adds the player's points over the match's games; cumulative_rank ranks
    them (1 = most; equal totals share a rank). game_wins counts games won; best_of_winner
    is the player with the most game wins, cumulative_winner the one with the highest
    total (None when shared). match_games is the match's finished games. ``limit`` keeps
    only the newest matches (a database of simulated play can hold hundreds of thousands).
    Newest date first (undated last), then event, then match name (numbered matches in
    number order: 2 before 10).
    Columns: event, date, match, player, games, total_points, game_wins, cumulative_rank,
    best_of_winner, cumulative_winner, match_games.
    """
    scope, params = games_cte(f, "g.game_id, g.event, g.date, g.match, g.finished", con=con)
    keep = ""
    extra: list = []
    if limit is not None:
        keep = "QUALIFY mid <= ?"
        extra = [max(int(limit), 0)]
    # NULL events or dates must still match each other: the games are tied to their
    # match by a number (mid), not by joining on the three keys.
    return run(con, f"""WITH {scope},
        sizes AS (
            SELECT event, date, match, count(*) AS match_games,
                   row_number() OVER (ORDER BY date DESC NULLS LAST, event NULLS LAST,
                                      try_cast(match AS BIGINT) NULLS LAST, match) AS mid
            FROM fg WHERE finished AND match IS NOT NULL
            GROUP BY event, date, match {keep}
        ),
        -- Materialized: inlined, the join to game_players was planned over every game.
        mg AS MATERIALIZED (
            SELECT fg.game_id, s.mid FROM fg JOIN sizes s
                ON fg.match = s.match AND fg.event IS NOT DISTINCT FROM s.event
                   AND fg.date IS NOT DISTINCT FROM s.date
            WHERE fg.finished
        ),
        per_player AS (
            SELECT mg.mid, p.player, count(*) AS games, sum(p.score)::BIGINT AS total_points,
                   count(*) FILTER (p.outcome = 'win') AS game_wins
            FROM game_players p JOIN mg USING (game_id)
            GROUP BY mg.mid, p.player
        ),
        ranked AS (
            SELECT *,
                   rank() OVER (PARTITION BY mid ORDER BY total_points DESC) AS cumulative_rank,
                   rank() OVER (PARTITION BY mid ORDER BY game_wins DESC) AS wins_rank,
                   count(*) FILTER (total_points = max_points) OVER (PARTITION BY mid)
                       AS n_top_points,
                   count(*) FILTER (game_wins = max_wins) OVER (PARTITION BY mid) AS n_top_wins
            FROM (SELECT *, max(total_points) OVER (PARTITION BY mid) AS max_points,
                         max(game_wins) OVER (PARTITION BY mid) AS max_wins
                  FROM per_player)
        ),
        winners AS (
            SELECT mid,
                   any_value(player) FILTER (game_wins = max_wins AND n_top_wins = 1)
                       AS best_of_winner,
                   any_value(player) FILTER (total_points = max_points AND n_top_points = 1)
                       AS cumulative_winner
            FROM ranked GROUP BY mid
        )
        SELECT s.event, s.date, s.match, r.player, r.games, r.total_points, r.game_wins,
               r.cumulative_rank, w.best_of_winner, w.cumulative_winner, s.match_games
        FROM ranked r JOIN winners w USING (mid) JOIN sizes s USING (mid)
        ORDER BY s.mid, r.cumulative_rank, r.wins_rank, r.player""", [*params, *extra])


def head_to_head(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Every ordered pair of players who met in a finished game: who scored more.

    With 3-4 players each pair in a game is compared by their two scores. Each pair
    appears from both sides. Columns: player, opponent, games, wins, draws, losses,
    points_for, points_against; most games first.
    """
    scope, params = games_cte(f, "g.game_id")
    return run(con, f"""WITH {scope},
        p AS (SELECT * FROM game_players p {in_scope(f)} WHERE p.outcome IS NOT NULL)
        SELECT p.player, o.player AS opponent, count(*) AS games,
               count(*) FILTER (p.score > o.score) AS wins,
               count(*) FILTER (p.score = o.score) AS draws,
               count(*) FILTER (p.score < o.score) AS losses,
               sum(p.score)::BIGINT AS points_for, sum(o.score)::BIGINT AS points_against
        FROM p JOIN p AS o ON o.game_id = p.game_id AND o.seat <> p.seat
        GROUP BY p.player, o.player
        ORDER BY games DESC, player, opponent""", params)
