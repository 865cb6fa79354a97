"""One call that scouts a player from the database: :func:`scout`."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import duckdb

from gops_records.games.gops.scouting.counter import DEFAULT_GAMES, counter_strategy
from gops_records.games.gops.scouting.equilibrium import player_baseline
from gops_records.games.gops.scouting.evaluate import held_out, held_out_models, score
from gops_records.games.gops.scouting.features import (
    MAX_GAMES,
    ScoutError,
    Situations,
    check_player,
    studied,
)
from gops_records.games.gops.scouting.habits import find_habits
from gops_records.games.gops.scouting.model import Board, OpponentModel, encode
from gops_records.games.gops.scouting.report import predicted_bid_by_prize, profile_of
from gops_records.games.gops.scouting.results import ScoutReport


def scout(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None, seed: int = 0,
          folds: int = 5, simulations: int = DEFAULT_GAMES,
          max_games: int = MAX_GAMES) -> ScoutReport:
    """Scout ``player`` from their recorded games (only those against ``vs``, if given).

    Cross-validates the model by game (``folds`` folds), finds the habits, fits the model on
    every game and measures the counter-strategy, the generic strategy and a random reply
    over ``simulations`` two-player games each under the rules the player's games were most
    often played under, and the counter and the generic strategy against each fold's model
    (how much the exploit moves with the games seen). ``seed`` fixes the folds and the
    simulations. The exploit's interval carries the model's own uncertainty: each fold's
    counter (planned against a model fitted without the fold) plays, with the generic
    strategy, against a model of the fold's games alone (cross-fitted). Only games of the
    classic rules are studied (one card a bid, one prize a round); the report counts the
    games of the variants it left out. Raises
    :class:`ScoutError` for an unknown name or fewer than 2 classic games.
    """
    games = studied(con, player, vs, max_games)
    frame = games.frame
    s = Situations.from_frame(frame)
    if s.games < 2:
        check_player(con, player, vs)  # an unknown name (or --vs naming the player) first
        among = f" against {vs}" if vs else ""
        if games.variant_games:
            raise ScoutError(
                f"{player} has {s.games} recorded game{'s' * (s.games != 1)} of the classic "
                f"rules{among} and {games.variant_games} of the variants (multi-card bids or "
                "open prizes), which scouting leaves out: it covers classic games only and "
                "needs at least 2 of them")
        raise ScoutError(f"{player} has {s.games} recorded game{'s' * (s.games != 1)}{among}; "
                         "scouting needs at least 2 (games are held out to test the model)")
    # Two threads: what the simulations do not wait for (the habits, then the chart data
    # and the held-out scores) runs beside the cross-validation and the simulations. numpy
    # lets go of the interpreter while it computes, so on two cores the report comes
    # sooner (about a tenth at 1,000,000 games); it is the same report, each part computed
    # exactly as on its own. (The simulations split in two threads came out slower: their
    # steps are small; so did the games against the full model played beside the
    # cross-validation.) The equilibrium's baseline (its own cursor: a connection serves
    # one thread at a time) runs beside the simulations too.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="scout") as pool:
        habits = pool.submit(find_habits, s)
        encoded = encode(Board.of(s))
        cv = held_out(s, folds, seed, encoded)
        tests = pool.submit(held_out_models, s, cv, encoded)
        model = OpponentModel.fit(s, encoded)
        predicted = pool.submit(predicted_bid_by_prize, model, s, encoded=encoded)
        predictability = pool.submit(score, s, cv.probs, cv.folds)
        cursor = con.cursor()
        try:
            equilibrium = pool.submit(player_baseline, cursor, player, frame, model)
            counter = counter_strategy(model, profile_of(frame), simulations, seed,
                                       cv.models, held_out_models=tests.result())
            baseline = equilibrium.result()
        finally:
            cursor.close()
        return ScoutReport(player=player, games=s.games, bids=len(s),
                           predictability=predictability.result(), habits=habits.result(),
                           counter=counter, vs=vs, model=model, situations=s,
                           predicted=predicted.result(), variant_games=games.variant_games,
                           model_description=model.describe(), equilibrium=baseline)
