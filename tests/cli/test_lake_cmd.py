"""`gops lake build` and `--lake` on a read command (the library is tests/core/lake)."""

from __future__ import annotations

from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.samples import samples_folder

ENV = {"COLUMNS": "250"}


def test_unreachable_scheduler_is_a_plain_message(tmp_path):
    result = CliRunner().invoke(app, ["lake", "build", str(samples_folder()), "--lake",
                                      str(tmp_path / "lake"), "--scheduler",
                                      "tcp://127.0.0.1:9"], env=ENV)
    assert result.exit_code == 2
    assert result.stderr.startswith("gops: error: cannot reach the Dask scheduler at "
                                    "tcp://127.0.0.1:9")
    assert "Traceback" not in result.output


def test_build_then_games_over_the_lake(tmp_path):
    lake = tmp_path / "lake"
    result = CliRunner().invoke(app, ["lake", "build", str(samples_folder()), "--lake",
                                      str(lake), "--workers", "2", "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    assert '"games_new": ' in result.stdout
    db = tmp_path / "db.duckdb"
    assert CliRunner().invoke(app, ["import", str(samples_folder()), "--db", str(db)],
                              env=ENV).exit_code == 0
    over_lake = CliRunner().invoke(app, ["games", "--lake", str(lake)], env=ENV)
    over_db = CliRunner().invoke(app, ["games", "--db", str(db)], env=ENV)
    assert over_lake.exit_code == 0, over_lake.output
    assert over_lake.stdout == over_db.stdout and over_lake.stdout.count("\n") > 5
    written = CliRunner().invoke(app, ["import", str(samples_folder()), "--lake", str(lake)],
                                 env=ENV)
    assert written.exit_code != 0 and "is a Parquet lake" in written.stderr
