"""Head-to-head: how each player fared against each opponent, and the games of one pairing.

The pairing is kept in the URL (``?h2h=NAME&h2h=NAME``) so it can be shared.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import streamlit as st

from dashboards import charts, data
from dashboards.pages_game import game_table

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


def pick_pair(table: pl.DataFrame) -> tuple[str, str]:
    """Two players from the URL, else the pair with the most games (the table's first row)."""
    names = sorted(set(table["player"]))
    wanted = [n for n in st.query_params.get_all(P_PAIR) if n in names]
    if len(wanted) == 2 and st.session_state.get("h2h_url") != wanted:
        st.session_state["h2h_a"], st.session_state["h2h_b"] = wanted
    busiest = (table["player"][0], table["opponent"][0])
    for key, default in (("h2h_a", busiest[0]), ("h2h_b", busiest[1])):
        if st.session_state.get(key) not in names:
            st.session_state[key] = default
    left, right = st.columns(2)
    a = left.selectbox("Player", names, key="h2h_a")
    b = right.selectbox("Opponent", names, key="h2h_b")
    st.session_state["h2h_url"] = [a, b]
    st.query_params[P_PAIR] = [a, b]
    return a, b


def show_pair(view: data.View, table: pl.DataFrame, a: str, b: str) -> None:
    if a == b:
        st.info("Pick two different players.")
        return
    row = table.filter((pl.col("player") == a) & (pl.col("opponent") == b))
    if row.is_empty():
        st.info(f"{a} and {b} have not finished a game together in the games in view.")
    else:
        r = row.row(0, named=True)
        cols = st.columns(4)
        cols[0].metric("Games", r["games"])
        cols[1].metric(f"{a} won", r["wins"])
        cols[2].metric("Drawn", r["draws"])
        cols[3].metric(f"{b} won", r["losses"])
        st.caption(f"Points: {a} {r['points_for']}, {b} {r['points_against']}.")
    both = view.with_filters(replace(view.filters, players=(b,)))
    st.markdown(f"**Games of {a} and {b}** (newest first; select a row to open it)")
    game_table(data.games(both, 200, a), "h2h_games", height=300)


def main() -> None:
    view = data.current_view()
    st.title("Head-to-head")
    st.caption("Finished games only. With three or four players, each pair in a game is "
               "compared by their own two scores.")
    table = data.head_to_head(view)
    if table.is_empty():
        st.info(data.explain_empty(view) if data.overview(view)["games"] == 0 else
                "No finished games between two players in view.")
        return
    table = with_score_share(table)
    st.altair_chart(charts.h2h_chart(grid(table)), width="stretch")
    st.header("One pairing")
    a, b = pick_pair(table)
    show_pair(view, table, a, b)
    with st.expander("All pairings (table)"):
        st.dataframe(table, hide_index=True, column_config={
            "points_for": "points", "points_against": "against",
            "score_share": st.column_config.NumberColumn("score", format="percent")})


if __name__ == "__main__":
    main()
