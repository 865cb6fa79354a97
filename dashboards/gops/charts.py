"""Altair chart builders for the dashboard: each chart has a title, axis labels and tooltips.

Builders take the small, already aggregated polars frames of ``gops_records.games.gops.analytics``.
No chart is sent more than :data:`MAX_ROWS` rows: a larger frame is cut and the chart's
subtitle says so (the analytics aggregate first, so this is a safety net, not a feature).

How they read: every rate shows its count (a label or a cell's text), counts have
whole-number ticks, numbers are on numeric axes (histograms are binned), a log scale has
ticks at powers of ten. Colours come from the Okabe-Ito palette (told apart with the
common colour-vision deficiencies; never red against green) and are readable on the light
and the dark theme: no black or white marks, and subtitles in a mid grey (Streamlit's
theme sets the title's colour, not the subtitle's, which Vega would draw black).
:func:`to_png` and :func:`to_svg` render a chart offline (vl-convert) for downloading.
"""

from __future__ import annotations

import io
import math

import altair as alt
import polars as pl

from gops_records.games.gops.cards import MAX_RANK, rank_name

MAX_ROWS = 3_000
RATE = alt.Axis(format="%")
#: Counts: whole numbers only, never a tick at 2.5 games.
COUNT = alt.Axis(tickMinStep=1, format=",d")
HABIT_LABELS = {
    "exact_prize": "bids exactly the prize",
    "prize_plus_one": "bids prize + 1",
    "highest_remaining": "bids highest card left",
    "lowest_remaining": "bids lowest card left",
}
PHASE_ORDER = ["early", "middle", "late", "all"]
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
#: Cards as players name them on an axis: A, 2..10, J, Q, K.
CARD_LABELS = " : ".join(f"datum.value == {r} ? '{rank_name(r)}'"
                         for r in range(1, MAX_RANK + 1) if rank_name(r) != str(r)) \
    + " : datum.label"


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


