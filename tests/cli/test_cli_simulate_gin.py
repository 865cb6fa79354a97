"""`gops simulate --game gin`: .gin hands on stdout or in a file, a summary, clear errors."""

from __future__ import annotations

from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.games.gin.grouping import group_hands
from gops_records.games.gin.replay import read_hands

runner = CliRunner()
ENV = {"COLUMNS": "250"}


def run(*args: str):
    return runner.invoke(app, ["simulate", "--game", "gin", *args], env=ENV)


def test_writes_valid_gin_hands_and_a_summary():
    result = run("--games", "4", "--seed", "3")
    assert result.exit_code == 0, result.output
    reports = read_hands(result.stdout)
    assert reports and all(r.valid for r in reports)
    grouping = group_hands(reports)
    assert grouping.valid
    assert sum(g.score is not None for m in grouping.matches for g in m.games) == 4
    assert f"gops simulate: Gin Rummy, {len(reports)} hands, 4 finished games in" \
        in result.stderr
    assert "hands end: " in result.stderr and "runs circular; seed 3" in result.stderr
    assert "gops simulate" not in result.stdout


def test_same_seed_same_file_and_hands_and_runs(tmp_path):
    a, b = tmp_path / "a.gin", tmp_path / "b.gin"
    for path, jobs in ((a, "1"), (b, "2")):
        result = run("--hands", "30", "--seed", "5", "--runs", "ace-low", "--jobs", jobs,
                     "--out", str(path))
        assert result.exit_code == 0, result.output
    assert a.read_bytes() == b.read_bytes()
    reports = read_hands(a.read_text("utf-8"))
    assert len(reports) == 30 and {r.record.tag("Runs") for r in reports} == {"ace-low"}


def test_broken_hands_and_bots():
    result = run("-n", "2", "--seed", "1", "--broken", "3", "--bots", "knocker,gin-hunter")
    assert result.exit_code == 0, result.output
    reports = read_hands(result.stdout)
    assert sum(not r.valid for r in reports) == 3
    assert "+ 3 broken hands (" in result.stderr
    assert "knocker: " in result.stderr and "gin-hunter: " in result.stderr
    assert "random:" not in result.stderr


def test_usage_errors():
    result = run("--players", "3", "--cards", "8")
    assert result.exit_code == 2
    assert "--players, --cards are for Gops" in result.stderr
    result = runner.invoke(app, ["simulate", "--runs", "ace-low"], env=ENV)
    assert result.exit_code == 2 and "--runs is for Gin Rummy: add --game gin" in result.stderr
    result = run("--games", "3", "--hands", "9")
    assert result.exit_code == 2 and "not both" in result.stderr
    result = run("--bots", "wizard")
    assert result.exit_code == 2 and "unknown Gin Rummy bot 'wizard'" in result.stderr
    result = run("--start", "soon")
    assert result.exit_code == 2 and "--start" in result.stderr


def test_help_mentions_gin():
    result = runner.invoke(app, ["simulate", "--help"], env=ENV)
    assert "--game" in result.stdout and "--runs" in result.stdout
    assert "--hands" in result.stdout and "gops simulate --game gin" in result.stdout
