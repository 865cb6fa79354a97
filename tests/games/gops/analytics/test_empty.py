"""Every function on an empty database and on a filter keeping nothing: no error, right columns."""

from __future__ import annotations

import polars as pl
import pytest

import gops_records.games.gops.analytics as a
from gops_records.core import import_log

NOTHING = a.Filters(events=("No such event",))

FRAMES = {
    "standings": (a.standings, ["player", "games", "wins", "draws", "losses", "points_for",
                                "points_against", "point_diff", "win_rate", "ci_low", "ci_high"]),
    "match_results": (a.match_results, ["event", "date", "match", "player", "games",
                                        "total_points", "game_wins", "cumulative_rank",
                                        "best_of_winner", "cumulative_winner", "match_games"]),
    "head_to_head": (a.head_to_head, ["player", "opponent", "games", "wins", "draws", "losses",
                                      "points_for", "points_against"]),
    "ties_by_round": (a.ties_by_round, ["round_no", "rounds", "ties", "rate", "ci_low",
                                        "ci_high"]),
    "ties_by_pair": (a.ties_by_pair, ["player", "opponent", "rounds", "ties", "rate", "ci_low",
                                      "ci_high"]),
    "tie_streaks": (a.tie_streaks, ["streak_length", "streaks"]),
    "pool_distribution": (a.pool_distribution, ["pool_value", "pool_cards", "rounds"]),
    "largest_pools": (a.largest_pools, ["game_id", "event", "date", "round_no", "pool_value",
                                        "pool_cards", "winner"]),
    "carried_per_game": (a.carried_per_game, ["carried_value", "games"]),
    "unclaimed_per_game": (a.unclaimed_per_game, ["unclaimed", "games"]),
    "list_games": (a.list_games, ["game_id", "date", "event", "match", "players", "result",
                                  "winner", "rounds_played"]),
}
PLAYER_FRAMES = {
    "bid_heatmap": (a.bid_heatmap, ["prize", "bid", "count", "row_share"]),
    "bid_minus_prize": (a.bid_minus_prize, ["prize", "n", "mean_diff"]),
    "relative_bids": (a.relative_bids, ["prize_rel_rank", "bid_rel_rank", "count"]),
}


@pytest.fixture(params=["empty database", "filter keeping nothing"])
def nowhere(request, empty_con, con):
    return (empty_con, a.Filters()) if request.param == "empty database" else (con, NOTHING)


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_frames_are_empty_with_their_columns(nowhere, name):
    db, f = nowhere
    fn, columns = FRAMES[name]
    out = fn(db, f)
    assert isinstance(out, pl.DataFrame)
    assert out.height == 0
    assert out.columns[: len(columns)] == columns


@pytest.mark.parametrize("name", sorted(PLAYER_FRAMES))
def test_player_frames_are_empty_with_their_columns(nowhere, name):
    db, f = nowhere
    fn, columns = PLAYER_FRAMES[name]
    out = fn(db, f, "Ann")
    assert out.height == 0
    assert out.columns[: len(columns)] == columns


def test_fixed_shape_frames_keep_their_rows(nowhere):
    db, f = nowhere
    habits = a.bid_habits(db, f, "Ann")
    assert habits.height == 16 and habits["n"].sum() == 0
    carry = a.carry_effect(db, f, "Ann")
    assert carry["n"].to_list() == [0, 0] and carry["mean_bid"].null_count() == 2
    summary = a.tie_summary(db, f)
    assert summary.rows() == [("all", 0, 0, None, None, None, 0, None)]


def test_dicts_and_lists(nowhere):
    db, f = nowhere
    assert a.final_ties(db, f) == {"games": 0, "games_ending_on_tie": 0, "rate": None,
                                   "ci": (None, None), "mean_unclaimed": None,
                                   "mean_pool_left": None}
    view = a.overview(db, f)
    assert (view["games"], view["finished"], view["players"], view["rounds"]) == (0, 0, 0, 0)
    assert a.list_players(db, f) == []


def test_empty_database_lists(empty_con):
    assert a.list_events(empty_con) == []
    assert a.list_matches(empty_con) == []
    assert a.list_players(empty_con) == []
    assert a.date_range(empty_con) == (None, None)
    assert import_log.list_imports(empty_con).height == 0
    assert a.list_rejects(empty_con).columns[:3] == ["import_id", "source", "source_game"]
    assert a.game_detail(empty_con, "anything") is None
    assert a.overview(empty_con, a.Filters())["imports"] == 0
