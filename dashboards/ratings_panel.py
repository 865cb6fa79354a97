"""The ratings on every game's pages: tonight's changes, the table, a player's rating
history and form, and the calibration (docs/ratings.md).

Shared by the games' pages, so it names no game: a page passes its game's name (the
registry's, e.g. the one its plug-in declares). Ratings are computed over every stored
game of that game, whatever the sidebar's filters (a rating depends on every game before
it), once per state of the database: the read is cached on the database's stamp, so a
page recomputes them only after an import (docs/ratings.md gives the cost).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import streamlit as st
from gops_records.dashboards import ratings_charts, ui
from gops_records.dashboards.data import View, cached_read
from gops_records.dashboards.text import escape_md

from gops_records.core import ratings as lib

#: The last ratings this process computed, by (database, game): after an import the
#: next ones start from them (else from the history kept beside the database,
#: :func:`gops_records.core.ratings.kept_ratings`), so only the games from the first
#: change on are rated again.
_last: dict[tuple[str, str], lib.Ratings] = {}


def _rated(con, db: str, game: str) -> lib.Ratings:
    earlier = _last.get((db, game))
    rated = lib.kept_ratings(con, game, Path(db),
                             None if earlier is None else earlier.history)
    _last[(db, game)] = rated
    return rated


_cached = cached_read(_rated, filtered=False, name="ratings")


def ratings(view: View, game: str) -> lib.Ratings:
    """The ratings of every stored game of ``game``, cached on the database's state
    (filters do not apply)."""
    return _cached(view, view.db, game)

#: Evenings the form table shows without scrolling.
FORM_ROWS = 10
PROVISIONAL_NOTE = (f"Rating: the conservative mu − {lib.CONSERVATIVE_SIGMAS} sigma of "
                    f"openskill's Plackett-Luce model (0 for a newcomer); ? marks a "
                    f"provisional rating (fewer than {lib.PROVISIONAL_GAMES} rated games).")


def _evening_of(filters) -> tuple[dt.date, str | None] | None:
    """The evening a page's filters narrow to (one date, at most one event), or None."""
    date_from, date_to = getattr(filters, "date_from", None), getattr(filters, "date_to", None)
    events = tuple(getattr(filters, "events", ()) or ())
    if date_from is None or date_from != date_to or len(events) > 1:
        return None
    return date_from, (events[0] if events else None)


def _shown(rating: pl.Expr, provisional: str = "provisional") -> pl.Expr:
    return pl.concat_str(rating.round(1).cast(pl.String),
                         pl.when(pl.col(provisional)).then(pl.lit("?")).otherwise(pl.lit("")))


def show_tonight(view: View, game: str, filters=None) -> None:
    """The rating change of each player of the evening the page shows (its filters narrow
    to one date); nothing when the page shows several evenings."""
    evening = _evening_of(filters if filters is not None else view.filters)
    st.header("Ratings tonight")
    if evening is None:
        st.caption("Pick one evening to see how it moved the ratings.")
        return
    changes = lib.evening_changes(ratings(view, game).history, *evening)
    if changes.is_empty():
        st.info("No finished game of this evening is rated.")
        return
    st.caption("How this evening's finished games moved each player's rating, largest gain "
               f"first. {PROVISIONAL_NOTE} Every stored game counts, whatever the filters.")
    shown = changes.select(  # the key columns first: a phone shows about four
        "player", "change", _shown(pl.col("rating"), "provisional").alias("after"),
        _shown(pl.col("rating_before"), "provisional_before").alias("before"),
        "games", "wins")
    ui.table(shown, f"ratings-tonight-{game}", csv=changes, hide_index=True,
             height="content", column_config={
                 "player": st.column_config.TextColumn("player", pinned=True),
                 "wins": st.column_config.NumberColumn("wins", format="%g",
                                                       help="first places; a shared one "
                                                            "counts its share"),
                 "change": st.column_config.NumberColumn("change", format="%+.1f")})


