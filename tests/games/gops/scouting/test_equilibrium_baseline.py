"""The scouting report's equilibrium baseline: a best response to a model never earns
less than the equilibrium's value, and gains against a player who always bids high."""

from __future__ import annotations

import random

import pytest

from gops_records.games.gops.notation import write_games
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.scouting.equilibrium import (
    baseline,
    best_response_value,
    endgame,
)
from gops_records.games.gops.simulate import Personality, Player, simulate_game
from gops_records.games.gops.theory.position import Objective, Position, Setting
from gops_records.games.gops.theory.solver import Solver


class Highest:
    """A player who always bids their highest card (a model with its distribution)."""

    def distribution(self, prize, pool_value, hand, upcoming, cards):
        return {card: float(card == max(hand)) for card in hand}


class Uniform:
    def distribution(self, prize, pool_value, hand, upcoming, cards):
        return {card: 1 / len(hand) for card in hand}


@pytest.mark.parametrize("rule", list(TieRule))
def test_a_best_response_earns_at_least_the_value(rule) -> None:
    rng = random.Random(3)
    solver = Solver(Setting(6, rule, Objective.POINTS))
    for _ in range(8):
        a, b, p = (frozenset(rng.sample(range(1, 7), 3)) for _ in range(3))
        pos = Position(a, b, p)
        value = solver.value(pos)
        for model in (Highest(), Uniform()):
            br = best_response_value(model, pos, 6, rule is TieRule.CARRY)
            assert br >= value - 1e-9


def test_uniform_play_is_exploited_as_the_known_figure() -> None:
    # (N^2 - 1) / 6 points for N = 4 under discard, from the start: 2.5
    every = frozenset(range(1, 5))
    br = best_response_value(Uniform(), Position(every, every, every), 4, carry=False)
    assert br == pytest.approx(2.5)


def test_baseline_of_recorded_games_against_a_high_bidder() -> None:
    rng = random.Random(5)
    profile = RuleProfile(tie_rule=TieRule.CARRY)
    players = [Player("Hy", Personality.RANDOM), Player("Lo", Personality.RANDOM)]
    text = write_games([simulate_game(profile, players, rng, {"Date": "2026.11.26"})
                        for _ in range(6)])
    reports = read_reports(text)
    assert endgame(reports[0], "Hy") is not None
    assert endgame(reports[0], "Nobody") is None
    found = baseline(reports, "Hy", Highest())
    assert found is not None and found.endgames == 6 and found.cards_left == 4
    assert found.exploitability > 0  # bidding the highest card is easy to exploit
    assert found.best_response == pytest.approx(found.equilibrium + found.exploitability)
    assert found.low is not None and found.low <= found.exploitability <= found.high
    assert set(found.as_json()) == {"endgames", "cards_left", "equilibrium_value",
                                    "best_response_value", "exploitability",
                                    "exploitability_ci", "start_value"}
    assert "guarantees" in "\n".join(found.text_lines())
