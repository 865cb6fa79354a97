"""The shared ratings (gops_records/core/ratings.py): order, uncertainty, form, calibration."""

from __future__ import annotations

import datetime as dt
import math

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.core import ratings

D = dt.date


def placings(rows: list[tuple]) -> pl.DataFrame:
    """(date, event, game_key, player, place) rows as a placings frame."""
    return pl.DataFrame(rows, schema={"date": pl.Date, "event": pl.String,
                                      "game_key": pl.UInt64, "player": pl.String,
                                      "place": pl.Int64}, orient="row")


def test_a_winner_gains_and_a_loser_drops_and_both_grow_surer() -> None:
    rated = ratings.rate(placings([(D(2026, 1, 1), "club", 1, "Ann", 1),
                                   (D(2026, 1, 1), "club", 1, "Bob", 2)]))
    table = {r["player"]: r for r in rated.table.iter_rows(named=True)}
    assert table["Ann"]["mu"] > 25 > table["Bob"]["mu"]
    assert table["Ann"]["sigma"] < 25 / 3 and table["Bob"]["sigma"] < 25 / 3
    assert rated.table["player"].to_list() == ["Ann", "Bob"]
    assert table["Ann"]["rating"] == pytest.approx(table["Ann"]["mu"] - 3 * table["Ann"]["sigma"])
    assert table["Ann"]["low"] == table["Ann"]["rating"]
    assert table["Ann"]["high"] == pytest.approx(table["Ann"]["mu"] + 3 * table["Ann"]["sigma"])
    assert table["Ann"]["provisional"] and table["Ann"]["games"] == 1
    # before the first game nobody is favoured
    assert rated.history["win_chance"].to_list() == pytest.approx([0.5, 0.5])


def test_shared_places_are_a_draw_and_split_the_win() -> None:
    rated = ratings.rate(placings([(D(2026, 1, 1), None, 7, "Ann", 1),
                                   (D(2026, 1, 1), None, 7, "Bob", 1),
                                   (D(2026, 1, 1), None, 7, "Cat", 3)]))
    by = {r["player"]: r for r in rated.history.iter_rows(named=True)}
    assert by["Ann"]["win_share"] == by["Bob"]["win_share"] == 0.5
    assert by["Cat"]["win_share"] == 0
    assert by["Ann"]["mu"] == pytest.approx(by["Bob"]["mu"])
    assert by["Ann"]["mu"] > 25 > by["Cat"]["mu"]


def test_undated_games_come_first_then_date_event_and_key() -> None:
    frame = ratings.ordered(placings([
        (D(2026, 2, 1), "b", 1, "Ann", 1), (D(2026, 2, 1), "b", 1, "Bob", 2),
        (D(2026, 2, 1), "a", 9, "Ann", 2), (D(2026, 2, 1), "a", 9, "Bob", 1),
        (None, "z", 5, "Ann", 1), (None, "z", 5, "Bob", 2),
        (D(2026, 1, 1), None, 3, "Ann", 1), (D(2026, 1, 1), None, 3, "Bob", 2)]))
    keys = frame.unique("seq", keep="first", maintain_order=True)["game_key"].to_list()
    assert keys == [5, 3, 9, 1]
    assert frame["seq"].unique().sort().to_list() == [0, 1, 2, 3]


def test_form_counts_games_and_wins_by_evening() -> None:
    rows = []
    for key, (day, winner) in enumerate([(1, "Ann"), (1, "Ann"), (1, "Bob"), (8, "Bob")]):
        loser = "Bob" if winner == "Ann" else "Ann"
        rows += [(D(2026, 1, day), "club", key, winner, 1),
                 (D(2026, 1, day), "club", key, loser, 2)]
    rated = ratings.rate(placings(rows))
    form = ratings.form(rated.history, "Ann")
    assert form["games"].to_list() == [3, 1]
    assert form["wins"].to_list() == [2, 0]
    assert form["change"].to_list()[1] < 0  # lost the only game of the second evening
    assert form["rating"].to_list()[-1] == pytest.approx(
        rated.table.filter(pl.col("player") == "Ann")["rating"].item())
    assert form["change"].sum() == pytest.approx(form["rating"].to_list()[-1])  # from 0
    with pytest.raises(ratings.NoRatingsError, match="Zed"):
        ratings.form(rated.history, "Zed")
    tonight = ratings.evening_changes(rated.history, D(2026, 1, 8), "club")
    assert tonight["player"].to_list() == ["Bob", "Ann"] and tonight["games"].to_list() == [1, 1]
    assert tonight["provisional_before"].all() and tonight["provisional"].all()


