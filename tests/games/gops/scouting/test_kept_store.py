"""Kept scouting reports (docs/scouting.md, "Kept reports"): an import computes none; the
first ask computes and keeps one, equal to the live report; it is read until an import adds
games of that player.

The threshold of :data:`~gops_records.games.gops.scouting.kept_store.KEEP_FROM_GAMES` is lowered
here
to a few games (the simulated players have dozens), except where the test is the threshold.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from polars.testing import assert_frame_equal

import gops_records.games.gops.scouting as scouting
from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect, reading
from gops_records.games.gops.scouting import ScoutError, kept_store, predicted_bid_by_prize, scout
from gops_records.games.gops.scouting.kept import VERSION, from_record, to_record
from gops_records.games.gops.scouting.kept_store import (
    asked,
    games_stamp,
    keep,
    kept_report,
    report_for,
)
from gops_records.games.gops.simulate import write_simulation


def _records(path: Path, games: int, seed: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, bots=["prize", "prize-plus-one", "random"])
    return path


def _kept(db: Path) -> dict[str, tuple]:
    with reading(db) as con:
        return {r[0]: r[1:] for r in con.execute(
            "SELECT player, import_id, version, seed, simulations, games, report "
            "FROM scout_reports ORDER BY player").fetchall()}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The players whose report was computed (every computation calls ``scout``)."""
    seen: list[str] = []

    def counting(con, player, *args, **kwargs):
        seen.append(player)
        return scout(con, player, *args, **kwargs)

    monkeypatch.setattr(scouting, "scout", counting)  # what kept_store calls
    return seen


@pytest.fixture
def low(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_store, "KEEP_FROM_GAMES", 2)


@pytest.fixture
def db(tmp_path: Path, low: None) -> Path:
    db = tmp_path / "t.duckdb"
    summary = import_paths([_records(tmp_path / "a.gops", 120, 5)], db)
    assert summary.games_new == 120
    return db


def _players(db: Path) -> list[str]:
    with reading(db) as con:
        return [r[0] for r in con.execute(
            "SELECT DISTINCT player FROM game_players ORDER BY 1").fetchall()]


def _ask(db: Path, player: str, **kwargs):
    """What `gops scout` does: read or compute, then keep (True when it kept)."""
    with reading(db) as con:
        report, row = asked(con, player, **kwargs)
    return report, (row is not None and keep(db, row))


def _assert_same(kept, live) -> None:
    assert kept == live  # every value but the model, the situations and the chart data
    assert kept.as_json() == live.as_json() and kept.text() == live.text()
    assert_frame_equal(kept.predicted, predicted_bid_by_prize(live))


def test_an_import_computes_no_report(tmp_path: Path, low: None, calls: list[str]) -> None:
    db = tmp_path / "t.duckdb"
    summary = import_paths([_records(tmp_path / "a.gops", 40, 2)], db)
    assert summary.games_new == 40 and calls == [] and _kept(db) == {}
    assert summary.scout_reports == 0 and summary.scout_seconds == 0.0
    assert summary.as_dict()["scout_reports"] == 0 and summary.as_dict()["scout_seconds"] == 0


def test_the_first_ask_computes_and_keeps_the_second_reads_it(db: Path,
                                                             calls: list[str]) -> None:
    player = _players(db)[0]
    first, kept_now = _ask(db, player)
    assert calls == [player] and kept_now
    with reading(db) as con:
        live = scout(con, player)
        _assert_same(kept_report(con, player), live)  # the kept JSON is the live report
        assert kept_report(con, player).as_json() == first.as_json()
    row = _kept(db)[player]
    assert row[:5] == (1, VERSION, 0, live.counter.counter.games, live.games)
    calls.clear()
    again, kept_again = _ask(db, player)
    assert calls == [] and not kept_again  # read, not computed
    assert again.as_json() == first.as_json() and again == first


def test_an_import_of_the_players_games_makes_the_kept_report_unused(
        db: Path, tmp_path: Path, calls: list[str]) -> None:
    player, other = _players(db)[:2]
    _ask(db, player), _ask(db, other)
    more = tmp_path / "more.gops"  # one more game of the first player, against a newcomer
    text = _records(tmp_path / "x.gops", 1, 99).read_text(encoding="utf-8")
    names = [line.split('"')[1] for line in text.splitlines()
             if line.startswith(("[A ", "[B "))]
    more.write_text(text.replace(f'"{names[0]}"', f'"{player}"')
                    .replace(f'"{names[1]}"', '"Newcomer"'), encoding="utf-8")
    calls.clear()
    assert import_paths([more], db).games_new == 1 and calls == []
    with reading(db) as con:
        assert games_stamp(con, player) == 2 and games_stamp(con, other) == 1
        assert kept_report(con, player) is None  # its games changed: not used
        assert kept_report(con, other) is not None  # an import of others' games: still used
    report, kept_now = _ask(db, player)
    assert calls == [player] and kept_now and report.games == _kept(db)[player][4]
    assert _kept(db)[player][0] == 2
    with reading(db) as con:
        _assert_same(kept_report(con, player), scout(con, player))
    calls.clear()
    _ask(db, other)
    assert calls == []


