"""Evenings (date + event) of the club database (see conftest): G1-G2 Club 2026-01-08,
G3 and G5 Club 2026-01-15, G4 Other 2026-02-01, G6 Four 2026-02-05."""

from __future__ import annotations

import datetime as dt

from gops_records.games.gops.analytics import Filters, evening_filters, evenings, overview


def test_evenings_newest_first_with_their_games(con):
    out = evenings(con, Filters())
    assert out.columns == ["date", "event", "games", "finished"]
    assert out.rows() == [
        (dt.date(2026, 2, 5), "Four", 1, 1),
        (dt.date(2026, 2, 1), "Other", 1, 1),
        (dt.date(2026, 1, 15), "Club", 2, 1),  # G5 is unfinished
        (dt.date(2026, 1, 8), "Club", 2, 2),
    ]
    assert evenings(con, Filters(), 1).rows() == out.head(1).rows()


def test_evenings_follow_the_filters(con):
    assert evenings(con, Filters(events=("Club",)))["date"].to_list() == [
        dt.date(2026, 1, 15), dt.date(2026, 1, 8)]
    assert evenings(con, Filters(players=("Dee",)))["event"].to_list() == ["Four"]
    assert evenings(con, Filters(events=("No such",))).is_empty()


def test_evening_filters_keep_one_evening(con):
    f = evening_filters(Filters(finished_only=True), dt.date(2026, 1, 15), "Club")
    assert (f.date_from, f.date_to, f.events, f.finished_only) == (
        dt.date(2026, 1, 15), dt.date(2026, 1, 15), ("Club",), True)
    assert overview(con, f)["games"] == 1  # G3 (G5 is unfinished)
    assert evening_filters(Filters(), dt.date(2026, 1, 8), None).events == ()
