"""How Gin Rummy hands end: by knock limit and per player (question 1), the dealer and the
first upcard (5), the deadwood caught when the opponent goes out (6), pile draws (7), and
the hands themselves.
"""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.gin import charts as charts_gin
from gops_records.dashboards.gin import data as gin_data
from gops_records.dashboards.gin import ui as gin_ui

HANDS_SHOWN = 200


def show_endings(gv: gin_ui.GinView) -> None:
    st.header("How hands end")
    ui.chart(charts_gin.endings_by_limit_chart(gin_data.endings_by_limit(gv.view, gv.filters)),
             "gin-endings-by-limit")
    ui.chart(charts_gin.endings_by_player_chart(
        gin_data.endings_by_player(gv.view, gv.filters)), "gin-endings-by-player")


def show_seats(gv: gin_ui.GinView) -> None:
    st.header("The dealer and the first upcard")
    st.caption("The non-dealer is offered the upcard first and plays first. Rates are of "
               "the hands someone won, with 95% intervals; the first upcard is known from "
               "full records only.")
    seats = gin_data.seat_effects(gv.view, gv.filters)
    left, right = st.columns([3, 2])
    ui.chart(charts_gin.seat_chart(seats), "gin-seats", where=left)
    ui.table(seats, "gin-seats", where=right, hide_index=True, key="gin_seat_table",
             column_config={
                 "rate": st.column_config.NumberColumn("won", format="percent"),
                 "won": "hands won", "ci_low": st.column_config.NumberColumn(
                     "95% CI low", format="percent"),
                 "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})


def show_caught(gv: gin_ui.GinView) -> None:
    st.header("Deadwood caught")
    left, right = st.columns([3, 2])
    ui.chart(charts_gin.deadwood_caught_chart(gin_data.deadwood_caught(gv.view, gv.filters)),
             "gin-deadwood-caught", where=left)
    right.markdown("**Caught by the opponent going out** (most deadwood first)")
    ui.table(gin_data.caught_by_player(gv.view, gv.filters), "gin-caught", where=right,
             hide_index=True, key="gin_caught", column_config={
                 "caught": "times caught",
                 "mean_deadwood": st.column_config.NumberColumn("mean deadwood",
                                                                format="%.1f"),
                 "points_given": "points given away"})


def show_pile(gv: gin_ui.GinView) -> None:
    st.header("Pile draws")
    ui.chart(charts_gin.pile_endings_chart(gin_data.pile_draw_endings(gv.view, gv.filters)),
             "gin-pile-endings")
    st.markdown("**Who takes the pile**: draws from the pile of all draws, full records")
    ui.table(gin_data.pile_takers(gv.view, gv.filters), "gin-pile-takers", hide_index=True,
             key="gin_pile_takers", column_config={
                 "pile_draws": "from the pile", "hands_won": "hands won",
                 "rate": st.column_config.NumberColumn("pile share", format="percent"),
                 "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
                 "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})


def show_hands(gv: gin_ui.GinView) -> None:
    st.header("The hands")
    st.caption(f"The newest {HANDS_SHOWN} hands in view; the upcard as it was turned (a "
               "score sheet gives its rank only).")
    ui.table(gin_data.hands(gv.view, gv.filters, HANDS_SHOWN), "gin-hands", hide_index=True,
             key="gin_hand_list", column_config={
                 "game_no": "game", "hand_no": "hand", "knock_limit": "knock limit",
                 "went_out": "went out", "out_deadwood": "their deadwood",
                 "opponent_deadwood": "opponent's deadwood"})


def main() -> None:
    gv = gin_ui.current()
    st.title("How hands end")
    st.caption("Knock (deadwood up to the upcard's points), gin (no deadwood, 25 + the "
               "opponent's), big gin (all 11 cards, 50 +), undercut (the opponent has no "
               "more deadwood than the knocker: 25 + the difference), or drawn at the wall.")
    if gin_ui.no_hands(gv, "hands"):
        return
    show_endings(gv)
    show_seats(gv)
    show_caught(gv)
    show_pile(gv)
    show_hands(gv)


if __name__ == "__main__":
    main()
