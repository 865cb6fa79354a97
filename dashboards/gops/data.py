"""Cached, read-only reads of the Gops pages: each is a query of
:mod:`gops_records.games.gops.analytics` (or a scouting report), made by
:func:`gops_records.dashboards.data.cached_read`: ``standings(view)`` is
``analytics.standings(con, view.filters)`` on the shared connection, cached on the view,
whose filters are the Gops sidebar's :class:`~gops_records.games.gops.analytics.Filters`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import duckdb
import polars as pl
from gops_records.dashboards.data import View, cached_read
from gops_records.dashboards.text import escape_md

from gops_records.games.gops import analytics
from gops_records.games.gops.analytics.filters import Filters
from gops_records.games.gops.scouting import ScoutReport, kept_store, predicted_bid_by_prize

#: Scouting takes a second or two; the database stamp in its key already drops a report
#: once an import commits, so it is kept longer.
SCOUT_TTL_SECONDS = 600
SCOUT_MAX_ENTRIES = 32
Con = duckdb.DuckDBPyConnection


def view_of(db: str | Path, filters: Filters | None = None) -> View:
    """A view of ``db`` through the Gops filters ``filters`` (none: every game)."""
    return View.of(db, filters or Filters())


# -- what the sidebar offers (not filtered), and results --------------------------------

events = cached_read(analytics.list_events, filtered=False, name="events")
matches = cached_read(analytics.list_matches, filtered=False, name="matches")
date_range = cached_read(analytics.date_range, filtered=False)
#: The variants of the stored games, for the sidebar's variant filter.
variants = cached_read(analytics.list_variants, filtered=False, name="variants")
#: Players of the games the filters keep (the sidebar passes only the other filters).
players = cached_read(analytics.list_players, name="players")
overview = cached_read(analytics.overview)
evenings = cached_read(analytics.evenings)
standings = cached_read(analytics.standings)
#: Matches of the games in view; a ``limit`` keeps the newest (a big database has many).
match_results = cached_read(analytics.match_results)
head_to_head = cached_read(analytics.head_to_head)

# -- ties and pools -----------------------------------------------------------------------

#: The kept games grouped by their tie and pool summary: the figures below that need no
#: single round are summed from it, so the page reads the games once for all five.
game_shapes = cached_read(analytics.game_shapes)
ties_by_pair = cached_read(analytics.ties_by_pair)
final_ties = cached_read(analytics.final_ties)
pool_distribution = cached_read(analytics.pool_distribution)
largest_pools = cached_read(analytics.largest_pools)
#: ``row_choices(view, player=None)``: which prize of the row open-prize winners take.
row_choices = cached_read(analytics.row_choices)
#: How many of the games in view each variant of the rules has.
games_by_variant = cached_read(analytics.games_by_variant)


def tie_summary(view: View) -> pl.DataFrame:
    return analytics.tie_summary_of(game_shapes(view))


def ties_by_round(view: View) -> pl.DataFrame:
    return analytics.ties_by_round_of(game_shapes(view))


def tie_streaks(view: View) -> pl.DataFrame:
    return analytics.tie_streaks_of(game_shapes(view))


def carried_per_game(view: View) -> pl.DataFrame:
    return analytics.carried_per_game_of(game_shapes(view))


def unclaimed_per_game(view: View) -> pl.DataFrame:
    return analytics.unclaimed_per_game_of(game_shapes(view))


# -- games (the detail of one: filters do not apply) --------------------------------------

#: ``games(view, limit=200, player=None)``: the newest games in view.
games = cached_read(analytics.list_games, name="games")
#: ``game_detail(view, game_id)``: the game's header and rounds, or None for an unknown id.
game_detail = cached_read(analytics.game_detail, filtered=False)


# -- one player's bidding ---------------------------------------------------------------

@dataclass(frozen=True)
class Bidding:
    """One player's five bidding frames (see ``gops_records.games.gops.analytics.bidding``)."""

    heatmap: pl.DataFrame
    minus_prize: pl.DataFrame
    relative: pl.DataFrame
    habits: pl.DataFrame
    carry: pl.DataFrame


def _player_bidding(con: Con, f: Filters, player: str) -> Bidding | None:
    """All of ``player``'s bidding frames from one pass over their bids in the classic
    games in view (the hand-aware measures follow one card a bid and one prize a round);
    None when the filters keep other variants only."""
    classic = f.only(analytics.CLASSIC)
    if classic is None:
        return None
    frames = analytics.player_bidding(con, classic, player)
    return Bidding(frames["bid_heatmap"], frames["bid_minus_prize"], frames["relative_bids"],
                   frames["bid_habits"], frames["carry_effect"])


bidding = cached_read(_player_bidding, name="bidding")
#: ``strength(view, player)``: with bids of several cards, the bid's strength against the
#: prize (frames ``heatmap`` and ``by_prize``).
strength = cached_read(analytics.strength_by_prize, name="strength")
#: ``open_row_bids(view, player)``: with open prizes, the bid against the best prize on offer.
open_row_bids = cached_read(analytics.open_row_bids)


def _opponents_of(con: Con, player: str) -> list[str]:
    names = analytics.list_players(con, Filters(players=(player,)))
    return [name for name in names if name != player]


#: ``opponents(view, player)``: everyone who played a game with ``player`` (not filtered).
opponents = cached_read(_opponents_of, filtered=False, name="opponents")


# -- scouting ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scouting:
    """A scouting report as the Scout page shows it.

    ``report`` carries no model or situations (small to cache); ``predicted`` is
    :func:`gops_records.games.gops.scouting.predicted_bid_by_prize` (prize, bid, probability) and
    ``reads_by`` the model's mixture in words.
    """

    report: ScoutReport
    predicted: pl.DataFrame
    reads_by: str


def _scout(con: Con, player: str, vs: str | None, seed: int) -> Scouting:
    report = kept_store.report_for(con, player, vs, seed)  # kept, or computed (cached here)
    return Scouting(replace(report, model=None, situations=None),
                    predicted_bid_by_prize(report), report.model_description)


_scouting = cached_read(_scout, filtered=False, name="scouting", ttl=SCOUT_TTL_SECONDS,
                        max_entries=SCOUT_MAX_ENTRIES)


def scouting(view: View, player: str, vs: str | None = None, seed: int = 0) -> Scouting:
    """Scout ``player`` (in games against ``vs``, if given) as `gops scout` does.

    The sidebar's filters do not apply: the report studies the player's most recent games.
    Cached on (database stamp, player, vs, seed). Raises
    :class:`gops_records.games.gops.scouting.ScoutError` for an unknown name or too few games.
    """
    return _scouting(view, player, vs, int(seed))


# -- what to say when nothing shows ---------------------------------------------------------

NO_MATCH = "No games match these filters"


def explain_empty(view: View) -> str:
    """What to tell a user who sees no games: an empty database, or filters that keep none.

    Markdown: the filters' own text (names from the URL) is escaped.
    """
    if overview(view.unfiltered)["games"] == 0:
        return ("The database has no games yet. Import some with `gops import PATH...` "
                "(.gops records, CSV or JSONL round logs), or try `gops demo`.")
    return (f"{NO_MATCH} ({escape_md(view.filters.describe())}). Widen them in the "
            "sidebar, or press *Clear filters*.")
