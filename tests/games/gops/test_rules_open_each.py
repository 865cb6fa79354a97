"""Open prizes, the other reading: every bidder takes one prize, strongest bid first
(``[OpenTakes "each"]``). The worked game of docs/notation.md, the typed errors of each
seat's take, and the choosing order. Random legal games of this reading are in the
properties of tests/games/gops/test_rules_variants.py."""

from __future__ import annotations

import pytest

from gops_records.games.gops.errors import PrizeNotInRow, RuleError, TakeMismatch
from gops_records.games.gops.rules import (
    Game,
    OpenTakes,
    RuleProfile,
    TieRule,
    choosing_order,
    play_game,
    takes_in_order,
)

EACH = OpenTakes.EACH


def test_each_needs_open_prizes_and_a_known_reading():
    with pytest.raises(RuleError, match="needs open_prizes"):
        RuleProfile(open_takes=EACH)
    with pytest.raises(RuleError, match="winner or each"):
        RuleProfile(open_prizes=3, open_takes="all")
    assert RuleProfile(open_prizes=3, open_takes="each").each_takes
    assert not RuleProfile(open_prizes=3).each_takes


def test_the_choosing_order_groups_shared_strengths():
    assert choosing_order([3, 9, 5]) == [[1], [2], [0]]
    assert choosing_order([7, 7, 2, 7]) == [[0, 1, 3], [2]]


def test_the_worked_game_of_the_notation_page():
    """docs/notation.md: 5 cards, a row of 3, discard, every bidder choosing."""
    game = play_game(RuleProfile(cards=5, open_prizes=3, tie_rule=TieRule.DISCARD,
                                 open_takes=EACH),
                     [(4, 1, 5), (2, 3), (), (), ()],
                     [(3, 2), (4, 4), (5, 1), (1, 3), (2, 5)],
                     [(5, 4), (None, None), (2, 1), (None, None), (None, None)])
    assert game.scores == [7, 5] and game.unclaimed == 3 and game.is_over
    first, tie = game.history[0], game.history[1]
    assert first.takes == (5, 4) and first.taken == 5 and first.gains == (5, 4)
    assert tie.tie and tie.discarded == 3 and tie.gains == (0, 0)


def test_a_shared_lower_bid_takes_nothing_and_the_next_one_chooses():
    game = Game(RuleProfile(cards=6, players=3, open_prizes=3, open_takes=EACH))
    r = game.play_round((6, 2, 4), (5, 1, 1), (6, None, None))
    assert r.takes == (6, None, None) and game.row == [2, 4]
    r = game.play_round((3,), (6, 6, 2), (None, None, 4))  # top tie, carry: C still takes
    assert r.tie and r.takes == (None, None, 4) and game.scores == [6, 0, 4]


def test_typed_errors_of_each_take():
    game = Game(RuleProfile(cards=5, open_prizes=3, open_takes=EACH))
    assert [p.code for p in game.problems((4, 1, 5), (3, 2), (5, 5))] == ["prize-not-in-row"]
    found = game.problems((4, 1, 5), (3, 2), (5, 5))[0]
    assert isinstance(found, PrizeNotInRow) and found.seat == 1
    assert "A took it first" in str(found)
    assert [type(p) for p in game.problems((4, 1, 5), (3, 2), (5, None))] == [TakeMismatch]
    assert [type(p) for p in game.problems((4, 1, 5), (3, 3), (5, None))] == [TakeMismatch]
    assert [type(p) for p in game.problems((4, 1, 5), (3, 2), 5)] == [TakeMismatch]
    assert "each of the 2 seats" in str(game.problems((4, 1, 5), (3, 2), (5,))[0])
    assert game.problems((4, 1, 5), (3, 2), (1, 5)) == []


def test_a_take_from_an_empty_row_is_refused():
    game = Game(RuleProfile(cards=2, open_prizes=2, open_takes=EACH))
    game.play_round((1, 2), (2, 1), (2, 1))
    found = game.problems((), (1, 2), (None, 1))
    assert [p.code for p in found] == ["take-mismatch"] and "row is empty" in str(found[0])
    assert game.play_round((), (1, 2), (None, None)).gains == (0, 0)
    assert game.scores == [2, 1]


def test_takes_in_order_asks_the_choosers_strongest_first():
    asked = []

    def choose(seat, left):
        asked.append((seat, left))
        return left[0]

    assert takes_in_order((4, 1, 5), (2, 9, 5), TieRule.CARRY, choose) == (5, 4, 1)
    assert asked == [(1, (4, 1, 5)), (2, (1, 5)), (0, (5,))]
    assert takes_in_order((4, 1), (3, 3, 1), TieRule.DISCARD, lambda s, l: l[0]) == \
        (None, None, 4)
    with pytest.raises(ValueError):
        takes_in_order((4,), (3, 1), TieRule.CARRY, lambda s, l: 9)
