"""Altair chart builders for the dashboard: each chart has a title, axis labels and tooltips.

Builders take the small, already aggregated polars frames of ``gops_records.analytics``.
No chart is sent more than :data:`MAX_ROWS` rows: a larger frame is cut and the chart's
subtitle says so (the analytics aggregate first, so this is a safety net, not a feature).
"""

from __future__ import annotations

import altair as alt
import polars as pl

MAX_ROWS = 3_000
RATE = alt.Axis(format="%")
HABIT_LABELS = {
    "exact_prize": "bids exactly the prize",
    "prize_plus_one": "bids prize + 1",
    "highest_remaining": "bids highest card left",
    "lowest_remaining": "bids lowest card left",
}
PHASE_ORDER = ["early", "middle", "late", "all"]
#: Distinct colours for categories (Streamlit's default palette has two similar blues).
CATEGORIES = alt.Scale(scheme="tableau10")


def _capped(df: pl.DataFrame, title: str, subtitle: str | list[str] = ""
            ) -> tuple[pl.DataFrame, dict]:
    """The frame cut to MAX_ROWS rows, and the chart title (noting the cut)."""
    notes = [subtitle] if isinstance(subtitle, str) else list(subtitle)
    notes = [n for n in notes if n]
    if df.height > MAX_ROWS:
        notes.append(f"first {MAX_ROWS:,} of {df.height:,} rows shown")
        df = df.head(MAX_ROWS)
    params = {"text": title, "anchor": "start"}
    if notes:
        params["subtitle"] = notes
    return df, params


def bars(df: pl.DataFrame, x: str, y: str, *, title: str, x_title: str, y_title: str,
         subtitle: str | list[str] = "", tooltip: list | None = None, ordinal_x: bool = True,
         color: str | None = None, color_title: str = "", log_y: bool = False) -> alt.Chart:
    """A bar chart of ``y`` per ``x`` (stacked by ``color`` if given).

    ``log_y`` uses a symmetric log scale, so rare values stay visible next to common ones.
    """
    df, head = _capped(df, title, subtitle)
    enc = {
        "x": alt.X(f"{x}:{'O' if ordinal_x else 'Q'}", title=x_title, axis=alt.Axis(labelAngle=0)),
        "y": alt.Y(f"{y}:Q", title=f"{y_title} (log scale)" if log_y else y_title,
                   scale=alt.Scale(type="symlog") if log_y else alt.Undefined),
        "tooltip": tooltip or [alt.Tooltip(x, title=x_title), alt.Tooltip(y, title=y_title)],
    }
    if color:
        enc["color"] = alt.Color(f"{color}:O", title=color_title or color,
                                 scale=alt.Scale(scheme="viridis"))
    return alt.Chart(df, title=alt.Title(**head)).mark_bar().encode(**enc)


def heatmap(df: pl.DataFrame, x: str, y: str, value: str, *, title: str, x_title: str,
            y_title: str, value_title: str, subtitle: str | list[str] = "", value_format: str = "",
            tooltip: list | None = None, scale: alt.Scale | None = None) -> alt.Chart:
    """A grid of ``value`` for each (x, y) cell, y growing upwards; blank = no data."""
    df, head = _capped(df, title, subtitle)
    legend = alt.Legend(format=value_format) if value_format else alt.Legend()
    names = df.schema.get(x) == pl.String
    return alt.Chart(df, title=alt.Title(**head)).mark_rect().encode(
        x=alt.X(f"{x}:O", title=x_title,
                axis=alt.Axis(labelAngle=-40 if names else 0, labelOverlap=False)),
        y=alt.Y(f"{y}:O", title=y_title, sort="descending", axis=alt.Axis(labelOverlap=False)),
        color=alt.Color(f"{value}:Q", title=value_title,
                        scale=scale or alt.Scale(scheme="blues"), legend=legend),
        tooltip=tooltip or [x, y, value],
    )


