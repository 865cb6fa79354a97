"""Scout: how predictable a player is, their habits, and how to beat them (as `gops scout`).

The report is learned from the player's recorded games (the sidebar's filters do not
apply to what is studied): predictability on held-out games against uniform guessing,
with intervals that take the game as the unit; the habits that clear uniform play; the
counter-strategy, the generic strategy (bid the prize) and a random reply measured by
simulation, and the gain from exploiting the player (counter minus generic); the model's
predicted bid by prize. With few games the page says the sample is small. It reads games
of the classic rules only (games of the variants are left out, and the page says how
many). The player and the optional opponent ("you") are kept in the URL
(``?scout=NAME&vs=ME``) so the view can be shared; without ``?scout=`` the page starts
from the sidebar's player filter. Names come from records and links, so they are shown
as text (escaped), never as Markdown.
"""

from __future__ import annotations

import re

import polars as pl
import streamlit as st
from gops_records.dashboards import ui
from gops_records.dashboards.data import View, current_view
from gops_records.dashboards.gops import charts, data
from gops_records.dashboards.text import escape_md
from gops_records.dashboards.typed_names import as_stored

from gops_records.games.gops.scouting import ScoutError, ScoutReport
from gops_records.games.gops.scouting.features import MAX_GAMES
from gops_records.games.gops.scouting.results import GENERIC, MIN_GAMES, MIN_GAMES_TO_TELL

P_SCOUT, P_VS = "scout", "vs"
ANYONE = "anyone"
#: The rate in a habit's sentence ("64% of the time", "in 40% of games"), dropped for a label.
RATE_WORDS = re.compile(r" (?:in )?\d+% of (?:the time|games)")
GENERIC_NAME = GENERIC.split(":")[0]  # 'bid the prize'


def url_select(label: str, options: list[str], param: str, key: str, default: str,
               help: str) -> str:
    """A selectbox that follows ``?param=`` when the URL changes and writes its choice back.

    ``default`` is chosen (and left out of the URL) when the URL names no known option.
    """
    wanted = as_stored(st.query_params.get(param), options)  # names as typed
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


def default_player(view: View, names: list[str]) -> str:
    """The pick before any choice: the sidebar filter's first known player, else the first
    name (a change of the player filter moves the pick to its player, as on Players)."""
    filtered = [name for name in view.filters.players if name in names]
    state = st.session_state
    wanted = as_stored(st.query_params.get(P_SCOUT), names)
    new_link = wanted in names and state.get("scout_pick_url") != wanted  # see url_select
    if filtered and state.get("scout_filter") != filtered \
            and state.get("scout_pick") not in filtered and not new_link:
        state["scout_pick"] = filtered[0]
    state["scout_filter"] = filtered
    return filtered[0] if filtered else names[0]


def pick(view: View) -> tuple[str, str | None, int] | None:
    """The player to scout, the opponent to restrict to (None: anyone) and the seed."""
    names = data.players(view.unfiltered)
    if not names:
        return None
    left, middle, right = st.columns([3, 3, 1])
    with left:
        player = url_select("Player to scout", names, P_SCOUT, "scout_pick",
                            default_player(view, names),
                            "Anyone with recorded games; starts from the sidebar's player "
                            "filter.")
    with middle:
        vs = url_select("Only their games against", [ANYONE, *data.opponents(view, player)],
                        P_VS, "scout_vs", ANYONE,
                        "Pick yourself to study how they play against you (gops scout --vs).")
    seed = right.number_input("Seed", min_value=0, value=0, step=1, key="scout_seed",
                              help="Fixes how games are split for testing and the simulated "
                                   "games: change it to see how much the figures move.")
    return player, None if vs == ANYONE else vs, int(seed)


def pct_span(ci: tuple[float | None, float | None]) -> str:
    """'24-25%' (or '-3% to +12%' when a bound is negative); '' without an interval."""
    low, high = ci
    if low is None or high is None:
        return ""
    if low < 0:
        return f"{100 * low:+.0f}% to {100 * high:+.0f}%"
    return f"{100 * low:.0f}-{100 * high:.0f}%"


