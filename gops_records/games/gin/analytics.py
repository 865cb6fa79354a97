"""Gin Rummy analytics over the ``gin_`` tables: standings and the issue's questions.

Every function takes a DuckDB connection and a :class:`GinFilters` (events, matches,
players, dates: a hand or game is kept when it matches every filter given; a player filter
keeps what either seat played) and aggregates in DuckDB, returning a small polars frame or
a dict the dashboard's Gin pages chart as they are. Every rate comes with the count it is
out of (and a 95% Wilson interval: :func:`gops_records.core.stats.with_wilson`).

Standings (:func:`standings`, :func:`match_results`, :func:`game_results`,
:func:`head_to_head`, :func:`game_summary`, :func:`hands_per_game`) read ``gin_games``
(scored games, from full hands or score sheets); the hand questions read ``gin_hands``, the
``gin_player_hands`` view and, for what only full records hold (turns, pile draws, the
first upcard), ``gin_turns``:

1. how hands end: :func:`endings_by_limit`, :func:`endings_by_player`;
2. undercuts: :func:`undercuts_by_limit`, :func:`undercuts_by_deadwood`;
3. deadwood at the knock, who knocks early and who waits for gin: :func:`knockers`,
   :func:`knock_deadwood`;
4. who goes out fastest: :func:`turns_to_out`;
5. the dealer and the first upcard: :func:`seat_effects`;
6. deadwood caught: :func:`deadwood_caught`, :func:`caught_by_player`;
7. pile draws and how those hands end: :func:`pile_draw_endings`, :func:`pile_takers`;
8. blitzes, game scores, hands per game, match head-to-head: :func:`game_summary`,
   :func:`hands_per_game`, :func:`game_scores`, :func:`head_to_head`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import duckdb
import polars as pl

from gops_records.core.dates import known_date, known_rows
from gops_records.core.games_query import GameFilter
from gops_records.core.stats import wilson, with_wilson
from gops_records.core.store.db import run
from gops_records.games.gin.games import gin_where

Con = duckdb.DuckDBPyConnection

#: How a hand ended, in the order charts list it.
OUTCOMES = ("knock", "undercut", "gin", "big_gin", "draw")
OUTCOME_LABELS = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin",
                  "draw": "drawn (wall)"}
#: How a hand ended for one of its players (:func:`endings_by_player`), in chart order.
ENDINGS = ("knocked and won", "gin", "big gin", "undercut the knocker", "knocked, undercut",
           "opponent knocked", "opponent's gin", "opponent's big gin", "drawn")
#: The label of the ace upcard's knock limit (no knock: gin or big gin only).
ACE = "ace: gin only"


@dataclass(frozen=True)
class GinFilters:
    """Which Gin Rummy hands and games to look at; hashable (a dashboard cache key)."""

    events: tuple[str, ...] = ()
    matches: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    date_from: dt.date | None = None
    date_to: dt.date | None = None

    def __post_init__(self) -> None:
        for name in ("events", "matches", "players"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def is_empty(self) -> bool:
        return self == GinFilters()

    def where(self, alias: str) -> tuple[str, list]:
        """A SQL condition on a ``gin_hands`` or ``gin_games`` row ``alias``."""
        sql, params = gin_where(GameFilter(self.players, self.events, self.date_from,
                                           self.date_to), alias)
        if self.matches:
            sql += f" AND list_contains(?::VARCHAR[], {alias}.match)"
            params.append(list(self.matches))
        return sql, params

    def describe(self) -> str:
        parts = []
        for label, values in (("events", self.events), ("matches", self.matches),
                              ("players", self.players)):
            if values:
                parts.append(f"{label} {', '.join(values)}")
        if self.date_from or self.date_to:
            parts.append(f"dates {self.date_from or '…'} to {self.date_to or '…'}")
        return "; ".join(parts) or "every Gin Rummy hand"


ALL = GinFilters()


def _scope(f: GinFilters) -> tuple[str, list]:
    """``WITH`` clauses of the kept hands (``fh``), games (``fg``) and player-hands
    (``fp``), their dates as :func:`~gops_records.core.dates.known_date` reads them;
    the parameters, in order."""
    hands, p1 = f.where("h")
    games, p2 = f.where("g")
    return (f"fh AS (SELECT h.* FROM {known_rows('gin_hands', hands, 'h')}), "
            f"fg AS (SELECT g.* FROM {known_rows('gin_games', games, 'g')}), "
            f"fp AS (SELECT p.* FROM {known_rows('gin_player_hands', alias='p')} "
            "SEMI JOIN fh USING (hand_id))",
            p1 + p2)


def _query(con: Con, f: GinFilters, select: str, ctes: str = "",
           params: list | None = None) -> pl.DataFrame:
    """``select`` over the kept rows (``fh``, ``fg``, ``fp``) and the ``ctes`` after them;
    ``params`` follow the filters' parameters."""
    scope, scoped = _scope(f)
    return run(con, f"WITH {scope}{', ' + ctes if ctes else ''} {select}",
               scoped + (params or []))


