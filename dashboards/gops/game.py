"""Game viewer: any game round by round (prizes, pool, bids, who took what, running score).

A game of a variant reads as `gops replay` reads it (one reading,
:func:`gops_records.games.gops.analytics.games.variant_rounds`): a bid of several cards as its cards
and strength, an open-prize game as the prizes revealed, the row on offer, the prize taken
and by whom and the prize a tie set aside.

Also home of :func:`game_table`, the game list every other page uses: clicking a row (or
its link) opens the game here, with ``?game_id=...`` in the URL. The page body runs only
when Streamlit runs this file as a page (``__name__ == "__main__"``), so other pages can
import the helpers.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import polars as pl
import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import current_view
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.gops import ui as gops_ui
from gops_records.dashboards.text import escape_md

from gops_records.core.game_refs import game_ref, parse_game_ids
from gops_records.games.gops.analytics import GameDetail
from gops_records.games.gops.analytics.games import game_ref_expr, variant_rounds
from gops_records.games.gops.cards import MAX_RANK, rank_name
from gops_records.games.gops.rules import TieRule

GAME_PAGE = Path(__file__).resolve()
GAME_URL = "game"  # the url_path app.py gives this page
P_GAME = "game_id"
LIST_LIMIT = 500
#: Card ranks as players name them: 1 -> A, 11 -> J, 12 -> Q, 13 -> K.
CARD_NAMES = {rank: rank_name(rank) for rank in range(1, MAX_RANK + 1)}


def open_game(game_id: int | str) -> None:
    """Switch to the game viewer on ``game_id``, keeping the sidebar's filters in the URL."""
    params = {**current_view().filters.to_query_params(), P_GAME: str(game_id)}
    st.switch_page(GAME_PAGE, query_params=params)


def game_table(games: pl.DataFrame, key: str, *, columns: list[str] | None = None,
               height: int | str = "auto") -> None:
    """A table of games; selecting a row opens that game in the game viewer.

    ``games`` needs a ``game_id`` column; ``columns`` picks the others to show. Each game
    has its short reference (``ref``, :func:`gops_records.games.gops.analytics.games.game_ref`) and
    a
    link; the CSV download has the full id too.
    """
    shown = columns or [c for c in ("date", "winner", "result", "players", "event", "match",
                                    "rounds_played") if c in games.columns]
    shared = urlencode(current_view().filters.to_query_params(), doseq=True)
    table = games.with_columns(
        (f"{GAME_URL}?{P_GAME}=" + pl.col("game_id").cast(pl.String)
         + (f"&{shared}" if shared else ""))
        .alias("open"),
        game_ref_expr().alias("ref"),
        *([pool_names()] if "pool_cards" in games.columns else []))
    # The key columns first, the link and the reference last: on a phone (390 px) the
    # first three or four columns are what shows without scrolling sideways.
    event = ui.table(
        table.select(*shown, "ref", "open"), key, key=key, hide_index=True, height=height,
        on_select="rerun", selection_mode="single-row", placeholder="",
        csv=table.select("ref", "game_id", *shown),
        column_config={
            "open": st.column_config.LinkColumn("game", display_text="open ↗", width="small",
                                                help="Open in the game viewer (new tab)"),
            "ref": st.column_config.TextColumn("ref", width="small",
                                               help="Short reference of the game"),
            "date": st.column_config.DateColumn("date", format="YYYY-MM-DD"),
            # wide enough for a name (it was cut to "Sofia Alr" beside the numbers)
            "winner": st.column_config.TextColumn("winner", width=110),
            "rounds_played": st.column_config.NumberColumn("rounds"),
            "round_no": st.column_config.NumberColumn("round"),
            "pool_value": st.column_config.NumberColumn("pool value"),
            "pool_cards": "prize cards in pool",
        })
    rows = event.selection.rows if event is not None else []
    if rows:
        open_game(table["game_id"][rows[0]])