def card_axis(**kw) -> alt.Axis:
    """An axis of card ranks labelled A, 2..10, J, Q, K."""
    return alt.Axis(labelExpr=CARD_LABELS, labelAngle=0, **kw)


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
            text: str | None = None, text_format: str = ",d", cards: bool = False,
            legend: alt.Legend | None = None, diverging: bool = False, x_cards: bool = False
            ) -> alt.Chart | alt.LayerChart:
    """A grid of ``value`` for each (x, y) cell, y growing upwards; blank = no data.

    ``text`` writes that column (a count) in each cell, dark on light cells and light on
    dark ones, when the grid has at most :data:`CELL_TEXT_MAX` cells. ``cards`` labels
    both axes A, 2..10, J, Q, K (``x_cards`` the x axis only). ``diverging``: the colour
    scale is dark at both ends.
    """
    df, head = _capped(df, title, subtitle)
    if legend is None:
        legend = alt.Legend(format=value_format) if value_format else alt.Legend()
    names = df.schema.get(x) == pl.String
    x_axis = card_axis(labelOverlap=False) if cards or x_cards else alt.Axis(
        labelAngle=-40 if names else 0, labelOverlap=False)
    base = alt.Chart(df).encode(
        x=alt.X(f"{x}:O", title=x_title, axis=x_axis),
        y=alt.Y(f"{y}:O", title=y_title, sort="descending",
                axis=card_axis(labelOverlap=False) if cards else alt.Axis(labelOverlap=False)),
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
                 extra_tooltip: list | None = None, sort: list | None = None
                 ) -> alt.LayerChart:
    """Points at ``rate`` with 95% interval bars (ci_low..ci_high), each labelled with its
    count ``n`` (what the rate is out of) above the bar; ``sort`` orders the x values."""
    df, head = _capped(df, title, [*([subtitle] if isinstance(subtitle, str) else subtitle),
                                   f"number above = {n_title}"])
    xt = "O" if ordinal_x else "Q"
    tooltip = [alt.Tooltip(x, title=x_title), alt.Tooltip(rate, title=y_title, format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip(n, title=n_title, format=",d"), *(extra_tooltip or [])]
    base = alt.Chart(df).encode(x=alt.X(f"{x}:{xt}", title=x_title, sort=sort or "ascending",
                                        axis=alt.Axis(labelAngle=0)))
    rule = base.mark_rule(strokeWidth=2, color=BLUE).encode(
        y=alt.Y("ci_low:Q", title=y_title, axis=RATE), y2="ci_high:Q", tooltip=tooltip)
    dots = base.mark_point(filled=True, size=70, color=BLUE).encode(
        y=f"{rate}:Q", tooltip=tooltip)
    counts = base.mark_text(dy=-8, fontSize=10, color=NEUTRAL).encode(
        y="ci_high:Q", text=alt.Text(f"{n}:Q", format=".3~s"))
    return alt.layer(rule, dots, counts, title=alt.Title(**head))


def _direction(df: pl.DataFrame, column: str, above: str, below: str) -> pl.DataFrame:
    return df.with_columns(pl.when(pl.col(column) >= 0).then(pl.lit(above))
                           .otherwise(pl.lit(below)).alias("direction"))


def _zero() -> alt.Chart:
    return alt.Chart(pl.DataFrame({"y": [0]})).mark_rule(color=NEUTRAL).encode(y="y:Q")


# -- Session ---------------------------------------------------------------------------------

OUTCOMES = ["wins", "draws", "losses"]


def standings_chart(df: pl.DataFrame) -> alt.Chart:
    """Stacked wins, draws and losses per player, best first."""
    order = df["player"].to_list()
    long = df.select("player", *OUTCOMES).unpivot(
        index="player", variable_name="outcome", value_name="count")
    df_, head = _capped(long, "Wins, draws and losses", "finished games in view")
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar().encode(
        y=alt.Y("player:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
        x=alt.X("count:Q", title="games", stack="zero", axis=COUNT),
        color=alt.Color("outcome:N", title="outcome",
                        scale=alt.Scale(domain=OUTCOMES, range=[BLUE, NEUTRAL, VERMILLION]),
                        legend=alt.Legend(orient="bottom")),
        order=alt.Order("outcome_order:Q"),
        tooltip=["player", "outcome", alt.Tooltip("count", title="games")],
    ).transform_calculate(
        outcome_order="datum.outcome == 'wins' ? 0 : datum.outcome == 'draws' ? 1 : 2")


# -- Players -----------------------------------------------------------------------------

def bid_heatmap_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    with_n = df.with_columns(pl.col("count").sum().over("prize").alias("prize_bids"))
    return heatmap(
        with_n, "prize", "bid", "row_share", title=f"What {player} bids on each prize",
        subtitle=["share of the bids on that prize (each column adds up to 100%)",
                  "number in a cell = bids"],
        x_title="prize card", y_title="bid card", value_title="share of bids",
        value_format=".0%", text="count", cards=True,
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("bid", title="bid"),
                 alt.Tooltip("count", title="bids"),
                 alt.Tooltip("prize_bids", title="bids on this prize"),
                 alt.Tooltip("row_share", title="share of bids on this prize", format=".0%")])


def bid_minus_prize_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    return _minus_prize_chart(df, f"How far {player} bids above or below the prize",
                              "mean of bid - prize for each prize card; above 0 = overbids",
                              "mean bid - prize")


def _minus_prize_chart(df: pl.DataFrame, title: str, subtitle: str,
                       y_title: str) -> alt.LayerChart:
    """Bars of ``mean_diff`` (a mean bid against the prize) per prize, each with its count
    ``n`` (bids) above it."""
    df_, head = _capped(_direction(df, "mean_diff", "above the prize", "below the prize"),
                        title, [subtitle, "number above a bar = bids"])
    order = ["above the prize", "below the prize"]
    base = alt.Chart(df_).encode(x=alt.X("prize:O", title="prize card", axis=card_axis()))
    bar = base.mark_bar().encode(
        y=alt.Y("mean_diff:Q", title=y_title),
        color=alt.Color("direction:N", title="mean bid", sort=order,
                        scale=alt.Scale(domain=order, range=[BLUE, VERMILLION]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("prize", title="prize"),
                 alt.Tooltip("mean_diff", title=y_title, format="+.2f"),
                 alt.Tooltip("n", title="bids")])
    counts = base.mark_text(fontSize=10, color=NEUTRAL, baseline="bottom", dy=-2).encode(
        y=alt.Y("top:Q"), text=alt.Text("n:Q", format=".3~s")).transform_calculate(
        top="max(datum.mean_diff, 0)")
    return alt.layer(bar, _zero(), counts, title=alt.Title(**head))


def relative_bids_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    with_share = df.with_columns(
        (pl.col("count") / pl.col("count").sum().over("prize_rel_rank")).alias("row_share"))
    return heatmap(
        with_share, "prize_rel_rank", "bid_rel_rank", "row_share",
        title=f"{player}'s bids, relative to what was left",
        subtitle=["bid rank in hand against prize rank among prizes to come",
                  "1 = lowest fifth, 5 = highest fifth; each column adds up to 100%",
                  "number in a cell = bids"],
        x_title="prize rank among prizes still to come (fifths)",
        y_title="bid rank among cards in hand (fifths)", value_title="share of bids",
        value_format=".0%", text="count",
        tooltip=[alt.Tooltip("prize_rel_rank", title="prize rank fifth"),
                 alt.Tooltip("bid_rel_rank", title="bid rank fifth"),
                 alt.Tooltip("count", title="bids"),
                 alt.Tooltip("row_share", title="share of bids in this column", format=".0%")])


def habits_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """Each habit's rate by part of the game, its 95% interval, its count and the rate
    uniform play would give in the same bids (frame: bid_habits, with ``uniform``)."""
    labelled = df.with_columns(
        pl.col("habit").replace_strict(HABIT_LABELS, default=pl.col("habit")).alias("label"))
    df_, head = _capped(labelled, f"{player}'s habits, by part of the game",
                        ["dot = rate, bar = 95% interval, grey tick = uniform play,",
                         "number = bids where the habit was possible"])
    tooltip = [alt.Tooltip("label", title="habit"), alt.Tooltip("phase", title="phase"),
               alt.Tooltip("rate", title="rate", format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip("uniform", title="uniform play", format=".1%"),
               alt.Tooltip("k", title="times"), alt.Tooltip("n", title="out of")]
    base = alt.Chart(df_).encode(
        y=alt.Y("label:N", title=None, sort=list(HABIT_LABELS.values()),
                axis=alt.Axis(labelLimit=220)),
        yOffset=alt.YOffset("phase:N", sort=PHASE_ORDER),
        tooltip=tooltip)
    colour = alt.Color("phase:N", title="part of game", sort=PHASE_ORDER, scale=CATEGORIES,
                       legend=alt.Legend(orient="bottom"))
    rule = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="how often", axis=RATE, scale=alt.Scale(domain=[0, 1])),
        x2="ci_high:Q", color=colour)
    uniform = base.mark_tick(color=NEUTRAL, thickness=2, size=10).encode(x="uniform:Q")
    dots = base.mark_point(filled=True, size=60).encode(x="rate:Q", color=colour)
    counts = base.mark_text(align="left", dx=5, fontSize=9, color=NEUTRAL).encode(
        x="ci_high:Q", text=alt.Text("n:Q", format=".3~s"))
    return alt.layer(rule, uniform, dots, counts, title=alt.Title(**head)).properties(
        height=alt.Step(11))


def carry_effect_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    return rate_with_ci(
        df, "pool", title="Highest card left: pool or single prize?",
        subtitle=["how often the bid was the highest card left", "with its 95% interval"],
        x_title="what was on offer", y_title="bids of the highest card left",
        rate="rate_highest", n="n", n_title="bids",
        extra_tooltip=[alt.Tooltip("mean_bid_minus_prize", title="mean bid - prize",
                                   format="+.2f"),
                       alt.Tooltip("mean_pool_value", title="mean pool value", format=".1f")])


# -- Ties and pools -----------------------------------------------------------------------

def tie_rate_by_rule_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "tie_rule", title="Tied rounds by tie rule",
                        subtitle="share of rounds in which the highest bid was shared",
                        x_title="tie rule", y_title="tied rounds", n="rounds",
                        n_title="rounds",
                        extra_tooltip=[alt.Tooltip("ties", title="ties")])


