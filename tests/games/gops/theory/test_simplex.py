"""The compiled simplex gives HiGHS' value on random games (degenerate ones included) and
on every game the solver itself builds for small N."""

from __future__ import annotations

import numpy as np
import pytest

from gops_records.games.gops.theory import matrix_game, simplex
from gops_records.games.gops.theory.position import Objective, Setting, TieRule
from gops_records.games.gops.theory.solver import Engine, Solver, every_position


@pytest.mark.parametrize("spread", [2, 20])  # few distinct entries: many degenerate games
def test_simplex_equals_highs_on_random_games(spread: int) -> None:
    rng = np.random.default_rng(spread)
    for _ in range(600):
        m, n = rng.integers(1, 10, 2)
        grid = rng.integers(-spread, spread + 1, (m, n)).astype(float)
        assert abs(simplex.game_value(grid) - matrix_game.solve_lp(grid).value) < 1e-9


@pytest.mark.parametrize("rule", list(TieRule))
@pytest.mark.parametrize("objective", list(Objective))
def test_simplex_equals_highs_on_the_solvers_games(rule: TieRule, objective: Objective) -> None:
    setting = Setting(4, rule, objective)
    highs = Solver(setting, engine=Engine.HIGHS)
    grids = []
    original = highs._game_value

    def keep(grid: np.ndarray) -> float:
        grids.append(grid.copy())
        return original(grid)

    highs._game_value = keep
    for pos in every_position(setting, 3):
        highs.value(pos)
    assert len(grids) > 50
    for grid in grids:
        assert abs(simplex.game_value(grid) - matrix_game.solve_lp(grid).value) < 1e-9
