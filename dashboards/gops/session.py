"""Session: who won an evening (standings, matches), its biggest pools and notable games.

The page opens on the latest evening in view (the newest date and event the sidebar's
filters keep, :func:`gops_records.games.gops.analytics.evenings`) with a one-line callout of who won
it; the *Evening* picker goes back to an earlier evening or widens to all evenings in
view (``?evening=all``; another evening is ``?evening=2026-03-03 · Tuesday club``).
"""

from __future__ import annotations

import polars as pl
import streamlit as st
from gops_records.dashboards import printable, ratings_panel, ui
from gops_records.dashboards.data import View, current_view
from gops_records.dashboards.evening_pick import EveningPicker, one_evening
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.gops import ui as gops_ui
from gops_records.dashboards.gops.best_of import show_best_of
from gops_records.dashboards.gops.game import game_table
from gops_records.dashboards.text import escape_md

P_EVENING = "evening"
EVENINGS_LISTED = 200  # the picker offers this many newest evenings
NOTABLE_FROM = 500  # notable games are picked among this many newest games
#: The game's name in the printable results' heading ("Gops results: ...").
GAME_TITLE = "Gops"
MATCHES_SHOWN = 200  # at most this many matches (the newest) are listed
#: Column widths of the standings, in pixels: together they fit a 390 px phone screen.
STANDINGS_WIDTHS = {"player": 106, "wins": 30, "draws": 30, "losses": 30, "point_diff": 42,
                    "win_rate_ci": 100}


def margins(games: pl.DataFrame) -> pl.DataFrame:
    """Finished games with their winning margin (best score minus the runner-up's)."""
    finished = games.filter(pl.col("finished"))
    scores = finished["result"].str.split("-").list.eval(
        pl.element().cast(pl.Int64).sort(descending=True))
    return finished.with_columns(
        (scores.list.get(0) - scores.list.get(1)).alias("margin"),
        scores.list.sum().alias("points"))


# -- which evening ----------------------------------------------------------------------------

#: The picker of the evening shown, in the URL as ``evening`` (shared with the Gin standings).
PICKER = EveningPicker(param=P_EVENING, key="evening", count="games", listed=EVENINGS_LISTED)


def pick_evening(view: View) -> tuple[View, str | None]:
    """The view narrowed to the evening picked (the latest by default), and its name (None:
    all evenings in view)."""
    row, evening = PICKER.pick(data.evenings(view, EVENINGS_LISTED))
    if row is None:
        return view, None
    return view.with_filters(one_evening(view.filters, row["date"], row["event"])), evening


# -- tonight's winners ------------------------------------------------------------------------

def leaders(table: pl.DataFrame) -> pl.DataFrame:
    """The rows that share the top of the standings (score wins + draws/2, then point
    difference, as the standings are ordered)."""
    score = pl.col("wins") + pl.col("draws") / 2
    top = table.row(0, named=True)
    return table.filter((score == top["wins"] + top["draws"] / 2)
                        & (pl.col("point_diff") == top["point_diff"]))


def best_of_results(matches: pl.DataFrame) -> str:
    """The matches' best-of winners in plain text: 'Alice-Bruno: Alice, 2 of 3 games' for
    one match; for several, how many each player won, e.g. 'Ines 7, Hana 6; 2 shared'."""
    per_match = matches.unique(["event", "date", "match"], keep="first", maintain_order=True)
    if per_match.height == 1:
        m = per_match.row(0, named=True)
        if m["best_of_winner"] is None:
            return f"{m['match']}: shared, {m['match_games']} games"
        wins = matches.filter(pl.col("player") == m["best_of_winner"])["game_wins"][0]
        return f"{m['match']}: {m['best_of_winner']}, {wins} of {m['match_games']} games"
    counts = (per_match.group_by("best_of_winner").len()
              .sort(["len", "best_of_winner"], descending=[True, False], nulls_last=True))
    won = [f"{r['best_of_winner']} {r['len']}" for r in counts.iter_rows(named=True)
           if r["best_of_winner"] is not None]
    shared = counts.filter(pl.col("best_of_winner").is_null())["len"].sum()
    return f"{per_match.height} matches won by " + ", ".join(won) + \
        (f"; {shared} shared" if shared else "")


def winners_line(table: pl.DataFrame, matches: pl.DataFrame) -> str:
    """Who won, in plain text: 'Alice won 2 of 3 games (22 points, +4); best of: ...'."""
    top = leaders(table)
    parts = []
    for r in top.iter_rows(named=True):
        draws = f", {r['draws']} drawn" if r["draws"] else ""
        parts.append(f"{r['player']} won {r['wins']} of {r['games']} games{draws} "
                     f"({r['points_for']} points, {r['point_diff']:+d})")
    line = (" and ".join(parts) + (" — a shared lead" if top.height > 1 else ""))
    if not matches.is_empty():
        line += "; best of: " + best_of_results(matches)
    return line


def show_callout(evening: str, table: pl.DataFrame, matches: pl.DataFrame) -> None:
    if table.is_empty():
        st.info(f"**{escape_md(evening)}**: no game of this evening is finished yet.")
        return
    st.success(f"**{escape_md(evening)}**: {escape_md(winners_line(table, matches))}",
               icon=":material/trophy:")


# -- tables -------------------------------------------------------------------------------------

def standings_display(table: pl.DataFrame) -> pl.DataFrame:
    """The standings as the page shows them: narrow columns, the win rate and its 95%
    interval in one (the CSV keeps every column)."""
    pct = [(pl.col(c) * 100).round(0).cast(pl.Int64).cast(pl.String)
           for c in ("win_rate", "ci_low", "ci_high")]
    return table.select(
        "player", "wins", "draws", "losses", "point_diff",
        pl.concat_str(pct[0], pl.lit("% ("), pct[1], pl.lit("–"), pct[2], pl.lit("%)"))
        .alias("win_rate_ci"))


