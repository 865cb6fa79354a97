"""Altair charts of the Gops pages, on the small frames of ``gops_records.games.gops.analytics``
and of the scouting reports.

They follow :mod:`gops_records.dashboards.charts` (titles, axis titles, tooltips, the
Okabe-Ito palette, every rate with its count, no more than ``MAX_ROWS`` rows) and use its
builders; card ranks on an axis read A, 2..10, J, Q, K (:func:`card_axis`).
"""

from __future__ import annotations

import textwrap

import altair as alt
import polars as pl
from gops_records.dashboards.charts import (
    BLUE,
    CATEGORIES,
    COUNT,
    NEUTRAL,
    RATE,
    VERMILLION,
    _capped,
    heatmap,
    histogram,
    log_ticks,
    rate_with_ci,
)

from gops_records.games.gops.cards import MAX_RANK, rank_name

HABIT_LABELS = {
    "exact_prize": "bids exactly the prize",
    "prize_plus_one": "bids prize + 1",
    "highest_remaining": "bids highest card left",
    "lowest_remaining": "bids lowest card left",
}
PHASE_ORDER = ["early", "middle", "late", "all"]
#: Cards as players name them on an axis: A, 2..10, J, Q, K.
CARD_LABELS = " : ".join(f"datum.value == {r} ? '{rank_name(r)}'"
                         for r in range(1, MAX_RANK + 1) if rank_name(r) != str(r)) \
    + " : datum.label"


def card_axis(**kw) -> alt.Axis:
    """An axis of card ranks labelled A, 2..10, J, Q, K."""
    return alt.Axis(labelExpr=CARD_LABELS, labelAngle=0, **kw)


def card_axes() -> dict[str, alt.Axis]:
    """Both axes of a :func:`~gops_records.dashboards.charts.heatmap` of card ranks."""
    return {"x_axis": card_axis(labelOverlap=False), "y_axis": card_axis(labelOverlap=False)}


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
        value_format=".0%", text="count", **card_axes(),
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


def name_grid_axes(value_format: str = ".0%") -> dict:
    """Axes and legend of a grid of players against players: the opponents' names upright
    and the legend below, so that 17 names side by side fit a 390 px phone (sloped, each
    ran into the next)."""
    return {"x_axis": alt.Axis(labelAngle=-90, labelLimit=110, labelOverlap=False),
            "y_axis": alt.Axis(labelLimit=110, labelOverlap=False),
            "legend": alt.Legend(format=value_format, orient="bottom")}


def pair_ties_chart(df: pl.DataFrame) -> alt.LayerChart:
    return heatmap(df, "opponent", "player", "rate", title="How often two players tie",
                   subtitle=["tied rounds between the two, out of the rounds they played "
                             "together", "number in a cell = rounds together"],
                   x_title="opponent", y_title="player", value_title="tie rate",
                   value_format=".0%", text="rounds", text_format=".3~s",
                   **name_grid_axes(),
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
        value_format=".0%", text="count", x_axis=card_axis(labelOverlap=False),
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
        value_format=".0%", text="count", **card_axes(),
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
                   text="games", diverging=True, **name_grid_axes(),
                   tooltip=[alt.Tooltip("player"), alt.Tooltip("opponent"),
                            alt.Tooltip("games", title="games"), alt.Tooltip("wins"),
                            alt.Tooltip("draws"), alt.Tooltip("losses"),
                            alt.Tooltip("score_share", title="score", format=".0%")])

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
                            scale=alt.Scale(domain=offer, range=[0.3, 0.85]),
                            # the subtitle says which bar is which; a second legend
                            # beside the players' pushed their names off the chart
                            legend=None),
        order=alt.Order("kind:N"),
        tooltip=[alt.Tooltip("round_no", title="round"), alt.Tooltip("what:N", title="what"),
                 alt.Tooltip("value:Q", title="value")])
    # Colour, shape and fill share field and title: Vega-Lite draws one legend of the
    # players for the three (a legend=None on one of them took the players' legend away).
    legend = alt.Legend(orient="bottom")
    players = alt.Color("player:N", title="player", scale=CATEGORIES, legend=legend)
    dots = alt.Chart(df).mark_point(size=110, strokeWidth=2).encode(
        x=x, y="bid:Q", color=players,
        shape=alt.Shape("player:N", title="player", legend=legend),
        fill=alt.Fill("player:N", scale=CATEGORIES, title="player", legend=legend),
        fillOpacity=alt.condition("datum.won", alt.value(1), alt.value(0)),
        tooltip=[alt.Tooltip("round_no", title="round"), "player", "bid",
                 alt.Tooltip("prize", title="prize"), alt.Tooltip("won", title="took the pool")])
    return alt.layer(bars, dots, title=alt.Title(**head))


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


#: The longest line of a habit's label on the Scout chart, in characters (about 170 px).
HABIT_LINE = 32


def scout_habits_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """Each habit's rate with its 95% interval and the rate uniform play would give
    (frame: habit, rate, count, ci_low, ci_high, uniform)."""
    df_, head = _capped(df, f"{player}'s habits against uniform play",
                        ["dot = how often, bar = 95% interval, grey tick = uniform play"])
    # Each habit written on lines of HABIT_LINE characters: in one line the longest took
    # the whole width of a 390 px phone and left no room for the dots.
    wrapped = ["\n".join(textwrap.wrap(h, HABIT_LINE)) for h in df_["habit"]]
    df_ = df_.with_columns(pl.Series("label", wrapped, dtype=pl.String))
    order = wrapped
    lines = max((w.count("\n") + 1 for w in wrapped), default=1)
    tooltip = [alt.Tooltip("habit", title="habit"),
               alt.Tooltip("rate", title="rate", format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip("count", title="out of"),
               alt.Tooltip("uniform", title="uniform play", format=".1%")]
    base = alt.Chart(df_).encode(
        y=alt.Y("label:N", title=None, sort=order,
                axis=alt.Axis(labelLimit=420, labelExpr="split(datum.label, '\\n')")),
        tooltip=tooltip)
    rule = base.mark_rule(strokeWidth=2, color=BLUE).encode(
        x=alt.X("ci_low:Q", title="how often",
                axis=alt.Axis(format="%", values=[i / 10 for i in range(11)]),
                scale=alt.Scale(domain=[0, 1], padding=8, nice=False)),
        x2="ci_high:Q")
    dots = base.mark_point(filled=True, size=70, color=BLUE).encode(x="rate:Q")
    uniform = base.mark_tick(color=NEUTRAL, thickness=2, size=18).encode(x="uniform:Q")
    return alt.layer(rule, uniform, dots, title=alt.Title(**head)).properties(
        height=alt.Step(max(30, 13 * lines + 10)))


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
        value_format=".0%", **card_axes(),
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
