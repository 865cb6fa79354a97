"""Loading Gin Rummy frames into the store, and what the store tells the checks.

:func:`load_gin` bulk-loads one batch of :class:`~gops_records.games.gin.frames.GinFrames`
inside the caller's transaction (the importer's), through Arrow (DuckDB's replacement scan
of the local frames, as :mod:`gops_records.core.store.loader` does), never row by row:

- a full hand already stored (same ``hand_id``) is a duplicate; a new one replaces the
  sheet line stored at its place (same ``game_id`` and ``hand_no``): a line that says
  otherwise is named in a note (``sheet-mismatch``), the full record being the one that
  was replayed;
- a sheet line is stored unless its place (or its id) already holds a row; a sheet is a
  duplicate when none of its lines nor its game is new;
- a game (``gin_games``) already stored is kept, unless it was unfinished and the batch
  brings it finished;
- rejects go through the shared loader (:func:`gops_records.core.store.loader.load_rejects`).

:func:`stored_full_hands` gives the sheet check the stored full hands of a game, and
:func:`missing` says which ids of a file read before are no longer stored (a re-import of
an unchanged file is then read again). An import loads through one :class:`GinLoad` (the
Gin Rummy readers' load session).
"""

from __future__ import annotations

from collections.abc import Callable

import duckdb
import numpy as np
import polars as pl

from gops_records.core.store.db import scalar
from gops_records.core.store.loader import LoadCounts, load_rejects
from gops_records.games.gin.frames import GinFrames
from gops_records.games.gin.rules import Seat
from gops_records.games.gin.sheet import SheetOut
from gops_records.games.gin.sheet_check import FullHands, HandFacts

_DATE = "try_strptime(date_text, '%Y.%m.%d')::DATE AS date"
_OUT = {"knock": SheetOut.KNOCK, "undercut": SheetOut.KNOCK, "gin": SheetOut.GIN,
        "big_gin": SheetOut.BIG_GIN, "draw": SheetOut.DRAW}
#: The columns a sheet line and the full record of its hand must agree on.
_AGREE = ("dealer", "upcard_rank", "outcome", "out_seat", "winner_seat", "points",
          "out_deadwood", "opponent_deadwood")