def test_a_report_on_too_few_games_is_computed_and_not_kept(tmp_path: Path,
                                                            calls: list[str]) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([_records(tmp_path / "a.gops", 60, 3)], db)
    player = _players(db)[0]
    report, kept_now = _ask(db, player)
    assert not kept_now and _kept(db) == {} and calls == [player]
    with reading(db) as con:
        assert report == scout(con, player)


def test_only_the_kept_parameters_read_the_kept_row(db: Path) -> None:
    """A row altered by hand shows through the kept parameters, and nowhere else; other
    parameters are computed and not kept."""
    with reading(db) as con:
        player, opponent = con.execute(
            "SELECT a.player, b.player FROM game_players a JOIN game_players b USING "
            "(game_id) WHERE a.seat = 'A' AND b.seat = 'B' LIMIT 1").fetchall()[0]
    _ask(db, player)
    con = connect(db)
    try:
        record = json.loads(con.execute("SELECT report FROM scout_reports WHERE player = ?",
                                        [player]).fetchall()[0][0])
        record["model_description"] = "altered"
        con.execute("UPDATE scout_reports SET report = ? WHERE player = ?",
                    [json.dumps(record), player])
    finally:
        con.close()
    with reading(db) as con:
        assert report_for(con, player).model_description == "altered"
        assert report_for(con, player, chart_data=False).predicted is None
        for kwargs in ({"seed": 1}, {"vs": opponent}, {"simulations": 50}):
            report, row = asked(con, player, **kwargs)
            assert report.model_description != "altered" and row is None


def test_a_report_kept_by_another_version_is_not_shown(db: Path) -> None:
    player = _players(db)[0]
    _ask(db, player)
    con = connect(db)
    try:
        con.execute("UPDATE scout_reports SET version = '0.0.1/1'")
    finally:
        con.close()
    with reading(db) as con:
        assert kept_report(con, player) is None
    _ask(db, player)
    assert _kept(db)[player][1] == VERSION and len(_kept(db)) == 1  # replaced, not added


def test_keeping_never_fails_nor_waits_when_the_file_is_held(db: Path,
                                                             calls: list[str]) -> None:
    player = _players(db)[0]
    with reading(db) as con:
        _, row = asked(con, player)
    holder = subprocess.Popen(  # another process (an import, say) holds the file
        [sys.executable, "-c", "import sys, duckdb; con = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        assert keep(db, row, timeout=0.05) is False
        assert time.monotonic() - started < 2
    finally:
        holder.communicate("")
    assert _kept(db) == {}
    assert keep(db, row) is True and player in _kept(db)


def test_keeping_never_upgrades_an_older_file(db: Path) -> None:
    player = _players(db)[0]
    with reading(db) as con:
        _, row = asked(con, player)
    con = connect(db)
    try:
        latest = con.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
        con.execute("DELETE FROM schema_migrations WHERE version = ?", [latest])
    finally:
        con.close()
    assert keep(db, row) is False
    raw = duckdb.connect(str(db), read_only=True)
    try:
        found = raw.execute("SELECT max(version) FROM schema_migrations").fetchall()
        assert found == [(latest - 1,)]
    finally:
        raw.close()


def test_the_upgrade_to_schema_10_computes_no_report(db: Path, calls: list[str]) -> None:
    con = connect(db)
    try:  # back to schema 9
        con.execute("DROP TABLE scout_reports")
        for column in ("player_a", "player_b", "player_c", "player_d", "carried_pools"):
            con.execute(f"ALTER TABLE games DROP COLUMN {column}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 10")
    finally:
        con.close()
    connect(db).close()  # a read-write open migrates
    assert _kept(db) == {} and calls == []


def test_a_record_round_trips_exactly(db: Path) -> None:
    with reading(db) as con:
        live = scout(con, _players(db)[0])
    again = from_record(to_record(live))
    _assert_same(again, live)
    assert again.counter.fold_exploits == live.counter.fold_exploits
    assert [h.p_value for h in again.habits] == [h.p_value for h in live.habits]
    with pytest.raises(ValueError, match="format"):
        from_record(json.dumps({"format": 99}))


def test_an_unknown_player_still_raises_the_scout_error(db: Path) -> None:
    with reading(db) as con, pytest.raises(ScoutError, match="did you mean|no recorded"):
        report_for(con, "Nobody At All")
