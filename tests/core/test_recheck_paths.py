"""`gops rejects --recheck` reads each reject's file where it was imported from (issue 21).

A source is its absolute path, kept at import with the SHA-256 of its bytes: a file of the
same name in the folder the command runs from is never looked at, a missing file is no
resolution, and a reject from an import that kept no paths is unverifiable, not resolved.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.rejects import ResolvedHow, list_rejects, recheck
from gops_records.core.store.db import connect, reading

ENV = {"COLUMNS": "250", "GOPS_DB": ""}
#: A broken 3-card game: Ann bids her 3 again in round 2.
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
FIXED = SMALL
#: A round log whose game 2 repeats its prize.
LOG = ("game,round,prize,bid_a,bid_b,cards\n1,1,2,3,1,3\n1,2,3,1,2,3\n1,3,1,2,3,3\n"
       "2,1,2,2,2,3\n2,2,2,1,1,3\n")


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
    """``club/`` holding a valid game then a broken one, and a round log with a broken
    game, imported by relative names from inside ``club/``; the database beside it."""
    folder = tmp_path / "club"
    (folder / "logs").mkdir(parents=True)
    (folder / "club.gops").write_text(club_game(1) + "\n" + BROKEN)
    (folder / "logs" / "b.csv").write_text(LOG)
    monkeypatch.chdir(folder)
    import_paths([Path("club.gops"), Path("logs")], tmp_path / "t.duckdb")
    assert len(_rejects(tmp_path / "t.duckdb")) == 2
    return folder


def _elsewhere(club: Path, monkeypatch, *, text: str = "") -> Path:
    """Another folder holding files of the same names (empty by default); made current."""
    other = club.parent / "other"
    (other / "logs").mkdir(parents=True)
    (other / "club.gops").write_text(text)
    (other / "logs" / "b.csv").write_text(text)
    monkeypatch.chdir(other)
    return other


def test_empty_files_of_the_same_names_elsewhere_resolve_nothing(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    _elsewhere(club, monkeypatch)
    result = _recheck(db)
    assert (result.checked, result.resolved, result.newly_resolved) == (2, 0, [])
    assert not any(r.resolved for r in _rejects(db))
    out = CliRunner().invoke(app, ["rejects", "--db", str(db), "--recheck"], env=ENV)
    assert out.exit_code == 0, out.output
    assert "removed" not in out.stdout
    assert "2 quarantined records: 2 open, 0 resolved" in out.stdout


def test_a_record_removed_from_its_file_is_found_from_any_folder(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1))  # the broken record deleted
    _elsewhere(club, monkeypatch, text=club_game(1) + "\n" + BROKEN)  # still there, elsewhere
    result = _recheck(db)
    assert result.resolved == 1
    (gone,) = [r for r in _rejects(db) if r.resolved]
    assert gone.source == "club.gops" and gone.resolution.how is ResolvedHow.REMOVED


def test_a_missing_file_stays_open_and_is_said_missing(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    (club / "club.gops").unlink()
    _elsewhere(club, monkeypatch)
    result = _recheck(db)
    assert result.resolved == 0
    (reject,) = [r for r in _rejects(db) if r.source == "club.gops"]
    note = result.notes[reject.reject_id]
    assert note.startswith(f"missing: {club / 'club.gops'} ")
    out = CliRunner().invoke(app, ["rejects", "--db", str(db), "--recheck"], env=ENV)
    assert f"note: missing: {club / 'club.gops'}" in out.stdout
    assert "resolved: removed" not in out.stdout and "removed:" not in out.stdout


def test_a_game_from_the_same_name_in_another_folder_is_not_the_fix(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    _elsewhere(club, monkeypatch, text=club_game(1) + "\n" + FIXED)
    later = import_paths([Path("club.gops")], db)  # same name, same position, same players
    assert later.games_new == 1
    assert _recheck(db).resolved == 0


def test_fixed_and_imported_is_resolved_from_any_folder(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1) + "\n" + FIXED)
    assert _recheck(db).resolved == 0  # valid now, but not imported
    import_paths([Path("club.gops")], db)  # from club/, as before
    _elsewhere(club, monkeypatch)
    result = _recheck(db)
    assert result.resolved == 1
    (fixed,) = [r for r in _rejects(db) if r.resolved]
    assert fixed.resolution.how is ResolvedHow.FIXED and fixed.resolution.game_id is not None


def test_a_file_changed_and_still_broken_elsewhere_is_not_read(club: Path, monkeypatch):
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1) + "\n" + FIXED)  # fixed at its place
    _elsewhere(club, monkeypatch, text=club_game(1) + "\n" + BROKEN)
    result = _recheck(db)  # the note comes from club/club.gops, not from the copy here
    (reject,) = [r for r in _rejects(db) if r.source == "club.gops"]
    assert result.notes[reject.reject_id].startswith("game 2 of club.gops is valid now")


def _forget_paths(db: Path) -> None:
    """Make the imports look like those of a gops that kept no paths (schema before 13)."""
    con = connect(db)
    try:
        con.execute("UPDATE imports SET source_paths = NULL, source_sha256 = NULL")
    finally:
        con.close()


def test_rejects_of_an_import_without_paths_are_unverifiable(club: Path):
    db = club.parent / "t.duckdb"
    _forget_paths(db)
    (club / "club.gops").write_text(club_game(1))  # removed, in the current folder
    result = _recheck(db)
    assert result.resolved == 0
    for reject in _rejects(db):
        assert result.notes[reject.reject_id].startswith("unverifiable: ")


def test_an_absolute_name_from_an_import_without_paths_is_its_path(tmp_path: Path):
    (tmp_path / "club.gops").write_text(club_game(1) + "\n" + BROKEN)
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "club.gops"], db)
    _forget_paths(db)
    (tmp_path / "club.gops").write_text(club_game(1))
    result = _recheck(db)
    assert result.resolved == 1
    assert _rejects(db)[0].resolution.how is ResolvedHow.REMOVED


def test_imports_keep_each_files_absolute_path_and_hash(club: Path):
    with reading(club.parent / "t.duckdb") as con:
        rows = con.execute("SELECT unnest(sources), unnest(source_paths), "
                           "unnest(source_sha256) FROM imports").fetchall()
    assert sorted(rows) == sorted([
        ("club.gops", str(club / "club.gops"),
         hashlib.sha256((club / "club.gops").read_bytes()).hexdigest()),
        ("logs/b.csv", str(club / "logs" / "b.csv"),
         hashlib.sha256((club / "logs" / "b.csv").read_bytes()).hexdigest())])


def test_a_file_imported_again_in_its_encoding_is_fixed_though_unchanged(tmp_path: Path,
                                                                         monkeypatch):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "latin.gops").write_bytes(
        club_game(1).replace("Alice", "J\u00fcrgen").encode("latin-1"))
    monkeypatch.chdir(folder)
    db = tmp_path / "t.duckdb"
    import_paths([Path("latin.gops")], db)  # not UTF-8: the whole file is quarantined
    (reject,) = _rejects(db)
    assert reject.source_game is None
    import_paths([Path("latin.gops")], db, encoding="latin-1")  # the same bytes, read right
    _elsewhere(folder, monkeypatch)
    assert _recheck(db, encoding="latin-1").resolved == 1
    assert _rejects(db)[0].resolution.how is ResolvedHow.FIXED
