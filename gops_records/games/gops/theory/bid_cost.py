"""What each pure bid of a matrix game gives away, whichever equilibrium the LP returned.

For a zero-sum game M (A, the rows, maximises; B, the columns, minimises) with value v,
let Y* be B's set of optimal (equilibrium) mixes and X* A's. The cost of A's card i is

    cost_A(i) = v - min over y in Y* of (M y)_i

what A gives away by bidding i against the equilibrium opponent that punishes i most;
B's card j likewise costs ``max over x in X* of (x' M)_j - v``. The sets are polytopes
(``Y* = {y a distribution : M y <= v}``), so each cost is one small linear program, and
it does not depend on which equilibrium a solver happened to return. Zero for every card
some equilibrium plays: each y in Y* makes every such row earn exactly v (complementary
slackness holds for every pair of optimal mixes). Positive for every other card: a
strictly complementary optimal pair exists (Goldman and Tucker), so some y in Y* makes
that row earn less than v. A dominated card therefore has a positive cost.
"""

from __future__ import annotations

import numpy as np

from gops_records.games.gops.theory.matrix_game import MatrixGameError, Solution

#: Costs below this are LP noise and shown as 0.
NOISE = 1e-9


def row_cost(matrix: np.ndarray, solution: Solution, row: int) -> float:
    """cost_A of row ``row`` (0 at once for a row the returned equilibrium plays)."""
    if solution.row_mix[row] > NOISE:
        return 0.0
    return _row_cost(matrix, solution.value, row)


def col_cost(matrix: np.ndarray, solution: Solution, col: int) -> float:
    """cost_B of column ``col``: the row's cost of the game seen from B's side (-M
    transposed, value -v)."""
    mirrored = Solution(-solution.value, solution.col_mix, solution.row_mix)
    return row_cost(-matrix.T, mirrored, col)


def row_costs(matrix: np.ndarray, solution: Solution) -> tuple[float, ...]:
    """cost_A of every row (A's cards in hand order)."""
    return tuple(row_cost(matrix, solution, i) for i in range(matrix.shape[0]))


def col_costs(matrix: np.ndarray, solution: Solution) -> tuple[float, ...]:
    """cost_B of every column (B's cards in hand order)."""
    return tuple(col_cost(matrix, solution, j) for j in range(matrix.shape[1]))


def _row_cost(matrix: np.ndarray, value: float, row: int) -> float:
    """v - min (M y)_row over y with M y <= v (a small slack for the LP's rounding)."""
    from scipy.optimize import linprog

    m, n = matrix.shape
    slack = 1e-9 * max(1.0, float(np.abs(matrix).max()))
    res = linprog(matrix[row], A_ub=matrix, b_ub=np.full(m, value + slack),
                  A_eq=np.ones((1, n)), b_eq=[1.0], bounds=[(0, None)] * n, method="highs")
    if res.status != 0:
        raise MatrixGameError(f"the cost LP of a {m} x {n} game did not solve: {res.message}")
    cost = value - float(res.fun)
    return cost if cost > NOISE * max(1.0, abs(value)) * 10 else 0.0
