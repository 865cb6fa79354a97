"""Every reduction leaves every value unchanged: each one alone, and all together, equals
the plain solver (every game by LP, no shortcut) on every reachable position of small N,
both tie rules, both objectives, shuffled and fixed prize orders."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from gops_records.games.gops.theory.position import Objective, PrizeOrder, Setting, TieRule
from gops_records.games.gops.theory.reductions import ALL, Reduction, canonical_sides, relabel
from gops_records.games.gops.theory.solver import Engine, Solver, every_position

SETTINGS = [Setting(n, rule, objective, order)
            for n in (2, 3) for rule in TieRule for objective in Objective
            for order in (PrizeOrder.RANDOM, PrizeOrder.DESCENDING)]
SLOW_SETTINGS = [Setting(4, rule, objective) for rule in TieRule for objective in Objective]


@functools.cache
def plain_values(setting: Setting) -> dict:
    plain = Solver.plain(setting)
    return {pos: plain.value(pos) for k in range(1, setting.cards + 1)
            for pos in every_position(setting, k)}


def _solver(setting: Setting, reduction) -> Solver:
    """A solver with the reduction under test. The matrix shortcuts (and everything with
    "all-highs") are taken by HiGHS games, where they apply; the others use the compiled
    simplex (held equal to HiGHS in test_simplex.py) so the test spends no time in
    linear programs."""
    if reduction == "all":
        return Solver(setting, ALL)
    if reduction == "all-highs":
        return Solver(setting, ALL, Engine.HIGHS)
    if reduction is Reduction.MATRIX_SHORTCUTS:
        return Solver(setting, {reduction}, Engine.HIGHS)
    return Solver(setting, {reduction})


def _assert_equal(setting: Setting, reduction) -> None:
    expected = plain_values(setting)
    solver = _solver(setting, reduction)
    got = {pos: solver.value(pos) for pos in expected}
    worst = max(abs(got[pos] - value) for pos, value in expected.items())
    assert worst < 1e-7, worst
    assert len(expected) > setting.cards  # the positions were enumerated


@pytest.mark.parametrize("reduction", [*Reduction, "all", "all-highs"])
@pytest.mark.parametrize("setting", SETTINGS, ids=str)
def test_each_reduction_keeps_every_value(setting: Setting, reduction) -> None:
    _assert_equal(setting, reduction)


@pytest.mark.slow
@pytest.mark.parametrize("reduction", [*Reduction, "all", "all-highs"])
@pytest.mark.parametrize("setting", SLOW_SETTINGS, ids=str)
def test_each_reduction_keeps_every_value_of_four_cards(setting: Setting, reduction) -> None:
    _assert_equal(setting, reduction)


def test_the_reductions_shrink_the_memo() -> None:
    setting = Setting(4, TieRule.CARRY, Objective.WIN)
    plain, fast = Solver(setting, ()), Solver(setting, ALL)  # both by the simplex
    for pos in every_position(setting, 3):
        assert abs(plain.value(pos) - fast.value(pos)) < 1e-7
    assert fast.states < plain.states / 2


def test_relabel_keeps_every_comparison_and_equal_cards_equal() -> None:
    assert relabel((2, 7, 9), (5, 7, 13)) == ((1, 3, 4), (2, 3, 5))
    assert relabel((1, 3, 5), (2, 3, 4)) == ((1, 3, 5), (2, 3, 4))
    rng = np.random.default_rng(5)
    for _ in range(200):
        a = tuple(sorted(rng.choice(13, 4, replace=False) + 1))
        b = tuple(sorted(rng.choice(13, 4, replace=False) + 1))
        ra, rb = relabel(a, b)
        assert [[np.sign(x - y) for y in b] for x in a] == \
            [[np.sign(x - y) for y in rb] for x in ra]


def test_canonical_sides_picks_one_of_the_mirror_pair() -> None:
    assert canonical_sides((2, 3), (1, 4), 5) == ((1, 4), (2, 3), -5, -1)
    assert canonical_sides((1, 4), (2, 3), -5) == ((1, 4), (2, 3), -5, 1)