def ties_by_round_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "round_no", title="Ties by round number",
                        subtitle="do players collide more at the start or the end of a game?",
                        x_title="round", y_title="tied rounds", n="rounds", n_title="rounds",
                        extra_tooltip=[alt.Tooltip("ties", title="ties")])


def tie_streaks_chart(df: pl.DataFrame) -> alt.Chart:
    return histogram(df, "streak_length", "streaks", title="Streaks of consecutive ties",
                     subtitle="a lone tie is a streak of 1; long streaks build big pools",
                     x_title="tied rounds in a row", y_title="streaks", log_y=True)


def pair_ties_chart(df: pl.DataFrame) -> alt.LayerChart:
    return heatmap(df, "opponent", "player", "rate", title="How often two players tie",
                   subtitle=["tied rounds between the two, out of the rounds they played "
                             "together", "number in a cell = rounds together"],
                   x_title="opponent", y_title="player", value_title="tie rate",
                   value_format=".0%", text="rounds", text_format=".3~s",
                   tooltip=[alt.Tooltip("player"), alt.Tooltip("opponent"),
                            alt.Tooltip("ties", title="ties"),
                            alt.Tooltip("rounds", title="rounds together"),
                            alt.Tooltip("rate", title="tie rate", format=".1%"),
                            alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
                            alt.Tooltip("ci_high", title="95% CI high", format=".1%")])


