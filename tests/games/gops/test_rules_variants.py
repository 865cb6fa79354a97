"""The rules engine for the two variants of the Dutch rules: bids of several cards and open
prizes. Profiles, typed errors, the tie rules, and properties of random legal games
(conservation, no card reused, the number of rounds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gops.errors import (
    BidCardRepeated,
    CardNotInHand,
    GameOver,
    PrizeNotInRow,
    PrizeOrderBroken,
    PrizeRepeated,
    RuleError,
    TakeMismatch,
    WrongBidCount,
    WrongRevealCount,
)
from gops_records.games.gops.rules import (
    Game,
    OpenTakes,
    PrizeOrder,
    RuleProfile,
    TieRule,
    resolve,
    takes_in_order,
)

# -- profiles --------------------------------------------------------------------------------


def test_rounds_of_a_game():
    assert RuleProfile().rounds == 13
    assert RuleProfile(bid_cards=2).rounds == 6
    assert RuleProfile(bid_cards=3).rounds == 4
    assert RuleProfile(cards=5, bid_cards=2).rounds == 2
    assert RuleProfile(open_prizes=3).rounds == 13


@pytest.mark.parametrize("kwargs", [
    {"bid_cards": 0}, {"bid_cards": 4}, {"cards": 2, "bid_cards": 3},
    {"open_prizes": 1}, {"open_prizes": 14}, {"cards": 4, "open_prizes": 5},
    {"bid_cards": 2, "open_prizes": 3},
])
def test_profiles_that_cannot_be_played(kwargs):
    with pytest.raises(RuleError):
        RuleProfile(**kwargs)


def test_open_prizes_go_with_one_card_bids():
    assert RuleProfile(bid_cards=1, open_prizes=3).is_open


# -- bids of several cards -------------------------------------------------------------------


def test_the_strength_is_the_sum_and_ties_are_by_strength():
    game = Game(RuleProfile(cards=7, bid_cards=2, tie_rule=TieRule.CARRY))
    tie = game.play_round(5, ((7, 1), (6, 2)))
    assert tie.tie and tie.bids == (8, 8) and tie.cards == ((7, 1), (6, 2))
    won = game.play_round(2, ((3, 2), (7, 1)))
    assert won.winner == 1 and won.pool_cards == (5, 2) and game.scores == [0, 7]
    game.play_round(4, ((6, 5), (5, 4)))
    assert game.is_over and game.scores == [4, 7] and game.unclaimed == 0
    assert game.hand(0) == [4] and game.hand(1) == [3]  # never played
    with pytest.raises(GameOver):
        game.play_round(6, ((4,), (3,)))


def test_a_last_round_tie_leaves_the_pool_unclaimed():
    game = Game(RuleProfile(cards=4, bid_cards=2))
    game.play_round(3, ((4, 2), (3, 1)))
    game.play_round(2, ((3, 1), (4, 2)))
    assert game.is_over and game.scores == [3, 2] and game.unclaimed == 0
    game = Game(RuleProfile(cards=4, bid_cards=2))
    game.play_round(3, ((4, 1), (2, 3)))  # 5 and 5: the 3 is carried
    game.play_round(2, ((3, 2), (4, 1)))  # 5 and 5 again, in the last round
    assert game.scores == [0, 0] and game.unclaimed == 5 and game.carried == 0


def test_typed_errors_of_bids_of_several_cards():
    game = Game(RuleProfile(cards=6, bid_cards=2))
    game.play_round(3, ((6, 1), (5, 2)))
    before = (list(game.hands), game.round_no)
    found = game.problems(4, ((6, 2), (3, 3)))
    assert [type(p) for p in found] == [CardNotInHand, BidCardRepeated]
    assert [type(p) for p in game.problems(4, ((2,), (3, 4, 6)))] == [WrongBidCount] * 2
    with pytest.raises(CardNotInHand):
        game.play_round(4, ((6, 2), (3, 4)))
    assert (list(game.hands), game.round_no) == before


# -- open prizes ---------------------------------------------------------------------------


def test_the_worked_open_prize_game_under_discard():
    game = Game(RuleProfile(cards=5, open_prizes=3, tie_rule=TieRule.DISCARD))
    assert game.to_reveal() == 3
    first = game.play_round((4, 1, 5), (3, 2), taken=5)
    assert first.winner == 0 and first.pool_cards == (4, 1, 5) and game.row == [4, 1]
    assert game.to_reveal() == 1
    tie = game.play_round((2,), (4, 4))
    assert tie.tie and tie.discarded == 2 and game.row == [4, 1] and game.unclaimed == 2
    game.play_round((3,), (5, 1), taken=4)
    assert game.to_reveal() == 0  # the pile is empty
    game.play_round((), (1, 3), taken=3)
    game.play_round((), (2, 5), taken=1)
    assert game.is_over and game.scores == [9, 4] and game.unclaimed == 2


def test_under_carry_a_tie_leaves_the_row_and_fewer_prizes_are_revealed():
    game = Game(RuleProfile(cards=5, open_prizes=3, tie_rule=TieRule.CARRY))
    game.play_round((4, 1, 5), (3, 2), taken=5)
    game.play_round((2,), (4, 4))
    assert game.row == [4, 1, 2] and game.unclaimed == 0 and game.to_reveal() == 0


def test_what_is_left_at_the_end_is_unclaimed():
    game = Game(RuleProfile(cards=3, open_prizes=2, tie_rule=TieRule.CARRY))
    for bids in ((1, 1), (2, 2), (3, 3)):
        game.play_round(tuple(game.prizes_left()[:game.to_reveal()]), bids)
    assert game.scores == [0, 0] and game.unclaimed == 6


def test_typed_errors_of_open_prizes():
    game = Game(RuleProfile(cards=5, open_prizes=2, prize_order=PrizeOrder.ASCENDING))
    assert [type(p) for p in game.problems((1,), (3, 2), 1)] == [WrongRevealCount]
    assert [type(p) for p in game.problems((1, 3), (3, 2), 1)] == [PrizeOrderBroken]
    game.play_round((1, 2), (3, 2), taken=2)
    assert [type(p) for p in game.problems((1,), (2, 1), 1)] == [PrizeRepeated]
    assert [type(p) for p in game.problems((3,), (2, 1), 4)] == [PrizeNotInRow]
    assert [type(p) for p in game.problems((3,), (4, 4), 1)] == [TakeMismatch]
    assert [type(p) for p in game.problems((3,), (2, 1))] == [TakeMismatch]
    assert game.problems((3,), (2, 1), 3) == []


# -- properties of random legal games ---------------------------------------------------------


def random_game(profile: RuleProfile, rng: random.Random, rounds: int) -> Game:
    game = Game(profile)
    pile = [profile.fixed_prize(i + 1) or 0 for i in range(profile.cards)]
    if not all(pile):
        pile = list(range(1, profile.cards + 1))
        rng.shuffle(pile)
    for _ in range(rounds):
        bids = [tuple(rng.sample(game.hand(s), profile.bid_cards)) for s in range(profile.players)]
        if profile.is_open:
            n = game.to_reveal()
            revealed, pile = tuple(pile[:n]), pile[n:]
            single = [b[0] for b in bids]
            row = game.row + list(revealed)
            if profile.each_takes:
                taken = takes_in_order(row, single, profile.tie_rule,
                                       lambda seat, left: rng.choice(left))
            else:
                taken = rng.choice(row) if resolve(single) is not None else None
            game.play_round(revealed, single, taken)
        else:
            game.play_round(pile.pop(0), bids)
    return game


profiles = st.one_of(
    st.integers(2, 3).flatmap(lambda k: st.builds(
        RuleProfile, st.integers(k, 13), st.integers(2, 4), st.sampled_from(list(TieRule)),
        st.sampled_from(list(PrizeOrder)), st.just(k))),
    st.integers(2, 13).flatmap(lambda n: st.builds(
        RuleProfile, st.just(n), st.integers(2, 4), st.sampled_from(list(TieRule)),
        st.sampled_from(list(PrizeOrder)), st.just(1), st.integers(2, n))),
    st.integers(2, 13).flatmap(lambda n: st.builds(
        RuleProfile, st.just(n), st.integers(2, 4), st.sampled_from(list(TieRule)),
        st.sampled_from(list(PrizeOrder)), st.just(1), st.integers(2, n),
        st.just(OpenTakes.EACH))),
)


@settings(max_examples=300, deadline=None)
@given(profiles, st.integers(0, 2**32), st.data())
def test_conservation_no_card_reused_and_the_number_of_rounds(profile, seed, data):
    played = data.draw(st.integers(0, profile.rounds))
    game = random_game(profile, random.Random(seed), played)
    assert game.round_no == len(game.history) == played
    assert game.is_over == (played == profile.rounds)
    for seat in range(profile.players):  # no card reused: every card spent once
        spent = [c for r in game.history for c in r.cards[seat]]
        assert len(spent) == len(set(spent)) == played * profile.bid_cards
        assert sorted(spent + game.hand(seat)) == list(range(1, profile.cards + 1))
    scored = sum(game.scores)
    if profile.is_open:
        revealed = [p for r in game.history for p in r.revealed]
        assert len(revealed) == len(set(revealed))
        taken = [t for r in game.history for t in (r.takes or (r.taken,)) if t]
        assert scored == sum(taken) == sum(sum(r.gains) for r in game.history)
        assert len(taken) == len(set(taken))  # a prize is taken once
        if game.is_over:
            assert scored + game.unclaimed == profile.total_points
        else:
            in_play = sum(game.row) + sum(game.prizes_left())
            assert scored + game.unclaimed + in_play == profile.total_points
    else:
        prizes = [r.prize for r in game.history]
        assert len(prizes) == len(set(prizes))
        assert scored + game.unclaimed + game.carried == sum(prizes)  # the points in play
        if game.is_over:
            assert game.carried == 0
    for r in game.history:
        assert r.bids == tuple(sum(c) for c in r.cards)
        assert r.winner == resolve(r.bids)