def show_standings(table: pl.DataFrame) -> None:
    st.header("Standings")
    st.caption("Finished games only, best first (wins plus half the draws, then point "
               "difference: points minus the best opponent's in each game). The win rate's "
               "95% interval shows how much a handful of games can tell. The CSV has every "
               "column.")
    if table.is_empty():
        st.info("None of these games is finished yet, so nobody has won or lost.")
        return
    w = STANDINGS_WIDTHS
    left, right = st.columns([3, 2])
    ui.table(standings_display(table), "standings", where=left, csv=table, hide_index=True,
             height="content", column_config={
                 "player": st.column_config.TextColumn("player", width=w["player"],
                                                       pinned=True),
                 "wins": st.column_config.NumberColumn("W", width=w["wins"], help="wins"),
                 "draws": st.column_config.NumberColumn("D", width=w["draws"], help="draws"),
                 "losses": st.column_config.NumberColumn("L", width=w["losses"],
                                                         help="losses"),
                 "point_diff": st.column_config.NumberColumn(
                     "±", width=w["point_diff"], format="%+d",
                     help="points minus the best opponent's, over the games"),
                 "win_rate_ci": st.column_config.TextColumn(
                     "win rate (95%)", width=w["win_rate_ci"],
                     help="share of games won, and its 95% interval")})
    ui.chart(charts.standings_chart(table.head(30)), "standings", where=right)


def show_matches(results: pl.DataFrame, one_evening: bool) -> None:
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
        st.caption(f"The {MATCHES_SHOWN} newest matches are shown: pick an evening to see "
                   "every match of it.")
    # Who won first, then the counts (a phone shows the first four columns or so).
    first = ["match", "player", "best_of_winner", "cumulative_winner", "game_wins",
             "total_points"]
    results = results.select(*(c for c in first if c in results.columns),
                             *(c for c in results.columns if c not in first))
    shown = results.drop("event", "date") if one_evening else results
    ui.table(shown, "matches", csv=results, hide_index=True, placeholder="",
             column_config={
        "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
        "total_points": "total points", "game_wins": "games won",
        "cumulative_rank": "rank by points", "best_of_winner": "best-of winner",
        "cumulative_winner": "winner on points", "match_games": "games in match"})


def show_pools(view: View) -> None:
    st.header("Biggest pools")
    st.caption("The rounds with the most points on offer (ties carry prizes forward) and who "
               "took them ('tie': nobody). Select a row, or its link, to open the game.")
    pools = data.largest_pools(view, 10)
    if pools.is_empty():
        st.info("No rounds were played in these games.")
        return
    game_table(pools, "session_pools",
               columns=["pool_value", "winner", "round_no", "pool_cards", "date", "event"])


def show_notable(view: View) -> None:
    st.header("Notable games")
    done = margins(data.games(view, NOTABLE_FROM))
    if done.is_empty():
        st.info("No finished games here yet.")
        return
    st.caption(f"Among the {NOTABLE_FROM} newest matching games. Select a row to open it.")
    shown = ["winner", "margin", "result", "players"]  # key columns first (phones)
    left, right = st.columns(2)
    with left:
        st.markdown("**Biggest wins** (the winner's lead over the runner-up)")
        game_table(done.sort("margin", "points", descending=True).head(5),
                   "session_big_wins", columns=shown)
    with right:
        st.markdown("**Closest finishes** (draws first)")
        game_table(done.sort("margin", pl.col("points").neg()).head(5),
                   "session_close", columns=shown)


def show_overview(ov: dict) -> None:
    cols = st.columns(5)
    cols[0].metric("Games", ov["games"], help="Games that match the filters")
    cols[1].metric("Finished", ov["finished"])
    cols[2].metric("Players", ov["players"])
    cols[3].metric("Rounds played", ov["rounds"])
    one_day = ov["first_date"] is not None and ov["first_date"] == ov["last_date"]
    dates = (str(ov["first_date"]) if one_day else
             f"{ov['first_date'] or 'undated'} to {ov['last_date'] or 'undated'}")
    cols[4].metric("Events", ov["events"], help=f"Dates: {dates}")


def main() -> None:
    view = current_view()
    st.title("Session results")
    if data.overview(view)["games"] == 0:
        gops_ui.no_games(view, "session")
        return
    shown, evening = pick_evening(view)
    st.caption(f"Results of the games in view: {escape_md(shown.filters.describe())}.")
    table = data.standings(shown)
    results = data.match_results(shown, MATCHES_SHOWN + 1)  # one more: were any left out?
    if evening is not None:
        show_callout(evening, table, results)
        row = st.container(horizontal=True, gap="small")
        row.button("All evenings", key="all_evenings", on_click=PICKER.widen,
                   icon=":material/unfold_more:", type="tertiary",
                   help="Widen the page to every evening the filters keep")
        ui.download("Printable results (HTML)",
                    lambda: printable.session_page(evening, winners_line(table, results)
                                                   if not table.is_empty() else "",
                                                   table, results, game=GAME_TITLE
                                                   ).encode("utf-8"),
                    f"gops-{ui.slug(evening)}.html", "text/html", "printable_session", row)
    show_overview(data.overview(shown))
    show_standings(table)
    ratings_panel.show_tonight(shown, "gops")
    ratings_panel.show_table(view, "gops")
    show_matches(results, one_evening=evening is not None)
    show_best_of(shown)
    show_pools(shown)
    show_notable(shown)


if __name__ == "__main__":
    main()
