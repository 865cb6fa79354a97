"""Rates with honest uncertainty: Wilson intervals, and game-clustered ones for rounds and bids.

Every rate the analytics report comes with its count ``n`` and a 95% interval, so a
pattern seen in three games shows as the wide interval it is.

- Per-game rates (win rate, games ending on a tie) count independent games: their
  interval is the Wilson score interval (:func:`wilson`, :func:`with_wilson`), which stays
  inside [0, 1] and behaves at rates of 0 and 1 and small ``n``.
- Per-round and per-bid rates (ties, bid habits) count rounds and bids, which are *not*
  independent: the rounds of one game share the hands, the pools and the players. Their
  interval treats the **game** as the unit (:func:`with_cluster_ci`): the rate is the ratio
  estimator sum(k) / sum(n) over games, its variance the cluster-robust (linearised)
  variance over games, and the interval is Wilson's computed with the effective number of
  trials n / deff, where deff is the design effect (that variance over the binomial one,
  never below 1). See docs/analytics.md, "Rates and intervals", for why.

The per-game sums the clustered interval needs (``k``, ``n``, ``kk`` = sum of k^2,
``nn`` = sum of n^2, ``kn`` = sum of k*n, ``games``) are plain sums, so they are added up
in DuckDB or polars over any grouping of the games (:func:`cluster_sums`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import polars as pl

Z95 = 1.96  # two-sided 95% normal quantile, as commonly rounded

#: The per-group sums over games that :func:`with_cluster_ci` reads, besides k and n.
CLUSTER_SUMS = ("kk", "nn", "kn", "games")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The Wilson score interval (low, high) for ``k`` successes in ``n`` trials.

    ``n == 0`` gives (None, None): with no trials there is no interval, as the frames'
    nulls say. Raises ValueError for negative counts or ``k > n``.
    """
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return None, None
    p = k / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _wilson_of_rate(p: pl.Expr, nf: pl.Expr, z: float) -> tuple[pl.Expr, pl.Expr]:
    """Wilson bounds for a rate ``p`` over ``nf`` trials (a float: effective trials too)."""
    z2 = z * z
    denom = 1.0 + z2 / nf
    centre = (p + z2 / (2.0 * nf)) / denom
    half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom
    return (centre - half).clip(0.0, 1.0), (centre + half).clip(0.0, 1.0)


