"""Game-clustered intervals: wider than Wilson by the design effect when the rounds of a game
go together, about Wilson's when they are independent, and the same from grouped games."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from gops_records.core.stats import clustered_rate, wilson
from gops_records.games.gops.analytics.ties import tie_summary_of

ROUNDS = 13


def shapes_of(ties_per_game: np.ndarray, rounds: int = ROUNDS) -> pl.DataFrame:
    """A game_shapes-like frame: games of ``rounds`` rounds, counted by their tie count."""
    counts = np.bincount(ties_per_game, minlength=rounds + 1)
    ties = np.flatnonzero(counts)
    return pl.DataFrame({"part": "ties", "tie_rule": "carry", "rounds_played": rounds,
                         "ties": ties, "tie_mask": 0, "games": counts[ties]})


def width(low: float, high: float) -> float:
    return high - low


def test_correlated_rounds_widen_the_interval_by_the_design_effect():
    # Each game has its own tie chance p_g ~ Beta(1.5, 3.5): rounds of one game share it,
    # with intra-game correlation rho = 1 / (a + b + 1) = 1/6, so the design effect of
    # 13-round games is 1 + (13 - 1) * rho = 3.0.
    rng = np.random.default_rng(7)
    games = 4000
    ties = rng.binomial(ROUNDS, rng.beta(1.5, 3.5, games))
    row = tie_summary_of(shapes_of(ties)).row(-1, named=True)
    expected_deff = 1 + (ROUNDS - 1) / 6
    assert row["games"] == games and row["rounds"] == games * ROUNDS
    assert row["design_effect"] == pytest.approx(expected_deff, rel=0.15)
    plain = wilson(row["ties"], row["rounds"])
    ratio = width(row["ci_low"], row["ci_high"]) / width(*plain)
    assert ratio == pytest.approx(math.sqrt(expected_deff), rel=0.08)
    assert row["ci_low"] < plain[0] and row["ci_high"] > plain[1]


def test_independent_rounds_keep_about_the_wilson_interval():
    rng = np.random.default_rng(8)
    ties = rng.binomial(ROUNDS, 0.3, 4000)
    row = tie_summary_of(shapes_of(ties)).row(-1, named=True)
    plain = wilson(row["ties"], row["rounds"])
    assert row["design_effect"] < 1.1
    assert width(row["ci_low"], row["ci_high"]) / width(*plain) == pytest.approx(1.0, abs=0.05)


def test_perfectly_correlated_games_count_as_one_trial_each():
    # half the games tie every round, half never: 13 rounds say no more than one game
    ties = np.repeat([0, ROUNDS], 500)
    row = tie_summary_of(shapes_of(ties)).row(-1, named=True)
    assert row["design_effect"] == pytest.approx(ROUNDS * 1000 / 999, rel=1e-9)
    per_game = wilson(500, 1000)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(per_game, rel=2e-3)


def test_grouped_games_give_the_same_interval_as_one_row_per_game():
    rng = np.random.default_rng(9)
    rounds = rng.integers(3, 14, 300)
    ties = rng.binomial(rounds, rng.beta(2, 5, 300))
    one = clustered_rate(ties, rounds)
    shapes = (pl.DataFrame({"part": "ties", "tie_rule": "carry", "rounds_played": rounds,
                            "ties": ties, "tie_mask": 0})
              .group_by("part", "tie_rule", "rounds_played", "ties", "tie_mask")
              .agg(pl.len().alias("games")))
    row = tie_summary_of(shapes).row(-1, named=True)
    assert shapes.height < 300
    assert (row["ties"], row["rounds"], row["games"]) == (one.k, one.n, one.games)
    assert (row["ci_low"], row["ci_high"], row["design_effect"]) == pytest.approx(
        (one.low, one.high, one.design_effect), rel=1e-12)


def test_clustered_rate_against_the_formula_by_hand():
    k = np.array([0, 3, 5, 1, 4])
    n = np.array([4, 4, 6, 5, 4])
    r = k.sum() / n.sum()
    var_cluster = 5 / 4 * ((k - r * n) ** 2).sum() / n.sum() ** 2
    deff = var_cluster / (r * (1 - r) / n.sum())
    assert deff > 1
    got = clustered_rate(k, n)
    assert got.design_effect == pytest.approx(deff)
    # Wilson with n / deff trials, written out
    m, z = n.sum() / deff, 1.96
    centre = (r + z * z / (2 * m)) / (1 + z * z / m)
    half = z * math.sqrt(r * (1 - r) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    assert (got.low, got.high) == pytest.approx((centre - half, centre + half))


@pytest.mark.parametrize(("k", "n"), [([0, 0, 0], [4, 4, 4]), ([4, 4], [4, 4]), ([2], [5])])
def test_unmeasurable_spread_falls_back_to_wilson(k, n):
    got = clustered_rate(np.array(k), np.array(n))
    assert got.design_effect == 1.0
    assert (got.low, got.high) == pytest.approx(wilson(sum(k), sum(n)))


def test_no_trials_is_null():
    got = clustered_rate(np.array([0, 0]), np.array([0, 0]))
    assert (got.n, got.games, got.rate, got.low, got.high) == (0, 0, None, None, None)
