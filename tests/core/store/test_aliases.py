"""Name aliases (schema version 15): stored, listed, undone; refused with plain messages;
merging the names in every read-only view without rewriting a record."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from names_fixture import names_db  # noqa: E402

from gops_records.core.games_query import GameFilter  # noqa: E402
from gops_records.core.name_lists import list_names, merge_suggestions  # noqa: E402
from gops_records.core.names import NameKind  # noqa: E402
from gops_records.core.store import aliases  # noqa: E402
from gops_records.core.store.db import SharedReader, connect, reading  # noqa: E402


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return names_db(tmp_path)


def _events(con) -> dict[str, int]:
    return dict(con.execute("SELECT event, count(*) FROM games GROUP BY event").fetchall())


def test_add_list_remove_round_trip(db: Path) -> None:
    con = connect(db)
    added = aliases.add_alias(con, "Thursday club", "thursday  CLUB")  # target typed freely
    assert (added.kind, added.alias, added.name) == (NameKind.EVENT, "Thursday club",
                                                      "Thursday Club")
    assert aliases.aliases(con) == [added]
    con.close()
    with reading(db) as r:
        assert _events(r) == {"Thursday Club": 3}  # merged in the view
        assert r.sql("SELECT gops_name('event', event) AS e, count(*) FROM "
                     "\"names\".main.games GROUP BY e").fetchall() == [("Thursday Club", 3)]
    with reading(db, merged=False) as r:  # the records keep their spelling
        assert _events(r) == {"Thursday Club": 2, "Thursday club": 1}
    con = connect(db)
    assert aliases.remove_alias(con, "THURSDAY club") == added  # undone, typed freely
    assert aliases.aliases(con) == []
    con.close()
    with reading(db) as r:
        assert _events(r) == {"Thursday Club": 2, "Thursday club": 1}


def test_merged_counts_reach_the_lists_the_listing_and_the_views_built_on_tables(db) -> None:
    con = connect(db)
    aliases.add_alias(con, "Márta", "Marta")
    con.close()
    with reading(db) as r:
        rows = {row.name: row.games for row in list_names(r, NameKind.PLAYER)}
        assert rows == {"Joost": 3, "Karin Vos": 3, "Marta": 3}
        assert r.execute("SELECT count(DISTINCT player) FROM bids").fetchone() == (3,)
        assert [s.pair.other for s in merge_suggestions(r)] == ["Thursday club"]
        from gops_records.core.registry import game

        found, total = game("gops").part("games").find(r, GameFilter(players=("marta",)), None)
        assert total == 3 and all("Marta" in g.players for g in found)
        assert not any("Márta" in g.players for g in found)


def test_the_dashboards_shared_reader_shows_merged_names_on_every_cursor(db) -> None:
    con = connect(db)
    aliases.add_alias(con, "Thursday club", "Thursday Club")
    con.close()
    shared = SharedReader(db)
    try:
        for _ in range(2):  # each read is a cursor with a temporary schema of its own
            with shared.read() as cursor:
                assert _events(cursor) == {"Thursday Club": 3}
    finally:
        shared.close()


@pytest.mark.parametrize("alias, name, message", [
    ("Nobody", "Marta", "no stored player or event is named 'Nobody'"),
    ("Marta", "Marta", "are the same stored name"),
    ("Joost", "Thursday Club", "no stored player is named 'Thursday Club'"),  # one kind
    ("thursday club", "Joost", "'thursday club' matches 'Thursday Club', 'Thursday club'"),
])
def test_refused_aliases_say_why(db: Path, alias: str, name: str, message: str) -> None:
    con = connect(db)
    with pytest.raises(aliases.AliasRefused, match=message):
        aliases.add_alias(con, alias, name)
    assert aliases.aliases(con) == []
    con.close()


def test_cycles_and_chains_are_refused(db: Path) -> None:
    con = connect(db)
    aliases.add_alias(con, "Márta", "Marta")
    with pytest.raises(aliases.AliasRefused, match="would make a cycle"):
        aliases.add_alias(con, "Marta", "Márta")
    with pytest.raises(aliases.AliasRefused, match="is already an alias of 'Marta'"):
        aliases.add_alias(con, "Márta", "Joost")
    with pytest.raises(aliases.AliasRefused, match="has aliases of its own"):
        aliases.add_alias(con, "Marta", "Joost")
    with pytest.raises(aliases.AliasRefused, match="is itself an alias of 'Marta'"):
        aliases.add_alias(con, "Joost", "Márta")
    with pytest.raises(aliases.AliasRefused, match="no alias 'Joost' is stored"):
        aliases.remove_alias(con, "Joost")
    assert [(a.alias, a.name) for a in aliases.aliases(con)] == [("Márta", "Marta")]
    con.close()


def test_a_database_without_aliases_gets_no_view(db: Path) -> None:
    with reading(db) as r:
        assert r.execute("SELECT count(*) FROM information_schema.tables "
                         "WHERE table_catalog = 'temp'").fetchone() == (0,)
