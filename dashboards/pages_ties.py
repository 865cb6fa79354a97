"""Ties and pools: how often rounds tie, between whom, and how large carried pools grow."""

from __future__ import annotations

import streamlit as st

from dashboards import charts, data
from dashboards.pages_game import game_table

PAIRS_SHOWN = 400  # the pairs with the most rounds together, for the heatmap


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def show_ties(view: data.View) -> None:
    final = data.final_ties(view)
    low, high = final["ci"]
    cols = st.columns(4)
    cols[0].metric("Finished games", final["games"])
    cols[1].metric("Ended on a tie", _pct(final["rate"]),
                   help=f"{final['games_ending_on_tie']} games; 95% interval "
                        f"{_pct(low)} to {_pct(high)}. The last pool is then nobody's.")
    mean_unclaimed = final["mean_unclaimed"]
    cols[2].metric("Unclaimed points per game",
                   "—" if mean_unclaimed is None else f"{mean_unclaimed:.2f}")
    left_pool = final["mean_pool_left"]
    cols[3].metric("Pool left by a final tie", "—" if left_pool is None else f"{left_pool:.1f}",
                   help="Mean value of the last pool in games that ended on a tie")
    left, right = st.columns(2)
    left.altair_chart(charts.tie_rate_by_rule_chart(data.tie_summary(view)), width="stretch")
    right.altair_chart(charts.ties_by_round_chart(data.ties_by_round(view)), width="stretch")
    left, right = st.columns(2)
    streaks = data.tie_streaks(view)
    if streaks.is_empty():
        left.info("No round tied in these games.")
    else:
        left.altair_chart(charts.tie_streaks_chart(streaks), width="stretch")
    pairs = data.ties_by_pair(view)
    right.markdown("**Ties per pair of players** (each pair from both sides; most rounds "
                   "together first)")
    right.dataframe(pairs, hide_index=True, height=300, column_config={
        "rounds": "rounds together",
        "rate": st.column_config.NumberColumn("tie rate", format="percent"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})
    if not pairs.is_empty():
        st.altair_chart(charts.pair_ties_chart(pairs.head(PAIRS_SHOWN)), width="stretch")


def show_pools(view: data.View) -> None:
    st.header("Pools")
    st.caption("A pool is the prize just shown plus the prizes carried in from ties before it.")
    st.altair_chart(charts.pool_distribution_chart(data.pool_distribution(view)),
                    width="stretch")
    left, right = st.columns(2)
    carried = data.carried_per_game(view)
    if carried.is_empty():
        left.info("No carry-rule games in view, so nothing was carried over.")
    else:
        left.altair_chart(charts.carried_chart(carried), width="stretch")
    unclaimed = data.unclaimed_per_game(view)
    if unclaimed.is_empty():
        right.info("No finished games in view.")
    else:
        right.altair_chart(charts.unclaimed_chart(unclaimed), width="stretch")
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
        st.info(data.explain_empty(view))
        return
    show_ties(view)
    show_pools(view)


if __name__ == "__main__":
    main()
