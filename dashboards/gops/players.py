"""Players: one player's bidding tendencies, to study an opponent (or yourself).

Bid against prize, how far above or below the prize, the bid's rank in hand against the
prize's rank among prizes to come, habits with 95% intervals, and play for carried pools.
The player is kept in the URL (``?profile=NAME``) so the view can be shared; without one
the page starts from the sidebar's player filter (``?player=NAME``), and follows it when
it changes.

Those measures follow one card a bid and one prize a round, so they read the classic
games only. In games of bids of several cards the page shows the bid's strength (the sum
of its cards) against the prize; in games of open prizes, the bid against the best prize
on offer and which prize of the row the player takes on a win.
"""

from __future__ import annotations

import streamlit as st
from gops_records.dashboards import ratings_panel, ui
from gops_records.dashboards.data import View, current_view
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.gops import ui as gops_ui
from gops_records.dashboards.gops.game import game_table
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.typed_names import as_stored

P_PROFILE = "profile"


def pick_player(view: View) -> str | None:
    """The player to show: the URL's ``profile``, else the sidebar filter's first player,
    else the first name; a change of the player filter moves the pick to its player."""
    names = data.players(view)
    if not names:
        return None
    state = st.session_state
    wanted = as_stored(st.query_params.get(P_PROFILE), names)  # ?profile=marta
    filtered = [name for name in view.filters.players if name in names]
    if wanted in names and state.get("profile_url") != wanted:
        state["profile_pick"] = wanted
    elif filtered and state.get("profile_filter") != filtered \
            and state.get("profile_pick") not in filtered:
        state["profile_pick"] = filtered[0]
    if state.get("profile_pick") not in names:
        state["profile_pick"] = filtered[0] if filtered else names[0]
    state["profile_filter"] = filtered
    player = st.selectbox("Player", names, key="profile_pick",
                          help="Players of the games the sidebar's filters keep.")
    state["profile_url"] = player
    st.query_params[P_PROFILE] = player
    return player


def show_bids(view: View, player: str, frames: data.Bidding) -> None:
    heat = frames.heatmap
    bids = int(heat["count"].sum())
    st.caption(f"{bids} bids by {escape_md(player)} in the classic games in view "
               f"({escape_md(view.filters.describe())}).")
    left, right = st.columns(2)
    ui.chart(charts.bid_heatmap_chart(heat, player), "bids-by-prize", where=left)
    ui.chart(charts.bid_minus_prize_chart(frames.minus_prize, player), "bid-minus-prize",
             where=right)
    st.header("Relative to what is left")
    st.caption("A 10 is a high bid early but may be the lowest card left late in the game. "
               "Here both the bid and the prize are ranked against what was still to play: "
               "the bid among the cards in hand, the prize among the prizes not yet shown. "
               "Forced last bids are left out. The habits are set against uniform play: a "
               "bidder who picks any card in hand at random follows each habit 1 time in h "
               "with h cards in hand (the grey tick).")
    relative = frames.relative
    left, right = st.columns(2)
    if relative.is_empty():
        left.info("No unforced bids in view.")
    else:
        ui.chart(charts.relative_bids_chart(relative, player), "relative-bids", where=left)
    ui.chart(charts.habits_chart(frames.habits, player), "habits", where=right)


def show_carry(player: str, frames: data.Bidding) -> None:
    st.header("When ties have built a pool")
    st.caption("Bids with carried prizes on offer against bids for a single prize. Only "
               "carry-rule games build pools; an interval from a few bids is wide.")
    effect = frames.carry
    left, right = st.columns([2, 3])
    ui.chart(charts.carry_effect_chart(effect, player), "carry-effect", where=left)
    ui.table(effect, "carry-effect", where=right, hide_index=True, placeholder="",
             column_config={
        "n": "bids", "mean_bid": st.column_config.NumberColumn("mean bid", format="%.2f"),
        "mean_bid_minus_prize": st.column_config.NumberColumn("mean bid - prize",
                                                              format="%+.2f"),
        "rate_highest": st.column_config.NumberColumn("highest card left", format="percent"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent"),
        "k_highest": "times highest", "mean_pool_value": st.column_config.NumberColumn(
            "mean pool value", format="%.1f")})


def show_strength(view: View, player: str) -> bool:
    """The bids of several cards: strength against the prize; False when there are none."""
    frames = data.strength(view, player)
    heat, by_prize = frames["heatmap"], frames["by_prize"]
    if heat.is_empty():
        return False
    st.header("Bids of several cards: strength against the prize")
    st.caption(f"{int(heat['count'].sum())} bids by {escape_md(player)} in games of bids of "
               "several cards. A bid's strength is the sum of its cards, and the strongest "
               "bid takes the pool; the mean card (strength over the cards in a bid) is set "
               "against the prize, as a classic bid is.")
    for k in sorted(set(heat["bid_cards"].to_list())):
        left, right = st.columns(2)
        ui.chart(charts.strength_heatmap_chart(heat.filter(heat["bid_cards"] == k), player, k),
                 f"strength-by-prize-{k}", where=left)
        ui.chart(charts.strength_minus_prize_chart(by_prize.filter(by_prize["bid_cards"] == k),
                                                   player, k),
                 f"strength-minus-prize-{k}", where=right)
    return True


def show_open_prizes(view: View, player: str) -> bool:
    """Open prizes: the bid against the best prize on offer, and which prize of the row
    the player takes on a win; False when there are no such bids."""
    bids = data.open_row_bids(view, player)
    if bids.is_empty():
        return False
    st.header("Open prizes: bids against the row")
    st.caption(f"{int(bids['count'].sum())} bids by {escape_md(player)} in games of open "
               "prizes, where a row of face-up prizes is on offer and the winner picks one. "
               "There is no pool, so the measures of the classic game above do not apply.")
    choices = data.row_choices(view, player)
    left, right = st.columns(2)
    ui.chart(charts.open_row_bids_chart(bids, player), "open-row-bids", where=left)
    if int(choices["rounds"].max()) == 0:
        right.info(f"{escape_md(player)} won no round with a choice of prizes in view.")
    else:
        ui.chart(charts.row_choices_chart(choices, player), "open-row-choices", where=right)
    return True


def main() -> None:
    view = current_view()
    st.title("Players")
    st.caption("One player's bidding tendencies in the games the sidebar's filters keep.")
    player = pick_player(view)
    if player is None:
        gops_ui.no_games(view, "players")
        return
    ratings_panel.show_player(view, "gops", player)
    frames = data.bidding(view, player)
    shown = False
    if frames is not None and not frames.heatmap.is_empty():
        show_bids(view, player, frames)
        show_carry(player, frames)
        shown = True
    shown = show_strength(view, player) | shown
    shown = show_open_prizes(view, player) | shown
    if not shown:
        st.info(f"{escape_md(player)} has no bids in the games the filters keep.")
    ratings_panel.show_calibration(view, "gops")
    from gops_records.dashboards.gops.review_panel import show_player_costs
    show_player_costs(view, player)
    st.header(f"{escape_md(player)}'s games")
    st.caption("Newest first. Select a row to open the game round by round.")
    game_table(data.games(view, 200, player), "player_games", height=300)


if __name__ == "__main__":
    main()