def rate_with_ci(df: pl.DataFrame, x: str, *, title: str, x_title: str, y_title: str,
                 subtitle: str | list[str] = "", ordinal_x: bool = True, rate: str = "rate",
                 extra_tooltip: list | None = None) -> alt.LayerChart:
    """Points at ``rate`` with 95% interval bars (ci_low..ci_high); tooltips give k and n."""
    df, head = _capped(df, title, subtitle)
    xt = "O" if ordinal_x else "Q"
    tooltip = [alt.Tooltip(x, title=x_title), alt.Tooltip(rate, title=y_title, format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               *(extra_tooltip or [])]
    base = alt.Chart(df).encode(x=alt.X(f"{x}:{xt}", title=x_title,
                                        axis=alt.Axis(labelAngle=0)))
    rule = base.mark_rule(strokeWidth=2).encode(
        y=alt.Y("ci_low:Q", title=y_title, axis=RATE), y2="ci_high:Q", tooltip=tooltip)
    dots = base.mark_point(filled=True, size=70).encode(y=f"{rate}:Q", tooltip=tooltip)
    return alt.layer(rule, dots, title=alt.Title(**head))


# -- Session ---------------------------------------------------------------------------------

def standings_chart(df: pl.DataFrame) -> alt.Chart:
    """Stacked wins, draws and losses per player, best first."""
    order = df["player"].to_list()
    long = df.select("player", "wins", "draws", "losses").unpivot(
        index="player", variable_name="outcome", value_name="count")
    df_, head = _capped(long, "Wins, draws and losses", "finished games in the filtered view")
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar().encode(
        y=alt.Y("player:N", sort=order, title=None),
        x=alt.X("count:Q", title="games", stack="zero"),
        color=alt.Color("outcome:N", title="outcome",
                        scale=alt.Scale(domain=["wins", "draws", "losses"],
                                        range=["#2ca02c", "#bbbbbb", "#d62728"])),
        order=alt.Order("outcome_order:Q"),
        tooltip=["player", "outcome", alt.Tooltip("count", title="games")],
    ).transform_calculate(
        outcome_order="datum.outcome == 'wins' ? 0 : datum.outcome == 'draws' ? 1 : 2")


# -- Players -----------------------------------------------------------------------------

def bid_heatmap_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    return heatmap(
        df, "prize", "bid", "row_share", title=f"What {player} bids on each prize",
        subtitle="share of the bids on that prize (each column adds up to 100%)",
        x_title="prize card", y_title="bid card", value_title="share of bids",
        value_format=".0%",
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("bid", title="bid"),
                 alt.Tooltip("count", title="bids"),
                 alt.Tooltip("row_share", title="share of bids on this prize", format=".0%")])


def bid_minus_prize_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    df_, head = _capped(df, f"How far {player} bids above or below the prize",
                        "mean of bid - prize for each prize card; above 0 = overbids")
    base = alt.Chart(df_)
    bar = base.mark_bar().encode(
        x=alt.X("prize:O", title="prize card", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("mean_diff:Q", title="mean bid - prize"),
        color=alt.condition("datum.mean_diff >= 0", alt.value("#4c78a8"), alt.value("#e45756")),
        tooltip=[alt.Tooltip("prize", title="prize"),
                 alt.Tooltip("mean_diff", title="mean bid - prize", format="+.2f"),
                 alt.Tooltip("n", title="bids")])
    zero = alt.Chart(pl.DataFrame({"y": [0]})).mark_rule(color="gray").encode(y="y:Q")
    return alt.layer(bar, zero, title=alt.Title(**head))


def relative_bids_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    with_share = df.with_columns(
        (pl.col("count") / pl.col("count").sum().over("prize_rel_rank")).alias("row_share"))
    return heatmap(
        with_share, "prize_rel_rank", "bid_rel_rank", "row_share",
        title=f"{player}'s bids, relative to what was left",
        subtitle=["bid rank in hand against prize rank among prizes to come",
                  "1 = lowest fifth, 5 = highest fifth; each column adds up to 100%"],
        x_title="prize rank among prizes still to come (fifths)",
        y_title="bid rank among cards in hand (fifths)", value_title="share of bids",
        value_format=".0%",
        tooltip=[alt.Tooltip("prize_rel_rank", title="prize rank fifth"),
                 alt.Tooltip("bid_rel_rank", title="bid rank fifth"),
                 alt.Tooltip("count", title="bids"),
                 alt.Tooltip("row_share", title="share of bids in this column", format=".0%")])


def habits_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    labelled = df.with_columns(
        pl.col("habit").replace_strict(HABIT_LABELS, default=pl.col("habit")).alias("label"))
    df_, head = _capped(labelled, f"{player}'s habits, by part of the game",
                        ["point = rate, bar = 95% interval",
                         "out of the bids where the habit was possible"])
    tooltip = [alt.Tooltip("label", title="habit"), alt.Tooltip("phase", title="phase"),
               alt.Tooltip("rate", title="rate", format=".1%"),
               alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
               alt.Tooltip("ci_high", title="95% CI high", format=".1%"),
               alt.Tooltip("k", title="times"), alt.Tooltip("n", title="out of")]
    base = alt.Chart(df_).encode(
        y=alt.Y("label:N", title=None, sort=list(HABIT_LABELS.values()),
                axis=alt.Axis(labelLimit=220)),
        yOffset=alt.YOffset("phase:N", sort=PHASE_ORDER),
        color=alt.Color("phase:N", title="part of game", sort=PHASE_ORDER, scale=CATEGORIES),
        tooltip=tooltip)
    rule = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="how often", axis=RATE, scale=alt.Scale(domain=[0, 1])),
        x2="ci_high:Q")
    dots = base.mark_point(filled=True, size=60).encode(x="rate:Q")
    return alt.layer(rule, dots, title=alt.Title(**head)).properties(height=320)


