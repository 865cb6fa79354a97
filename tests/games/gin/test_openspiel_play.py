"""Random legal ``ace-low`` hands replayed turn by turn in OpenSpiel's gin_rummy (oklahoma).

At every decision both engines are asked what is legal: who plays, the first-turn offer,
pile and stock draws, which discards, whether going out is possible, the knocker's melds
and the defender's layoffs and melds; the final score is compared too. The documented
differences (docs/gin.md, issue 14) are allowed: OpenSpiel lets the card just taken from
the pile be discarded (also to knock); it scores equal deadwood 0-0 (ours: an undercut,
25); it has no big gin (those hands are checked up to the draw, then counted as skipped);
at the wall it offers the next player the discard, ours ends the hand (checked: passing
there ends OpenSpiel's hand 0-0). Two more, found on bot-played hands
(test_openspiel_bots.py): OpenSpiel's melds have 3 to 5 cards (a longer run is declared to
it in pieces; a layoff that would make a run of more than 5 is skipped), and its 11-card
deadwood can miss the best discard (a gin it does not offer is skipped). Against gin
OpenSpiel's defender only melds (no layoff step). Mapping: card = suit x 13 + rank - 1
in both; OpenSpiel's player 0 is our non-dealer; a stock draw is 53 then the card as a
chance outcome.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from gin_play import random_hand
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from gops_records.games.gin.arrangement import min_deadwood
from gops_records.games.gin.cards import parse_cards
from gops_records.games.gin.melds import RunOrder, lay_off
from gops_records.games.gin.notation import DrawKind, HandRecord, OutWord
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.rules import (
    Discard,
    DrawPile,
    DrawStock,
    Gin,
    GinHand,
    GinProfile,
    Knock,
    Outcome,
    Pass,
    Phase,
    Respond,
    Seat,
)

pyspiel = pytest.importorskip("pyspiel")
GAME = pyspiel.load_game("gin_rummy", {"oklahoma": True})
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
GR = pyspiel.gin_rummy
PROFILE = GinProfile(runs=RunOrder.ACE_LOW)
UPCARD, STOCK, PASS, KNOCK, MELD = (GR.DRAW_UPCARD_ACTION, GR.DRAW_STOCK_ACTION,
                                    GR.PASS_ACTION, GR.KNOCK_ACTION, GR.MELD_ACTION_BASE)


class Skipped(Exception):
    """A hand OpenSpiel cannot play to its end the way ours did (a documented difference)."""


def _apply(state, action: int) -> None:
    legal = state.legal_actions()
    assert action in legal, (action, state.action_to_string(action), legal, str(state))
    state.apply_action(action)


def _meld_action(cards) -> int:
    return MELD + UTILS.meld_to_int(sorted(int(c) for c in cards))


def _meld_actions(meld) -> list[int]:
    """A meld as OpenSpiel's meld actions: its melds have 3 to 5 cards, so a longer run
    (ace-low: in card order) is declared in pieces of 3, the last one 3 to 5 cards."""
    cards = sorted(int(c) for c in meld)
    pieces = []
    while len(cards) > 5:
        pieces.append(cards[:3])
        cards = cards[3:]
    return [_meld_action(p) for p in (*pieces, cards)]


def _too_long(melds) -> bool:
    return any(len(m.cards) > 5 for m in melds)


def cross_check(record: HandRecord) -> str:
    """Play ``record`` in both engines; the outcome, or raise Skipped / AssertionError."""
    tags = dict(record.tags)
    dealer = Seat(tags["Dealer"])
    deal = {Seat.A: [int(c) for c in parse_cards(tags["DealA"])],
            Seat.B: [int(c) for c in parse_cards(tags["DealB"])]}
    upcard = int(parse_cards(tags["Upcard"])[0])
    hand = GinHand(dealer, tuple(deal[Seat.A]), tuple(deal[Seat.B]), upcard, PROFILE)
    first = dealer.other

    def player(seat: Seat) -> int:
        return 0 if seat is first else 1

    state = GAME.new_initial_state()
    for card in deal[first] + deal[dealer] + [upcard]:
        assert state.is_chance_node()
        state.apply_action(card)
    for turn in record.turns:
        seat = hand.to_play
        assert state.current_player() == player(seat)
        legal = set(state.legal_actions())
        if hand.phase is Phase.OFFER:
            assert legal == {UPCARD, PASS}
        else:
            ours_pile = not (hand.passes == 2 and hand.turns == 2)
            assert (UPCARD in legal) == ours_pile and STOCK in legal
        if turn.draw is DrawKind.PASS:
            hand.apply(seat, Pass())
            _apply(state, PASS)
            continue
        if turn.draw is DrawKind.STOCK:
            _apply(state, STOCK)
            state.apply_action(int(turn.card))
            hand.apply(seat, DrawStock(turn.card))
        else:
            _apply(state, UPCARD)
            hand.apply(seat, DrawPile(None))
        actions = hand.legal_actions()
        legal = set(state.legal_actions())
        ours_out = any(not isinstance(a, Discard) for a in actions)
        mask = hand.hands[seat]
        taken = hand.just_taken
        limit = hand.limit
        os_only = taken is not None and limit is not None and \
            min_deadwood(mask ^ (1 << taken), RunOrder.ACE_LOW) <= limit
        if ours_out and KNOCK not in legal and \
                UTILS.min_deadwood([int(c) for c in hand.hand(seat)]) > (limit or 0):
            # OpenSpiel's 11-card deadwood is its 10-card meld group of most points less
            # the highest unmatched card, which can miss the best discard (A♣ A♦ A♥ 2♠ 2♣
            # 2♦ 2♥ 3♥ 5♣ 5♦ 5♥: gin by discarding 3♥; OpenSpiel says 1, no knock)
            raise Skipped("OpenSpiel's 11-card deadwood misses the best discard")
        assert (KNOCK in legal) == (ours_out or os_only), (str(state), actions)
        discards = {int(a.card) for a in actions if isinstance(a, Discard)}
        assert {a for a in legal if a < 52} == discards | ({int(taken)} if taken is not None
                                                         else set())
        if turn.out is OutWord.BIG_GIN:
            raise Skipped("big gin: OpenSpiel has none")
        if turn.out is None:
            hand.apply(seat, Discard(turn.discard))
            _apply(state, int(turn.discard))
            continue
        _apply(state, KNOCK)
        _apply(state, int(turn.discard))
        for meld in turn.melds:
            for action in _meld_actions(meld):
                _apply(state, action)
        _apply(state, PASS)
        out = Gin(turn.discard, turn.melds) if turn.out is OutWord.GIN else \
            Knock(turn.discard, turn.melds, turn.unmatched)
        hand.apply(seat, out)
    if hand.phase is Phase.OVER:
        # drawn at the wall: OpenSpiel offers the discard; passing ends it 0-0
        assert hand.result.outcome is Outcome.DRAW
        assert record.response is None
        _apply(state, PASS)
        if not state.is_terminal():
            _apply(state, PASS)
    else:
        r = record.response
        assert r is not None and state.current_player() == player(r.seat)
        if hand.out_kind is Outcome.KNOCK:  # against gin OpenSpiel asks for no layoffs
            laid = lay_off(hand.out_melds, r.layoffs, RunOrder.ACE_LOW)
            for card in r.layoffs:
                if int(card) not in state.legal_actions() and laid and _too_long(laid):
                    raise Skipped("a layoff making a run of more than 5 cards: "
                                  "OpenSpiel's melds have 3 to 5")
                _apply(state, int(card))
            _apply(state, PASS)
        for meld in r.melds:
            for action in _meld_actions(meld):
                _apply(state, action)
        _apply(state, PASS)
        hand.apply(r.seat, Respond(r.layoffs, r.melds, r.unmatched))
    assert state.is_terminal(), str(state)
    result = hand.result
    returns = state.returns()
    ours = result.scores
    net = ours[first.index] - ours[dealer.index]
    if result.outcome is Outcome.UNDERCUT and result.defender_after == result.out_deadwood:
        assert returns == [0, 0]
        return "equal-undercut"
    assert returns[0] == net and returns[1] == -net, (returns, result)
    return result.outcome.value


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_random_ace_low_hand_plays_the_same_in_openspiel(seed):
    _, record = random_hand(seed, PROFILE)
    with contextlib.suppress(Skipped):
        cross_check(record)


def test_most_hands_are_compared_to_the_end():
    outcomes: dict[str, int] = {}
    for seed in range(200):
        _, record = random_hand(seed, PROFILE)
        try:
            outcome = cross_check(record)
        except Skipped:
            outcome = "skipped"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    # random play rarely goes out: most hands reach the wall, every one is compared
    assert outcomes.get("skipped", 0) < 20 and outcomes.get("draw", 0) > 100, outcomes
    assert outcomes.get("knock", 0) + outcomes.get("undercut", 0) >= 3, outcomes


DOC = (ROOT / "docs" / "gin.md").read_text("utf-8")
WORKED = re.findall(r"```gin(?:-game)?\n(.*?)```", DOC, re.S)


@pytest.mark.parametrize(("index", "outcome"), [
    (0, "undercut"),        # the hand: 26 to Bruno, OpenSpiel agrees
    (2, "equal-undercut"),  # 2 against 2: ours 25, OpenSpiel 0-0
])
def test_the_worked_hands_under_ace_low(index, outcome):
    (report,) = read_hands(WORKED[index].replace('[Upcard "7♦"]',
                                                 '[Upcard "7♦"] [Runs "ace-low"]'))
    assert report.valid
    assert cross_check(report.record) == outcome


def test_a_gin_on_the_first_upcard_under_ace_low():
    hand_1 = WORKED[3].split("\n\n[Match")[0] + "\n"
    (report,) = read_hands(hand_1.replace('[Upcard "6♣"]', '[Upcard "6♣"] [Runs "ace-low"]'))
    assert report.valid and cross_check(report.record) == "gin"
