"""Altair charts of the Gin Rummy pages, on the small frames of
``gops_records.games.gin.analytics``.

They follow :mod:`gops_records.dashboards.charts` (titles, axis titles, tooltips, the
Okabe-Ito palette, every rate with its count, no more than ``MAX_ROWS`` rows) and use its
builders where one fits (rates with intervals, histograms, heatmaps).
"""

from __future__ import annotations

import altair as alt
import polars as pl
from gops_records.dashboards.charts import (
    BLUE,
    COUNT,
    OKABE_ITO,
    RATE,
    _capped,
    heatmap,
    histogram,
    rate_with_ci,
)

from gops_records.games.gin.analytics import ENDINGS, OUTCOME_LABELS, OUTCOMES

#: The colour of each way a hand ends (:data:`OUTCOMES`), the same on every Gin chart:
#: Okabe-Ito colours, gin green, knock blue, undercut vermillion, big gin purple, a drawn
#: hand grey.
OUTCOME_COLOURS = {"knock": BLUE, "undercut": OKABE_ITO[1], "gin": OKABE_ITO[2],
                   "big_gin": OKABE_ITO[3], "draw": OKABE_ITO[7]}
#: A player's side of a hand (:data:`ENDINGS`): the outcome, and whether the opponent won
#: it (the opponent's side is drawn in a pale tint of the outcome's colour).
ENDING_OUTCOMES = {"knocked and won": ("knock", False), "gin": ("gin", False),
                   "big gin": ("big_gin", False), "undercut the knocker": ("undercut", False),
                   "knocked, undercut": ("undercut", True),
                   "opponent knocked": ("knock", True), "opponent's gin": ("gin", True),
                   "opponent's big gin": ("big_gin", True), "drawn": ("draw", False)}


