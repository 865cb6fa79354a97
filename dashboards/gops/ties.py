"""Ties and pools: how often rounds tie, between whom, and how large carried pools grow.

Ties count in every variant of the rules (with bids of several cards the bids' strengths
tie). Games with open prizes have no pool: the pool figures leave them out, the page says
so, and shows instead which prize of the row their winners take.
"""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import View, current_view
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.gops import ui as gops_ui
from gops_records.dashboards.gops.game import game_table

from gops_records.games.gops.analytics import CLASSIC, VariantKind

PAIRS_SHOWN = 400  # the pairs with the most rounds together, for the heatmap


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def show_ties(view: View) -> None:
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
                   help="Mean value of the last pool in games that ended on a tie (with open "
                        "prizes, of the row the final tie left on the table)")
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


def open_prize_games(view: View) -> int:
    """How many games in view have open prizes."""
    kinds = data.games_by_variant(view)
    return int(kinds.filter(kinds["variant"].str.starts_with(
        VariantKind.OPEN_PRIZES.value))["games"].sum())


def variants_note(view: View) -> str | None:
    """What the games in view are, when they are not all classic: ``40 classic, 12 bids of
    2 cards``."""
    kinds = data.games_by_variant(view)
    if kinds["variant"].to_list() in ([], [str(CLASSIC)]):
        return None
    parts = ", ".join(f"{games:,} {label}" for _, label, games in kinds.iter_rows())
    return (f"Games in view: {parts}. With bids of several cards a round ties when the "
            "highest strength (the sum of a bid's cards) is shared.")


def show_pools(view: View) -> None:
    st.header("Pools")
    st.caption("A pool is the prize just shown plus the prizes carried in from ties before it.")
    open_games = open_prize_games(view)
    if open_games:
        st.info(f"The {open_games:,} games with open prizes in view have no pool: the winner "
                "picks one prize from the row, and a tie carries nothing. The pool figures "
                "leave them out; their unclaimed points (prizes left in the row or the pile "
                "at the end, prizes a tie set aside) are in the unclaimed points, and what "
                "their winners take is below.")
    distribution = data.pool_distribution(view)
    if distribution.is_empty():
        st.info("No game of one prize a round in view, so no pool to show.")
    else:
        ui.chart(charts.pool_distribution_chart(distribution), "pools")
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
               columns=["pool_value", "winner", "round_no", "pool_cards", "date", "event"])
    if open_games:
        show_open_rows(view)


def show_open_rows(view: View) -> None:
    st.header("Open prizes: what the winner takes")
    st.caption("In a round whose row holds two prizes or more, does the winner take the "
               "highest prize on offer, the lowest, or one between? Rates with 95% "
               "intervals (the game as the unit) and the won rounds they are out of.")
    choices = data.row_choices(view)
    left, right = st.columns([3, 2])
    if int(choices["rounds"].max()) == 0:
        left.info("No open-prize round in view was won with a choice of prizes.")
    else:
        ui.chart(charts.row_choices_chart(choices, "the winner"), "row-choices", where=left)
    ui.table(choices, "row-choices", where=right, hide_index=True, placeholder="",
             column_config={
        "rounds": "won rounds with a choice", "taken": "rounds taking it",
        "rate": st.column_config.NumberColumn("share", format="percent"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})


def main() -> None:
    view = current_view()
    st.title("Ties and pools")
    st.caption("A round ties when the highest bid is shared. Under the carry rule the prize "
               "stays and joins the next one; under the discard rule nobody gets it. Rates "
               "come with 95% intervals.")
    if data.games_by_variant(view).is_empty():  # no kept game (the page reads it anyway)
        gops_ui.no_games(view, "ties")
        return
    note = variants_note(view)
    if note:
        st.caption(note)
    show_ties(view)
    show_pools(view)


if __name__ == "__main__":
    main()
