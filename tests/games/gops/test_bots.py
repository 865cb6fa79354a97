"""Bot personalities: hand-checked bids in hand-made situations, and in whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gops_records.games.gops.bots import (
    BOTS,
    ChaserBot,
    NoisyBot,
    Personality,
    PrizeBot,
    PrizePlusOneBot,
    RandomBot,
    SaverBot,
    Situation,
    get_bot,
    nearest,
)
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.simulate import play_game

FULL = tuple(range(1, 14))
PROFILE = RuleProfile()


def situation(prize: int, hand: tuple[int, ...] = FULL, upcoming: tuple[int, ...] | None = None,
              pool: tuple[int, ...] | None = None, carried: int = 0,
              profile: RuleProfile = PROFILE) -> Situation:
    """A situation for seat A; by default the first round, with ``prize`` revealed."""
    if upcoming is None:
        upcoming = tuple(p for p in range(1, profile.cards + 1) if p != prize)
    pool = pool or (prize,)
    round_no = profile.cards - len(upcoming)
    return Situation(prize, pool, sum(pool), carried, round_no, hand, (FULL,), upcoming,
                     (0, 0), 0, profile)


RNG = random.Random(0)


def test_registry_has_the_six_personalities_each_described_in_one_sentence():
    assert list(BOTS) == [p.value for p in Personality]
    assert set(BOTS) == {"random", "prize", "prize-plus-one", "saver", "chaser", "noisy"}
    for name, bot in BOTS.items():
        assert bot.name == name
        text = bot.description
        assert text.endswith(".") and text.count(". ") == 0, text
        assert 20 < len(text) < 200


def test_get_bot_by_name_and_unknown_names():
    assert isinstance(get_bot("Prize"), PrizeBot)
    assert isinstance(get_bot(" saver "), SaverBot)
    with pytest.raises(ValueError, match="unknown bot 'genius'.*prize-plus-one"):
        get_bot("genius")


def test_prize_bot_bids_the_prize():
    bot = PrizeBot()
    for prize in FULL:
        assert bot.bid(situation(prize), RNG) == prize
    # with the prize's card gone (never in a real game) it takes the nearest card
    assert bot.bid(situation(7, hand=(2, 5, 10)), RNG) == 5


def test_prize_plus_one_bids_one_above_or_wraps_to_its_lowest_card():
    bot = PrizePlusOneBot()
    assert bot.bid(situation(5), RNG) == 6
    assert bot.bid(situation(1), RNG) == 2
    assert bot.bid(situation(12), RNG) == 13
    assert bot.bid(situation(13), RNG) == 1  # no 14: the lowest card
    assert bot.bid(situation(5, hand=(3, 4, 7, 9)), RNG) == 3  # the 6 is spent
    assert bot.bid(situation(8, hand=(3, 4, 7, 9)), RNG) == 9


def test_saver_throws_its_lowest_card_on_low_prizes_and_ranks_the_rest():
    bot = SaverBot()
    # first round, full hand: the 5 lowest of 13 prizes get the ace
    for prize in range(1, 6):
        assert bot.bid(situation(prize), RNG) == 1
    for prize in range(6, 14):
        assert bot.bid(situation(prize), RNG) == prize
    # later: hand (5, 8, 9, 12, 13); prizes still to come 1 2 3 10 and this one
    hand, up = (5, 8, 9, 12, 13), (1, 2, 3, 10)
    assert bot.bid(situation(11, hand, up), RNG) == 13  # highest prize -> highest card
    up = (1, 2, 10, 11)
    assert bot.bid(situation(3, hand, up), RNG) == 9  # 3rd of 5 -> 3rd card
    up = (2, 3, 10, 11)
    assert bot.bid(situation(1, hand, up), RNG) == 5  # bottom third -> lowest
    up = (1, 3, 10, 11)
    assert bot.bid(situation(2, hand, up), RNG) == 5  # rank 1 of 5 is still bottom third


def test_saver_saves_high_cards_in_whole_games():
    rng = random.Random(3)
    high = low = 0
    for _ in range(200):
        game = play_game(PROFILE, [SaverBot(), RandomBot()], rng)
        for r in game.history:
            if r.prize >= 11:
                high += r.bids[0]
            elif r.prize <= 3:
                low += r.bids[0]
    # 600 rounds each: on the top prizes it bids far higher than on the bottom ones
    assert high / 600 > 10 and low / 600 < 3


def test_chaser_goes_all_in_on_big_pools_only():
    bot = ChaserBot()
    assert bot.threshold(PROFILE) == 10
    assert bot.bid(situation(10), RNG) == 13
    assert bot.bid(situation(13, hand=(1, 4, 6)), RNG) == 6
    # a carried pool 4 + 7 = 11 is big, though the prize 7 is not
    assert bot.bid(situation(7, pool=(4, 7), carried=4), RNG) == 13
    rng = random.Random(1)
    bids = Counter(bot.bid(situation(9), rng) for _ in range(300))
    assert set(bids) == {1, 2, 3}
    assert bot.bid(situation(2, hand=(8, 9)), rng) in (8, 9)
    small = RuleProfile(cards=5)
    assert bot.threshold(small) == 4


def test_noisy_bids_mostly_near_the_prize_and_sometimes_anywhere():
    bot = NoisyBot()
    rng = random.Random(7)
    bids = [bot.bid(situation(7), rng) for _ in range(4000)]
    near = sum(abs(b - 7) <= 2 for b in bids) / len(bids)
    exact = sum(b == 7 for b in bids) / len(bids)
    far = sum(abs(b - 7) >= 5 for b in bids) / len(bids)
    assert 0.7 < near < 0.9
    assert 0.2 < exact < 0.35
    assert 0.05 < far < 0.2  # only the random quarter reaches this far
    assert set(bids) == set(FULL)


def test_nearest_prefers_the_lower_card_on_a_tie():
    assert nearest((2, 4, 9), 3) == 2
    assert nearest((2, 4, 9), 7) == 9
    assert nearest((5,), 13) == 5


def test_random_bot_is_uniform_over_its_hand():
    rng = random.Random(11)
    counts = Counter(RandomBot().bid(situation(4, hand=(2, 6, 9, 13)), rng)
                     for _ in range(4000))
    assert set(counts) == {2, 6, 9, 13}
    assert all(900 < c < 1100 for c in counts.values())


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("profile", [RuleProfile(), RuleProfile(cards=4, players=3),
                                     RuleProfile(cards=9, players=4, tie_rule="discard",
                                                 prize_order="descending")])
def test_every_bot_plays_legal_whole_games(name, profile):
    rng = random.Random(5)
    bots = [BOTS[name]] * profile.players
    for _ in range(20):
        game = play_game(profile, bots, rng)
        assert game.is_over
        assert sum(game.scores) + game.unclaimed == profile.total_points


def test_bots_see_the_pool_hands_and_scores():
    seen: list[Situation] = []

    class Spy(PrizeBot):
        def bid(self, s, rng):
            seen.append(s)
            return PrizeBot.bid(self, s, rng)

    profile = RuleProfile(cards=3)
    play_game(profile, [Spy(), PrizeBot()], random.Random(0), prizes=[2, 3, 1])
    first, second, third = seen
    assert first == Situation(2, (2,), 2, 0, 1, (1, 2, 3), ((1, 2, 3),), (1, 3), (0, 0), 0,
                              profile)
    # prize bot vs prize bot always ties: the pool carries and grows
    assert second.pool == (2, 3) and second.carried == 2 and second.pool_value == 5
    assert second.hand == (1, 3) and second.opponents == ((1, 3),) and second.upcoming == (1,)
    assert third.round_no == 3 and third.hand == (1,) and third.upcoming == ()
