"""Cached, read-only data access for the dashboard: every call goes through the analytics library.

Every read goes through one :class:`~gops_records.core.store.db.SharedReader` per database: the
reads share a read-only DuckDB connection, kept between interactions (a page then reads warm
data) and closed within a tenth of a second once `gops import` asks for the file, or after
20 s unused. While an import holds the file, reads wait for it (lock retries with
backoff). Results are cached with ``st.cache_data`` for five minutes; the cache key
includes a stamp of the database files (size and modification time), so a page shows
newly imported games on the next interaction instead of waiting for the ttl, and a
player, an evening or a game looked at before shows at once.

The read functions are made by one factory, :func:`cached_read`: ``standings(view)`` is
``analytics.standings(con, view.filters)`` on the shared connection, cached on the view.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import duckdb
import polars as pl
import streamlit as st
from gops_records.dashboards.text import escape_md

from gops_records.core import rejects as quarantine_lib
from gops_records.core.store.db import SharedReader
from gops_records.games.gops import analytics
from gops_records.games.gops.analytics.filters import Filters
from gops_records.games.gops.scouting import ScoutReport, kept_store, predicted_bid_by_prize

TTL_SECONDS = 300
MAX_ENTRIES = 128
#: Scouting takes a second or two; the database stamp in its key already drops a report
#: once an import commits, so it is kept longer.
SCOUT_TTL_SECONDS = 600
SCOUT_MAX_ENTRIES = 32
LOCK_WAIT_SECONDS = 8.0

#: (size, mtime_ns) of the database file and of its write-ahead log.
Stamp = tuple[int, int, int, int]
T = TypeVar("T")
P = ParamSpec("P")
Con = duckdb.DuckDBPyConnection


def stamp(db: str | Path) -> Stamp:
    """A cheap fingerprint of the database files: changes whenever an import commits."""
    out: list[int] = []
    for path in (Path(db), Path(f"{db}.wal")):
        try:
            info = os.stat(path)
            out += [info.st_size, info.st_mtime_ns]
        except FileNotFoundError:
            out += [-1, -1]
    return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True)
class View:
    """What a page looks at: the database (and its stamp) and the sidebar's filters.

    Hashable by value, so it is the cache key of every function below.
    """

    db: str
    stamp: Stamp
    filters: Filters = field(default_factory=Filters)

    @classmethod
    def of(cls, db: str | Path, filters: Filters | None = None) -> View:
        return cls(str(db), stamp(db), filters or Filters())

    @property
    def unfiltered(self) -> View:
        """The same database with no filters (for lists the filters do not apply to)."""
        return View(self.db, self.stamp)

    def with_filters(self, filters: Filters) -> View:
        return View(self.db, self.stamp, filters)


VIEW_KEY = "gops_view"


def current_view() -> View:
    """The view the entry script (app.py) set up for this run: database and filters."""
    view = st.session_state.get(VIEW_KEY)
    if not isinstance(view, View):
        raise RuntimeError("no dashboard view in this session: start the dashboard with "
                           "`gops dashboard`, which runs dashboards/app.py")
    return view


_readers: dict[str, SharedReader] = {}
_readers_lock = threading.Lock()


def reader(db: str) -> SharedReader:
    """The process's shared reader of ``db`` (made on first use)."""
    with _readers_lock:
        if db not in _readers:
            _readers[db] = SharedReader(db, timeout=LOCK_WAIT_SECONDS)
        return _readers[db]


def _read(db: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(con, *args, **kwargs)`` on the shared read-only connection (let go once idle)."""
    with reader(db).read() as con:
        return fn(con, *args, **kwargs)


def cached_read(query: Callable[..., T], *, filtered: bool = True, name: str | None = None,
                ttl: float = TTL_SECONDS, max_entries: int = MAX_ENTRIES
                ) -> Callable[..., T]:
    """A dashboard read of ``query``: ``read(view, *args)`` runs ``query(con, view.filters,
    *args)`` (``query(con, *args)`` when not ``filtered``) on the shared connection, cached
    on the view and the arguments.

    An unfiltered read is cached on ``view.unfiltered``, so every filter shares one entry.
    ``name`` (default: the query's) keeps each read's cache apart: Streamlit keys a cache
    by the function's qualified name and source, which every read made here shares.
    """
    label = name or query.__name__

    def cached(view: View, *args: Any, **kwargs: Any) -> T:
        pre = (view.filters,) if filtered else ()
        return _read(view.db, query, *pre, *args, **kwargs)

    cached.__name__ = cached.__qualname__ = f"cached_read[{label}]"
    cached_fn = st.cache_data(ttl=ttl, max_entries=max_entries, show_spinner=False)(cached)

    def read(view: View, *args: Any, **kwargs: Any) -> T:
        return cached_fn(view if filtered else view.unfiltered, *args, **kwargs)

    read.__name__ = read.__qualname__ = label
    read.__doc__ = (f"``{query.__module__}.{query.__name__}`` on the view"
                    f"{'' if filtered else ' (filters do not apply)'}, cached.\n\n"
                    f"{query.__doc__ or ''}")
    read.cached = cached_fn  # type: ignore[attr-defined]  (its .clear() empties the cache)
    return read


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


# -- games and data quality (the last three: filters do not apply) ------------------------

#: ``games(view, limit=200, player=None)``: the newest games in view.
games = cached_read(analytics.list_games, name="games")
#: ``game_detail(view, game_id)``: the game's header and rounds, or None for an unknown id.
game_detail = cached_read(analytics.game_detail, filtered=False)
imports = cached_read(analytics.list_imports, filtered=False, name="imports")
source_files = cached_read(analytics.list_source_files, filtered=False, name="source_files")
rejects = cached_read(analytics.list_rejects, filtered=False, name="rejects")


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


# -- the quarantine with its resolutions (what `gops rejects` lists; filters do not apply) --

#: ``quarantine(view, limit=200)``: the newest quarantined records
#: (:class:`gops_records.core.rejects.Reject`, open or resolved by `gops rejects --recheck`).
quarantine = cached_read(quarantine_lib.list_rejects, filtered=False, name="quarantine")
#: ``quarantine_counts(view)``: records kept, open, resolved, and rejections counted.
quarantine_counts = cached_read(quarantine_lib.counts, filtered=False, name="quarantine_counts")
