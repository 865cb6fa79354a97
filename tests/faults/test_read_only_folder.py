"""A database in a read-only folder: imports say so plainly, readers still read."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths

SAMPLES = Path(__file__).parents[2] / "gops_records" / "samples"
ENV = {"COLUMNS": "250", "GOPS_DB": ""}


def test_an_import_into_a_read_only_folder_is_a_plain_message(tmpfs, tmp_path: Path) -> None:
    db = tmpfs.path / "t.duckdb"
    import_paths([SAMPLES / "2026-01-13-gops-society.gops"], db)
    tmpfs.read_only()
    result = CliRunner().invoke(app, ["import", "--db", str(db), str(SAMPLES)], env=ENV)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("gops: error: ")
    assert "Read-only file system" in result.stderr
    assert "write-request" not in result.stderr  # the cleanup does not hide the real error
    assert "give --db a file in a folder you can write" in result.stderr
    # a read-only command still reads it
    out = tmp_path / "out.gops"
    exported = CliRunner().invoke(app, ["export", "--db", str(db), "--format", "gops",
                                        "--out", str(out)], env=ENV)
    assert exported.exit_code == 0, exported.output
    assert out.read_text().count("[Event ") > 50
