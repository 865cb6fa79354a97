"""Each player's bids kept grouped by their hand facts, import by import.

The Players page sums five frames from a player's bids grouped by their hand facts
(:mod:`gops_records.games.gops.analytics.hand_facts`). Computing the groups from a player's million
bids at 1,000,000 games took most of half a second a pick, and they only change when an
import adds games, so the loader keeps them: ``player_bid_groups`` holds, per player, the
groups of the bids of the classic games stored, per event, and ``player_bid_clusters``
the per-game sums of the game-clustered intervals. Both are sums over games, so the groups of the
games an import adds are added to them (:func:`add_games`, or :class:`Background` during
an import) and merged once at the end of the import (:func:`merge_import`); games are
never deleted, so they stay right. Filtered views are computed from the bids as before
(analytics.bidding).

Rows are computed by the same code as a live view (``HandFacts.of``, ``group_frame``,
``cluster_frame``), so there is one rule; tests/games/gops/analytics/test_bidding_reference.py holds
the stored and the live frames equal to each other and to the old window query.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import duckdb
import numpy as np
import polars as pl

from gops_records.core.store.db import scalar
from gops_records.games.gops.analytics.bid_groups_schema import CLUSTERS, GROUPS
from gops_records.games.gops.hand_facts import (
    DEFAULT_BUCKETS,
    GROUP_KEYS,
    GROUP_SUMS,
    HandFacts,
    cluster_frame,
    cluster_schema,
    group_frame,
)

_SEATS = ("A", "B", "C", "D")
_KEYS = ", ".join(GROUP_KEYS)
_CLUSTER_SUMS = [name for name in cluster_schema() if name not in ("who", "part")]


def has_stored_groups(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the database keeps the groups: schema version 9 and later, filled (an
    older file read through an upgraded copy in memory has them empty, and a database
    without classic games needs none)."""
    if not scalar(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [GROUPS]):
        return False
    return bool(scalar(con, f"SELECT EXISTS (SELECT 1 FROM {GROUPS})"))


def stored_groups(con: duckdb.DuckDBPyConnection, player: str,
                  events: tuple[str, ...] = ()) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``player``'s groups and cluster sums over every classic game stored (of these
    ``events`` only, when some are named), in the shape and order ``group_frame`` and
    ``cluster_frame`` give them (``who`` = 0)."""
    where, params = "player = ?", [player]
    if events:
        where += f" AND event IN ({', '.join('?' * len(events))})"
        params += list(events)
    group_types = {"who": pl.Int32, **GROUP_KEYS, **dict.fromkeys(GROUP_SUMS, pl.Int64)}
    groups = con.sql(
        f"SELECT 0 AS who, {_KEYS}, "
        + ", ".join(f"sum({s})::BIGINT AS {s}" for s in GROUP_SUMS)
        + f" FROM {GROUPS} WHERE {where} GROUP BY ALL "
        f"ORDER BY {', '.join(f'{k} NULLS FIRST' for k in GROUP_KEYS)}", params=params
    ).pl().cast(group_types)
    clusters = con.sql(
        "SELECT 0 AS who, part, " + ", ".join(f"sum({s})::BIGINT AS {s}" for s in _CLUSTER_SUMS)
        + f" FROM {CLUSTERS} WHERE {where} GROUP BY part ORDER BY part", params=params
    ).pl().cast(cluster_schema())
    return groups, clusters


def facts_of(games: pl.DataFrame, seats: pl.DataFrame, rounds: pl.DataFrame
             ) -> tuple[HandFacts, pl.DataFrame]:
    """The hand facts of every bid of the classic games among ``games`` (game_id, event,
    cards, bid_cards, open_prizes), from their ``seats`` (game_id, seat, player) and
    ``rounds`` (game_id, round_no, prize, carried_in, bid_a .. bid_d), and the (player,
    event) pairs that ``who`` numbers (a frame, row ``who``)."""
    classic = (games.filter((pl.col("bid_cards") == 1) & pl.col("open_prizes").is_null())
               .select("game_id", "event", "cards").with_row_index("game_no"))
    parts = (seats.select("game_id", "seat", "player")
             .join(classic, on="game_id", how="inner").with_row_index("part"))
    owners = (parts.select("player", "event").unique()
              .sort("player", "event", nulls_last=False).with_row_index("who"))
    if parts.is_empty():
        return HandFacts.empty(), owners
    parts = parts.join(owners, on=["player", "event"], how="left", nulls_equal=True)
    parts = parts.with_columns(pl.col("seat").cast(pl.Enum(_SEATS)).to_physical()
                               .alias("seat_no"))
    bids = rounds.select("game_id", "round_no", "prize", "carried_in",
                         *(f"bid_{s.lower()}" for s in _SEATS)).join(
        parts.select("game_id", "part", "game_no", "cards", "who", "seat_no"),
        on="game_id", how="inner")
    seat_bids = bids.select(pl.col(f"bid_{s.lower()}").fill_null(0) for s in _SEATS).to_numpy()
    column = {name: bids[name].to_numpy().astype(np.int64)
              for name in ("part", "game_no", "cards", "round_no", "prize", "carried_in",
                           "who")}
    column["bid"] = np.take_along_axis(
        seat_bids, bids["seat_no"].to_numpy().astype(np.int64)[:, None], axis=1
    ).reshape(-1).astype(np.int64)
    return HandFacts.of(**column), owners


def rows_of(facts: HandFacts, owners: pl.DataFrame, import_id: int
            ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The rows ``facts`` add to the two tables."""
    def named(frame: pl.DataFrame) -> pl.DataFrame:
        whose = owners.select("player", "event")[frame["who"].to_numpy()]
        return pl.concat([pl.DataFrame({"import_id": pl.Series([import_id] * frame.height,
                                                               dtype=pl.Int32)}),
                          whose, frame.drop("who")], how="horizontal")
    return named(group_frame(facts, DEFAULT_BUCKETS)), named(cluster_frame(facts))


