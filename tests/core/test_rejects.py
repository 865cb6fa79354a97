"""The quarantine: `gops rejects` lists, shows and re-checks rejected records; a record
fixed and imported, typed again right, or removed from its file is marked resolved in
``reject_resolutions``, and a resolution that stops holding is dropped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.rejects import (
    ResolvedHow,
    counts,
    find_reject,
    list_rejects,
    problem_text,
    recheck,
    record_lines,
)
from gops_records.core.store.db import connect, reading

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
#: A broken 3-card game: Ann bids her 3 again in round 2 (line 7 of the text).
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
#: The same game tagged so that its tags name it (players, Date, Round).
TAGGED = SMALL.replace("[Cards", '[Date "2026.11.26"]\n[Round "4"]\n[Cards')


def _cli(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def _recheck(db: Path, **kwargs):
    con = connect(db)
    try:
        return recheck(con, **kwargs)
    finally:
        con.close()


def _rejects(db: Path):
    with reading(db) as con:
        return list_rejects(con)


@pytest.fixture
def club(tmp_path: Path, monkeypatch) -> Path:
    """A folder with one file: a valid game, then the broken one (game 2, line 24)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club.gops").write_text(club_game(1) + "\n" + BROKEN)
    import_paths([Path("club.gops")], "t.duckdb")
    return tmp_path


def test_a_fixed_and_imported_record_is_resolved_fixed(club: Path) -> None:
    (reject,) = _rejects(Path("t.duckdb"))
    assert not reject.resolved and (reject.source, reject.source_game) == ("club.gops", 2)
    first = _recheck(Path("t.duckdb"))
    assert (first.checked, first.resolved, first.newly_resolved) == (1, 0, [])
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN.replace("3C 2S", "AC 2S"))
    assert _recheck(Path("t.duckdb")).notes[reject.reject_id] == (
        "game 2 of club.gops is valid now but not imported: gops import club.gops")
    imported = import_paths([Path("club.gops")], "t.duckdb")
    assert imported.resolved == {ResolvedHow.FIXED: 1}  # by the import itself (issue 24)
    done = _recheck(Path("t.duckdb"))
    assert done.newly_resolved == [] and done.resolved == 1  # the re-check agrees
    (after,) = _rejects(Path("t.duckdb"))
    with reading("t.duckdb") as con:
        (game_id,) = con.execute("SELECT game_id FROM games WHERE source_game = 2").fetchone()
        stored = con.execute("SELECT reject_id, how, game_id FROM reject_resolutions").fetchall()
        assert counts(con).records == 1 and counts(con).resolved == 1
    assert stored == [(reject.reject_id, "fixed", game_id)]
    assert after.resolution.how is ResolvedHow.FIXED and after.resolution.game_id == game_id
    # checking again keeps the mark and when it was first found
    _recheck(Path("t.duckdb"))
    assert _rejects(Path("t.duckdb"))[0].resolution.resolved_at == after.resolution.resolved_at


def test_a_resolution_that_stops_holding_is_dropped(club: Path) -> None:
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN.replace("3C 2S", "AC 2S"))
    import_paths([Path("club.gops")], "t.duckdb")
    assert _recheck(Path("t.duckdb")).resolved == 1
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN)  # broken again
    con = connect("t.duckdb")
    con.execute("DELETE FROM round_rows WHERE game_id IN (SELECT game_id FROM games WHERE "
                "source_game = 2); DELETE FROM game_players WHERE game_id IN (SELECT game_id "
                "FROM games WHERE source_game = 2); DELETE FROM games WHERE source_game = 2")
    con.close()
    again = _recheck(Path("t.duckdb"))
    assert again.resolved == 0 and len(again.reopened) == 1
    with reading("t.duckdb") as con:
        assert con.execute("SELECT count(*) FROM reject_resolutions").fetchone() == (0,)