def _tint(colour: str, towards_white: float = 0.5) -> str:
    """``colour`` (``#rrggbb``) mixed with white: the same hue, paler."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * towards_white):02x}" for c in rgb)


#: Every label a Gin chart colours a hand's ending by (an outcome's label, or an ending of
#: a player's) -> its colour: the one scale of every Gin chart of endings.
ENDING_COLOURS = {
    **{OUTCOME_LABELS[o]: c for o, c in OUTCOME_COLOURS.items()},
    **{e: _tint(OUTCOME_COLOURS[o]) if theirs else OUTCOME_COLOURS[o]
       for e, (o, theirs) in ENDING_OUTCOMES.items()}}


def ending_scale(labels: list[str]) -> alt.Scale:
    """The colour scale of ``labels`` (endings or outcome labels, in legend order), each in
    its :data:`ENDING_COLOURS` colour whichever others are present."""
    return alt.Scale(domain=labels, range=[ENDING_COLOURS[label] for label in labels])


def _labelled(df: pl.DataFrame, category: str) -> pl.DataFrame:
    """``category`` with its count of hands: ``5 · 23 hands``."""
    return df.with_columns(
        (pl.col(category).cast(pl.String) + " · " + pl.col("total").cast(pl.String)
         + pl.when(pl.col("total") == 1).then(pl.lit(" hand")).otherwise(pl.lit(" hands"))
         ).alias("label"))


def stacked_shares(df: pl.DataFrame, category: str, stack: str, order: list[str], *,
                   title: str, subtitle: str, category_title: str, stack_title: str,
                   sort: list[str] | None = None) -> alt.Chart:
    """Horizontal bars, one a ``category`` (labelled with its hands), split into the
    shares of ``stack`` (columns hands, total, share: how hands ended, coloured by
    :func:`ending_scale`), in the order ``order``."""
    df = _labelled(df, category)
    labels = (df.unique(category, maintain_order=True)
              .sort(pl.col(category).replace_strict(
                  {c: i for i, c in enumerate(sort)}, default=len(sort)) if sort else category)
              ["label"].to_list())
    present = [o for o in order if o in set(df[stack].to_list())]
    # The legend starts under the bars, right of the category labels: long names go one
    # a line, or a phone (390 px) cuts them off.
    columns = 3 if max(map(len, present), default=0) <= 12 else 1
    df, head = _capped(df.with_columns(
        pl.col(stack).replace_strict({o: i for i, o in enumerate(order)}, default=len(order))
        .alias("stack_order")), title, subtitle)
    return alt.Chart(df, title=alt.Title(**head)).mark_bar().encode(
        y=alt.Y("label:N", sort=labels, title=category_title, axis=alt.Axis(labelLimit=220)),
        x=alt.X("share:Q", title="share of the hands", stack="normalize", axis=RATE),
        color=alt.Color(f"{stack}:N", title=stack_title, scale=ending_scale(present),
                        legend=alt.Legend(orient="bottom", columns=columns)),
        order=alt.Order("stack_order:Q"),
        tooltip=[alt.Tooltip(category, title=category_title),
                 alt.Tooltip(stack, title=stack_title),
                 alt.Tooltip("hands", title="hands", format=",d"),
                 alt.Tooltip("share", title="share", format=".1%"),
                 alt.Tooltip("total", title="hands in all", format=",d")])


def endings_by_limit_chart(df: pl.DataFrame) -> alt.Chart:
    order = df.sort("limit_order")["knock_limit"].unique(maintain_order=True).to_list()
    return stacked_shares(
        df.with_columns(pl.col("outcome").replace_strict(OUTCOME_LABELS)), "knock_limit",
        "outcome", [OUTCOME_LABELS[o] for o in OUTCOMES], sort=order,
        title="How hands end, by knock limit",
        subtitle="the limit is the upcard's points (J Q K: 10); an ace allows gin only",
        category_title="knock limit", stack_title="the hand ended in")


def endings_by_player_chart(df: pl.DataFrame) -> alt.Chart:
    return stacked_shares(df, "player", "ending", list(ENDINGS),
                          title="How each player's hands end",
                          subtitle="finished hands, from the player's side",
                          category_title="player", stack_title="for the player")


def pile_endings_chart(df: pl.DataFrame) -> alt.Chart:
    return stacked_shares(df, "pile_draws", "ending", list(ENDINGS),
                          sort=["0", "1", "2", "3-4", "5+"],
                          title="Pile draws and how those hands end",
                          subtitle="a player's draws from the pile in a hand (the first "
                                   "upcard included), full records",
                          category_title="draws from the pile", stack_title="for the player")


def game_points_chart(df: pl.DataFrame) -> alt.Chart:
    """Game points per player, best first, with matches and games won in the tooltip."""
    order = df["player"].to_list()
    df, head = _capped(df, "Game points", "finished games in view: the winner's game score")
    return alt.Chart(df, title=alt.Title(**head)).mark_bar(color=BLUE).encode(
        y=alt.Y("player:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
        x=alt.X("game_points:Q", title="game points", axis=COUNT),
        tooltip=["player", alt.Tooltip("game_points", title="game points", format=",d"),
                 alt.Tooltip("matches_won", title="matches won"),
                 alt.Tooltip("matches", title="matches"),
                 alt.Tooltip("games_won", title="games won"),
                 alt.Tooltip("games", title="games"), alt.Tooltip("blitzes", title="blitzes")])


def hands_per_game_chart(df: pl.DataFrame) -> alt.Chart:
    return histogram(df, "hands", "games", title="Hands per game",
                     subtitle="finished games, drawn hands included", x_title="hands",
                     y_title="games")


def game_scores_chart(df: pl.DataFrame, width: int = 50) -> alt.Chart:
    """Finished games by game score bin, blitz games apart."""
    df = df.with_columns((pl.col("score_from") + width).alias("score_to"))
    df, head = _capped(df, "Game scores", f"finished games, in bins of {width} points")
    return alt.Chart(df, title=alt.Title(**head)).mark_bar().encode(
        x=alt.X("score_from:Q", bin="binned", title="game score",
                axis=alt.Axis(format=",d")),
        x2="score_to:Q",
        y=alt.Y("games:Q", title="games", stack="zero", axis=COUNT),
        color=alt.Color("blitz:N", title=None,
                        scale=alt.Scale(domain=["no blitz", "blitz"], range=[BLUE, "#E69F00"]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("score_from", title="from"), alt.Tooltip("score_to", title="to"),
                 "blitz", alt.Tooltip("games", title="games")])


def undercut_by_limit_chart(df: pl.DataFrame) -> alt.LayerChart:
    order = df.sort("limit_order")["knock_limit"].to_list()
    return rate_with_ci(df, "knock_limit", title="Undercut rate by knock limit",
                        x_title="knock limit", y_title="knocks undercut", n="knocks",
                        n_title="knocks", sort=order,
                        subtitle="an equal deadwood undercuts too (the rules' reading)")


def undercut_by_deadwood_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "deadwood", title="Undercut rate by the knocker's deadwood",
                        x_title="knocker's deadwood", y_title="knocks undercut", n="knocks",
                        n_title="knocks")


def gin_share_chart(df: pl.DataFrame) -> alt.LayerChart:
    """Each player's share of gin among their ways out; players down the y axis, so that
    every name is written (side by side, long names hid each other)."""
    return rate_with_ci(df, "player", title="Who waits for gin",
                        x_title="player", y_title="ways out that are gin", n="outs",
                        n_title="times out", subtitle="big gin counts as gin",
                        sort=df.sort("rate", descending=True)["player"].to_list(),
                        horizontal=True)


def knock_deadwood_chart(df: pl.DataFrame) -> alt.Chart | alt.LayerChart:
    """Mean deadwood at a knock, per player and knock limit; each cell says its knocks.

    The x axis is the limit as a number (``limit_order``: 0 for the ace, which allows no
    knock), so it reads 1, 2, ... 10 (as text, "10" came before "2")."""
    return heatmap(df, "limit_order", "player", "mean_deadwood",
                   title="Deadwood kept at a knock", x_title="knock limit", y_title="player",
                   value_title="mean deadwood", text="knocks",
                   subtitle="number in a cell = knocks; close to the limit: knocks as soon "
                            "as allowed",
                   x_axis=alt.Axis(labelAngle=0, labelOverlap=False,
                                   labelExpr="datum.value == 0 ? 'ace' : datum.label"),
                   tooltip=["player", alt.Tooltip("knock_limit", title="knock limit"),
                            alt.Tooltip("knocks", title="knocks"),
                            alt.Tooltip("mean_deadwood", title="mean deadwood", format=".1f")])


def turns_chart(df: pl.DataFrame) -> alt.Chart:
    totals = df.group_by("own_turns").agg(pl.col("hands").sum()).sort("own_turns")
    return histogram(totals, "own_turns", "hands", title="Turns before going out",
                     subtitle="the turns of the player who went out, full records",
                     x_title="own turns", y_title="hands")


def seat_chart(df: pl.DataFrame) -> alt.LayerChart:
    return rate_with_ci(df, "who", title="Does the seat or the first upcard pay?",
                        x_title="", y_title="hands won", n="hands", n_title="hands",
                        subtitle="of the hands someone won; 50% is no advantage",
                        sort=df["who"].to_list(), horizontal=True)


def deadwood_caught_chart(df: pl.DataFrame, width: int = 5) -> alt.Chart:
    """Hands won by going out, by the loser's deadwood bin, stacked by how they went out."""
    df = df.with_columns(pl.col("outcome").replace_strict(OUTCOME_LABELS),
                         (pl.col("deadwood_from") + width).alias("deadwood_to"))
    present = [OUTCOME_LABELS[o] for o in ("knock", "gin", "big_gin")]
    df, head = _capped(df, "Deadwood caught when the opponent goes out",
                       f"the loser's deadwood after layoffs, bins of {width} points")
    return alt.Chart(df, title=alt.Title(**head)).mark_bar().encode(
        x=alt.X("deadwood_from:Q", bin="binned", title="deadwood caught with",
                axis=alt.Axis(format=",d")),
        x2="deadwood_to:Q",
        y=alt.Y("hands:Q", title="hands", stack="zero", axis=COUNT),
        color=alt.Color("outcome:N", title="opponent went out by",
                        scale=ending_scale(present),
                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("deadwood_from", title="from"),
                 alt.Tooltip("deadwood_to", title="below"), "outcome",
                 alt.Tooltip("hands", title="hands")])


__all__ = ["ENDING_COLOURS", "deadwood_caught_chart", "ending_scale", "endings_by_limit_chart",
           "endings_by_player_chart", "game_points_chart", "game_scores_chart",
           "gin_share_chart", "hands_per_game_chart", "knock_deadwood_chart",
           "pile_endings_chart", "seat_chart", "stacked_shares", "turns_chart",
           "undercut_by_deadwood_chart", "undercut_by_limit_chart"]
