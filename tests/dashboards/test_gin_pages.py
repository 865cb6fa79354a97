"""The Gin Rummy pages under Streamlit's AppTest, on the hand-written gin_club.gin database
(figures worked out in gin_fixture.py's docstring) and on the bundled samples."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from gin_fixture import RECORDS, build_gin_db
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
SAMPLES = Path(__file__).resolve().parents[2] / "gops_records" / "samples"
GIN_PAGES = {"gin/standings.py": "Gin standings", "gin/hands.py": "How hands end",
             "gin/knocks.py": "Knocks and gin"}
TIMEOUT = 60


@pytest.fixture(scope="session")
def gin_db(tmp_path_factory) -> Path:
    return build_gin_db(tmp_path_factory.mktemp("gin"))


def start(db: Path, monkeypatch, page: str, **params: str | list[str]) -> AppTest:
    """The app on ``db`` showing ``page``, then given ``params`` in the URL as a link
    (or an edit of the address) would."""
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page).run()
    if params:
        at.query_params.update(params)
        at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def charts(at: AppTest) -> dict[str, pl.DataFrame]:
    """Each chart's title -> its first dataset."""
    out = {}
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        title = spec.get("title", {})
        frames = [pl.from_arrow(pa.ipc.open_stream(d.data.data).read_all())
                  for d in chart.proto.datasets]
        out[title.get("text", "") if isinstance(title, dict) else title] = \
            frames[0] if frames else pl.DataFrame()
    return out


def frame(at: AppTest, column: str) -> pl.DataFrame:
    for df in at.dataframe:
        if column in df.value.columns:
            return pl.from_pandas(df.value)
    raise AssertionError(f"no table with a {column!r} column")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_every_gin_page_renders_with_charts_and_downloads(gin_db, monkeypatch):
    for page, title in GIN_PAGES.items():
        at = start(gin_db, monkeypatch, page)
        assert [t.value for t in at.title] == [title]
        assert len(at.get("vega_lite_chart")) >= 3, page
        labels = [b.proto.label for b in at.get("download_button")]
        assert labels.count("PNG") == len(at.get("vega_lite_chart")) and "CSV" in labels
        assert [h.value for h in at.sidebar.header] == ["Gin Rummy filters"]