def test_a_record_removed_from_its_file_is_resolved_removed(club: Path) -> None:
    (club / "club.gops").write_text(club_game(1))
    result = _recheck(Path("t.duckdb"))
    assert result.resolved == 1
    (reject,) = _rejects(Path("t.duckdb"))
    assert reject.resolution.how is ResolvedHow.REMOVED and reject.resolution.game_id is None
    assert reject.resolution.note == "club.gops no longer holds the record"
    # without reading files, nothing says it is gone
    assert _recheck(Path("t.duckdb"), read_files=False).resolved == 0


def test_a_record_still_broken_differently_stays_open(club: Path) -> None:
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN.replace("AD 2C", "AD 3C"))
    result = _recheck(Path("t.duckdb"))
    (reject,) = _rejects(Path("t.duckdb"))
    assert result.resolved == 0
    assert result.notes[reject.reject_id] == ("game 2 of club.gops was changed but is still "
                                              "broken: gops validate club.gops")


def test_the_same_game_typed_again_in_another_file_resolves_it(tmp_path: Path) -> None:
    (tmp_path / "a.gops").write_text(TAGGED.replace("2. 3D AC 2S", "2. 3D 3C 2S"))
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "a.gops"], db)
    (tmp_path / "a.gops").unlink()  # the file is gone: only the database can tell
    (tmp_path / "b.gops").write_text(club_game(2) + "\n" + TAGGED)
    import_paths([tmp_path / "b.gops"], db)
    assert _recheck(db).resolved == 1
    (reject,) = _rejects(db)
    assert reject.resolution.how is ResolvedHow.SAME_GAME
    with reading(db) as con:
        assert con.execute("SELECT source_game FROM games WHERE game_id = ?",
                           [reject.resolution.game_id]).fetchone() == (2,)


def test_untagged_games_of_the_same_players_do_not_resolve_each_other(tmp_path: Path) -> None:
    # no Date and Round: the players' other game is not taken for the fixed record
    (tmp_path / "a.gops").write_text(BROKEN)
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "a.gops"], db)
    (tmp_path / "b.gops").write_text(SMALL)
    import_paths([tmp_path / "b.gops"], db)
    assert _recheck(db, read_files=False).resolved == 0


# -- the record's lines, numbered as in its file ---------------------------------------------


def test_lines_of_a_record_after_a_comment_are_its_file_lines(tmp_path: Path) -> None:
    text = "{ tonight, table 2\n  a second line }\n" + BROKEN
    (tmp_path / "c.gops").write_text(text)
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "c.gops"], db)
    (reject,) = _rejects(db)
    assert reject.source_line == 3  # its first tag; its text starts at the comment
    lines = record_lines(reject)
    assert [line.number for line in lines] == list(range(1, 12))
    file_lines = text.splitlines()
    assert all(file_lines[line.number - 1] == line.text for line in lines)
    problem = reject.errors[0]
    assert problem.line == 9 and problem_text(reject, problem) == "2. 3D 3C 2S"


def test_lines_of_a_round_log_record_between_other_games_rows(tmp_path: Path) -> None:
    text = ("game,round,prize,bid_a,bid_b,cards\n1,1,2,3,1,3\n2,1,2,3,1,3\n1,2,3,3,2,3\n"
            "2,2,3,1,2,3\n1,3,1,2,3,3\n2,3,1,2,3,3\n")
    (tmp_path / "x.csv").write_text(text)
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "x.csv"], db)
    (reject,) = _rejects(db)
    lines = record_lines(reject)
    # the header is line 1, the rows 2 and 4 are known (its first row, a problem's row),
    # the last row's line cannot be known from the record alone
    assert [(line.number, line.text) for line in lines] == [
        (1, "game,round,prize,bid_a,bid_b,cards"), (2, "1,1,2,3,1,3"), (4, "1,2,3,3,2,3"),
        (None, "1,3,1,2,3,3")]
    assert problem_text(reject, reject.errors[0]) == "1,2,3,3,2,3"


# -- gops rejects ------------------------------------------------------------------------------


