"""Deadwood cross-checked against OpenSpiel's gin_rummy utilities (ace-low runs agree)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gin.arrangement import best_discard, min_deadwood
from gops_records.games.gin.cards import mask_of
from gops_records.games.gin.melds import RunOrder

pyspiel = pytest.importorskip("pyspiel")
UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True))
def test_ten_card_deadwood_agrees(cards):
    assert min_deadwood(mask_of(cards), RunOrder.ACE_LOW) == UTILS.min_deadwood(cards)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True))
def test_eleven_card_deadwood_after_the_best_discard_agrees(cards):
    assert best_discard(mask_of(cards), RunOrder.ACE_LOW)[0] == UTILS.min_deadwood(cards)
