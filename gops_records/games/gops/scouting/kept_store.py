"""Scouting reports kept in the database: computed when first asked for, kept until the
player's games change (docs/scouting.md, "Kept reports").

A report on a player with thousands of games takes about a second to compute (the
cross-validation and the simulated games), and it changes only when an import adds games
of that player. The import computes none. The first ask (`gops scout`, the Scout page)
computes it; `gops scout` then keeps it in ``scout_reports`` (docs/schema.md) with
:func:`keep`, and the next ask reads it back in milliseconds.

**The rule.** A kept row records, in ``import_id``, the latest import that had added games
of the player when the report was computed (:func:`games_stamp`). Games are never deleted
or changed, and each import numbers its games with a new, larger ``import_id``, so the
player's games are the same exactly while that latest import is the same: a kept report is
read only while :func:`games_stamp` still equals its ``import_id``, and only when this
version of gops computed it with the same parameters (against anyone, seed and
simulations). Anything else is computed as before. Reports are kept for players with at
least :data:`KEEP_FROM_GAMES` classic games, with the default parameters only.

The scouting feature owns this table: it declares it (:data:`MIGRATIONS`, version 10 of
the schema) to the store as the Gops registry part ``"schema.scout_reports"``
(gops_records/core/store/migrations.py); the store knows nothing of scouting.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from gops_records.core.store.migrations import Migration
from gops_records.games.gops.scouting.defaults import DEFAULT_GAMES
from gops_records.games.gops.scouting.kept import VERSION, from_record, to_record
from gops_records.games.gops.scouting.results import ScoutReport

TABLE = "scout_reports"
#: Version 10 of the schema: each player's report, kept when first asked for, until the
#: player's games change (the rule above). Migrating computes none.
_V10_SCOUT_REPORTS = """
CREATE TABLE scout_reports (
    player       VARCHAR NOT NULL,   -- one row a player: the report against anyone
    import_id    INTEGER NOT NULL,   -- the latest import of the player's games it studied
    version      VARCHAR NOT NULL,   -- the gops that computed it, and the record's layout
    seed         INTEGER NOT NULL,   -- the seed of the folds and the simulated games
    simulations  INTEGER NOT NULL,   -- games simulated for each reply
    games        INTEGER NOT NULL,   -- games studied
    seconds      DOUBLE NOT NULL,    -- how long it took to compute
    report       JSON NOT NULL       -- the report (gops_records/games/gops/scouting/kept.py)
);
"""
MIGRATIONS: tuple[Migration, ...] = (
    Migration(10, "scout_reports: each player's scouting report, computed at import",
              _V10_SCOUT_REPORTS, tables=(TABLE,)),
)
#: The parameters a kept report is computed with (those of ``scout``'s defaults).
KEPT_SEED, KEPT_FOLDS = 0, 5
#: Reports are kept for players with at least this many classic games studied. On fewer
#: the report is computed in about half a second when asked for (the simulated games cost
#: the same whatever the games studied: 0.44 s on 5 games, 0.57 s on 1,000 at 1,000,000
#: games stored); from 1,000 games on it grows to 1.2 s on 5,000.
KEEP_FROM_GAMES = 1_000
#: How long `gops scout` tries to open the file for writing to keep a report: one try
#: and a short retry, no more (an import or a dashboard holding the file wins; the report
#: is then simply not kept, and computed again next time).
KEEP_TIMEOUT_SECONDS = 0.2


def games_stamp(con: duckdb.DuckDBPyConnection, player: str) -> int:
    """The latest import that added games of ``player`` (0 for none): the stamp a kept
    report must match. One scan of ``games``' seat columns (milliseconds at 1,000,000)."""
    rows = con.execute("SELECT coalesce(max(import_id), 0) FROM games WHERE "
                       "? IN (player_a, player_b, player_c, player_d)", [player]).fetchall()
    return int(rows[0][0])


def kept_report(con: duckdb.DuckDBPyConnection, player: str, *, seed: int = KEPT_SEED,
                simulations: int = DEFAULT_GAMES, chart_data: bool = True
                ) -> ScoutReport | None:
    """``player``'s kept report when one was computed with these parameters by this
    version of gops and the player's games have not changed since (the rule above), else
    None (also for a database older than schema 10)."""
    try:
        rows = con.execute(f"SELECT report FROM {TABLE} WHERE player = ? AND seed = ? AND "
                           "simulations = ? AND version = ? AND import_id = ?",
                           [player, seed, simulations, VERSION,
                            games_stamp(con, player)]).fetchall()
    except duckdb.CatalogException:
        return None
    return from_record(rows[0][0], chart_data=chart_data) if rows else None


