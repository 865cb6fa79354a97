"""The DuckDB schema: a contract with users' own SQL, documented in docs/schema.md.

This module holds the shared tables, those every game writes to (``imports``, ``rejects``,
the source files and their reads, ``reject_resolutions``, the ``gops_database`` mark), and
puts the whole schema together (:func:`versions`): each game declares its own tables, and
each feature its derived tables, as registry parts (:mod:`gops_records.core.store.migrations`
says how, and how a version with several owners runs). The store names no game's table.

Changes are made only by appending a migration (a new version number) to one owner's
steps; each applied version is recorded in ``schema_migrations``, so a database always
says which version of the schema it holds.

Version 1 made the shared tables and the Gops tables at once: the store declares its part
here (``imports``, ``rejects``), Gops its part and the version's name
(:mod:`gops_records.games.gops.schema`). Both run in version 1's transaction, the store's
first, and one row records it, as before.
"""

from __future__ import annotations

import functools

from gops_records.core.store.migrations import Migration, Version, check, declared
from gops_records.core.store.migrations import tables as tables_of

#: Version 1, the shared part: what every import and every reject is recorded in (Gops
#: declares the rest of version 1, and its name).
_V1_SHARED = """
CREATE TABLE imports (
    import_id          INTEGER PRIMARY KEY,
    started_at         TIMESTAMP NOT NULL,
    finished_at        TIMESTAMP,
    sources            VARCHAR[] NOT NULL,
    games_seen         INTEGER NOT NULL,
    games_new          INTEGER NOT NULL,
    games_duplicate    INTEGER NOT NULL,
    games_rejected     INTEGER NOT NULL,
    rejects_new        INTEGER NOT NULL,
    rejects_duplicate  INTEGER NOT NULL,
    seconds            DOUBLE
);

CREATE TABLE rejects (
    reject_id    VARCHAR NOT NULL,     -- content key of the raw text: one copy per record
    import_id    INTEGER NOT NULL,
    source       VARCHAR NOT NULL,
    source_game  INTEGER,              -- NULL when the whole file was unreadable
    source_line  INTEGER,
    raw_text     VARCHAR NOT NULL,     -- the record exactly as written
    errors       STRUCT(code VARCHAR, message VARCHAR, line INTEGER, "column" INTEGER,
                        round INTEGER)[] NOT NULL
);
"""

#: Files read in full, by content: a re-import of the same bytes skips reading them.
_V3_SOURCE_FILES = """
CREATE TABLE source_files (
    sha256          VARCHAR NOT NULL,     -- of the file's bytes
    reader          VARCHAR NOT NULL,     -- the gops (version and code), file kind, encoding
    bytes           BIGINT NOT NULL,
    import_id       INTEGER NOT NULL,     -- the import that read it last
    source          VARCHAR NOT NULL,     -- the file's name then
    games_valid     INTEGER NOT NULL,     -- valid games in it (a repeat counted again)
    games_rejected  INTEGER NOT NULL,     -- records rejected (a repeat counted again)
    game_ids        UBIGINT[] NOT NULL,   -- its valid games, distinct, sorted
    reject_ids      VARCHAR[] NOT NULL,   -- its rejects, distinct, sorted
    notes           VARCHAR[] NOT NULL    -- what the import said about it
);
"""

#: ``source_files`` as version 3 had it, over the rows of version 5.
SOURCE_FILES_VIEW = """
CREATE VIEW source_files AS
SELECT r.sha256, r.reader, r.bytes, r.import_id, r.source, r.games_valid, r.games_rejected,
       coalesce((SELECT list(g.game_id ORDER BY g.game_id) FROM source_file_games g
                 WHERE g.sha256 = r.sha256 AND g.reader = r.reader), []) AS game_ids,
       coalesce((SELECT list(j.reject_id ORDER BY j.reject_id) FROM source_file_rejects j
                 WHERE j.sha256 = r.sha256 AND j.reader = r.reader), []) AS reject_ids,
       r.notes
FROM source_file_reads r;
"""

#: What each file read yielded, as rows: one row per file in ``source_file_reads``, one
#: per valid game and per reject in ``source_file_games`` / ``source_file_rejects``, so no
#: single value grows with the file (a list of 3 million ids in one row made DuckDB ask for
#: tens of GB). ``source_files`` becomes a view with the version 3 columns.
_V5_SOURCE_FILE_ROWS = """
CREATE TABLE source_file_reads (
    sha256          VARCHAR NOT NULL,
    reader          VARCHAR NOT NULL,
    bytes           BIGINT NOT NULL,
    import_id       INTEGER NOT NULL,
    source          VARCHAR NOT NULL,
    games_valid     INTEGER NOT NULL,
    games_rejected  INTEGER NOT NULL,
    notes           VARCHAR[] NOT NULL
);
CREATE TABLE source_file_games (
    sha256   VARCHAR NOT NULL,
    reader   VARCHAR NOT NULL,
    game_id  UBIGINT NOT NULL
);
CREATE TABLE source_file_rejects (
    sha256     VARCHAR NOT NULL,
    reader     VARCHAR NOT NULL,
    reject_id  VARCHAR NOT NULL
);

INSERT INTO source_file_reads
SELECT sha256, reader, bytes, import_id, source, games_valid, games_rejected, notes
FROM source_files;
INSERT INTO source_file_games
SELECT sha256, reader, unnest(game_ids) FROM source_files;
INSERT INTO source_file_rejects
SELECT sha256, reader, unnest(reject_ids) FROM source_files;
DROP TABLE source_files;
""" + SOURCE_FILES_VIEW