def carry_effect_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    return rate_with_ci(
        df, "pool", title="Highest card left: pool or single prize?",
        subtitle=["how often the bid was the highest card left", "with its 95% interval"],
        x_title="what was on offer", y_title="bids of the highest card left",
        rate="rate_highest",
        extra_tooltip=[alt.Tooltip("n", title="bids"),
                       alt.Tooltip("mean_bid_minus_prize", title="mean bid - prize",
                                   format="+.2f"),
                       alt.Tooltip("mean_pool_value", title="mean pool value", format=".1f")])


# -- Ties and pools -----------------------------------------------------------------------

def tie_rate_by_rule_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "tie_rule", title="Tied rounds by tie rule",
                        subtitle="share of rounds in which the highest bid was shared",
                        x_title="tie rule", y_title="tied rounds",
                        extra_tooltip=[alt.Tooltip("ties", title="ties"),
                                       alt.Tooltip("rounds", title="rounds")])


def ties_by_round_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "round_no", title="Ties by round number",
                        subtitle="do players collide more at the start or the end of a game?",
                        x_title="round", y_title="tied rounds",
                        extra_tooltip=[alt.Tooltip("ties", title="ties"),
                                       alt.Tooltip("rounds", title="rounds")])


def tie_streaks_chart(df: pl.DataFrame) -> alt.Chart:
    return bars(df, "streak_length", "streaks", title="Streaks of consecutive ties",
                subtitle="a lone tie is a streak of 1; long streaks build big pools",
                x_title="tied rounds in a row", y_title="streaks")


def pair_ties_chart(df: pl.DataFrame) -> alt.Chart:
    return heatmap(df, "opponent", "player", "rate", title="How often two players tie",
                   subtitle="tied rounds between the two, out of the rounds they played together",
                   x_title="opponent", y_title="player", value_title="tie rate",
                   value_format=".0%",
                   tooltip=[alt.Tooltip("player"), alt.Tooltip("opponent"),
                            alt.Tooltip("ties", title="ties"),
                            alt.Tooltip("rounds", title="rounds together"),
                            alt.Tooltip("rate", title="tie rate", format=".1%"),
                            alt.Tooltip("ci_low", title="95% CI low", format=".1%"),
                            alt.Tooltip("ci_high", title="95% CI high", format=".1%")])


def pool_distribution_chart(df: pl.DataFrame) -> alt.Chart:
    return heatmap(df, "pool_value", "pool_cards", "rounds",
                   title="How much was on offer each round",
                   subtitle="rounds by pool value and by the number of prize cards in the pool "
                            "(colour on a log scale)",
                   x_title="pool value (points)", y_title="prize cards in the pool",
                   value_title="rounds", scale=alt.Scale(type="log", scheme="blues"),
                   tooltip=[alt.Tooltip("pool_value", title="pool value"),
                            alt.Tooltip("pool_cards", title="prize cards"),
                            alt.Tooltip("rounds", title="rounds")])


