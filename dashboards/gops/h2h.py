"""Head-to-head: how each player fared against each opponent, and the games of one pairing.

The pairing is kept in the URL (``?h2h=NAME&h2h=NAME``) so it can be shared; without one
the page starts from the sidebar's player filter (that player and their most frequent
opponent), else from the pair with the most games.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import View, current_view
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.gops import ui as gops_ui
from gops_records.dashboards.gops.game import game_table
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.typed_names import as_stored

P_PAIR = "h2h"
GRID_PLAYERS = 20  # the heatmap shows the players with the most games


def with_score_share(table: pl.DataFrame) -> pl.DataFrame:
    """Adds score_share = (wins + draws / 2) / games, the chess-style score."""
    return table.with_columns(
        ((pl.col("wins") + pl.col("draws") / 2) / pl.col("games")).alias("score_share"))


def grid(table: pl.DataFrame) -> pl.DataFrame:
    """The pairs among the GRID_PLAYERS players with the most games."""
    busiest = (table.group_by("player").agg(pl.col("games").sum())
               .sort(["games", "player"], descending=[True, False])
               .head(GRID_PLAYERS)["player"].to_list())
    return table.filter(pl.col("player").is_in(busiest) & pl.col("opponent").is_in(busiest))


def default_pair(table: pl.DataFrame, players: tuple[str, ...]) -> tuple[str, str]:
    """The first filtered player who met someone and their most frequent opponent, else the
    pair with the most games (the table is sorted most games first)."""
    for name in players:
        mine = table.filter(pl.col("player") == name)
        if not mine.is_empty():
            return name, mine["opponent"][0]
    return table["player"][0], table["opponent"][0]


def pick_pair(table: pl.DataFrame, players: tuple[str, ...] = ()) -> tuple[str, str]:
    """Two players from the URL, else :func:`default_pair` (again when the filter changes)."""
    names = sorted(set(table["player"]))
    state = st.session_state
    wanted = [n for n in (as_stored(p, names) for p in st.query_params.get_all(P_PAIR))
              if n in names]  # names as typed
    first = default_pair(table, players)
    if len(wanted) == 2 and state.get("h2h_url") != wanted:
        state["h2h_a"], state["h2h_b"] = wanted
    elif players and state.get("h2h_filter") != list(players) \
            and state.get("h2h_a") not in players:
        state["h2h_a"], state["h2h_b"] = first
    for key, default in (("h2h_a", first[0]), ("h2h_b", first[1])):
        if state.get(key) not in names:
            state[key] = default
    state["h2h_filter"] = list(players)
    left, right = st.columns(2)
    a = left.selectbox("Player", names, key="h2h_a")
    b = right.selectbox("Opponent", names, key="h2h_b")
    state["h2h_url"] = [a, b]
    st.query_params[P_PAIR] = [a, b]
    return a, b


def show_pair(view: View, table: pl.DataFrame, a: str, b: str) -> None:
    if a == b:
        st.info("Pick two different players.")
        return
    ma, mb = escape_md(a), escape_md(b)
    row = table.filter((pl.col("player") == a) & (pl.col("opponent") == b))
    if row.is_empty():
        st.info(f"{ma} and {mb} have not finished a game together in the games in view.")
    else:
        r = row.row(0, named=True)
        cols = st.columns(4)
        cols[0].metric("Games", r["games"])
        cols[1].metric(f"{ma} won", r["wins"])
        cols[2].metric("Drawn", r["draws"])
        cols[3].metric(f"{mb} won", r["losses"])
        st.caption(f"Points: {ma} {r['points_for']}, {mb} {r['points_against']}.")
    both = view.with_filters(replace(view.filters, players=(b,)))
    st.markdown(f"**Games of {ma} and {mb}** (newest first; select a row to open it)")
    game_table(data.games(both, 200, a), "h2h_games", height=300)


def main() -> None:
    view = current_view()
    st.title("Head-to-head")
    st.caption("Finished games only. With three or four players, each pair in a game is "
               "compared by their own two scores.")
    table = data.head_to_head(view)
    if table.is_empty():
        if data.overview(view)["games"] == 0:
            gops_ui.no_games(view, "h2h")
        else:
            st.info("No finished games between two players in view.")
        return
    table = with_score_share(table)
    ui.chart(charts.h2h_chart(grid(table)), "head-to-head")
    st.header("One pairing")
    a, b = pick_pair(table, view.filters.players)
    show_pair(view, table, a, b)
    with st.expander("All pairings (table)"):
        ui.table(table, "all-pairings", hide_index=True, column_config={
            "points_for": "points", "points_against": "against",
            "score_share": st.column_config.NumberColumn("score", format="percent")})


if __name__ == "__main__":
    main()
