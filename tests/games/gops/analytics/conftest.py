"""A small club database built from hand-written records, imported through the real importer.

Six games of 3-4 cards whose every figure is counted by hand in the tests:

G1  Club 2026-01-08 M1  Ann-Bob       carry    4-6    tie in round 1, carried 3
G2  Club 2026-01-08 M1  Ann-Bob       carry    7-3    ties in rounds 1-2, Ann takes 4+2+1
G3  Club 2026-01-15 M2  Ann-Cid       discard  2-1    ties in rounds 3-4, 7 unclaimed
G4  Other 2026-02-01    Ann-Bob-Cid   carry    3-0-7  Ann and Bob tie on top in round 1
G5  Club 2026-01-15     Bob-Cid       carry    *      unfinished after 2 rounds
G6  Four 2026-02-05     Ann-Bob-Cid-Dee discard 0-0-3-2  3 cards, 1 unclaimed

plus one broken record in a second file, quarantined as a reject with two problems: Bob plays
his 2 twice (line 2, column 17) and bids a 9 in a 4-card game (line 2, column 26).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect

CLUB = """\
; hand-made club evenings for the analytics tests
[Event "Club"] [Site "Hall"] [Date "2026.01.08"] [Round "1"] [Match "M1"]
[A "Ann"] [B "Bob"] [Cards "4"] [TieRule "carry"]
1. 3 2 2 2. A 4 A 3. 4 A 3 4. 2 3 4
4-6

[Event "Club"] [Site "Hall"] [Date "2026.01.08"] [Round "2"] [Match "M1"]
[A "Ann"] [B "Bob"] [Cards "4"] [TieRule "carry"]
1. 4 4 4 2. 2 A A 3. A 3 2 4. 3 2 3
7-3

[Event "Club"] [Date "2026.01.15"] [Match "M2"]
[A "Ann"] [B "Cid"] [Cards "4"] [TieRule "discard"]
1. A A 2 2. 2 2 A 3. 3 3 3 4. 4 4 4
2-1

[Event "Other"] [Date "2026.02.01"]
[A "Ann"] [B "Bob"] [C "Cid"] [Cards "4"] [TieRule "carry"]
1. 2 4 4 A 2. 4 A 3 4 3. A 2 2 3 4. 3 3 A 2
3-0-7

[Event "Club"] [Date "2026.01.15"]
[A "Bob"] [B "Cid"] [Cards "4"] [TieRule "carry"]
1. 2 2 2 2. 3 4 A
*

[Event "Four"] [Date "2026.02.05"]
[A "Ann"] [B "Bob"] [C "Cid"] [D "Dee"] [Cards "3"] [TieRule "discard"]
1. A 3 3 A 2 2. 3 A 2 3 A 3. 2 2 A 2 3
0-0-3-2
"""

BROKEN = """\
[Event "Club"] [A "Ann"] [B "Bob"] [Cards "4"]
1. A 2 2 2. 2 A 2 3. 3 3 9
*
"""


@pytest.fixture(scope="session")
def club_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    (folder / "club.gops").write_text(CLUB, encoding="utf-8")
    (folder / "broken.gops").write_text(BROKEN, encoding="utf-8")
    db = folder / "club.duckdb"
    summary = import_paths([folder], db)
    assert (summary.games_new, summary.rejects_new) == (6, 1), summary.as_dict()
    return db


@pytest.fixture(scope="session")
def empty_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("empty") / "empty.duckdb"
    connect(db).close()  # creates the schema, no games
    return db


@pytest.fixture
def con(club_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    c = duckdb.connect(str(club_db), read_only=True)
    yield c
    c.close()


@pytest.fixture
def empty_con(empty_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    c = duckdb.connect(str(empty_db), read_only=True)
    yield c
    c.close()


@pytest.fixture
def game_ids(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """G1..G6 -> game_id, by the games' order in club.gops."""
    rows = con.execute("SELECT source_game, game_id FROM games "
                       "WHERE source LIKE '%club.gops'").fetchall()
    return {f"G{n}": gid for n, gid in rows}


#: One 3-card carry game without a tie, drawn 3-3.
CALM = '[Event "Calm"] [A "Ann"] [B "Bob"] [Cards "3"]\n1. A 2 A 2. 2 3 2 3. 3 A 3\n3-3\n'


@pytest.fixture(scope="session")
def calm_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("calm")
    (folder / "calm.gops").write_text(CALM, encoding="utf-8")
    db = folder / "calm.duckdb"
    import_paths([folder], db)
    return db


@pytest.fixture
def calm_con(calm_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    c = duckdb.connect(str(calm_db), read_only=True)
    yield c
    c.close()
