"""The schema is a contract with users' SQL: every promised table and column, typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from gops_records.core.store.db import connect, latest_version, migrate, reading, schema_version
from gops_records.core.store.schema import tables, versions

INT = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT")
ID = ("UBIGINT",)

#: The columns issue 3 names, with the DuckDB types they may have.
CONTRACT: dict[str, dict[str, tuple[str, ...]]] = {
    "imports": {
        "import_id": INT, "started_at": ("TIMESTAMP",), "finished_at": ("TIMESTAMP",),
        "sources": ("VARCHAR[]",), "games_seen": INT, "games_new": INT,
        "games_duplicate": INT, "games_rejected": INT,
    },
    "games": {
        "game_id": ID, "import_id": INT, "source": ("VARCHAR",),
        "source_game": INT, "source_line": INT, "event": ("VARCHAR",), "site": ("VARCHAR",),
        "date": ("DATE",), "round": ("VARCHAR",), "match": ("VARCHAR",),
        "tie_rule": ("VARCHAR",), "cards": INT, "n_players": INT, "finished": ("BOOLEAN",),
        "rounds_played": INT, "unclaimed": INT, "result": ("VARCHAR",),
        "winner": ("VARCHAR",), "tags": ('STRUCT("key" VARCHAR, "value" VARCHAR)[]',),
        "ties": INT, "tie_mask": INT, "carried": INT, "max_pool": INT,
    },
    "game_players": {
        "game_id": ID, "seat": ("VARCHAR",), "player": ("VARCHAR",),
        "score": INT, "outcome": ("VARCHAR",),
    },
    "rounds": {
        "game_id": ID, "round_no": INT, "prize": INT,
        "pool_cards": tuple(f"{t}[]" for t in INT), "pool_value": INT, "carried_in": INT,
        "tie": ("BOOLEAN",), "winner_seat": ("VARCHAR",), "comment": ("VARCHAR",),
        "bid_a": INT, "bid_b": INT, "bid_c": INT, "bid_d": INT,
    },
    "bids": {
        "game_id": ID, "round_no": INT, "seat": ("VARCHAR",),
        "player": ("VARCHAR",), "bid": INT, "won": ("BOOLEAN",),
    },
    "rejects": {
        "import_id": INT, "source": ("VARCHAR",), "source_game": INT, "source_line": INT,
        "raw_text": ("VARCHAR",),
        "errors": ('STRUCT(code VARCHAR, message VARCHAR, line INTEGER, "column" INTEGER, '
                   'round INTEGER)[]',),
    },
}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "sub" / "t.duckdb"
    connect(path).close()  # creates the folder and the file, applies the migrations
    return path


def _columns(db: Path) -> dict[str, dict[str, str]]:
    with reading(db) as con:
        rows = con.execute("SELECT table_name, column_name, data_type "
                           "FROM information_schema.columns").fetchall()
    found: dict[str, dict[str, str]] = {}
    for table, column, kind in rows:
        found.setdefault(table, {})[column] = kind
    return found


@pytest.mark.parametrize("table", sorted(CONTRACT))
def test_every_promised_column_exists_with_a_sensible_type(db: Path, table: str) -> None:
    found = _columns(db)[table]
    for column, kinds in CONTRACT[table].items():
        assert column in found, f"{table}.{column} is missing"
        assert found[column] in kinds, f"{table}.{column} is {found[column]}"


def test_tables_are_the_documented_ones(db: Path) -> None:
    assert set(_columns(db)) == {*tables(), "schema_migrations", "gops_database"}
    assert set(tables()) == {*CONTRACT, "source_files", "round_rows", "source_file_reads",
                           "source_file_games", "source_file_rejects",
                           "reject_resolutions", "variant_round_rows", "gin_hands", "gin_turns",
                           "gin_melds", "gin_games", "gin_player_hands", "player_bid_groups",
                           "player_bid_clusters", "scout_reports",
                           "name_aliases", "round_takes"}  # issue 3's, and more


def test_schema_migrations_records_every_version(db: Path) -> None:
    with reading(db) as con:
        rows = con.execute("SELECT version, name, applied_at FROM schema_migrations "
                           "ORDER BY version").fetchall()
    assert [(v, n) for v, n, _ in rows] == [(v.version, v.name) for v in versions()]
    assert [v.version for v in versions()] == list(range(1, 17))
    assert all(r[2] is not None for r in rows)


def test_rounds_and_bids_are_views_over_round_rows(db: Path) -> None:
    with reading(db) as con:
        kinds = dict(con.execute("SELECT table_name, table_type FROM information_schema.tables"
                                 ).fetchall())
    assert kinds["bids"] == kinds["rounds"] == "VIEW"
    assert kinds["round_rows"] == kinds["games"] == "BASE TABLE"


def test_migrating_twice_is_a_no_op(db: Path) -> None:
    with reading(db) as con:
        before = con.execute("SELECT * FROM schema_migrations").fetchall()
    con = connect(db)  # a second read-write open migrates again
    try:
        assert schema_version(con) == latest_version() == 16
        assert migrate(con) == 16
        assert con.execute("SELECT * FROM schema_migrations").fetchall() == before
    finally:
        con.close()


def test_not_null_columns_refuse_nulls(db: Path) -> None:
    con = connect(db)
    try:
        with pytest.raises(Exception, match="NOT NULL"):
            con.execute("INSERT INTO games (game_id) VALUES (1)")
    finally:
        con.close()