def pool_distribution_chart(df: pl.DataFrame) -> alt.LayerChart:
    top = df["rounds"].max() if df.height else 1
    ticks = [t for t in log_ticks(top) if t > 0]
    return heatmap(df, "pool_value", "pool_cards", "rounds",
                   title="How much was on offer each round",
                   subtitle="rounds by pool value and by the number of prize cards in the pool "
                            "(colour on a log scale)",
                   x_title="pool value (points)", y_title="prize cards in the pool",
                   value_title="rounds", scale=alt.Scale(type="log", scheme="blues"),
                   legend=alt.Legend(values=ticks, format=",d"),
                   tooltip=[alt.Tooltip("pool_value", title="pool value"),
                            alt.Tooltip("pool_cards", title="prize cards"),
                            alt.Tooltip("rounds", title="rounds", format=",d")])


def carried_chart(df: pl.DataFrame) -> alt.Chart:
    return histogram(df, "carried_value", "games", title="Carried value per game (carry rule)",
                     subtitle="points of prize cards carried over by ties, per game",
                     x_title="points carried over in the game", y_title="games")


def unclaimed_chart(df: pl.DataFrame) -> alt.Chart:
    return histogram(df, "unclaimed", "games", title="Unclaimed points per finished game",
                     subtitle="points nobody won: a tied last round, or ties under the "
                              "discard rule",
                     x_title="unclaimed points", y_title="games", log_y=True)


# -- the variants: bids of several cards, open prizes ---------------------------------------

def strength_heatmap_chart(df: pl.DataFrame, player: str, k: int) -> alt.LayerChart:
    """With bids of ``k`` cards: the share of each strength among the bids on a prize."""
    with_n = df.with_columns(pl.col("count").sum().over("prize").alias("prize_bids"))
    return heatmap(
        with_n, "prize", "strength", "row_share",
        title=f"How strong {player} bids on each prize (bids of {k} cards)",
        subtitle=["strength = the sum of the bid's cards; share of the bids on that prize "
                  "(each column adds up to 100%)", "number in a cell = bids"],
        x_title="prize card", y_title="strength of the bid", value_title="share of bids",
        value_format=".0%", text="count", x_cards=True,
        tooltip=[alt.Tooltip("prize", title="prize"),
                 alt.Tooltip("strength", title="strength"),
                 alt.Tooltip("count", title="bids"),
                 alt.Tooltip("prize_bids", title="bids on this prize"),
                 alt.Tooltip("row_share", title="share of bids on this prize", format=".0%")])


