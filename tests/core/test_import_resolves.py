"""An import that reads a quarantined record's file, fixed, marks the reject resolved in
its own transaction (issue 24): the same absolute path as the import that quarantined it,
other bytes, the record as written gone, and a valid stored record at its position (rule 3
of the re-check, the same code: :func:`gops_records.core.rejects.resolve_imported`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game
from paths import DATA, SAMPLES

from gops_records.core import importer
from gops_records.core.importer import import_paths
from gops_records.core.rejects import ResolvedHow, list_rejects, recheck
from gops_records.core.store.db import connect, reading

#: A broken 3-card game: Ann bids her 3 again in round 2.
BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")
#: Another broken one (a round with no bids), that nobody fixes.
STILL_BROKEN = club_game(7).replace("2. 5D 7C JS", "2. 5D")


def _rejects(db: Path) -> dict[str, tuple[int | None, str]]:
    """Each reject's position and status (``open``, or how it was resolved)."""
    with reading(db) as con:
        return {r.reject_id: (r.source_game, r.resolution.how.value if r.resolution
                              else "open") for r in list_rejects(con)}


def _resolutions(db: Path) -> list[tuple]:
    with reading(db) as con:
        return con.execute("SELECT reject_id, how, game_id FROM reject_resolutions "
                           "ORDER BY reject_id").fetchall()


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """club/club.gops: a valid game, a broken one (game 2), one broken for good (game 3),
    imported by a relative name from inside club/."""
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "club.gops").write_text(club_game(1) + "\n" + BROKEN + "\n" + STILL_BROKEN)
    monkeypatch.chdir(folder)
    summary = import_paths([Path("club.gops")], tmp_path / "t.duckdb")
    assert summary.games_rejected == 2 and summary.resolved == {}
    return folder


def test_fix_and_import_again_resolves_within_the_import(club: Path) -> None:
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1) + "\n" + SMALL + "\n" + STILL_BROKEN)
    summary = import_paths([Path("club.gops")], db)
    assert summary.resolved == {ResolvedHow.FIXED: 1} and summary.rejects_resolved == 1
    assert summary.as_dict()["rejects_resolved"] == 1
    assert sorted(_rejects(db).values()) == [(2, "fixed"), (3, "open")]  # 3: still broken
    with reading(db) as con:
        fixed = con.execute("SELECT game_id FROM games WHERE source_game = 2").fetchone()[0]
        (resolution,) = [r.resolution for r in list_rejects(con) if r.resolved]
    assert resolution.game_id == fixed
    assert resolution.how is ResolvedHow.FIXED
    assert resolution.note.startswith("game 2 of club.gops is now valid and stored (g")
    again = import_paths([Path("club.gops")], db, reparse=True)  # nothing left to resolve
    assert again.resolved == {}
    con = connect(db)
    try:  # the re-check agrees, and finds nothing new
        checked = recheck(con)
    finally:
        con.close()
    assert (checked.resolved, checked.newly_resolved, checked.reopened) == (1, [], [])


def test_a_file_of_the_same_name_elsewhere_resolves_nothing(
        club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = club.parent / "t.duckdb"
    other = club.parent / "other"
    other.mkdir()
    (other / "club.gops").write_text(club_game(1) + "\n" + SMALL)  # fixed, but not that file
    monkeypatch.chdir(other)
    summary = import_paths([Path("club.gops")], db)
    assert summary.games_new == 1 and summary.resolved == {}
    assert sorted(_rejects(db).values()) == [(2, "open"), (3, "open")]


def test_a_record_changed_but_still_broken_stays_open(club: Path) -> None:
    db = club.parent / "t.duckdb"
    worse = BROKEN.replace("3. AD 2C 3S", "3. AD 2C 2S")  # another text, still broken
    (club / "club.gops").write_text(club_game(1) + "\n" + worse + "\n" + STILL_BROKEN)
    summary = import_paths([Path("club.gops")], db)
    assert summary.rejects_new == 1 and summary.resolved == {}
    assert sorted(_rejects(db).values()) == [(2, "open"), (2, "open"), (3, "open")]


def test_a_record_deleted_from_its_file_is_resolved_as_removed(club: Path) -> None:
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1) + "\n" + BROKEN)  # game 3 deleted
    summary = import_paths([Path("club.gops")], db)
    assert summary.resolved == {ResolvedHow.REMOVED: 1}
    assert sorted(_rejects(db).values()) == [(2, "open"), (3, "removed")]
    # the rule goes by position: game 2 deleted, the broken game 3 moves up to its place
    # and is still there as written; position 2 holds a broken record: open, both
    (club / "club.gops").write_text(club_game(1) + "\n" + STILL_BROKEN)
    assert import_paths([Path("club.gops")], db).resolved == {}
    assert (2, "open") in _rejects(db).values()


