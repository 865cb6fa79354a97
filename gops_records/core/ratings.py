"""Ratings of players over the stored games, with their uncertainty (docs/ratings.md).

Shared by every game: a game gives its finished games as *placings* (its registry part
``ratings``, a :class:`PlacingSource`): one row per player of a game, with the game's date,
event, a content key and the player's place (1 the best; equal places for equal results).
This module orders the games, rates them one by one with openskill's Plackett-Luce model
(a rating that understands free-for-all games of 2 to 4 players and shared places), and
derives what people read: each player's rating now, its history by evening, their form,
and how well the model's predicted win chances matched what happened (calibration).

**Order.** The games are rated in one total order that does not depend on when they were
imported: by date (undated games first, as the oldest), then event (no event first), then
the game's content key. So importing an old evening later gives exactly the ratings it
would have given had it come first.

**What a rating is.** openskill keeps a mean ``mu`` and an uncertainty ``sigma`` per player
(new players: 25 and 25/3). The rating shown is the conservative ``mu - 3 sigma`` (0 for a
newcomer, rising as games both raise mu and shrink sigma); its interval is
``mu ± 3 sigma``. A player with fewer than :data:`PROVISIONAL_GAMES` rated games is
provisional.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from gops_records.core import registry
from gops_records.core.errors import GopsError

if TYPE_CHECKING:
    from pathlib import Path

    import duckdb
    import polars as pl

#: Rated games below which a rating is marked provisional.
PROVISIONAL_GAMES = 10
#: Standard deviations below the mean that make the conservative rating.
CONSERVATIVE_SIGMAS = 3
#: The registry part a game gives its placings through.
PART = "ratings"
#: The columns of a placings frame, and their order.
PLACING_COLUMNS = ("date", "event", "game_key", "player", "place")


class PlacingSource(Protocol):
    """A game's part ``ratings``: its finished games as placings, a polars frame with the
    columns :data:`PLACING_COLUMNS` (``date`` Date or null, ``event`` String or null,
    ``game_key`` UInt64, unique per game; ``player`` String; ``place`` an integer, 1 the
    best, equal for equal results), one row per player of each game rated."""

    def __call__(self, con: duckdb.DuckDBPyConnection) -> pl.DataFrame: ...


class NoRatingsError(GopsError, ValueError):
    """A game was asked for ratings that gives no placings, or a player has none."""


@dataclass(frozen=True, slots=True)
class Ratings:
    """The result of rating a game's stored games.

    ``history``: one row per player per game, in rating order (``seq``), with the rating
    before and after and the model's win chance before the game. ``table``: one row per
    player, best conservative rating first."""

    history: pl.DataFrame
    table: pl.DataFrame


def placings_of(con: duckdb.DuckDBPyConnection, game: str) -> pl.DataFrame:
    """The placings of the game called ``game`` (its part ``ratings``)."""
    source: PlacingSource | None = registry.game(game).part(PART)
    if source is None:
        raise NoRatingsError(f"{registry.game(game).title} has no ratings; rated games: "
                             f"{', '.join(g.name for g, _ in registry.parts(PART))}")
    return source(con)


def ordered(placings: pl.DataFrame) -> pl.DataFrame:
    """The placings in rating order, each game numbered by ``seq`` (0, 1, ...): date
    (nulls first), event (nulls first), game key; within a game by place, then player."""
    import polars as pl

    frame = placings.select(PLACING_COLUMNS).sort(
        ["date", "event", "game_key", "place", "player"], nulls_last=False)
    return frame.with_columns(pl.struct("date", "event", "game_key").rle_id()
                              .cast(pl.Int64).alias("seq"))


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(placings: pl.DataFrame, previous: pl.DataFrame | None = None) -> Ratings:
    """Rate the games of ``placings`` in rating order (:func:`ordered`).

    Before each game the model's win chance of each player is recorded (openskill's
    ``predict_win``), then the game's places update the players' ratings. Games of fewer
    than two players are left out; a player seen twice in one game is an error (the
    game's record is broken).

    ``previous``: the history (``Ratings.history``, or its :data:`KEPT_COLUMNS`) of an
    earlier state of the same games (before an import; any history at all is safe: it is
    checked game by game). The games it rated that still open the order unchanged are
    kept as they are and only
    the rest is rated, from the players' ratings at that point: the same result as rating
    everything (tests/core/test_ratings.py), in the time of the games after the first
    change (an evening imported after the others: that evening alone)."""
    import numpy as np
    import polars as pl

    frame = ordered(placings)
    frame = frame.filter(pl.len().over("seq") >= 2).with_columns(
        pl.col("seq").rle_id().cast(pl.Int64))
    first = _first_change(previous, frame) if previous is not None else 0
    kept = previous.filter(pl.col("seq") < first) if previous is not None and first \
        else None
    todo = frame.filter(pl.col("seq") >= first)
    model = _model()
    mu0, sigma0 = model.mu, model.sigma
    current: dict[str, object] = {}
    if kept is not None:
        last = kept.group_by("player").agg(pl.col("mu").last(), pl.col("sigma").last())
        current = {p: model.rating(mu=m, sigma=sg) for p, m, sg in last.iter_rows()}
    players = todo["player"].to_list()
    places = todo["place"].to_list()
    n = todo.height
    mu_before, sigma_before = [0.0] * n, [0.0] * n
    mu_after, sigma_after, win_chance = [0.0] * n, [0.0] * n, [0.0] * n
    # the rows of one game are contiguous: walk them game by game
    bounds = [0, *(np.flatnonzero(np.diff(todo["seq"].to_numpy())) + 1).tolist(), n] \
        if n else [0]
    for start, end in zip(bounds, bounds[1:], strict=False):
        names = players[start:end]
        if len(set(names)) != len(names):
            raise NoRatingsError(f"a game has a player twice ({', '.join(names)}); its "
                                 "record is broken")
        teams = [[current[p] if p in current else model.rating(mu=mu0, sigma=sigma0)]
                 for p in names]
        chances = model.predict_win(teams)
        rated = model.rate(teams, ranks=places[start:end])
        for i, (p, before, after, chance) in enumerate(
                zip(names, teams, rated, chances, strict=True), start):
            mu_before[i], sigma_before[i] = before[0].mu, before[0].sigma
            mu_after[i], sigma_after[i] = after[0].mu, after[0].sigma
            win_chance[i] = chance
            current[p] = after[0]
    fresh = todo.with_columns(
        pl.Series("mu_before", mu_before, pl.Float64),
        pl.Series("sigma_before", sigma_before, pl.Float64),
        pl.Series("mu", mu_after, pl.Float64),
        pl.Series("sigma", sigma_after, pl.Float64),
        pl.Series("win_chance", win_chance, pl.Float64))
    if kept is not None:
        fresh = pl.concat([kept.select(fresh.columns), fresh])
    history = fresh.with_columns(
        pl.len().over("seq").cast(pl.Int8).alias("players"),
        # a shared first place counts as a share of a win: 1/2 for two
        pl.when(pl.col("place") == 1)
        .then(1.0 / (pl.col("place") == 1).sum().over("seq")).otherwise(0.0)
        .alias("win_share"),
        conservative("mu", "sigma").alias("rating"),
        conservative("mu_before", "sigma_before").alias("rating_before"),
        pl.col("player").cum_count().over("player").cast(pl.Int64).alias("games_rated"),
    )
    return Ratings(history, table_of(history))


def _first_change(history: pl.DataFrame, frame: pl.DataFrame) -> int:
    """The first game (``seq``) where the ordered placings ``frame`` differ from those
    ``history`` rated: a game whose date, event, key, players or places changed, or one
    added or removed before it. All of ``history``'s games when none changed."""
    import polars as pl

    cols = ["seq", "date", "event", "game_key", "player", "place"]
    m = min(history.height, frame.height)
    old, new = history.select(cols).head(m), frame.select(cols).head(m)
    same = pl.DataFrame({c: old[c].eq_missing(new[c]) for c in cols}).select(
        pl.all_horizontal(pl.all())).to_series()
    differs = (~same).arg_true()
    if differs.len():
        return int(new["seq"][int(differs[0])])
    if not m:
        return 0
    # one is a prefix of the other, row for row: the last game shared is the same game
    # when the longer one starts a new game right after it; else it is rated again
    longer = history if history.height > frame.height else frame
    last = int(new["seq"][m - 1])
    ends_there = longer.height == m or int(longer["seq"][m]) != last
    return last + 1 if ends_there else last


def conservative(mu: str, sigma: str) -> pl.Expr:
    """The conservative rating ``mu - 3 sigma`` of two columns."""
    import polars as pl

    return pl.col(mu) - CONSERVATIVE_SIGMAS * pl.col(sigma)


def table_of(history: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating now: player, rating (conservative), mu, sigma, low, high (the
    interval mu ± 3 sigma), games, provisional, last_played (date), change (the rating's
    change over the player's last evening), best rating first."""
    import polars as pl

    evenings = by_evening(history)
    last = evenings.group_by("player").agg(pl.all().sort_by("evening_seq").last())
    return last.select(
        "player", "rating", "mu", "sigma",
        (pl.col("mu") - CONSERVATIVE_SIGMAS * pl.col("sigma")).alias("low"),
        (pl.col("mu") + CONSERVATIVE_SIGMAS * pl.col("sigma")).alias("high"),
        pl.col("games_total").alias("games"),
        (pl.col("games_total") < PROVISIONAL_GAMES).alias("provisional"),
        pl.col("date").alias("last_played"), pl.col("event").alias("last_event"),
        "change",
    ).sort(["rating", "player"], descending=[True, False])


def by_evening(history: pl.DataFrame) -> pl.DataFrame:
    """Each player's results and rating by evening (same date and event): games, wins
    (first places, shared ones as shares), mean place, the rating before and after the
    evening and its change, mu and sigma after, and the games rated so far."""
    import polars as pl

    return (history.sort("seq")
            .group_by("player", "date", "event", maintain_order=True)
            .agg(pl.col("seq").min().alias("first_seq"),
                 pl.len().cast(pl.Int64).alias("games"),
                 pl.col("win_share").sum().alias("wins"),
                 pl.col("place").mean().alias("mean_place"),
                 pl.col("rating_before").first(),
                 pl.col("rating").last(), pl.col("mu").last(), pl.col("sigma").last(),
                 pl.col("games_rated").last().alias("games_total"))
            .sort("first_seq", "player")
            .with_columns(pl.col("first_seq").rank("dense").over("player")
                          .cast(pl.Int64).alias("evening_seq"),
                          (pl.col("rating") - pl.col("rating_before")).alias("change"),
                          (pl.col("mu") - CONSERVATIVE_SIGMAS * pl.col("sigma")).alias("low"),
                          (pl.col("mu") + CONSERVATIVE_SIGMAS * pl.col("sigma"))
                          .alias("high")))


def form(history: pl.DataFrame, player: str) -> pl.DataFrame:
    """``player``'s form: results and rating by evening, oldest first (:func:`by_evening`
    of that player), or NoRatingsError naming the players rated."""
    import polars as pl

    evenings = by_evening(history.filter(pl.col("player") == player))
    if evenings.is_empty():
        raise NoRatingsError(f"{player!r} has no rated game")
    return evenings.drop("first_seq")


def evening_changes(history: pl.DataFrame, date, event: str | None = None) -> pl.DataFrame:
    """The rating change of every player of one evening (the games of ``date``, and of
    ``event`` when given: None takes every event of the date): player, games, wins,
    rating before and after, change, provisional before and after the evening, largest
    gain first."""
    import polars as pl

    on = pl.col("date").is_null() if date is None else pl.col("date") == date
    if event is not None:
        on &= pl.col("event") == event
    return (history.filter(on).sort("seq")
            .group_by("player", maintain_order=True)
            .agg(pl.len().cast(pl.Int64).alias("games"), pl.col("win_share").sum().alias("wins"),
                 pl.col("rating_before").first(), pl.col("rating").last(),
                 (pl.col("games_rated").first() - 1 < PROVISIONAL_GAMES)
                 .alias("provisional_before"),
                 (pl.col("games_rated").last() < PROVISIONAL_GAMES).alias("provisional"))
            .with_columns((pl.col("rating") - pl.col("rating_before")).alias("change"))
            .select("player", "games", "wins", "rating_before", "rating", "change",
                    "provisional_before", "provisional")
            .sort(["change", "player"], descending=[True, False]))


def calibration(history: pl.DataFrame, bins: int = 10) -> pl.DataFrame:
    """Predicted against actual: the players' win chances before their games, in ``bins``
    equal bins of chance, with how many predictions each holds (``count``), their mean
    (``predicted``), the share of those games actually won (``observed``, a shared first
    place counting as its share) and its 95% Wilson interval (``low``, ``high``)."""
    import polars as pl

    z = 1.959963984540054
    binned = history.with_columns(
        (pl.col("win_chance") * bins).floor().clip(0, bins - 1).cast(pl.Int64).alias("bin"))
    out = (binned.group_by("bin")
           .agg(pl.len().cast(pl.Int64).alias("count"),
                pl.col("win_chance").mean().alias("predicted"),
                pl.col("win_share").mean().alias("observed"))
           .sort("bin"))
    n, p = pl.col("count"), pl.col("observed")
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)).sqrt()) / (1 + z * z / n)
    return out.with_columns(
        (pl.col("bin") / bins).alias("bin_low"), ((pl.col("bin") + 1) / bins).alias("bin_high"),
        (centre - half).clip(0, 1).alias("low"), (centre + half).clip(0, 1).alias("high"),
    ).select("bin_low", "bin_high", "count", "predicted", "observed", "low", "high")