def test_provisional_ends_at_the_tenth_game_and_tonight_says_when() -> None:
    rows = [(D(2026, 1, 1 + k // 4), "club", k, p, 1 + ((p == "Bob") ^ (k % 3 == 0)))
            for k in range(12) for p in ("Ann", "Bob")]
    rated = ratings.rate(placings(rows))
    assert not rated.table["provisional"].any()
    assert rated.table["games"].to_list() == [12, 12]
    third = ratings.evening_changes(rated.history, D(2026, 1, 3))  # games 9 to 12
    assert third["provisional_before"].all() and not third["provisional"].any()
    assert ratings.PROVISIONAL_GAMES == 10


def test_a_player_twice_in_one_game_is_refused() -> None:
    with pytest.raises(ratings.NoRatingsError, match="twice"):
        ratings.rate(placings([(None, None, 1, "Ann", 1), (None, None, 1, "Ann", 2)]))


def test_no_games_give_empty_ratings() -> None:
    rated = ratings.rate(placings([]))
    assert rated.table.is_empty() and rated.history.is_empty()
    assert math.isnan(ratings.brier(rated.history))


def test_calibration_counts_every_prediction_once() -> None:
    rows = []
    for key in range(60):  # Ann beats Bob 50 times of 60: her predicted chance climbs
        winner, loser = ("Ann", "Bob") if key % 6 else ("Bob", "Ann")
        rows += [(D(2026, 1, 1 + key % 28), "club", key, winner, 1),
                 (D(2026, 1, 1 + key % 28), "club", key, loser, 2)]
    rated = ratings.rate(placings(rows))
    cal = ratings.calibration(rated.history, bins=5)
    assert cal["count"].sum() == 120
    assert ((cal["predicted"] >= cal["bin_low"]) & (cal["predicted"] <= cal["bin_high"])).all()
    assert ((cal["low"] <= cal["observed"]) & (cal["observed"] <= cal["high"])).all()
    # better than a coin: the model learnt that Ann wins most
    assert ratings.brier(rated.history) < 0.25


EVENINGS = st.lists(
    st.tuples(st.one_of(st.none(), st.dates(D(2025, 1, 1), D(2026, 12, 31))),
              st.sampled_from([None, "Tuesday", "Thursday club"]),
              st.lists(st.tuples(st.lists(st.sampled_from("ABCDEF"), min_size=2, max_size=4,
                                          unique=True),
                                 st.lists(st.integers(1, 4), min_size=4, max_size=4)),
                       min_size=1, max_size=4)),
    min_size=1, max_size=6)


@settings(max_examples=25, deadline=None)
@given(EVENINGS, st.randoms(use_true_random=False))
def test_import_order_of_evenings_does_not_change_the_ratings(evenings, rnd) -> None:
    """An evening imported late gives the ratings it would have given first: the
    placings of each evening, concatenated in any order, rate the same."""
    frames = _frames(evenings)
    first = ratings.rate(pl.concat(frames))
    rnd.shuffle(frames)
    again = ratings.rate(pl.concat(frames))
    assert first.table.equals(again.table)
    assert first.history.equals(again.history)


def _frames(evenings) -> list[pl.DataFrame]:
    frames, key = [], 0
    for date, event, games in evenings:
        rows = []
        for seats, places in games:
            key += 1
            rows += [(date, event, key * 7919, p, places[i]) for i, p in enumerate(seats)]
        frames.append(placings(rows))
    return frames


@settings(max_examples=25, deadline=None)
@given(EVENINGS, st.data())
def test_rating_on_from_earlier_ratings_is_rating_afresh(evenings, data) -> None:
    """An import adds evenings (old or new) or a game disappears: ratings brought up to
    date from the earlier ones equal ratings computed from nothing."""
    frames = _frames(evenings)
    before = data.draw(st.lists(st.sampled_from(range(len(frames))), unique=True))
    earlier = ratings.rate(pl.concat([frames[i] for i in before]) if before
                           else placings([]))
    now = pl.concat(frames)
    if data.draw(st.booleans()) and now.height:  # drop one game as well
        now = now.filter(pl.col("game_key") != now["game_key"][0])
    fresh, updated = ratings.rate(now), ratings.rate(now, earlier.history)
    assert updated.history.equals(fresh.history)
    assert updated.table.equals(fresh.table)


def test_rating_on_rates_only_the_games_after_the_first_change() -> None:
    day1 = [(D(2026, 1, 1), "club", k, p, 1 + (p != "Ann"))
            for k in (1, 2) for p in ("Ann", "Bob")]
    day2 = [(D(2026, 1, 8), "club", 3, "Ann", 2), (D(2026, 1, 8), "club", 3, "Bob", 1)]
    earlier = ratings.rate(placings(day1))
    assert ratings._first_change(earlier.history, ratings.ordered(placings(day1 + day2))) == 2
    old = [(D(2025, 12, 1), "club", 9, "Ann", 1), (D(2025, 12, 1), "club", 9, "Bob", 2)]
    assert ratings._first_change(earlier.history, ratings.ordered(placings(old + day1))) == 0
