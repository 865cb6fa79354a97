"""Every analytics entry point of the pages on a store holding dates Python cannot hold
(issue 21): year 0, years before Christ, years past 9999, DuckDB's infinities, NULL.

Such a date reads as unknown (the game is undated: listed last, in no evening, dropped by a
date bound) and leaves every figure of the normally dated games as it was."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from odd_dates import FIRST_DAY, LAST_DAY, python_date, renamed, set_odd_dates
from paths import TESTS

from gops_records.core import import_log
from gops_records.core.games_query import GameFilter
from gops_records.core.importer import import_paths
from gops_records.games.gin import analytics as gin
from gops_records.games.gin.games import find_gin_games
from gops_records.games.gops import analytics as a
from gops_records.games.gops.games import find_games

GIN_CLUB = TESTS / "games" / "gin" / "gin_club.gin"
ODD = "Odd "
ALL, GIN_ALL = a.ALL_GAMES, gin.GinFilters()
BOUNDED = a.Filters(date_from=dt.date(2026, 1, 1), date_to=dt.date(2026, 12, 31))
GIN_BOUNDED = gin.GinFilters(date_from=dt.date(2026, 1, 1), date_to=dt.date(2026, 12, 31))


def _import(club_db: Path, folder: Path, odd: bool) -> Path:
    """The records of conftest's club database and gin_club.gin, imported into ``folder``
    (with a copy of each under the events "Odd ..." when ``odd``)."""
    folder.mkdir()
    club = (club_db.parent / "club.gops").read_text(encoding="utf-8")
    (folder / "club.gops").write_text(club, encoding="utf-8")
    gin_text = GIN_CLUB.read_text(encoding="utf-8")
    (folder / "gin.gin").write_text(gin_text, encoding="utf-8")
    if odd:
        (folder / "odd.gops").write_text(renamed(club, ODD), encoding="utf-8")
        (folder / "odd.gin").write_text(renamed(gin_text, ODD), encoding="utf-8")
    db = folder / "store.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_rejected == 0, summary.as_dict()
    return db


@pytest.fixture(scope="module")
def plain(club_db, tmp_path_factory) -> duckdb.DuckDBPyConnection:
    """The club's Gops games and Gin hands, normally dated."""
    con = duckdb.connect(str(_import(club_db, tmp_path_factory.mktemp("plain") / "s", False)),
                         read_only=True)
    yield con
    con.close()


@pytest.fixture(scope="module")
def odd_db(club_db, tmp_path_factory) -> Path:
    """The same plus a copy of each under the events "Odd ...", with odd dates."""
    db = _import(club_db, tmp_path_factory.mktemp("odd") / "s", True)
    assert set_odd_dates(db, ODD) == 6 + 3
    return db


@pytest.fixture(scope="module")
def odd(odd_db: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(odd_db), read_only=True)
    yield con
    con.close()


