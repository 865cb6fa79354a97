"""A folder that cannot be read is named, like a file that cannot be read (issue 21).

An import of ``club/`` whose sub-folder ``locked/`` is ``chmod 000`` said "5 files, 255
games" and exited 0, the games inside never mentioned: Path.rglob skips a folder it cannot
list without a word. Now the folder is named on stderr, the rest is imported (or
checked), and the exit status is 2, in ``gops import`` and ``gops validate`` alike.

The tests run as root, whom ``chmod 000`` does not stop: the folder is refused by making
``os.scandir`` raise PermissionError for it, as the kernel does for anyone else. The last
test does it for real when not run as root.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from core.store.gamefiles import club_game
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.importer import import_paths
from gops_records.core.sources import SourceError, SourcesUnreadable, find_files, find_sources
from gops_records.core.store.db import reading

ENV = {"COLUMNS": "250", "GOPS_DB": ""}


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """``club/`` with two files of one game each, and ``locked/`` holding two more games."""
    folder = tmp_path / "club"
    (folder / "locked").mkdir(parents=True)
    (folder / "a.gops").write_text(club_game(1))
    (folder / "b.gops").write_text(club_game(2))
    (folder / "locked" / "c.gops").write_text(club_game(3) + "\n" + club_game(4))
    return folder


@pytest.fixture
def refused(club: Path, monkeypatch) -> Path:
    """``club/locked`` cannot be listed, as after ``chmod 000`` for anyone but root."""
    locked = club / "locked"
    real = os.scandir

    def scandir(path=".", *args):
        if os.path.abspath(os.fspath(path)) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path, *args)

    monkeypatch.setattr(os, "scandir", scandir)
    return locked


def _cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def test_find_files_names_the_folder_it_cannot_read(club: Path, refused: Path) -> None:
    problems: list[SourceError] = []
    found = list(find_files([club], unreadable=problems))
    assert found == [club / "a.gops", club / "b.gops"]
    assert [str(p) for p in problems] == [
        f"{refused}: cannot read this folder: Permission denied; the files in it were skipped"]
    with pytest.raises(SourceError, match="locked: cannot read this folder"):
        list(find_files([club]))  # without a list to add it to, it is an error


def test_find_sources_names_it_as_the_user_wrote_the_folder(club: Path, refused: Path,
                                                           monkeypatch) -> None:
    monkeypatch.chdir(club.parent)
    problems: list[SourceError] = []
    names = [name for name, _ in find_sources(["./club"], unreadable=problems)]
    assert names == ["./club/a.gops", "./club/b.gops"]
    assert str(problems[0]).startswith("./club/locked: cannot read this folder: ")


def test_a_named_folder_that_cannot_be_read_is_named(club: Path, refused: Path) -> None:
    problems: list[SourceError] = []
    assert list(find_files([refused], unreadable=problems)) == []
    assert str(problems[0]).startswith(f"{refused}: cannot read this folder: Permission denied")


def test_gops_import_names_the_folder_imports_the_rest_and_exits_2(club: Path,
                                                                  refused: Path) -> None:
    db = club.parent / "t.duckdb"
    result = _cli("import", club, "--db", db)
    assert result.exit_code == 2, result.output
    assert f"gops: error: {refused}: cannot read this folder: Permission denied" \
        in result.stderr
    assert ": 2 files, 2 games seen: 2 new" in result.stdout
    with reading(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)
        (sources,) = con.execute("SELECT sources FROM imports").fetchone()
    assert sources == [str(club / "a.gops"), str(club / "b.gops")]


def test_gops_import_json_still_prints_its_summary(club: Path, refused: Path) -> None:
    result = _cli("import", club, "--db", club.parent / "t.duckdb", "--json")
    assert result.exit_code == 2, result.output
    assert '"games_new": 2' in result.stdout and "locked: cannot read" in result.stderr


def test_import_paths_raises_after_storing_the_rest(club: Path, refused: Path) -> None:
    db = club.parent / "t.duckdb"
    with pytest.raises(SourcesUnreadable, match="locked: cannot read this folder") as info:
        import_paths([club], db)
    assert info.value.summary.games_new == 2 and len(info.value.problems) == 1
    with reading(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)


def test_a_file_that_cannot_be_read_in_a_folder_is_named_and_the_rest_imported(
        club: Path, monkeypatch) -> None:
    real = os.open
    locked = str(club / "b.gops")

    def refuse(path, *args, **kwargs):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    result = _cli("import", club, "--db", club.parent / "t.duckdb")
    assert result.exit_code == 2, result.output
    assert f"gops: error: {locked}: cannot read: Permission denied" in result.stderr
    assert ": 2 files, 3 games seen: 3 new" in result.stdout  # a.gops and locked/c.gops


def test_gops_validate_names_the_folder_and_checks_the_rest(club: Path, refused: Path) -> None:
    result = _cli("validate", club)
    assert result.exit_code == 2, result.output
    assert f"gops: error: {refused}: cannot read this folder: Permission denied" \
        in result.stderr
    assert result.stdout == "2 games in 2 files: 2 valid, 0 invalid\n"


def test_gops_validate_of_only_an_unreadable_folder(club: Path, refused: Path) -> None:
    result = _cli("validate", refused)
    assert result.exit_code == 2, result.output
    assert "cannot read this folder" in result.stderr
    assert "no record files" not in result.stderr  # the folder was not seen empty


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="chmod 000 does not stop root")
def test_a_folder_chmod_000_for_real(club: Path) -> None:
    locked = club / "locked"
    locked.chmod(0)
    try:
        result = _cli("import", club, "--db", club.parent / "t.duckdb")
    finally:
        locked.chmod(0o755)
    assert result.exit_code == 2, result.output
    assert f"{locked}: cannot read this folder: Permission denied" in result.stderr
