"""The chart data behind a scouting report, and the report's values named where they were.

The report itself (:class:`ScoutReport`: its JSON contract and its terminal text) is in
:mod:`gops_records.games.gops.scouting.results`, free of numpy and polars so a kept report reads
fast.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.scouting.features import Situations
from gops_records.games.gops.scouting.model import Board, Encoded, OpponentModel
from gops_records.games.gops.scouting.results import (  # noqa: F401 (the report's values, named here too)
    HIGHLY_PREDICTABLE,
    MIN_GAMES,
    PREDICTABLE,
    ScoutReport,
    exploit_span,
    span,
)


def predicted_bid_by_prize(source: ScoutReport | OpponentModel,
                           situations: Situations | None = None,
                           cards: int = MAX_RANK, encoded: Encoded | None = None
                           ) -> pl.DataFrame:
    """The model's bid distribution for each prize: columns prize, bid, probability.

    For a report (or a model with ``situations``) each prize's row is the model's
    probabilities averaged over the player's recorded situations with that prize, so the
    chart shows what the model expects in the spots the player actually met. For a bare
    model it is the first round of a ``cards``-card game (full hands, all prizes left).
    With a model, ``encoded`` (the situations as
    :func:`~gops_records.games.gops.scouting.model.encode`
    gave them) spares encoding them again.
    """
    if isinstance(source, ScoutReport):
        if source.predicted is not None:
            return source.predicted
        model, situations = source.model, source.situations
        if model is None:
            raise ValueError("this report carries no model (made without one)")
    else:
        model = source
    if situations is not None and len(situations):
        board = encoded if encoded is not None else Board.of(situations)
        prizes = situations.prize
        n = int(situations.cards.max())
    else:
        n = cards
        prizes = np.arange(1, n + 1)
        hand = np.zeros((n, MAX_RANK), dtype=bool)
        hand[:, :n] = True
        board = Board(hand, prizes, prizes.copy(), np.full(n, n), prizes - 1, np.full(n, n))
    probs = model.predict(board)[:, :n]
    counts = np.bincount(prizes, minlength=n + 1)[1:n + 1]
    # each (prize, bid) cell summed in row order, as np.add.at does, in one bincount
    key = (prizes[:, None] * n + np.arange(n)[None, :]).ravel()
    sums = np.bincount(key, weights=probs.ravel(), minlength=(n + 1) * n).reshape(n + 1, n)
    seen = np.flatnonzero(counts) + 1
    mean = sums[seen] / counts[seen - 1][:, None]
    return pl.DataFrame({"prize": np.repeat(seen, n), "bid": np.tile(np.arange(1, n + 1),
                                                                     len(seen)),
                         "probability": mean.ravel()},
                        schema={"prize": pl.Int8, "bid": pl.Int8, "probability": pl.Float64})


def profile_of(frame: pl.DataFrame) -> RuleProfile:
    """The two-player profile of the rules the player's games were most often played under."""
    top = (frame.unique("game_id")
           .group_by("cards", "tie_rule", "prize_order").len()
           .sort(["len", "cards", "tie_rule", "prize_order"], descending=[True, True, False,
                                                                           False])
           .row(0, named=True))
    return RuleProfile(cards=top["cards"], players=2, tie_rule=top["tie_rule"],
                       prize_order=top["prize_order"])
