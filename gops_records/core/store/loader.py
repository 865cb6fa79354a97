"""Bulk loading of frame batches into DuckDB, deduplicated by content key.

Frames go in through Arrow (``INSERT ... SELECT ... FROM frame``), never row by row.
They are found by DuckDB's replacement scan of a local variable, not registered: within
one transaction DuckDB keeps every registered frame alive until the commit, which made a
million-game import hold gigabytes. Games already in the database (same ``game_id``)
and rejects already kept (same ``reject_id``) are skipped, so re-importing adds
nothing: game ids are looked up in :class:`KnownGames` (or found by an anti join),
rejects by an anti join. Rounds go into ``round_rows`` (those of games of the variants
into ``variant_round_rows``); the ``rounds`` and ``bids`` views need no rows of their own.
The new games' bids are added to each player's kept groups (:mod:`store.bid_groups`).
The caller owns the transaction: ``import_paths``
opens one for the whole import.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl

from gops_records.core.store.db import scalar
from gops_records.games.gops.analytics import bid_groups

_GAME_COLUMNS = (
    "game_id, ? AS import_id, source, source_game, source_line, event, site, "
    "try_strptime(date_text, '%Y.%m.%d')::DATE AS date, date_text, round, match, tie_rule, "
    "cards, prize_order, n_players, finished, rounds_played, unclaimed, result, winner, "
    "tags, ties, tie_mask, carried, max_pool, bid_cards, open_prizes, "
    "player_a, player_b, player_c, player_d, carried_pools"
)

_CHILD_KEYS = {
    "game_players": ["game_id", "seat"],
    "round_rows": ["game_id", "round_no"],
    "variant_round_rows": ["game_id", "round_no"],
}


@dataclass
class LoadCounts:
    games_seen: int = 0
    games_new: int = 0
    games_duplicate: int = 0
    games_rejected: int = 0
    rejects_new: int = 0
    rejects_duplicate: int = 0

    def add(self, other: LoadCounts) -> None:
        for name in LoadCounts.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class KnownGames:
    """The ids (64-bit numbers) of the games already stored, for one import.

    Holding them in a sorted array (8 MB a million) lets each batch be checked by binary
    search instead of an anti join that scans the whole ``games`` table again for every
    batch. Only valid while the caller's transaction holds the write lock, so no one else
    adds games meanwhile. ``usable`` is False when the table is huge; the loader then
    uses the anti join.
    """

    LIMIT = 50_000_000

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._added: list[np.ndarray] = []
        self._base = np.zeros(0, np.uint64)
        self._usable = False
        self._error: BaseException | None = None
        # read in the background, on a cursor of its own, while the caller reads files
        self._loading = threading.Thread(target=self._load, args=(con.cursor(),), daemon=True)
        self._loading.start()

    def _load(self, cursor: duckdb.DuckDBPyConnection) -> None:
        try:
            if scalar(cursor, "SELECT count(*) FROM games") <= self.LIMIT:
                ids = cursor.sql("SELECT game_id FROM games").pl()["game_id"]
                self._base = np.sort(ids.to_numpy())
                self._usable = True
        except BaseException as exc:  # raised in the caller's thread, by ``usable``
            self._error = exc
        finally:
            cursor.close()

    def close(self) -> None:
        """Wait for the background read (before the connection it uses is closed)."""
        self._loading.join()

    @property
    def usable(self) -> bool:
        self._loading.join()
        if self._error is not None:
            raise self._error
        return self._usable

    def new(self, numbers: np.ndarray) -> np.ndarray:
        """Which of the ids (distinct, as numbers) are not stored yet."""
        fresh = ~_member(self._base, numbers)
        for block in self._added:
            fresh &= ~_member(block, numbers)
        return fresh

    def add(self, numbers: np.ndarray) -> None:
        """Ids (as numbers) just stored."""
        self._added.append(np.sort(numbers))
        if len(self._added) > 8:  # few sorted blocks keep each lookup cheap
            self._added = [np.sort(np.concatenate(self._added))]


def _member(sorted_ids: np.ndarray, numbers: np.ndarray) -> np.ndarray:
    if not len(sorted_ids):
        return np.zeros(len(numbers), bool)
    at = np.minimum(np.searchsorted(sorted_ids, numbers), len(sorted_ids) - 1)
    return sorted_ids[at] == numbers


def load_frames(con: duckdb.DuckDBPyConnection, import_id: int,
                frames: Mapping[str, pl.DataFrame],
                known: KnownGames | None = None,
                groups: bid_groups.Background | None = None) -> LoadCounts:
    """Insert one batch inside the caller's transaction; returns what was new and duplicate.

    ``known`` (the ids stored so far, kept up to date here) saves an anti join per
    batch. The new games' bid groups go to ``groups`` (computed beside the import), else
    are added at once. Frames are only read when needed: a batch of known games only needs its game
    ids (``frames.game_ids()`` if it has that, else the games frame's column).
    """
    rejects = frames["rejects"]
    ids = batch_game_ids(frames)
    counts = LoadCounts(games_seen=ids.len() + rejects.height, games_rejected=rejects.height)
    if ids.len():
        first = ids.is_first_distinct()  # a game written twice in the batch: its first copy
        if known is None or not known.usable:
            unique = frames["games"].filter(first)
            counts.games_new = _insert_games_by_join(con, import_id, frames, unique, groups)
        else:
            every = first.all()  # the usual batch: no game twice, all new (no copies made)
            distinct = (ids if every else ids.filter(first)).to_numpy()
            fresh = known.new(distinct)
            counts.games_new = int(fresh.sum())
            if counts.games_new:
                new_games = frames["games"] if every else frames["games"].filter(first)
                if counts.games_new < len(fresh):
                    new_games = new_games.filter(fresh)
                _insert_games(con, import_id, frames, new_games, ids.len(), groups)
                known.add(distinct[fresh])
        counts.games_duplicate = ids.len() - counts.games_new
    if rejects.height:
        unique = rejects.unique("reject_id", keep="first", maintain_order=True)
        stage_rejects = unique  # noqa: F841  (read by name in the SQL)
        before = scalar(con, "SELECT count(*) FROM rejects")
        con.execute("INSERT INTO rejects SELECT reject_id, ? AS import_id, source, source_game, "
                    "source_line, raw_text, errors FROM stage_rejects "
                    "ANTI JOIN rejects USING (reject_id)", [import_id])
        after = scalar(con, "SELECT count(*) FROM rejects")
        counts.rejects_new = after - before
        counts.rejects_duplicate = rejects.height - counts.rejects_new
    return counts


def batch_game_ids(frames: Mapping[str, pl.DataFrame]) -> pl.Series:
    """The batch's game ids. The fast path's lazy frames give them (``game_ids()``)
    without building the games frame."""
    game_ids = getattr(frames, "game_ids", None)
    return frames["games"]["game_id"] if game_ids is None else game_ids()


def _insert_games(con: duckdb.DuckDBPyConnection, import_id: int,
                  frames: Mapping[str, pl.DataFrame], new_games: pl.DataFrame,
                  height: int, groups: bid_groups.Background | None) -> None:
    """Insert ``new_games`` (distinct, not stored yet) and their child rows."""
    stage_games = _with_game_extras(new_games, frames)  # noqa: F841
    con.execute(f"INSERT INTO games SELECT {_GAME_COLUMNS} FROM stage_games", [import_id])
    children = {}
    for table, key in _CHILD_KEYS.items():
        frame = frames[table]
        if new_games.height != height:  # repeats in the batch, or stored games
            frame = frame.unique(key, keep="first", maintain_order=True).filter(
                pl.col("game_id").is_in(new_games["game_id"].implode()))
        stage_child = frame  # noqa: F841  (read by name in the SQL)
        con.execute(f"INSERT INTO {table} SELECT * FROM stage_child")
        children[table] = frame
    _add_groups(con, import_id, groups, new_games, children["game_players"],
                children["round_rows"])


def _insert_games_by_join(con: duckdb.DuckDBPyConnection, import_id: int,
                          frames: Mapping[str, pl.DataFrame], unique: pl.DataFrame,
                          groups: bid_groups.Background | None) -> int:
    """Insert the games of ``unique`` not stored yet (found by an anti join); their count."""
    games = frames["games"]
    stage_games = _with_game_extras(unique, frames)  # noqa: F841
    con.execute("CREATE OR REPLACE TEMP TABLE new_ids AS SELECT game_id FROM stage_games "
                "ANTI JOIN games USING (game_id)")
    new = scalar(con, "SELECT count(*) FROM new_ids")
    if new:
        con.execute(f"INSERT INTO games SELECT {_GAME_COLUMNS} FROM stage_games "
                    "SEMI JOIN new_ids USING (game_id)", [import_id])
        repeats = unique.height != games.height
        fresh = con.sql("SELECT game_id FROM new_ids").pl()["game_id"].implode()
        children = {}
        for table, key in _CHILD_KEYS.items():
            frame = frames[table]
            if repeats:  # a game written twice in one batch: keep one copy of its rows
                frame = frame.unique(key, keep="first", maintain_order=True)
            stage_child = frame  # noqa: F841  (read by name in the SQL)
            con.execute(f"INSERT INTO {table} SELECT * FROM stage_child "
                        "SEMI JOIN new_ids USING (game_id)")
            children[table] = frame
        _add_groups(con, import_id, groups, unique.filter(pl.col("game_id").is_in(fresh)),
                    *(children[t].filter(pl.col("game_id").is_in(fresh))
                      for t in ("game_players", "round_rows")))
    con.execute("DROP TABLE new_ids")
    return new


def _with_game_extras(games: pl.DataFrame, frames: Mapping[str, pl.DataFrame]
                      ) -> pl.DataFrame:
    """``games`` (in their order) with what ``games`` keeps beside each game from its own
    rows in the batch (the first copy of a game written twice): player_a to player_d, who
    sat in each seat, and carried_pools, the rounds of a classic game with a carried pool
    (an empty list when none; null for the variants, whose rounds are stored apart)."""
    seats = frames["game_players"].unique(["game_id", "seat"], keep="first",
                                          maintain_order=True)
    wide = seats.pivot("seat", index="game_id", values="player", aggregate_function="first")
    named = wide.select("game_id", *(
        (pl.col(s) if s in wide.columns else pl.lit(None, pl.String)).alias(f"player_{s.lower()}")
        for s in "ABCD"))
    rounds = frames["round_rows"]
    pools = (rounds.filter(pl.col("carried_in") > 0)
             .unique(["game_id", "round_no"], keep="first", maintain_order=True)
             .sort("game_id", "round_no", maintain_order=True)
             .group_by("game_id", maintain_order=True)
             .agg(pl.struct(pl.col("round_no"), pl.col("prize"),
                            (pl.col("carried_in") + pl.col("prize")).cast(pl.Int16)
                            .alias("pool_value"),
                            pl.col("pool_carried").list.len().cast(pl.Int8).alias("pool_cards"))
                  .alias("carried_pools")))
    out = (games.join(named, on="game_id", how="left", maintain_order="left")
           .join(pools, on="game_id", how="left", maintain_order="left"))
    classic = (pl.col("bid_cards") == 1) & pl.col("open_prizes").is_null()
    return out.with_columns(
        pl.when(classic).then(pl.col("carried_pools").fill_null(pl.lit([], dtype=CARRIED_POOLS)))
        .otherwise(pl.col("carried_pools")).alias("carried_pools"))


#: The type of ``games.carried_pools``.
CARRIED_POOLS = pl.List(pl.Struct({"round_no": pl.Int8, "prize": pl.Int8,
                                   "pool_value": pl.Int16, "pool_cards": pl.Int8}))


def _add_groups(con: duckdb.DuckDBPyConnection, import_id: int,
                groups: bid_groups.Background | None, games: pl.DataFrame,
                seats: pl.DataFrame, rounds: pl.DataFrame) -> None:
    if groups is None:
        bid_groups.add_games(con, import_id, games, seats, rounds)
    else:
        groups.add(con, games, seats, rounds)
