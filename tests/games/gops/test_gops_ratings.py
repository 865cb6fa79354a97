"""Gops's placings for the ratings (games/gops/ratings.py): places by points, draws shared,
unfinished games and unnamed seats left out."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from gops_records.core import ratings
from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading

RECORDS = """\
[Event "Tuesday club"] [Date "2026.03.03"] [A "Alice"] [B "Bruno"] [Cards "5"]
[TieRule "carry"]
1. A♦ A♣ 2♠  2. 4♦ 2♣ 5♠  3. 5♦ 5♣ A♠  4. 3♦ 3♣ 3♠  5. 2♦ 4♣ 4♠ {nobody gets the 3 and the 2}
5-5

[Event "Friday cup"] [Date "2026.03.06"] [A "Carla"] [B "Alice"] [C "Bruno"] [Cards "5"]
[TieRule "carry"]
1. 5♦ 5♣ 4♠ 3♥  2. 4♦ A♣ 5♠ 4♥  3. 3♦ 4♣ 3♠ 5♥  4. 2♦ 3♣ 2♠ 2♥  5. A♦ 2♣ A♠ A♥
8-4-3

[Event "Friday cup"] [Date "2026.03.06"] [A "Alice"] [B "Carla"] [Cards "5"] [TieRule "carry"]
1. 5♦ 5♣ A♠  2. 4♦ A♣ 4♠
*

[Event "Friday cup"] [Date "2026.03.06"] [Cards "5"] [TieRule "discard"]
1. 2♦ 2♣ 2♠  2. 5♦ 5♣ 4♠  3. A♦ A♣ 5♠  4. 4♦ 3♣ A♠  5. 3♦ 4♣ 3♠
12-1
"""


def test_places_follow_points_and_a_draw_shares_first(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "club.gops").write_text(RECORDS, encoding="utf-8")
    db = tmp_path / "club.duckdb"
    assert import_paths([tmp_path / "in"], db).games_new == 4
    with reading(db) as con:
        found = ratings.placings_of(con, "gops")
        rated = ratings.ratings_of(con, "gops")
    assert found.columns == list(ratings.PLACING_COLUMNS)
    got = sorted(found.select("date", "player", "place").iter_rows())
    assert got == [(dt.date(2026, 3, 3), "Alice", 1), (dt.date(2026, 3, 3), "Bruno", 1),
                   (dt.date(2026, 3, 6), "Alice", 2), (dt.date(2026, 3, 6), "Bruno", 3),
                   (dt.date(2026, 3, 6), "Carla", 1)]  # unfinished and unnamed games left out
    assert found["game_key"].dtype == pl.UInt64 and found["game_key"].n_unique() == 2
    assert rated.table["player"].to_list()[0] == "Carla"
    assert rated.table["games"].to_list() == [1, 2, 2]


def _club(tmp_path: Path, text: str = RECORDS) -> Path:
    (tmp_path / "in").mkdir(parents=True, exist_ok=True)
    (tmp_path / "in" / "club.gops").write_text(text, encoding="utf-8")
    db = tmp_path / "club.duckdb"
    import_paths([tmp_path / "in"], db)
    return db


def test_kept_history_saves_time_and_never_changes_a_rating(tmp_path: Path,
                                                              monkeypatch) -> None:
    db = _club(tmp_path)
    path = ratings.kept_path(db, "gops")
    with reading(db) as con:
        fresh = ratings.ratings_of(con, "gops")
        first = ratings.kept_ratings(con, "gops", db)
        assert path.exists() and path.parent == db.parent
        again = ratings.kept_ratings(con, "gops", db)
    assert first.history.equals(fresh.history) and again.table.equals(fresh.table)
    # a damaged file, then one kept for another database: rated afresh, the same
    path.write_bytes(b"not parquet")
    with reading(db) as con:
        assert ratings.kept_ratings(con, "gops", db).table.equals(fresh.table)
    other = _club(tmp_path / "other", RECORDS.split("\n\n")[1])
    with reading(other) as con:
        assert ratings.kept_ratings(con, "gops", other).table.height == 3
    ratings.kept_path(other, "gops").replace(path)
    with reading(db) as con:
        assert ratings.kept_ratings(con, "gops", db).history.equals(fresh.history)
    # a folder that cannot be written keeps nothing and says nothing
    path.unlink()

    def refuse(*args, **kwargs):
        raise PermissionError("read-only folder")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", refuse)
    with reading(db) as con:
        assert ratings.kept_ratings(con, "gops", db).table.equals(fresh.table)
    assert not path.exists() and not list(tmp_path.glob("*.tmp"))
