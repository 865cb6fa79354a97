"""Simulated Gin Rummy: valid hands in games and matches, reproducible, broken hands."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest

from gops_records.core.clubs import UnknownBotError
from gops_records.games.gin.grouping import group_hands
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.rules import GinProfile
from gops_records.games.gin.simulate import (
    GIN_ROSTER,
    Budget,
    GinDefect,
    broken_hands,
    gin_player,
    gin_roster,
    simulate,
    write_simulation,
)


def text_of(budget, seed=1, **kw):
    out = io.StringIO()
    summary = write_simulation(out, budget, seed, **kw)
    return out.getvalue(), summary


@pytest.fixture(scope="module")
def evening():
    return text_of(Budget(games=12), seed=4)


def test_simulated_hands_replay_valid_and_group_into_finished_games(evening):
    text, summary = evening
    reports = read_hands(text)
    assert len(reports) == summary.hands > 12
    assert all(r.valid for r in reports), [r.problems for r in reports if not r.valid][:3]
    grouping = group_hands(reports)
    assert grouping.valid, grouping.problems[:3]
    games = [g for m in grouping.matches for g in m.games]
    assert len(games) == 12 == summary.games and all(g.score is not None for g in games)
    assert len(grouping.matches) == summary.matches
    # a match ends when a player has two games (the last one may be cut by the count)
    decided = [m for m in grouping.matches if m.winner is not None]
    assert len(decided) >= len(grouping.matches) - 1
    for m in decided:
        assert max(m.match.games_won) == 2 and len(m.games) in (2, 3)


def test_records_carry_players_events_and_dates(evening):
    text, summary = evening
    reports = read_hands(text)
    tags = [dict(r.record.tags) for r in reports]
    assert {t["Event"] for t in tags} <= {"Thursday Club Gin", "Gin Society"}
    assert all(t["Date"].count(".") == 2 for t in tags)
    for t in tags:
        assert gin_player(t["A"]).style.value == summary.players[t["A"]]
        assert t["A"] != t["B"]
    outcomes = Counter(r.result.outcome.value for r in reports)
    assert outcomes == Counter(summary.outcomes)
    assert outcomes["knock"] + outcomes["gin"] > outcomes.get("draw", 0)


def test_the_same_seed_gives_the_same_text_whatever_the_jobs():
    one, _ = text_of(Budget(hands=40), seed=9)
    two, _ = text_of(Budget(hands=40), seed=9, jobs=2)
    other, _ = text_of(Budget(hands=40), seed=10)
    assert one == two != other


def test_a_hand_budget_gives_exactly_that_many_hands():
    text, summary = text_of(Budget(hands=23), seed=2, profile=GinProfile(runs=RunOrder.ACE_LOW))
    reports = read_hands(text)
    assert len(reports) == summary.hands == 23
    assert {r.record.tag("Runs") for r in reports} == {"ace-low"}
    assert all(r.valid for r in reports)


def test_bots_pick_the_styles():
    names = {p.name for p in gin_roster(["knocker", "random"])}
    items = list(simulate(Budget(games=4), 3, bots=["knocker", "random"]))
    players = {dict(i.record.tags)[s] for i in items for s in "AB"}
    assert players <= names and {gin_player(n).style.value for n in players} == {
        "knocker", "random"}
    with pytest.raises(UnknownBotError, match="unknown Gin Rummy bot 'wizard'"):
        gin_roster(["wizard"])
    assert len({p.style for p in GIN_ROSTER}) == 4


def test_each_broken_hand_fails_with_its_one_code():
    broken = broken_hands(len(GinDefect) * 2, seed=5)
    assert Counter(b.defect for b in broken) == Counter({d: 2 for d in GinDefect})
    for b in broken:
        (report,) = read_hands(b.text)
        assert {p.code for p in report.problems} == {b.code}, (b.defect, report.problems)
        assert report.record.tag("Match").startswith("broken ")


def test_broken_hands_mixed_into_evenings_are_counted():
    text, summary = text_of(Budget(games=6), seed=3, broken=4)
    reports = read_hands(text)
    bad = [r for r in reports if not r.valid]
    assert summary.broken == len(bad) == 4 and sum(summary.defects.values()) == 4
    assert len(reports) == summary.hands + 4
    # the good hands still group into their games without a problem
    assert group_hands([r for r in reports if r.valid]).valid


def test_play_is_driven_by_the_seeded_random_only():
    a = list(simulate(Budget(hands=5), 7))
    random.seed(123)  # the global random does not matter
    b = list(simulate(Budget(hands=5), 7))
    assert a == b


def test_broken_hands_group_without_breaking_the_grouping():
    # a [Runs "wrap"] hand once crashed group_hands (profile_of raised on the value)
    reports = [read_hands(b.text)[0] for b in broken_hands(len(GinDefect), seed=8)]
    grouping = group_hands(reports)
    assert len(grouping.matches) == len(GinDefect)
    assert all(g.score is None for m in grouping.matches for g in m.games)
