"""Cached, read-only data access for the dashboard: every call goes through the analytics library.

Every read goes through one :class:`~gops_records.store.db.SharedReader` per database: the
reads share a read-only DuckDB connection, kept between interactions (a page then reads warm
data) and closed within a tenth of a second once `gops import` asks for the file, or after
20 s unused. While an import holds the file, reads wait for it (lock retries with
backoff). Results are cached with ``st.cache_data`` for a few seconds; the cache key
includes a stamp of the database files (size and modification time), so a page shows
newly imported games on the next interaction instead of waiting for the ttl.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import polars as pl
import streamlit as st

from gops_records import analytics
from gops_records.analytics.filters import Filters
from gops_records.scouting import ScoutReport, predicted_bid_by_prize, scout
from gops_records.store.db import SharedReader

TTL_SECONDS = 10
MAX_ENTRIES = 128
#: Scouting takes a second or two; the database stamp in its key already drops a report
#: once an import commits, so it is kept longer.
SCOUT_TTL_SECONDS = 600
SCOUT_MAX_ENTRIES = 32
LOCK_WAIT_SECONDS = 8.0

#: (size, mtime_ns) of the database file and of its write-ahead log.
Stamp = tuple[int, int, int, int]
T = TypeVar("T")


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


def _read(db: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(con, *args)`` on the shared read-only connection (let go once idle)."""
    with reader(db).read() as con:
        return fn(con, *args)


def _cached(fn: Callable[..., T]) -> Callable[..., T]:
    return st.cache_data(ttl=TTL_SECONDS, max_entries=MAX_ENTRIES, show_spinner=False)(fn)


# -- what the sidebar offers (not filtered) ---------------------------------------------

@_cached
def events(view: View) -> list[str]:
    return _read(view.db, analytics.list_events)


@_cached
def matches(view: View) -> list[str]:
    return _read(view.db, analytics.list_matches)


@_cached
def date_range(view: View) -> tuple[dt.date | None, dt.date | None]:
    return _read(view.db, analytics.date_range)


@_cached
def players(view: View) -> list[str]:
    """Players of the games the filters keep (the sidebar passes only the other filters)."""
    return _read(view.db, analytics.list_players, view.filters)


# -- results --------------------------------------------------------------------------

@_cached
def overview(view: View) -> dict:
    return _read(view.db, analytics.overview, view.filters)


@_cached
def standings(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.standings, view.filters)


@_cached
def match_results(view: View, limit: int | None = None) -> pl.DataFrame:
    """Matches of the games in view; ``limit`` keeps the newest (a big database has many)."""
    return _read(view.db, analytics.match_results, view.filters, limit)


@_cached
def head_to_head(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.head_to_head, view.filters)


# -- one player's bidding ---------------------------------------------------------------

@dataclass(frozen=True)
class Bidding:
    """One player's five bidding frames (see ``gops_records.analytics.bidding``)."""

    heatmap: pl.DataFrame
    minus_prize: pl.DataFrame
    relative: pl.DataFrame
    habits: pl.DataFrame
    carry: pl.DataFrame


@_cached
def bidding(view: View, player: str) -> Bidding:
    """All of ``player``'s bidding frames from one pass over their bids (one cached call)."""
    frames = _read(view.db, analytics.player_bidding, view.filters, player)
    return Bidding(frames["bid_heatmap"], frames["bid_minus_prize"], frames["relative_bids"],
                   frames["bid_habits"], frames["carry_effect"])


# -- ties and pools -----------------------------------------------------------------------

@_cached
def game_shapes(view: View) -> pl.DataFrame:
    """The kept games grouped by their tie and pool summary: the figures below that need
    no single round are summed from it, so the page reads the games once for all five."""
    return _read(view.db, analytics.game_shapes, view.filters)


def tie_summary(view: View) -> pl.DataFrame:
    return analytics.tie_summary_of(game_shapes(view))


def ties_by_round(view: View) -> pl.DataFrame:
    return analytics.ties_by_round_of(game_shapes(view))


@_cached
def ties_by_pair(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.ties_by_pair, view.filters)


def tie_streaks(view: View) -> pl.DataFrame:
    return analytics.tie_streaks_of(game_shapes(view))


