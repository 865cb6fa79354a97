"""The OpenSpiel cross-check on bot-played hands: 2,000 simulated ``ace-low`` hands.

Random play rarely goes out (most random hands reach the wall), so the bots' hands are
what covers going out: knocks, gins, undercuts (equal ones too), big gins (OpenSpiel has
none: compared up to the draw, counted as skipped) and the answers to them. Each hand is
played turn by turn in both engines by :func:`test_openspiel_play.cross_check`, which
allows the documented differences (docs/gin.md).
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_openspiel_play import PROFILE, Skipped, cross_check

from gops_records.games.gin.simulate import Budget, PlayedHand, simulate

HANDS = 2_000


@pytest.fixture(scope="module")
def outcomes() -> Counter:
    found: Counter = Counter()
    for item in simulate(Budget(hands=HANDS), seed=14, profile=PROFILE):
        assert isinstance(item, PlayedHand)
        try:
            found[cross_check(item.record)] += 1
        except Skipped as why:
            found["skipped"] += 1
            found[f"skipped: {why}"] += 1
    return found


def test_openspiel_agrees_on_2000_bot_hands(outcomes):
    assert sum(n for k, n in outcomes.items() if not k.startswith("skipped: ")) == HANDS
    # the bots go out: every way of ending a hand is compared, few hands are skipped
    for outcome in ("knock", "gin", "undercut", "equal-undercut"):
        assert outcomes[outcome] >= 10, outcomes
    assert outcomes["knock"] + outcomes["gin"] + outcomes["undercut"] > HANDS * 0.8, outcomes
    assert outcomes["skipped"] < HANDS * 0.05, outcomes
    assert outcomes["skipped: big gin: OpenSpiel has none"] >= 1, outcomes