def _label(row: dict) -> str:
    """A game as the picker lists it (plain text, never Markdown)."""
    bits = [game_ref(row["game_id"]), str(row["date"]) if row["date"] else "undated",
            row["event"] or "no event", row["players"], row["result"]]
    return " · ".join(str(b) for b in bits if b)


def card_names(column: str) -> pl.Expr:
    """A column of card ranks as names: A, 2..10, J, Q, K."""
    return pl.col(column).replace_strict(CARD_NAMES, default=None, return_dtype=pl.String)


def pool_names(column: str = "pool_cards") -> pl.Expr:
    """A pool written as ranks ('13+1') as named cards ('K+A')."""
    return pl.col(column).str.split("+").list.eval(
        pl.element().cast(pl.Int64).replace_strict(CARD_NAMES, default=None,
                                                   return_dtype=pl.String)).list.join("+")


#: The round table's columns after the bids, in the order shown (the CSV keeps the
#: stored order): what was bid and who took it come first, to be seen on a phone.
AFTER_BIDS_SHOWN = ("taken_by", "pool_value", "score", "pool_cards", "carried_in", "comment")


def named_cards(detail: GameDetail) -> pl.DataFrame:
    """The round table with cards named A, 2..10, J, Q, K (prize, pool, bids): round,
    prize, the bids, who took the pool, then the rest."""
    bids = detail.header["bid_columns"]
    table = detail.rounds.with_columns(card_names("prize"), *(card_names(c) for c in bids),
                                       pool_names())
    rest = [c for c in table.columns if c not in {"round_no", "prize", *bids,
                                                   *AFTER_BIDS_SHOWN}]
    return table.select("round_no", "prize", *bids,
                        *(c for c in AFTER_BIDS_SHOWN if c in table.columns), *rest)


def running_scores(detail: GameDetail) -> pl.DataFrame:
    """Long frame (round_no, player, score): each player's points after each round."""
    rounds = detail.rounds
    parts = [rounds.select(
        "round_no", pl.lit(name).alias("player"),
        pl.when(pl.col("taken_by") == name).then(pl.col("pool_value")).otherwise(0)
        .cum_sum().alias("score"))
        for name in dict.fromkeys(detail.header["players"])]
    return pl.concat(parts) if parts else pl.DataFrame()


def bids_long(detail: GameDetail) -> pl.DataFrame:
    """Long frame (round_no, prize, pool_value, player, bid, won) for the bids chart."""
    columns = detail.header["bid_columns"]
    names = dict(zip(columns, detail.header["players"], strict=True))
    return (detail.rounds.unpivot(index=["round_no", "prize", "pool_value", "taken_by"],
                                  on=columns, variable_name="column", value_name="bid")
            .with_columns(pl.col("column").replace_strict(names).alias("player"))
            .with_columns((pl.col("player") == pl.col("taken_by")).alias("won"))
            .drop("column", "taken_by"))


