"""Rates with honest uncertainty: the Wilson score interval, scalar and vectorised.

Every rate the analytics report comes with its count ``n`` and a 95% Wilson interval, so
a pattern seen in three games shows as the wide interval it is. Wilson (not the normal
approximation) stays inside [0, 1] and behaves at rates of 0 and 1 and small ``n``.
"""

from __future__ import annotations

import math

import polars as pl

Z95 = 1.96  # two-sided 95% normal quantile, as commonly rounded


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for ``k`` successes in ``n`` trials.

    ``n == 0`` gives (0.0, 1.0), the limit of the interval as n shrinks: nothing is known.
    Raises ValueError for negative counts or ``k > n``.
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_exprs(k: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """Expressions for (rate, ci_low, ci_high) of columns ``k`` out of ``n``; null where n = 0."""
    nf = n.cast(pl.Float64)
    p = k.cast(pl.Float64) / nf
    z2 = z * z
    denom = 1.0 + z2 / nf
    centre = (p + z2 / (2.0 * nf)) / denom
    half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom
    ok = n > 0
    rate = pl.when(ok).then(p)
    low = pl.when(ok).then((centre - half).clip(0.0, 1.0))
    high = pl.when(ok).then((centre + half).clip(0.0, 1.0))
    return rate, low, high


def with_wilson(df: pl.DataFrame, k: str, n: str, z: float = Z95) -> pl.DataFrame:
    """``df`` with columns rate = k/n, ci_low, ci_high (95% Wilson) added; nulls where n = 0."""
    rate, low, high = wilson_exprs(pl.col(k), pl.col(n), z)
    return df.with_columns(rate.alias("rate"), low.alias("ci_low"), high.alias("ci_high"))
