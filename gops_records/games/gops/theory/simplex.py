"""The value of a small zero-sum matrix game by a dense simplex compiled with numba.

A scipy HiGHS call costs about a millisecond, most of it set-up; the games of Gops are at
most 13 x 13, where a tableau simplex takes microseconds. With every entry shifted to at
least 1 (A = M + c), the value of A is 1 / max{sum(w) : A w <= 1, w >= 0} (B's side), so
the all-slack basis is feasible and no first phase is needed. Bland's rule (the lowest
index enters and leaves) rules out cycling on degenerate games. HiGHS stays the oracle:
tests/games/gops/theory/test_simplex.py holds the two equal on random games and on the solver's own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: A pivot element or a reduced cost smaller than this counts as zero.
EPS = 1e-11


@njit(cache=True)
def game_value(matrix: np.ndarray) -> float:
    """The value of the zero-sum game ``matrix`` (row player maximises)."""
    m, n = matrix.shape
    # a saddle point needs no tableau
    lower = -np.inf
    for i in range(m):
        row_min = np.inf
        for j in range(n):
            row_min = min(row_min, matrix[i, j])
        lower = max(lower, row_min)
    upper = np.inf
    for j in range(n):
        col_max = -np.inf
        for i in range(m):
            col_max = max(col_max, matrix[i, j])
        upper = min(upper, col_max)
    if upper - lower <= 1e-12:
        return lower
    shift = 1.0 - matrix.min()
    # tableau: m constraint rows (A w + s = 1) and the objective row (-sum w)
    width = n + m + 1
    t = np.zeros((m + 1, width))
    for i in range(m):
        for j in range(n):
            t[i, j] = matrix[i, j] + shift
        t[i, n + i] = 1.0
        t[i, width - 1] = 1.0
    for j in range(n):
        t[m, j] = -1.0
    basis = np.empty(m, dtype=np.int64)
    for i in range(m):
        basis[i] = n + i
    while True:
        enter = -1
        for j in range(n + m):
            if t[m, j] < -EPS:
                enter = j
                break
        if enter < 0:
            break
        leave = -1
        best = np.inf
        for i in range(m):
            a = t[i, enter]
            if a > EPS:
                ratio = t[i, width - 1] / a
                if ratio < best - 1e-12 or (abs(ratio - best) <= 1e-12 and
                                            basis[i] < basis[leave]):
                    best = ratio
                    leave = i
        # bounded: A > 0, so a column with no positive entry cannot enter
        pivot = t[leave, enter]
        for j in range(width):
            t[leave, j] /= pivot
        for i in range(m + 1):
            if i != leave:
                factor = t[i, enter]
                if factor != 0.0:
                    for j in range(width):
                        t[i, j] -= factor * t[leave, j]
        basis[leave] = enter
    return 1.0 / t[m, width - 1] - shift