# -- what the filters offer ------------------------------------------------------------------


def list_events(con: Con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT DISTINCT event FROM gin_hands WHERE event IS NOT NULL ORDER BY 1").fetchall()]


def list_matches(con: Con) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT DISTINCT match FROM gin_hands WHERE match IS NOT NULL ORDER BY 1").fetchall()]


def list_players(con: Con, f: GinFilters = ALL) -> list[str]:
    """Players of the hands the filters keep."""
    df = _query(con, f, "SELECT DISTINCT player FROM fp WHERE player IS NOT NULL "
                        "ORDER BY player")
    return df["player"].to_list()


def date_range(con: Con) -> tuple[dt.date | None, dt.date | None]:
    """The first and last known hand dates (a date Python cannot hold is not known)."""
    known = known_date("date")
    ((first, last),) = con.execute(f"SELECT min({known}), max({known}) FROM gin_hands"
                                   ).fetchall()  # fetchone would leave the result open
    return first, last


def evenings(con: Con, f: GinFilters = ALL, limit: int | None = None) -> pl.DataFrame:
    """The evenings of the hands the filters keep, newest first: one row per date and event,
    as :func:`gops_records.games.gops.analytics.evenings` reads the Gops games (undated hands belong
    to no evening; :func:`gops_records.games.gops.analytics.evening_filters` narrows filters to
    one).
    Order: date, then the evening imported last, then event. Columns: date, event, hands,
    games (those with a game: a hand without a Match tag has none)."""
    keep = f"LIMIT {max(int(limit), 0)}" if limit is not None else ""
    return _query(con, f, f"""
        SELECT date, event, count(*) AS hands, count(DISTINCT game_id) AS games
        FROM fh WHERE date IS NOT NULL GROUP BY date, event
        ORDER BY date DESC, max(import_id) DESC, event NULLS LAST {keep}""")


def overview(con: Con, f: GinFilters = ALL) -> dict:
    """Counts of what the filters keep: hands (full, from sheets), games, matches, players."""
    df = _query(con, f, """
        SELECT (SELECT count(*) FROM fh) AS hands,
               (SELECT count(*) FROM fh WHERE recorded = 'full') AS full_hands,
               (SELECT count(*) FROM fh WHERE recorded = 'sheet') AS sheet_hands,
               (SELECT count(*) FROM fg) AS games,
               (SELECT count(*) FROM fg WHERE finished) AS finished_games,
               (SELECT count(DISTINCT (event, date, match)) FROM fg) AS matches,
               (SELECT count(DISTINCT player) FROM fp) AS players,
               (SELECT min(date) FROM fh) AS first, (SELECT max(date) FROM fh) AS last""")
    return df.row(0, named=True)


# -- standings --------------------------------------------------------------------------------

#: Finished games from each seat (``gs``) and matches from each side (``mr``): a match is
#: its event, date and Match tag; it is won by the first to two games.
_GAME_SEATS = """gs AS (
        SELECT g.*, s.seat,
               CASE s.seat WHEN 'A' THEN g.player_a ELSE g.player_b END AS player,
               CASE s.seat WHEN 'A' THEN g.player_b ELSE g.player_a END AS opponent,
               g.winner_seat = s.seat AS won
        FROM fg g CROSS JOIN (VALUES ('A'), ('B')) AS s(seat) WHERE g.finished),
    mr AS (
        SELECT event, date, match, player, opponent, count(*) AS games,
               count(*) FILTER (won) AS games_won, count(*) FILTER (NOT won) AS games_lost,
               sum(CASE WHEN won THEN game_score ELSE 0 END) AS points_for,
               sum(CASE WHEN won THEN 0 ELSE game_score END) AS points_against,
               count(*) FILTER (won) >= 2 AS match_won,
               count(*) FILTER (NOT won) >= 2 AS match_lost
        FROM gs GROUP BY event, date, match, player, opponent)"""


def standings(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """One row a player: matches won, lost (the others undecided), finished games won of
    played, game points, blitzes won, hands won of the finished hands played, hand
    points; best first."""
    return _query(con, f, """
        SELECT player, coalesce(matches, 0) AS matches,
               coalesce(matches_won, 0) AS matches_won,
               coalesce(matches_lost, 0) AS matches_lost,
               coalesce(games, 0) AS games, coalesce(games_won, 0) AS games_won,
               coalesce(game_points, 0)::BIGINT AS game_points,
               coalesce(blitzes, 0) AS blitzes, coalesce(hands, 0) AS hands,
               coalesce(hands_won, 0) AS hands_won,
               coalesce(hand_points, 0)::BIGINT AS hand_points
        FROM per_hand FULL JOIN per_game USING (player) FULL JOIN per_match USING (player)
        WHERE player IS NOT NULL
        ORDER BY matches_won DESC, games_won DESC, game_points DESC, player""",
        _GAME_SEATS + """,
    per_game AS (SELECT player, count(*) AS games, count(*) FILTER (won) AS games_won,
                        sum(CASE WHEN won THEN game_score ELSE 0 END) AS game_points,
                        count(*) FILTER (won AND blitz) AS blitzes
                 FROM gs GROUP BY player),
    per_match AS (SELECT player, count(*) AS matches,
                         count(*) FILTER (match_won) AS matches_won,
                         count(*) FILTER (match_lost) AS matches_lost
                  FROM mr GROUP BY player),
    per_hand AS (SELECT player, count(*) AS hands, count(*) FILTER (won) AS hands_won,
                        sum(points) AS hand_points
                 FROM fp WHERE finished GROUP BY player)""")


def match_results(con: Con, f: GinFilters = ALL, limit: int | None = None) -> pl.DataFrame:
    """One row a match (newest first): its players, finished games, games won each, game
    points each, and the winner (the first to two games; None while undecided)."""
    return _query(con, f, f"""
        SELECT *, CASE WHEN games_a >= 2 THEN player_a WHEN games_b >= 2 THEN player_b
                  END AS winner
        FROM (SELECT date, event, match, any_value(player_a) AS player_a,
                     any_value(player_b) AS player_b, count(*) AS games,
                     count(*) FILTER (winner_seat = 'A') AS games_a,
                     count(*) FILTER (winner_seat = 'B') AS games_b,
                     sum(CASE winner_seat WHEN 'A' THEN game_score ELSE 0 END)::BIGINT
                         AS points_a,
                     sum(CASE winner_seat WHEN 'B' THEN game_score ELSE 0 END)::BIGINT
                         AS points_b
              FROM fg WHERE finished GROUP BY date, event, match)
        ORDER BY date DESC NULLS LAST, event, match
        {f'LIMIT {int(limit)}' if limit else ''}""")


def game_results(con: Con, f: GinFilters = ALL, limit: int | None = None) -> pl.DataFrame:
    """One row a game (newest first): players, hands, hands won, totals, winner, game
    score, blitz, reversed, and whether it was scored from full hands or a sheet."""
    return _query(con, f, f"""
        SELECT date, event, match, game_no, player_a, player_b, hands,
               hands_won_a || '-' || hands_won_b AS hands_won, draws,
               total_a || '-' || total_b AS totals, finished, winner, game_score, blitz,
               reversed, recorded
        FROM fg ORDER BY date DESC NULLS LAST, event, match, game_no
        {f'LIMIT {int(limit)}' if limit else ''}""")


def head_to_head(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each pair of players, from both sides: matches, won, lost (the others undecided),
    games won and lost, game points for and against."""
    return _query(con, f, """
        SELECT player, opponent, count(*) AS matches,
               count(*) FILTER (match_won) AS matches_won,
               count(*) FILTER (match_lost) AS matches_lost,
               sum(games_won)::BIGINT AS games_won, sum(games_lost)::BIGINT AS games_lost,
               sum(points_for)::BIGINT AS points_for,
               sum(points_against)::BIGINT AS points_against
        FROM mr GROUP BY player, opponent ORDER BY matches DESC, player, opponent""",
        _GAME_SEATS)


def game_summary(con: Con, f: GinFilters = ALL) -> dict:
    """Finished games: how many, blitzes (with rate and 95% interval), reversed scores, the
    mean and median game score and hands per game."""
    row = _query(con, f, """
        SELECT count(*) AS games, count(*) FILTER (blitz) AS blitzes,
               count(*) FILTER (reversed) AS reversed, avg(game_score) AS mean_score,
               median(game_score) AS median_score, avg(hands) AS mean_hands,
               median(hands) AS median_hands
        FROM fg WHERE finished""").row(0, named=True)
    row["blitz_rate"] = row["blitzes"] / row["games"] if row["games"] else None
    row["blitz_ci"] = wilson(row["blitzes"], row["games"])
    return row


def hands_per_game(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Finished games by how many hands they took (drawn hands included)."""
    return _query(con, f, "SELECT hands, count(*) AS games FROM fg WHERE finished "
                          "GROUP BY hands ORDER BY hands")


def game_scores(con: Con, f: GinFilters = ALL, width: int = 50) -> pl.DataFrame:
    """Finished games by game score, in bins of ``width`` points, blitz or not."""
    return _query(con, f, f"""
        SELECT (game_score // {int(width)}) * {int(width)} AS score_from,
               CASE WHEN blitz THEN 'blitz' ELSE 'no blitz' END AS blitz,
               count(*) AS games
        FROM fg WHERE finished GROUP BY ALL ORDER BY score_from, blitz""")


# -- 1. how hands end -------------------------------------------------------------------------

_LIMIT = f"""coalesce(knock_limit::VARCHAR, '{ACE}') AS knock_limit,
             coalesce(knock_limit, 0) AS limit_order"""


def endings_by_limit(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Finished hands by knock limit (the upcard's points; ``ace: gin only``) and outcome:
    hands and their share of the limit's hands."""
    df = _query(con, f, f"""
        SELECT {_LIMIT}, outcome, count(*) AS hands
        FROM fh WHERE finished GROUP BY ALL ORDER BY limit_order, outcome""")
    return _shares(df, "knock_limit")


def _shares(df: pl.DataFrame, by: str) -> pl.DataFrame:
    return df.with_columns(
        total=pl.col("hands").sum().over(by)).with_columns(
        share=pl.col("hands") / pl.col("total"))


_ENDING = """CASE
        WHEN outcome = 'draw' THEN 'drawn'
        WHEN went_out AND outcome = 'knock' THEN 'knocked and won'
        WHEN went_out AND outcome = 'undercut' THEN 'knocked, undercut'
        WHEN went_out AND outcome = 'gin' THEN 'gin'
        WHEN went_out AND outcome = 'big_gin' THEN 'big gin'
        WHEN outcome = 'undercut' THEN 'undercut the knocker'
        WHEN outcome = 'knock' THEN 'opponent knocked'
        WHEN outcome = 'gin' THEN 'opponent''s gin'
        ELSE 'opponent''s big gin' END"""


def endings_by_player(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player's finished hands by how they ended for that player (:data:`ENDINGS`):
    hands and share of the player's hands; the player filter keeps its players only."""
    players = " AND list_contains(?::VARCHAR[], player)" if f.players else ""
    scope, params = _scope(f)
    df = run(con, f"""WITH {scope}
        SELECT player, {_ENDING} AS ending, count(*) AS hands
        FROM fp WHERE finished {players} GROUP BY ALL ORDER BY player, ending""",
             params + ([list(f.players)] if f.players else []))
    return _shares(df, "player")


# -- 2. undercuts ------------------------------------------------------------------------------


def undercuts_by_limit(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Knocks by knock limit: how many, how many were undercut, the rate with its 95%
    interval."""
    return with_wilson(_query(con, f, f"""
        SELECT {_LIMIT}, count(*) AS knocks, count(*) FILTER (outcome = 'undercut') AS undercuts
        FROM fh WHERE outcome IN ('knock', 'undercut') GROUP BY ALL ORDER BY limit_order"""),
        "undercuts", "knocks")


def undercuts_by_deadwood(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Knocks by the knocker's deadwood (1-10): how many, how many were undercut, the rate
    with its 95% interval."""
    return with_wilson(_query(con, f, """
        SELECT out_deadwood AS deadwood, count(*) AS knocks,
               count(*) FILTER (outcome = 'undercut') AS undercuts
        FROM fh WHERE outcome IN ('knock', 'undercut') GROUP BY ALL ORDER BY deadwood"""),
        "undercuts", "knocks")


# -- 3. who knocks early, who waits for gin ----------------------------------------------------


def knockers(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player's ways out: times out, knocks, gins (big gins included) and the share
    of them that are gin (rate, 95% interval: who waits for gin), the mean deadwood at a
    knock and the mean room the knock left (limit - deadwood: near 0 for a player who
    knocks as soon as the limit allows, more for one who waits)."""
    return with_wilson(_query(con, f, """
        SELECT h.player, count(*) AS outs,
               count(*) FILTER (h.outcome IN ('knock', 'undercut')) AS knocks,
               count(*) FILTER (h.outcome IN ('gin', 'big_gin')) AS gins,
               avg(h.deadwood) FILTER (h.outcome IN ('knock', 'undercut')) AS knock_deadwood,
               avg(h.knock_limit - h.deadwood)
                   FILTER (h.outcome IN ('knock', 'undercut')) AS limit_left
        FROM fp h WHERE h.went_out GROUP BY h.player ORDER BY h.player"""),
        "gins", "outs")


def knock_deadwood(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player's knocks by knock limit: how many and the mean deadwood kept."""
    return _query(con, f, f"""
        SELECT player, {_LIMIT}, count(*) AS knocks, avg(deadwood) AS mean_deadwood
        FROM fp WHERE went_out AND outcome IN ('knock', 'undercut')
        GROUP BY ALL ORDER BY player, limit_order""")


# -- 4. who goes out fastest -------------------------------------------------------------------


def turns_to_out(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player's hands gone out (full records): how many, and the player's own turns
    up to going out (a first-turn pass counts as a turn): mean, median, fewest."""
    return _query(con, f, """
        SELECT p.player, count(*) AS outs, avg(own_turns) AS mean_turns,
               median(own_turns) AS median_turns, min(own_turns) AS fewest
        FROM fp p JOIN own USING (hand_id) WHERE p.went_out
        GROUP BY p.player ORDER BY mean_turns, p.player""", _OWN_TURNS)


_OWN_TURNS = """own AS (SELECT t.hand_id, count(*) AS own_turns FROM gin_turns t
                        JOIN fh USING (hand_id)
                        WHERE fh.recorded = 'full' AND t.seat = fh.out_seat
                        GROUP BY t.hand_id)"""


def turns_distribution(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Hands gone out (full records) by the own turns of the player who went out and how
    they went out."""
    return _query(con, f, """
        SELECT own_turns, outcome, count(*) AS hands FROM fh JOIN own USING (hand_id)
        GROUP BY ALL ORDER BY own_turns, outcome""", _OWN_TURNS)


# -- 5. the dealer and the first upcard ---------------------------------------------------------


def seat_effects(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Who wins the hands someone won: the non-dealer (every record), the player who took
    the first upcard, and the non-dealer when both passed it (full records only): hands,
    won, rate and 95% interval (50% is no advantage)."""
    return with_wilson(_seat_effects(con, f), "won", "hands")


def _seat_effects(con: Con, f: GinFilters) -> pl.DataFrame:
    return _query(con, f, """
        SELECT who, hands, won FROM (
            SELECT 'non-dealer' AS who, 1 AS sort, count(*) AS hands,
                   count(*) FILTER (won) AS won
            FROM w WHERE NOT dealt
            UNION ALL
            SELECT 'took the first upcard', 2, count(*), count(*) FILTER (won)
            FROM w WHERE took_upcard
            UNION ALL
            SELECT 'non-dealer, both passed the upcard', 3, count(*), count(*) FILTER (won)
            FROM w WHERE recorded = 'full' AND NOT dealt AND upcard_taken IS NULL)
        ORDER BY sort""",
        """w AS (SELECT p.*, h.upcard_taken FROM fp p JOIN fh h USING (hand_id)
                  WHERE h.winner_seat IS NOT NULL)""")


# -- 6. deadwood caught -------------------------------------------------------------------------


def deadwood_caught(con: Con, f: GinFilters = ALL, width: int = 5) -> pl.DataFrame:
    """Hands someone went out in and won (knock, gin, big gin), by the deadwood the other
    player was caught with after layoffs, in bins of ``width`` points."""
    return _query(con, f, f"""
        SELECT (opponent_deadwood // {int(width)}) * {int(width)} AS deadwood_from,
               outcome, count(*) AS hands
        FROM fh WHERE outcome IN ('knock', 'gin', 'big_gin')
        GROUP BY ALL ORDER BY deadwood_from, outcome""")


def caught_by_player(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player caught by the opponent going out and winning: how often, the mean
    deadwood caught with (after layoffs), the points given away."""
    return _query(con, f, """
        SELECT player, count(*) AS caught, avg(deadwood) AS mean_deadwood,
               sum(h.points)::BIGINT AS points_given
        FROM fp p JOIN fh h USING (hand_id)
        WHERE NOT p.went_out AND NOT p.won AND h.outcome IN ('knock', 'gin', 'big_gin')
        GROUP BY player ORDER BY mean_deadwood DESC, player""")


# -- 7. pile draws ------------------------------------------------------------------------------

#: Buckets of pile draws a player made in a hand (the first upcard included).
PILE_BUCKETS = ("0", "1", "2", "3-4", "5+")


def _pile_draws() -> str:
    return """pd AS (SELECT fh.hand_id, t.seat, count(*) FILTER (t.draw = 'pile') AS pile,
                       count(*) FILTER (t.draw <> 'pass') AS draws
                FROM fh JOIN gin_turns t USING (hand_id) WHERE fh.recorded = 'full'
                GROUP BY fh.hand_id, t.seat)"""


def pile_draw_endings(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Players' finished full hands by how often they drew from the pile in them
    (:data:`PILE_BUCKETS`) and how the hand ended for them (:data:`ENDINGS`): hands and
    share of the bucket's hands."""
    df = _query(con, f, f"""
        SELECT CASE WHEN pile >= 5 THEN '5+' WHEN pile >= 3 THEN '3-4'
                    ELSE pile::VARCHAR END AS pile_draws,
               {_ENDING} AS ending, count(*) AS hands
        FROM fp p JOIN pd USING (hand_id, seat) WHERE p.finished
        GROUP BY ALL ORDER BY pile_draws, ending""", _pile_draws())
    return _shares(df, "pile_draws")


def pile_takers(con: Con, f: GinFilters = ALL) -> pl.DataFrame:
    """Each player's draws in full hands: how many, how many from the pile (rate, 95%
    interval), and hands won of the hands played."""
    return with_wilson(_query(con, f, """
        SELECT p.player, sum(draws)::BIGINT AS draws, sum(pile)::BIGINT AS pile_draws,
               count(*) AS hands, count(*) FILTER (p.won) AS hands_won
        FROM fp p JOIN pd USING (hand_id, seat)
        GROUP BY p.player ORDER BY p.player""", _pile_draws()), "pile_draws", "draws")


# -- hands in view -------------------------------------------------------------------------------


def list_hands(con: Con, f: GinFilters = ALL, limit: int = 200) -> pl.DataFrame:
    """The newest hands in view with their cards readable (the upcard as ``7♦``): where,
    who dealt, the knock limit, how it ended, who went out and won, points, deadwoods,
    turns."""
    return _query(con, f, f"""
        SELECT date, event, match, game_no, hand_no, player_a, player_b,
               CASE dealer WHEN 'A' THEN player_a ELSE player_b END AS dealer,
               coalesce(upcard, CASE upcard_rank WHEN 1 THEN 'A' WHEN 11 THEN 'J'
                        WHEN 12 THEN 'Q' WHEN 13 THEN 'K' ELSE upcard_rank::VARCHAR END)
                   AS upcard,
               coalesce(knock_limit::VARCHAR, '{ACE}') AS knock_limit, outcome,
               CASE out_seat WHEN 'A' THEN player_a WHEN 'B' THEN player_b END AS went_out,
               CASE winner_seat WHEN 'A' THEN player_a WHEN 'B' THEN player_b END AS winner,
               points, out_deadwood, opponent_deadwood, turns, recorded
        FROM fh ORDER BY date DESC NULLS LAST, event, match, game_no DESC, hand_no DESC
        LIMIT {int(limit)}""")
