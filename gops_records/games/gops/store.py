"""Loading Gops frames into the store: the games, their seats and rounds, deduplicated.

Frames go in through Arrow (``INSERT ... SELECT ... FROM frame``), never row by row, found
by DuckDB's replacement scan of a local variable (see :mod:`gops_records.core.store.loader`).
Games already in the database (same ``game_id``) are skipped, so re-importing adds
nothing: game ids are looked up in :class:`~gops_records.core.store.loader.KnownGames`
(or found by an anti join); rejects go through the shared
:func:`~gops_records.core.store.loader.load_rejects`. Rounds go into ``round_rows``
(those of games of the variants into ``variant_round_rows``); the ``rounds`` and ``bids``
views need no rows of their own. The new games' bids are added to each player's kept
groups (:mod:`gops_records.games.gops.analytics.bid_groups`). The caller owns the
transaction: ``import_paths`` opens one for the whole import, and loads through one
:class:`GopsLoad` (the Gops readers' load session).
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import numpy as np
import polars as pl

from gops_records.core.store.db import scalar
from gops_records.core.store.loader import KnownGames, LoadCounts, load_rejects
from gops_records.games.gops.analytics import bid_groups
from gops_records.games.gops.replay.frames import Frames
from gops_records.games.gops.shapes import CARRIED_POOLS

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
    "round_takes": ["game_id", "round_no"],
}


class GopsLoad:
    """One import's loading of Gops batches: gathered into loads of about ``batch_games``
    records (a club's folder is mostly small files, and one DuckDB statement costs about
    as much as reading a small file: 393 files of a few games took 21.8 s fresh, 7.8 s
    unchanged, when each was loaded on its own), the stored game ids read in the
    background (:class:`KnownGames`) and the new games' bid groups computed beside the
    import (:class:`bid_groups.Background`)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, import_id: int,
                 batch_games: int) -> None:
        self.con, self.import_id, self.limit = con, import_id, batch_games
        self.known = KnownGames(con, "games", "game_id")
        self.groups = bid_groups.Background(import_id)
        self.parts: list[Frames] = []
        self.records = 0

    def add(self, batch: Frames) -> tuple[LoadCounts, list[str]]:
        """Gather a batch; load what is gathered once it holds enough records."""
        self.parts.append(batch)
        self.records += batch_game_ids(batch).len() + batch["rejects"].height
        return self.flush() if self.records >= self.limit else (LoadCounts(), [])

    def flush(self) -> tuple[LoadCounts, list[str]]:
        """Store the batches gathered so far (duplicates across them are counted once)."""
        if not self.parts:
            return LoadCounts(), []
        merged = self.parts[0] if len(self.parts) == 1 else Frames(
            {table: pl.concat([part[table] for part in self.parts]) for table in self.parts[0]},
            pl.concat([batch_game_ids(part) for part in self.parts]))
        self.parts, self.records = [], 0
        return load_frames(self.con, self.import_id, merged, self.known, self.groups), []

    def missing(self, ids: np.ndarray) -> int:
        """How many of ``ids`` (a file's valid games, read before) are not stored now."""
        if self.known.usable:
            return int(self.known.new(ids).sum())
        return missing_games(self.con, ids)

    def finish(self) -> None:
        """After the last load: the import's bid groups inserted and merged."""
        self.groups.finish(self.con)

    def close(self) -> None:
        """Stop the background work (its cursor must be idle before the connection closes)."""
        self.groups.close()
        self.known.close()


def missing_games(con: duckdb.DuckDBPyConnection, game_ids: np.ndarray) -> int:
    """How many of ``game_ids`` are not in ``games`` (an anti join)."""
    if not len(game_ids):
        return 0
    stage_ids = pl.DataFrame({"game_id": game_ids})  # noqa: F841  (read by name in the SQL)
    # executed here: DuckDB finds ``stage_ids`` among the calling frame's variables
    return con.execute("SELECT count(*) FROM stage_ids ANTI JOIN games USING (game_id)"
                       ).fetchall()[0][0]


def stored(con: duckdb.DuckDBPyConnection, game_ids: list[int]) -> dict[int, int]:
    """Which of ``game_ids`` are stored, with the import that stored each."""
    ids = pl.DataFrame({"game_id": game_ids},  # noqa: F841  (read by name in the SQL)
                       schema={"game_id": pl.UInt64})
    return {int(g): int(i) for g, i in con.execute(
        "SELECT g.game_id, g.import_id FROM games g SEMI JOIN ids USING (game_id)").fetchall()}


def same_position(con: duckdb.DuckDBPyConnection, keyed: pl.DataFrame
                  ) -> list[tuple[str, int, int, list[str]]]:
    """Games stored from the place of a reject (``keyed``: reject_id, source,
    source_game, import_id) by a later import: (reject_id, game_id, import_id, players
    in seat order)."""
    return con.execute("""
        SELECT k.reject_id, g.game_id, g.import_id, list(p.player ORDER BY p.seat)
        FROM keyed k JOIN games g ON g.source = k.source AND g.source_game = k.source_game
                                  AND g.import_id > k.import_id
        JOIN game_players p ON p.game_id = g.game_id
        GROUP BY k.reject_id, g.game_id, g.import_id""").fetchall()


def same_game(con: duckdb.DuckDBPyConnection, wanted: pl.DataFrame) -> list[tuple[str, int]]:
    """The first stored game with a reject's Event, Site, Date, Round and Match tags and
    its players (``wanted``: reject_id, event, site, date, round, match, players)."""
    return con.execute("""
        WITH candidates AS (
            SELECT w.reject_id, w.players, g.game_id
            FROM wanted w JOIN games g
              ON g.event IS NOT DISTINCT FROM w.event AND g.site IS NOT DISTINCT FROM w.site
             AND g.date_text IS NOT DISTINCT FROM w.date
             AND g.round IS NOT DISTINCT FROM w.round AND g.match IS NOT DISTINCT FROM w.match
        )
        SELECT c.reject_id, min(c.game_id)
        FROM candidates c
        WHERE c.players = (SELECT list(p.player ORDER BY p.seat) FROM game_players p
                           WHERE p.game_id = c.game_id)
        GROUP BY c.reject_id""").fetchall()


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
    ids = batch_game_ids(frames)
    counts = load_rejects(con, import_id, frames["rejects"])
    counts.games_seen += ids.len()
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


def _add_groups(con: duckdb.DuckDBPyConnection, import_id: int,
                groups: bid_groups.Background | None, games: pl.DataFrame,
                seats: pl.DataFrame, rounds: pl.DataFrame) -> None:
    if groups is None:
        bid_groups.add_games(con, import_id, games, seats, rounds)
    else:
        groups.add(con, games, seats, rounds)
