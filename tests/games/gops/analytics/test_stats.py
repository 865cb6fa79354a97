"""The Wilson interval against values worked out by hand (z = 1.96)."""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gops_records.core.stats import wilson, with_wilson


def test_wilson_known_values():
    # k = 0: the upper bound is z^2 / (n + z^2) = 3.8416 / 13.8416.
    low, high = wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(3.8416 / 13.8416)
    # k = n/2: symmetric around 0.5, the textbook 0.2366 .. 0.7634 for 5 of 10.
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))
    assert low + high == pytest.approx(1.0)


def test_wilson_without_trials_is_null():
    # docs/analytics.md: where the count is 0 the rate and the interval are null
    assert wilson(0, 0) == (None, None)


@pytest.mark.parametrize(("k", "n"), [(-1, 3), (4, 3), (0, -1)])
def test_wilson_rejects_impossible_counts(k, n):
    with pytest.raises(ValueError, match="0 <= k <= n"):
        wilson(k, n)


@given(st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_rate_and_stays_in_unit_range(kn):
    k, n = kn
    low, high = wilson(k, n)
    if n == 0:
        assert (low, high) == (None, None)
        return
    assert 0.0 <= low <= high <= 1.0
    assert low - 1e-12 <= k / n <= high + 1e-12


def test_with_wilson_matches_the_scalar_and_nulls_empty_rows():
    df = pl.DataFrame({"hits": [0, 5, 3, 0], "tries": [10, 10, 3, 0]})
    out = with_wilson(df, "hits", "tries")
    assert out.columns == ["hits", "tries", "rate", "ci_low", "ci_high"]
    for row in out.head(3).iter_rows(named=True):
        low, high = wilson(row["hits"], row["tries"])
        assert row["rate"] == pytest.approx(row["hits"] / row["tries"])
        assert math.isclose(row["ci_low"], low, abs_tol=1e-12)
        assert math.isclose(row["ci_high"], high, abs_tol=1e-12)
    assert out.row(3, named=True) == {"hits": 0, "tries": 0, "rate": None,
                                          "ci_low": None, "ci_high": None}
