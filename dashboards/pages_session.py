"""Session: who won an evening (standings, matches), its biggest pools and notable games.

Pick the evening with the sidebar's Event and Dates filters.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import charts, data
from dashboards.pages_game import game_table

NOTABLE_FROM = 500  # notable games are picked among this many newest games
MATCHES_SHOWN = 200  # at most this many matches (the newest) are listed


def margins(games: pl.DataFrame) -> pl.DataFrame:
    """Finished games with their winning margin (best score minus the runner-up's)."""
    finished = games.filter(pl.col("finished"))
    scores = finished["result"].str.split("-").list.eval(
        pl.element().cast(pl.Int64).sort(descending=True))
    return finished.with_columns(
        (scores.list.get(0) - scores.list.get(1)).alias("margin"),
        scores.list.sum().alias("points"))


def show_standings(view: data.View) -> None:
    table = data.standings(view)
    st.header("Standings")
    st.caption("Finished games only, best first (wins plus half the draws, then point "
               "difference). *against* is the best opponent's score in each game; the win "
               "rate's 95% interval shows how much a handful of games can tell.")
    if table.is_empty():
        st.info("None of these games is finished yet, so nobody has won or lost.")
        return
    left, right = st.columns([3, 2])
    left.dataframe(table, hide_index=True, column_config={
        "points_for": "points", "points_against": "against", "point_diff": "difference",
        "win_rate": st.column_config.NumberColumn("win rate", format="percent"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent")})
    right.altair_chart(charts.standings_chart(table.head(30)), width="stretch")


def show_matches(view: data.View) -> None:
    # One more than is shown, to know whether any were left out.
    results = data.match_results(view, MATCHES_SHOWN + 1)
    if results.is_empty():
        return
    # Rows come match by match, newest match first: number the matches in that order.
    number = pl.struct("event", "date", "match").rle_id()
    st.header("Matches")
    st.caption("Games of one evening (same event and date) sharing a Match tag, scored both "
               "ways: the cumulative total of points over the match, and best-of-N by games "
               "won. A blank winner means a shared lead. Newest first.")
    if results.select(number.max()).item() >= MATCHES_SHOWN:
        results = results.filter(number < MATCHES_SHOWN)
        st.caption(f"The {MATCHES_SHOWN} newest matches are shown: pick an event and a date "
                   "in the sidebar to see every match of an evening.")
    st.dataframe(results, hide_index=True, column_config={
        "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
        "total_points": "total points", "game_wins": "games won",
        "cumulative_rank": "rank by points", "best_of_winner": "best-of winner",
        "cumulative_winner": "winner on points", "match_games": "games in match"})


def show_pools(view: data.View) -> None:
    st.header("Biggest pools")
    st.caption("The rounds with the most points on offer (ties carry prizes forward) and who "
               "took them ('tie': nobody). Select a row, or its link, to open the game.")
    pools = data.largest_pools(view, 10)
    if pools.is_empty():
        st.info("No rounds were played in these games.")
        return
    game_table(pools, "session_pools",
               columns=["date", "event", "round_no", "pool_value", "pool_cards", "winner"])


def show_notable(view: data.View) -> None:
    st.header("Notable games")
    done = margins(data.games(view, NOTABLE_FROM))
    if done.is_empty():
        st.info("No finished games here yet.")
        return
    st.caption(f"Among the {NOTABLE_FROM} newest matching games. Select a row to open it.")
    shown = ["players", "result", "winner", "margin"]
    left, right = st.columns(2)
    with left:
        st.markdown("**Biggest wins** (the winner's lead over the runner-up)")
        game_table(done.sort("margin", "points", descending=True).head(5),
                   "session_big_wins", columns=shown)
    with right:
        st.markdown("**Closest finishes** (draws first)")
        game_table(done.sort("margin", pl.col("points").neg()).head(5),
                   "session_close", columns=shown)


def main() -> None:
    view = data.current_view()
    st.title("Session results")
    st.caption(f"Results of the games in view: {view.filters.describe()}. "
               "Pick an evening with the Event and Dates filters in the sidebar.")
    ov = data.overview(view)
    if ov["games"] == 0:
        st.info(data.explain_empty(view))
        return
    cols = st.columns(5)
    cols[0].metric("Games", ov["games"], help="Games that match the filters")
    cols[1].metric("Finished", ov["finished"])
    cols[2].metric("Players", ov["players"])
    cols[3].metric("Rounds played", ov["rounds"])
    one_day = ov["first_date"] is not None and ov["first_date"] == ov["last_date"]
    dates = (str(ov["first_date"]) if one_day else
             f"{ov['first_date'] or 'undated'} to {ov['last_date'] or 'undated'}")
    cols[4].metric("Events", ov["events"], help=f"Dates: {dates}")
    show_standings(view)
    show_matches(view)
    show_pools(view)
    show_notable(view)


if __name__ == "__main__":
    main()
