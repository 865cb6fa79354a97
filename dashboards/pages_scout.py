"""Scout: how predictable a player is, their habits, and how to beat them (as `gops scout`).

The report is learned from the player's recorded games (the sidebar's filters do not
apply): predictability on held-out games against uniform guessing, the habits that clear
uniform play, a counter-strategy measured by simulation, and the model's predicted bid by
prize. The player and the optional opponent ("you") are kept in the URL
(``?scout=NAME&vs=ME``) so the view can be shared.
"""

from __future__ import annotations

import re

import polars as pl
import streamlit as st

from dashboards import charts, data
from gops_records.scouting import ScoutError, ScoutReport
from gops_records.scouting.features import MAX_GAMES

P_SCOUT, P_VS = "scout", "vs"
ANYONE = "anyone"
#: The rate in a habit's sentence ("64% of the time", "in 40% of games"), dropped for a label.
RATE_WORDS = re.compile(r" (?:in )?\d+% of (?:the time|games)")


def url_select(label: str, options: list[str], param: str, key: str, default: str,
               help: str) -> str:
    """A selectbox that follows ``?param=`` when the URL changes and writes its choice back.

    ``default`` is chosen (and left out of the URL) when the URL names no known option.
    """
    wanted = st.query_params.get(param)
    last = f"{key}_url"
    if wanted in options and st.session_state.get(last) != wanted:
        st.session_state[key] = wanted
    if st.session_state.get(key) not in options:
        st.session_state[key] = default
    chosen = st.selectbox(label, options, key=key, help=help)
    st.session_state[last] = chosen
    if chosen == ANYONE:
        st.query_params.pop(param, None)
    else:
        st.query_params[param] = chosen
    return chosen


def pick(view: data.View) -> tuple[str, str | None, int] | None:
    """The player to scout, the opponent to restrict to (None: anyone) and the seed."""
    names = data.players(view.unfiltered)
    if not names:
        return None
    left, middle, right = st.columns([3, 3, 1])
    with left:
        player = url_select("Player to scout", names, P_SCOUT, "scout_pick", names[0],
                            "Anyone with recorded games.")
    with middle:
        vs = url_select("Only their games against", [ANYONE, *data.opponents(view, player)],
                        P_VS, "scout_vs", ANYONE,
                        "Pick yourself to study how they play against you (gops scout --vs).")
    seed = right.number_input("Seed", min_value=0, value=0, step=1, key="scout_seed",
                              help="Fixes how games are split for testing and the simulated "
                                   "games: change it to see how much the figures move.")
    return player, None if vs == ANYONE else vs, int(seed)


def show_predictability(report: ScoutReport, reads_by: str) -> None:
    p = report.predictability
    st.header("How predictable")
    st.caption(f"The model is fitted on some of the games and scored on the others "
               f"({p.folds}-fold, split by game), against a uniform choice among the cards "
               f"still in hand. It reads them by: {reads_by or 'uniform play'}.")
    cols = st.columns(4)
    cols[0].metric("Exact bid", f"{p.exact:.0%}", against(p.exact, p.baseline_exact),
                   help="How often the model's most likely card was the bid")
    cols[1].metric("Bid within one", f"{p.within_one:.0%}",
                   against(p.within_one, p.baseline_within_one),
                   help="How often the model's most likely card was at most one rank off")
    cols[2].metric("Log-loss", f"{p.log_loss:.3f}",
                   f"{p.log_loss - p.baseline_log_loss:+.3f} vs uniform "
                   f"{p.baseline_log_loss:.3f}", delta_color="inverse",
                   help="Mean -ln P(bid) in nats per bid: lower is better")
    gain = round(report.information_gain, 3) or 0.0  # no "-0.0%"
    cols[3].metric("Information gain", f"{gain:.1%}",
                   help="The share of the uniform log-loss the model saves on held-out "
                        "games (at or below 0: no better than uniform)")
    rates = pl.DataFrame({
        "measure": ["exact bid", "exact bid", "bid within one", "bid within one"],
        "guesser": ["the model", "a uniform guess"] * 2,
        "rate": [p.exact, p.baseline_exact, p.within_one, p.baseline_within_one]})
    left, _ = st.columns(2)
    left.altair_chart(charts.predictability_chart(rates, report.player), width="stretch")


def against(rate: float, baseline: float) -> str:
    """The metric's delta: percentage points above uniform guessing, and that rate."""
    return f"{100 * (rate - baseline):+.0f} pp vs uniform {baseline:.0%}"


def habit_frame(report: ScoutReport) -> pl.DataFrame:
    """One row per habit: a short label, its rate, support, 95% interval and uniform rate."""
    return pl.DataFrame({
        "habit": [RATE_WORDS.sub("", h.description.split(" (n=")[0]) for h in report.habits],
        "rate": [h.rate for h in report.habits],
        "count": [h.count for h in report.habits],
        "ci_low": [h.ci[0] for h in report.habits],
        "ci_high": [h.ci[1] for h in report.habits],
        "uniform": [h.baseline for h in report.habits],
    }, schema={"habit": pl.String, "rate": pl.Float64, "count": pl.Int64,
               "ci_low": pl.Float64, "ci_high": pl.Float64, "uniform": pl.Float64})


