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


class Lopsided:
    """A model whose mix depends on every part of the situation (a hash of it)."""

    def distribution(self, prize, pool_value, hand, upcoming, cards):
        rng = random.Random(hash((prize, pool_value, tuple(hand), tuple(upcoming), cards)))
        weights = [rng.random() + (0.0 if rng.random() < 0.2 else 0.05) for _ in hand]
        return dict(zip(hand, weights, strict=True))


def plain_best_response(model, a, b, prizes, pool, cards, carry) -> float:
    """The best response's value by its definition: no cache, no shortcut."""
    if not a:
        return 0.0
    total = 0.0
    for prize in prizes:
        rest = [p for p in prizes if p != prize]
        pot = pool + prize
        probs = model.distribution(prize, pot, list(b), rest, cards)
        mass = sum(probs.values())
        best = -float("inf")
        for x in a:
            mean = 0.0
            for y, p in probs.items():
                gain = pot if x > y else -pot if x < y else 0
                carried = pot if x == y and carry and rest else 0
                mean += p / mass * (gain + plain_best_response(
                    model, [c for c in a if c != x], [c for c in b if c != y], rest, carried,
                    cards, carry))
            best = max(best, mean)
        total += best
    return total / len(prizes)


@pytest.mark.parametrize("carry", [True, False])
def test_best_response_with_shared_answers_equals_its_definition(carry) -> None:
    # the answers kept between endgames and the last round's shortcut change no value
    rng = random.Random(11)
    model, shared = Lopsided(), {}
    for _ in range(12):
        k = rng.choice([1, 2, 3, 4])
        a, b, p = (sorted(rng.sample(range(1, 9), k)) for _ in range(3))
        pool = rng.choice([0, 0, 3, 7])
        pos = Position(frozenset(a), frozenset(b), frozenset(p), pool)
        fast = best_response_value(model, pos, 8, carry, shared)
        assert fast == pytest.approx(plain_best_response(model, a, b, p, pool, 8, carry),
                                     rel=1e-12, abs=1e-12)
    assert shared  # the model's answers were kept
