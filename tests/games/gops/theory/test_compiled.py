"""The compiled fast path (compiled.py) re-states the round's outcome: it must give the
value the plain rules give on every reachable position (every pool, every lead) of
N <= 5, both tie rules, both objectives, and under fixed prize orders."""

from __future__ import annotations

import pytest

from gops_records.games.gops.theory.compiled import FastTable, Layout
from gops_records.games.gops.theory.position import (
    Objective,
    PrizeOrder,
    Setting,
    TieRule,
    position,
)
from gops_records.games.gops.theory.reductions import NONE
from gops_records.games.gops.theory.solver import Solver, every_position

EVERY_RULE = [(rule, objective) for rule in TieRule for objective in Objective]


def _assert_equal_everywhere(setting: Setting) -> None:
    """The compiled solver against the plain rules (Solver.matrix, no reduction; the games
    by the simplex, held equal to HiGHS in test_simplex.py) on every reachable position."""
    plain = Solver(setting, NONE, compiled=False)
    fast = Solver(setting)
    assert fast._fast is not None  # the default takes the compiled path
    checked = 0
    for k in range(1, setting.cards + 1):
        for pos in every_position(setting, k):
            assert abs(fast.value(pos) - plain.value(pos)) < 1e-7, pos.describe()
            checked += 1
    assert checked > setting.cards ** 2
    assert 0 < len(fast._fast) < plain.states


@pytest.mark.parametrize(("rule", "objective"), EVERY_RULE, ids=str)
@pytest.mark.parametrize("cards", [2, 3, 4])
def test_compiled_equals_the_plain_rules(cards: int, rule: TieRule,
                                         objective: Objective) -> None:
    _assert_equal_everywhere(Setting(cards, rule, objective))


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "objective"), EVERY_RULE, ids=str)
def test_compiled_equals_the_plain_rules_of_five_cards(rule: TieRule,
                                                        objective: Objective) -> None:
    _assert_equal_everywhere(Setting(5, rule, objective))


@pytest.mark.parametrize("order", [PrizeOrder.ASCENDING, PrizeOrder.DESCENDING])
@pytest.mark.parametrize(("rule", "objective"), EVERY_RULE, ids=str)
def test_compiled_equals_the_plain_rules_under_a_fixed_order(
        rule: TieRule, objective: Objective, order: PrizeOrder) -> None:
    _assert_equal_everywhere(Setting(4, rule, objective, order))


@pytest.mark.parametrize(("rule", "objective"), EVERY_RULE, ids=str)
def test_compiled_equals_the_plain_rules_under_a_given_order(
        rule: TieRule, objective: Objective) -> None:
    _assert_equal_everywhere(Setting(4, rule, objective, PrizeOrder.GIVEN, (3, 1, 4, 2)))


def test_the_key_of_a_thirteen_card_game_holds_its_last_eight_rounds() -> None:
    assert Layout.of(13).max_hand == 8
    assert Layout.of(10).max_hand == 10
    setting = Setting(13, TieRule.CARRY, Objective.WIN)
    pos = position(setting, [1, 2, 3], [2, 5, 13], [4, 9, 13], pool=6, lead=-20)
    fast = Solver(setting)
    assert abs(fast.value(pos) - Solver(setting, compiled=False).value(pos)) < 1e-9
    assert isinstance(fast._fast, FastTable) and len(fast._fast) > 0


def test_a_solver_keeps_its_compiled_memo_across_calls() -> None:
    setting = Setting(5, TieRule.CARRY, Objective.POINTS)
    solver = Solver(setting)
    pos = position(setting, [1, 2, 4], [3, 4, 5], [1, 2, 3])
    first = solver.value(pos)
    held = solver.states
    assert solver.value(pos) == first and solver.states == held
