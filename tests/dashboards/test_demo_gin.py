"""`gops demo` imports the bundled Gin Rummy samples too: full hands, sheets, broken hands."""

from __future__ import annotations

from pathlib import Path

import duckdb
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.games.gin.checking import read_gin_source

ENV = {"COLUMNS": "250"}
SAMPLES = Path(__file__).resolve().parents[2] / "gops_records" / "samples"


def test_demo_stores_the_gin_samples(tmp_path):
    gin_files = sorted(SAMPLES.glob("*.gin"))
    assert {p.name for p in gin_files} >= {"quarantine-demo.gin",
                                           "2026-01-15-thursday-club-gin.gin"}
    db = tmp_path / "demo.duckdb"
    result = CliRunner().invoke(app, ["demo", "--db", str(db), "--no-dashboard"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "quarantine-demo.gin" in result.stdout
    con = duckdb.connect(str(db), read_only=True)
    try:
        by_kind = dict(con.execute(
            "SELECT recorded, count(*) FROM gin_hands GROUP BY recorded").fetchall())
        games = con.execute("SELECT count(*), count(*) FILTER (finished) FROM gin_games"
                            ).fetchone()
        rejects = con.execute("SELECT count(*) FROM rejects WHERE source LIKE '%.gin'"
                              ).fetchone()[0]
    finally:
        con.close()
    full = sum(len(b.records) for p in gin_files if p.name != "quarantine-demo.gin"
               for b in read_gin_source(p.read_text("utf-8"), str(p)))
    assert by_kind["full"] == full and by_kind["sheet"] > 0
    assert games == (24, 24)  # three Thursday evenings of 6 games, a Friday of 6 sheets
    assert rejects == 10  # one hand of each deliberate defect