def test_the_same_bytes_again_resolve_nothing(club: Path) -> None:
    db = club.parent / "t.duckdb"
    summary = import_paths([Path("club.gops")], db, reparse=True)  # read, not skipped
    assert summary.rejects_duplicate == 2 and summary.resolved == {}
    assert _resolutions(db) == []


def test_a_rolled_back_import_leaves_the_reject_open(
        club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = club.parent / "t.duckdb"
    (club / "club.gops").write_text(club_game(1) + "\n" + SMALL + "\n" + STILL_BROKEN)

    def fail(*args, **kwargs):
        raise OSError("injected: the machine lost power")

    with monkeypatch.context() as patch:  # fails after resolving, before the commit
        patch.setattr(importer, "_record_import", fail)
        with pytest.raises(OSError, match="injected"):
            import_paths([Path("club.gops")], db)
    assert sorted(_rejects(db).values()) == [(2, "open"), (3, "open")]
    assert _resolutions(db) == []
    assert import_paths([Path("club.gops")], db).resolved == {ResolvedHow.FIXED: 1}


def test_a_whole_file_read_right_at_last_is_resolved(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "latin1.gops").write_bytes((DATA / "latin1.gops").read_bytes())
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "t.duckdb"
    assert import_paths([Path("latin1.gops")], db).games_rejected == 1  # not UTF-8
    assert list(_rejects(db).values()) == [(None, "open")]
    summary = import_paths([Path("latin1.gops")], db, encoding="latin-1")
    assert summary.games_new >= 1 and summary.resolved == {ResolvedHow.FIXED: 1}
    assert list(_rejects(db).values()) == [(None, "fixed")]


def test_a_round_log_row_fixed_is_resolved(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    header = "game,round,prize,bid_a,bid_b,cards\n1,1,2,3,1,3\n1,2,3,1,2,3\n1,3,1,2,3,3\n"
    log = tmp_path / "b.csv"
    log.write_text(header + "2,1,2,2,2,3\n2,2,2,1,1,3\n")  # game 2 repeats its prize
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "t.duckdb"
    assert import_paths([Path("b.csv")], db).games_rejected == 1
    log.write_text(header + "2,1,2,2,2,3\n2,2,3,1,1,3\n2,3,1,3,3,3\n")
    summary = import_paths([Path("b.csv")], db)
    assert summary.games_new == 1 and summary.resolved == {ResolvedHow.FIXED: 1}


def test_a_gin_hand_fixed_and_imported_again_is_resolved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other game, through the registry: a .gin hand typed wrong, then right."""
    right = (SAMPLES / "2026-01-15-thursday-club-gin.gin").read_text(encoding="utf-8")
    wrong = right.replace("1. A p:8♦ J♣", "1. A p:8♦ Z♣", 1)
    assert wrong != right
    hands = tmp_path / "evening.gin"
    hands.write_text(wrong, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "t.duckdb"
    assert import_paths([Path("evening.gin")], db).games_rejected == 1
    hands.write_text(right, encoding="utf-8")
    summary = import_paths([Path("evening.gin")], db)
    assert summary.games_rejected == 0 and summary.resolved == {ResolvedHow.FIXED: 1}
    assert list(_rejects(db).values()) == [(1, "fixed")]