def show_game(detail: GameDetail) -> None:
    h = detail.header
    players = [escape_md(p) for p in h["players"]]
    outcome = {None: "unfinished", "draw": "a draw"}.get(
        h["winner"], f"{escape_md(h['winner'])} won")
    st.subheader(f"{' vs '.join(players)}: {outcome}")
    where = " · ".join(escape_md(x) for x in (
        h["event"], h["site"], h["date_text"] or h["date"],
        f"round {h['round']}" if h["round"] else None,
        f"match {h['match']}" if h["match"] else None) if x)
    read = variant_rounds(detail)  # None for a classic game
    variant = "" if read is None else f"{escape_md(h['variant'])} · "
    st.caption(f"Game **{game_ref(h['game_id'])}** · {variant}"
               f"{where or 'no event or date recorded'} — from {escape_md(h['source'])}, "
               f"game {h['source_game']} (line {h['source_line']})")
    cols = st.columns(4)
    cols[0].metric("Result", h["result"], help="Points in seat order: "
                   + ", ".join(f"{p} {s}" for p, s in zip(players, h["scores"], strict=True)))
    cols[1].metric("Tie rule", h["tie_rule"])
    cols[2].metric("Rounds", f"{h['rounds_played']} of {detail.profile.rounds}")
    cols[3].metric("Unclaimed points", "—" if h["unclaimed"] is None else h["unclaimed"])
    name = f"game-{game_ref(h['game_id'])}-rounds"
    if read is None:
        st.markdown("**Round by round.** *pool* is every prize card on offer (carried ones "
                    "first); *taken by* is who won the pool with the highest bid.")
        ui.table(named_cards(detail), name, csv=detail.rounds,
                 hide_index=True, height="content", placeholder="",
                 column_config={
                     "round_no": st.column_config.NumberColumn("round"),
                     "pool_cards": "pool", "pool_value": "pool value",
                     "carried_in": "carried in", "taken_by": "taken by",
                     "score": "score after"})
    else:
        st.markdown(_variant_note(detail))
        ui.table(read, name, hide_index=True, height="content", placeholder="",
                 column_config={"round": st.column_config.NumberColumn("round"),
                                "score": "score after"})
    if detail.profile.is_open:  # no pool: the bids chart reads bids against a pool
        ui.chart(charts.running_score_chart(running_scores(detail)), "running-score")
    else:
        left, right = st.columns(2)
        ui.chart(charts.running_score_chart(running_scores(detail)), "running-score",
                 where=left)
        ui.chart(charts.game_bids_chart(bids_long(detail)), "bids", where=right)
    with st.expander("All tags"):
        st.json(h["tags"])


def _variant_note(detail: GameDetail) -> str:
    """What the round table of a game of a variant shows."""
    p = detail.profile
    if p.open_prizes is not None:
        aside = ("under the discard rule a tie sets the prize revealed last aside "
                 "(*set aside*): nobody scores it" if p.tie_rule is TieRule.DISCARD else
                 "under the carry rule a tie leaves the row as it is")
        return (f"**Round by round.** Open prizes in a row of {p.open_prizes}: *revealed* is "
                "what the round's top-up turned face up, *row* the prizes on offer, *taken* "
                "the prize the highest bidder chose and *by* who took it, or what a tie did; "
                f"{aside}.")
    return (f"**Round by round.** Every bid is {p.bid_cards} cards, shown with its strength "
            f"(their sum: `9♣+4♣ = 13`); the highest strength takes the pool. *pool* is every "
            "prize card on offer (carried ones first); *taken by* is who took it, or what a "
            f"tie did. {p.rounds} rounds: {p.rounds} of the {p.cards} prizes are revealed.")


def main() -> None:
    view = current_view()
    st.title("Game viewer")
    st.caption("Any game round by round. Pick one below, or open one from a game list on "
               "another page; the address bar then holds a link to this game.")
    games = data.games(view, LIST_LIMIT)
    wanted = st.query_params.get(P_GAME)
    if games.is_empty() and not wanted:
        gops_ui.no_games(view, "game")
        return
    labels = {str(row["game_id"]): _label(row) for row in games.iter_rows(named=True)}
    if wanted and wanted not in labels:
        parsed = parse_game_ids(wanted)  # a game outside the list: named by its reference
        labels = {wanted: f"game {game_ref(parsed[0]) if parsed else wanted}", **labels}
    ids = list(labels)
    if st.session_state.get("game_pick") not in ids or (
            wanted and st.session_state.get("game_url") != wanted):
        st.session_state["game_pick"] = wanted if wanted in labels else ids[0]
    game_id = st.selectbox(f"Game ({len(games)} newest that match the filters)", ids,
                           key="game_pick", format_func=labels.__getitem__)
    st.session_state["game_url"] = game_id
    st.query_params[P_GAME] = game_id
    detail = data.game_detail(view, game_id)
    if detail is None:
        st.warning(f"There is no game with id {escape_md(game_id)} in this database. It may "
                   "come from another database; pick a game from the list instead.")
        return
    show_game(detail)
    from gops_records.dashboards.gops.review_panel import show_game_review
    show_game_review(view, game_id)


if __name__ == "__main__":
    main()
