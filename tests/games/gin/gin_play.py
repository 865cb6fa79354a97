"""Random legal play of whole hands through the engine (shared by the gin tests)."""

from __future__ import annotations

import random

from gops_records.games.gin.cards import CARDS, cards_text
from gops_records.games.gin.notation import (
    DrawKind,
    HandRecord,
    OutWord,
    ResponseRecord,
    TurnRecord,
)
from gops_records.games.gin.rules import (
    DEFAULT_PROFILE,
    BigGin,
    Discard,
    DrawPile,
    DrawStock,
    Gin,
    GinHand,
    GinProfile,
    Knock,
    Pass,
    Phase,
    Respond,
    Seat,
)


def random_hand(seed: int, profile: GinProfile = DEFAULT_PROFILE) -> tuple[GinHand, HandRecord]:
    """A hand played by random legal choices, and its record as the engine saw it."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    dealer = rng.choice([Seat.A, Seat.B])
    deal_a, deal_b, upcard, stock = deck[:10], deck[10:20], deck[20], deck[21:]
    hand = GinHand(dealer, tuple(deal_a), tuple(deal_b), upcard, profile)
    turns: list[TurnRecord] = []
    response = None
    draw = None
    while hand.phase is not Phase.OVER:
        seat = hand.to_play
        actions = hand.legal_actions()
        if hand.phase in (Phase.OFFER, Phase.DRAW):
            pile = [a for a in actions if isinstance(a, (DrawPile, Pass))]
            if pile and rng.random() < 0.4:
                action = rng.choice(pile)
            elif hand.phase is Phase.OFFER:
                action = Pass()
            else:
                action = DrawStock(CARDS[stock.pop(0)])
            while isinstance(action, DrawStock) and action.card not in hand.unseen_cards():
                action = DrawStock(CARDS[stock.pop(0)])
            hand.apply(seat, action)
            if isinstance(action, Pass):
                turns.append(TurnRecord(DrawKind.PASS))
            else:
                draw = action
            continue
        if hand.phase is Phase.DISCARD:
            outs = [a for a in actions if not isinstance(a, Discard)]
            action = rng.choice(outs) if outs and rng.random() < 0.7 else \
                rng.choice([a for a in actions if isinstance(a, Discard)])
            hand.apply(seat, action)
            kind = DrawKind.STOCK if isinstance(draw, DrawStock) else DrawKind.PILE
            card = draw.card if kind is DrawKind.STOCK or rng.random() < 0.5 else None
            if isinstance(action, Discard):
                turns.append(TurnRecord(kind, card, action.card))
            elif isinstance(action, Knock):
                turns.append(TurnRecord(kind, card, action.discard, OutWord.KNOCK,
                                        action.melds, action.unmatched))
            elif isinstance(action, Gin):
                turns.append(TurnRecord(kind, card, action.discard, OutWord.GIN, action.melds))
            elif isinstance(action, BigGin):
                turns.append(TurnRecord(kind, card, None, OutWord.BIG_GIN, action.melds))
            continue
        action = rng.choice(actions)
        assert isinstance(action, Respond)
        hand.apply(seat, action)
        response = ResponseRecord(seat, action.layoffs, action.melds, action.unmatched)
    tags = (("Dealer", dealer.value), ("Runs", profile.runs.value),
            ("DealA", cards_text(deal_a)), ("DealB", cards_text(deal_b)),
            ("Upcard", cards_text([upcard])))
    assert hand.result is not None
    return hand, HandRecord(tags, tuple(turns), response, hand.result.scores)
