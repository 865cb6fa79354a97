"""The uniform-play baseline beside each of Ann's habits (club database, see conftest).

Ann's (prize, bid) per round, as in test_bidding.py; the last round of each game is forced.
Under uniform play a habit is followed with chance 1/h in a bid from h cards, so the
baseline of a habit is the mean of 1/h over the bids where it was possible.
"""

from __future__ import annotations

import math
from collections import defaultdict

import pytest

from gops_records.games.gops.analytics import Filters, bid_habits, player_bidding

ANN = [  # (cards, [(prize, bid), ...]) of G1, G2, G3, G4 and G6
    (4, [(3, 2), (1, 4), (4, 1), (2, 3)]),
    (4, [(4, 4), (2, 1), (1, 3), (3, 2)]),
    (4, [(1, 1), (2, 2), (3, 3), (4, 4)]),
    (4, [(2, 4), (4, 1), (1, 2), (3, 3)]),
    (3, [(1, 3), (3, 1), (2, 2)]),
]


def expected_baselines() -> dict[tuple[str, str], float]:
    sums: dict[tuple[str, str], list[float]] = defaultdict(list)
    for cards, rounds in ANN:
        hand = set(range(1, cards + 1))
        for round_no, (prize, bid) in enumerate(rounds, start=1):
            h = len(hand)
            if h > 1:
                phase = ("early", "middle", "late")[math.ceil(3 * round_no / cards) - 1]
                for ph in ("all", phase):
                    if prize in hand:
                        sums[("exact_prize", ph)].append(1 / h)
                    if prize + 1 in hand:
                        sums[("prize_plus_one", ph)].append(1 / h)
                    sums[("highest_remaining", ph)].append(1 / h)
                    sums[("lowest_remaining", ph)].append(1 / h)
            hand.discard(bid)
    return {key: sum(v) / len(v) for key, v in sums.items()}


def test_each_habit_has_its_uniform_baseline(con):
    out = bid_habits(con, Filters(), "Ann")
    got = {(r["habit"], r["phase"]): r["uniform"] for r in out.iter_rows(named=True)}
    want = expected_baselines()
    assert set(want) <= set(got)
    for key, value in want.items():
        assert got[key] == pytest.approx(value), key
    # By hand: 9 bids held the prize, from 4, 4, 4, 4, 3, 3, 3, 3 and 2 cards.
    assert got[("exact_prize", "all")] == pytest.approx((4 / 4 + 1 / 3 + 3 / 3 + 1 / 2) / 9)
    # 14 unforced bids: rounds 1-3 of four 4-card games, rounds 1-2 of the 3-card game.
    assert got[("highest_remaining", "all")] == pytest.approx((4 * 13 / 12 + 5 / 6) / 14)


def test_no_bids_no_baseline(con):
    out = bid_habits(con, Filters(events=("Four",)), "Nobody")
    assert out["uniform"].null_count() == 16


def test_player_bidding_carries_the_same_baseline(con):
    together = player_bidding(con, Filters(), "Ann")["bid_habits"]
    assert together["uniform"].to_list() == bid_habits(con, Filters(), "Ann")["uniform"].to_list()
