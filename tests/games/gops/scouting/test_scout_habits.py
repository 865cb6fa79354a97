"""Habits: the statistics by hand, and the habits found in simulated bots."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from gops_records.core.stats import clustered_rate, wilson
from gops_records.games.gops.scouting.features import Situations, situation_frame
from gops_records.games.gops.scouting.habits import (
    EXACT_UP_TO,
    candidate_tests,
    find_habits,
    holm,
    saddlepoint_tail,
    upper_tail,
)

RANDOM_PLAYERS = ("Anna de Vries", "Lena Fischer", "Marco Rossi", "Tom Okafor")


def habits_of(con, name: str):
    return find_habits(Situations.from_frame(situation_frame(con, name)))


def test_habit_intervals_take_the_game_as_the_unit(sim_con):
    s = Situations.from_frame(situation_frame(sim_con, "Anna de Vries"))
    for t in candidate_tests(s):
        assert t.k_games.sum() == t.k and t.n_games.sum() == t.n
        assert len(t.n_games) == s.games
        got = clustered_rate(t.k_games, t.n_games)
        assert t.interval() == (got.low, got.high)
        # never narrower than Wilson's for the same counts
        plain = wilson(t.k, t.n)
        assert t.interval()[0] <= plain[0] + 1e-12 and t.interval()[1] >= plain[1] - 1e-12


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_saddlepoint_tail_is_close_to_the_exact_one(seed):
    rng = np.random.default_rng(seed)
    chances = 1.0 / rng.integers(2, 14, 1500)        # exact still, to compare with
    mean, sd = chances.sum(), np.sqrt((chances * (1 - chances)).sum())
    values, counts = np.unique(chances, return_counts=True)
    for z in (-1.0, 0.0, 0.5, 1.5, 3.0, 4.5, 6.0):
        k = int(np.ceil(mean + z * sd))
        exact = upper_tail(k, chances)
        approx = saddlepoint_tail(k, values, counts)
        assert approx == pytest.approx(exact, rel=0.03, abs=1e-4 if z < 1 else 0), (z, exact)
    assert len(chances) <= EXACT_UP_TO
    big = np.tile(chances, 3)                          # the saddlepoint path itself
    assert upper_tail(int(big.sum() + 4 * np.sqrt((big * (1 - big)).sum())), big) < 1e-3
    assert upper_tail(len(big), big) < 1e-300 and upper_tail(1, big) == pytest.approx(1.0)


def test_holm_step_down():
    # sorted 0.01, 0.03, 0.04 -> 3 * 0.01, 2 * 0.03, max(1 * 0.04, 0.06)
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_upper_tail_is_the_exact_poisson_binomial():
    assert upper_tail(8, np.full(10, 0.5)) == pytest.approx(56 / 1024)
    assert upper_tail(1, np.array([0.5, 0.25])) == pytest.approx(1 - 0.5 * 0.75)
    assert upper_tail(2, np.array([0.5, 0.25])) == pytest.approx(0.125)
    assert upper_tail(0, np.array([0.1])) == 1.0
    assert upper_tail(3, np.array([0.5, 0.5])) == 0.0
    # large enough for the FFT path: Binomial(300, 1/13), checked against the sum of terms
    n, p, k = 300, 1 / 13, 35
    exact = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
    assert upper_tail(k, np.full(n, p)) == pytest.approx(exact, rel=1e-9)


def test_counts_on_the_club_game(club_con):
    s = Situations.from_frame(situation_frame(club_con, "Ann", vs="Bob"))
    tests = {t.key: t for t in candidate_tests(s)}
    # Ann still holds the prize's card in rounds 1-7 and 11 (the 7, A, J and 9 went early;
    # round 13 has one card, no choice); she bids it once, the K in round 3
    assert (tests["prize"].n, tests["prize"].k) == (8, 1)
    # she holds prize + 1 in rounds 1 (9), 2 (6), 4 (3), 6 (4), 8 (8) and 11 (5);
    # she bids it in round 1 only
    assert (tests["prize+1"].n, tests["prize+1"].k) == (6, 1)
    assert tests["prize+1"].chances.tolist() == pytest.approx(
        [1 / 13, 1 / 12, 1 / 10, 1 / 8, 1 / 6, 1 / 3])
    # the king went in round 3, before round 5
    assert (tests["top-early"].n, tests["top-early"].k) == (1, 1)
    assert tests["top-early"].chances.tolist() == [pytest.approx(4 / 13)]


def test_prize_bidder_habit_names_what_it_does(sim_con):
    habits = habits_of(sim_con, "Bruno Keller")
    assert habits and habits[0].description.startswith("bids exactly the prize 100% of the time")
    assert re.search(r"\(n=\d+, 95% CI 9\d-100%; uniform play 1\d%\)", habits[0].description)
    assert habits[0].rate == 1.0 and habits[0].ci[0] > 0.95


def test_prize_plus_one_habit_names_what_it_does(sim_con):
    habits = habits_of(sim_con, "Clara Nowak")
    assert habits[0].description.startswith("bids the prize plus one 100% of the time")
    assert "bids exactly the prize" not in " ".join(h.description for h in habits)


@pytest.mark.parametrize("name", RANDOM_PLAYERS)
def test_uniformly_random_bidders_show_no_habits(sim_con, name):
    assert habits_of(sim_con, name) == []