def brier(history: pl.DataFrame) -> float:
    """The mean squared difference between win chance and win share (0 is perfect; always
    predicting 1/n players scores about 0.22 in games of two)."""
    if history.is_empty():
        return math.nan
    diff = (history["win_chance"] - history["win_share"]) ** 2
    return float(diff.mean())  # type: ignore[arg-type]


def ratings_of(con: duckdb.DuckDBPyConnection, game: str) -> Ratings:
    """The ratings of the game called ``game`` over every stored game of it."""
    return rate(placings_of(con, game))


#: The columns of a history that rating on needs (what :func:`kept_ratings` keeps).
KEPT_COLUMNS = ("date", "event", "game_key", "player", "place", "seq", "mu_before",
                "sigma_before", "mu", "sigma", "win_chance")
#: Bumped when the kept columns or their meaning change: older files are then not read.
KEPT_FORMAT = 1


def kept_path(db: Path, game: str) -> Path:
    """Where :func:`kept_ratings` keeps the history of ``game`` for the database ``db``:
    beside it, named by the model (openskill's version and parameters), so a file made
    by another model is never read."""
    import hashlib
    import importlib.metadata

    model = _model()
    fingerprint = repr((KEPT_FORMAT, importlib.metadata.version("openskill"), model.mu,
                        model.sigma, model.beta, model.kappa, model.tau))
    key = hashlib.sha256(fingerprint.encode()).hexdigest()[:12]
    return db.with_name(f"{db.name}.ratings-{game}-{key}.parquet")