def test_gops_rejects_lists_shows_and_rechecks(club: Path) -> None:
    listed = _cli("rejects", "--db", "t.duckdb")
    assert listed.exit_code == 0, listed.output
    (reject,) = _rejects(Path("t.duckdb"))
    line = (club_game(1) + "\n").count("\n") + 7
    assert listed.stdout.splitlines() == [
        f"{reject.reject_id}  open      club.gops:{line}: card-not-in-hand: Ann (A) bids 3, "
        f"already spent in round 1 (line {line - 1}) (+1 more problem)",
        "1 quarantined record: 1 open, 0 resolved. gops rejects --show ID shows one; "
        "gops rejects --recheck finds the fixed ones"]
    shown = _cli("rejects", "--db", "t.duckdb", "--show", reject.reject_id[:6])
    assert shown.exit_code == 0, shown.output
    text = shown.stdout
    assert text.startswith(f"reject {reject.reject_id}: club.gops, game 2, line "
                           f"{reject.source_line} (quarantined by import 1)\nstatus: open\n")
    assert f"      {line:>5} | 2. 3D 3C 2S\n" in text
    assert re.search(r"^ {20}\^$", text, re.MULTILINE)  # under column 7: the 3C
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN.replace("3C 2S", "AC 2S"))
    import_paths([Path("club.gops")], "t.duckdb")  # resolves it (issue 24)
    again = _cli("rejects", "--db", "t.duckdb", "--recheck")
    assert again.exit_code == 0, again.output
    assert f"{reject.reject_id}  resolved  club.gops:" in again.stdout
    assert "fixed: game 2 of club.gops is now valid and stored (g" in again.stdout
    assert "1 open" not in again.stdout and "0 open, 1 resolved; re-checked: 0 newly " \
        "resolved, 0 reopened" in again.stdout
    assert _cli("rejects", "--db", "t.duckdb", "--open").stdout.startswith(
        "1 quarantined record: 0 open, 1 resolved (only the open ones listed)")


def test_gops_rejects_json_has_one_object_per_record(club: Path) -> None:
    (club / "more.csv").write_text("game,round,prize,bid_a,bid_b\n1,1,2,14,1\n")
    import_paths([Path("more.csv")], "t.duckdb")
    result = _cli("rejects", "--db", "t.duckdb", "--json")
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objs) == 2
    for obj in objs:
        assert {"source", "source_game", "source_line", "codes", "resolved"} <= set(obj)
        assert isinstance(obj["codes"], list) and obj["resolved"] is False
    by_source = {o["source"]: o for o in objs}
    assert by_source["more.csv"]["codes"] == ["syntax"]
    assert (by_source["club.gops"]["source_game"], by_source["club.gops"]["codes"]) == (
        2, ["card-not-in-hand", "result-unchecked"])
    one = json.loads(_cli("rejects", "--db", "t.duckdb", "--json", "--show",
                          by_source["more.csv"]["reject_id"]).stdout)
    assert one["raw_text"] == "game,round,prize,bid_a,bid_b\n1,1,2,14,1\n"
    assert one["lines"] == [{"line": 1, "text": "game,round,prize,bid_a,bid_b"},
                            {"line": 2, "text": "1,1,2,14,1"}]


def test_gops_rejects_usage_errors(club: Path) -> None:
    unknown = _cli("rejects", "--db", "t.duckdb", "--show", "ffff")
    assert unknown.exit_code == 2 and "no quarantined record has the id 'ffff'" in \
        unknown.stderr
    bad = _cli("rejects", "--db", "t.duckdb", "--show", "x!")
    assert bad.exit_code == 2 and "is not a reject id" in bad.stderr
    missing = _cli("rejects", "--db", "none.duckdb", "--recheck")
    assert missing.exit_code == 2 and \
        f"no database at {Path('none.duckdb').absolute()}" in missing.stderr
    assert not Path("none.duckdb").exists()
    with reading("t.duckdb") as con, pytest.raises(LookupError):
        find_reject(con, "0000")