def showable(value: object) -> None:
    """Every date in ``value`` (a frame, a dict, a tuple of them) is a Python date or None,
    and a frame can be turned into Python rows (what a page and a download do)."""
    if isinstance(value, pl.DataFrame):
        value.rows()
        for name, dtype in value.schema.items():
            if dtype == pl.Date:
                assert all(d is None or isinstance(d, dt.date) for d in value[name].to_list())
        str(value)
    elif isinstance(value, dict):
        for v in value.values():
            showable(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            showable(v)


def gops_calls(con, f: a.Filters) -> dict[str, object]:
    """Each analytics function a Gops page calls, on ``f``."""
    player = "Ann"
    return {
        "date_range": a.date_range(con), "events": a.list_events(con),
        "matches": a.list_matches(con), "variants": a.list_variants(con),
        "players": a.list_players(con, f), "overview": a.overview(con, f),
        "evenings": a.evenings(con, f), "standings": a.standings(con, f),
        "match_results": a.match_results(con, f), "head_to_head": a.head_to_head(con, f),
        "game_shapes": a.game_shapes(con, f), "ties_by_pair": a.ties_by_pair(con, f),
        "final_ties": a.final_ties(con, f), "pool_distribution": a.pool_distribution(con, f),
        "largest_pools": a.largest_pools(con, f), "row_choices": a.row_choices(con, f),
        "games_by_variant": a.games_by_variant(con, f), "games": a.list_games(con, f),
        "player_games": a.list_games(con, f, player=player),
        "bidding": a.player_bidding(con, f, player),
        "strength": a.strength_by_prize(con, f, player),
        "open_row_bids": a.open_row_bids(con, f, player),
        "imports": import_log.list_imports(con),
        "source_files": import_log.list_source_files(con),
        "rejects": a.list_rejects(con),
    }


def gin_calls(con, f: gin.GinFilters) -> dict[str, object]:
    """Each Gin analytics function a Gin page calls, on ``f``."""
    names = ("overview", "standings", "match_results", "game_results", "head_to_head",
             "game_summary", "hands_per_game", "game_scores", "endings_by_limit",
             "endings_by_player", "seat_effects", "deadwood_caught", "caught_by_player",
             "pile_draw_endings", "pile_takers", "list_hands", "undercuts_by_limit",
             "undercuts_by_deadwood", "knockers", "knock_deadwood", "turns_to_out",
             "turns_distribution", "list_players")
    out: dict[str, object] = {n: getattr(gin, n)(con, f) for n in names}
    out["date_range"] = gin.date_range(con)
    return out


def _without_odd(value: object) -> object:
    """A result with the rows of the "Odd" events left out, for comparing with the plain
    store's (those rows are where the two stores differ)."""
    if isinstance(value, pl.DataFrame) and "event" in value.columns:
        return value.filter(~pl.col("event").fill_null("").str.starts_with(ODD))
    return value


@pytest.mark.parametrize("bounded", [False, True])
def test_every_gops_entry_point_reads_odd_dates(plain, odd, bounded: bool) -> None:
    f = BOUNDED if bounded else ALL
    results = gops_calls(odd, f)
    showable(results)
    same = gops_calls(plain, f)
    # what the dates decide is that of the normally dated games alone
    assert results["date_range"] == same["date_range"] == (dt.date(2026, 1, 8),
                                                           dt.date(2026, 2, 5))
    assert results["evenings"].equals(same["evenings"])
    for key in ("first_date", "last_date"):
        assert results["overview"][key] == same["overview"][key]
    dated = _without_odd(results["match_results"])
    assert dated.equals(same["match_results"])


def test_a_date_bound_keeps_the_normally_dated_games_only(plain, odd) -> None:
    assert a.overview(odd, BOUNDED)["games"] == a.overview(plain, BOUNDED)["games"] == 6
    assert a.overview(odd, ALL)["games"] == 12
    games = a.list_games(odd, BOUNDED)
    assert not games["event"].str.starts_with(ODD).any()


def test_odd_games_are_listed_undated_after_the_dated_ones(plain, odd) -> None:
    games = a.list_games(odd, ALL)
    dated = games.filter(~pl.col("event").str.starts_with(ODD))
    assert dated.drop("source").equals(a.list_games(plain, ALL).drop("source"))
    undated = games.filter(pl.col("event").str.starts_with(ODD))
    assert undated.height == 6 and undated["date"].null_count() == 6
    assert games["date"].to_list()[-6:] == [None] * 6  # listed last
    for game_id in undated["game_id"]:
        detail = a.game_detail(odd, game_id)
        assert detail.header["date"] is None
        assert detail.header["date_text"] is not None  # as written in the record


@pytest.mark.parametrize("bounded", [False, True])
def test_every_gin_entry_point_reads_odd_dates(plain, odd, bounded: bool) -> None:
    f = GIN_BOUNDED if bounded else GIN_ALL
    results = gin_calls(odd, f)
    showable(results)
    same = gin_calls(plain, f)
    assert results["date_range"] == same["date_range"] == (dt.date(2026, 3, 5),
                                                           dt.date(2026, 3, 12))
    assert _without_odd(results["match_results"]).equals(same["match_results"])
    assert _without_odd(results["game_results"]).equals(same["game_results"])
    hands = results["list_hands"]
    odd_hands = hands.filter(pl.col("event").str.starts_with(ODD))
    assert odd_hands.height == (0 if bounded else 4)
    assert odd_hands["date"].null_count() == odd_hands.height


def test_gops_games_and_gin_games_find_the_odd_games(plain, odd) -> None:
    games, total = find_games(odd)
    assert total == 12
    assert [g.date for g in games[-6:]] == [None] * 6
    assert all(g.event.startswith(ODD) and g.date_text for g in games[-6:])
    assert [g.game_id for g in games[:6]] == [g.game_id for g in find_games(plain)[0]]
    for g in games:
        g.as_json()
    bounded = GameFilter(date_from=dt.date(2026, 1, 1))
    assert find_games(odd, bounded)[1] == 6
    gin_games, gin_total = find_gin_games(odd)
    assert gin_total == 6 and [g.date for g in gin_games[-3:]] == [None] * 3
    assert find_gin_games(odd, bounded)[1] == 3


@pytest.fixture(scope="module")
def writable(odd_db: Path, tmp_path_factory) -> duckdb.DuckDBPyConnection:
    copy = tmp_path_factory.mktemp("any") / "any.duckdb"
    shutil.copy(odd_db, copy)
    con = duckdb.connect(str(copy))
    yield con
    con.close()


@settings(max_examples=60, deadline=None)
@given(days=st.one_of(st.integers(FIRST_DAY - 1, LAST_DAY + 1),
                      st.integers(-800_000, 3_000_000)))
def test_any_date_duckdb_holds_reads_as_itself_or_unknown(writable, days: int) -> None:
    """A game dated ``days`` after 1970-01-01 (anywhere in DuckDB's DATE range, its
    infinities included) reads as that date when Python holds it, else as unknown; a
    date bound keeps it exactly when it is known and within."""
    con = writable
    if days in (FIRST_DAY - 1, LAST_DAY + 1):
        stored = "-infinity" if days < 0 else "infinity"
        con.execute("UPDATE games SET date = ?::DATE WHERE event = 'Odd Other'", [stored])
    else:
        con.execute("UPDATE games SET date = DATE '1970-01-01' + ?::INTEGER "
                    "WHERE event = 'Odd Other'", [days])
    expected = python_date(days) if FIRST_DAY <= days <= LAST_DAY else None
    (game,) = [g for g in find_games(con)[0] if g.event == "Odd Other"]
    assert game.date == expected
    listed = a.list_games(con, a.Filters(events=("Odd Other",)))
    assert listed["date"].to_list() == [expected]
    low, high = dt.date(1, 1, 1), dt.date(9999, 12, 31)
    assert a.overview(con, a.Filters(events=("Odd Other",), date_from=low,
                                     date_to=high))["games"] == (expected is not None)
    evenings = a.evenings(con, a.Filters(events=("Odd Other",)))
    assert evenings["date"].to_list() == ([expected] if expected else [])
    first, last = a.date_range(con)
    assert first <= dt.date(2026, 1, 8) and last >= dt.date(2026, 2, 5)
    assert (expected is None) or (first <= expected <= last)
