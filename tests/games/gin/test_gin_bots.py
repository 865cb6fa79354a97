"""The Gin Rummy bots: each style's trait on hand-made positions, and that they go out."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gops_records.games.gin.bots import GIN_BOTS, HUNTER_LATE, Seen, gin_bot
from gops_records.games.gin.cards import parse_card, parse_cards
from gops_records.games.gin.rules import (
    Discard,
    DrawPile,
    DrawStock,
    Gin,
    GinHand,
    Knock,
    Outcome,
    Pass,
    Phase,
    Respond,
    Seat,
)
from gops_records.games.gin.simulate import play_hand

# The issue's hand (docs/gin.md): after 6 turns A draws 6♠ and may knock with 2♦ (limit 7).
DEAL_A = parse_cards("4♠ 5♠ 9♣ 9♥ 9♠ J♦ Q♦ 6♣ K♣ 10♥")
DEAL_B = parse_cards("8♥ 8♣ 2♥ 3♥ 4♥ 7♠ 9♦ A♠ Q♣ J♠")
UPCARD = parse_card("7♦")


def issue_hand(upto_knock: bool = True) -> GinHand:
    hand = GinHand(Seat.B, DEAL_A, DEAL_B, UPCARD)
    hand.apply(Seat.A, Pass())
    hand.apply(Seat.B, Pass())
    for seat, draw, discard in (("A", "K♦", "K♣"), ("B", "8♦", "Q♣"), ("A", "2♦", "10♥"),
                                ("B", "5♥", "J♠")):
        hand.apply(Seat(seat), DrawStock(parse_card(draw)))
        hand.apply(Seat(seat), Discard(parse_card(discard)))
    if upto_knock:
        hand.apply(Seat.A, DrawStock(parse_card("6♠")))
    return hand


def choose(style: str, hand: GinHand, **changes) -> object:
    seen = Seen.of(hand)
    if changes:
        from dataclasses import replace
        seen = replace(seen, **changes)
    return gin_bot(style).choose(seen, random.Random(0))


def test_the_stock_is_one_choice_for_a_bot():
    hand = issue_hand(upto_knock=False)
    seen = Seen.of(hand)
    assert seen.phase is Phase.DRAW
    assert [type(a) for a in seen.actions] == [DrawPile, DrawStock]
    assert len(hand.legal_actions()) == 1 + hand.stock_left


def test_the_knocker_knocks_at_once_with_its_least_deadwood():
    action = choose("knocker", issue_hand())
    assert isinstance(action, Knock) and action.discard == parse_card("6♣")
    assert sum(c.points for c in action.unmatched) == 2


def test_the_gin_hunter_waits_until_the_stock_runs_low():
    hand = issue_hand()
    action = choose("gin-hunter", hand)
    assert isinstance(action, Discard)  # the stock has 26 cards: hold out for gin
    assert action.card == parse_card("6♣")  # the discard leaving the least deadwood
    late = choose("gin-hunter", hand, stock_left=HUNTER_LATE)
    assert isinstance(late, Knock)


def test_the_pile_taker_takes_a_card_that_only_might_meld():
    # A to draw after B discarded J♠: no use to A's deadwood, but A holds J♦ (a set of
    # jacks in the making)
    hand = issue_hand(upto_knock=False)
    assert hand.pile[-1] == parse_card("J♠")
    assert isinstance(choose("pile-taker", hand), DrawPile)
    assert isinstance(choose("knocker", hand), DrawStock)
    assert isinstance(choose("gin-hunter", hand), DrawStock)


def test_no_deliberate_bot_takes_back_its_own_discard():
    hand = issue_hand(upto_knock=False)
    top = hand.pile[-1]
    for style in ("pile-taker", "knocker", "gin-hunter"):
        assert isinstance(choose(style, hand, discarded=1 << top), DrawStock), style


def test_the_answer_to_a_knock_lays_off_all_it_can():
    hand = issue_hand()
    hand.apply(Seat.A, choose("knocker", hand))
    answer = choose("knocker", hand)
    assert isinstance(answer, Respond)
    assert set(answer.layoffs) == set(parse_cards("7♠ 9♦"))
    assert sum(c.points for c in answer.unmatched) == 1  # A♠: an undercut


def test_the_random_bot_goes_out_whenever_it_can():
    hand = issue_hand()
    for seed in range(20):
        action = gin_bot("random").choose(Seen.of(hand), random.Random(seed))
        assert isinstance(action, Knock | Gin)


def test_unknown_style():
    with pytest.raises(ValueError, match="choose from knocker, gin-hunter, pile-taker, random"):
        gin_bot("wizard")


@pytest.fixture(scope="module")
def played():
    """Every pairing of styles, 12 hands each (both seats dealt in turn)."""
    rng = random.Random(11)
    out = []
    for a in GIN_BOTS:
        for b in GIN_BOTS:
            for i in range(12):
                p = play_hand([GIN_BOTS[a], GIN_BOTS[b]], Seat.A if i % 2 else Seat.B, rng)
                out.append((a, b, p))
    return out


def _out_by_style(played):
    outs: dict[str, Counter] = {s: Counter() for s in GIN_BOTS}
    for a, b, p in played:
        r = p.result
        if r.went_out is not None:
            outs[a if r.went_out is Seat.A else b][r.outcome.value] += 1
    return outs


def test_bots_go_out_instead_of_running_to_the_wall(played):
    ends = Counter(p.result.outcome for _, _, p in played)
    assert ends[Outcome.DRAW] <= len(played) // 10, ends
    outs = _out_by_style(played)
    for style, counts in outs.items():  # random play gets there now and then
        assert sum(counts.values()) >= (1 if style == "random" else 20), (style, counts)


def test_the_styles_leave_their_trace(played):
    outs = _out_by_style(played)

    def gin_share(style):
        c = outs[style]
        gins = c["gin"] + c["big_gin"]
        return gins / sum(c.values())

    assert gin_share("gin-hunter") > 0.6 > gin_share("knocker")
    pile = Counter()
    draws = Counter()
    for a, b, p in played:
        dealer = Seat(dict(p.record.tags)["Dealer"])
        seat = dealer.other
        for turn in p.record.turns:
            style = a if seat is Seat.A else b
            if turn.draw.value != "pass":
                draws[style] += 1
                pile[style] += turn.draw.value == "pile"
            seat = seat.other
    rate = {s: pile[s] / draws[s] for s in GIN_BOTS}
    assert rate["pile-taker"] > max(rate["knocker"], rate["gin-hunter"]) + 0.15, rate
