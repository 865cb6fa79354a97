"""One revealed prize as a zero-sum matrix game: its value and both players' mixes.

The row player (A) maximises, the column player (B) minimises ``x' M y``.
:func:`solve_lp` is the exact solution by one linear program (scipy's HiGHS): A's mix
from the primal, B's from the duals of the same program. :func:`shortcut` is the value of
a game that needs no program (a saddle point; a game that iterated removal of dominated
rows and columns brings to one row, one column or 2 x 2), or None.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.core.errors import GopsError

#: Mixes are rounded to this and values compared within it (HiGHS' own tolerance is 1e-9).
TOLERANCE = 1e-9


class MatrixGameError(GopsError, RuntimeError):
    """The linear program of a matrix game did not solve (never seen: a bug to report)."""

    code = "matrix-game"


@dataclass(frozen=True)
class Solution:
    """A game's value and one equilibrium: A's mix over the rows, B's over the columns."""

    value: float
    row_mix: tuple[float, ...]
    col_mix: tuple[float, ...]


def solve_lp(matrix: np.ndarray) -> Solution:
    """The exact value and an equilibrium pair of mixes, by one HiGHS linear program:
    maximise v subject to (x' M)_j >= v for every column j, x a distribution."""
    from scipy.optimize import linprog

    m, n = matrix.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # maximise v
    a_ub = np.hstack([-matrix.T, np.ones((n, 1))])  # v - (x'M)_j <= 0
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise MatrixGameError(f"the linear program of a {m} x {n} game did not solve: "
                              f"{res.message}")
    row = _distribution(res.x[:m])
    col = _distribution(-res.ineqlin.marginals)
    return Solution(float(res.x[-1]), row, col)


def _distribution(weights: np.ndarray) -> tuple[float, ...]:
    clipped = np.where(weights < TOLERANCE, 0.0, weights)
    return tuple(float(w) for w in clipped / clipped.sum())


def saddle_value(matrix: np.ndarray) -> float | None:
    """The value of a game with a pure equilibrium (max of row minima = min of column
    maxima), else None."""
    lower = matrix.min(axis=1).max()
    upper = matrix.max(axis=0).min()
    return float(lower) if upper - lower <= TOLERANCE else None


def undominated(matrix: np.ndarray) -> tuple[list[int], list[int]]:
    """The rows and columns left after removing, again and again, a row weakly dominated
    by another row (A never gains by it) and a column weakly dominating another (B never
    gains by it). The value of the game left is the value of the whole game."""
    rows, cols = list(range(matrix.shape[0])), list(range(matrix.shape[1]))
    changed = True
    while changed:
        changed = False
        sub = matrix[np.ix_(rows, cols)]
        for i in range(len(rows)):
            if any(k != i and np.all(sub[k] >= sub[i]) and
                   (np.any(sub[k] > sub[i]) or k < i) for k in range(len(rows))):
                del rows[i]
                changed = True
                break
        if changed:
            continue
        for j in range(len(cols)):
            if any(k != j and np.all(sub[:, k] <= sub[:, j]) and
                   (np.any(sub[:, k] < sub[:, j]) or k < j) for k in range(len(cols))):
                del cols[j]
                changed = True
                break
    return rows, cols


def two_by_two(matrix: np.ndarray) -> float:
    """The value of a 2 x 2 game with no saddle point (the closed form)."""
    (a, b), (c, d) = matrix
    return float((a * d - b * c) / (a + d - b - c))


def shortcut(matrix: np.ndarray) -> float | None:
    """The value without a linear program, when the game allows one; else None."""
    value = saddle_value(matrix)
    if value is not None:
        return value
    rows, cols = undominated(matrix)
    sub = matrix[np.ix_(rows, cols)]
    value = saddle_value(sub)
    if value is not None:
        return value
    if sub.shape == (2, 2):
        return two_by_two(sub)
    return None


def game_value(matrix: np.ndarray, *, shortcuts: bool = True) -> float:
    """The value of the game: by :func:`shortcut` when allowed and possible, else by LP."""
    if shortcuts:
        value = shortcut(matrix)
        if value is not None:
            return value
    return solve_lp(matrix).value
