"""Differential test: games simulated in lockstep (numpy) replayed through the readable rules
engine (rules.Game) give the same pools, winners, points and unclaimed points, and every
bid was legal."""

from __future__ import annotations

import numpy as np
import pytest

from gops_records.games.gops.rules import Game, PrizeOrder, RuleProfile, TieRule
from gops_records.games.gops.scouting.counter import CounterBidder
from gops_records.games.gops.scouting.model import (
    N_CODES,
    VIEWS,
    ModelStack,
    OpponentModel,
    ViewTable,
)
from gops_records.games.gops.scouting.play import (
    Reply,
    bid_the_prize,
    play,
    prize_piles,
    random_card,
)


def random_model(rng: np.random.Generator) -> OpponentModel:
    """A model with random tables and mixture: bids that are neither uniform nor fixed."""
    tables = {}
    for v in VIEWS:
        freq = rng.dirichlet(np.full(N_CODES[v], 0.3), size=12)
        tables[v] = ViewTable(v, np.zeros_like(freq), np.full(N_CODES[v], 1 / N_CODES[v]), freq)
    return OpponentModel(tables, rng.dirichlet(np.ones(4)), 0)


PROFILES = [RuleProfile(cards=c, tie_rule=t, prize_order=o)
            for c, t, o in [(13, TieRule.CARRY, PrizeOrder.SHUFFLED),
                            (13, TieRule.DISCARD, PrizeOrder.SHUFFLED),
                            (7, TieRule.CARRY, PrizeOrder.ASCENDING),
                            (5, TieRule.DISCARD, PrizeOrder.DESCENDING),
                            (3, TieRule.CARRY, PrizeOrder.SHUFFLED),
                            (1, TieRule.CARRY, PrizeOrder.SHUFFLED)]]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: f"{p.cards}-{p.tie_rule.value}-"
                                                            f"{p.prize_order.value}")
def test_lockstep_games_replay_the_same_through_rules_game(profile):
    rng = np.random.default_rng(profile.cards * 7 + len(profile.tie_rule.value))
    models = ModelStack.of([random_model(rng) for _ in range(3)])
    games = 240
    model_of_game = rng.integers(0, 3, games)
    reply_of_game = rng.integers(0, 3, games)
    bidders = {Reply.COUNTER: CounterBidder(models, model_of_game),
               Reply.GENERIC: bid_the_prize,
               Reply.RANDOM: lambda t, rows, g: random_card(t.hands[rows, 0],
                                                            g.random(len(rows)))}
    prizes = prize_piles(profile, games, rng)
    done = play(profile, models, model_of_game, reply_of_game, bidders, prizes,
                rng.random((games, profile.cards)), rng)
    ties = carried = 0
    for g in range(games):
        game = Game(profile)  # play_round checks every bid is in hand and the prize order
        for r in range(profile.cards):
            result = game.play_round(int(done.prizes[g, r]), [int(b) for b in done.bids[g, r]])
            assert done.pool_value[g, r] == result.pool_value
            assert done.winner[g, r] == (-1 if result.winner is None else result.winner)
            ties += result.tie
            carried += result.carried_in > 0
        out = game.outcome()
        assert tuple(done.scores[g]) == out.scores
        assert done.unclaimed[g] == out.unclaimed
        assert out.scores[0] + out.scores[1] + out.unclaimed == profile.total_points
    if profile.cards >= 5:
        assert ties > 20  # enough ties (and carried pools) for the comparison to mean something
        assert carried > 0 or profile.tie_rule is TieRule.DISCARD


def test_the_same_seed_plays_the_same_games():
    profile = RuleProfile()

    def once() -> np.ndarray:
        rng = np.random.default_rng(4)
        models = ModelStack.of([random_model(np.random.default_rng(1))])
        prizes = prize_piles(profile, 50, rng)
        bidders = {Reply.COUNTER: CounterBidder(models, np.zeros(50, int))}
        return play(profile, models, np.zeros(50, int), np.zeros(50, int), bidders, prizes,
                    rng.random((50, 13)), rng).bids

    assert np.array_equal(once(), once())


def test_bad_shapes_are_refused():
    profile = RuleProfile(cards=5)
    models = ModelStack.of([random_model(np.random.default_rng(0))])
    with pytest.raises(ValueError, match="prizes and draws must be"):
        play(profile, models, np.zeros(3, int), np.full(3, Reply.GENERIC),
             {Reply.GENERIC: bid_the_prize}, np.ones((3, 4), int), np.ones((3, 5)),
             np.random.default_rng(0))
