"""The card a not-a-meld problem points at."""

from __future__ import annotations

import pytest

from gops_records.games.gin.cards import parse_cards
from gops_records.games.gin.melds import RunOrder, breaking_card


@pytest.mark.parametrize(("cards", "order", "breaks"), [
    ("4♠ 5♠ 7♠", RunOrder.CIRCULAR, "7♠"),
    ("K♦ A♦ 2♦", RunOrder.ACE_HIGH, "2♦"),
    ("Q♦ K♦ A♦ 2♦", RunOrder.ACE_LOW, "Q♦"),
    ("J♦ Q♦ 2♣", RunOrder.CIRCULAR, "2♣"),
    ("8♥ 8♣ 2♥", RunOrder.CIRCULAR, "2♥"),
    ("9♣ 9♥", RunOrder.CIRCULAR, "9♥"),
    ("4♠ 4♠ 5♠", RunOrder.CIRCULAR, "4♠"),
])
def test_the_breaking_card(cards, order, breaks):
    assert breaking_card(parse_cards(cards), order) == parse_cards(breaks)[0]


@pytest.mark.parametrize(("cards", "order"), [
    ("K♦ A♦ 2♦", RunOrder.CIRCULAR), ("Q♦ K♦ A♦", RunOrder.ACE_HIGH),
    ("9♣ 9♥ 9♠", RunOrder.ACE_LOW),
])
def test_a_meld_has_no_breaking_card(cards, order):
    assert breaking_card(parse_cards(cards), order) is None