def wilson_exprs(k: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """Expressions for (rate, ci_low, ci_high) of columns ``k`` out of ``n``; null where n = 0."""
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    nf = n.cast(pl.Float64)
    p = k.cast(pl.Float64) / nf
    low, high = _wilson_of_rate(p, nf, z)
    ok = n > 0
    return pl.when(ok).then(p), pl.when(ok).then(low), pl.when(ok).then(high)


def with_wilson(df: pl.DataFrame, k: str, n: str, z: float = Z95) -> pl.DataFrame:
    """``df`` with columns rate = k/n, ci_low, ci_high (95% Wilson) added; nulls where n = 0."""
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    rate, low, high = wilson_exprs(pl.col(k), pl.col(n), z)
    return df.with_columns(rate.alias("rate"), low.alias("ci_low"), high.alias("ci_high"))


# -- game-clustered rates ----------------------------------------------------------------


def cluster_sums(k: pl.Expr, n: pl.Expr, weight: pl.Expr | None = None) -> list[pl.Expr]:
    """Aggregations (for ``group_by(...).agg``) of per-game counts ``k`` out of ``n`` into
    the columns :func:`with_cluster_ci` reads: k, n, kk, nn, kn, games.

    Each row is one game, or ``weight`` identical games (a game shape counted ``games``
    times, as :func:`~gops_records.games.gops.analytics.shapes.game_shapes` gives them).
    """
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    k, n = k.cast(pl.Int64), n.cast(pl.Int64)
    if weight is None:
        return [k.sum().alias("k"), n.sum().alias("n"), (k * k).sum().alias("kk"),
                (n * n).sum().alias("nn"), (k * n).sum().alias("kn"),
                pl.len().cast(pl.Int64).alias("games")]
    w = weight.cast(pl.Int64)
    return [(k * w).sum().alias("k"), (n * w).sum().alias("n"),
            (k * k * w).sum().alias("kk"), (n * n * w).sum().alias("nn"),
            (k * n * w).sum().alias("kn"), w.sum().alias("games")]


def design_effect_expr(k: pl.Expr, n: pl.Expr, kk: pl.Expr, nn: pl.Expr, kn: pl.Expr,
                       games: pl.Expr) -> pl.Expr:
    """The design effect of a rate whose trials are grouped in games (see
    :func:`cluster_exprs`): the cluster-robust variance of k / n over the binomial one, at
    least 1; 1 when it cannot be measured (fewer than two games, a rate of 0 or 1)."""
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    nf = n.cast(pl.Float64)
    g = games.cast(pl.Float64)
    r = k.cast(pl.Float64) / nf
    spread = (kk.cast(pl.Float64) - 2.0 * r * kn.cast(pl.Float64)
              + r * r * nn.cast(pl.Float64)).clip(0.0, None)
    var_cluster = g / (g - 1.0) * spread / (nf * nf)
    var_binomial = r * (1.0 - r) / nf
    measurable = (games >= 2) & (r > 0.0) & (r < 1.0)
    return pl.when(measurable).then(
        pl.max_horizontal(pl.lit(1.0), var_cluster / var_binomial)).otherwise(1.0)


def wilson_deff_exprs(k: pl.Expr, n: pl.Expr, deff: pl.Expr, z: float = Z95
                      ) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """(rate, ci_low, ci_high): Wilson's interval for k / n with n / ``deff`` trials; nulls
    where n = 0."""
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    nf = n.cast(pl.Float64)
    r = k.cast(pl.Float64) / nf
    low, high = _wilson_of_rate(r, nf / deff, z)
    ok = n > 0
    return pl.when(ok).then(r), pl.when(ok).then(low), pl.when(ok).then(high)


def cluster_exprs(k: pl.Expr, n: pl.Expr, kk: pl.Expr, nn: pl.Expr, kn: pl.Expr,
                  games: pl.Expr, z: float = Z95
                  ) -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """(rate, ci_low, ci_high, design_effect) of a rate whose trials are grouped in games.

    ``k``, ``n``: successes and trials over all games; ``kk``, ``nn``, ``kn``: the sums over
    games of k_g^2, n_g^2 and k_g * n_g; ``games``: how many games have any trial. The
    rate is R = k / n; the cluster-robust variance of R is
    G / (G - 1) * sum_g (k_g - R n_g)^2 / n^2, and the design effect deff is that over the
    binomial R (1 - R) / n, at least 1. The interval is Wilson's for R with n / deff trials.
    With fewer than two games, or a rate of exactly 0 or 1, the spread between games
    cannot be measured: deff is 1 (the interval is Wilson's). Nulls where n = 0.
    """
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    deff = design_effect_expr(k, n, kk, nn, kn, games)
    rate, low, high = wilson_deff_exprs(k, n, deff, z)
    return rate, low, high, pl.when(n > 0).then(deff)


def with_cluster_ci(df: pl.DataFrame, k: str = "k", n: str = "n", z: float = Z95,
                    keep_sums: bool = False) -> pl.DataFrame:
    """``df`` (with the :func:`cluster_sums` columns) plus rate, ci_low, ci_high and
    design_effect; the helper sums kk, nn, kn are dropped unless ``keep_sums``.

    ``k`` and ``n`` name the success and trial columns (kept); ``games`` is kept.
    """
    import polars as pl  # loaded by the frames' users only (scouting needs none)
    # The design effect first, as a column the interval reads: one expression tree for
    # all four columns repeats it in each, and polars then spends more time planning the
    # tree (about 15 ms) than computing a page's few rows.
    deff = design_effect_expr(pl.col(k), pl.col(n), pl.col("kk"), pl.col("nn"), pl.col("kn"),
                              pl.col("games"))
    rate, low, high = wilson_deff_exprs(pl.col(k), pl.col(n), pl.col("design_effect"), z)
    out = (df.with_columns(deff.alias("design_effect"))
           .with_columns(rate.alias("rate"), low.alias("ci_low"), high.alias("ci_high"),
                         pl.when(pl.col(n) > 0).then(pl.col("design_effect"))
                         .alias("design_effect"))
           .select(*df.columns, "rate", "ci_low", "ci_high", "design_effect"))
    return out if keep_sums else out.drop("kk", "nn", "kn")


#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (df >= 1);
    beyond 30, the first terms of its expansion around the normal 1.96."""
    if df < 1:
        raise ValueError(f"t95 needs at least 1 degree of freedom, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def ratio_interval(a_per_game: np.ndarray, b_per_game: np.ndarray
                   ) -> tuple[float | None, float | None, float | None]:
    """The ratio sum(a) / sum(b) over games and its 95% interval, the game the unit.

    The same cluster-robust (linearised) variance as :func:`cluster_exprs`, for a ratio
    that is not a share (a mean log-loss, say); the interval is ratio +- t(G - 1) * se,
    so a handful of games gives the wide interval it deserves. (None, None, None) without
    any b; the interval is None with a single game.
    """
    a = np.asarray(a_per_game, dtype=float)
    b = np.asarray(b_per_game, dtype=float)
    total = b.sum()
    if total <= 0:
        return None, None, None
    ratio = float(a.sum() / total)
    games = len(b)
    if games < 2:
        return ratio, None, None
    var = games / (games - 1) * float(((a - ratio * b) ** 2).sum()) / (total * total)
    half = t95(games - 1) * math.sqrt(var)
    return ratio, ratio - half, ratio + half


@dataclass(frozen=True, slots=True)
class ClusteredRate:
    """A rate over trials grouped in games, with its game-clustered 95% interval."""

    k: int
    n: int
    games: int
    rate: float | None
    low: float | None
    high: float | None
    design_effect: float | None


def clustered_rates(per_game: list[tuple[np.ndarray, np.ndarray]],
                    z: float = Z95) -> list[ClusteredRate]:
    """:func:`cluster_exprs` for several rates at once, each from its per-game counts
    (k, n): numpy arrays with one entry per game; games without a trial are not counted.

    The same arithmetic as :func:`with_cluster_ci`, in the same order, on Python floats
    (a handful of rates: no polars, so a scouting report computes without loading it)."""
    out = []
    for k_games, n_games in per_game:
        k = np.asarray(k_games, dtype=np.int64)
        n = np.asarray(n_games, dtype=np.int64)
        used = n > 0
        k, n = k[used], n[used]
        out.append(_clustered(int(k.sum()), int(n.sum()), int(k @ k), int(n @ n),
                              int(k @ n), int(used.sum()), z))
    return out


def _clustered(k: int, n: int, kk: int, nn: int, kn: int, games: int, z: float
               ) -> ClusteredRate:
    """One row of :func:`with_cluster_ci` (design_effect_expr, then wilson_deff_exprs)."""
    if n <= 0:
        return ClusteredRate(k, n, games, None, None, None, None)
    nf, g = float(n), float(games)
    r = float(k) / nf
    spread = max(float(kk) - 2.0 * r * float(kn) + r * r * float(nn), 0.0)
    deff = 1.0
    if games >= 2 and 0.0 < r < 1.0:
        var_cluster = g / (g - 1.0) * spread / (nf * nf)
        var_binomial = r * (1.0 - r) / nf
        deff = max(1.0, var_cluster / var_binomial)
    trials = nf / deff
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (r + z2 / (2.0 * trials)) / denom
    half = z * math.sqrt(r * (1.0 - r) / trials + z2 / (4.0 * trials * trials)) / denom
    return ClusteredRate(k, n, games, r, min(max(centre - half, 0.0), 1.0),
                         min(max(centre + half, 0.0), 1.0), deff)


def clustered_rate(k_per_game: np.ndarray, n_per_game: np.ndarray,
                   z: float = Z95) -> ClusteredRate:
    """:func:`clustered_rates` for one rate."""
    return clustered_rates([(k_per_game, n_per_game)], z)[0]
