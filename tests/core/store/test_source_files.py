"""A re-import skips files it has read before, and only when that changes nothing.

Every skip is compared with what reading the file again (``reparse=True``) reports on a
copy of the same database: the counts must be the same, and so must the tables.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gamefiles import SMALL, club_game, snapshot

from gops_records.core import importer
from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect, reading
from gops_records.core.store.source_files import code_digest, reader_of

BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
COUNTS = ("games_seen", "games_new", "games_duplicate", "games_rejected", "rejects_new",
          "rejects_duplicate")


def _counts(summary) -> tuple[int, ...]:
    return tuple(getattr(summary, name) for name in COUNTS)


def _tables(db: Path) -> dict[str, list[str]]:
    """Every table but the import log (it records each import's time)."""
    return {t: rows for t, rows in snapshot(db).items() if t != "imports"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    # a game written twice, a broken record written twice, and a round log
    (folder / "a.gops").write_text("\n".join(
        [club_game(1), BROKEN, club_game(2), club_game(1), BROKEN]))
    (folder / "b.csv").write_text("game,round,prize,bid_a,bid_b,cards\n"
                                  "1,1,2,3,1,3\n1,2,3,1,2,3\n1,3,1,2,3,3\n"
                                  "2,1,2,2,2,3\n2,2,2,1,1,3\n")  # game 2 repeats its prize
    (folder / "empty.gops").write_text("\n\n")
    return folder


def _same_as_reading_again(db: Path, folder: Path, tmp_path: Path):
    """Import ``folder`` into ``db`` and, from a copy of ``db``, with ``reparse``; check that
    both report the same counts and leave the same tables. The skipping import's summary."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    skipped = import_paths([folder], db)
    read = import_paths([folder], copy, reparse=True)
    assert read.files_unchanged == 0
    assert _counts(skipped) == _counts(read)
    assert _tables(db) == _tables(copy)
    return skipped


def test_an_unchanged_folder_is_counted_not_read(folder: Path, tmp_path: Path,
                                                 monkeypatch) -> None:
    db = tmp_path / "t.duckdb"
    first = import_paths([folder], db)
    assert (first.files, first.files_unchanged) == (3, 0)
    assert _counts(first) == (7, 3, 1, 3, 2, 1)

    def no_reading(*args, **kwargs):
        raise AssertionError("an unchanged file was read again")

    monkeypatch.setattr(importer, "read_batches", no_reading)
    second = import_paths([folder], db)
    monkeypatch.undo()
    assert (second.files, second.files_unchanged) == (3, 3)
    assert _counts(second) == (7, 0, 4, 3, 0, 3)
    assert any("3 of 3 files unchanged" in note for note in second.notes)
    assert any("empty file" in note for note in second.notes)  # said again, as when read
    assert _same_as_reading_again(db, folder, tmp_path).files_unchanged == 3


def test_a_game_deleted_by_hand_makes_the_file_read_again(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    con = connect(db)
    con.execute("DELETE FROM round_rows WHERE game_id = (SELECT min(game_id) FROM games)")
    con.execute("DELETE FROM game_players WHERE game_id = (SELECT min(game_id) FROM games)")
    con.execute("DELETE FROM games WHERE game_id = (SELECT min(game_id) FROM games)")
    con.close()
    again = import_paths([folder], db)
    assert again.files_unchanged == 2  # the file that held the game is read, the others not
    assert again.games_new == 1
    with reading(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(3,)]


def test_a_reject_deleted_by_hand_makes_the_file_read_again(folder: Path,
                                                            tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    con = connect(db)
    con.execute("DELETE FROM rejects WHERE source LIKE '%b.csv'")
    con.close()
    again = import_paths([folder], db)
    assert again.files_unchanged == 2
    assert (again.rejects_new, again.rejects_duplicate) == (1, 2)


def test_a_changed_file_is_read_in_full(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    with (folder / "a.gops").open("a") as f:
        f.write("\n" + club_game(3))
    again = _same_as_reading_again(db, folder, tmp_path)
    assert again.files_unchanged == 2
    assert again.games_new == 1


def test_the_same_bytes_under_two_names_are_read_once(folder: Path, tmp_path: Path) -> None:
    shutil.copy(folder / "a.gops", folder / "copy-of-a.gops")
    shutil.copy(folder / "empty.gops", folder / "more.gops")
    summary = import_paths([folder], tmp_path / "t.duckdb")
    assert (summary.files, summary.files_unchanged) == (5, 2)
    assert summary.games_new == 3
    assert summary.games_duplicate == 1 + 3  # the repeat inside a.gops, then all of the copy
    empty_notes = sorted(n for n in summary.notes if "empty file" in n)
    assert [Path(n.split(":")[0]).name for n in empty_notes] == ["empty.gops", "more.gops"]


def test_another_encoding_or_another_gops_reads_the_file_again(folder: Path, tmp_path: Path,
                                                               monkeypatch) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    assert import_paths([folder], db, encoding="latin-1").files_unchanged == 0
    assert import_paths([folder], db, encoding="latin-1").files_unchanged == 3
    monkeypatch.setattr(importer, "reader_of", lambda kind, enc: f"a newer gops {kind} {enc}")
    assert import_paths([folder], db).files_unchanged == 0


def test_reader_names_version_code_kind_and_encoding() -> None:
    reader = reader_of("csv", "UTF-8")
    assert reader.startswith("gops ") and reader.endswith(" csv utf-8")
    assert f"({code_digest()})" in reader and len(code_digest()) == 12


def test_source_files_lists_what_each_file_held(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    with reading(db) as con:
        rows = con.execute(
            "SELECT s.source, s.games_valid, s.games_rejected, len(s.game_ids), "
            "len(s.reject_ids), s.notes, s.bytes, length(s.sha256), "
            "(SELECT count(*) FROM games g WHERE list_contains(s.game_ids, g.game_id)) "
            "FROM source_files s ORDER BY s.source").fetchall()
    names = [Path(r[0]).name for r in rows]
    assert names == ["a.gops", "b.csv", "empty.gops"]
    a, b, empty = rows
    assert a[1:5] == (3, 2, 2, 1) and a[8] == 2  # club 1 twice, club 2; the broken one twice
    assert b[1:5] == (1, 1, 1, 1) and b[8] == 1
    assert empty[1:5] == (0, 0, 0, 0) and "empty file" in empty[5][0]
    assert a[6] == (folder / "a.gops").stat().st_size and a[7] == 64


def _file_rows(db: Path) -> list[tuple]:
    with reading(db) as con:
        return con.execute("SELECT source, games_valid, len(game_ids), import_id "
                           "FROM source_files ORDER BY source").fetchall()


def test_a_growing_file_keeps_one_row(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    for number in (3, 4, 5):
        with (folder / "a.gops").open("a") as f:
            f.write("\n" + club_game(number))
        import_paths([folder], db)
    rows = _file_rows(db)
    assert [Path(r[0]).name for r in rows] == ["a.gops", "b.csv", "empty.gops"]
    assert rows[0][1:] == (6, 5, 4)  # club 1 twice, 2, 3, 4, 5: read in full by import 4


def test_a_skipped_file_is_recorded_under_its_name_now(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    (folder / "a.gops").rename(folder / "renamed.gops")
    assert import_paths([folder], db).files_unchanged == 3
    rows = _file_rows(db)
    assert [Path(r[0]).name for r in rows] == ["b.csv", "empty.gops", "renamed.gops"]
    assert {r[3] for r in rows} == {2}  # import 2 found them all unchanged


def test_what_another_build_recorded_is_dropped(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    con = connect(db)
    con.execute("UPDATE source_file_reads SET reader = 'gops 0.0.1 (000000000000) gops utf-8' "
                "WHERE source LIKE '%a.gops'")
    con.close()
    again = import_paths([folder], db)
    assert again.files_unchanged == 2  # a.gops is read again, by this build
    with reading(db) as con:
        assert con.execute("SELECT count(*) FROM source_files WHERE reader LIKE 'gops 0.0.1%'"
                           ).fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM source_files").fetchall() == [(3,)]
