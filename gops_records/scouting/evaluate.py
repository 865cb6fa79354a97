"""How predictable a player is: the model scored on games it was not fitted on.

Games (never single bids) are split into folds, so a bid is always predicted by a model
that has seen none of the same game. Each held-out bid is scored three ways, and each
score is set against a uniform choice among the cards still in hand:

- ``exact``: the model's most likely card is the bid (uniform: 1/h);
- ``within_one``: the most likely card is at most one rank from the bid (uniform: the
  share of the hand within one rank of the bid);
- ``log_loss``: the mean of -ln P(bid) in nats (uniform: ln h).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.cards import MAX_RANK
from gops_records.scouting.features import Situations
from gops_records.scouting.model import Board, OpponentModel

#: Probabilities are clipped here before the logarithm (a model never rules a card out).
MIN_PROB = 1e-6


@dataclass(frozen=True, slots=True)
class Predictability:
    """Held-out scores of the model and of uniform play over the hand."""

    exact: float
    within_one: float
    log_loss: float
    baseline_exact: float
    baseline_within_one: float
    baseline_log_loss: float
    folds: int = 0

    def as_json(self) -> dict[str, float]:
        return {"exact": round(self.exact, 4), "within_one": round(self.within_one, 4),
                "log_loss": round(self.log_loss, 4),
                "baseline_exact": round(self.baseline_exact, 4),
                "baseline_within_one": round(self.baseline_within_one, 4),
                "baseline_log_loss": round(self.baseline_log_loss, 4)}


def game_folds(games: int, folds: int, seed: int) -> np.ndarray:
    """A fold number for each game index: shuffled with ``seed``, sizes as equal as can be."""
    order = np.random.default_rng(seed).permutation(games)
    fold = np.empty(games, dtype=np.int64)
    fold[order] = np.arange(games) % folds
    return fold


def held_out_probs(s: Situations, folds: int = 5, seed: int = 0) -> tuple[np.ndarray, int]:
    """Each bid's (13-wide) card probabilities from a model fitted without its game.

    Returns the probabilities and the number of folds used (at most one per game).
    Raises ValueError for fewer than two games.
    """
    if s.games < 2:
        raise ValueError("cross-validation by game needs at least two games")
    k = max(2, min(folds, s.games))
    fold_of_game = game_folds(s.games, k, seed)
    fold = fold_of_game[s.game]
    probs = np.zeros(s.hand.shape)
    for f in range(k):
        test = fold == f
        model = OpponentModel.fit(s.take(~test))
        probs[test] = model.predict(Board.of(s.take(test)))
    return probs, k


def score(s: Situations, probs: np.ndarray, folds: int = 0) -> Predictability:
    """Score card probabilities (one row per bid in ``s``) against the bids actually made."""
    rows = np.arange(len(s))
    size = s.hand_size
    guess = np.argmax(probs, axis=1) + 1
    p_bid = np.clip(probs[rows, s.bid - 1], MIN_PROB, 1.0)
    near = s.hand & (np.abs(np.arange(1, MAX_RANK + 1)[None, :] - s.bid[:, None]) <= 1)
    return Predictability(
        exact=float(np.mean(guess == s.bid)),
        within_one=float(np.mean(np.abs(guess - s.bid) <= 1)),
        log_loss=float(np.mean(-np.log(p_bid))),
        baseline_exact=float(np.mean(1.0 / size)),
        baseline_within_one=float(np.mean(near.sum(axis=1) / size)),
        baseline_log_loss=float(np.mean(np.log(size))),
        folds=folds,
    )


def cross_validate(s: Situations, folds: int = 5, seed: int = 0) -> Predictability:
    """The model's predictability on held-out games (see the module docstring)."""
    probs, used = held_out_probs(s, folds, seed)
    return score(s, probs, used)