def show_predictability(report: ScoutReport, reads_by: str) -> None:
    p = report.predictability
    st.header("How predictable")
    st.caption(f"The model is fitted on some of the games and scored on the others "
               f"({p.folds}-fold, split by game), against a uniform choice among the cards "
               f"still in hand: {report.bids:,} bids in {report.games:,} games. Intervals "
               f"are 95% and take the game as the unit. It reads them by: "
               f"{reads_by or 'uniform play'}.")
    cols = st.columns(4)
    cols[0].metric("Exact bid", f"{p.exact:.0%}", against(p.exact, p.baseline_exact),
                   help=f"How often the model's most likely card was the bid, of "
                        f"{report.bids:,} bids; 95% interval {pct_span(p.exact_ci)}")
    cols[1].metric("Bid within one", f"{p.within_one:.0%}",
                   against(p.within_one, p.baseline_within_one),
                   help=f"How often the model's most likely card was at most one rank off, "
                        f"of {report.bids:,} bids; 95% interval {pct_span(p.within_one_ci)}")
    cols[2].metric("Log-loss", f"{p.log_loss:.3f}",
                   f"{p.log_loss - p.baseline_log_loss:+.3f} vs uniform "
                   f"{p.baseline_log_loss:.3f}", delta_color="inverse",
                   help="Mean -ln P(bid) in nats per bid: lower is better")
    gain = round(report.information_gain, 3) or 0.0  # no "-0.0%"
    span = pct_span(p.information_gain_ci)
    cols[3].metric("Information gain", f"{gain:.1%}", f"95% CI {span}" if span else None,
                   delta_color="off",
                   help="The share of the uniform log-loss the model saves on held-out "
                        "games (at or below 0: no better than uniform)")
    rates = pl.DataFrame({
        "measure": ["exact bid", "exact bid", "bid within one", "bid within one"],
        "guesser": ["the model", "a uniform guess"] * 2,
        "rate": [p.exact, p.baseline_exact, p.within_one, p.baseline_within_one]})
    left, _ = st.columns(2)
    ui.chart(charts.predictability_chart(rates, report.player), "scout-predictability",
             where=left)


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
               "reported. n is the number of bids (or games) each was looked for in; the "
               "interval takes the game as the unit.")
    name = escape_md(report.player)
    if not report.habits:
        more = (f" With {report.games} games that says little: habits need more bids to "
                "show." if report.small_sample else "")
        st.info(f"No reliable habits: nothing {name} does clears uniform play with "
                "confidence. They play like a random bidder, or there are too few games "
                f"to tell; with more games weaker habits can show.{more}")
        return
    st.markdown("\n".join(f"- {h.description}" for h in report.habits))  # our own words
    table = habit_frame(report)
    ui.chart(charts.scout_habits_chart(table, report.player), "scout-habits")
    with st.expander("The habits as a table"):
        show_habit_table(table)


def show_habit_table(table: pl.DataFrame) -> None:
    ui.table(table, "scout-habits", hide_index=True, column_config={
        "rate": st.column_config.NumberColumn("rate", format="percent"),
        "count": st.column_config.NumberColumn("out of", help="situations where it could show"),
        "ci_low": st.column_config.NumberColumn("95% CI low", format="percent"),
        "ci_high": st.column_config.NumberColumn("95% CI high", format="percent"),
        "uniform": st.column_config.NumberColumn("uniform play", format="percent")})


def gain_frame(report: ScoutReport) -> pl.DataFrame:
    """The three replies' gains with their 95% simulation intervals and games."""
    c = report.counter
    replies = [("counter-strategy", c.counter), (f"generic: {GENERIC_NAME}", c.generic),
               ("random reply", c.random)]
    return pl.DataFrame({
        "reply": [name for name, _ in replies],
        "gain": [g.mean for _, g in replies],
        "low": [g.mean - 1.96 * g.stderr for _, g in replies],
        "high": [g.mean + 1.96 * g.stderr for _, g in replies],
        "games": [g.games for _, g in replies]})


def show_counter(report: ScoutReport) -> None:
    c = report.counter
    prof = c.profile
    st.header("How to beat them")
    st.caption(f"Measured, not assumed: {c.counter.games} simulated games each against a bot "
               f"that bids as the model predicts, {prof.cards} cards, tie rule "
               f"{prof.tie_rule.value} (the rules of most of their games). The generic "
               f"strategy is the one fixed strategy a sound player uses against anyone: "
               f"{GENERIC}.")
    st.markdown(c.description)  # our own words, no names
    st.caption("Points per game: your score minus theirs, on average over the simulated games "
               "(the same prize orders for every reply).")
    cols = st.columns(4)
    cols[0].metric("Counter-strategy", f"{c.counter.mean:+.1f}",
                   help=f"Points per game more than them (your score minus theirs); 95% "
                        f"interval ± {1.96 * c.counter.stderr:.1f} (simulation)")
    cols[1].metric("Generic strategy", f"{c.generic.mean:+.1f}",
                   help=f"{GENERIC_NAME}: points per game; 95% interval "
                        f"± {1.96 * c.generic.stderr:.1f} (simulation)")
    cols[2].metric("A uniformly random reply", f"{c.random.mean:+.1f}",
                   help=f"Points per game; 95% interval ± {1.96 * c.random.stderr:.1f}")
    cols[3].metric("Gain from exploiting them",
                   f"{c.exploit_estimate:+.1f}" if report.can_tell else "cannot tell",
                   exploit_delta(c), delta_color="off",
                   help="The counter's points per game minus the generic strategy's, game "
                        "by game: what scouting this player is worth, measured where it "
                        "counts: what a counter made from some of the games gains in games "
                        "its model never saw (cross-fitted, simulation error included; the "
                        "figure is its interval's centre, so it can be below counter minus "
                        "generic above, which is measured on the model the counter was "
                        f"planned on). Below {MIN_GAMES_TO_TELL} games it cannot tell.")
    st.markdown(exploit_sentence(report))
    left, _ = st.columns([3, 2])
    ui.chart(charts.gain_chart(gain_frame(report), report.player), "scout-gains", where=left)