@dataclass(frozen=True, slots=True)
class ToKeep:
    """A report computed now, to keep with :func:`keep`: ``import_id`` is the stamp of
    the games it studied (:func:`games_stamp`, read before it was computed)."""

    player: str
    import_id: int
    seed: int
    simulations: int
    games: int
    seconds: float
    record: str  # :func:`gops_records.games.gops.scouting.kept.to_record`


def _aliased(con: duckdb.DuckDBPyConnection, player: str) -> bool:
    """Whether a stored alias shows another name as ``player`` or ``player`` as another."""
    from gops_records.core.names import NameKind
    from gops_records.core.store.aliases import aliases

    try:
        found = aliases(con)
    except duckdb.CatalogException:  # a database older than schema 15
        return False
    return any(a.kind is NameKind.PLAYER and player in (a.alias, a.name) for a in found)


def asked(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
          seed: int = KEPT_SEED, simulations: int = DEFAULT_GAMES, *,
          chart_data: bool = True) -> tuple[ScoutReport, ToKeep | None]:
    """The report ``scout(con, player, vs, seed, simulations=simulations)`` gives, and,
    when it was computed now and is one to keep, what to keep (:func:`keep`), else None.
    The kept report is read when the rule allows; raises ``ScoutError`` as ``scout``
    does."""
    # a name an alias touches studies games the stamp does not follow (gops alias adds or
    # removes games without an import): its report is computed each time, never kept
    keepable = vs is None and seed == KEPT_SEED and simulations == DEFAULT_GAMES \
        and not _aliased(con, player)
    if keepable:
        kept = kept_report(con, player, seed=seed, simulations=simulations,
                           chart_data=chart_data)
        if kept is not None:
            return kept, None
    from gops_records.games.gops.scouting import scout  # loads numpy, polars and the model

    stamp = games_stamp(con, player) if keepable else 0  # the games this report studies
    started = time.perf_counter()
    report = scout(con, player, vs, seed, KEPT_FOLDS, simulations=simulations)
    if not keepable or report.games < KEEP_FROM_GAMES:
        return report, None
    return report, ToKeep(player, stamp, seed, simulations, report.games,
                          time.perf_counter() - started, to_record(report))


def report_for(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
               seed: int = KEPT_SEED, simulations: int = DEFAULT_GAMES, *,
               chart_data: bool = True) -> ScoutReport:
    """The report :func:`asked` gives, kept nowhere (the dashboard keeps it in its
    process's cache: its reader holds the file read-only)."""
    return asked(con, player, vs, seed, simulations, chart_data=chart_data)[0]


def keep(db: str | Path | None, row: ToKeep, *, timeout: float = KEEP_TIMEOUT_SECONDS
         ) -> bool:
    """Keep ``row``, replacing the player's kept report, in one short write transaction.
    Never raises and never waits long: True when kept, False when the file could not be
    written now (held by an import or another reader, read-only, an older schema, which
    this never upgrades): the report is then computed again next time. A report whose
    player's games changed meanwhile keeps its old stamp, so the rule never reads it."""
    from gops_records.core.errors import GopsError
    from gops_records.core.store.db import connect

    try:
        con = connect(db, timeout=timeout, upgrade=False)
    except (GopsError, duckdb.Error, OSError):  # keeping is optional: never fails a read
        return False
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"DELETE FROM {TABLE} WHERE player = ?", [row.player])
        con.execute(f"INSERT INTO {TABLE} (player, import_id, version, seed, simulations, "
                    "games, seconds, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [row.player, row.import_id, VERSION, row.seed, row.simulations,
                     row.games, row.seconds, row.record])
        con.execute("COMMIT")
        return True
    except duckdb.Error:
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        return False
    finally:
        con.close()


__all__ = ["KEEP_FROM_GAMES", "TABLE", "ToKeep", "asked", "games_stamp", "keep", "kept_report",
           "report_for"]
