"""Ties and pools: how often rounds tie, between whom, and how large carried pools grow."""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards import charts, data, ui
from gops_records.dashboards.pages_game import game_table

PAIRS_SHOWN = 400  # the pairs with the most rounds together, for the heatmap


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def show_ties(view: data.View) -> None:
    final = data.final_ties(view)
    low, high = final["ci"]
    cols = st.columns(4)
    cols[0].metric("Finished games", final["games"])
    cols[1].metric(f"Ended on a tie ({final['games_ending_on_tie']} of {final['games']})",
                   _pct(final["rate"]),
                   help=f"{final['games_ending_on_tie']} of {final['games']} finished games; "
                        f"95% interval {_pct(low)} to {_pct(high)}. The last pool is then "
                        "nobody's.")
    mean_unclaimed = final["mean_unclaimed"]
    cols[2].metric("Unclaimed points per game",
                   "—" if mean_unclaimed is None else f"{mean_unclaimed:.2f}")
    left_pool = final["mean_pool_left"]
    cols[3].metric("Pool left by a final tie", "—" if left_pool is None else f"{left_pool:.1f}",
                   help="Mean value of the last pool in games that ended on a tie")
    left, right = st.columns(2)
    ui.chart(charts.tie_rate_by_rule_chart(data.tie_summary(view)), "ties-by-rule", where=left)
    ui.chart(charts.ties_by_round_chart(data.ties_by_round(view)), "ties-by-round",
             where=right)
    left, right = st.columns(2)
    streaks = data.tie_streaks(view)
    if streaks.is_empty():
        left.info("No round tied in these games.")
    else:
        ui.chart(charts.tie_streaks_chart(streaks), "tie-streaks", where=left)
    pairs = data.ties_by_pair(view)
    right.markdown("**Ties per pair of players** (each pair from both sides; most rounds "
                   "together first)")
    ui.table(pairs, "ties-per-pair", where=right, hide_index=True, height=300,
             placeholder="", column_config={
        "rounds": "rounds together",
        "rate": st.column_config.NumberColumn("tie rate", format="percent"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})
    if not pairs.is_empty():
        ui.chart(charts.pair_ties_chart(pairs.head(PAIRS_SHOWN)), "pair-ties")


def show_pools(view: data.View) -> None:
    st.header("Pools")
    st.caption("A pool is the prize just shown plus the prizes carried in from ties before it.")
    ui.chart(charts.pool_distribution_chart(data.pool_distribution(view)), "pools")
    left, right = st.columns(2)
    carried = data.carried_per_game(view)
    if carried.is_empty():
        left.info("No carry-rule games in view, so nothing was carried over.")
    else:
        ui.chart(charts.carried_chart(carried), "carried-per-game", where=left)
    unclaimed = data.unclaimed_per_game(view)
    if unclaimed.is_empty():
        right.info("No finished games in view.")
    else:
        ui.chart(charts.unclaimed_chart(unclaimed), "unclaimed-per-game", where=right)
    st.subheader("Largest pools and who took them")
    st.caption("'tie' means the pool stayed on the table. Select a row to open the game.")
    game_table(data.largest_pools(view, 20), "ties_largest_pools",
               columns=["date", "event", "round_no", "pool_value", "pool_cards", "winner"])


def main() -> None:
    view = data.current_view()
    st.title("Ties and pools")
    st.caption("A round ties when the highest bid is shared. Under the carry rule the prize "
               "stays and joins the next one; under the discard rule nobody gets it. Rates "
               "come with 95% intervals.")
    if data.overview(view)["games"] == 0:
        ui.no_games(view, "ties")
        return
    show_ties(view)
    show_pools(view)


if __name__ == "__main__":
    main()
