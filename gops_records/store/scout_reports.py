"""Scouting reports kept in the database, so the Scout page and `gops scout` answer at once.

A report on a player with thousands of games takes about a second to compute (the
cross-validation and the simulated games), and it changes only when an import adds games
of that player. So each import computes the report of every player it added games of who
has at least :data:`KEEP_FROM_GAMES` classic games, with the default parameters (against
anyone, seed 0, the default simulations), and keeps it in ``scout_reports``
(docs/schema.md); reading it back takes milliseconds. Any other parameters, and players
with fewer games, are computed as before. A report kept by another version of gops is not
shown, and the next import computes it again. Games are never deleted, so a kept report
stays the one :func:`gops_records.scouting.scout` would compute now (tests/store/
test_scout_reports.py holds them equal).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from gops_records.scouting.defaults import DEFAULT_GAMES
from gops_records.scouting.kept import VERSION, from_record
from gops_records.scouting.results import ScoutReport
from gops_records.store.db import scalar

TABLE = "scout_reports"
#: The parameters a kept report is computed with (those of ``scout``'s defaults).
KEPT_SEED, KEPT_FOLDS = 0, 5
#: Reports are kept for players with at least this many classic games. On fewer the
#: report is computed in about half a second when asked for (the simulated games cost the
#: same whatever the games studied: 0.44 s on 5 games, 0.57 s on 1,000 at 1,000,000 games
#: stored), which is also what keeping it would add to every import of their games; from
#: 1,000 games on it grows to 1.2 s on 5,000.
KEEP_FROM_GAMES = 1_000


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :func:`refresh` did: reports kept, players left without one (too few classic
    games), and the seconds it took."""

    kept: int = 0
    without: int = 0
    seconds: float = 0.0


def kept_report(con: duckdb.DuckDBPyConnection, player: str, *, seed: int = KEPT_SEED,
                simulations: int = DEFAULT_GAMES, chart_data: bool = True
                ) -> ScoutReport | None:
    """``player``'s kept report when one was computed with these parameters by this
    version of gops, else None (also for a database older than schema 10)."""
    try:
        rows = con.execute(f"SELECT report FROM {TABLE} WHERE player = ? AND seed = ? AND "
                           "simulations = ? AND version = ?",
                           [player, seed, simulations, VERSION]).fetchall()
    except duckdb.CatalogException:
        return None
    return from_record(rows[0][0], chart_data=chart_data) if rows else None


def report_for(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
               seed: int = KEPT_SEED, simulations: int = DEFAULT_GAMES, *,
               chart_data: bool = True) -> ScoutReport:
    """The report ``scout(con, player, vs, seed, simulations=simulations)`` gives: the kept
    one when there is one, else computed (raises ``ScoutError`` as ``scout`` does)."""
    if vs is None:
        kept = kept_report(con, player, seed=seed, simulations=simulations,
                           chart_data=chart_data)
        if kept is not None:
            return kept
    from gops_records.scouting import scout  # loads numpy, polars and the model

    return scout(con, player, vs, seed, simulations=simulations)


def refresh(con: duckdb.DuckDBPyConnection, players: Iterable[str], import_id: int
            ) -> Refreshed:
    """Compute and keep the report of each of ``players`` (replacing any kept one); a
    player with too few classic games to scout keeps none."""
    import polars as pl

    from gops_records.scouting import scout
    from gops_records.scouting.features import ScoutError
    from gops_records.scouting.kept import to_record

    started = time.perf_counter()
    rows: list[dict] = []
    names = sorted(set(players))
    for player in names:
        clock = time.perf_counter()
        try:
            report = scout(con, player, seed=KEPT_SEED, folds=KEPT_FOLDS)
        except ScoutError:
            continue
        rows.append({"player": player, "import_id": import_id, "version": VERSION,
                     "seed": KEPT_SEED, "simulations": report.counter.counter.games,
                     "games": report.games, "seconds": time.perf_counter() - clock,
                     "report": to_record(report)})
    _delete(con, names)
    if rows:
        kept = pl.DataFrame(rows, schema={  # noqa: F841 (read by name in the SQL)
            "player": pl.String, "import_id": pl.Int32, "version": pl.String,
            "seed": pl.Int32, "simulations": pl.Int32, "games": pl.Int32,
            "seconds": pl.Float64, "report": pl.String})
        con.execute(f"INSERT INTO {TABLE} BY NAME SELECT * FROM kept")
    return Refreshed(len(rows), len(names) - len(rows), time.perf_counter() - started)


def _delete(con: duckdb.DuckDBPyConnection, players: list[str]) -> None:
    import polars as pl

    gone = pl.DataFrame({"player": players}, schema={"player": pl.String})  # noqa: F841
    con.execute(f"DELETE FROM {TABLE} WHERE player IN (SELECT player FROM gone)")


def refresh_import(con: duckdb.DuckDBPyConnection, import_id: int, *, everyone: bool = False
                   ) -> Refreshed:
    """Refresh the reports of the players import ``import_id`` added games of, and of any
    player whose kept report another version of gops computed (``everyone``: of every
    player), among the players with at least :data:`KEEP_FROM_GAMES` classic games (any
    other's kept report is dropped)."""
    from gops_records.scouting.features import CLASSIC

    rows = con.execute(f"""
        WITH due AS (SELECT DISTINCT p.player FROM game_players p JOIN games g USING (game_id)
                     WHERE g.import_id = $import_id OR $everyone
                     UNION SELECT player FROM {TABLE} WHERE version <> $version)
        SELECT player, count(DISTINCT game_id) >= $keep_from
        FROM game_players p JOIN games g USING (game_id)
        WHERE player IN (SELECT player FROM due) AND {CLASSIC}
        GROUP BY player
        UNION ALL  -- the due with no classic game at all
        SELECT player, false FROM due WHERE player NOT IN (
            SELECT p.player FROM game_players p JOIN games g USING (game_id) WHERE {CLASSIC})
        """, {"import_id": import_id, "version": VERSION,
              "keep_from": KEEP_FROM_GAMES, "everyone": everyone}).fetchall()
    keep = [player for player, enough in rows if enough]
    drop = [player for player, enough in rows if not enough]
    if drop:
        _delete(con, drop)
    return refresh(con, keep, import_id) if keep else Refreshed()


def fill(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the reports of the players stored with enough games (the upgrade to
    schema 10), as the last import would have."""
    import_id = scalar(con, "SELECT coalesce(max(import_id), 0) FROM imports")
    refresh_import(con, import_id, everyone=True)


__all__ = ["TABLE", "Refreshed", "fill", "kept_report", "refresh", "refresh_import",
           "report_for"]