def kept_ratings(con: duckdb.DuckDBPyConnection, game: str, db: Path,
                 previous: pl.DataFrame | None = None) -> Ratings:
    """The ratings of ``game``, rated on from the history kept beside the database ``db``
    (or from ``previous`` when given), and that history kept again when it changed.

    The kept file only saves time: every game is still read and compared, so a stale,
    foreign or damaged file gives the same ratings as none (it is then rated afresh). A
    folder that cannot be written keeps nothing, silently."""
    import polars as pl

    path = kept_path(db, game)
    if previous is None:
        try:
            previous = pl.read_parquet(path).select(KEPT_COLUMNS)
        except Exception:  # missing, damaged or foreign: rate afresh
            previous = None
    rated = rate(placings_of(con, game), previous)
    now = rated.history.select(KEPT_COLUMNS)
    if previous is None or not now.equals(previous):
        _keep(now, path)
    return rated


def _keep(history: pl.DataFrame, path: Path) -> None:
    """Write ``history`` to ``path`` whole or not at all (a temporary file, then a
    rename), and drop the files other models kept for the same database and game."""
    import os

    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        history.write_parquet(tmp)
        os.replace(tmp, path)
        stem = path.name.rsplit("-", 1)[0]
        for old in path.parent.glob(f"{stem}-*.parquet"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def rated_games() -> tuple[str, ...]:
    """The names of the games that give placings (``--game`` choices of ratings)."""
    return tuple(g.name for g, _ in registry.parts(PART))