#: Quarantined records found fixed: ``gops rejects --recheck`` writes one row per reject
#: it finds resolved (see docs/schema.md for how "fixed" is recognised). A reject with no
#: row is open. The rejects themselves are never changed: they stay the history.
_V6_REJECT_RESOLUTIONS = """
CREATE TABLE reject_resolutions (
    reject_id    VARCHAR NOT NULL,    -- the reject (rejects.reject_id); one row at most
    resolved_at  TIMESTAMP NOT NULL,  -- when a re-check first found it resolved
    how          VARCHAR NOT NULL,    -- 'fixed' | 'same-game' | 'removed'
    game_id      UBIGINT,             -- the stored game that is the record fixed
    note         VARCHAR NOT NULL     -- what the re-check found, in words
);
"""

#: Version 13: where each file of an import was, and its bytes' SHA-256, beside ``sources``
#: (same order), so ``gops rejects --recheck`` reads the file that was imported, wherever
#: the command runs. Imports made before keep NULL: their paths were never recorded.
#: (IF NOT EXISTS: a file whose recorded version was set back, as tests of the earlier
#: steps do, keeps the columns and their values.)
_V13_SOURCE_PATHS = """
ALTER TABLE imports ADD COLUMN IF NOT EXISTS source_paths VARCHAR[];
ALTER TABLE imports ADD COLUMN IF NOT EXISTS source_sha256 VARCHAR[];
"""

#: The mark of a gops database: a table of one row that gops writes when it makes a
#: database and adds, by migration, to one an older gops made. A DuckDB file with tables but
#: without the mark belongs to another application and is refused (docs/schema.md).
MARK_TABLE = "gops_database"
MARK_APPLICATION = "gops-records"
_V14_MARK = f"""
CREATE TABLE IF NOT EXISTS {MARK_TABLE} (
    application  VARCHAR NOT NULL   -- always '{MARK_APPLICATION}'
);
INSERT INTO {MARK_TABLE} SELECT '{MARK_APPLICATION}'
    WHERE NOT EXISTS (SELECT 1 FROM {MARK_TABLE} WHERE application = '{MARK_APPLICATION}');
"""

#: Version 15: name aliases (``gops alias``): ``alias`` is shown as ``name`` in every view
#: of a read-only connection (:mod:`gops_records.core.store.aliases`); the records keep
#: their spelling. ``gops_name(kind, name)`` maps a name the same way in users' SQL.
ALIAS_TABLE = "name_aliases"
_V15_ALIASES = f"""
CREATE TABLE IF NOT EXISTS {ALIAS_TABLE} (
    kind      VARCHAR NOT NULL,   -- 'player' | 'event'
    alias     VARCHAR NOT NULL,   -- a stored spelling, shown as `name` in every view
    name      VARCHAR NOT NULL,   -- the spelling every view shows instead
    added_at  TIMESTAMP NOT NULL
);
CREATE OR REPLACE MACRO gops_name(name_kind, stored) AS
    coalesce((SELECT a.name FROM {ALIAS_TABLE} a
              WHERE a.kind = name_kind AND a.alias = stored), stored);
"""

#: The shared tables' steps (the store's part of the schema).
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, None, _V1_SHARED, tables=("imports", "rejects")),
    Migration(3, "source_files: files read, by content, so a re-import skips them",
              _V3_SOURCE_FILES, tables=("source_files",)),
    Migration(5, "what each file read yielded stored as rows (source_file_reads, "
                 "source_file_games, source_file_rejects); source_files is a view",
              _V5_SOURCE_FILE_ROWS,
              tables=("source_file_reads", "source_file_games", "source_file_rejects")),
    Migration(6, "reject_resolutions: quarantined records found fixed by gops rejects "
                 "--recheck", _V6_REJECT_RESOLUTIONS, tables=("reject_resolutions",)),
    Migration(13, "imports.source_paths and source_sha256: each file's absolute path and "
                  "SHA-256, for gops rejects --recheck", _V13_SOURCE_PATHS),
    Migration(14, "gops_database: the mark that tells a gops database from another "
                  "application's DuckDB file", _V14_MARK),
    Migration(15, "name_aliases: one spelling of a player or event shown as another "
                  "(gops alias); the macro gops_name", _V15_ALIASES, tables=(ALIAS_TABLE,)),
)
#: The version that adds the mark: a database without it is a gops database only when it
#: is older (and has gops's tables: store/db.py).
MARK_VERSION = next(m.version for m in MIGRATIONS if m.sql is _V14_MARK)


@functools.cache
def versions() -> tuple[Version, ...]:
    """Every version of the schema: the shared tables' and those every installed game and
    feature declares, checked (SchemaBroken names the plug-in that breaks them)."""
    return check(declared(MIGRATIONS))


def tables() -> tuple[str, ...]:
    """The tables and views a user may query, from every owner, in the order they were
    added (the load order)."""
    return tables_of(versions())