class GinLoad:
    """One import's loading of Gin Rummy batches: each stored at once (a score sheet read
    later in the import is checked against the full hands stored before it)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, import_id: int) -> None:
        self.con, self.import_id = con, import_id

    def add(self, batch: GinFrames) -> tuple[LoadCounts, list[str]]:
        return load_gin(self.con, self.import_id, batch)

    def flush(self) -> tuple[LoadCounts, list[str]]:
        return LoadCounts(), []  # nothing waits

    def missing(self, ids: np.ndarray) -> int:
        return missing(self.con, ids)

    def full_hands(self) -> FullHands:
        """The full hands a score sheet is checked against: those stored so far."""
        return FullHands(stored_full_hands(self.con))

    def finish(self) -> None:
        pass  # nothing is kept beside the rows

    def close(self) -> None:
        pass  # no background work


def load_gin(con: duckdb.DuckDBPyConnection, import_id: int, frames: GinFrames
             ) -> tuple[LoadCounts, list[str]]:
    """Store one batch (see the module docstring); what was new and duplicate, and notes."""
    counts = load_rejects(con, import_id, frames["rejects"])
    hands = frames["gin_hands"]
    notes: list[str] = []
    full = hands.filter(pl.col("recorded") == "full").unique("hand_id", keep="first",
                                                             maintain_order=True)
    sheet = hands.filter(pl.col("recorded") == "sheet").unique(
        "hand_id", keep="first", maintain_order=True).unique(
        ["game_id", "hand_no"], keep="first", maintain_order=True)
    new_full = _load_full(con, import_id, frames, full, notes) if full.height else 0
    sheet_games = _load_sheets(con, import_id, sheet) if sheet.height else set()
    new_games = _load_games(con, import_id, frames["gin_games"])
    valid_full = int((hands["recorded"] == "full").sum())
    sheet_ids = set(frames.ids.to_list()) - set(hands["hand_id"].to_list())
    valid_sheets = len(frames.ids) - valid_full
    fresh = {key for key in sheet_ids if key in sheet_games or key in new_games}
    new_sheets = len(fresh)  # a sheet given twice in the batch is new once
    counts.games_seen += valid_full + valid_sheets
    counts.games_new += new_full + new_sheets
    counts.games_duplicate += valid_full - new_full + valid_sheets - new_sheets
    return counts, notes


def _load_full(con: duckdb.DuckDBPyConnection, import_id: int, frames: GinFrames,
               stage_full: pl.DataFrame, notes: list[str]) -> int:
    """New full hands, their turns and melds; the sheet lines at their places go."""
    con.execute("CREATE OR REPLACE TEMP TABLE gin_new AS SELECT hand_id, game_id, hand_no "
                "FROM stage_full ANTI JOIN gin_hands USING (hand_id)")
    new = scalar(con, "SELECT count(*) FROM gin_new")
    if new:
        differs = " OR ".join(f"s.{c} IS DISTINCT FROM f.{c}" for c in _AGREE)
        for row in con.execute(f"""
                SELECT s.source, s.source_line, s.match, s.game_no, s.hand_no, f.source,
                       f.source_line
                FROM gin_hands s JOIN stage_full f
                  ON s.game_id = f.game_id AND s.hand_no = f.hand_no
                WHERE s.recorded = 'sheet' AND f.hand_id IN (SELECT hand_id FROM gin_new)
                  AND ({differs})
                ORDER BY s.source, s.source_line""").fetchall():
            notes.append(f"{row[0]}:{row[1]}: sheet-mismatch: hand {row[4]} of game {row[3]} "
                         f"of {row[2]!r} says otherwise than its full record ({row[5]}:"
                         f"{row[6]}), which replaces it in the store")
        con.execute("DELETE FROM gin_hands WHERE recorded = 'sheet' AND (game_id, hand_no) IN "
                    "(SELECT (game_id, hand_no) FROM gin_new WHERE game_id IS NOT NULL)")
        con.execute(f"INSERT INTO gin_hands BY NAME SELECT *, ? AS import_id, {_DATE} "
                    "FROM stage_full SEMI JOIN gin_new USING (hand_id)", [import_id])
        for table, key in (("gin_turns", ["hand_id", "turn_no"]),
                           ("gin_melds", ["hand_id", "seat", "meld_no"])):
            stage_child = frames[table].unique(  # noqa: F841  (read by name in the SQL)
                key, keep="first", maintain_order=True)
            con.execute(f"INSERT INTO {table} SELECT * FROM stage_child "
                        "SEMI JOIN gin_new USING (hand_id)")
    con.execute("DROP TABLE gin_new")
    return new


def _load_sheets(con: duckdb.DuckDBPyConnection, import_id: int,
                 stage_sheet: pl.DataFrame) -> set[int]:
    """Sheet lines whose place is free; the game ids of the sheets that stored a line."""
    con.execute("""
        CREATE OR REPLACE TEMP TABLE gin_sheet_new AS
        SELECT s.hand_id, s.game_id FROM stage_sheet s
        WHERE NOT EXISTS (SELECT 1 FROM gin_hands h WHERE h.hand_id = s.hand_id
                          OR (h.game_id = s.game_id AND h.hand_no = s.hand_no))""")
    games = {int(r[0]) for r in con.execute(
        "SELECT DISTINCT game_id FROM gin_sheet_new").fetchall()}
    con.execute(f"INSERT INTO gin_hands BY NAME SELECT *, ? AS import_id, {_DATE} "
                "FROM stage_sheet SEMI JOIN gin_sheet_new USING (hand_id)", [import_id])
    con.execute("DROP TABLE gin_sheet_new")
    return games


def _load_games(con: duckdb.DuckDBPyConnection, import_id: int, games: pl.DataFrame
                ) -> set[int]:
    """New games, a finished one replacing the same game stored unfinished; their ids."""
    if not games.height:
        return set()
    stage_games = games.sort("finished", descending=True, maintain_order=True).unique(  # noqa: F841
        "game_id", keep="first", maintain_order=True)
    con.execute("DELETE FROM gin_games WHERE NOT finished AND game_id IN "
                "(SELECT game_id FROM stage_games WHERE finished)")
    con.execute("CREATE OR REPLACE TEMP TABLE gin_games_new AS SELECT game_id "
                "FROM stage_games ANTI JOIN gin_games USING (game_id)")
    new = {int(r[0]) for r in con.execute("SELECT game_id FROM gin_games_new").fetchall()}
    con.execute(f"INSERT INTO gin_games BY NAME SELECT *, ? AS import_id, {_DATE} "
                "FROM stage_games SEMI JOIN gin_games_new USING (game_id)", [import_id])
    con.execute("DROP TABLE gin_games_new")
    return new


def stored_full_hands(con: duckdb.DuckDBPyConnection
                      ) -> Callable[[int], dict[int, HandFacts]]:
    """A lookup of the stored full hands of a game, by hand number (for the sheet check)."""

    def lookup(game_id: int) -> dict[int, HandFacts]:
        rows = con.execute(
            "SELECT hand_no, dealer, upcard_rank, outcome, out_seat, out_deadwood, "
            "opponent_deadwood, winner_seat, points, source, source_line FROM gin_hands "
            "WHERE recorded = 'full' AND finished AND game_id = ? AND hand_no IS NOT NULL",
            [game_id]).fetchall()
        found = {}
        for number, dealer, upcard, outcome, out, deadwood, opponent, winner, points, \
                source, line in rows:
            kind = _OUT[outcome]
            scores = (0, 0) if winner is None else \
                (points, 0) if winner == "A" else (0, points)
            found[int(number)] = HandFacts(
                Seat(dealer), int(upcard), kind, Seat(out) if out else None,
                deadwood if kind is SheetOut.KNOCK else None, opponent, scores,
                f"{source}:{line}")
        return found

    return lookup


def missing(con: duckdb.DuckDBPyConnection, ids: np.ndarray) -> int:
    """How many of ``ids`` (a Gin file's: hand ids, sheets' game ids) are not stored."""
    if not len(ids):
        return 0
    stage_ids = pl.DataFrame({"id": ids}, schema={"id": pl.UInt64})  # noqa: F841
    # executed here: DuckDB finds ``stage_ids`` among the calling frame's variables
    return con.execute("SELECT count(*) FROM stage_ids WHERE id NOT IN "
                       "(SELECT hand_id FROM gin_hands) AND id NOT IN "
                       "(SELECT game_id FROM gin_games)").fetchall()[0][0]


def stored(con: duckdb.DuckDBPyConnection, ids: list[int]) -> dict[int, int]:
    """Which of ``ids`` (hand ids, sheets' game ids) are stored, with the import that
    stored each."""
    stage_ids = pl.DataFrame({"id": ids},  # noqa: F841  (read by name in the SQL)
                             schema={"id": pl.UInt64})
    return {int(g): int(i) for g, i in con.execute(
        "SELECT h.hand_id, h.import_id FROM gin_hands h SEMI JOIN stage_ids ON h.hand_id = "
        "stage_ids.id UNION ALL SELECT g.game_id, g.import_id FROM gin_games g SEMI JOIN "
        "stage_ids ON g.game_id = stage_ids.id").fetchall()}
