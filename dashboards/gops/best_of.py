"""Session: the best-of-N matches of the games in view (``[BestOf "N"]``).

One section of the Session page: each match's winner by games, its score in games, the
game that decided it, games played after that and replays of drawn games
(:func:`gops_records.games.gops.analytics.matches.best_of_matches`). Matches without a
BestOf tag keep their cumulative totals in the Matches section above it.
"""

from __future__ import annotations

import polars as pl
import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import View, cached_read

from gops_records.core.game_refs import game_ref
from gops_records.games.gops.analytics.matches import best_of_games, best_of_matches

#: At most this many matches (the newest) are listed.
SHOWN = 200
#: The section's table key (AppTest reads it).
KEY = "best_of_matches"

read_matches = cached_read(best_of_matches, name="best_of_matches")
read_games = cached_read(best_of_games, name="best_of_games")


def games_display(games: pl.DataFrame) -> pl.DataFrame:
    """The games of the matches as the section lists them: each game's reference, and the
    reference of the drawn game it replays; what the game did for its match in words."""
    refs = pl.col("game_id").map_elements(game_ref, return_dtype=pl.String)
    replays = pl.col("replay_of").map_elements(game_ref, return_dtype=pl.String)
    status = (pl.when(pl.col("after_decided")).then(pl.lit("after decided"))
              .when(pl.col("counted")).then(pl.lit("counted"))
              .otherwise(pl.lit("draw: replayed")))
    return games.select("event", "date", "match", "game_no", refs.alias("game"), "winner",
                        status.alias("status"), replays.alias("replays"))


def show_best_of(view: View) -> None:
    """The section, when the view has games of a best-of match; nothing otherwise."""
    matches = read_matches(view, SHOWN)
    if matches.is_empty():
        return
    st.header("Best-of matches")
    st.caption("Matches whose games carry a BestOf tag: the first to win a majority of the "
               "N games wins. A drawn game does not count and is replayed; games played "
               "after the match was decided are listed but not counted. Newest first.")
    ui.table(matches, "best-of matches", key=KEY, hide_index=True, placeholder="",
             column_config={
        "best_of": "best of", "winner": "winner by games", "score": "games won",
        "decided_at": st.column_config.NumberColumn(
            "decided at game", help="the game of the match that decided it"),
        "after_decided": st.column_config.NumberColumn(
            "after decided", help="games played after the match was decided (not counted)"),
        "replays": st.column_config.NumberColumn(
            "replays", help="games that replayed a draw")})
    with st.expander("The games of these matches"):
        games = games_display(read_games(view, SHOWN))
        ui.table(games, "best-of games", hide_index=True, placeholder="",
                 column_config={"game_no": "game", "game": "ref",
                                "replays": st.column_config.TextColumn(
                                    "replays", help="the drawn game this game replays")})
