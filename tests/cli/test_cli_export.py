"""`gops export`: .gops, CSV and Parquet, filters, and export-then-import round trips."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from core.store.gamefiles import SMALL, club_game
from paths import ROOT
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.export import export_games
from gops_records.core.game_refs import game_ref
from gops_records.core.games_query import GameFilter
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.export import iter_records
from gops_records.games.gops.reading import iter_games

ENV = {"COLUMNS": "250", "GOPS_DB": ""}

COMMENTED = club_game(5, event="Thursday club", extra_tags='[Date "2026.11.26"]\n') \
    .replace("1. 8D 9C 9S", "1. 8D 9C 9S {tie: the 8 stays}") \
    .replace("2. 5D 7C JS", "2. 5D 7C JS {Bruno takes\n  8 + 5 }") \
    .replace("3. KD KC QS", "3. KD KC QS ; a } in a comment")
THREE = """[Event "Thursday club"]
[Date "2026.11.??"]
[A "Ann"] [B "Bob"] [C "Cy"]
[Cards "5"] [TieRule "discard"] [PrizeOrder "ascending"]
1. AD 5C 5S AH
2. 2D AC 2S 5H
3. 3D 4C 4S 2H
4. 4D 2C 3S 4H
5. 5D 3C AS 3H
0-0-6
"""
UNFINISHED = '[Event "Friday"]\n[Date "2026.11.27"]\n[A "Alice"]\n[B "Dora"]\n' \
             "1. KD KC AS\n2. QD AC QS\n*\n"
PHONE = "2d 3c as 3d ac 2s ad 2c 3s *\n"  # no tags: a 13-card game, 3 rounds played
LOG = ("game,round,prize,bid_a,bid_b,event,event_round,date,cards\n"
       "7,1,3,3,1,Saturday,4,2026-11-28,3\n7,2,1,1,2,Saturday,4,2026-11-28,3\n"
       "7,3,2,2,3,Saturday,4,2026-11-28,3\n")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "evening.gops").write_text(
        "\n".join([club_game(1, event="Thursday club", extra_tags='[Date "2026.11.26"]\n'),
                   COMMENTED, SMALL.replace("[Cards", '[Date "2026.12.03"]\n[Cards'), THREE,
                   UNFINISHED, PHONE]))
    (folder / "log.csv").write_text(LOG)
    path = tmp_path / "src.duckdb"
    summary = import_paths([folder], path)
    assert (summary.games_new, summary.games_rejected) == (7, 0)
    return path


def content(db: Path, drop_tags: tuple[str, ...] = ()) -> dict[str, list]:
    """Every table's rows without where they came from (import, file, position)."""
    with reading(db) as con:
        games = con.execute("SELECT * EXCLUDE (import_id, source, source_game, source_line, "
                            "tags), map_from_entries(tags) FROM games ORDER BY game_id").fetchall()
        out = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
               for t in ("game_players", "rounds", "bids")}
    out["games"] = [row[:-1] + ({k: v for k, v in row[-1].items() if k not in drop_tags},)
                    for row in games]
    return out


def _export(db: Path, *args: str | Path):
    return CliRunner().invoke(app, ["export", "--db", str(db), *map(str, args)], env=ENV)


