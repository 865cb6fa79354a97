"""What every game's loading shares: the counts, the stored ids, the rejects.

A game loads its own tables (its reader's load session, see
:mod:`gops_records.core.reading`); the shared ``rejects`` table is loaded here
(:func:`load_rejects`). Frames go in through Arrow (``INSERT ... SELECT ... FROM frame``),
never row by row. They are found by DuckDB's replacement scan of a local variable, not
registered: within one transaction DuckDB keeps every registered frame alive until the
commit, which made a million-game import hold gigabytes. Rejects already kept (same
``reject_id``) are skipped, so re-importing adds nothing. The caller owns the
transaction: ``import_paths`` opens one for the whole import.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl

from gops_records.core.store.db import scalar


@dataclass
class LoadCounts:
    """What loading records counted (an import's summary adds them up)."""

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
    """The ids (64-bit numbers) of the games already stored in a game's ``table`` (its
    ``column``), for one import.

    Holding them in a sorted array (8 MB a million) lets each batch be checked by binary
    search instead of an anti join that scans the whole table again for every batch.
    Only valid while the caller's transaction holds the write lock, so no one else adds
    games meanwhile. ``usable`` is False when the table is huge; the game's loader then
    uses the anti join.
    """

    LIMIT = 50_000_000

    def __init__(self, con: duckdb.DuckDBPyConnection, table: str, column: str) -> None:
        self._table, self._column = table, column
        self._added: list[np.ndarray] = []
        self._base = np.zeros(0, np.uint64)
        self._usable = False
        self._error: BaseException | None = None
        # read in the background, on a cursor of its own, while the caller reads files
        self._loading = threading.Thread(target=self._load, args=(con.cursor(),), daemon=True)
        self._loading.start()

    def _load(self, cursor: duckdb.DuckDBPyConnection) -> None:
        try:
            if scalar(cursor, f"SELECT count(*) FROM {self._table}") <= self.LIMIT:
                ids = cursor.sql(f"SELECT {self._column} FROM {self._table}").pl()[self._column]
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


def load_rejects(con: duckdb.DuckDBPyConnection, import_id: int, rejects: pl.DataFrame
                 ) -> LoadCounts:
    """Keep a batch's rejects not kept yet (inside the caller's transaction): each counts
    as a record seen and rejected, new or a duplicate."""
    counts = LoadCounts(games_seen=rejects.height, games_rejected=rejects.height)
    if rejects.height:
        stage_rejects = rejects.unique(  # noqa: F841  (read by name in the SQL)
            "reject_id", keep="first", maintain_order=True)
        before = scalar(con, "SELECT count(*) FROM rejects")
        con.execute("INSERT INTO rejects SELECT reject_id, ? AS import_id, source, source_game, "
                    "source_line, raw_text, errors FROM stage_rejects "
                    "ANTI JOIN rejects USING (reject_id)", [import_id])
        counts.rejects_new = scalar(con, "SELECT count(*) FROM rejects") - before
        counts.rejects_duplicate = rejects.height - counts.rejects_new
    return counts
