"""The short game reference: 'g' and the first 8 hex digits of the 64-bit id."""

from __future__ import annotations

import polars as pl

from gops_records.core.game_refs import game_ref, parse_game_ids
from gops_records.games.gops.analytics import list_games
from gops_records.games.gops.analytics.filters import Filters
from gops_records.games.gops.analytics.games import game_ref_expr


def test_game_ref_is_the_first_eight_hex_digits_after_a_letter():
    assert game_ref(0x3FA9C2D1_00000001) == "g3fa9c2d1"
    assert game_ref(5) == "g00000000"  # small ids keep their leading zeros
    assert game_ref(str(2**64 - 1)) == "gffffffff"
    # the id's 16 hex digits read back to the same game
    gid = 0x3FA9C2D1_ABCDEF12
    assert gid in parse_game_ids(f"{gid:016x}")


def test_game_ref_expr_agrees_with_game_ref(con):
    games = list_games(con, Filters(), 10)
    refs = games.select(game_ref_expr().alias("ref"))["ref"].to_list()
    assert refs == [game_ref(g) for g in games["game_id"]]
    assert len(set(refs)) == games.height
    text = pl.DataFrame({"game_id": [str(2**63 + 7)]})
    assert text.select(game_ref_expr())["game_id"].item() == "g80000000"
