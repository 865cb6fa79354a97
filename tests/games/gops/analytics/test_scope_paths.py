"""With no filter the functions skip the join to games; a filter keeping every game joins.

Both paths must give the same answers (every fixture game has an Event tag).
"""

from __future__ import annotations

import polars as pl
import pytest

import gops_records.games.gops.analytics as a

EVERY_EVENT = a.Filters(events=("Club", "Other", "Four"))

FUNCTIONS = ["standings", "match_results", "head_to_head", "tie_summary", "ties_by_round",
             "ties_by_pair", "tie_streaks", "pool_distribution", "largest_pools",
             "carried_per_game", "unclaimed_per_game", "list_games"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_unfiltered_and_all_kept_agree(con, name):
    fn = getattr(a, name)
    plain, joined = fn(con, a.Filters()), fn(con, EVERY_EVENT)
    assert isinstance(plain, pl.DataFrame) and plain.height > 0
    assert plain.equals(joined)


def test_unfiltered_and_all_kept_agree_for_dicts_and_bids(con):
    assert a.final_ties(con, a.Filters()) == a.final_ties(con, EVERY_EVENT)
    assert a.list_players(con) == a.list_players(con, EVERY_EVENT)
    plain = a.player_bidding(con, a.Filters(), "Bob")
    joined = a.player_bidding(con, EVERY_EVENT, "Bob")
    for key, frame in plain.items():
        assert frame.equals(joined[key]), key
    overview = a.overview(con, EVERY_EVENT)
    assert overview == a.overview(con, a.Filters())
