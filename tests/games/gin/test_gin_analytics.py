"""Gin Rummy analytics: figures worked out by hand on gin_club.gin, the filters, and
agreement with the engine's own scoring on simulated club evenings."""

from __future__ import annotations

import datetime as dt
import io
from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest

from gops_records.core.importer import import_paths
from gops_records.games.gin import analytics as a
from gops_records.games.gin.grouping import group_hands
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.simulate import Budget, write_simulation

CLUB = Path(__file__).parent / "gin_club.gin"
ALL = a.GinFilters()


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    db = tmp_path_factory.mktemp("gin") / "club.duckdb"
    import_paths([CLUB], db)
    con = duckdb.connect(str(db), read_only=True)
    yield con
    con.close()


def rows(df, key):
    return {r[key]: r for r in df.iter_rows(named=True)}


def test_overview_and_standings(con):
    o = a.overview(con, ALL)
    assert (o["hands"], o["games"], o["finished_games"], o["matches"], o["players"]) == \
        (4, 3, 1, 3, 2)
    s = rows(a.standings(con, ALL), "player")
    # game 1 to Alice: 129 - 60 + 100 + 20 x (1 - 1) = 169; Bruno won 3 hands: 60 + 26 + 25
    assert (s["Alice"]["games_won"], s["Alice"]["game_points"], s["Alice"]["hands_won"],
            s["Alice"]["hand_points"]) == (1, 169, 1, 129)
    assert (s["Bruno"]["games"], s["Bruno"]["games_won"], s["Bruno"]["hands_won"],
            s["Bruno"]["hand_points"]) == (1, 0, 3, 111)
    assert s["Alice"]["matches"] == 1 and s["Alice"]["matches_won"] == 0  # undecided
    (m,) = a.match_results(con, ALL).iter_rows(named=True)
    assert (m["games_a"], m["games_b"], m["points_a"], m["winner"]) == (1, 0, 169, None)
    summary = a.game_summary(con, ALL)
    assert (summary["games"], summary["blitzes"], summary["median_hands"]) == (1, 0, 2)
    assert a.hands_per_game(con, ALL).rows() == [(2, 1)]
    assert a.game_scores(con, ALL).rows() == [(150, "no blitz", 1)]


def test_how_hands_end_and_undercuts(con):
    ends = {(r["knock_limit"], r["outcome"]): r["hands"]
            for r in a.endings_by_limit(con, ALL).iter_rows(named=True)}
    assert ends == {("3", "big_gin"): 1, ("6", "gin"): 1, ("7", "undercut"): 2}
    alice = {r["ending"]: r["hands"] for r in a.endings_by_player(con, ALL).iter_rows(named=True)
             if r["player"] == "Alice"}
    assert alice == {"big gin": 1, "knocked, undercut": 2, "opponent's gin": 1}
    (limit,) = a.undercuts_by_limit(con, ALL).iter_rows(named=True)
    assert (limit["knock_limit"], limit["knocks"], limit["undercuts"], limit["rate"]) == \
        ("7", 2, 2, 1.0)
    (deadwood,) = a.undercuts_by_deadwood(con, ALL).iter_rows(named=True)
    assert (deadwood["deadwood"], deadwood["knocks"]) == (2, 2)
    assert deadwood["ci_low"] < 1.0 == deadwood["ci_high"]


