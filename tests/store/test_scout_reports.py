"""Kept scouting reports (schema 10): computed at import, equal to the live report.

The threshold of :data:`~gops_records.store.scout_reports.KEEP_FROM_GAMES` is lowered
here to a few games (the simulated players have dozens), except where the test is the
threshold itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from gops_records.importer import import_paths
from gops_records.scouting import ScoutError, predicted_bid_by_prize, scout
from gops_records.scouting.kept import VERSION, from_record, to_record
from gops_records.simulate import write_simulation
from gops_records.store import scout_reports
from gops_records.store.db import connect, reading
from gops_records.store.scout_reports import kept_report, report_for


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
def low(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scout_reports, "KEEP_FROM_GAMES", 2)


@pytest.fixture
def db(tmp_path: Path, low: None) -> Path:
    db = tmp_path / "t.duckdb"
    summary = import_paths([_records(tmp_path / "a.gops", 120, 5)], db)
    assert summary.games_new == 120
    return db


def _assert_same(kept, live) -> None:
    assert kept == live  # every value but the model, the situations and the chart data
    assert kept.as_json() == live.as_json() and kept.text() == live.text()
    assert_frame_equal(kept.predicted, predicted_bid_by_prize(live))


def test_an_import_keeps_each_players_report_equal_to_the_live_one(db: Path) -> None:
    kept = _kept(db)
    with reading(db) as con:
        players = [r[0] for r in con.execute(
            "SELECT DISTINCT player FROM game_players ORDER BY 1").fetchall()]
        assert list(kept) == players and len(players) > 3
        for player in players:
            live = scout(con, player)
            _assert_same(kept_report(con, player), live)
            assert kept[player][:5] == (1, VERSION, 0, live.counter.counter.games, live.games)


def test_the_import_summary_counts_the_reports(tmp_path: Path, low: None) -> None:
    summary = import_paths([_records(tmp_path / "a.gops", 40, 2)], tmp_path / "t.duckdb")
    assert summary.scout_reports == len(_kept(tmp_path / "t.duckdb")) > 0
    assert 0 < summary.scout_seconds < summary.seconds
    assert summary.as_dict()["scout_reports"] == summary.scout_reports


def test_a_later_import_refreshes_only_the_players_it_adds_games_of(db: Path,
                                                                    tmp_path: Path) -> None:
    before = _kept(db)
    with reading(db) as con:
        player = con.execute("SELECT player FROM game_players ORDER BY player LIMIT 1"
                             ).fetchall()[0][0]
    # one more game of the first player, against a newcomer
    more = tmp_path / "more.gops"
    text = _records(tmp_path / "x.gops", 1, 99).read_text(encoding="utf-8")
    names = [line.split('"')[1] for line in text.splitlines()
             if line.startswith(("[A ", "[B "))]
    more.write_text(text.replace(f'"{names[0]}"', f'"{player}"')
                    .replace(f'"{names[1]}"', '"Newcomer"'), encoding="utf-8")
    summary = import_paths([more], db)
    assert summary.games_new == 1
    after = _kept(db)
    changed = {p for p in after if after[p] != before.get(p)}
    assert changed == {player}  # the newcomer has 1 game: too few to scout
    assert after[player][0] == 2 and after[player][4] == before[player][4] + 1
    with reading(db) as con:
        _assert_same(kept_report(con, player), scout(con, player))


def test_importing_the_same_games_again_computes_nothing(db: Path, tmp_path: Path) -> None:
    before = _kept(db)
    summary = import_paths([tmp_path / "a.gops"], db, reparse=True)
    assert summary.games_new == 0 and summary.scout_reports == 0
    assert _kept(db) == before


def test_players_with_fewer_games_than_the_threshold_keep_none(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    summary = import_paths([_records(tmp_path / "a.gops", 60, 3)], db)
    assert summary.scout_reports == 0 and _kept(db) == {}
    with reading(db) as con:  # and the report is computed as before
        player = con.execute("SELECT player FROM game_players LIMIT 1").fetchall()[0][0]
        assert kept_report(con, player) is None
        assert report_for(con, player) == scout(con, player)


def test_the_kept_report_is_what_report_for_reads(db: Path) -> None:
    """Only the kept parameters read the kept row: a row altered by hand shows through
    them, and nowhere else."""
    with reading(db) as con:
        player, opponent = con.execute(
            "SELECT a.player, b.player FROM game_players a JOIN game_players b USING "
            "(game_id) WHERE a.seat = 'A' AND b.seat = 'B' LIMIT 1").fetchall()[0]
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
        assert report_for(con, player, seed=1).model_description != "altered"
        assert report_for(con, player, vs=opponent).model_description != "altered"
        assert report_for(con, player, simulations=50).model_description != "altered"


def test_a_report_kept_by_another_version_is_not_shown_and_is_refreshed(
        db: Path, tmp_path: Path) -> None:
    con = connect(db)
    try:
        con.execute("UPDATE scout_reports SET version = '0.0.1/1'")
    finally:
        con.close()
    with reading(db) as con:
        player = con.execute("SELECT player FROM scout_reports LIMIT 1").fetchall()[0][0]
        assert kept_report(con, player) is None
    # an import of a game of none of them still refreshes every one of them
    other = _records(tmp_path / "o.gops", 3, 8).read_text(encoding="utf-8")
    for seat, name in (("A", "Zed One"), ("B", "Zed Two")):
        other = "\n".join(f'[{seat} "{name}"]' if line.startswith(f"[{seat} ") else line
                          for line in other.splitlines())
    (tmp_path / "o.gops").write_text(other, encoding="utf-8")
    summary = import_paths([tmp_path / "o.gops"], db)
    assert summary.games_new == 3
    kept = _kept(db)
    assert {row[1] for row in kept.values()} == {VERSION}
    assert {"Zed One", "Zed Two"} <= set(kept)  # 3 games each: above the lowered threshold


def test_the_upgrade_to_schema_10_fills_the_reports(db: Path, tmp_path: Path) -> None:
    expected = _kept(db)
    con = connect(db)
    try:  # back to schema 9
        con.execute("DROP TABLE scout_reports")
        for column in ("player_a", "player_b", "player_c", "player_d", "carried_pools"):
            con.execute(f"ALTER TABLE games DROP COLUMN {column}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 10")
    finally:
        con.close()
    connect(db).close()  # a read-write open migrates, filling the reports
    assert _kept(db) == expected


def test_a_record_round_trips_exactly(db: Path) -> None:
    with reading(db) as con:
        player = con.execute("SELECT player FROM scout_reports LIMIT 1").fetchall()[0][0]
        live = scout(con, player)
    again = from_record(to_record(live))
    _assert_same(again, live)
    assert again.counter.fold_exploits == live.counter.fold_exploits
    assert [h.p_value for h in again.habits] == [h.p_value for h in live.habits]
    with pytest.raises(ValueError, match="format"):
        from_record(json.dumps({"format": 99}))


def test_an_unknown_player_still_raises_the_scout_error(db: Path) -> None:
    with reading(db) as con, pytest.raises(ScoutError, match="did you mean|no recorded"):
        report_for(con, "Nobody At All")
