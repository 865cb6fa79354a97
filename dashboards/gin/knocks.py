"""Knocks and gin: undercut rates (question 2), deadwood at a knock and who waits for gin
(3), and who goes out fastest (4).
"""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.gin import charts as charts_gin
from gops_records.dashboards.gin import data as gin_data
from gops_records.dashboards.gin import ui as gin_ui

RATE_COLUMNS = {
    "rate": st.column_config.NumberColumn("rate", format="percent"),
    "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
    "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")}


def show_undercuts(gv: gin_ui.GinView) -> None:
    st.header("Undercuts")
    by_limit = gin_data.undercuts_by_limit(gv.view, gv.filters)
    by_deadwood = gin_data.undercuts_by_deadwood(gv.view, gv.filters)
    if by_limit.is_empty():
        st.info("No knock in view.")
        return
    left, right = st.columns(2)
    ui.chart(charts_gin.undercut_by_limit_chart(by_limit), "gin-undercut-by-limit",
             where=left)
    ui.chart(charts_gin.undercut_by_deadwood_chart(by_deadwood), "gin-undercut-by-deadwood",
             where=right)


def show_knockers(gv: gin_ui.GinView) -> None:
    st.header("Who knocks early, who waits for gin")
    st.caption("Room left = the knock limit minus the deadwood knocked with: near 0 for a "
               "player who knocks as soon as the limit allows.")
    table = gin_data.knockers(gv.view, gv.filters)
    left, right = st.columns([2, 3])
    ui.table(table, "gin-knockers", where=left, hide_index=True, key="gin_knockers",
             column_config={
                 "outs": "times out", "gins": "gins (big gins too)",
                 "knock_deadwood": st.column_config.NumberColumn("deadwood at a knock",
                                                                 format="%.1f"),
                 "limit_left": st.column_config.NumberColumn("room left", format="%.1f"),
                 **RATE_COLUMNS, "rate": st.column_config.NumberColumn("gin share",
                                                                       format="percent")})
    if not table.is_empty():
        ui.chart(charts_gin.gin_share_chart(table), "gin-share", where=right)
    deadwood = gin_data.knock_deadwood(gv.view, gv.filters)
    if not deadwood.is_empty():
        ui.chart(charts_gin.knock_deadwood_chart(deadwood), "gin-knock-deadwood")


def show_turns(gv: gin_ui.GinView) -> None:
    st.header("Who goes out fastest")
    turns = gin_data.turns_to_out(gv.view, gv.filters)
    if turns.is_empty():
        st.info("No full record of a hand gone out in view (score sheets have no turns).")
        return
    left, right = st.columns([2, 3])
    ui.table(turns, "gin-turns-to-out", where=left, hide_index=True, key="gin_turns",
             column_config={
                 "outs": "times out",
                 "mean_turns": st.column_config.NumberColumn("mean turns", format="%.1f"),
                 "median_turns": st.column_config.NumberColumn("median", format="%.1f"),
                 "fewest": "fewest"})
    ui.chart(charts_gin.turns_chart(gin_data.turns_distribution(gv.view, gv.filters)),
             "gin-turns", where=right)


def main() -> None:
    gv = gin_ui.current()
    st.title("Knocks and gin")
    st.caption("A knock may keep deadwood up to the upcard's points (no knock on an ace); "
               "the opponent then lays off, and undercuts with as little deadwood or less.")
    if gin_ui.no_hands(gv, "knocks"):
        return
    show_undercuts(gv)
    show_knockers(gv)
    show_turns(gv)


if __name__ == "__main__":
    main()