def test_gops_export_then_import_reproduces_every_game(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "all.gops"
    result = _export(db, "--format", "gops", "--out", out)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"exported 7 games (42 rounds) as gops to {out}"
    assert not list(out.parent.glob("*.tmp"))
    again = tmp_path / "again.duckdb"
    summary = import_paths([out], again)
    assert (summary.games_new, summary.games_rejected) == (7, 0)
    assert content(again) == content(db)  # same ids, tags, rounds, comments, bids, scores


def test_gops_export_is_canonical_text(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "one.gops"
    _export(db, "-f", "gops", "-o", out, "--event", "Friday")
    assert out.read_text() == ('[Event "Friday"]\n[Date "2026.11.27"]\n[A "Alice"]\n'
                               '[B "Dora"]\n\n1. K♦ K♣ A♠\n2. Q♦ A♣ Q♠\n*\n')


def test_comments_survive_the_gops_export(db: Path) -> None:
    with reading(db) as con:
        (record,) = [r for r in iter_records(con) if r.tags.get("Round") == "5"]
    assert [r.comment for r in record.rounds[:4]] == [
        "tie: the 8 stays", "Bruno takes\n  8 + 5", "a } in a comment", None]
    assert record.result == (45, 46)


def test_csv_export_has_the_import_columns_and_round_trips(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.csv"
    result = _export(db, "--format", "csv", "--out", out)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert lines[0] == ("game,game_ref,round,prize,bid_a,bid_b,bid_c,bid_d,player_a,player_b,"
                        "player_c,player_d,event,site,date,event_round,match,best_of,tie_rule,cards,"
                        "prize_order,bid_cards,open_prizes,revealed,comment")
    assert len(lines) == 1 + 42 + 1  # a header, 13+13+3+5+2+3+3 rounds, a comment's line break
    friday = [line for line in lines if ",Friday," in line]
    assert [line.split(",", 2)[2] for line in friday] == [
        "1,13,13,1,,,Alice,Dora,,,Friday,,2026.11.27,,,,,,,,,,",
        "2,12,1,12,,,Alice,Dora,,,Friday,,2026.11.27,,,,,,,,,,"]
    # the spreadsheet-safe reference: g and the id's first 8 hex digits, never all digits
    game, ref = friday[0].split(",")[:2]
    assert ref == game_ref(int(game)) == f"g{int(game):016x}"[:9] and len(game) >= 18
    again = tmp_path / "again.duckdb"
    summary = import_paths([out], again)
    assert (summary.games_new, summary.games_rejected) == (7, 0)
    # CSV has no Result column: the tags lose Result, nothing else changes (ids included)
    assert content(again, drop_tags=("Result",)) == content(db, drop_tags=("Result",))


def test_a_tag_without_a_csv_column_changes_the_id_on_csv_reimport(tmp_path: Path) -> None:
    (tmp_path / "g.gops").write_text(SMALL.replace("[Cards", '[Opening "fast"]\n[Cards'))
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "g.gops"], db)
    export_games(db, tmp_path / "g.csv", "csv")
    export_games(db, tmp_path / "back.gops", "gops")
    import_paths([tmp_path / "g.csv", tmp_path / "back.gops"], tmp_path / "u.duckdb")
    with reading(tmp_path / "u.duckdb") as con:
        rows = con.execute("SELECT map_from_entries(tags) FROM games ORDER BY source").fetchall()
    assert rows == [({"Event": "Club", "A": "Ann", "B": "Bob", "Opening": "fast",
                      "Cards": "3"},), ({"A": "Ann", "B": "Bob", "Event": "Club",
                                         "Cards": "3"},)]


def _exported_rounds(db: Path, tmp_path: Path, *filters: str) -> list[str]:
    out = tmp_path / "f.gops"
    result = _export(db, "-f", "gops", "-o", out, *filters)
    assert result.exit_code == 0, result.output
    return [f"{r.tags.get('Event', '-')}/{r.tags.get('Round', '-')}"
            for r in iter_games(out.read_text())]


def test_filters(db: Path, tmp_path: Path) -> None:
    assert _exported_rounds(db, tmp_path, "--player", "Alice") == [
        "Thursday club/1", "Thursday club/5", "Friday/-"]
    assert _exported_rounds(db, tmp_path, "--player", "Bob", "--player", "Dora") == [
        "Club/-", "Thursday club/-", "Friday/-"]
    assert _exported_rounds(db, tmp_path, "--event", "Saturday", "--event", "Club") == [
        "Club/-", "Saturday/4"]
    # the 3-player game's date is 2026.11.??: a date filter leaves it out
    assert _exported_rounds(db, tmp_path, "--date-from", "2026-11-27") == [
        "Club/-", "Friday/-", "Saturday/4"]
    assert _exported_rounds(db, tmp_path, "--date-from", "2026-11-26", "--date-to",
                            "2026.11.27") == ["Thursday club/1", "Thursday club/5", "Friday/-"]
    assert _exported_rounds(db, tmp_path, "--event", "Thursday club", "--player", "Cy") == [
        "Thursday club/-"]
    assert _exported_rounds(db, tmp_path, "--from", "2026-11-28", "--to", "2026-11-28") == [
        "Saturday/4"]


def test_an_unknown_player_is_an_error_with_close_names(db: Path, tmp_path: Path) -> None:
    typed = _export(db, "-f", "gops", "-o", tmp_path / "a.gops", "--player", "ALICE")
    assert typed.exit_code == 0, typed.output  # names match as people type them
    assert '"Alice"' in (tmp_path / "a.gops").read_text()  # and keep their stored spelling
    typo = _export(db, "-f", "gops", "-o", tmp_path / "x.gops", "--player", "Alcie")
    assert typo.exit_code == 2
    assert "no stored player 'Alcie'; did you mean 'Alice'?" in typo.stderr
    nobody = _export(db, "-f", "gops", "-o", tmp_path / "x.gops", "--player", "Nobody")
    assert nobody.exit_code == 2 and "players are recorded" in nobody.stderr
    assert not (tmp_path / "x.gops").exists()


@pytest.mark.parametrize("fmt", ["gops", "csv"])
def test_out_dash_writes_to_stdout_and_the_summary_to_stderr(db: Path, tmp_path: Path,
                                                             monkeypatch, fmt: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = _export(db, "-f", fmt, "--out", "-", "--event", "Saturday")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "-").exists()
    assert result.stderr.strip() == f"exported 1 game (3 rounds) as {fmt} to stdout"
    (tmp_path / f"back.{fmt}").write_text(result.stdout)
    summary = import_paths([tmp_path / f"back.{fmt}"], tmp_path / "back.duckdb")
    assert (summary.games_new, summary.games_rejected) == (1, 0)
    parquet = _export(db, "-f", "parquet", "--out", "-")
    assert parquet.exit_code == 2 and "not to stdout" in parquet.stderr


def test_parquet_writes_one_file_per_table(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pq"
    result = _export(db, "-f", "parquet", "-o", out, "--player", "Alice", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"format": "parquet", "out": str(out), "games": 3,
                                         "rounds": 28}
    assert sorted(p.name for p in out.iterdir()) == [
        "bids.parquet", "game_players.parquet", "games.parquet", "rounds.parquet"]
    games = pl.read_parquet(out / "games.parquet")
    with reading(db) as con:
        expected = con.sql("SELECT * FROM games WHERE game_id IN (SELECT game_id FROM "
                           "game_players WHERE player = 'Alice') ORDER BY source_game").pl()
    assert games.columns == expected.columns
    assert games.drop("tags").equals(expected.drop("tags"))
    assert pl.read_parquet(out / "bids.parquet").height == 2 * 28
    assert pl.read_parquet(out / "rounds.parquet")["pool_cards"].dtype == pl.List(pl.Int8)


def test_library_filter_sql_matches_dates_exactly(db: Path, tmp_path: Path) -> None:
    one_day = GameFilter(date_from=date(2026, 11, 28), date_to=date(2026, 11, 28))
    summary = export_games(db, tmp_path / "d.csv", "csv", one_day)
    assert (summary.games, summary.rounds) == (1, 3)


def test_usage_errors_exit_2(db: Path, tmp_path: Path) -> None:
    bad_date = _export(db, "-f", "csv", "-o", tmp_path / "x.csv", "--date-from", "26/11/2026")
    assert bad_date.exit_code == 2
    assert "gops: error: --from '26/11/2026' is not a date like 2026-11-26" in \
        bad_date.stderr
    reversed_range = _export(db, "-f", "csv", "-o", tmp_path / "x.csv", "--date-from",
                             "2026-12-01", "--date-to", "2026-11-01")
    assert reversed_range.exit_code == 2 and "is after --to" in reversed_range.stderr
    folder = _export(db, "-f", "gops", "-o", tmp_path)
    assert folder.exit_code == 2 and "is a folder" in folder.stderr
    missing = _export(tmp_path / "none.duckdb", "-f", "gops", "-o", tmp_path / "x.gops")
    assert missing.exit_code == 2 and "no database at" in missing.stderr
    assert not (tmp_path / "none.duckdb").exists() and not (tmp_path / "x.gops").exists()
    unknown = _export(db, "-f", "xml", "-o", tmp_path / "x.xml")
    assert unknown.exit_code == 2


def test_simulated_club_evenings_round_trip_in_both_formats(tmp_path: Path) -> None:
    runner = CliRunner()
    for args in (["--games", "150", "--seed", "5", "--broken", "4"],
                 ["--games", "60", "--seed", "6", "--players", "3", "--tie-rule", "discard",
                  "--cards", "7"]):
        result = runner.invoke(app, ["simulate", *args, "--out",
                                     str(tmp_path / f"sim{args[3]}.gops")], env=ENV)
        assert result.exit_code == 0, result.output
    db = tmp_path / "sim.duckdb"
    summary = import_paths([tmp_path / "sim5.gops", tmp_path / "sim6.gops"], db)
    assert (summary.games_new, summary.games_rejected) == (210, 4)
    for fmt in ("gops", "csv"):
        export_games(db, tmp_path / f"out.{fmt}", fmt)
        again = tmp_path / f"{fmt}.duckdb"
        assert import_paths([tmp_path / f"out.{fmt}"], again).games_new == 210
        assert content(again, ("Result",)) == content(db, ("Result",)), fmt


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(app, ["export", "--help"], env=ENV)
    assert result.exit_code == 0 and "Example:" in result.stdout


def test_a_db_that_is_not_a_database_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database")
    result = _export(tmp_path / "notes.txt", "-f", "csv", "-o", tmp_path / "x.csv")
    assert result.exit_code == 2
    assert "is not a gops database (not a DuckDB file)" in result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "x.csv").exists()


SAMPLES = ROOT / "gops_records" / "samples"


def test_the_bundled_samples_come_back_from_gops_and_csv(tmp_path: Path) -> None:
    """Export then import into a fresh database gives back the store: every game, round
    and bid with the same ids (CSV: every tag but Result, which it has no column for)."""
    first = tmp_path / "first.duckdb"
    stored = import_paths(sorted(SAMPLES.glob("*.gops")), first)
    assert stored.games_new > 100 and stored.games_rejected > 0  # quarantine-demo.gops
    for fmt in ("gops", "csv"):
        out = tmp_path / f"all.{fmt}"
        assert export_games(first, out, fmt).games == stored.games_new
        again = tmp_path / f"{fmt}.duckdb"
        summary = import_paths([out], again)
        assert (summary.games_new, summary.games_rejected) == (stored.games_new, 0), fmt
        drop = ("Result",) if fmt == "csv" else ()
        assert content(again, drop) == content(first, drop), fmt
