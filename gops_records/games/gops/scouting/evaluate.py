"""How predictable a player is: the model scored on games it was not fitted on.

Games (never single bids) are split into folds, so a bid is always predicted by a model
that has seen none of the same game. Each held-out bid is scored three ways, and each
score is set against a uniform choice among the cards still in hand:

- ``exact``: the model's most likely card is the bid (uniform: 1/h);
- ``within_one``: the most likely card is at most one rank from the bid (uniform: the
  share of the hand within one rank of the bid);
- ``log_loss``: the mean of -ln P(bid) in nats (uniform: ln h).

Each score comes with a 95% interval that takes the **game** as the unit (the bids of one
game go together): the held-out scores are summed per game and the interval is the
game-clustered one of :mod:`gops_records.core.stats`, so a player seen in two games
gets the wide interval two games deserve. The folds' models are kept: fitted each without
one fold's games, they also show how much the model itself moves with the games it saw
(see :mod:`gops_records.games.gops.scouting.counter`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gops_records.core.stats import clustered_rates, ratio_interval
from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.scouting.features import Situations
from gops_records.games.gops.scouting.model import Board, Encoded, ModelStack, OpponentModel, encode
from gops_records.games.gops.scouting.results import Predictability

#: Probabilities are clipped here before the logarithm (a model never rules a card out).
MIN_PROB = 1e-6

@dataclass(frozen=True)
class HeldOut:
    """Cross-validation by game: each bid's probabilities from a model that never saw its
    game, the fold of each game, and the folds' models (``models[f]`` was fitted on every
    game but those of fold ``f``)."""

    probs: np.ndarray
    folds: int
    fold_of_game: np.ndarray
    models: list[OpponentModel] = field(repr=False)


def game_folds(games: int, folds: int, seed: int) -> np.ndarray:
    """A fold number for each game index: shuffled with ``seed``, sizes as equal as can be."""
    order = np.random.default_rng(seed).permutation(games)
    fold = np.empty(games, dtype=np.int64)
    fold[order] = np.arange(games) % folds
    return fold


def held_out(s: Situations, folds: int = 5, seed: int = 0,
             encoded: Encoded | None = None) -> HeldOut:
    """Cross-validate by game (at most one fold per game). ``encoded`` is
    :func:`~gops_records.games.gops.scouting.model.encode` of ``Board.of(s)`` if the caller has it.
    Raises ValueError for fewer than two games."""
    if s.games < 2:
        raise ValueError("cross-validation by game needs at least two games")
    enc = encoded if encoded is not None else encode(Board.of(s))
    k = max(2, min(folds, s.games))
    fold_of_game = game_folds(s.games, k, seed)
    fold = fold_of_game[s.game]
    models = [OpponentModel.fit(s, enc, rows=fold != f) for f in range(k)]
    # each bid predicted by its own fold's model, all in one pass (row by row the same
    # arithmetic as predicting each fold apart)
    probs = ModelStack.of(models).predict(enc, fold)
    return HeldOut(probs, k, fold_of_game, models)


def held_out_models(s: Situations, cv: HeldOut, encoded: Encoded | None = None
                    ) -> list[OpponentModel]:
    """The model of each fold's games alone (``[f]`` fitted on fold ``f``): the player in
    games the fold's model (``cv.models[f]``) never saw, for the counter's cross-fitted
    interval (:func:`~gops_records.games.gops.scouting.counter.counter_strategy`)."""
    enc = encoded if encoded is not None else encode(Board.of(s))
    fold = cv.fold_of_game[s.game]
    return [OpponentModel.fit(s, enc, rows=fold == f) for f in range(cv.folds)]


def held_out_probs(s: Situations, folds: int = 5, seed: int = 0) -> tuple[np.ndarray, int]:
    """Each bid's (13-wide) card probabilities from a model fitted without its game, and the
    number of folds used. Raises ValueError for fewer than two games."""
    out = held_out(s, folds, seed)
    return out.probs, out.folds


def score(s: Situations, probs: np.ndarray, folds: int = 0) -> Predictability:
    """Score card probabilities (one row per bid in ``s``) against the bids actually made."""
    rows = np.arange(len(s))
    size = s.hand_size
    guess = np.argmax(probs, axis=1) + 1
    p_bid = np.clip(probs[rows, s.bid - 1], MIN_PROB, 1.0)
    near = s.hand & (np.abs(np.arange(1, MAX_RANK + 1)[None, :] - s.bid[:, None]) <= 1)
    hit = guess == s.bid
    close = np.abs(guess - s.bid) <= 1
    loss, uniform_loss = -np.log(p_bid), np.log(size)

    def per_game(x: np.ndarray) -> np.ndarray:
        return np.bincount(s.game, weights=x, minlength=s.games)

    bids = per_game(np.ones(len(s)))
    used = bids > 0
    n_games = bids[used].astype(np.int64)
    exact, within = clustered_rates([(per_game(hit)[used].astype(np.int64), n_games),
                                     (per_game(close)[used].astype(np.int64), n_games)])
    ratio, low, high = ratio_interval(per_game(loss)[used], per_game(uniform_loss)[used])
    gain_ci = (None, None) if low is None else (1.0 - high, 1.0 - low)
    return Predictability(
        exact=float(np.mean(hit)),
        within_one=float(np.mean(close)),
        log_loss=float(np.mean(loss)),
        baseline_exact=float(np.mean(1.0 / size)),
        baseline_within_one=float(np.mean(near.sum(axis=1) / size)),
        baseline_log_loss=float(np.mean(uniform_loss)),
        folds=folds,
        exact_ci=(exact.low, exact.high),
        within_one_ci=(within.low, within.high),
        information_gain_ci=gain_ci,
    )


def cross_validate(s: Situations, folds: int = 5, seed: int = 0) -> Predictability:
    """The model's predictability on held-out games (see the module docstring)."""
    out = held_out(s, folds, seed)
    return score(s, out.probs, out.folds)