def _rows_of_games(import_id: int, games: pl.DataFrame, seats: pl.DataFrame,
                   rounds: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    facts, owners = facts_of(games, seats, rounds)
    return rows_of(facts, owners, import_id) if len(facts.bid) else None


def _insert(con: duckdb.DuckDBPyConnection,
            rows: tuple[pl.DataFrame, pl.DataFrame] | None) -> None:
    if rows is None:
        return
    stage_groups, stage_clusters = rows  # noqa: F841 (read by name in the SQL)
    con.execute(f"INSERT INTO {GROUPS} SELECT * FROM stage_groups")
    con.execute(f"INSERT INTO {CLUSTERS} SELECT * FROM stage_clusters")


def add_games(con: duckdb.DuckDBPyConnection, import_id: int, games: pl.DataFrame,
              seats: pl.DataFrame, rounds: pl.DataFrame) -> None:
    """Add the groups of games just stored (none of them stored before), through Arrow."""
    _insert(con, _rows_of_games(import_id, games, seats, rounds))


class Background:
    """The groups of each batch an import stores, computed in a thread of their own while
    the import reads and stores the next batches, and inserted by the import's thread
    (which owns the connection) as they are ready: the work costs the import's wall time
    little where a core has room. At most :data:`AHEAD` batches wait, so memory stays
    bounded."""

    AHEAD = 2

    def __init__(self, import_id: int) -> None:
        self.import_id = import_id
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bid-groups")
        self._waiting: list[Future] = []

    def add(self, con: duckdb.DuckDBPyConnection, games: pl.DataFrame, seats: pl.DataFrame,
            rounds: pl.DataFrame) -> None:
        """Compute the groups of these new games (in the thread); insert what is ready."""
        self._waiting.append(self._pool.submit(_rows_of_games, self.import_id, games, seats,
                                               rounds))
        self.insert_ready(con, keep=self.AHEAD)

    def insert_ready(self, con: duckdb.DuckDBPyConnection, keep: int = 0) -> None:
        """Insert the finished batches, oldest first, waiting while more than ``keep`` wait."""
        while self._waiting and (self._waiting[0].done() or len(self._waiting) > keep):
            _insert(con, self._waiting.pop(0).result())

    def finish(self, con: duckdb.DuckDBPyConnection) -> None:
        """Insert every batch, then merge the import's rows (:func:`merge_import`)."""
        self.insert_ready(con)
        merge_import(con, self.import_id)

    def close(self) -> None:
        for waiting in self._waiting:
            waiting.cancel()
        self._pool.shutdown(wait=True)


def merge_import(con: duckdb.DuckDBPyConnection, import_id: int) -> None:
    """Merge the rows of the players this import added games of into one row per group
    (and per part), so a read sums a few thousand rows a player however many imports."""
    touched = f"SELECT DISTINCT player FROM {GROUPS} WHERE import_id = ?"
    # (player, event, keys) rows of the touched players, summed
    if not scalar(con, f"SELECT count(*) FROM ({touched})", [import_id]):
        return
    for table, keys, sums in ((GROUPS, _KEYS, GROUP_SUMS), (CLUSTERS, "part", _CLUSTER_SUMS)):
        con.execute(f"CREATE OR REPLACE TEMP TABLE merged AS SELECT ?::INTEGER AS import_id, "
                    f"player, event, {keys}, " + ", ".join(f"sum({s})::BIGINT AS {s}" for s in sums)
                    + f" FROM {table} WHERE player IN ({touched}) GROUP BY ALL",
                    [import_id, import_id])
        con.execute(f"DELETE FROM {table} WHERE player IN (SELECT player FROM merged)")
        con.execute(f"INSERT INTO {table} SELECT * FROM merged")
        con.execute("DROP TABLE merged")


#: Games read at a time when the groups are computed from stored games (an upgrade).
FILL_GAMES = 100_000


def fill(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the groups of every classic game stored (the upgrade to schema 9), a slice
    of :data:`FILL_GAMES` games at a time."""
    import_id = scalar(con, "SELECT coalesce(max(import_id), 0) FROM imports")
    ids = con.sql("SELECT game_id FROM games WHERE bid_cards = 1 AND open_prizes IS NULL "
                  "ORDER BY game_id").pl()["game_id"]
    for start in range(0, ids.len(), FILL_GAMES):
        lo, hi = ids[start], ids[min(start + FILL_GAMES, ids.len()) - 1]
        where = "game_id BETWEEN ? AND ?"
        games = con.sql(f"SELECT game_id, event, cards, bid_cards, open_prizes FROM games "
                        f"WHERE {where}", params=[lo, hi]).pl()
        seats = con.sql(f"SELECT game_id, seat, player FROM game_players WHERE {where}",
                        params=[lo, hi]).pl()
        rounds = con.sql(f"SELECT * FROM round_rows WHERE {where}", params=[lo, hi]).pl()
        add_games(con, import_id, games, seats, rounds)
    merge_import(con, import_id)


#: Version 9 of the schema, this feature's tables, declared to the store as the Gops
#: registry part ``"schema.bid_groups"`` (gops_records/core/store/migrations.py): the
#: Players page reads a player's groups instead of computing them from their bids
#: (docs/schema.md). Sums over games: an import adds its games' rows, then merges each
#: touched player's rows into one a group. An upgrade to version 9 fills them (:func:`fill`).
__all__ = ["CLUSTERS", "GROUPS", "Background", "add_games", "fill",
           "has_stored_groups", "merge_import", "stored_groups"]
