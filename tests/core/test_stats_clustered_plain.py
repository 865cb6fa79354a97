"""`clustered_rates` computes without polars, the very values `with_cluster_ci` gives."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.core.stats import CLUSTER_SUMS, ClusteredRate, clustered_rates, with_cluster_ci

games = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=12).map(
    lambda pairs: [(min(k, n), n) for k, n in pairs])


def _framed(k: np.ndarray, n: np.ndarray, z: float = 1.96) -> ClusteredRate:
    used = n > 0
    k, n = k[used], n[used]
    frame = pl.DataFrame([(int(k.sum()), int(n.sum()), int(k @ k), int(n @ n), int(k @ n),
                           int(used.sum()))],
                         schema=dict.fromkeys(("k", "n", *CLUSTER_SUMS), pl.Int64),
                         orient="row")
    r = with_cluster_ci(frame, z=z).row(0, named=True)
    return ClusteredRate(r["k"], r["n"], r["games"], r["rate"], r["ci_low"], r["ci_high"],
                         r["design_effect"])


@settings(max_examples=300, deadline=None)
@given(games=games, z=st.sampled_from([1.96, 1.0, 2.576]))
def test_the_same_values_as_the_polars_frames(games, z):
    k = np.array([g[0] for g in games], dtype=np.int64)
    n = np.array([g[1] for g in games], dtype=np.int64)
    assert clustered_rates([(k, n)], z=z)[0] == _framed(k, n, z)


def test_a_known_case():
    # two games, 3 of 10 and 7 of 10: the spread between games widens Wilson's interval
    rate = clustered_rates([(np.array([3, 7]), np.array([10, 10]))])[0]
    assert rate.rate == 0.5 and rate.design_effect > 1
    assert rate == _framed(np.array([3, 7]), np.array([10, 10]))
    assert clustered_rates([(np.array([0]), np.array([0]))])[0].rate is None


def test_importing_the_statistics_loads_no_polars():
    code = "import sys, gops_records.core.stats; print('polars' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