@_cached
def final_ties(view: View) -> dict:
    return _read(view.db, analytics.final_ties, view.filters)


@_cached
def pool_distribution(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.pool_distribution, view.filters)


@_cached
def largest_pools(view: View, limit: int = 20) -> pl.DataFrame:
    return _read(view.db, analytics.largest_pools, view.filters, limit)


def carried_per_game(view: View) -> pl.DataFrame:
    return analytics.carried_per_game_of(game_shapes(view))


def unclaimed_per_game(view: View) -> pl.DataFrame:
    return analytics.unclaimed_per_game_of(game_shapes(view))


# -- games and data quality ---------------------------------------------------------------

@_cached
def games(view: View, limit: int = 500, player: str | None = None) -> pl.DataFrame:
    return _read(view.db, analytics.list_games, view.filters, limit, player)


def game_detail(view: View, game_id: str) -> analytics.GameDetail | None:
    """The game's header and rounds, or None for an unknown id (filters do not apply)."""
    return _game_detail(view.unfiltered, game_id)


def imports(view: View) -> pl.DataFrame:
    """Every import, newest first (filters do not apply)."""
    return _imports(view.unfiltered)


def source_files(view: View) -> pl.DataFrame:
    """Every file read, under its latest name (filters do not apply)."""
    return _source_files(view.unfiltered)


def rejects(view: View, limit: int = 200) -> pl.DataFrame:
    """Quarantined records with their errors and raw text (filters do not apply)."""
    return _rejects(view.unfiltered, limit)


@_cached
def _game_detail(view: View, game_id: str) -> analytics.GameDetail | None:
    return _read(view.db, analytics.game_detail, game_id)


@_cached
def _imports(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.list_imports)


@_cached
def _source_files(view: View) -> pl.DataFrame:
    return _read(view.db, analytics.list_source_files)


@_cached
def _rejects(view: View, limit: int) -> pl.DataFrame:
    return _read(view.db, analytics.list_rejects, limit)


# -- scouting ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scouting:
    """A scouting report as the Scout page shows it.

    ``report`` carries no model or situations (small to cache); ``predicted`` is
    :func:`gops_records.scouting.predicted_bid_by_prize` (prize, bid, probability) and
    ``reads_by`` the model's mixture in words.
    """

    report: ScoutReport
    predicted: pl.DataFrame
    reads_by: str


def scouting(view: View, player: str, vs: str | None = None, seed: int = 0) -> Scouting:
    """Scout ``player`` (in games against ``vs``, if given) as `gops scout` does.

    The sidebar's filters do not apply: the report studies the player's most recent games.
    Cached on (database stamp, player, vs, seed). Raises
    :class:`gops_records.scouting.ScoutError` for an unknown name or too few games.
    """
    return _scouting(view.unfiltered, player, vs, int(seed))


@st.cache_data(ttl=SCOUT_TTL_SECONDS, max_entries=SCOUT_MAX_ENTRIES, show_spinner=False)
def _scouting(view: View, player: str, vs: str | None, seed: int) -> Scouting:
    def run(con) -> Scouting:
        report = scout(con, player, vs, seed)
        reads_by = report.model.describe() if report.model is not None else ""
        return Scouting(replace(report, model=None, situations=None),
                        predicted_bid_by_prize(report), reads_by)

    return _read(view.db, run)


def opponents(view: View, player: str) -> list[str]:
    """Everyone who played a game with ``player`` (filters do not apply)."""
    return _opponents(view.unfiltered, player)


@_cached
def _opponents(view: View, player: str) -> list[str]:
    names = _read(view.db, analytics.list_players, Filters(players=(player,)))
    return [name for name in names if name != player]


def explain_empty(view: View) -> str:
    """What to tell a user who sees no games: an empty database, or filters that keep none."""
    if overview(view.unfiltered)["games"] == 0:
        return ("The database has no games yet. Import some with `gops import PATH...` "
                "(.gops records, CSV or JSONL round logs), or try `gops demo`.")
    return (f"No games match the filters ({view.filters.describe()}). Widen them in the "
            "sidebar, or press *Clear filters*.")
