"""Every dashboard page under Streamlit's AppTest, on the hand-written club database.

Expected numbers are worked out by hand from the records in club_fixture.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from club_fixture import GAMES, SCOUT_GAMES, build_club_db
from streamlit.testing.v1 import AppTest

from dashboards import charts
from gops_records.importer import import_paths

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
PAGES = ("pages_session.py", "pages_players.py", "pages_ties.py", "pages_h2h.py",
         "pages_game.py", "pages_quality.py", "pages_scout.py")
TIMEOUT = 30


def start(db: Path, monkeypatch: pytest.MonkeyPatch, page: str | None = None,
          **params: str | list[str]) -> AppTest:
    """The app on ``db`` (passed as $GOPS_DB, as `gops dashboard` does), run once."""
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def charts_of(at: AppTest) -> list[tuple[dict, pl.DataFrame]]:
    """Each chart's Vega-Lite spec and its (first) dataset as a polars frame."""
    out = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        frames = [pl.from_arrow(pa.ipc.open_stream(d.data.data).read_all())
                  for d in chart.proto.datasets]
        out.append((spec, frames[0] if frames else pl.DataFrame()))
    return out


def chart_titled(at: AppTest, text: str) -> pl.DataFrame:
    for spec, frame in charts_of(at):
        if text in json.dumps(spec.get("title", "")):
            return frame
    raise AssertionError(f"no chart titled {text!r}: "
                         f"{[s.get('title') for s, _ in charts_of(at)]}")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def frame(at: AppTest, key: str) -> pl.DataFrame:
    for df in at.dataframe:
        if df.key == key:
            return pl.from_pandas(df.value)
    raise AssertionError(f"no dataframe with key {key!r}")


def select_row(at: AppTest, key: str, row: int) -> AppTest:
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    return at.run()


# -- every page renders ------------------------------------------------------------------

CHARTS = {"pages_session.py": 1, "pages_players.py": 5, "pages_ties.py": 7,
          "pages_h2h.py": 1, "pages_game.py": 2, "pages_quality.py": 1,
          "pages_scout.py": 4}  # Alice has no habits to chart


def test_every_page_renders_its_charts_without_exceptions(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.message for e in at.exception])
        assert at.title, page
        found = charts_of(at)
        assert len(found) == CHARTS[page], page
        for spec, data in found:
            assert spec.get("title"), f"a chart without a title on {page}"
            assert 0 < data.height <= charts.MAX_ROWS, page
        if page == "pages_quality.py":
            errors = [e.value for e in at.error]
    assert errors == [
        "2 problems in this record:\n\n"
        "- line 16, column 20 (round 2): `card-not-in-hand`: Alice (A) bids 3, already spent "
        "in round 1 (line 16)\n"
        "- line 16, column 33 (round 3): `unknown-card`: Alice (A) bids 7, which is not in a "
        "5-card suit"]


# -- Session ---------------------------------------------------------------------------

