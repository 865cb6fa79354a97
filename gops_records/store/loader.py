"""Bulk loading of frame batches into DuckDB, deduplicated by content key.

Frames go in through Arrow (``INSERT ... SELECT ... FROM registered frame``), never row
by row. Games already in the database (same ``game_id``) and rejects already kept
(same ``reject_id``) are skipped with an anti join, so re-importing adds nothing. The
caller owns the transaction: :class:`ImportWriter` opens one for the whole import.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from gops_records.store.db import scalar

_GAME_COLUMNS = (
    "game_id, ? AS import_id, source, source_game, source_line, event, site, "
    "try_strptime(date_text, '%Y.%m.%d')::DATE AS date, date_text, round, match, tie_rule, "
    "cards, prize_order, n_players, finished, rounds_played, unclaimed, result, winner, "
    "map_from_entries(tags) AS tags"
)

_CHILD_KEYS = {
    "game_players": ["game_id", "seat"],
    "rounds": ["game_id", "round_no"],
    "bids": ["game_id", "round_no", "seat"],
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


def load_frames(con: duckdb.DuckDBPyConnection, import_id: int,
                frames: dict[str, pl.DataFrame]) -> LoadCounts:
    """Insert one batch inside the caller's transaction; returns what was new and duplicate."""
    games = frames["games"]
    rejects = frames["rejects"]
    counts = LoadCounts(games_seen=games.height + rejects.height, games_rejected=rejects.height)
    if games.height:
        unique = games.unique("game_id", keep="first", maintain_order=True)
        con.register("stage_games", unique)
        con.execute("CREATE OR REPLACE TEMP TABLE new_ids AS SELECT game_id FROM stage_games "
                    "ANTI JOIN games USING (game_id)")
        new = scalar(con, "SELECT count(*) FROM new_ids")
        counts.games_new = new
        counts.games_duplicate = games.height - new
        if new:
            con.execute(f"INSERT INTO games SELECT {_GAME_COLUMNS} FROM stage_games "
                        "SEMI JOIN new_ids USING (game_id)", [import_id])
            repeats = unique.height != games.height
            for table, key in _CHILD_KEYS.items():
                frame = frames[table]
                if repeats:  # a game written twice in one batch: keep one copy of its rows
                    frame = frame.unique(key, keep="first", maintain_order=True)
                con.register("stage_child", frame)
                con.execute(f"INSERT INTO {table} SELECT * FROM stage_child "
                            "SEMI JOIN new_ids USING (game_id)")
                con.unregister("stage_child")
        con.unregister("stage_games")
        con.execute("DROP TABLE new_ids")
    if rejects.height:
        unique = rejects.unique("reject_id", keep="first", maintain_order=True)
        con.register("stage_rejects", unique)
        before = scalar(con, "SELECT count(*) FROM rejects")
        con.execute("INSERT INTO rejects SELECT reject_id, ? AS import_id, source, source_game, "
                    "source_line, raw_text, errors FROM stage_rejects "
                    "ANTI JOIN rejects USING (reject_id)", [import_id])
        after = scalar(con, "SELECT count(*) FROM rejects")
        con.unregister("stage_rejects")
        counts.rejects_new = after - before
        counts.rejects_duplicate = rejects.height - counts.rejects_new
    return counts