def show_habits(report: ScoutReport) -> None:
    st.header("Habits")
    st.caption("Only habits that beat uniform play by a clear margin are shown, tested "
               "together (Holm's correction), so a pattern from a few lucky bids is not "
               "reported.")
    if not report.habits:
        st.info(f"No reliable habits: nothing {report.player} does clears uniform play with "
                "confidence. They play like a random bidder, or there are too few games "
                "to tell; with more games weaker habits can show.")
        return
    st.markdown("\n".join(f"- {h.description}" for h in report.habits))
    table = habit_frame(report)
    st.altair_chart(charts.scout_habits_chart(table, report.player), width="stretch")
    with st.expander("The habits as a table"):
        show_habit_table(table)


def show_habit_table(table: pl.DataFrame) -> None:
    st.dataframe(table, hide_index=True, column_config={
        "rate": st.column_config.NumberColumn("rate", format="percent"),
        "count": st.column_config.NumberColumn("out of", help="situations where it could show"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent"),
        "uniform": st.column_config.NumberColumn("uniform play", format="percent")})


def show_counter(report: ScoutReport) -> None:
    c = report.counter
    prof = c.profile
    st.header("How to beat them")
    st.caption(f"Measured, not assumed: {c.counter.games} simulated games each against a bot "
               f"that bids as the model predicts, {prof.cards} cards, tie rule "
               f"{prof.tie_rule.value} (the rules of most of their games).")
    st.markdown(c.description)
    st.caption("Points per game: your score minus theirs, on average over the simulated games.")
    cols = st.columns(3)
    cols[0].metric("Counter-strategy", f"{c.counter.mean:+.1f}",
                   help=f"Points per game more than {report.player} (your score minus "
                        f"theirs); 95% interval ± {1.96 * c.counter.stderr:.1f}")
    cols[1].metric("A uniformly random reply", f"{c.random.mean:+.1f}",
                   help=f"Points per game; 95% interval ± {1.96 * c.random.stderr:.1f}")
    cols[2].metric("Gained by the counter", f"{c.counter.mean - c.random.mean:+.1f}",
                   help="Points per game more than a random reply gets")
    gains = pl.DataFrame({
        "reply": ["counter-strategy", "random reply"],
        "gain": [c.counter.mean, c.random.mean],
        "low": [c.counter.mean - 1.96 * c.counter.stderr, c.random.mean - 1.96 * c.random.stderr],
        "high": [c.counter.mean + 1.96 * c.counter.stderr, c.random.mean + 1.96 * c.random.stderr],
        "games": [c.counter.games, c.random.games]})
    left, _ = st.columns([3, 2])
    left.altair_chart(charts.gain_chart(gains, report.player), width="stretch")


def expected_bids(predicted: pl.DataFrame) -> pl.DataFrame:
    """Per prize: the model's mean bid, its most likely bid and the prize (long frame)."""
    per_prize = predicted.group_by("prize").agg(
        (pl.col("bid").cast(pl.Float64) * pl.col("probability")).sum().alias("expected bid"),
        pl.col("bid").sort_by("probability", descending=True).first().cast(pl.Float64)
        .alias("most likely bid"),
        pl.col("prize").first().cast(pl.Float64).alias("the prize"))
    return per_prize.unpivot(index="prize", variable_name="line", value_name="bid").sort(
        "line", "prize")


def show_predicted(scouted: data.Scouting) -> None:
    st.header("Predicted bid by prize")
    st.caption("What the model expects on each prize card, averaged over the situations "
               "the player actually met (cards left, pool, score).")
    left, right = st.columns(2)
    player = scouted.report.player
    left.altair_chart(charts.predicted_bid_chart(scouted.predicted, player), width="stretch")
    right.altair_chart(charts.expected_bid_chart(expected_bids(scouted.predicted), player),
                       width="stretch")


def main() -> None:
    view = data.current_view()
    st.title("Scout")
    st.caption("How predictable a player is, their habits, and how to beat them, learned from "
               f"their recorded games (the most recent {MAX_GAMES:,}; the sidebar's filters "
               "do not apply). The same report as `gops scout PLAYER [--vs ME]`.")
    picked = pick(view)
    if picked is None:
        st.info(data.explain_empty(view.unfiltered))
        return
    player, vs, seed = picked
    try:
        with st.spinner(f"Scouting {player}: testing the model and simulating games..."):
            scouted = data.scouting(view, player, vs, seed)
    except ScoutError as exc:
        st.info(f"Cannot scout {player} here: {exc}. Pick another player, or "
                f"{'widen to anyone' if vs else 'import more of their games'}.")
        return
    report = scouted.report
    against = f" against {vs}" if vs else ""
    st.subheader(f"{player} is {report.verdict()}")
    cols = st.columns(2)
    cols[0].metric("Games studied", report.games, help=f"Recorded games{against}")
    cols[1].metric("Bids", report.bids)
    show_predictability(report, scouted.reads_by)
    show_habits(report)
    show_counter(report)
    show_predicted(scouted)


if __name__ == "__main__":
    main()