def test_knockers_turns_seats_caught_and_pile(con):
    k = rows(a.knockers(con, ALL), "player")
    assert (k["Alice"]["outs"], k["Alice"]["knocks"], k["Alice"]["gins"]) == (3, 2, 1)
    assert k["Alice"]["knock_deadwood"] == 2 and k["Alice"]["limit_left"] == 5  # limit 7
    assert k["Bruno"]["rate"] == 1.0 and k["Bruno"]["knock_deadwood"] is None
    t = rows(a.turns_to_out(con, ALL), "player")
    # Alice's turns: 1 and 3 before big gin, 1 3 5 7 before each knock; Bruno's gin on 2
    assert (t["Alice"]["outs"], t["Alice"]["median_turns"], t["Alice"]["fewest"]) == (3, 4, 2)
    assert t["Bruno"]["mean_turns"] == 1
    seats = rows(a.seat_effects(con, ALL), "who")
    assert (seats["non-dealer"]["hands"], seats["non-dealer"]["won"]) == (4, 1)
    assert (seats["took the first upcard"]["hands"], seats["took the first upcard"]["won"]) \
        == (1, 1)
    assert seats["non-dealer, both passed the upcard"]["hands"] == 3
    caught = rows(a.caught_by_player(con, ALL), "player")
    assert (caught["Alice"]["mean_deadwood"], caught["Alice"]["points_given"]) == (35, 60)
    assert (caught["Bruno"]["mean_deadwood"], caught["Bruno"]["points_given"]) == (79, 129)
    assert dict(a.deadwood_caught(con, ALL).select("deadwood_from", "hands").rows()) == \
        {35: 1, 75: 1}
    pile = rows(a.pile_takers(con, ALL), "player")
    assert (pile["Bruno"]["draws"], pile["Bruno"]["pile_draws"]) == (5, 1)
    assert (pile["Alice"]["draws"], pile["Alice"]["pile_draws"]) == (7, 0)
    buckets = Counter({(r["pile_draws"], r["ending"]): r["hands"]
                       for r in a.pile_draw_endings(con, ALL).iter_rows(named=True)})
    assert buckets[("1", "gin")] == 1 and sum(buckets.values()) == 8


def test_filters(con):
    cup = a.GinFilters(events=("Cup",))
    assert a.overview(con, cup)["hands"] == 1
    assert a.standings(con, cup)["games"].to_list() == [0, 0]
    march_5 = a.GinFilters(date_from=dt.date(2026, 3, 5), date_to=dt.date(2026, 3, 5))
    assert a.overview(con, march_5)["hands"] == 2
    assert a.overview(con, a.GinFilters(matches=("Equal", "Undercut")))["hands"] == 2
    assert a.overview(con, a.GinFilters(players=("Nobody",)))["hands"] == 0
    assert a.list_players(con, a.GinFilters(players=("Alice",))) == ["Alice", "Bruno"]
    assert a.endings_by_player(con, a.GinFilters(players=("Bruno",)))["player"].unique() \
        .to_list() == ["Bruno"]
    assert a.list_events(con) == ["Cup", "Gin night"]
    assert "events Cup" in cup.describe() and ALL.describe() == "every Gin Rummy hand"
    shown = a.list_hands(con, ALL)
    assert shown["upcard"].to_list()[-1] == "6♣" and set(shown["knock_limit"]) >= {"7", "3"}


def test_the_figures_agree_with_the_engine_on_simulated_evenings(tmp_path):
    out = io.StringIO()
    write_simulation(out, Budget(games=16), seed=21)
    text = out.getvalue()
    (tmp_path / "sim.gin").write_text(text, encoding="utf-8")
    db = tmp_path / "sim.duckdb"
    import_paths([tmp_path / "sim.gin"], db)
    reports = read_hands(text)
    grouping = group_hands(reports)
    won: Counter = Counter()
    points: Counter = Counter()
    for match in grouping.matches:
        for game in match.games:
            if game.score is not None:
                name = match.players[game.score.winner.index]
                won[name] += 1
                points[name] += game.score.points
    ends = Counter(r.result.outcome.value for r in reports)
    with duckdb.connect(str(db), read_only=True) as con:
        s = a.standings(con, ALL)
        assert {r["player"]: r["games_won"] for r in s.iter_rows(named=True)
                if r["games_won"]} == dict(won)
        assert {r["player"]: r["game_points"] for r in s.iter_rows(named=True)
                if r["game_points"]} == dict(points)
        by_limit = a.endings_by_limit(con, ALL)
        assert Counter(dict(by_limit.group_by("outcome").agg(
            pl.col("hands").sum()).rows())) == ends
        assert a.game_summary(con, ALL)["games"] == sum(won.values()) == 16
        undercuts = a.undercuts_by_limit(con, ALL)
        assert undercuts["knocks"].sum() == ends["knock"] + ends["undercut"]
        assert undercuts["undercuts"].sum() == ends["undercut"]
