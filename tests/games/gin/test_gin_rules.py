"""The rules text's worked examples and each reading of issue 14, on hand-computed hands."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gin.arrangement import min_deadwood
from gops_records.games.gin.cards import CARDS, POINTS, mask_of, parse_card, parse_cards
from gops_records.games.gin.errors import GameError
from gops_records.games.gin.game import GinGame, GinMatch, score_game
from gops_records.games.gin.melds import RunOrder, as_meld, lay_off
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.rules import HandResult, Outcome, Seat

EXAMPLE = (Path(__file__).parent / "issue_example.gin").read_text("utf-8")


def run(text, order=RunOrder.CIRCULAR):
    return as_meld(parse_cards(text), order)


def test_the_issue_hand_is_an_undercut_of_26():
    (report,) = read_hands(EXAMPLE)
    assert report.valid, report.problems
    r = report.result
    assert (r.outcome, r.went_out, r.winner, r.points) == (Outcome.UNDERCUT, Seat.A, Seat.B, 26)
    assert (r.out_deadwood, r.defender_after) == (2, 1) and report.hand.limit == 7


def test_runs_under_the_three_orders():
    assert run("Q♣ K♣ A♣ 2♣ 3♣") is not None  # the text's circular example
    assert run("5♥ 6♥ 7♥ 8♥") is not None
    assert run("Q♣ K♣ A♣", RunOrder.ACE_HIGH) is not None
    assert run("K♣ A♣ 2♣", RunOrder.ACE_HIGH) is None
    assert run("A♣ 2♣ 3♣", RunOrder.ACE_HIGH) is None
    assert run("A♣ 2♣ 3♣", RunOrder.ACE_LOW) is not None
    assert run("Q♣ K♣ A♣", RunOrder.ACE_LOW) is None
    assert run("J♠ J♣ J♥") is not None and run("4♠ 5♠ 7♠") is None
    assert run("5♠ 5♠ 5♣") is None  # no card twice
    full = "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦"
    assert run(full) is not None and len(run(full).cards) == 13


def test_the_ace_is_one_point_under_ace_high_too():
    hand = mask_of(parse_cards("A♠ 5♣ 9♦"))
    assert {min_deadwood(hand, o) for o in RunOrder} == {15}


def test_layoffs_chain_and_wrap_when_circular():
    melds = (run("J♦ Q♦ K♦"), run("9♣ 9♥ 9♠"))
    laid = lay_off(melds, parse_cards("2♦ A♦ 9♦"), RunOrder.CIRCULAR)
    assert laid is not None and [len(m.cards) for m in laid] == [5, 4]
    assert lay_off(melds, parse_cards("2♦ A♦"), RunOrder.ACE_HIGH) is None
    assert lay_off(melds, parse_cards("A♦"), RunOrder.ACE_HIGH) is not None


def test_equal_deadwood_is_an_undercut_for_25():
    # Bruno holds 2♠ instead of A♠: 2 against Alice's 2 (ambiguity 6)
    (report,) = read_hands(EXAMPLE.replace("A♠", "2♠").replace("0-26", "0-25"))
    assert report.valid, report.problems
    r = report.result
    assert (r.outcome, r.winner, r.points, r.defender_after) == (Outcome.UNDERCUT, Seat.B, 25, 2)


def test_scoring_of_a_game_and_the_negative_case():
    # ambiguity 8's worked example: 105 with 2 hands won against 90 with 9
    score = score_game((105, 90), (2, 9))
    assert (score.winner, score.points, score.reversed, score.blitz) == (Seat.B, 25, True, False)
    # the issue's sheet: B 112 to 0 in 4 hands (one draw): 112 + 100 + 80 + blitz 100
    score = score_game((0, 112), (0, 4), draws=1)
    assert (score.winner, score.points, score.blitz) == (Seat.B, 392, True)
    assert score_game((120, 60), (3, 2)).points == 60 + 100 + 20
    with pytest.raises(GameError):
        score_game((90, 60), (3, 2))


def hand_won(winner, points, dealer=Seat.A):
    return HandResult(Outcome.KNOCK, dealer, winner, winner, points)


def test_the_winner_deals_and_a_drawn_hand_is_dealt_again():
    game = GinGame(Seat.A)
    assert game.next_dealer is Seat.A
    game.add(hand_won(Seat.B, 12))
    assert game.next_dealer is Seat.B
    game.add(HandResult(Outcome.DRAW, Seat.B, None, None, 0))
    assert game.next_dealer is Seat.B and game.hands_won == (0, 1)
    game.add(hand_won(Seat.B, 95))
    assert game.over and game.score().points == 107 + 100 + 40 + 100
    with pytest.raises(GameError):
        game.add(hand_won(Seat.A, 5))


def test_a_match_is_first_to_two_games():
    match = GinMatch()
    one = score_game((100, 0), (1, 0))
    two = score_game((0, 100), (0, 1))
    match.add(one)
    match.add(two)
    assert match.winner is None
    match.add(one)
    assert match.winner is Seat.A and match.points == (2 * one.points, two.points)
    with pytest.raises(GameError):
        match.add(one)
    straight = GinMatch()
    straight.add(one)
    straight.add(one)
    with pytest.raises(GameError):
        straight.add(two)


def brute_force(cards, order):
    """Least deadwood by trying every set of disjoint melds among all subsets."""
    melds = [mask_of(c) for n in range(3, len(cards) + 1) for c in combinations(cards, n)
             if as_meld(c, order) is not None]
    best = sum(POINTS[c] for c in cards)
    full = mask_of(cards)

    def go(i, used):
        nonlocal best
        rest = sum(POINTS[c] for c in cards if not used >> c & 1)
        best = min(best, rest)
        for j in range(i, len(melds)):
            if melds[j] & used == 0 and melds[j] & full == melds[j]:
                go(j + 1, used | melds[j])

    go(0, 0)
    return best


@settings(max_examples=150, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True),
       order=st.sampled_from(list(RunOrder)))
def test_the_search_equals_brute_force_on_small_hands(cards, order):
    assert min_deadwood(mask_of(cards), order) == brute_force(cards, order)


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True),
       suit=st.integers(0, 3))
def test_the_search_equals_brute_force_on_dense_suits(cards, suit):
    # most of a suit in hand: long runs, wraps, and sets competing with runs
    cards = sorted({*cards[:4], *(suit * 13 + r for r in (0, 1, 11, 12))})[:9]
    for order in RunOrder:
        assert min_deadwood(mask_of(cards), order) == brute_force(cards, order)


def test_card_text():
    assert parse_card("10♥") == parse_card("th") == CARDS[3 * 13 + 9]
    assert CARDS[0].text == "A♠" and CARDS[51].text == "K♥"
