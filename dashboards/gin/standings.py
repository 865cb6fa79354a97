"""Gin standings: players, matches and games to 100, and the games' shape (question 8).

Matches are won by the first to two games; games by reaching 100, scored by the club's
formula (docs/gin.md). Every figure counts the finished games in view, from full hands
and score sheets alike. The page opens on the latest evening in view, as the Gops Session
page does (:mod:`gops_records.dashboards.evening_pick`): the *Evening* picker goes back to
an earlier one or widens to all evenings (``?gin_evening=all``; another evening is
``?gin_evening=2026-03-05 · Gin night``).
"""

from __future__ import annotations

import polars as pl
import streamlit as st
from gops_records.dashboards import ratings_panel, ui
from gops_records.dashboards.evening_pick import EveningPicker, one_evening
from gops_records.dashboards.gin import charts as charts_gin
from gops_records.dashboards.gin import data as gin_data
from gops_records.dashboards.gin import ui as gin_ui

MATCHES_SHOWN = 200
EVENINGS_LISTED = 200  # the picker offers this many newest evenings
#: The picker of the evening shown, in the URL as ``gin_evening``.
PICKER = EveningPicker(param=gin_ui.P_EVENING, key="gin_evening", count="hands",
                       listed=EVENINGS_LISTED)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def show_overview(gv: gin_ui.GinView) -> None:
    o = gin_data.overview(gv.view, gv.filters)
    summary = gin_data.game_summary(gv.view, gv.filters)
    cols = st.columns(5)
    cols[0].metric("Hands", f"{o['hands']:,}",
                   help=f"{o['full_hands']:,} full records, {o['sheet_hands']:,} from score "
                        "sheets")
    cols[1].metric("Games", f"{o['games']:,}", help=f"{o['finished_games']:,} finished")
    cols[2].metric("Matches", f"{o['matches']:,}")
    cols[3].metric("Players", f"{o['players']:,}")
    low, high = summary["blitz_ci"]
    cols[4].metric(f"Blitzes ({summary['blitzes']} of {summary['games']} games)",
                   _pct(summary["blitz_rate"]),
                   help="Games the loser ended without a hand won (100 more points); 95% "
                        f"interval {_pct(low)} to {_pct(high)}. "
                        f"{summary['reversed']} game(s) scored for the player behind "
                        "(a negative formula).")


def show_standings(gv: gin_ui.GinView) -> None:
    st.header("Standings")
    table = gin_data.standings(gv.view, gv.filters)
    if table.is_empty():
        st.info("No finished game in view.")
        return
    shown = table.with_columns(
        (pl.col("games_won") / pl.col("games")).alias("games_won_share"),
        (pl.col("hands_won") / pl.col("hands")).alias("hands_won_share"))
    left, right = st.columns([3, 2])
    ui.table(shown, "gin-standings", where=left, hide_index=True, key="gin_standings",
             column_config={
                 "matches_won": "matches won", "matches_lost": "matches lost",
                 "games_won": "games won", "game_points": "game points",
                 "games_won_share": st.column_config.NumberColumn("games won %",
                                                                  format="percent"),
                 "hands_won": "hands won", "hand_points": "hand points",
                 "hands_won_share": st.column_config.NumberColumn("hands won %",
                                                                  format="percent")})
    ui.chart(charts_gin.game_points_chart(table), "gin-game-points", where=right)


def key_first(table: pl.DataFrame, *first: str) -> pl.DataFrame:
    """``table`` with the columns ``first`` in front: a 390 px phone shows three or four
    columns without scrolling sideways, and the winner was off-screen behind the date
    and the event."""
    return table.select(*(c for c in first if c in table.columns),
                        *(c for c in table.columns if c not in first))


def show_matches(gv: gin_ui.GinView) -> None:
    st.header("Matches")
    st.caption("First to two games wins the match; a match without a winner yet is "
               "undecided (or its other games are not in view).")
    matches = key_first(gin_data.match_results(gv.view, gv.filters, MATCHES_SHOWN),
                        "match", "winner", "games_a", "games_b")
    ui.table(matches, "gin-matches", hide_index=True, key="gin_matches", column_config={
        "games_a": "games A", "games_b": "games B", "points_a": "points A",
        "points_b": "points B"})
    st.subheader("Head-to-head")
    pairs = gin_data.head_to_head(gv.view, gv.filters)
    ui.table(pairs, "gin-head-to-head", hide_index=True, key="gin_h2h", column_config={
        "matches_won": "matches won", "matches_lost": "matches lost", "games_won": "games won",
        "games_lost": "games lost", "points_for": "game points for",
        "points_against": "game points against"})


def show_games(gv: gin_ui.GinView) -> None:
    st.header("Games")
    summary = gin_data.game_summary(gv.view, gv.filters)
    if summary["games"]:
        st.caption(f"{summary['games']:,} finished games: a median of "
                   f"{summary['median_hands']:.0f} hands and {summary['median_score']:.0f} "
                   f"game points (mean {summary['mean_score']:.0f}).")
    left, right = st.columns(2)
    ui.chart(charts_gin.hands_per_game_chart(gin_data.hands_per_game(gv.view, gv.filters)),
             "gin-hands-per-game", where=left)
    ui.chart(charts_gin.game_scores_chart(gin_data.game_scores(gv.view, gv.filters)),
             "gin-game-scores", where=right)
    ui.table(key_first(gin_data.game_results(gv.view, gv.filters, MATCHES_SHOWN),
                       "match", "game_no", "winner", "game_score"), "gin-games",
             hide_index=True, key="gin_games", column_config={
                 "game_no": "game", "hands_won": "hands won (A-B)",
                 "totals": "hand points (A-B)", "game_score": "game score"})


def pick_evening(gv: gin_ui.GinView) -> gin_ui.GinView:
    """The view narrowed to the evening picked (the latest by default), or all evenings."""
    row, evening = PICKER.pick(gin_data.evenings(gv.view, gv.filters, EVENINGS_LISTED))
    if row is None:
        return gv
    st.button("All evenings", key="gin_all_evenings", on_click=PICKER.widen,
              icon=":material/unfold_more:", type="tertiary",
              help="Widen the page to every evening the filters keep")
    return gin_ui.GinView(gv.view, one_evening(gv.filters, row["date"], row["event"]))


def main() -> None:
    gv = gin_ui.current()
    st.title("Gin standings")
    st.caption("Gin Rummy (Oklahoma): games to 100, matches of the first to two games.")
    if gin_ui.no_hands(gv, "standings"):
        return
    gv = pick_evening(gv)
    show_overview(gv)
    show_standings(gv)
    ratings_panel.show_tonight(gv.view, "gin", gv.filters)
    ratings_panel.show_table(gv.view, "gin")
    show_matches(gv)
    show_games(gv)


if __name__ == "__main__":
    main()
