"""Re-importing adds nothing: games are keyed by content, rejects by their raw text."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamefiles import SMALL, club_game, counts, snapshot

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

BROKEN = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")


def _ids(db: Path) -> list[str]:
    with reading(db) as con:
        return [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id")
                .fetchall()]


@pytest.mark.parametrize("reparse", [False, True], ids=["unchanged-files-skipped", "read-again"])
def test_importing_the_same_files_twice_adds_nothing(tmp_path: Path, reparse: bool) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.gops").write_text(club_game(1) + "\n" + BROKEN + "\n" + club_game(2))
    (folder / "b.csv").write_text("game,round,prize,bid_a,bid_b,cards\n"
                                  "1,1,2,3,1,3\n1,2,3,1,2,3\n1,3,1,2,3,3\n"
                                  "2,1,2,2,2,3\n2,2,2,1,1,3\n")  # game 2 repeats its prize
    db = tmp_path / "t.duckdb"
    first = import_paths([folder], db)
    assert (first.games_seen, first.games_new, first.games_duplicate) == (5, 3, 0)
    assert (first.games_rejected, first.rejects_new, first.rejects_duplicate) == (2, 2, 0)
    before = snapshot(db)

    second = import_paths([folder], db, reparse=reparse)
    assert second.files_unchanged == (0 if reparse else 2)
    assert (second.games_seen, second.games_new, second.games_duplicate) == (5, 0, 3)
    assert (second.games_rejected, second.rejects_new, second.rejects_duplicate) == (2, 0, 2)
    after = snapshot(db)
    kept = ("imports", "source_files", "source_file_reads")  # these log each import
    assert {t: rows for t, rows in after.items() if t not in kept} == {
        t: rows for t, rows in before.items() if t not in kept}
    with reading(db) as con:
        assert con.execute("SELECT import_id, games_new, games_duplicate, rejects_new, "
                           "rejects_duplicate FROM imports ORDER BY 1").fetchall() == [
            (1, 3, 0, 2, 0), (2, 0, 3, 0, 2)]


def test_the_same_game_in_two_files_gets_one_game_id(tmp_path: Path) -> None:
    canonical = club_game(1)
    # the same game with suits as letters, no result, comments and one line per 3 rounds
    lines = canonical.splitlines()
    tags, rounds = lines[:5], lines[6:19]
    other = "\n".join(reversed(tags)) + "\n{typed later}\n" + " ".join(
        r.split(". ", 1)[1].replace("D", "d").replace("C", "").replace("S", "") + " ; x\n"
        for r in rounds) + "*\n"
    (tmp_path / "one.gops").write_text(canonical)
    (tmp_path / "two.gops").write_text(other)
    db = tmp_path / "t.duckdb"
    s1 = import_paths([tmp_path / "one.gops"], db)
    s2 = import_paths([tmp_path / "two.gops"], db)
    assert (s1.games_new, s2.games_new, s2.games_duplicate, s2.games_rejected) == (1, 0, 1, 0)
    assert counts(db)["games"] == 1
    with reading(db) as con:
        assert con.execute("SELECT source FROM games").fetchall() == [(str(tmp_path / "one.gops"),)]


def test_a_gops_record_and_a_round_log_of_one_game_share_its_id(tmp_path: Path) -> None:
    (tmp_path / "g.gops").write_text(SMALL)
    (tmp_path / "g.csv").write_text(
        "game,round,prize,bid_a,bid_b,player_a,player_b,event,cards\n"
        "x,1,2,3,A,Ann,Bob,Club,3\nx,2,3,1,2,Ann,Bob,Club,3\nx,3,A,2,3,Ann,Bob,Club,3\n")
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path], db)
    assert (summary.games_seen, summary.games_new, summary.games_duplicate) == (2, 1, 1)
    assert len(_ids(db)) == 1


def test_a_game_written_twice_in_one_file_is_stored_once(tmp_path: Path) -> None:
    (tmp_path / "twice.gops").write_text(club_game(1) + "\n" + club_game(1))
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path], db)
    assert (summary.games_new, summary.games_duplicate) == (1, 1)
    assert {t: n for t, n in counts(db).items() if t in ("games", "game_players", "rounds",
                                                         "bids")} == {
        "games": 1, "game_players": 2, "rounds": 13, "bids": 26}


def test_the_same_broken_record_in_two_files_is_quarantined_once(tmp_path: Path) -> None:
    (tmp_path / "a.gops").write_text(BROKEN)
    (tmp_path / "b.gops").write_text("\n\n" + BROKEN + "\n" + BROKEN)
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path], db)
    assert (summary.games_rejected, summary.rejects_new, summary.rejects_duplicate) == (3, 1, 2)
    assert counts(db)["rejects"] == 1
    # a comment before a record is part of its text as written: that copy is kept too
    (tmp_path / "c.gops").write_text("; copied from a.gops\n" + BROKEN)
    summary = import_paths([tmp_path / "c.gops"], db)
    assert (summary.rejects_new, summary.rejects_duplicate) == (1, 0)
    with reading(db) as con:
        assert con.execute("SELECT raw_text FROM rejects WHERE source LIKE '%c.gops'"
                           ).fetchall() == [("; copied from a.gops\n" + BROKEN.rstrip(),)]


def test_game_ids_do_not_depend_on_the_database(tmp_path: Path) -> None:
    (tmp_path / "a.gops").write_text(club_game(1) + "\n" + club_game(2))
    import_paths([tmp_path / "a.gops"], tmp_path / "one.duckdb")
    (tmp_path / "b.gops").write_text(club_game(2))
    import_paths([tmp_path / "b.gops"], tmp_path / "two.duckdb")
    assert set(_ids(tmp_path / "two.duckdb")) < set(_ids(tmp_path / "one.duckdb"))