def carried_chart(df: pl.DataFrame) -> alt.Chart:
    return bars(df, "carried_value", "games", title="Carried value per game (carry rule)",
                subtitle="points of prize cards carried over by ties, per game",
                x_title="points carried over in the game", y_title="games")


def unclaimed_chart(df: pl.DataFrame) -> alt.Chart:
    return bars(df, "unclaimed", "games", title="Unclaimed points per finished game",
                subtitle="points nobody won: a tied last round, or ties under the discard rule",
                x_title="unclaimed points", y_title="games", log_y=True)


# -- Head-to-head --------------------------------------------------------------------------

def h2h_chart(df: pl.DataFrame) -> alt.Chart:
    return heatmap(df, "opponent", "player", "score_share",
                   title="Head-to-head: each player's share of the wins against each opponent",
                   subtitle=["wins + half the draws, out of the finished games between the two",
                             "blue: the player (row) did better; blank: never met"],
                   x_title="opponent", y_title="player", value_title="score",
                   value_format=".0%", scale=alt.Scale(scheme="redblue", domain=[0, 1]),
                   tooltip=[alt.Tooltip("player"), alt.Tooltip("opponent"),
                            alt.Tooltip("games", title="games"), alt.Tooltip("wins"),
                            alt.Tooltip("draws"), alt.Tooltip("losses"),
                            alt.Tooltip("score_share", title="score", format=".0%")])


# -- Data quality -----------------------------------------------------------------------------

def problems_chart(df: pl.DataFrame) -> alt.Chart:
    """Rejected records by problem code (frame: problem, records)."""
    df_, head = _capped(df, "Problems by kind", "rejected records with each problem code")
    return alt.Chart(df_, title=alt.Title(**head)).mark_bar(color="#e45756").encode(
        y=alt.Y("problem:N", sort="-x", title=None, axis=alt.Axis(labelLimit=200)),
        x=alt.X("records:Q", title="records", axis=alt.Axis(tickMinStep=1)),
        tooltip=[alt.Tooltip("problem", title="problem code"), alt.Tooltip("records")])


# -- Game viewer ----------------------------------------------------------------------------

def running_score_chart(rounds: pl.DataFrame) -> alt.Chart:
    """Each player's running score by round (long frame: round_no, player, score)."""
    df, head = _capped(rounds, "Running score", "points after each round")
    return alt.Chart(df, title=alt.Title(**head)).mark_line(point=True).encode(
        x=alt.X("round_no:O", title="round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("score:Q", title="points"),
        color=alt.Color("player:N", title="player", scale=CATEGORIES),
        tooltip=[alt.Tooltip("round_no", title="round"), "player",
                 alt.Tooltip("score", title="points so far")])


def game_bids_chart(bids: pl.DataFrame) -> alt.LayerChart:
    """Each player's bid per round over the prize and the pool (long frame: round_no, prize,
    pool_value, player, bid, won)."""
    df, head = _capped(bids, "Bids against the prize and the pool",
                       ["grey bar = pool on offer, dark part = this round's prize",
                        "filled dot = the bid that took the pool"])
    x = alt.X("round_no:O", title="round", axis=alt.Axis(labelAngle=0))
    rounds = alt.Chart(df).transform_aggregate(
        pool_value="max(pool_value)", prize="max(prize)", groupby=["round_no"]).encode(x=x)
    tip = [alt.Tooltip("round_no", title="round"), alt.Tooltip("prize", title="prize"),
           alt.Tooltip("pool_value", title="pool value")]
    pool = rounds.mark_bar(color="#dddddd").encode(
        y=alt.Y("pool_value:Q", title="card value / points"), tooltip=tip)
    prize = rounds.mark_bar(color="#aaaaaa", width=alt.RelativeBandSize(0.4)).encode(
        y="prize:Q", tooltip=tip)
    colour = alt.Color("player:N", title="player", scale=CATEGORIES)
    dots = alt.Chart(df).mark_point(size=110, strokeWidth=2).encode(
        x=x, y="bid:Q", color=colour, shape=alt.Shape("player:N", title="player"),
        fill=alt.condition("datum.won", colour, alt.value("white")),
        tooltip=[alt.Tooltip("round_no", title="round"), "player", "bid",
                 alt.Tooltip("prize", title="prize"), alt.Tooltip("won", title="took the pool")])
    return alt.layer(pool, prize, dots, title=alt.Title(**head))


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
                        scale=alt.Scale(domain=order, range=["#4c78a8", "#bbbbbb"])),
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
    rule = base.mark_rule(strokeWidth=2, color="#4c78a8").encode(
        x=alt.X("ci_low:Q", title="how often",
                axis=alt.Axis(format="%", values=[i / 10 for i in range(11)]),
                scale=alt.Scale(domain=[0, 1], padding=8, nice=False)),
        x2="ci_high:Q")
    dots = base.mark_point(filled=True, size=70, color="#4c78a8").encode(x="rate:Q")
    uniform = base.mark_tick(color="#888888", thickness=2, size=18).encode(x="uniform:Q")
    return alt.layer(rule, uniform, dots, title=alt.Title(**head)).properties(
        height=alt.Step(30))


