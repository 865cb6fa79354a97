"""Cross-validation by game, and the scores set against uniform play."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gops_records.games.gops.scouting.evaluate import (
    cross_validate,
    game_folds,
    held_out_probs,
    score,
)
from gops_records.games.gops.scouting.features import Situations, situation_frame
from gops_records.games.gops.scouting.model import Board, OpponentModel


@pytest.fixture
def ann_vs_bob(club_con) -> Situations:
    return Situations.from_frame(situation_frame(club_con, "Ann", vs="Bob"))


def test_game_folds_are_balanced_and_seeded():
    folds = game_folds(23, 5, seed=4)
    assert sorted(np.bincount(folds).tolist()) == [4, 4, 5, 5, 5]
    assert np.array_equal(folds, game_folds(23, 5, seed=4))
    assert not np.array_equal(folds, game_folds(23, 5, seed=5))


def test_perfect_and_uniform_predictions_against_hand_checked_baselines(ann_vs_bob):
    s = ann_vs_bob
    one_hot = np.zeros(s.hand.shape)
    one_hot[np.arange(len(s)), s.bid - 1] = 1.0
    perfect = score(s, one_hot)
    assert (perfect.exact, perfect.within_one) == (1.0, 1.0)
    assert perfect.log_loss == pytest.approx(0.0)
    # hands of 13, 12, ..., 1 cards: uniform exact = H(13) / 13, log-loss = ln(13!) / 13
    harmonic = sum(1 / h for h in range(1, 14))
    assert perfect.baseline_exact == pytest.approx(harmonic / 13)
    assert perfect.baseline_log_loss == pytest.approx(math.log(math.factorial(13)) / 13)
    uniform = score(s, s.hand / s.hand_size[:, None])
    assert uniform.log_loss == pytest.approx(uniform.baseline_log_loss)
    # round 1: a full hand and the bid 9, so 8, 9 and 10 are within one: 3/13
    first = score(s.take(np.array([0])), one_hot[:1])
    assert first.baseline_within_one == pytest.approx(3 / 13)


def test_guess_one_off_counts_within_one_but_not_exact(ann_vs_bob):
    s = ann_vs_bob.take(np.array([0]))          # bid 9 from a full hand
    probs = np.full((1, 13), 0.5 / 12)
    probs[0, 9] = 0.5                            # the model's favourite is the 10
    p = score(s, probs)
    assert (p.exact, p.within_one) == (0.0, 1.0)
    assert p.log_loss == pytest.approx(-math.log(0.5 / 12))


def test_each_game_is_predicted_by_a_model_that_never_saw_it(sim_con):
    s = Situations.from_frame(situation_frame(sim_con, "Clara Nowak"))
    probs, folds = held_out_probs(s, folds=4, seed=2)
    assert folds == 4
    fold = game_folds(s.games, 4, 2)[s.game]
    test = fold == 1
    again = OpponentModel.fit(s.take(~test)).predict(Board.of(s.take(test)))
    assert np.allclose(probs[test], again)
    # a model that also saw the test games predicts differently (it would leak)
    leaky = OpponentModel.fit(s).predict(Board.of(s.take(test)))
    assert not np.allclose(probs[test], leaky)


def test_needs_two_games(ann_vs_bob):
    with pytest.raises(ValueError, match="at least two games"):
        cross_validate(ann_vs_bob)