def exploit_delta(c) -> str:
    """The exploit's 95% interval as the metric's delta text."""
    if c.exploit_ci is None:
        return f"± {1.96 * c.exploit.stderr:.1f} (simulation)"
    low, high = c.exploit_ci
    return f"95% CI {low:+.1f} to {high:+.1f}"


def exploit_sentence(report: ScoutReport) -> str:
    """Whether scouting pays, in one sentence that does not claim more than the interval."""
    c = report.counter
    name = escape_md(report.player)
    if not report.can_tell:
        return (f"Cannot tell whether exploiting {name} pays: {report.games} game"
                f"{'s' * (report.games != 1)} are too few (at least {MIN_GAMES_TO_TELL} "
                "needed), however sure the figures look: play the generic strategy.")
    low, high = c.exploit_ci if c.exploit_ci is not None else (
        c.exploit.mean - 1.96 * c.exploit.stderr, c.exploit.mean + 1.96 * c.exploit.stderr)
    if low > 0:
        verdict = (f"Exploiting {name} pays: the counter gains {c.exploit_estimate:+.1f} points "
                   f"per game over {escape_md(GENERIC_NAME)} (95% CI {low:+.1f} to "
                   f"{high:+.1f}).")
    elif high < 0:
        verdict = (f"Against {name}, {escape_md(GENERIC_NAME)} does better than the counter "
                   f"({-c.exploit_estimate:.1f} points per game).")
    else:
        verdict = (f"Exploiting {name} adds no clear gain over {escape_md(GENERIC_NAME)} "
                   f"(95% CI {low:+.1f} to {high:+.1f} points per game): play the generic "
                   "strategy.")
    if report.small_sample:
        verdict += " With so few games the model itself is uncertain: take it as a first look."
    return verdict


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
    ui.chart(charts.predicted_bid_chart(scouted.predicted, player), "scout-predicted",
             where=left)
    ui.chart(charts.expected_bid_chart(expected_bids(scouted.predicted), player),
             "scout-expected", where=right)


def main() -> None:
    view = current_view()
    st.title("Scout")
    st.caption("How predictable a player is, their habits, and how to beat them, learned from "
               f"their recorded games of the classic rules (the most recent {MAX_GAMES:,}; "
               "games of the variants, multi-card bids and open prizes, are left out; the "
               "sidebar's filters do not apply, except that its player is the first one "
               "scouted). The same report as `gops scout PLAYER [--vs ME]`.")
    picked = pick(view)
    if picked is None:
        st.info(data.explain_empty(view.unfiltered))
        return
    player, vs, seed = picked
    name = escape_md(player)
    try:
        with st.spinner(f"Scouting {name}: testing the model and simulating games..."):
            scouted = data.scouting(view, player, vs, seed)
    except ScoutError as exc:
        st.info(f"Cannot scout {name} here: {escape_md(exc)}. Pick another player, or "
                f"{'widen to anyone' if vs else 'import more of their games'}.")
        return
    report = scouted.report
    against_text = f" against {escape_md(vs)}" if vs else ""
    st.subheader(f"{name} is {report.verdict()}")
    caution = report.caution()
    if caution:
        st.warning(caution)
    note = report.variants_note()
    if note:
        st.info(note)
    cols = st.columns(2)
    cols[0].metric("Games studied", report.games,
                   help=f"Recorded games{against_text}; fewer than {MIN_GAMES} is a small "
                        "sample")
    cols[1].metric("Bids", report.bids)
    show_predictability(report, scouted.reads_by)
    show_habits(report)
    show_counter(report)
    from gops_records.dashboards.gops.review_panel import show_scout_baseline
    show_scout_baseline(report)
    show_predicted(scouted)


if __name__ == "__main__":
    main()
