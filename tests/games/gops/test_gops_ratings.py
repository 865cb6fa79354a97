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