def strength_minus_prize_chart(df: pl.DataFrame, player: str, k: int) -> alt.LayerChart:
    """With bids of ``k`` cards: the bid's mean card (strength / k) against the prize."""
    diff = df.with_columns((pl.col("mean_card") - pl.col("prize")).alias("mean_diff"))
    return _minus_prize_chart(
        diff, f"{player}'s mean card against the prize (bids of {k} cards)",
        f"mean of strength / {k} - prize for each prize card; above 0 = a bid stronger "
        "than k cards of the prize's value", "mean card - prize")


def open_row_bids_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """With open prizes: the share of each bid against the best prize on offer."""
    with_n = df.with_columns(pl.col("count").sum().over("best_prize").alias("prize_bids"))
    return heatmap(
        with_n, "best_prize", "bid", "row_share",
        title=f"What {player} bids against the best prize on offer (open prizes)",
        subtitle=["the highest prize in the row after the top-up; share of the bids against "
                  "it (each column adds up to 100%)", "number in a cell = bids"],
        x_title="best prize in the row", y_title="bid card", value_title="share of bids",
        value_format=".0%", text="count", cards=True,
        tooltip=[alt.Tooltip("best_prize", title="best prize in the row"),
                 alt.Tooltip("bid", title="bid"), alt.Tooltip("count", title="bids"),
                 alt.Tooltip("prize_bids", title="bids against this best prize"),
                 alt.Tooltip("row_share", title="share", format=".0%")])


def row_choices_chart(df: pl.DataFrame, who: str) -> alt.LayerChart:
    """With open prizes: how often a winner takes the highest prize of the row, the lowest,
    or one between, with 95% intervals and the won rounds they are out of."""
    return rate_with_ci(
        df, "choice", title=f"Which prize of the row {who} takes (open prizes)",
        subtitle="won rounds whose row held two prizes or more; 95% intervals, the game "
                 "as the unit",
        x_title="prize taken", y_title="share of won rounds", n="rounds",
        n_title="won rounds with a choice", sort=df["choice"].to_list(),
        extra_tooltip=[alt.Tooltip("taken", title="rounds taking it", format=",d"),
                       alt.Tooltip("games", title="games", format=",d")])


# -- Head-to-head --------------------------------------------------------------------------

def h2h_chart(df: pl.DataFrame) -> alt.LayerChart:
    return heatmap(df, "opponent", "player", "score_share",
                   title="Head-to-head: each player's share of the wins against each opponent",
                   subtitle=["wins + half the draws, out of the finished games between the two",
                             "blue: the player (row) did better, red: worse; blank: never met",
                             "number in a cell = games played"],
                   x_title="opponent", y_title="player", value_title="score",
                   value_format=".0%", scale=alt.Scale(scheme="redblue", domain=[0, 1]),
                   text="games", diverging=True,
                   tooltip=[alt.Tooltip("player"), alt.Tooltip("opponent"),
                            alt.Tooltip("games", title="games"), alt.Tooltip("wins"),
                            alt.Tooltip("draws"), alt.Tooltip("losses"),
                            alt.Tooltip("score_share", title="score", format=".0%")])


# -- Data quality -----------------------------------------------------------------------------

def problems_chart(df: pl.DataFrame) -> alt.Chart:
    """Rejected records by problem code (frame: problem, records)."""
    df_, head = _capped(df, "Problems by kind", "rejected records with each problem code")
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar(color=VERMILLION).encode(
        y=alt.Y("problem:N", sort="-x", title=None, axis=alt.Axis(labelLimit=200)),
        x=alt.X("records:Q", title="records", axis=COUNT),
        tooltip=[alt.Tooltip("problem", title="problem code"), alt.Tooltip("records")])


# -- Game viewer ----------------------------------------------------------------------------

