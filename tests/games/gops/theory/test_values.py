"""Values the solver must reproduce: the symmetric start, one card each, the rules' worked
example solved by hand, and the matrix games' equilibria."""

from __future__ import annotations

import numpy as np
import pytest

from gops_records.games.gops.theory import matrix_game
from gops_records.games.gops.theory.position import (
    ImpossiblePosition,
    Objective,
    PrizeOrder,
    Setting,
    TieRule,
    position,
    start,
)
from gops_records.games.gops.theory.reductions import ALL, NONE, Reduction
from gops_records.games.gops.theory.solver import Solver

NO_SYMMETRY = ALL - {Reduction.SYMMETRY}  # else the start is 0 by the reduction itself


def _solver(setting: Setting, reductions) -> Solver:
    return Solver.plain(setting) if reductions is NONE else Solver(setting, reductions)


@pytest.mark.parametrize("order", [PrizeOrder.RANDOM, PrizeOrder.ASCENDING,
                                   PrizeOrder.DESCENDING])
@pytest.mark.parametrize("rule", list(TieRule))
@pytest.mark.parametrize("objective", list(Objective))
def test_the_symmetric_start_is_worth_zero(order, rule, objective) -> None:
    for n in (1, 2, 3):
        setting = Setting(n, rule, objective, order)
        assert abs(Solver.plain(setting).value(start(setting))) < 1e-9
    for n in (4,):
        setting = Setting(n, rule, objective, order)
        solver = Solver(setting, NO_SYMMETRY)
        assert abs(solver.value(start(setting))) < 1e-9
        assert solver.states > 10  # it was solved, not short-cut


@pytest.mark.parametrize("reductions", [NONE, ALL], ids=["plain", "reduced"])
def test_one_card_each_is_decided_by_the_bids(reductions) -> None:
    def value(rule, objective, a, b, prize, pool=0, lead=0) -> float:
        setting = Setting(6, rule, objective)
        return _solver(setting, reductions).value(position(setting, [a], [b], [prize], pool,
                                                           lead))
    assert value(TieRule.DISCARD, Objective.POINTS, 5, 2, 4) == 4
    assert value(TieRule.DISCARD, Objective.POINTS, 1, 2, 4) == -4
    assert value(TieRule.DISCARD, Objective.POINTS, 3, 3, 4) == 0
    assert value(TieRule.CARRY, Objective.POINTS, 1, 6, 4, pool=5) == -9
    assert value(TieRule.CARRY, Objective.POINTS, 6, 6, 4, pool=5) == 0  # last tie: unclaimed
    assert value(TieRule.CARRY, Objective.WIN, 1, 6, 4, pool=5, lead=8) == -1  # 8 - 9
    assert value(TieRule.CARRY, Objective.WIN, 1, 6, 4, pool=2, lead=6) == 0  # 6 - 6: a draw
    assert value(TieRule.CARRY, Objective.WIN, 6, 6, 4, pool=5, lead=-1) == -1
    assert value(TieRule.DISCARD, Objective.WIN, 2, 1, 1, lead=0) == 1


#: The rules' worked example: prize 8, A bids 9, B bids 9: a tie, the 8 stays; prize 5, A
#: bids 7, B bids J: B takes 8 + 5 = 13. As the last two rounds of an 11-card game whose
#: prizes come in a known order ending 8, 5, with A holding 7 and 9, B 9 and J.
EXAMPLE = Setting(11, TieRule.CARRY, Objective.POINTS, PrizeOrder.GIVEN,
                  (1, 2, 3, 4, 6, 7, 9, 10, 11, 8, 5))


def _example(rule: TieRule, objective: Objective = Objective.POINTS) -> Setting:
    return Setting(11, rule, objective, PrizeOrder.GIVEN, EXAMPLE.sequence)


