"""Altair charts of the ratings (every game's): a player's rating by evening with its band,
and the calibration of the predicted win chances. They take frames already aggregated by
:mod:`gops_records.core.ratings` (one row per evening, one per bin)."""

from __future__ import annotations

import altair as alt
import polars as pl
from gops_records.dashboards.charts import BLUE, NEUTRAL, RATE, VERMILLION, _capped


def history_chart(form: pl.DataFrame, player: str) -> alt.LayerChart:
    """``player``'s rating after each evening (the conservative mu - 3 sigma, a line with
    points) inside its band mu ± 3 sigma, and mu dashed; dated evenings only."""
    frame, title = _capped(form.filter(pl.col("date").is_not_null()).select(
        "date", "event", "games", "wins", "rating", "mu", "low", "high", "change"),
        f"{player}'s rating by evening",
        "line: rating (mu - 3 sigma); band: mu ± 3 sigma; dashed: mu")
    base = alt.Chart(frame).encode(
        x=alt.X("date:T", title="evening", axis=alt.Axis(format="%Y-%m-%d", labelAngle=-30)))
    tips = [alt.Tooltip("date:T", format="%Y-%m-%d"), "event:N",
            alt.Tooltip("games:Q", title="games that evening"),
            alt.Tooltip("wins:Q", title="wins", format=".1f"),
            alt.Tooltip("rating:Q", format=".1f"), alt.Tooltip("change:Q", format="+.1f"),
            alt.Tooltip("low:Q", format=".1f"), alt.Tooltip("high:Q", format=".1f")]
    band = base.mark_area(opacity=0.2, color=BLUE).encode(
        y=alt.Y("low:Q", title="rating"), y2="high:Q")
    mu = base.mark_line(strokeDash=[4, 3], color=NEUTRAL).encode(y="mu:Q")
    line = base.mark_line(point=True, color=BLUE).encode(y="rating:Q", tooltip=tips)
    return alt.layer(band, mu, line).properties(title=title, height=260)


def calibration_chart(bins: pl.DataFrame, title: str) -> alt.LayerChart:
    """Observed win share against the predicted win chance, bin by bin, with the 95%
    interval and the count of predictions labelled; the diagonal is a perfect model."""
    frame, params = _capped(bins, title, "points on the diagonal: the chances came true; "
                            "labels: predictions in the bin")
    base = alt.Chart(frame)
    x = alt.X("predicted:Q", title="predicted win chance", scale=alt.Scale(domain=[0, 1]),
              axis=RATE)
    diagonal = alt.Chart(pl.DataFrame({"p": [0.0, 1.0]})).mark_line(
        color=NEUTRAL, strokeDash=[4, 3]).encode(x="p:Q", y="p:Q")
    rule = base.mark_rule(color=VERMILLION).encode(x=x, y="low:Q", y2="high:Q")
    tips = [alt.Tooltip("predicted:Q", format=".0%"), alt.Tooltip("observed:Q", format=".0%"),
            alt.Tooltip("count:Q", title="predictions", format=",d"),
            alt.Tooltip("low:Q", title="95% low", format=".0%"),
            alt.Tooltip("high:Q", title="95% high", format=".0%")]
    points = base.mark_circle(color=VERMILLION, size=60).encode(
        x=x, y=alt.Y("observed:Q", title="observed win share",
                     scale=alt.Scale(domain=[0, 1]), axis=RATE), tooltip=tips)
    labels = base.mark_text(dy=-10, color=NEUTRAL, fontSize=10).encode(
        x=x, y="observed:Q", text=alt.Text("count:Q", format=",d"))
    return alt.layer(diagonal, rule, points, labels).properties(title=params, height=300)

