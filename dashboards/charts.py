"""Altair chart builders every game's pages share: the look (titles, axis titles, tooltips,
the palette), the generic builders (histograms, heatmaps, rates with intervals), the Data
quality chart and the offline rendering of a chart for downloading.

Builders take small, already aggregated polars frames. No chart is sent more than
:data:`MAX_ROWS` rows: a larger frame is cut and the chart's subtitle says so (the
analytics aggregate first, so this is a safety net, not a feature).

How they read: every rate shows its count (a label or a cell's text), counts have
whole-number ticks, numbers are on numeric axes (histograms are binned), a log scale has
ticks at powers of ten. Colours come from the Okabe-Ito palette (told apart with the
common colour-vision deficiencies; never red against green) and are readable on the light
and the dark theme: no black or white marks, and subtitles in a mid grey (Streamlit's
theme sets the title's colour, not the subtitle's, which Vega would draw black).
:func:`to_png` and :func:`to_svg` render a chart offline (vl-convert) for downloading.
Each game's own charts are in its folder (``dashboards/<game>/charts.py``).
"""

from __future__ import annotations

import io
import math

import altair as alt
import polars as pl

MAX_ROWS = 3_000
RATE = alt.Axis(format="%")
#: Counts: whole numbers only, never a tick at 2.5 games.
COUNT = alt.Axis(tickMinStep=1, format=",d")
#: Okabe & Ito's colour-blind safe palette (black left out: it vanishes on the dark theme),
#: the colours that stand out on both white and the dark background first.
OKABE_ITO = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
             "#999999"]
CATEGORIES = alt.Scale(range=OKABE_ITO)
BLUE, VERMILLION = "#0072B2", "#D55E00"
#: A grey that reads on white and on Streamlit's dark background (#0e1117) alike.
NEUTRAL = "#808495"
#: The most text a cell of a grid carries before its labels are left out (tooltips remain).
CELL_TEXT_MAX = 400




def _capped(df: pl.DataFrame, title: str, subtitle: str | list[str] = ""
            ) -> tuple[pl.DataFrame, dict]:
    """The frame cut to MAX_ROWS rows, and the chart title (noting the cut)."""
    notes = [subtitle] if isinstance(subtitle, str) else list(subtitle)
    notes = [n for n in notes if n]
    if df.height > MAX_ROWS:
        notes.append(f"first {MAX_ROWS:,} of {df.height:,} rows shown")
        df = df.head(MAX_ROWS)
    params = {"text": title, "anchor": "start", "subtitleColor": NEUTRAL}
    if notes:
        params["subtitle"] = notes
    return df, params


def log_ticks(top: float) -> list[int]:
    """0 and the powers of ten up to ``top``: readable ticks for a symlog count axis."""
    return [0, *(10 ** i for i in range(int(math.log10(max(top, 1))) + 1))]


