"""Fixtures of the dashboard tests: the hand-written club database (alone, and with
simulated games for the Scout page, with a game of hostile names), an empty one."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_fixture import build_club_db, build_hostile_db, build_scout_db

from gops_records.core.importer import import_paths


@pytest.fixture(scope="session")
def club_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_club_db(tmp_path_factory.mktemp("club"))


@pytest.fixture(scope="session")
def scout_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_scout_db(tmp_path_factory.mktemp("scout"))


@pytest.fixture(scope="session")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_hostile_db(tmp_path_factory.mktemp("hostile"))


@pytest.fixture
def empty_db(tmp_path: Path) -> Path:
    """A database with the schema and no games (an import of nothing)."""
    db = tmp_path / "empty.duckdb"
    (tmp_path / "none").mkdir()
    import_paths([tmp_path / "none"], db)
    return db
