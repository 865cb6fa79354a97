"""The counter-strategy: exact assignment, the reply it picks, and the simulator's anchor."""

from __future__ import annotations

import itertools
import random

import pytest

from gops_records.bots import PrizeBot, RandomBot, Situation
from gops_records.rules import RuleProfile, TieRule
from gops_records.scouting.counter import (
    assign_max,
    best_reply,
    margin_table,
    measure_gain,
)
from gops_records.scouting.features import Situations, situation_frame
from gops_records.scouting.model import FastModel, OpponentModel


def brute_force(gain: list[list[float]]) -> float:
    n, m = len(gain), len(gain[0])
    if n <= m:
        return max(sum(gain[i][c[i]] for i in range(n))
                   for c in itertools.permutations(range(m), n))
    return max(sum(gain[r[j]][j] for j in range(m)) for r in itertools.permutations(range(n), m))


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (5, 5), (6, 6), (3, 5), (5, 3)])
def test_assignment_is_optimal(shape):
    rng = random.Random(sum(shape))
    for _ in range(20):
        gain = [[rng.uniform(-10, 10) for _ in range(shape[1])] for _ in range(shape[0])]
        plan = assign_max(gain)
        used = [j for j in plan if j >= 0]
        assert len(used) == len(set(used)) == min(shape)
        assert sum(gain[i][j] for i, j in enumerate(plan) if j >= 0) == pytest.approx(
            brute_force(gain))


@pytest.fixture(scope="module")
def prize_model(sim_db) -> FastModel:
    import duckdb
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        return FastModel(OpponentModel.fit(
            Situations.from_frame(situation_frame(con, "Bruno Keller"))))
    finally:
        con.close()


def situation(prize: int, hand: list[int], opp: list[int], upcoming: list[int]) -> Situation:
    return Situation(prize, (prize,), prize, 0, 14 - len(hand), tuple(hand), (tuple(opp),),
                     tuple(upcoming), (0, 0), 0, RuleProfile())


def test_margins_against_a_prize_bidder(prize_model):
    full = list(range(1, 14))
    s = situation(6, full, full, [p for p in full if p != 6])
    table = margin_table(prize_model, s)
    # column 0 is the prize 6: the 7 wins it (+6), the 6 ties (0), the 5 loses it (-6)
    assert table[6][0] == pytest.approx(6, abs=0.3)
    assert table[5][0] == pytest.approx(0, abs=0.3)
    assert table[4][0] == pytest.approx(-6, abs=0.3)
    assert best_reply(prize_model, s) == 7


def test_the_king_is_conceded_with_the_lowest_card(prize_model):
    full = list(range(1, 14))
    s = situation(13, full, full, list(range(1, 13)))
    assert best_reply(prize_model, s) == 1


@pytest.mark.parametrize(("cards", "games", "seed"), [(13, 1500, 1), (5, 3000, 7)])
def test_anchor_prize_against_random_under_discard(cards, games, seed):
    """Bidding the prize against uniform play gains (N^2 - 1) / 6 per game: 28 for N = 13."""
    profile = RuleProfile(cards=cards, tie_rule=TieRule.DISCARD)
    gain = measure_gain(profile, PrizeBot(), RandomBot(), games, seed)
    expected = (cards * cards - 1) / 6
    assert gain.stderr < 0.5
    assert abs(gain.mean - expected) < 3 * gain.stderr, (gain, expected)


def test_random_against_random_gains_nothing():
    gain = measure_gain(RuleProfile(tie_rule=TieRule.DISCARD), RandomBot(), RandomBot(), 800, 3)
    assert abs(gain.mean) < 3 * gain.stderr
