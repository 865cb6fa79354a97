"""Reviews kept beside the tablebase, for pages that must not solve.

Per objective and number of rounds analysed, two Parquet files under
``<tablebase>/solver-v<N>/``: ``reviews-<objective>-last<K>.parquet``, one row per bid of
a stored game's analysed rounds (columns :data:`COLUMNS`; the Players page), and
``games-<objective>-last<K>.parquet``, one row per game, ``game_id`` and the whole review
as JSON (the Game viewer shows it without loading the solver). `gops review` of a stored
game (or of a player's games) and the Game viewer add their games; a game reviewed again
replaces its rows. Writes are atomic (``os.replace``).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import polars as pl

from gops_records.games.gops.theory.position import (
    Objective,
    PrizeOrder,
    Setting,
    TieRule,
)
from gops_records.games.gops.theory.review import BidReview, GameReview, RoundReview
from gops_records.games.gops.theory.tablebase import SOLVER_VERSION

COLUMNS = {"game_id": pl.UInt64, "date": pl.String, "round_no": pl.Int32, "seat": pl.String,
           "player": pl.String, "card": pl.Int32, "cost": pl.Float64,
           "accuracy": pl.Float64, "choice": pl.Boolean}


def path(folder: Path, objective: Objective, rounds: int) -> Path:
    return folder / f"solver-v{SOLVER_VERSION}" / f"reviews-{objective.value}-last{rounds}.parquet"


def rows(game_id: int, review: GameReview) -> pl.DataFrame:
    """A reviewed game's bids as rows of :data:`COLUMNS`."""
    bids = review.bids
    return pl.DataFrame({
        "game_id": [game_id] * len(bids), "date": [review.date] * len(bids),
        "round_no": [b.round_no for b in bids], "seat": [b.seat for b in bids],
        "player": [b.player for b in bids], "card": [b.card for b in bids],
        "cost": [b.cost for b in bids], "accuracy": [b.accuracy for b in bids],
        "choice": [b.choice for b in bids]}, schema=COLUMNS)


def read(folder: Path, objective: Objective, rounds: int) -> pl.DataFrame:
    """Every kept row (an empty frame of :data:`COLUMNS` when none are kept)."""
    where = path(folder, objective, rounds)
    if not where.exists():
        return pl.DataFrame(schema=COLUMNS)
    return pl.read_parquet(where)


def games_path(folder: Path, objective: Objective, rounds: int) -> Path:
    return folder / f"solver-v{SOLVER_VERSION}" / f"games-{objective.value}-last{rounds}.parquet"


def keep(folder: Path, objective: Objective, rounds: int,
         reviews: dict[int, GameReview]) -> int:
    """Add (or replace) the rows of ``reviews`` (game id -> review) and the reviews
    themselves; bid rows kept in all."""
    if not reviews:
        return 0
    ids = list(reviews)
    new = pl.concat([rows(gid, review) for gid, review in reviews.items()])
    kept = pl.concat([read(folder, objective, rounds).filter(~pl.col("game_id").is_in(ids)),
                      new])
    _replace(kept, path(folder, objective, rounds))
    games = pl.DataFrame({"game_id": ids, "review": [to_json(reviews[g]) for g in ids]},
                         schema={"game_id": pl.UInt64, "review": pl.String})
    where = games_path(folder, objective, rounds)
    if where.exists():
        games = pl.concat([pl.read_parquet(where).filter(~pl.col("game_id").is_in(ids)),
                           games])
    _replace(games, where)
    return kept.height


def _replace(frame: pl.DataFrame, where: Path) -> None:
    where.parent.mkdir(parents=True, exist_ok=True)
    tmp = where.with_name(f".{where.name}.{os.getpid()}.tmp")
    frame.write_parquet(tmp)
    os.replace(tmp, where)


def kept_review(folder: Path, objective: Objective, rounds: int,
                game_id: int) -> GameReview | None:
    """The kept review of a stored game, or None."""
    where = games_path(folder, objective, rounds)
    if not where.exists():
        return None
    found = pl.scan_parquet(where).filter(pl.col("game_id") == game_id).collect()
    return from_json(found["review"][0]) if found.height else None


def to_json(review: GameReview) -> str:
    return json.dumps(dataclasses.asdict(review))


def from_json(text: str) -> GameReview:
    """The review :func:`to_json` wrote."""
    d = json.loads(text)
    s = d["setting"]
    setting = Setting(s["cards"], TieRule(s["tie_rule"]), Objective(s["objective"]),
                      PrizeOrder(s["order"]), tuple(s["sequence"]))
    rounds = []
    for r in d["rounds"]:
        bids = tuple(BidReview(**b) for b in r["bids"])
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in r.items()}
        rounds.append(RoundReview(**{**fields, "bids": bids}))
    return GameReview(tuple(d["players"]), setting, d["rounds_played"], d["first_round"],
                      tuple(rounds), d["date"])


def player_evenings(frame: pl.DataFrame, player: str) -> pl.DataFrame:
    """``player``'s mean cost per bid of choice per evening: date, games, bids, mean_cost
    and a 95% interval (normal approximation of the mean; null under 2 bids)."""
    mine = frame.filter((pl.col("player") == player) & pl.col("choice"))
    out = (mine.group_by("date")
           .agg(pl.col("game_id").n_unique().alias("games"), pl.len().alias("bids"),
                pl.col("cost").mean().alias("mean_cost"), pl.col("cost").std().alias("sd"),
                pl.col("accuracy").mean().alias("accuracy"))
           .sort("date"))
    half = 1.96 * pl.col("sd") / pl.col("bids").cast(pl.Float64).sqrt()
    return out.with_columns(
        pl.when(pl.col("bids") > 1).then(pl.col("mean_cost") - half).alias("low"),
        pl.when(pl.col("bids") > 1).then(pl.col("mean_cost") + half).alias("high"),
    ).drop("sd")