@pytest.mark.parametrize("reductions", [NONE, ALL], ids=["plain", "reduced"])
def test_the_worked_example_solved_by_hand(reductions) -> None:
    # after the tie: the 8 carried, one round left, 7 against J: B takes 13
    after = position(EXAMPLE, [7], [11], [5], pool=8)
    assert _solver(EXAMPLE, reductions).value(after) == -13
    # before the tie, under carry. Prize 8; rows A's 7, 9; columns B's 9, J:
    #   7-9: B takes 8, then 9-J: B takes 5 -> -13    7-J: B takes 8, 9-9 tie at the end -> -8
    #   9-9: tie, 8 carried, 7-J: B takes 13 -> -13    9-J: B takes 8, 7-9: B takes 5 -> -13
    # A's 7 weakly dominates A's 9, B's 9 answers it: a saddle point at -13
    before = position(EXAMPLE, [7, 9], [9, 11], [5, 8])
    analysis = _solver(EXAMPLE, reductions).analyse(before)
    assert analysis.value == pytest.approx(-13)
    # under discard the 9-9 tie throws the 8 away: 9-9 then 7-J is -5, 7-J then 9-9 is -8:
    # [[-13, -8], [-5, -13]] has no saddle point; A plays 7 with 8/13, value -129/13
    discard = _example(TieRule.DISCARD)
    analysis = _solver(discard, reductions).analyse(position(discard, [7, 9], [9, 11], [5, 8]))
    assert analysis.value == pytest.approx(-129 / 13)
    (game,) = analysis.games
    assert game.prize == 8 and game.cards_a == (7, 9) and game.cards_b == (9, 11)
    assert game.mix_a == pytest.approx((8 / 13, 5 / 13))
    assert game.mix_b == pytest.approx((5 / 13, 8 / 13))


def test_the_worked_example_under_the_win_objective() -> None:
    setting = _example(TieRule.CARRY, Objective.WIN)
    # A 10 ahead: the -13 lines lose, 7-J then 9-9 (-8) wins; B's 9 answers it: -1
    assert Solver.plain(setting).value(position(setting, [7, 9], [9, 11], [5, 8], lead=10)) == -1
    # A 14 ahead: every line wins
    assert Solver.plain(setting).value(position(setting, [7, 9], [9, 11], [5, 8], lead=14)) == 1


def test_a_given_order_that_is_not_a_permutation_is_refused() -> None:
    with pytest.raises(ImpossiblePosition, match="each prize 1..3 once"):
        Setting(3, TieRule.CARRY, Objective.POINTS, PrizeOrder.GIVEN, (1, 1, 3))


def _random_games(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        m, n = rng.integers(1, 7, 2)
        yield rng.integers(-9, 10, (m, n)).astype(float)


def test_the_lp_mixes_are_an_equilibrium_and_shortcuts_agree() -> None:
    shortcut_used = 0
    for grid in _random_games(300, 11):
        sol = matrix_game.solve_lp(grid)
        x, y = np.array(sol.row_mix), np.array(sol.col_mix)
        assert abs(x.sum() - 1) < 1e-9 and abs(y.sum() - 1) < 1e-9
        assert (x @ grid).min() >= sol.value - 1e-7  # A's mix guarantees the value
        assert (grid @ y).max() <= sol.value + 1e-7  # B's mix holds A to it
        short = matrix_game.shortcut(grid)
        if short is not None:
            shortcut_used += 1
            assert abs(short - sol.value) < 1e-7
    assert 30 < shortcut_used < 300  # both paths were exercised


def test_two_by_two_and_saddle_values() -> None:
    assert matrix_game.two_by_two(np.array([[-13.0, -8.0], [-5.0, -13.0]])) == \
        pytest.approx(-129 / 13)
    assert matrix_game.saddle_value(np.array([[3.0, 1.0], [4.0, 2.0]])) == 2.0
    assert matrix_game.saddle_value(np.array([[1.0, -1.0], [-1.0, 1.0]])) is None
