"""game_shapes: each of its parts counts every kept game once, as a plain count of the
games by that part's columns gives them."""

from __future__ import annotations

import pytest

from gops_records.games.gops.analytics import Filters, game_shapes
from gops_records.games.gops.analytics.shapes import PARTS, part

COLUMNS = {"tie_rule": "g.tie_rule", "open_row": "g.open_prizes IS NOT NULL",
           "finished": "g.finished", "rounds_played": "g.rounds_played::INTEGER",
           "ties": "g.ties::INTEGER", "tie_mask": "g.tie_mask::INTEGER",
           "carried": "g.carried::INTEGER", "unclaimed": "g.unclaimed::INTEGER"}


@pytest.mark.parametrize("f", [Filters(), Filters(events=("Club",)), Filters(players=("Cid",)),
                               Filters(tie_rule="discard", finished_only=True),
                               Filters(events=("Nobody",))])
def test_each_part_counts_the_kept_games_by_its_columns(con, f):
    shapes = game_shapes(con, f)
    where, params = f.games_where("g")
    kept = con.execute(f"SELECT count(*) FROM games g WHERE {where}", params).fetchone()[0]
    assert set(shapes["part"]) == (set(PARTS) if kept else set())
    for name, columns in PARTS.items():
        got = part(shapes, name)
        assert got.columns == [*columns, "games"]
        assert got["games"].sum() == kept
        counted = con.execute(
            f"SELECT {', '.join(COLUMNS[c] for c in columns)}, count(*) FROM games g "
            f"WHERE {where} GROUP BY ALL", params).fetchall()
        assert sorted(got.rows(), key=repr) == sorted(counted, key=repr), name