def test_standings_page_figures(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/standings.py", gin_evening="all")
    m = metrics(at)
    assert (m["Hands"], m["Games"], m["Matches"], m["Players"]) == ("4", "3", "3", "2")
    assert m["Blitzes (0 of 1 games)"] == "0%"
    standings = frame(at, "game_points")
    assert dict(zip(standings["player"], standings["game_points"], strict=True)) == \
        {"Alice": 169, "Bruno": 0}
    points = charts(at)["Game points"]
    assert dict(zip(points["player"], points["game_points"], strict=True))["Alice"] == 169
    assert frame(at, "games_a")["winner"].to_list() == [None]  # 1-0: undecided


def test_knocks_and_hands_pages_figures(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/knocks.py")
    limit = charts(at)["Undercut rate by knock limit"]
    assert limit.select("knock_limit", "knocks", "undercuts", "rate").rows() == \
        [("7", 2, 2, 1.0)]
    knockers = frame(at, "limit_left")
    assert dict(zip(knockers["player"], knockers["knocks"], strict=True)) == \
        {"Alice": 2, "Bruno": 0}
    at.switch_page("gin/hands.py").run()
    hands = frame(at, "upcard")
    assert set(hands["upcard"]) == {"6♣", "3♥", "7♦"}  # readable cards
    ends = charts(at)["How hands end, by knock limit"]
    assert set(ends["label"]) == {"3 · 1 hand", "6 · 1 hand", "7 · 2 hands"}  # counts shown
    seats = frame(at, "who")
    assert seats.filter(pl.col("who") == "non-dealer")["hands"].to_list() == [4]


def test_filters_from_the_url_and_clearing_them(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/standings.py", gin_event="Cup")
    assert metrics(at)["Hands"] == "1"
    assert at.multiselect(key="gin_f_events").value == ["Cup"]
    at.multiselect(key="gin_f_players").set_value(["Alice"]).run()
    assert at.query_params.get("gin_player") == ["Alice"] or \
        at.query_params.get("gin_player") == "Alice"
    at = start(gin_db, monkeypatch, "gin/hands.py", gin_player="Nobody")
    assert any("No Gin Rummy hand matches" in i.value for i in at.info)
    at.button(key="gin_clear_hands").click().run()
    assert not at.exception and not at.info
    assert len(at.get("vega_lite_chart")) >= 3


def test_gops_pages_keep_their_sidebar_and_filters(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/knocks.py", event="Some evening")
    assert at.query_params.get("event") in ("Some evening", ["Some evening"])
    at.switch_page("gops/session.py").run()
    assert not at.exception
    assert "Filters" in [h.value for h in at.sidebar.header]


def test_a_database_without_gin_hands_says_so(empty_db, monkeypatch):
    at = start(empty_db, monkeypatch, "gin/standings.py")
    assert any("no Gin Rummy hands yet" in i.value for i in at.info)


def test_the_pages_on_the_bundled_samples(tmp_path, monkeypatch):
    db = tmp_path / "samples.duckdb"
    import_paths([SAMPLES], db)
    for page in GIN_PAGES:
        at = start(db, monkeypatch, page)
        assert len(at.get("vega_lite_chart")) >= 3
    assert metrics(at) == {}  # the knocks page has no metrics
    at.switch_page("gin/standings.py").run()
    assert metrics(at)["Games"] == "6"  # the latest evening: 2026-01-29's six games
    at.button(key="gin_all_evenings").click().run()
    assert metrics(at)["Games"] == "24"  # 18 from full hands, 6 from the sheets


# -- the standings open on the latest evening (issue 22), as the Session page does ----------


@pytest.fixture(scope="session")
def two_evenings_db(tmp_path_factory) -> Path:
    """gin_club.gin without its Cup hand: the evenings 2026-03-05 (hands 1 and 2 of Alice
    v Bruno: a game of 169 to Alice) and 2026-03-12 (the Undercut hand), both Gin night."""
    folder = tmp_path_factory.mktemp("gin_two_evenings")
    text = RECORDS.read_text("utf-8")
    hands = ["[Event" + h for h in text.split("[Event")[1:]]
    kept = [h for h in hands if '[Event "Cup"]' not in h]
    assert len(kept) == 3
    (folder / "two.gin").write_text("".join(kept), "utf-8")
    db = folder / "two.duckdb"
    assert import_paths([folder / "two.gin"], db).games_new == 3
    return db


def test_standings_open_on_the_latest_evening(two_evenings_db, monkeypatch):
    at = start(two_evenings_db, monkeypatch, "gin/standings.py")
    picker = at.selectbox(key="gin_evening_pick")
    assert picker.value == "2026-03-12 · Gin night"
    assert len(picker.options) == 3  # two evenings and all of them
    assert metrics(at)["Hands"] == "1"
    assert "gin_evening" not in at.query_params  # the latest evening is the default
    picker.set_value("2026-03-05 · Gin night").run()
    assert metrics(at)["Hands"] == "2"
    assert dict(zip(frame(at, "game_points")["player"], frame(at, "game_points")["game_points"],
                    strict=True))["Alice"] == 169
    assert at.query_params.get("gin_evening") in ("2026-03-05 · Gin night",
                                                   ["2026-03-05 · Gin night"])
    at.button(key="gin_all_evenings").click().run()
    assert metrics(at)["Hands"] == "3"


def test_a_link_opens_its_evening_or_all_of_them(two_evenings_db, monkeypatch):
    at = start(two_evenings_db, monkeypatch, "gin/standings.py",
               gin_evening="2026-03-05 · Gin night")
    assert metrics(at)["Hands"] == "2"
    at = start(two_evenings_db, monkeypatch, "gin/standings.py", gin_evening="all")
    assert metrics(at)["Hands"] == "3"
    at = start(two_evenings_db, monkeypatch, "gin/standings.py",
               gin_evening="1999-01-01 · nowhere")
    assert metrics(at)["Hands"] == "1"  # not an evening in view: the latest one shows
    assert any("not among the evenings" in w.value for w in at.warning)


@pytest.mark.parametrize("page", list(GIN_PAGES))
def test_every_date_column_shows_as_a_date_not_a_timestamp(gin_db: Path, monkeypatch,
                                                           page: str) -> None:
    """Issue 22: a Gin date showed as 2026-12-03 00:00:00 (Streamlit's default for a date
    column); ui.table gives every date column the date format unless a page says otherwise."""
    at = start(gin_db, monkeypatch, page, gin_evening="all")
    dated = 0
    for df in at.dataframe:
        if "date" not in df.value.columns:
            continue
        dated += 1
        config = json.loads(df.proto.columns)["date"]["type_config"]
        assert config == {"type": "date", "format": "YYYY-MM-DD"}, config
    assert dated or page != "gin/standings.py"  # the standings list dated matches


@pytest.mark.parametrize("page", list(GIN_PAGES))
def test_the_standings_evening_stays_in_the_url_of_the_standings_alone(
        gin_db: Path, monkeypatch, page: str) -> None:
    """``gin_evening`` is the standings page's parameter: another Gin page drops it from
    the URL (as a Gops page drops another page's), the standings keep it."""
    at = start(gin_db, monkeypatch, page, gin_evening="all", gin_player="nobody at all")
    kept = dict(at.query_params)
    assert ("gin_evening" in kept) == (page == "gin/standings.py"), kept