def test_session_overview_and_standings(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    assert at.title[0].value == "Session results"
    m = metrics(at)
    assert (m["Games"], m["Finished"], m["Players"], m["Rounds played"], m["Events"]) == \
        ("6", "5", "3", "27", "2")
    standings = pl.from_pandas(at.dataframe[0].value)
    # Alice: W W D L L (2.5), Carla: W W (2), Bruno: L L D L (0.5)
    assert standings["player"].to_list() == ["Alice", "Carla", "Bruno"]
    assert standings.select("wins", "draws", "losses").rows() == [(2, 1, 2), (2, 0, 0),
                                                                   (0, 1, 3)]
    chart = chart_titled(at, "Wins, draws and losses")
    assert chart.filter(pl.col("player") == "Carla", pl.col("outcome") == "wins")["count"][0] == 2


def test_session_biggest_pool_and_link_to_the_game(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    pools = frame(at, "session_pools")
    # Tuesday game 1, round 3: the tied 5 is carried and joins the A: Bruno takes 6.
    assert pools.select("round_no", "pool_value", "pool_cards", "winner").row(0) == \
        (3, 6, "5+1", "Bruno")
    assert pools["open"][0].startswith("game?game_id=")
    select_row(at, "session_pools", 0)
    assert not at.exception
    assert at.title[0].value == "Game viewer"
    assert at.subheader[0].value == "Alice vs Bruno: Alice won"
    assert metrics(at)["Result"] == "9-6"
    assert at.query_params["game_id"] == pools["open"][0].split("=", 1)[1]


def test_event_filter_from_the_sidebar_changes_the_page_and_the_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    at.sidebar.multiselect[0].select("Friday cup").run()
    assert not at.exception
    m = metrics(at)
    assert (m["Games"], m["Finished"], m["Events"]) == ("3", "2", "1")
    assert at.query_params["event"] == "Friday cup"
    standings = pl.from_pandas(at.dataframe[0].value)
    # Alice and Bruno both lost everything; Bruno by less (3-8) than Alice (1-12, 4-8).
    assert standings["player"].to_list() == ["Carla", "Bruno", "Alice"]
    assert standings["point_diff"].to_list() == [15, -5, -15]


def test_filters_are_read_from_a_shared_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, event="Tuesday club")
    assert at.sidebar.multiselect[0].value == ["Tuesday club"]
    assert metrics(at)["Games"] == "3"
    matches = frame_by_column(at, "best_of_winner")
    # Alice-Bruno: Alice 9+8+5 = 22, Bruno 6+7+5 = 18; games won 2-0.
    assert matches.select("player", "total_points", "game_wins").rows() == [
        ("Alice", 22, 2), ("Bruno", 18, 0)]
    assert set(matches["cumulative_winner"]) == {"Alice"}
    assert matches.select("event", "match").unique().rows() == [("Tuesday club", "Alice-Bruno")]
    assert not at.warning


def test_matches_are_told_apart_by_evening_without_a_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    matches = frame_by_column(at, "best_of_winner")
    assert matches.select("event", "match", "player", "total_points").rows() == [
        ("Tuesday club", "Alice-Bruno", "Alice", 22), ("Tuesday club", "Alice-Bruno", "Bruno", 18)]
    assert str(matches["date"][0])[:10] == "2026-03-03"
    assert not at.warning, "matches are grouped by evening: nothing to warn about"


def frame_by_column(at: AppTest, column: str) -> pl.DataFrame:
    for df in at.dataframe:
        if column in df.value.columns:
            return pl.from_pandas(df.value)
    raise AssertionError(f"no dataframe with a {column!r} column")


def test_picking_one_day_in_the_date_filter(club_db, monkeypatch):
    import datetime as dt

    at = start(club_db, monkeypatch)
    day = dt.date(2026, 3, 6)
    at.sidebar.date_input[0].set_value((day, day)).run()
    assert not at.exception
    assert metrics(at)["Games"] == "3"
    assert (at.query_params["from"], at.query_params["to"]) == ("2026-03-06", "2026-03-06")


def test_other_filters_tie_rule_players_finished(club_db, monkeypatch):
    at = start(club_db, monkeypatch, tie_rule="discard")
    assert metrics(at)["Games"] == "1"
    at = start(club_db, monkeypatch, n_players="3")
    assert (metrics(at)["Games"], metrics(at)["Players"]) == ("1", "3")
    at = start(club_db, monkeypatch, finished="1")
    assert metrics(at)["Games"] == "5"
    at = start(club_db, monkeypatch, player="Carla")
    assert metrics(at)["Games"] == "3"


def test_clear_filters_button(club_db, monkeypatch):
    at = start(club_db, monkeypatch, event="Tuesday club", tie_rule="carry")
    assert metrics(at)["Games"] == "3"
    at.sidebar.button[0].click().run()
    assert metrics(at)["Games"] == str(GAMES)
    assert "event" not in at.query_params and "tie_rule" not in at.query_params


def test_filters_that_keep_no_game_explain_themselves(club_db, monkeypatch):
    at = start(club_db, monkeypatch, event="Tuesday club", tie_rule="discard")
    for page in PAGES[:5]:
        at.switch_page(page).run()
        assert not at.exception, page
        texts = " ".join(i.value for i in at.info)
        assert "No games match the filters" in texts, page
        assert "Clear filters" in texts, page
        assert not at.get("vega_lite_chart"), page
    at.switch_page("pages_scout.py").run()  # scouting reads all of a player's games
    assert at.subheader[0].value.startswith("Alice is ")


# -- Players -----------------------------------------------------------------------------

def test_players_page_follows_the_player_picker(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_players.py")
    assert at.selectbox[0].value == "Alice"
    alice = chart_titled(at, "What Alice bids on each prize")
    # Alice bid on prize 1 five times: 1, 2, 1, 5, 1 (games 1-5 in order).
    assert alice.filter(pl.col("prize") == 1).select("bid", "count").rows() == [
        (1, 3), (2, 1), (5, 1)]
    at.selectbox[0].select("Bruno").run()
    assert not at.exception
    assert at.query_params["profile"] == "Bruno"
    bruno = chart_titled(at, "What Bruno bids on each prize")
    assert int(bruno["count"].sum()) == 20  # 3 Tuesday games and the 3-player game
    assert any("20 bids by Bruno" in c.value for c in at.caption)
    habits = chart_titled(at, "Bruno's habits")
    assert habits.height == 16 and set(habits["phase"]) == {"early", "middle", "late", "all"}
    games = frame(at, "player_games")
    assert games.height == 4


def test_players_page_reads_the_player_from_the_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_players.py")
    at.query_params["profile"] = "Carla"
    at.run()
    assert at.selectbox[0].value == "Carla"
    assert chart_titled(at, "What Carla bids on each prize")["count"].sum() == 12  # 5+5+2


# -- Ties and pools ------------------------------------------------------------------------

def test_ties_and_pools_numbers(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_ties.py")
    m = metrics(at)
    # Only Tuesday game 3 ended on a tie; unclaimed 0+0+5+2+0 over 5 finished games.
    assert (m["Finished games"], m["Ended on a tie"], m["Unclaimed points per game"]) == \
        ("5", "20.0%", "1.40")
    streaks = chart_titled(at, "Streaks of consecutive ties")
    # Lone ties: G1 r2, G2 r3, G4 r1; a streak of two: G3 r4-5.
    assert dict(streaks.select("streak_length", "streaks").rows()) == {1: 3, 2: 1}
    unclaimed = chart_titled(at, "Unclaimed points per finished game")
    assert dict(unclaimed.select("unclaimed", "games").rows()) == {0: 3, 2: 1, 5: 1}
    pools = frame(at, "ties_largest_pools")
    assert pools["pool_value"][0] == 6


def test_ties_page_follows_the_tie_rule_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_ties.py")
    at.sidebar.selectbox[0].select("discard").run()
    assert not at.exception
    assert at.query_params["tie_rule"] == "discard"
    assert metrics(at)["Finished games"] == "1"
    assert any("No carry-rule games" in i.value for i in at.info)


# -- Head-to-head ------------------------------------------------------------------------

def test_head_to_head_default_pair_and_picker(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_h2h.py")
    # Alice and Bruno met most: 3 Tuesday games and the 3-player game (4 beats 3).
    assert (at.selectbox[0].value, at.selectbox[1].value) == ("Alice", "Bruno")
    m = metrics(at)
    assert (m["Games"], m["Alice won"], m["Drawn"], m["Bruno won"]) == ("4", "3", "1", "0")
    at.selectbox[0].select("Carla").run()
    at.selectbox[1].select("Alice").run()
    assert not at.exception
    m = metrics(at)
    assert (m["Games"], m["Carla won"], m["Alice won"]) == ("2", "2", "0")
    assert at.query_params["h2h"] == ["Carla", "Alice"]
    grid = chart_titled(at, "Head-to-head")
    row = grid.filter(pl.col("player") == "Alice", pl.col("opponent") == "Bruno")
    assert row["score_share"][0] == pytest.approx(3.5 / 4)
    # Games of Carla and Alice: the two finished ones and the unfinished one.
    assert frame(at, "h2h_games").height == 3


# -- Game viewer --------------------------------------------------------------------------

def test_game_viewer_round_by_round(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_game.py")
    labels = at.selectbox[0].options
    assert len(labels) == GAMES
    pick = next(label for label in labels if "5-5" in label)
    at.selectbox[0].select(pick).run()
    assert not at.exception
    assert at.subheader[0].value == "Alice vs Bruno: a draw"
    assert metrics(at)["Unclaimed points"] == "5"
    rounds = pl.from_pandas(at.dataframe[0].value)
    assert rounds["taken_by"].to_list() == ["Bruno", "Bruno", "Alice", "tie", "tie"]
    assert rounds["score"].to_list() == ["0-1", "0-5", "5-5", "5-5", "5-5"]
    assert rounds["pool_value"].to_list() == [1, 4, 5, 3, 5]
    score = chart_titled(at, "Running score")
    assert score.filter(pl.col("player") == "Bruno")["score"].to_list() == [1, 5, 5, 5, 5]
    bids = chart_titled(at, "Bids against the prize")
    assert bids.filter(pl.col("won")).sort("round_no").select("round_no", "player", "bid") \
        .rows() == [(1, "Bruno", 2), (2, "Bruno", 5), (3, "Alice", 5)]
    assert bids.filter(pl.col("player") == "Alice").sort("round_no")["bid"].to_list() == \
        [1, 2, 5, 3, 4]
    game_id = at.query_params["game_id"]
    at2 = start(club_db, monkeypatch, "pages_game.py")
    at2.query_params["game_id"] = game_id
    at2.run()
    assert at2.subheader[0].value == "Alice vs Bruno: a draw"


def test_game_viewer_unknown_game_id_is_a_warning(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_game.py")
    at.query_params["game_id"] = "no-such-game"
    at.run()
    assert not at.exception
    assert "no game with id `no-such-game`" in at.warning[0].value


# -- Data quality ---------------------------------------------------------------------------

def test_data_quality_shows_imports_and_the_rejected_record(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "pages_quality.py")
    m = metrics(at)
    assert (m["Imports"], m["Games stored"], m["Records rejected"]) == ("1", str(GAMES), "1")
    problems = at.error[0].value.splitlines()[2:]  # every problem, not only the first
    assert [p.split(": ", 1)[0] for p in problems] == [
        "- line 16, column 20 (round 2)", "- line 16, column 33 (round 3)"]
    assert "Alice (A) bids 7, which is not in a 5-card suit" in problems[1]
    code = at.code[0].value
    assert "16 | 1. 3♦ 3♣ 2♠  2. 5♦ 3♣ 4♠  3. 4♦ 7♣ 5♠" in code
    assert code.splitlines()[0].startswith("15 | [Event \"Friday cup\"]")
    table = frame_by_column(at, "n_errors")
    assert table.select("codes", "n_errors").rows() == [("card-not-in-hand, unknown-card", 2)]
    kinds = chart_titled(at, "Problems by kind")
    assert sorted(kinds.rows()) == [("card-not-in-hand", 1), ("unknown-card", 1)]
    files = frame_by_column(at, "distinct_games")
    assert files.select("games", "distinct_games", "rejected").sum().row(0) == (GAMES, GAMES, 1)


# -- Scout ----------------------------------------------------------------------------------

def scout_page(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    """The Scout page with ``params`` in its URL (set once the page shows)."""
    at = start(db, monkeypatch, "pages_scout.py")
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def points(text: str) -> float:
    """'+64.3 points per game' -> 64.3"""
    return float(text.split()[0])


def test_scout_a_prize_bidder(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Pia")
    assert at.selectbox[0].value == "Pia"
    assert at.subheader[0].value == "Pia is highly predictable"
    m = metrics(at)
    assert (m["Games studied"], m["Bids"]) == (str(SCOUT_GAMES), str(13 * SCOUT_GAMES))
    assert (m["Exact bid"], m["Bid within one"]) == ("100%", "100%")
    assert "bids exactly the prize 100% of the time when it holds that card (n=360, " in \
        " ".join(md.value for md in at.markdown)
    habits = frame_by_column(at, "uniform")
    exact = habits.filter(pl.col("habit") == "bids exactly the prize when it holds that card")
    # Rounds 1-12 of each game (the 13th bid is forced); a uniform bid from h cards hits the
    # prize 1/h of the time, h = 13 down to 2.
    assert exact.select("rate", "count").row(0) == (1.0, 12 * SCOUT_GAMES)
    assert exact["uniform"][0] == pytest.approx(sum(1 / h for h in range(2, 14)) / 12)
    assert chart_titled(at, "Pia's habits against uniform play").height == habits.height
    # Bidding the prize plus one beats her in every round but the king's.
    assert points(m["Counter-strategy"]) > 40
    assert points(m["A uniformly random reply"]) < -15  # the prize is the best reply to random
    predicted = chart_titled(at, "What the model expects Pia to bid")
    assert predicted.height == 13 * 13
    assert predicted.filter(pl.col("bid") == pl.col("prize"))["probability"].min() > 0.9
    lines = chart_titled(at, "Pia's predicted bid by prize")
    likely = lines.filter(pl.col("line") == "most likely bid").sort("prize")
    assert likely["bid"].to_list() == [float(p) for p in range(1, 14)]
    assert at.query_params["scout"] == "Pia" and "vs" not in at.query_params


def test_scout_a_random_bidder_finds_no_habits(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Ravi")
    assert at.subheader[0].value == "Ravi is about as predictable as a uniformly random bidder"
    assert any(i.value.startswith("No reliable habits") for i in at.info)
    assert not at.dataframe
    m = metrics(at)
    # Held-out log-loss within a few percent of ln h averaged over the hands (uniform play).
    assert abs(float(m["Log-loss"]) - uniform_log_loss()) < 0.05
    assert points(m["Counter-strategy"]) > points(m["A uniformly random reply"]) + 15


def uniform_log_loss(cards: int = 13) -> float:
    """Mean ln h over a whole game's bids (h = 13 cards down to 1)."""
    return sum(math.log(h) for h in range(1, cards + 1)) / cards


def test_scout_pickers_vs_and_the_url(club_db, monkeypatch):
    at = scout_page(club_db, monkeypatch)
    assert at.selectbox[0].value == "Alice"
    assert metrics(at)["Games studied"] == "6"
    assert at.selectbox[1].options == ["anyone", "Bruno", "Carla"]
    at.selectbox[1].select("Bruno").run()
    assert not at.exception
    # The Tuesday match and the three-player game.
    assert metrics(at)["Games studied"] == "4"
    assert (at.query_params["scout"], at.query_params["vs"]) == ("Alice", "Bruno")
    at.selectbox[0].select("Carla").run()
    assert at.selectbox[1].value == "Bruno"  # Carla met Bruno too: kept
    assert not at.exception and not at.get("vega_lite_chart")
    assert "Carla has 1 recorded game against Bruno" in at.info[0].value
    at.selectbox[1].select("anyone").run()
    assert "vs" not in at.query_params
    assert metrics(at)["Games studied"] == "3"


def test_scout_unknown_player_in_the_url_falls_back(club_db, monkeypatch):
    at = scout_page(club_db, monkeypatch, scout="Nobody", vs="Nobody either")
    assert (at.selectbox[0].value, at.selectbox[1].value) == ("Alice", "anyone")
    assert at.subheader[0].value.startswith("Alice is ")


def test_scout_report_is_cached_on_the_database_stamp_player_vs_and_seed(tmp_path,
                                                                          monkeypatch):
    from dashboards import data

    calls: list[tuple] = []
    real = data.scout

    def counting(con, player, vs=None, seed=0, *args, **kw):
        calls.append((player, vs, seed))
        return real(con, player, vs, seed, *args, **kw)

    monkeypatch.setattr(data, "scout", counting)
    db = build_club_db(tmp_path)
    at = scout_page(db, monkeypatch)
    gain = metrics(at)["Counter-strategy"]
    at.run()
    at.selectbox[0].select("Bruno").run()
    at.selectbox[0].select("Alice").run()
    assert calls == [("Alice", None, 0), ("Bruno", None, 0)]
    at.number_input[0].set_value(1).run()
    assert calls[-1] == ("Alice", None, 1)
    assert metrics(at)["Counter-strategy"] != gain  # other simulated games
    more = tmp_path / "saturday.gops"
    more.write_text(SATURDAY, encoding="utf-8")
    import_paths([more], db)
    at.run()
    assert calls[-1] == ("Alice", None, 1) and len(calls) == 4  # a new stamp: scouted again


# -- empty and missing databases, and freshness ---------------------------------------------

def test_empty_database_gives_a_helpful_message(empty_db, monkeypatch):
    at = start(empty_db, monkeypatch)
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception and not at.error, page
        texts = " ".join(x.value for x in (*at.info, *at.success))
        if page == "pages_quality.py":
            assert "No record has been rejected" in texts
        else:
            assert "no games yet" in texts and "gops import" in texts, page


def test_missing_database_says_how_to_make_one(tmp_path, monkeypatch):
    at = start(tmp_path / "nothing-here.duckdb", monkeypatch)
    assert "There is no database at" in at.info[0].value
    assert "gops demo" in at.info[0].value
    assert not (tmp_path / "nothing-here.duckdb").exists(), "the dashboard never creates it"


SATURDAY = """\
[Event "Saturday open"] [Date "2026.03.07"] [A "Dora"] [B "Carla"] [Cards "3"]
1. 3♦ 3♣ 2♠  2. 2♦ A♣ 3♠  3. A♦ 2♣ A♠
4-2
"""


def test_games_imported_while_open_show_on_the_next_interaction(tmp_path, monkeypatch):
    db = build_club_db(tmp_path)
    at = start(db, monkeypatch)
    assert metrics(at)["Games"] == str(GAMES)
    more = tmp_path / "saturday.gops"
    more.write_text(SATURDAY, encoding="utf-8")
    assert import_paths([more], db).games_new == 1  # the page holds no connection open
    at.run()
    assert metrics(at)["Games"] == str(GAMES + 1)
    assert "Saturday open" in at.sidebar.multiselect[0].options


# -- chart builders ---------------------------------------------------------------------------

def test_charts_never_carry_more_than_max_rows():
    big = pl.DataFrame({"unclaimed": range(5_000), "games": [1] * 5_000})
    chart = charts.unclaimed_chart(big)
    spec = chart.to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) == charts.MAX_ROWS
    assert f"first {charts.MAX_ROWS:,} of 5,000 rows shown" in spec["title"]["subtitle"]


def test_a_file_that_is_no_database_is_an_error_message(tmp_path, monkeypatch):
    bogus = tmp_path / "notes.duckdb"
    bogus.write_text("these are my notes, not a database\n", encoding="utf-8")
    at = start(bogus, monkeypatch)
    assert not at.exception
    assert "Cannot read the database" in at.error[0].value


def test_dates_from_the_url_outside_the_data_are_clamped(club_db, monkeypatch):
    at = start(club_db, monkeypatch, **{"from": "2020-01-01", "to": "2026-03-04"})
    assert [str(d) for d in at.sidebar.date_input[0].value] == ["2026-03-03", "2026-03-04"]
    assert metrics(at)["Games"] == "3"  # the Tuesday games only
