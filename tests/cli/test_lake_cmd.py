"""`gops lake build` and `--lake` on the read commands (the library is tests/core/lake):
each prints over a lake what it prints over a database imported from the same files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.samples import samples_folder

ENV = {"COLUMNS": "250"}


def gops(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("lake-cli")
    built = gops("lake", "build", str(samples_folder()), "--lake", str(root / "lake"),
                 "--workers", "2", "--json")
    assert built.exit_code == 0, built.output
    assert '"games_new": 434' in built.stdout and '"commits": [1]' in built.stdout
    assert gops("import", str(samples_folder()), "--db", str(root / "db.duckdb")
                ).exit_code == 0
    return root / "lake", root / "db.duckdb"


def test_unreachable_scheduler_is_a_plain_message(tmp_path):
    result = gops("lake", "build", str(samples_folder()), "--lake", str(tmp_path / "lake"),
                  "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2
    assert result.stderr.startswith("gops: error: cannot reach the Dask scheduler at "
                                    "tcp://127.0.0.1:9")
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [
    ("games",), ("games", "--game", "gin"), ("replay", "gaf0d2fbf"),
    ("export", "--format", "csv", "--out", "-"), ("scout", "Olivia Brown"),
    ("review", "gaf0d2fbf"), ("rejects",),
])
def test_read_command_over_the_lake_prints_what_it_prints_over_the_db(stores, command):
    lake, db = stores
    over_lake = gops(*command, "--lake", str(lake))
    over_db = gops(*command, "--db", str(db))
    assert over_lake.exit_code == 0, over_lake.output
    assert over_lake.stdout.count("\n") >= 3
    # (replay names the store it read: the lake's folder or the database file)
    assert over_lake.stdout.replace(str(lake), "STORE") == \
        over_db.stdout.replace(str(db), "STORE")


def test_a_lake_is_never_written_as_a_database(stores):
    lake, _ = stores
    written = gops("import", str(samples_folder()), "--lake", str(lake))
    assert written.exit_code != 0 and "is a Parquet lake" in written.stderr
