"""One call that scouts a player from the database: :func:`scout`."""

from __future__ import annotations

import duckdb

from gops_records.scouting.counter import DEFAULT_GAMES, counter_strategy
from gops_records.scouting.evaluate import held_out, score
from gops_records.scouting.features import (
    MAX_GAMES,
    ScoutError,
    Situations,
    check_player,
    situation_masks,
)
from gops_records.scouting.habits import find_habits
from gops_records.scouting.model import Board, OpponentModel, encode
from gops_records.scouting.report import ScoutReport, predicted_bid_by_prize, profile_of


def scout(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None, seed: int = 0,
          folds: int = 5, simulations: int = DEFAULT_GAMES,
          max_games: int = MAX_GAMES) -> ScoutReport:
    """Scout ``player`` from their recorded games (only those against ``vs``, if given).

    Cross-validates the model by game (``folds`` folds), finds the habits, fits the model on
    every game and measures the counter-strategy, the generic strategy and a random reply
    over ``simulations`` two-player games each under the rules the player's games were most
    often played under, and the counter and the generic strategy against each fold's model
    (how much the exploit moves with the games seen). ``seed`` fixes the folds and the
    simulations. Raises :class:`ScoutError` for an unknown name or fewer than 2 games.
    """
    check_player(con, player, vs)
    frame = situation_masks(con, player, vs, max_games)
    s = Situations.from_frame(frame)
    if s.games < 2:
        among = f" against {vs}" if vs else ""
        raise ScoutError(f"{player} has {s.games} recorded game{'s' * (s.games != 1)}{among}; "
                         "scouting needs at least 2 (games are held out to test the model)")
    encoded = encode(Board.of(s))
    cv = held_out(s, folds, seed, encoded)
    predictability = score(s, cv.probs, cv.folds)
    model = OpponentModel.fit(s, encoded)
    counter = counter_strategy(model, profile_of(frame), simulations, seed, cv.models)
    return ScoutReport(player=player, games=s.games, bids=len(s),
                       predictability=predictability, habits=find_habits(s), counter=counter,
                       vs=vs, model=model, situations=s,
                       predicted=predicted_bid_by_prize(model, s, encoded=encoded))