def show_table(view: View, game: str) -> None:
    """Every player's rating now, best first, with interval, games and last evening."""
    table = ratings(view, game).table
    st.header("Ratings")
    if table.is_empty():
        st.info("No finished game is stored yet: nobody is rated.")
        return
    st.caption(f"{PROVISIONAL_NOTE} Interval: mu ± {lib.CONSERVATIVE_SIGMAS} sigma. Change: "
               "over the player's last evening. Every stored game counts, whatever the "
               "filters.")
    shown = table.select(  # the key columns first: a phone shows about four
        "player", _shown(pl.col("rating")).alias("rating"), "change", "games",
        pl.format("{} to {}", pl.col("low").round(1), pl.col("high").round(1))
        .alias("interval"), "last_played")
    ui.table(shown, f"ratings-{game}", csv=table, hide_index=True, height=320,
             column_config={
                 "player": st.column_config.TextColumn("player", pinned=True),
                 "last_played": st.column_config.DateColumn("last played",
                                                            format="YYYY-MM-DD"),
                 "change": st.column_config.NumberColumn("change", format="%+.1f")})


def show_player(view: View, game: str, player: str) -> None:
    """``player``'s rating history (by evening, with its band) and form, with counts."""
    rated = ratings(view, game)
    st.header("Rating and form")
    row = rated.table.filter(pl.col("player") == player)
    if row.is_empty():
        st.info(f"{escape_md(player)} has no finished game rated yet.")
        return
    r = row.row(0, named=True)
    cols = st.columns(4)
    cols[0].metric("Rating", f"{r['rating']:.1f}{'?' if r['provisional'] else ''}",
                   delta=f"{r['change']:+.1f} last evening",
                   help=PROVISIONAL_NOTE)
    cols[1].metric("Interval", f"{r['low']:.1f} to {r['high']:.1f}",
                   help=f"mu ± {lib.CONSERVATIVE_SIGMAS} sigma")
    cols[2].metric("Rated games", r["games"],
                   help=f"provisional below {lib.PROVISIONAL_GAMES}")
    rank = rated.table["player"].to_list().index(player) + 1
    cols[3].metric("Place", f"{rank} of {rated.table.height}")
    form = lib.form(rated.history, player)
    st.caption("Every stored game counts, whatever the filters; one point per evening (same "
               "date and event), undated evenings are in the table only.")
    left, right = st.columns(2)
    if form["date"].is_not_null().any():
        ui.chart(ratings_charts.history_chart(form, player), f"rating-{game}-{player}",
                 where=left)
    shown = form.sort("evening_seq", descending=True).select(
        "date", "event", "games", "wins", pl.col("mean_place").round(2).alias("mean place"),
        pl.col("rating").round(1), pl.col("change").round(1))
    ui.table(shown, f"form-{game}-{player}", where=right, csv=form, hide_index=True,
             height="content" if shown.height <= FORM_ROWS else 360, column_config={
                 "wins": st.column_config.NumberColumn("wins", format="%g"),
                 "change": st.column_config.NumberColumn("change", format="%+.1f")})


def show_calibration(view: View, game: str) -> None:
    """Predicted win chances against what happened, in bins, with counts."""
    history = ratings(view, game).history
    st.header("Do the ratings mean anything?")
    if history.is_empty():
        st.info("No finished game is rated yet.")
        return
    bins = lib.calibration(history)
    st.caption("Before each game the model gives each player a chance of winning. Grouped "
               "by that chance, the share of those games the players actually won (a shared "
               "win counts its share): near the diagonal, the chances come true. Brier "
               f"score {lib.brier(history):.3f} over {history.height:,} predictions (0 is "
               "perfect; lower is better).")
    left, right = st.columns([3, 2])
    ui.chart(ratings_charts.calibration_chart(bins, "Predicted against actual"),
             f"calibration-{game}", where=left)
    ui.table(bins, f"calibration-{game}", where=right, hide_index=True, column_config={
        "bin_low": st.column_config.NumberColumn("from", format="percent"),
        "bin_high": st.column_config.NumberColumn("to", format="percent"),
        "predicted": st.column_config.NumberColumn("predicted", format="percent"),
        "observed": st.column_config.NumberColumn("observed", format="percent"),
        "low": st.column_config.NumberColumn("95% low", format="percent"),
        "high": st.column_config.NumberColumn("95% high", format="percent")})