def running_score_chart(rounds: pl.DataFrame) -> alt.Chart:
    """Each player's running score by round (long frame: round_no, player, score)."""
    df, head = _capped(rounds, "Running score", "points after each round")
    return alt.Chart(df, title=alt.Title(**head)).mark_line(point=True).encode(
        x=alt.X("round_no:O", title="round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("score:Q", title="points", axis=COUNT),
        color=alt.Color("player:N", title="player", scale=CATEGORIES),
        strokeDash=alt.StrokeDash("player:N", title="player"),
        tooltip=[alt.Tooltip("round_no", title="round"), "player",
                 alt.Tooltip("score", title="points so far")])


def game_bids_chart(bids: pl.DataFrame) -> alt.LayerChart:
    """Each player's bid per round over the prize and the pool (long frame: round_no, prize,
    pool_value, player, bid, won)."""
    df, head = _capped(bids, "Bids against the prize and the pool",
                       ["pale bar = pool on offer, dark bar = the round's prize",
                        "filled mark = the bid that took the pool"])
    x = alt.X("round_no:O", title="round", axis=alt.Axis(labelAngle=0))
    offer = ["pool on offer", "prize of the round"]
    rounds = alt.Chart(df).transform_aggregate(
        pool_value="max(pool_value)", prize="max(prize)", groupby=["round_no"]).transform_fold(
        ["pool_value", "prize"], as_=["kind", "value"]).transform_calculate(
        what=f"datum.kind == 'pool_value' ? '{offer[0]}' : '{offer[1]}'")
    bars = rounds.mark_bar(color=NEUTRAL).encode(
        x=x, y=alt.Y("value:Q", title="card value / points", axis=COUNT, stack=None),
        opacity=alt.Opacity("what:N", title="on offer", sort=offer,
                            scale=alt.Scale(domain=offer, range=[0.3, 0.85])),
        order=alt.Order("kind:N"),
        tooltip=[alt.Tooltip("round_no", title="round"), alt.Tooltip("what:N", title="what"),
                 alt.Tooltip("value:Q", title="value")])
    players = alt.Color("player:N", title="player", scale=CATEGORIES)
    dots = alt.Chart(df).mark_point(size=110, strokeWidth=2).encode(
        x=x, y="bid:Q", color=players, shape=alt.Shape("player:N", title="player"),
        fill=alt.Fill("player:N", scale=CATEGORIES, legend=None),
        fillOpacity=alt.condition("datum.won", alt.value(1), alt.value(0)),
        tooltip=[alt.Tooltip("round_no", title="round"), "player", "bid",
                 alt.Tooltip("prize", title="prize"), alt.Tooltip("won", title="took the pool")])
    return alt.layer(bars, dots, title=alt.Title(**head))


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


# -- Scout -------------------------------------------------------------------------------------

def predictability_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    """The model's hit rates against uniform guessing (frame: measure, guesser, rate)."""
    df_, head = _capped(df, "How often the model names the bid",
                        [f"{player}'s bids in games the model was not fitted on,",
                         "against a uniform guess among the cards in hand"])
    order = ["the model", "a uniform guess"]
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar().encode(
        x=alt.X("measure:N", title=None, sort=["exact bid", "bid within one"],
                axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("guesser:N", sort=order),
        y=alt.Y("rate:Q", title="share of bids", axis=RATE, scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("guesser:N", title="guessed by", sort=order,
                        scale=alt.Scale(domain=order, range=[BLUE, NEUTRAL])),
        tooltip=[alt.Tooltip("measure", title="measure"), alt.Tooltip("guesser", title="by"),
                 alt.Tooltip("rate", title="share of bids", format=".1%")],
    ).properties(height=260)


def scout_habits_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """Each habit's rate with its 95% interval and the rate uniform play would give
    (frame: habit, rate, count, ci_low, ci_high, uniform)."""
    df_, head = _capped(df, f"{player}'s habits against uniform play",
                        ["dot = how often, bar = 95% interval, grey tick = uniform play"])
    order = df_["habit"].to_list()
    tooltip = [alt.Tooltip("habit", title="habit"),
               alt.Tooltip("rate", title="rate", format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip("count", title="out of"),
               alt.Tooltip("uniform", title="uniform play", format=".1%")]
    base = alt.Chart(df_).encode(
        y=alt.Y("habit:N", title=None, sort=order, axis=alt.Axis(labelLimit=420)),
        tooltip=tooltip)
    rule = base.mark_rule(strokeWidth=2, color=BLUE).encode(
        x=alt.X("ci_low:Q", title="how often",
                axis=alt.Axis(format="%", values=[i / 10 for i in range(11)]),
                scale=alt.Scale(domain=[0, 1], padding=8, nice=False)),
        x2="ci_high:Q")
    dots = base.mark_point(filled=True, size=70, color=BLUE).encode(x="rate:Q")
    uniform = base.mark_tick(color=NEUTRAL, thickness=2, size=18).encode(x="uniform:Q")
    return alt.layer(rule, uniform, dots, title=alt.Title(**head)).properties(
        height=alt.Step(30))


def gain_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """Mean points per game against the model, with a 95% interval (frame: reply, gain,
    low, high, games)."""
    df_, head = _capped(_direction(df, "gain", "you gain", "you lose"),
                        f"Points per game against {player}, simulated",
                        ["your score minus theirs, mean over the simulated games",
                         "grey bar = 95% interval"])
    order = df_["reply"].to_list()
    tooltip = [alt.Tooltip("reply", title="your reply"),
               alt.Tooltip("gain", title="points per game", format="+.1f"),
               alt.Tooltip("low", title="95% CI low", format="+.1f"),
               alt.Tooltip("high", title="95% CI high", format="+.1f"),
               alt.Tooltip("games", title="simulated games")]
    base = alt.Chart(df_).encode(
        x=alt.X("reply:N", title=None, sort=order, axis=alt.Axis(labelAngle=0, labelLimit=240)),
        tooltip=tooltip)
    signs = ["you gain", "you lose"]
    bar = base.mark_bar(size=60, opacity=0.85).encode(
        y=alt.Y("gain:Q", title="points per game (you - them)"),
        color=alt.Color("direction:N", title="on average", sort=signs,
                        scale=alt.Scale(domain=signs, range=[BLUE, VERMILLION]),
                        legend=alt.Legend(orient="bottom")))
    rule = base.mark_rule(strokeWidth=3, color=NEUTRAL).encode(y="low:Q", y2="high:Q")
    return alt.layer(bar, rule, _zero(), title=alt.Title(**head))


def predicted_bid_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    """The model's bid distribution for each prize (frame: prize, bid, probability)."""
    return heatmap(
        df, "prize", "bid", "probability", title=f"What the model expects {player} to bid",
        subtitle=["the model's chance of each bid on each prize, averaged over the spots "
                  "they met", "each column adds up to 100%"],
        x_title="prize card", y_title="bid card", value_title="chance",
        value_format=".0%", cards=True,
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("bid", title="bid"),
                 alt.Tooltip("probability", title="chance", format=".1%")])


def expected_bid_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    """Expected and most likely bid per prize, beside the prize itself
    (long frame: prize, line, bid)."""
    df_, head = _capped(df, f"{player}'s predicted bid by prize",
                        "the model's mean and most likely bid; dashed: the prize itself")
    order = ["expected bid", "most likely bid", "the prize"]
    return alt.Chart(df_, title=alt.Title(**head)).mark_line(point=True).encode(
        x=alt.X("prize:O", title="prize card", axis=card_axis()),
        y=alt.Y("bid:Q", title="bid card", axis=card_axis()),
        color=alt.Color("line:N", title="line", sort=order,
                        scale=alt.Scale(domain=order, range=[BLUE, VERMILLION, NEUTRAL]),
                        legend=alt.Legend(orient="bottom")),
        # The same field and title as the colour: Vega-Lite draws one legend for both.
        strokeDash=alt.StrokeDash("line:N", title="line", sort=order,
                                  scale=alt.Scale(domain=order, range=[[1, 0], [1, 0], [4, 4]]),
                                  legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("line", title="what"),
                 alt.Tooltip("bid", title="bid", format=".2f")])
