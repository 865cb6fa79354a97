"""Every dashboard page on a store holding dates Python cannot hold (issue 21): the club's
Gops games and Gin hands, and a copy of each (events "Odd ...") dated year 0, 44 BC, year
10000, ±infinity, DuckDB's first and last day, NULL. Every page rendered
"'<' not supported between instances of 'datetime.date' and 'str'" before.

(Named apart from tests/games/gops/analytics/test_odd_dates.py: two test files of one name in
folders without ``__init__.py`` cannot be collected in one run.)"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest
from club_fixture import GAMES, write_records
from odd_dates import renamed, set_odd_dates
from streamlit.testing.v1 import AppTest

from gops_records.core.game_refs import game_ref
from gops_records.core.importer import import_paths

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
GIN_CLUB = Path(__file__).resolve().parents[1] / "games" / "gin" / "gin_club.gin"
PAGES = {"gops/session.py": "Session results", "gops/players.py": None,
         "gops/ties.py": None, "gops/h2h.py": None, "gops/game.py": None,
         "quality.py": None, "gops/scout.py": None,
         "gin/standings.py": "Gin standings", "gin/hands.py": "How hands end",
         "gin/knocks.py": "Knocks and gin"}
FRIDAY, TUESDAY = "2026-03-06 · Friday cup", "2026-03-03 · Tuesday club"
ODD = "Odd "
TIMEOUT = 60


#: Year 0, 44 BC, year 10000 and NULL, then DuckDB's infinities and its first and last
#: day (an infinity reads as date.min or date.max in Python, which hid the others).
FINITE = ("0000-01-01", "-0044-03-15", "10000-01-01", None)
INFINITE = ("infinity", "-infinity", "5881580-07-10", "5877642-06-25 (BC)")


def build(folder: Path, dates: tuple[str | None, ...]) -> Path:
    """The club's records, gin_club.gin, and a copy of each (events "Odd ...") given
    ``dates`` in turn, in one database under ``folder``."""
    records = write_records(folder / "records")
    for name in ("tuesday.gops", "friday.gops"):
        text = (records / name).read_text(encoding="utf-8")
        (records / f"odd-{name}").write_text(renamed(text, ODD), encoding="utf-8")
    gin = GIN_CLUB.read_text(encoding="utf-8")
    (records / "club.gin").write_text(gin, encoding="utf-8")
    (records / "odd.gin").write_text(renamed(gin, ODD), encoding="utf-8")
    db = folder / "odd.duckdb"
    summary = import_paths([records], db)
    assert summary.games_new == 2 * GAMES + 2 * 4, summary.as_dict()
    assert set_odd_dates(db, ODD, dates) == GAMES + 3
    return db


@pytest.fixture(scope="module")
def odd_db(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("finite"), FINITE)


@pytest.fixture(scope="module")
def infinite_db(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("infinite"), INFINITE)


def start(db: Path, monkeypatch, page: str, **params: str) -> AppTest:
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, (page, [e.message for e in at.exception])
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_renders(odd_db, infinite_db, monkeypatch, page: str) -> None:
    for db in (odd_db, infinite_db):
        at = start(db, monkeypatch, page)
        assert at.title, page
        if PAGES[page]:
            assert at.title[0].value == PAGES[page]


def test_the_evenings_are_those_of_the_dated_games(odd_db, monkeypatch) -> None:
    at = start(odd_db, monkeypatch, "gops/session.py")
    picker = at.selectbox(key="evening_pick")
    assert picker.options[0].startswith(f"{FRIDAY} (latest)") and picker.value == FRIDAY
    assert not [o for o in picker.options if ODD in o or "(BC)" in o]
    assert any(o.startswith(TUESDAY) for o in picker.options)
    m = metrics(at)  # as on the club database alone (test_apptest.py)
    assert (m["Games"], m["Finished"], m["Players"], m["Rounds played"], m["Events"]) == \
        ("3", "2", "3", "12", "1")


def test_the_sidebar_dates_span_the_known_dates(odd_db, monkeypatch) -> None:
    at = start(odd_db, monkeypatch, "gops/session.py")
    (dates,) = at.sidebar.date_input
    assert (dates.proto.min, dates.proto.max) == ("2026-03-03", "2026-03-06")


def test_the_game_viewer_lists_odd_games_as_undated(odd_db, monkeypatch) -> None:
    at = start(odd_db, monkeypatch, "gops/game.py")
    labels = at.selectbox[0].options
    assert len(labels) == 2 * GAMES
    odd = [label for label in labels if ODD in label]
    assert len(odd) == GAMES and all(" · undated · " in label for label in odd)
    assert labels[-GAMES:] == odd  # after every dated game
    assert sum(" · 2026-03-06 · Friday cup · " in label for label in labels) == 3
    at.selectbox[0].select(odd[0]).run()
    assert not at.exception
    game_id = int(at.query_params["game_id"])
    # the Date tag as written stands for the date
    assert at.caption[1].value.startswith(f"Game **{game_ref(game_id)}** · {ODD}")
    shown = at.caption[1].value.replace("\\", "").replace("\u2060", "")  # Markdown escapes
    assert "· 2026.03.0" in shown


def test_gin_standings_show_the_dated_matches(odd_db, monkeypatch) -> None:
    at = start(odd_db, monkeypatch, "gin/standings.py")
    # all evenings: the page opens on the latest one (issue 22)
    at.selectbox(key="gin_evening_pick").select("all").run()
    m = metrics(at)
    assert (m["Hands"], m["Games"]) == ("8", "6")
    matches = table(at, "games_a")
    assert matches.select("event", "games_a", "points_a").rows() == [
        ("Gin night", 1, 169), (f"{ODD}Gin night", 1, 169)]
    assert matches["date"].to_list() == [dt.date(2026, 3, 5), None]
    games = table(at, "game_no")
    assert games["date"].to_list() == [dt.date(2026, 3, 12)] * 2 + [dt.date(2026, 3, 5)] + \
        [None] * 3
    assert games["event"].to_list()[3:] == [f"{ODD}Cup", f"{ODD}Gin night", f"{ODD}Gin night"]


def table(at: AppTest, column: str) -> pl.DataFrame:
    """The page's table with ``column``, its dates as Python dates (None: unknown)."""
    found = next(pl.from_pandas(df.value) for df in at.dataframe if column in df.value.columns)
    return found.with_columns(pl.col("date").cast(pl.Date))


def test_all_evenings_count_the_undated_games_too(odd_db, monkeypatch) -> None:
    at = start(odd_db, monkeypatch, "gops/session.py")
    at.selectbox(key="evening_pick").select("all").run()
    assert not at.exception, [e.message for e in at.exception]
    m = metrics(at)
    assert (m["Games"], m["Events"]) == (str(2 * GAMES), "4")
    events = {e for df in at.dataframe if "event" in df.value.columns
              for e in df.value["event"]}
    assert {"Tuesday club", f"{ODD}Tuesday club"} <= events  # the match results of both
