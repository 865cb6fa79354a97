"""Standings, matches, head-to-head and overview of the club database, counted by hand."""

from __future__ import annotations

import datetime as dt

import duckdb
import pytest

from gops_records.core.importer import import_paths
from gops_records.core.stats import wilson
from gops_records.games.gops.analytics import (
    Filters,
    date_range,
    head_to_head,
    list_events,
    list_matches,
    list_players,
    match_results,
    overview,
    standings,
)

STANDINGS_COLUMNS = ["player", "games", "wins", "draws", "losses", "points_for",
                     "points_against", "point_diff", "win_rate", "ci_low", "ci_high"]


def test_lists_and_date_range(con):
    assert list_events(con) == ["Club", "Four", "Other"]
    assert list_matches(con) == ["M1", "M2"]
    assert list_players(con) == ["Ann", "Bob", "Cid", "Dee"]
    assert list_players(con, Filters(events=("Club",))) == ["Ann", "Bob", "Cid"]
    assert list_players(con, Filters(n_players=4)) == ["Ann", "Bob", "Cid", "Dee"]
    assert date_range(con) == (dt.date(2026, 1, 8), dt.date(2026, 2, 5))


def test_overview(con):
    assert overview(con, Filters()) == {
        "games": 6, "finished": 5, "players": 4, "rounds": 21, "events": 3,
        "first_date": dt.date(2026, 1, 8), "last_date": dt.date(2026, 2, 5),
        "imports": 1, "rejects": 1}
    club = overview(con, Filters(events=("Club",)))
    assert (club["games"], club["finished"], club["players"], club["rounds"]) == (4, 3, 3, 14)
    assert club["rejects"] == 1  # database-wide


def test_standings_best_first(con):
    out = standings(con, Filters())
    assert out.columns == STANDINGS_COLUMNS
    # points_against is the best opponent's score in each game.
    assert out.select(STANDINGS_COLUMNS[:8]).rows() == [
        ("Cid", 3, 2, 0, 1, 11, 7, 4),     # G3 lost 1-2, G4 won 7 v 3, G6 won 3 v 2
        ("Ann", 5, 2, 0, 3, 16, 20, -4),   # same wins as Cid, worse difference
        ("Bob", 4, 1, 0, 3, 9, 21, -12),
        ("Dee", 1, 0, 0, 1, 2, 3, -1),
    ]
    ann = out.row(1, named=True)
    assert ann["win_rate"] == pytest.approx(0.4)
    assert (ann["ci_low"], ann["ci_high"]) == pytest.approx(wilson(2, 5))


def test_standings_for_one_evening(con):
    out = standings(con, Filters(events=("Club",), date_to=dt.date(2026, 1, 8)))
    assert out.select("player", "games", "wins", "losses", "points_for", "points_against").rows() \
        == [("Ann", 2, 1, 1, 11, 9), ("Bob", 2, 1, 1, 9, 11)]


def test_standings_with_four_players(con):
    # Only G6: Ann and Bob both score 0 and lose to Cid; the score to beat for Cid is Dee's 2.
    out = standings(con, Filters(n_players=4))
    assert out.select("player", "wins", "draws", "losses", "point_diff").rows() == [
        ("Cid", 1, 0, 0, 1), ("Dee", 0, 0, 1, -1), ("Ann", 0, 0, 1, -3), ("Bob", 0, 0, 1, -3)]


def test_standings_count_draws(calm_con):
    out = standings(calm_con, Filters())
    assert out.select(STANDINGS_COLUMNS[:8]).rows() == [
        ("Ann", 1, 0, 1, 0, 3, 3, 0), ("Bob", 1, 0, 1, 0, 3, 3, 0)]
    assert out["win_rate"].to_list() == [0.0, 0.0]


def test_match_results_cumulative_and_best_of(con):
    out = match_results(con, Filters())
    assert out.columns == ["event", "date", "match", "player", "games", "total_points",
                           "game_wins", "cumulative_rank", "best_of_winner", "cumulative_winner",
                           "match_games"]
    # Newest match first: M2 (2026-01-15) before M1 (2026-01-08).
    assert out.select("match", "player", "games", "total_points", "game_wins", "cumulative_rank",
                      "best_of_winner", "cumulative_winner", "match_games").rows() == [
        ("M2", "Ann", 1, 2, 1, 1, "Ann", "Ann", 1),
        ("M2", "Cid", 1, 1, 0, 2, "Ann", "Ann", 1),
        ("M1", "Ann", 2, 11, 1, 1, None, "Ann", 2),   # 1-1 in games, 11-9 on points
        ("M1", "Bob", 2, 9, 1, 2, None, "Ann", 2),
    ]
    assert out.select("event", "date").unique(maintain_order=True).rows() == [
        ("Club", dt.date(2026, 1, 15)), ("Club", dt.date(2026, 1, 8))]
    only_g1 = match_results(con, Filters(matches=("M1",), players=("Ann",),
                                         date_to=dt.date(2026, 1, 8), n_players=2))
    assert only_g1.height == 2
    first_game = match_results(con, Filters(events=("Club",), tie_rule="discard"))
    assert first_game["match"].unique().to_list() == ["M2"]