def gain_chart(df: pl.DataFrame, player: str) -> alt.LayerChart:
    """Mean points per game against the model, with a 95% interval (frame: reply, gain,
    low, high, games)."""
    df_, head = _capped(df, f"Points per game against {player}, simulated",
                        ["your score minus theirs, mean over the simulated games",
                         "black bar = 95% interval"])
    order = df_["reply"].to_list()
    tooltip = [alt.Tooltip("reply", title="your reply"),
               alt.Tooltip("gain", title="points per game", format="+.1f"),
               alt.Tooltip("low", title="95% CI low", format="+.1f"),
               alt.Tooltip("high", title="95% CI high", format="+.1f"),
               alt.Tooltip("games", title="simulated games")]
    base = alt.Chart(df_).encode(
        x=alt.X("reply:N", title=None, sort=order, axis=alt.Axis(labelAngle=0, labelLimit=240)),
        tooltip=tooltip)
    bar = base.mark_bar(size=60).encode(
        y=alt.Y("gain:Q", title="points per game (you - them)"),
        color=alt.condition("datum.gain >= 0", alt.value("#4c78a8"), alt.value("#e45756")))
    rule = base.mark_rule(strokeWidth=2, color="black").encode(y="low:Q", y2="high:Q")
    zero = alt.Chart(pl.DataFrame({"y": [0]})).mark_rule(color="gray").encode(y="y:Q")
    return alt.layer(bar, rule, zero, title=alt.Title(**head))


def predicted_bid_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    """The model's bid distribution for each prize (frame: prize, bid, probability)."""
    return heatmap(
        df, "prize", "bid", "probability", title=f"What the model expects {player} to bid",
        subtitle=["the model's chance of each bid on each prize, averaged over the spots "
                  "they met", "each column adds up to 100%"],
        x_title="prize card", y_title="bid card", value_title="chance",
        value_format=".0%",
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("bid", title="bid"),
                 alt.Tooltip("probability", title="chance", format=".1%")])


def expected_bid_chart(df: pl.DataFrame, player: str) -> alt.Chart:
    """Expected and most likely bid per prize, beside the prize itself
    (long frame: prize, line, bid)."""
    df_, head = _capped(df, f"{player}'s predicted bid by prize",
                        "the model's mean and most likely bid; dashed: the prize itself")
    order = ["expected bid", "most likely bid", "the prize"]
    return alt.Chart(df_, title=alt.Title(**head)).mark_line(point=True).encode(
        x=alt.X("prize:O", title="prize card", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("bid:Q", title="bid card"),
        color=alt.Color("line:N", title=None, sort=order,
                        scale=alt.Scale(domain=order, range=["#4c78a8", "#f58518", "#999999"])),
        strokeDash=alt.StrokeDash("line:N", sort=order, legend=None,
                                  scale=alt.Scale(domain=order, range=[[1, 0], [1, 0], [4, 4]])),
        tooltip=[alt.Tooltip("prize", title="prize"), alt.Tooltip("line", title="what"),
                 alt.Tooltip("bid", title="bid", format=".2f")])
