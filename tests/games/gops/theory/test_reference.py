"""The solver against figures it did not make: OpenSpiel's sequence-form LP value of its
goofspiel (discard rule) and the known best replies to uniform random play
(/work/shared/reference/gops-facts.md, measured with OpenSpiel)."""

from __future__ import annotations

import pytest

from gops_records.games.gops.theory.position import Objective, PrizeOrder, Setting, TieRule, start
from gops_records.games.gops.theory.reductions import ALL, Reduction
from gops_records.games.gops.theory.solver import Solver, value_against_uniform


@pytest.mark.parametrize("n", range(2, 7))
def test_bidding_the_prize_earns_n2_minus_1_over_6_against_uniform(n: int) -> None:
    setting = Setting(n, TieRule.DISCARD, Objective.POINTS)
    assert value_against_uniform(setting, start(setting)) == pytest.approx((n * n - 1) / 6)


@pytest.mark.parametrize(("n", "expected"), [(4, 0.746528), (5, 0.801528)])
def test_the_best_reply_to_uniform_under_win_loss(n: int, expected: float) -> None:
    setting = Setting(n, TieRule.DISCARD, Objective.WIN)
    assert value_against_uniform(setting, start(setting)) == pytest.approx(expected, abs=1e-6)


def test_uniform_play_is_exploitable_and_the_equilibrium_is_not() -> None:
    setting = Setting(4, TieRule.CARRY, Objective.POINTS)
    assert value_against_uniform(setting, start(setting)) > 1.0
    assert Solver(setting).value(start(setting)) == 0.0


def _openspiel_value(n: int, returns: str, order: str) -> float:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("cvxpy")
    pytest.importorskip("ecos")  # the LP solver OpenSpiel's sequence_form_lp asks cvxpy for
    from open_spiel.python.algorithms import sequence_form_lp

    game = pyspiel.load_game_as_turn_based("goofspiel", {
        "num_cards": n, "points_order": order, "returns_type": returns, "imp_info": True})
    return sequence_form_lp.solve_zero_sum_game(game)[0]


@pytest.mark.parametrize("objective", list(Objective))
@pytest.mark.parametrize("order", [PrizeOrder.RANDOM, PrizeOrder.DESCENDING,
                                   PrizeOrder.ASCENDING])
@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_openspiel_sequence_form_value_of_the_discard_game(n, order, objective) -> None:
    returns = "point_difference" if objective is Objective.POINTS else "win_loss"
    expected = _openspiel_value(n, returns, order.value)
    setting = Setting(n, TieRule.DISCARD, objective, order)
    # without the symmetry reduction, which would make the start 0 by itself
    got = Solver(setting, ALL - {Reduction.SYMMETRY}).value(start(setting))
    assert got == pytest.approx(expected, abs=1e-6)
