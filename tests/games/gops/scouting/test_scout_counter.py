"""The counter-strategy: exact assignment (one table or a batch), the reply it picks, the
simulator's anchor, and the exploit measured against the generic strategy."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.scouting.counter import (
    CounterBidder,
    assign_max,
    best_reply,
    counter_strategy,
    margin_tables,
)
from gops_records.games.gops.scouting.features import Situations, situation_frame
from gops_records.games.gops.scouting.model import (
    N_CODES,
    VIEWS,
    ModelStack,
    OpponentModel,
    ViewTable,
)
from gops_records.games.gops.scouting.play import (
    Reply,
    Table,
    bid_the_prize,
    play,
    prize_piles,
    random_card,
)


def brute_force(gain: list[list[float]]) -> float:
    n, m = len(gain), len(gain[0])
    if n <= m:
        return max(sum(gain[i][c[i]] for i in range(n))
                   for c in itertools.permutations(range(m), n))
    return max(sum(gain[r[j]][j] for j in range(m)) for r in itertools.permutations(range(n), m))


def total(gain: list[list[float]], plan: np.ndarray) -> float:
    return sum(gain[i][j] for i, j in enumerate(plan) if j >= 0)


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (5, 5), (6, 6), (3, 5), (5, 3)])
def test_assignment_is_optimal(shape):
    rng = random.Random(sum(shape))
    for _ in range(20):
        gain = [[rng.uniform(-10, 10) for _ in range(shape[1])] for _ in range(shape[0])]
        plan = assign_max(gain)
        used = [j for j in plan if j >= 0]
        assert len(used) == len(set(used)) == min(shape)
        assert total(gain, plan) == pytest.approx(brute_force(gain))


@pytest.mark.parametrize("size", [4, 6, 7])
def test_a_batch_is_solved_as_each_table_alone(size):
    rng = np.random.default_rng(size)
    # ties and repeated values too, as margins against a sure-thing model have
    batch = np.round(rng.normal(0, 5, (60, size, size)) * rng.integers(0, 2, (60, 1, 1)))
    plans = assign_max(batch)
    for table, plan in zip(batch, plans, strict=True):
        assert sorted(plan.tolist()) == list(range(size))
        assert total(table.tolist(), plan) == pytest.approx(brute_force(table.tolist()))
        assert np.array_equal(plan, assign_max(table))


def uniform_model() -> OpponentModel:
    """A model that bids uniformly over its hand (all weight on the uniform part)."""
    tables = {v: ViewTable(v, np.zeros((12, N_CODES[v])), np.full(N_CODES[v], 1 / N_CODES[v]),
                           np.full((12, N_CODES[v]), 1 / N_CODES[v])) for v in VIEWS}
    return OpponentModel(tables, np.array([1.0, 0.0, 0.0, 0.0]), 0)


def uniform_stack() -> ModelStack:
    return ModelStack.of([uniform_model()])


@pytest.fixture(scope="module")
def prize_model(sim_db) -> OpponentModel:
    import duckdb
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        return OpponentModel.fit(Situations.from_frame(situation_frame(con, "Bruno Keller")))
    finally:
        con.close()


def first_round(prize: int) -> Table:
    hands = np.zeros((1, 2, 13), dtype=bool)
    hands[0, :, :] = True
    upcoming = np.ones((1, 13), dtype=bool)
    upcoming[0, prize - 1] = False
    return Table(RuleProfile(), 1, np.array([prize]), np.array([prize]), hands, upcoming)


def test_margins_against_a_prize_bidder(prize_model):
    gain, cards, current = margin_tables(ModelStack.of([prize_model]), np.zeros(1, int),
                                         first_round(6), np.arange(1))
    assert cards[0].tolist() == list(range(1, 14)) and current[0] == 5
    # column 5 is the prize 6: the 7 wins it (+6), the 6 ties (0), the 5 loses it (-6)
    assert gain[0, 6, 5] == pytest.approx(6, abs=0.3)
    assert gain[0, 5, 5] == pytest.approx(0, abs=0.3)
    assert gain[0, 4, 5] == pytest.approx(-6, abs=0.3)
    full = list(range(1, 14))
    assert best_reply(prize_model, 6, 6, full, full, [p for p in full if p != 6]) == 7


def test_the_king_is_conceded_with_the_lowest_card(prize_model):
    full = list(range(1, 14))
    assert best_reply(prize_model, 13, 13, full, full, list(range(1, 13))) == 1


def test_against_uniform_play_the_counter_bids_the_prize():
    stack = uniform_stack()
    table = first_round(9)
    choice = CounterBidder(stack, np.zeros(1, int))(table, np.arange(1),
                                                     np.random.default_rng(0))
    assert choice.tolist() == [9]


def simulate(profile: RuleProfile, reply: Reply, games: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    stack = uniform_stack()
    prizes = prize_piles(profile, games, rng)
    bidders = {Reply.GENERIC: bid_the_prize,
               Reply.RANDOM: lambda t, rows, g: random_card(t.hands[rows, 0],
                                                            g.random(len(rows))),
               Reply.COUNTER: CounterBidder(stack, np.zeros(games, int))}
    return play(profile, stack, np.zeros(games, int), np.full(games, reply), bidders, prizes,
                rng.random((games, profile.cards)), rng).margin


@pytest.mark.parametrize(("cards", "games", "seed"), [(13, 1500, 1), (5, 3000, 7)])
def test_anchor_prize_against_random_under_discard(cards, games, seed):
    """Bidding the prize against uniform play gains (N^2 - 1) / 6 per game: 28 for N = 13."""
    margins = simulate(RuleProfile(cards=cards, tie_rule=TieRule.DISCARD), Reply.GENERIC,
                       games, seed)
    se = margins.std(ddof=1) / np.sqrt(games)
    expected = (cards * cards - 1) / 6
    assert se < 0.5
    assert abs(margins.mean() - expected) < 3 * se, (margins.mean(), se, expected)


def test_random_against_random_gains_nothing():
    margins = simulate(RuleProfile(tie_rule=TieRule.DISCARD), Reply.RANDOM, 800, 3)
    assert abs(margins.mean()) < 3 * margins.std(ddof=1) / np.sqrt(800)


def test_against_uniform_play_exploiting_adds_nothing_to_the_generic_strategy():
    # the counter's plan against a uniform model is bidding the prize: game for game (same
    # prizes, same draws of the model) it plays as the generic strategy does
    c = counter_strategy(uniform_model(), RuleProfile(tie_rule=TieRule.DISCARD), games=300,
                         seed=5)
    assert c.exploit.mean == pytest.approx(0.0, abs=0.5)
    assert c.counter.mean == pytest.approx(28, abs=3)
    assert c.played["exactly the prize"] > 0.9
    assert c.exploit_ci is None  # no fold models: only the simulation error is known


def test_the_exploit_is_the_paired_difference_and_has_an_interval(prize_model):
    folds = [prize_model, prize_model, prize_model]
    c = counter_strategy(prize_model, RuleProfile(), games=200, seed=2, fold_models=folds,
                         fold_games=50)
    assert c.exploit.mean == pytest.approx(c.counter.mean - c.generic.mean)
    # against a prize bidder, bidding the prize ties every round: the generic strategy
    # gains nothing, and outbidding by one is the whole of the counter's gain
    assert abs(c.generic.mean) < 1.0
    assert c.exploit.mean > 50
    # identical fold models: the exploit does not move with the games seen, only the
    # simulation error is left in the interval
    assert len(c.fold_exploits) == 3 and len(set(c.fold_exploits)) == 1
    low, high = c.exploit_ci
    assert low == pytest.approx(c.exploit.mean - 1.96 * c.exploit.stderr)
    assert high == pytest.approx(c.exploit.mean + 1.96 * c.exploit.stderr)
    doc = c.as_json()
    assert doc["exploit_gain_per_game"] == round(c.exploit.mean, 2)
    assert doc["generic_gain_per_game"] == round(c.generic.mean, 2)
