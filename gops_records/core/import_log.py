"""What the imports did, for every game: each `gops import` run and each file it read.

The ``imports`` and ``source_files`` tables are the shared importer's (no game owns them),
so their listings live here, next to the quarantine's (:mod:`gops_records.core.rejects`);
the dashboard's Data quality page shows them.
"""

from __future__ import annotations

import duckdb
import polars as pl

__all__ = ["list_imports", "list_source_files"]


def list_imports(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every import, newest first. Columns: import_id, started_at, finished_at, files,
    sources (comma-separated), games_seen, games_new, games_duplicate, games_rejected,
    rejects_new, rejects_duplicate, seconds."""
    return con.sql("""SELECT import_id, started_at, finished_at, len(sources) AS files,
                             array_to_string(sources, ', ') AS sources, games_seen, games_new,
                             games_duplicate, games_rejected, rejects_new, rejects_duplicate,
                             seconds
                      FROM imports ORDER BY import_id DESC""").pl()


def list_source_files(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every file read, under its latest name, newest import first. Columns: source,
    import_id (the last import that read it or found it unchanged), bytes, games (valid
    records in it), distinct_games, rejected, sha256."""
    return con.sql("""SELECT source, import_id, bytes, games_valid AS games,
                             len(game_ids) AS distinct_games, games_rejected AS rejected,
                             sha256
                      FROM source_files ORDER BY import_id DESC, source""").pl()
