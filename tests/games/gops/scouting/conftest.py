"""Databases for the scouting tests.

- ``club_db``: one hand-checked 13-card carry game (tests/conftest.py: Ann in seat A,
  Bob in seat B; Ann 45, Bob 46) plus a second game between Ann and Cat, so every
  situation column can be checked on paper.
- ``sim_db``: 300 games from the club simulator (seed 11) between roster players of the
  random, prize and prize-plus-one personalities, imported with the real importer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from gops_records.core.importer import import_paths
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.rules import RuleProfile, TieRule, play_game
from gops_records.games.gops.simulate import record_of, write_simulation

#: The hand-checked club game of tests/conftest.py: prizes, A's bids, B's bids.
CLUB_PRIZES = [8, 5, 13, 2, 12, 3, 10, 7, 1, 11, 4, 9, 6]
CLUB_A = [9, 7, 13, 1, 11, 2, 12, 10, 3, 8, 6, 5, 4]
CLUB_B = [9, 11, 12, 2, 13, 3, 10, 1, 4, 8, 5, 6, 7]


def club_text() -> str:
    profile = RuleProfile(tie_rule=TieRule.CARRY)
    first = play_game(profile, CLUB_PRIZES, list(zip(CLUB_A, CLUB_B, strict=True)))
    # Ann plays the same cards against Cat, who bids the prize every round
    second = play_game(profile, CLUB_PRIZES, list(zip(CLUB_A, CLUB_PRIZES, strict=True)))
    tags = {"Event": "Scout test", "Date": "2026.01.01"}
    return (write_game(record_of(first, dict(tags, Round="1", A="Ann", B="Bob"))) + "\n"
            + write_game(record_of(second, dict(tags, Round="2", A="Ann", B="Cat"))))


@pytest.fixture(scope="session")
def club_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("scout_club")
    (tmp / "club.gops").write_text(club_text(), encoding="utf-8")
    db = tmp / "club.duckdb"
    summary = import_paths([tmp / "club.gops"], db)
    assert summary.games_new == 2, summary.as_dict()
    return db


@pytest.fixture(scope="session")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("scout_sim")
    path = tmp / "sim.gops"
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, 300, 11, bots=["prize", "prize-plus-one", "random"])
    db = tmp / "sim.duckdb"
    summary = import_paths([path], db)
    assert summary.games_new == 300, summary.as_dict()
    return db


@pytest.fixture
def club_con(club_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(club_db), read_only=True)
    yield con
    con.close()


@pytest.fixture
def sim_con(sim_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(sim_db), read_only=True)
    yield con
    con.close()
