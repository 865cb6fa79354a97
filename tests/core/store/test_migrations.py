"""Migration 2 turns a version 1 database with data into version 2, losing nothing.

The version 1 database is built from a version 2 one (the bundled samples, 2-4 players,
both tie rules, comments, rejects) by writing its rows back the way version 1 stored
them: hex game ids and a bids table. Migrating it must give back the same rows.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.store import db as db_module
from gops_records.core.store.db import (
    DatabaseOutdated,
    DatabaseUnusable,
    connect,
    latest_version,
    reading,
    schema_version,
)
from gops_records.core.store.schema import versions

SAMPLES = ROOT / "gops_records" / "samples"
HEX = "format('{:016x}', game_id) AS game_id"

#: How each version 1 table is filled from a version 2 database (attached as ``new``).
V1_ROWS = {
    "imports": "SELECT * EXCLUDE (source_paths, source_sha256) FROM new.imports",
    "games": f"SELECT {HEX}, * EXCLUDE (game_id, tags, ties, tie_mask, carried, max_pool, "
             "bid_cards, open_prizes, player_a, player_b, player_c, player_d, carried_pools), "
             "map_from_entries(tags) FROM new.games",
    "game_players": f"SELECT {HEX}, * EXCLUDE (game_id) FROM new.game_players",
    "rounds": f"SELECT {HEX}, * EXCLUDE (game_id, bid_a, bid_b, bid_c, bid_d, cards_a, cards_b, "
              "cards_c, cards_d, revealed, taken, discarded) FROM new.rounds",
    "bids": f"SELECT {HEX}, * EXCLUDE (game_id, cards_played, strength) FROM new.bids",
    "rejects": "SELECT * FROM new.rejects",
}


#: Columns a version 1 file cannot hold (its imports kept no paths: NULL once upgraded).
NOT_IN_V1 = {"imports": " EXCLUDE (source_paths, source_sha256)"}


def _rows(db: Path) -> dict[str, list]:
    with reading(db) as con:
        return {t: con.execute(f"SELECT *{NOT_IN_V1.get(t, '')} FROM {t} ORDER BY ALL")
                .fetchall()
                for t in ("imports", "game_players", "rounds", "bids", "rejects")} | {
            "games": con.execute("SELECT * FROM games ORDER BY game_id").fetchall()}


@pytest.fixture(scope="module")
def current(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("v2") / "samples.duckdb"
    summary = import_paths([SAMPLES], db)
    assert summary.games_new > 300 and summary.games_rejected > 0
    return db


def _version_1_copy(current: Path, path: Path) -> None:
    con = duckdb.connect(str(path))
    first = versions()[0]  # its parts: the store's shared tables, then Gops's
    for _owner, part in first.parts:
        con.execute(part.sql)
    con.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                "name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
    con.execute("INSERT INTO schema_migrations VALUES (1, ?, now()::TIMESTAMP)",
                [first.name])
    con.execute(f"ATTACH '{current}' AS new (READ_ONLY)")
    for table, select in V1_ROWS.items():
        con.execute(f"INSERT INTO {table} {select}")
    con.execute("DETACH new")
    con.close()


def test_a_version_1_database_migrates_to_the_same_rows(current: Path, tmp_path: Path) -> None:
    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    raw = duckdb.connect(str(old), read_only=True)  # as it is, not through connect()
    assert raw.execute("SELECT max(version) FROM schema_migrations").fetchall() == [(1,)]
    assert raw.execute("SELECT count(*) FROM bids").fetchall()[0][0] > 8000
    raw.close()
    connect(old).close()  # a read-write open migrates
    with reading(old) as con:
        assert schema_version(con) == latest_version()
    assert _rows(old) == _rows(current)


def _file_state(db: Path) -> tuple[bytes, list[str]]:
    return db.read_bytes(), sorted(p.name for p in db.parent.iterdir())


def test_reading_a_version_1_database_reads_an_upgraded_copy_and_leaves_the_file(
        current: Path, tmp_path: Path) -> None:
    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    before = _file_state(old)
    with reading(old) as con:  # what the dashboard and gops export do
        assert schema_version(con) == latest_version()
        assert con.execute("SELECT count(*) FROM games WHERE ties > 0").fetchall()[0][0] > 50
    assert _rows(old) == _rows(current)
    assert _file_state(old) == before  # not one byte written, no .wal left
    raw = duckdb.connect(str(old), read_only=True)
    assert raw.execute("SELECT max(version) FROM schema_migrations").fetchall() == [(1,)]
    raw.close()


@pytest.mark.parametrize("command", [
    ["export", "--format", "gops", "--out", "{out}"],
    ["scout", "Ann", "--json"],
])
def test_read_only_commands_never_write_an_older_file(current: Path, tmp_path: Path,
                                                      command: list[str]) -> None:
    old = tmp_path / "db" / "v1.duckdb"
    old.parent.mkdir()
    _version_1_copy(current, old)
    before = _file_state(old)
    args = [a.replace("{out}", str(tmp_path / "out.gops")) for a in command]
    result = CliRunner().invoke(app, [*args, "--db", str(old)], env={"COLUMNS": "250"})
    assert result.exit_code in (0, 2), result.output  # 2: e.g. no such player; never a write
    assert "Traceback" not in result.output
    assert _file_state(old) == before


def test_a_big_older_file_is_refused_by_readers_naming_the_upgrade_command(
        current: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    monkeypatch.setattr(db_module, "MEMORY_UPGRADE_BYTES", 1000)
    before = _file_state(old)
    with pytest.raises(DatabaseOutdated, match=r"gops upgrade --db .*v1\.duckdb"):
        reading(old).__enter__()
    assert _file_state(old) == before


def test_gops_upgrade_migrates_in_place_and_says_so(current: Path, tmp_path: Path) -> None:
    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    runner = CliRunner()
    first = runner.invoke(app, ["upgrade", "--db", str(old)], env={"COLUMNS": "250"})
    assert first.exit_code == 0, first.output
    assert f"upgraded from schema version 1 to {latest_version()}" in first.output
    raw = duckdb.connect(str(old), read_only=True)
    assert raw.execute("SELECT max(version) FROM schema_migrations").fetchall() == [
        (latest_version(),)]
    raw.close()
    assert _rows(old) == _rows(current)
    again = runner.invoke(app, ["upgrade", "--db", str(old)], env={"COLUMNS": "250"})
    assert "up to date" in again.output
    missing = runner.invoke(app, ["upgrade", "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2 and "nothing to upgrade" in missing.output


def test_a_database_from_a_newer_gops_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    connect(db).close()
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', now()::TIMESTAMP)")
    con.close()
    for read_only in (True, False):
        with pytest.raises(DatabaseUnusable, match="newer gops"):
            connect(db, read_only=read_only)


def test_the_summary_columns_agree_with_the_rounds(current: Path) -> None:
    with reading(current) as con:
        wrong = con.execute("""
            SELECT g.game_id FROM games g LEFT JOIN rounds r USING (game_id)
            GROUP BY g.game_id, g.ties, g.tie_mask, g.carried, g.max_pool, g.cards, g.tie_rule
            HAVING g.ties <> count(*) FILTER (r.tie)
                OR g.tie_mask <> coalesce(
                       bit_or(1::INTEGER << (r.round_no::INTEGER - 1)) FILTER (r.tie), 0)
                OR g.carried <> coalesce(sum(r.prize) FILTER (
                       r.tie AND r.round_no < g.cards AND g.tie_rule = 'carry'), 0)
                OR g.max_pool <> coalesce(max(r.pool_value), 0)""").fetchall()
        tied = con.execute("SELECT count(*) FROM games WHERE ties > 0").fetchall()[0][0]
    assert wrong == []
    assert tied > 50  # the check saw games with ties


def test_the_bids_view_has_one_row_per_seat_and_round(current: Path) -> None:
    with reading(current) as con:
        (bids, expected), = con.execute("""
            SELECT (SELECT count(*) FROM bids),
                   (SELECT sum(g.rounds_played * g.n_players) FROM games g)""").fetchall()
        won = con.execute("SELECT count(*) FROM bids WHERE won").fetchall()[0][0]
        untied = con.execute("SELECT count(*) FROM rounds WHERE NOT tie").fetchall()[0][0]
    assert bids == expected
    assert won == untied  # each untied round has exactly one winning bid


def test_the_tag_macro_reads_one_tag(current: Path) -> None:
    with reading(current) as con:
        rows = con.execute("""
            SELECT count(*) FILTER (tag(tags, 'Event') = event),
                   count(*) FILTER (tag(tags, 'Event') IS NULL),
                   count(*) FILTER (tag(tags, 'NoSuchTag') IS NOT NULL),
                   count(*) FILTER (tag(tags, 'A') = (SELECT p.player FROM game_players p
                                                      WHERE p.game_id = g.game_id
                                                        AND p.seat = 'A')),
                   count(*)
            FROM games g""").fetchall()
    with_event, without_event, bogus, named_a, games = rows[0]
    assert with_event + without_event == games > 300 and with_event > 300
    assert bogus == 0
    assert named_a == games  # every sample names seat A


def _summed_groups(db: Path) -> dict[str, list]:
    """The kept bid groups and cluster sums, summed per player and key (import ids apart)."""
    from gops_records.games.gops.hand_facts import GROUP_KEYS, GROUP_SUMS
    keys = ", ".join(GROUP_KEYS)
    with reading(db) as con:
        groups = con.execute(
            f"SELECT player, {keys}, " + ", ".join(f"sum({s})" for s in GROUP_SUMS)
            + f" FROM player_bid_groups GROUP BY player, {keys} ORDER BY ALL").fetchall()
        clusters = con.execute(
            "SELECT * EXCLUDE (import_id) FROM player_bid_clusters ORDER BY ALL").fetchall()
    return {"groups": groups, "clusters": clusters}


def test_the_upgrade_fills_the_bid_groups_as_imports_keep_them(current: Path,
                                                               tmp_path: Path) -> None:
    """Schema 9 fills player_bid_groups from the games already stored: the same sums as
    the imports of the same games kept, and the Players frames read from them are the
    ones computed from the bids."""
    from gops_records.games.gops.analytics import ALL_GAMES, list_players, player_bidding

    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    connect(old).close()  # a read-write open migrates, filling the groups
    filled = _summed_groups(old)
    assert filled == _summed_groups(current)
    assert len(filled["groups"]) > 1000
    with reading(old) as con, reading(current) as fresh:
        for player in list_players(fresh, ALL_GAMES)[:3]:
            upgraded, imported = player_bidding(con, ALL_GAMES, player), player_bidding(
                fresh, ALL_GAMES, player)
            assert imported["bid_heatmap"]["count"].sum() > 0
            for name, frame in imported.items():
                assert upgraded[name].equals(frame), (name, player)


def test_an_upgraded_copy_in_memory_computes_the_bid_groups_instead(current: Path,
                                                                     tmp_path: Path) -> None:
    """A read-only open of an older file does not fill the groups in its copy (that would
    be the whole upgrade's work for one read): the frames are computed from the bids and
    are the same as a current database's."""
    from gops_records.games.gops.analytics import ALL_GAMES, list_players, player_bidding
    from gops_records.games.gops.analytics.bid_groups import has_stored_groups

    old = tmp_path / "v1.duckdb"
    _version_1_copy(current, old)
    with reading(old) as copy, reading(current) as fresh:
        assert not has_stored_groups(copy) and has_stored_groups(fresh)
        for player in list_players(fresh, ALL_GAMES)[:3]:
            ours, theirs = player_bidding(copy, ALL_GAMES, player), player_bidding(
                fresh, ALL_GAMES, player)
            for name, frame in theirs.items():
                assert ours[name].equals(frame), (name, player)