def test_head_to_head(con):
    out = head_to_head(con, Filters())
    assert out.columns == ["player", "opponent", "games", "wins", "draws", "losses",
                           "points_for", "points_against"]
    got = {(r[0], r[1]): r[2:] for r in out.rows()}
    assert got[("Ann", "Bob")] == (4, 2, 1, 1, 14, 9)   # G1 L, G2 W, G4 W 3-0, G6 D 0-0
    assert got[("Bob", "Ann")] == (4, 1, 1, 2, 9, 14)
    assert got[("Ann", "Cid")] == (3, 1, 0, 2, 5, 11)
    assert got[("Bob", "Cid")] == (2, 0, 0, 2, 0, 10)
    assert got[("Cid", "Dee")] == (1, 1, 0, 0, 3, 2)
    assert len(got) == 12
    two = head_to_head(con, Filters(n_players=2))
    assert {(r[0], r[1]): r[2:] for r in two.rows()}[("Ann", "Bob")] == (2, 1, 0, 1, 11, 9)


def test_match_results_limit_keeps_the_newest_matches(con):
    # M2's game (2026-01-15) is newer than M1's (2026-01-08).
    assert match_results(con, Filters(), limit=1)["match"].unique().to_list() == ["M2"]
    assert match_results(con, Filters(), limit=5)["match"].unique(maintain_order=True).to_list() \
        == ["M2", "M1"]
    assert match_results(con, Filters(), limit=0).height == 0


# Ann wins 5-1 (3 on her 3, 2 on her 2; Bob takes the 1 with his 3), or Bob does.
ANN_WINS = "1. 3 3 2 2. 2 2 A 3. A A 3\n5-1\n"
BOB_WINS = "1. 3 2 3 2. 2 A 2 3. A 3 A\n1-5\n"


def _game(tags: str, moves: str, match: str = "1") -> str:
    return f'{tags} [A "Ann"] [B "Bob"] [Cards "3"] [Match "{match}"]\n{moves}\n'


#: Clubs number their matches afresh every evening: four different matches named "1".
EVENINGS = "".join([
    _game('[Event "Club"] [Date "2026.03.01"] [Round "1"]', ANN_WINS),
    _game('[Event "Club"] [Date "2026.03.01"] [Round "2"]', ANN_WINS),
    _game('[Event "Club"] [Date "2026.03.08"]', BOB_WINS),
    _game('[Event "Club"] [Date "2026.03.08"]', ANN_WINS, "10"),
    _game('[Event "Club"] [Date "2026.03.08"]', ANN_WINS, "2"),
    _game('[Event "Cup"] [Date "2026.03.01"]', ANN_WINS),
    _game('[Round "1"]', ANN_WINS),   # no event, no date: these two are one match
    _game('[Round "2"]', BOB_WINS),
])


@pytest.fixture(scope="module")
def evenings_con(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("evenings")
    (folder / "evenings.gops").write_text(EVENINGS, encoding="utf-8")
    assert import_paths([folder], folder / "e.duckdb").games_new == 8
    c = duckdb.connect(str(folder / "e.duckdb"), read_only=True)
    yield c
    c.close()


def test_match_results_keep_evenings_apart(evenings_con):
    out = match_results(evenings_con, Filters())
    march = dt.date(2026, 3, 1)
    assert out.select("event", "date", "match", "player", "games", "total_points", "game_wins",
                      "cumulative_rank", "best_of_winner", "cumulative_winner",
                      "match_games").rows() == [
        ("Club", dt.date(2026, 3, 8), "1", "Bob", 1, 5, 1, 1, "Bob", "Bob", 1),
        ("Club", dt.date(2026, 3, 8), "1", "Ann", 1, 1, 0, 2, "Bob", "Bob", 1),
        # numbered matches in number order: 2 before 10
        ("Club", dt.date(2026, 3, 8), "2", "Ann", 1, 5, 1, 1, "Ann", "Ann", 1),
        ("Club", dt.date(2026, 3, 8), "2", "Bob", 1, 1, 0, 2, "Ann", "Ann", 1),
        ("Club", dt.date(2026, 3, 8), "10", "Ann", 1, 5, 1, 1, "Ann", "Ann", 1),
        ("Club", dt.date(2026, 3, 8), "10", "Bob", 1, 1, 0, 2, "Ann", "Ann", 1),
        ("Club", march, "1", "Ann", 2, 10, 2, 1, "Ann", "Ann", 2),
        ("Club", march, "1", "Bob", 2, 2, 0, 2, "Ann", "Ann", 2),
        ("Cup", march, "1", "Ann", 1, 5, 1, 1, "Ann", "Ann", 1),
        ("Cup", march, "1", "Bob", 1, 1, 0, 2, "Ann", "Ann", 1),
        # 1-1 in games and 6-6 on points: no winner either way
        (None, None, "1", "Ann", 2, 6, 1, 1, None, None, 2),
        (None, None, "1", "Bob", 2, 6, 1, 1, None, None, 2),
    ]
    assert match_results(evenings_con, Filters(), limit=4).select("event", "date", "match") \
        .unique(maintain_order=True).rows() == [("Club", dt.date(2026, 3, 8), "1"),
                                                ("Club", dt.date(2026, 3, 8), "2"),
                                                ("Club", dt.date(2026, 3, 8), "10"),
                                                ("Club", march, "1")]
    one_day = match_results(evenings_con, Filters(date_from=march, date_to=march))
    assert one_day.select("event").unique(maintain_order=True)["event"].to_list() == \
        ["Club", "Cup"]
