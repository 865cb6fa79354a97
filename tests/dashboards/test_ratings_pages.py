"""The ratings on the pages (dashboards/ratings_panel.py) under AppTest: tonight's changes
on Session, the history, form and calibration on Players, the Gin ratings on the Gin
standings. Facts of the hand-written club (club_fixture.py): Tuesday Alice beats Bruno
twice and draws once; Friday Carla beats Alice, then wins a game of three (Alice second,
Bruno third); one Friday game is unfinished."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from gin_fixture import build_gin_db
from streamlit.testing.v1 import AppTest

from gops_records.core import ratings
from gops_records.core.store.db import reading

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT = 60


def start(db: Path, monkeypatch: pytest.MonkeyPatch, page: str, **params: str) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def charts(at: AppTest) -> dict[str, pl.DataFrame]:
    out = {}
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        frames = [pl.from_arrow(pa.ipc.open_stream(d.data.data).read_all())
                  for d in chart.proto.datasets]
        title = spec.get("title", "")
        out[title.get("text", "") if isinstance(title, dict) else title] = frames
    return out


def table_with(at: AppTest, *columns: str) -> pl.DataFrame:
    for df in at.dataframe:
        if all(c in df.value.columns for c in columns):
            return pl.from_pandas(df.value)
    raise AssertionError(f"no table with columns {columns}")


def test_session_shows_how_the_evening_moved_the_ratings(club_db, monkeypatch) -> None:
    at = start(club_db, monkeypatch, "gops/session.py")
    assert "Ratings tonight" in [h.value for h in at.header]
    tonight = table_with(at, "before", "after", "change")
    rows = {r["player"]: r for r in tonight.iter_rows(named=True)}
    assert set(rows) == {"Carla", "Alice", "Bruno"}  # Friday cup, the latest evening
    assert (rows["Carla"]["games"], rows["Carla"]["wins"]) == (2, 2)
    assert (rows["Alice"]["games"], rows["Alice"]["wins"]) == (2, 0)
    assert rows["Bruno"]["games"] == 1
    assert rows["Carla"]["change"] > 0 > rows["Bruno"]["change"]
    assert tonight["player"][0] == "Carla"  # largest gain first
    assert all(r["after"].endswith("?") for r in rows.values())  # all provisional
    with reading(club_db) as con:
        expected = ratings.evening_changes(ratings.ratings_of(con, "gops").history,
                                           __import__("datetime").date(2026, 3, 6),
                                           "Friday cup")
    assert tonight["change"].to_list() == pytest.approx(expected["change"].to_list())


def test_all_evenings_ask_for_one_and_every_rating_is_listed(club_db, monkeypatch) -> None:
    at = start(club_db, monkeypatch, "gops/session.py", evening="all")
    assert any("Pick one evening" in c.value for c in at.caption)
    table = table_with(at, "rating", "interval", "last_played")
    assert table["player"].to_list()[-1] == "Bruno"  # lost all four of his games
    assert table["games"].to_list() == [5, 2, 4] if table["player"][0] == "Alice" \
        else sorted(table["games"].to_list()) == [2, 4, 5]
    assert all(r.endswith("?") for r in table["rating"].to_list())


def test_players_shows_history_form_and_calibration(club_db, monkeypatch) -> None:
    at = start(club_db, monkeypatch, "gops/players.py", profile="Alice")
    assert "Rating and form" in [h.value for h in at.header]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Rated games"] == "5" and metrics["Rating"].endswith("?")
    found = charts(at)
    history = found["Alice's rating by evening"][0]
    assert history.height == 2  # one point per evening, not per game
    assert history.sort("date")["games"].to_list() == [3, 2]
    assert (history["low"] <= history["rating"] + 1e-9).all()
    assert (history["high"] > history["mu"]).all()
    form = table_with(at, "mean place", "wins")
    assert form["games"].to_list() == [2, 3]  # newest first
    calibration = found["Predicted against actual"]
    counts = next(f for f in calibration if "count" in f.columns)
    assert counts["count"].sum() == 2 * 3 + 2 + 3  # every player of every finished game
    assert "Do the ratings mean anything?" in [h.value for h in at.header]


def test_gin_standings_show_the_gin_ratings(tmp_path_factory, monkeypatch) -> None:
    db = build_gin_db(tmp_path_factory.mktemp("gin_ratings"))
    at = start(db, monkeypatch, "gin/standings.py", gin_evening="all")
    assert "Ratings" in [h.value for h in at.header]
    table = table_with(at, "rating", "interval", "games")
    with reading(db) as con:
        rated = ratings.ratings_of(con, "gin")
    expected = rated.table
    assert table["player"].to_list() == expected["player"].to_list()
    assert table["games"].to_list() == expected["games"].to_list()
    # the latest evening has no finished game; the first has one, Alice's
    latest = start(db, monkeypatch, "gin/standings.py")
    assert "No finished game of this evening is rated." in [i.value for i in latest.info]
    latest.query_params.update(gin_evening="2026-03-05 · Gin night")
    first = latest.run()
    tonight = table_with(first, "before", "after", "change")
    assert tonight["player"].to_list() == ["Alice", "Bruno"]
    assert tonight["games"].to_list() == [1, 1] and tonight["wins"].to_list() == [1, 0]
    assert tonight["change"][0] > 0 > tonight["change"][1]