def histogram(df: pl.DataFrame, value: str, count: str, *, title: str, x_title: str,
              y_title: str, subtitle: str | list[str] = "", log_y: bool = False,
              max_bins: int = 40) -> alt.Chart:
    """Bars of ``count`` over the numbers ``value`` on a numeric axis (a frame of value ->
    count). Values are grouped into at most ``max_bins`` bins of a whole width; a bin of
    width 1 is centred on its number. ``log_y``: a symmetric log scale (ticks 0, 1, 10,
    ...), so rare values stay visible next to common ones.
    """
    lo, hi = (df[value].min(), df[value].max()) if df.height else (0, 0)
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    start = (pl.col(value) // width) * width
    binned = (df.group_by(start.alias("first")).agg(pl.col(count).sum())
              .with_columns((pl.col("first") + width - 1).alias("last"))
              .with_columns((pl.col("first") - 0.5).alias("bin_start"),
                            (pl.col("last") + 0.5).alias("bin_end"))
              .sort("first"))
    binned, head = _capped(binned, title, subtitle)
    tick_step = max(width, 1)
    top = binned[count].max() if binned.height else 1
    y_scale = alt.Scale(type="symlog") if log_y else alt.Undefined
    y_axis = alt.Axis(values=log_ticks(top), format=",d") if log_y else COUNT
    tooltip = [alt.Tooltip("first", title=f"{x_title} from"),
               alt.Tooltip("last", title="to"), alt.Tooltip(count, title=y_title)] \
        if width > 1 else [alt.Tooltip("first", title=x_title), alt.Tooltip(count, title=y_title)]
    return alt.Chart(binned, title=alt.Title(**head)).mark_bar(color=BLUE).encode(
        x=alt.X("bin_start:Q", bin="binned", title=x_title,
                axis=alt.Axis(tickMinStep=tick_step, format=",d")),
        x2="bin_end:Q",
        y=alt.Y(f"{count}:Q", title=f"{y_title} (log scale)" if log_y else y_title,
                scale=y_scale, axis=y_axis),
        tooltip=tooltip)


def heatmap(df: pl.DataFrame, x: str, y: str, value: str, *, title: str, x_title: str,
            y_title: str, value_title: str, subtitle: str | list[str] = "", value_format: str = "",
            tooltip: list | None = None, scale: alt.Scale | None = None,
            text: str | None = None, text_format: str = ",d",
            legend: alt.Legend | None = None, diverging: bool = False,
            x_axis: alt.Axis | None = None, y_axis: alt.Axis | None = None
            ) -> alt.Chart | alt.LayerChart:
    """A grid of ``value`` for each (x, y) cell, y growing upwards; blank = no data.

    ``text`` writes that column (a count) in each cell, dark on light cells and light on
    dark ones, when the grid has at most :data:`CELL_TEXT_MAX` cells. ``x_axis`` and
    ``y_axis`` replace the plain axes (a game's card labels). ``diverging``: the colour
    scale is dark at both ends.
    """
    df, head = _capped(df, title, subtitle)
    if legend is None:
        legend = alt.Legend(format=value_format) if value_format else alt.Legend()
    names = df.schema.get(x) == pl.String
    x_axis = x_axis or alt.Axis(labelAngle=-40 if names else 0, labelOverlap=False)
    base = alt.Chart(df).encode(
        x=alt.X(f"{x}:O", title=x_title, axis=x_axis),
        y=alt.Y(f"{y}:O", title=y_title, sort="descending",
                axis=y_axis or alt.Axis(labelOverlap=False)),
        tooltip=tooltip or [x, y, value])
    colour_scale = scale or alt.Scale(scheme="blues")
    rect = base.mark_rect().encode(
        color=alt.Color(f"{value}:Q", title=value_title, scale=colour_scale, legend=legend))
    if text is None or df.height > CELL_TEXT_MAX:
        return alt.layer(rect, title=alt.Title(**head))
    # Light text on the dark part of the colour range, dark text on the light part.
    if diverging:
        lo, hi = (colour_scale.to_dict().get("domain") or [0, 1])[:2]
        edge = (hi - lo) / 4
        dark = f"datum['{value}'] < {lo + edge} || datum['{value}'] > {hi - edge}"
    else:
        dark = f"datum['{value}'] > {_midpoint(df[value], colour_scale)}"
    labels = base.mark_text(fontSize=10).encode(
        text=alt.Text(f"{text}:Q", format=text_format),
        color=alt.condition(dark, alt.value("white"), alt.value("#1a1a1a")))
    return alt.layer(rect, labels, title=alt.Title(**head))


def _midpoint(values: pl.Series, scale: alt.Scale) -> float:
    """Where a cell's colour turns dark enough for light text, in the value's units."""
    domain = scale.to_dict().get("domain") if scale is not None else None
    lo, hi = domain if isinstance(domain, list) else (values.min() or 0, values.max() or 1)
    if scale.to_dict().get("type") == "log":
        lo = max(lo, 1)
        return float(math.sqrt(lo * hi))
    return float(lo + (hi - lo) * 0.55)


def rate_with_ci(df: pl.DataFrame, x: str, *, title: str, x_title: str, y_title: str,
                 n: str, n_title: str, subtitle: str | list[str] = "",
                 ordinal_x: bool = True, rate: str = "rate",
                 extra_tooltip: list | None = None, sort: list | None = None,
                 horizontal: bool = False) -> alt.LayerChart:
    """Points at ``rate`` with 95% interval bars (ci_low..ci_high), each labelled with its
    count ``n`` (what the rate is out of) above the bar; ``sort`` orders the x values.

    ``horizontal``: the categories down the y axis and the rates along x, the count right
    of the bar, so that every category's name (a player's) is written out however narrow
    the screen (names side by side along x hide each other)."""
    where = "right" if horizontal else "above"
    df, head = _capped(df, title, [*([subtitle] if isinstance(subtitle, str) else subtitle),
                                   f"number {where} = {n_title}"])
    xt = "O" if ordinal_x else "Q"
    tooltip = [alt.Tooltip(x, title=x_title), alt.Tooltip(rate, title=y_title, format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip(n, title=n_title, format=",d"), *(extra_tooltip or [])]
    cat, val, Cat, Val = ("y", "x", alt.Y, alt.X) if horizontal else ("x", "y", alt.X, alt.Y)
    axis = alt.Axis(labelLimit=200, labelOverlap=False) if horizontal else alt.Axis(labelAngle=0)
    # Room right of 100% for the count of a bar that reaches it (it was cut at the edge).
    room = alt.Scale(domain=[0, 1.15], nice=False) if horizontal else alt.Undefined
    # ... and ticks up to 100% only (a wide chart drew one at 110%)
    rate_axis = alt.Axis(format="%", values=[0, 0.2, 0.4, 0.6, 0.8, 1]) if horizontal else RATE
    base = alt.Chart(df).encode(**{cat: Cat(f"{x}:{xt}", title=x_title,
                                            sort=sort or "ascending", axis=axis)})
    rule = base.mark_rule(strokeWidth=2, color=BLUE).encode(
        **{val: Val("ci_low:Q", title=y_title, axis=rate_axis, scale=room),
           f"{val}2": "ci_high:Q"},
        tooltip=tooltip)
    dots = base.mark_point(filled=True, size=70, color=BLUE).encode(
        **{val: f"{rate}:Q"}, tooltip=tooltip)
    place = {"dx": 6, "align": "left"} if horizontal else {"dy": -8}
    counts = base.mark_text(fontSize=10, color=NEUTRAL, **place).encode(
        **{val: "ci_high:Q"}, text=alt.Text(f"{n}:Q", format=".3~s"))
    return alt.layer(rule, dots, counts, title=alt.Title(**head))



# -- Data quality -----------------------------------------------------------------------------

def problems_chart(df: pl.DataFrame) -> alt.Chart:
    """Rejected records by problem code (frame: problem, records)."""
    df_, head = _capped(df, "Problems by kind", "rejected records with each problem code")
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar(color=VERMILLION).encode(
        y=alt.Y("problem:N", sort="-x", title=None, axis=alt.Axis(labelLimit=200)),
        x=alt.X("records:Q", title="records", axis=COUNT),
        tooltip=[alt.Tooltip("problem", title="problem code"), alt.Tooltip("records")])


# -- downloads ---------------------------------------------------------------------------------

EXPORT_WIDTH = 640


def _for_export(chart: alt.TopLevelMixin) -> alt.TopLevelMixin:
    """A chart as a file shows it: a fixed width where it has none, on white."""
    out = chart.copy(deep=True)
    if getattr(out, "width", alt.Undefined) is alt.Undefined:
        out = out.properties(width=EXPORT_WIDTH)
    return out.configure(background="white")


def to_png(chart: alt.TopLevelMixin, scale: float = 2.0) -> bytes:
    """The chart as a PNG, rendered here (vl-convert; no network, no browser)."""
    buf = io.BytesIO()
    _for_export(chart).save(buf, format="png", scale_factor=scale)
    return buf.getvalue()


def to_svg(chart: alt.TopLevelMixin) -> bytes:
    """The chart as an SVG, rendered here (vl-convert)."""
    buf = io.StringIO()
    _for_export(chart).save(buf, format="svg")
    return buf.getvalue().encode("utf-8")
