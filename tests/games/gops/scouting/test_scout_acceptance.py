"""The issue's acceptance checks, on games from the club simulator (seed 11, 300 games).

Bruno Keller always bids the prize, Clara Nowak the prize plus one, Anna de Vries a card
drawn uniformly from her hand (the roster binds each name to one personality).
"""

from __future__ import annotations

import polars as pl
import pytest

from gops_records.games.gops.scouting import ScoutError, ScoutReport, predicted_bid_by_prize, scout

PRIZE, PLUS_ONE, RANDOM = "Bruno Keller", "Clara Nowak", "Anna de Vries"
SIMULATIONS = 200


@pytest.fixture(scope="module")
def reports(sim_db) -> dict[str, ScoutReport]:
    import duckdb
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        return {name: scout(con, name, seed=1, simulations=SIMULATIONS)
                for name in (PRIZE, PLUS_ONE, RANDOM)}
    finally:
        con.close()


@pytest.mark.parametrize("name", [PRIZE, PLUS_ONE])
def test_prize_bidders_are_far_more_predictable_than_uniform(reports, name):
    p = reports[name].predictability
    assert p.exact >= 0.95 and p.within_one >= 0.95
    assert p.baseline_exact < 0.3 and p.baseline_within_one < 0.4
    assert p.log_loss < 0.1 * p.baseline_log_loss
    assert reports[name].verdict() == "highly predictable"


def test_random_bidder_sits_at_the_baseline(reports):
    p = reports[RANDOM].predictability
    assert abs(p.exact - p.baseline_exact) < 0.05
    assert abs(p.within_one - p.baseline_within_one) < 0.05
    # held out, a model of pure chance can only lose a little to uniform play, never win much
    assert p.baseline_log_loss * 0.98 < p.log_loss < p.baseline_log_loss * 1.05
    assert reports[RANDOM].verdict() == "about as predictable as a uniformly random bidder"
    assert reports[PRIZE].predictability.exact > p.exact + 0.6


def test_habits_name_what_each_bot_does(reports):
    assert reports[PRIZE].habits[0].description.startswith("bids exactly the prize")
    assert reports[PLUS_ONE].habits[0].description.startswith("bids the prize plus one")
    assert reports[RANDOM].habits == []


@pytest.mark.parametrize("name", [PRIZE, PLUS_ONE])
def test_counter_gains_clearly_more_than_a_random_reply(reports, name):
    c = reports[name].counter
    assert c.expected_gain_per_game > 50          # beats them by one card nearly every round
    assert c.expected_gain_per_game > c.random_gain_per_game + 40
    assert c.random_gain_per_game < 0             # a random reply loses to them
    assert "plus" in c.description                # outbid: the prize plus one (or two)


def test_counter_against_a_random_bidder(reports):
    c = reports[RANDOM].counter
    # against uniform play the best reply is about bidding the prize (28 points under the
    # discard rule; these games use carry), and a random reply gains nothing
    assert 20 < c.expected_gain_per_game < 36
    assert abs(c.random_gain_per_game) < 3 * c.random.stderr + 0.5
    assert "exactly the prize" in c.description


def test_json_keeps_the_contract_keys_and_adds_the_new_ones(reports):
    doc = reports[PRIZE].as_json()
    assert list(doc) == ["player", "games", "bids", "predictability", "habits", "counter",
                         "small_sample", "can_tell",
                         "exploit_verdict", "min_games_to_tell", "equilibrium"]
    assert doc["player"] == PRIZE and doc["bids"] == 13 * doc["games"]
    assert set(doc["predictability"]) == {"exact", "within_one", "log_loss", "baseline_exact",
                                          "baseline_within_one", "baseline_log_loss",
                                          "information_gain", "exact_ci", "within_one_ci",
                                          "information_gain_ci"}
    assert all(set(h) == {"description", "rate", "count", "ci"} for h in doc["habits"])
    assert set(doc["counter"]) == {"description", "expected_gain_per_game",
                                   "random_gain_per_game", "generic_gain_per_game",
                                   "exploit_gain_per_game", "exploit_gain_ci",
                                   "generic_strategy", "simulated_games",
                                   "exploit_gain_ci_method", "exploit_gain_ci_folds",
                                   "exploit_gain_estimate"}
    assert doc["small_sample"] is False
    low, high = doc["habits"][0]["ci"]
    assert low <= doc["habits"][0]["rate"] <= high


def test_exploiting_a_random_bidder_adds_about_nothing(reports):
    # the case: against a random bidder the counter gains about +29, but so does
    # bidding the prize: the gain from exploiting is about zero, and its interval says so
    c = reports[RANDOM].counter
    assert c.generic_gain_per_game > 20
    assert abs(c.exploit_gain_per_game) < 3
    low, high = c.exploit_ci
    assert low < c.exploit_gain_per_game < high and low < 1.5
    assert reports[PLUS_ONE].counter.exploit_ci[0] > 40  # it clearly pays against them


def test_predicted_bid_by_prize(reports):
    frame = predicted_bid_by_prize(reports[PLUS_ONE])
    assert frame.columns == ["prize", "bid", "probability"]
    sums = frame.group_by("prize").agg(pl.col("probability").sum().alias("total"))
    assert sums["total"].to_list() == pytest.approx([1.0] * sums.height)
    top = frame.sort("probability", descending=True).unique("prize", keep="first").sort("prize")
    # the prize plus one, and for the king (no 14) its lowest card, the ace
    assert top["bid"].to_list() == [*range(2, 14), 1]
    # from a bare model: the first round of a game
    bare = predicted_bid_by_prize(reports[PRIZE].model)
    assert bare.height == 13 * 13


def test_scout_refuses_too_few_games(club_con):
    with pytest.raises(ScoutError, match="Bob has 1 recorded game; scouting needs at least 2"):
        scout(club_con, "Bob", simulations=10)
    with pytest.raises(ScoutError, match="no recorded games for player 'Zed'"):
        scout(club_con, "Zed")
