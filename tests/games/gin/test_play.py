"""Random legal play: card conservation, scores from deadwood, the wall, replay and round trip."""

from __future__ import annotations

from gin_play import random_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gin.cards import cards_of
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.notation import parse_hands, write_hand
from gops_records.games.gin.replay import replay
from gops_records.games.gin.rules import GinProfile, Outcome, Phase

PROFILES = st.sampled_from([GinProfile(runs=r) for r in RunOrder])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), profile=PROFILES)
def test_every_card_is_in_exactly_one_place(seed, profile):
    hand, _ = random_hand(seed, profile)
    places = [hand.hands[s] for s in hand.hands] + [sum(1 << c for c in hand.pile), hand.unseen]
    assert sum(bin(p).count("1") for p in places) == 52
    union = 0
    for p in places:
        assert union & p == 0
        union |= p
    assert union == (1 << 52) - 1
    assert len(cards_of(hand.unseen)) == hand.stock_left


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), profile=PROFILES)
def test_the_score_follows_from_the_deadwoods(seed, profile):
    hand, _ = random_hand(seed, profile)
    r = hand.result
    assert hand.phase is Phase.OVER and r is not None
    if r.outcome is Outcome.DRAW:
        assert r.stock_left == 2 and r.scores == (0, 0)
    elif r.outcome is Outcome.KNOCK:
        assert r.defender_after > r.out_deadwood and r.points == r.defender_after - r.out_deadwood
        assert 0 < r.out_deadwood <= hand.limit
    elif r.outcome is Outcome.UNDERCUT:
        assert r.points == 25 + r.out_deadwood - r.defender_after and r.winner != r.went_out
    elif r.outcome is Outcome.GIN:
        assert r.points == 25 + r.defender_after and r.defender_before == r.defender_after
    else:
        assert r.points == 50 + r.defender_after


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), profile=PROFILES)
def test_a_played_hand_replays_and_its_canonical_text_round_trips(seed, profile):
    hand, record = random_hand(seed, profile)
    text = write_hand(record)
    (parsed,) = parse_hands(text)
    assert parsed.problems == () and parsed.record == record
    report = replay(parsed.record)
    assert report.valid, (report.problems, text)
    assert report.result == hand.result
    assert write_hand(parsed.record) == text


def test_a_hand_where_nobody_goes_out_is_drawn_at_two_stock_cards():
    import random

    from gops_records.games.gin.rules import Discard, DrawStock, GinHand, Pass, Seat
    deck = list(range(52))
    random.Random(5).shuffle(deck)
    hand = GinHand(Seat.B, tuple(deck[:10]), tuple(deck[10:20]), deck[20])
    hand.apply(Seat.A, Pass())
    hand.apply(Seat.B, Pass())
    for card in deck[21:50]:
        seat = hand.to_play
        hand.apply(seat, DrawStock(card))
        hand.apply(seat, Discard(card))
        if hand.result:
            break
    assert hand.result.outcome is Outcome.DRAW and hand.stock_left == 2
    assert hand.result.turns == 2 + 29
