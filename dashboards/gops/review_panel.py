"""The equilibrium review on the pages: a game's rounds against the equilibrium (Game
viewer) and a player's mean cost per bid per evening (Players).

The Game viewer's panel reviews the game with the tablebase beside the database
(gops_records.games.gops.theory.stored_review): a game whose positions `gops review` has
solved before costs a few linear programs, and each review is cached per game. The
Players panel reads only the bids kept by earlier reviews (never solves): `gops review
--player NAME` fills it.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import View
from gops_records.dashboards.text import escape_md

from gops_records.games.gops.theory.position import Objective

OBJECTIVES = {"points": "expected points", "win": "win minus loss"}


@st.cache_data(max_entries=64, show_spinner="Reviewing the game against the equilibrium…")
def _review(db: str, stamp, game_id: int, objective: str):
    from gops_records.games.gops.theory.stored_review import review_stored

    return review_stored(db, game_id, Objective(objective))


def rounds_frame(review) -> pl.DataFrame:
    """One row per analysed round: the position, its value, both bids and their costs,
    both equilibrium mixes as text."""
    def mix(hand, probs) -> str:
        return "  ".join(f"{c}: {p:.0%}" for c, p in zip(hand, probs, strict=True) if p > 1e-9)

    return pl.DataFrame([{
        "round": r.round_no, "prize": r.prize, "pool": r.pool, "lead": r.lead,
        "value": None if r.value is None else round(r.value, 3),
        "bid_a": r.bids[0].card, "cost_a": round(r.bids[0].cost, 3),
        "bid_b": r.bids[1].card, "cost_b": round(r.bids[1].cost, 3),
        "mix_a": mix(r.hand_a, r.mix_a), "mix_b": mix(r.hand_b, r.mix_b)}
        for r in review.rounds])


def show_game_review(view: View, game_id: int | str) -> None:
    """The review section of the Game viewer for a stored game."""
    from gops_records.games.gops.theory.review import ReviewUnsupported

    st.header("Against the equilibrium")
    objective = st.radio("Objective", list(OBJECTIVES), format_func=OBJECTIVES.__getitem__,
                         horizontal=True, key="review_objective",
                         help="points: expected final point difference; win: P(ahead) - "
                              "P(behind) at the end.")
    review = _review(view.db, view.stamp, int(game_id), objective)
    if isinstance(review, ReviewUnsupported):
        st.info(f"Not reviewed: {escape_md(str(review))}")
        return
    unit = "points" if objective == "points" else "win minus loss"
    st.caption(f"Rounds {review.first_round} to {review.rounds_played} analysed exactly "
               f"(hands of at most {review.rounds_played - review.first_round + 1} cards). "
               f"*value*: the position before the reveal, for A ({unit}; blank in the first "
               "round analysed of a longer game); a bid's *cost*: "
               "what it gives away against the opponent's equilibrium that punishes it "
               "most (0 for a bid an equilibrium plays). Accuracy as lichess reckons it, "
               "over the bids with a choice (docs/theory.md).")
    cols = st.columns(2)
    for col, seat, name in zip(cols, ("A", "B"), review.players, strict=True):
        acc = review.accuracy(seat)
        mean, count = review.mean_cost(seat)
        col.metric(f"Accuracy of {escape_md(name)}", "—" if acc is None else f"{acc:.1f}",
                   help=f"{count} bids with a choice; mean cost "
                        f"{'—' if mean is None else f'{mean:.3f}'} {unit}")
        col.caption(f"{count} bids with a choice · mean cost "
                    f"{'—' if mean is None else f'{mean:.3f}'}")
    frame = rounds_frame(review)
    ui.table(frame, f"review-{game_id}-{objective}", hide_index=True, height="content",
             column_config={"bid_a": f"{review.players[0]} bid",
                            "cost_a": f"{review.players[0]} cost",
                            "bid_b": f"{review.players[1]} bid",
                            "cost_b": f"{review.players[1]} cost",
                            "mix_a": "A's equilibrium", "mix_b": "B's equilibrium"})
    costly = review.costliest()
    if costly:
        st.markdown("**Costliest bids:** " + "; ".join(
            f"round {b.round_no}, {escape_md(b.player)} bid {b.card} "
            f"(cost {b.cost:.3f})" for b in costly))
    else:
        st.markdown("**Costliest bids:** none: every bid was one an equilibrium plays.")


@st.cache_data(ttl=60, max_entries=32)
def _kept(db: str, stamp, objective: str, rounds: int) -> pl.DataFrame:
    from gops_records.games.gops.theory import review_store
    from gops_records.games.gops.theory.tablebase import beside

    return review_store.read(beside(Path(db)), Objective(objective), rounds)


def show_player_costs(view: View, player: str) -> None:
    """The Players page's section: the player's mean cost per bid, per evening, from the
    reviews kept (none solved here)."""
    from gops_records.games.gops.theory import review_store
    from gops_records.games.gops.theory.review import default_rounds

    st.header("Against the equilibrium")
    rounds = default_rounds(Objective.POINTS)
    kept = _kept(view.db, view.stamp, Objective.POINTS.value, rounds)
    evenings = review_store.player_evenings(kept, player)
    if evenings.is_empty():
        st.info(f"No reviewed game of {escape_md(player)} yet. `gops review --player "
                f"\"{escape_md(player)}\"` reviews their stored games (then they show here).")
        return
    games = int(evenings["games"].sum())
    bids = int(evenings["bids"].sum())
    st.caption(f"Mean cost per bid with a choice (expected points given away against the "
               f"equilibrium) per evening, in the last {rounds} rounds of "
               f"{games} reviewed games ({bids} bids), with a 95% interval.")
    ui.table(evenings.with_columns(pl.col("mean_cost", "low", "high", "accuracy").round(3)),
             f"equilibrium-cost-{player}", hide_index=True, height="content",
             column_config={"mean_cost": "mean cost", "low": "95% low",
                            "high": "95% high"})


def show_scout_baseline(report) -> None:
    """The Scout page's section: the equilibrium's guaranteed value beside the
    counter-strategy, and the player's exploitability in endgames (scouting/equilibrium.py)."""
    base = getattr(report, "equilibrium", None)
    st.header("Against the equilibrium")
    if base is None:
        st.info("No endgame the solver covers among the player's games (two players, one "
                "card a bid, a shuffled pile): no equilibrium baseline.")
        return
    st.caption(f"The last {base.cards_left} rounds of {base.endgames} recent games, solved "
               "exactly (points per endgame, your side). The equilibrium guarantees its "
               "value whatever the player does; from the start of a game it is worth "
               f"{base.start_value:+.1f}, the honest baseline beside the counter-strategy. "
               "A best response to the model is what exploiting it could add.")
    cols = st.columns(3)
    cols[0].metric("Equilibrium guarantees", f"{base.equilibrium:+.2f}",
                   help=f"mean over {base.endgames} endgames")
    cols[1].metric("Best response to the model", f"{base.best_response:+.2f}",
                   help=f"mean over {base.endgames} endgames")
    ci = "" if base.low is None else f"95% CI {base.low:+.2f} to {base.high:+.2f}; "
    cols[2].metric("Exploitability", f"{base.exploitability:+.2f}",
                   help=f"{ci}{base.endgames} endgames")
    cols[2].caption(f"{ci}n = {base.endgames} endgames")
