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
from club_fixture import (
    EVIL_LINK,
    GAMES,
    HOSTILE_EVENT,
    HOSTILE_PLAYER,
    SCOUT_GAMES,
    build_club_db,
)
from gops_records.dashboards.charts import MAX_ROWS
from gops_records.dashboards.gops import charts
from gops_records.dashboards.gops.session import STANDINGS_WIDTHS
from gops_records.dashboards.text import escape_md
from streamlit.testing.v1 import AppTest

from gops_records.core.game_refs import game_ref
from gops_records.core.importer import import_paths
from gops_records.core.stats import wilson

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
PAGES = ("gops/session.py", "gops/players.py", "gops/ties.py", "gops/h2h.py",
         "gops/game.py", "quality.py", "gops/scout.py")
#: The pages whose charts and tables come with downloads (Scout and Data quality have
#: their own owners).
WITH_DOWNLOADS = PAGES[:5]
TIMEOUT = 30
FRIDAY, TUESDAY = "2026-03-06 · Friday cup", "2026-03-03 · Tuesday club"


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


def frame_by_column(at: AppTest, column: str) -> pl.DataFrame:
    for df in at.dataframe:
        if column in df.value.columns:
            return pl.from_pandas(df.value)
    raise AssertionError(f"no dataframe with a {column!r} column")


def select_row(at: AppTest, key: str, row: int) -> AppTest:
    at.session_state[key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    return at.run()


def downloads(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def markdown_texts(at: AppTest) -> list[str]:
    """The Markdown source of everything Streamlit renders as Markdown on the page."""
    out = [e.value for kind in ("title", "header", "subheader", "caption", "markdown", "info",
                                "success", "warning", "error") for e in getattr(at, kind)]
    return out + [m.label for m in at.metric] + [m.proto.help for m in at.metric]


# -- every page renders ------------------------------------------------------------------

CHARTS = {"gops/session.py": 1, "gops/players.py": 7,  # 2: rating, calibration
          "gops/ties.py": 7,
          "gops/h2h.py": 1, "gops/game.py": 2, "quality.py": 1,
          "gops/scout.py": 4}  # Alice has no habits to chart


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
            assert 0 < data.height <= MAX_ROWS, page
        if page == "quality.py":
            errors = [e.value for e in at.error]
    assert errors == [
        "2 problems in this record:\n\n"
        "- line 16, column 20 (round 2): `card-not-in-hand`: Alice (A) bids 3, already spent "
        "in round 1 (line 16)\n"
        "- line 16, column 33 (round 3): `unknown-card`: Alice (A) bids 7, which is not in a "
        "5-card suit"]


def test_every_chart_and_table_can_be_taken_home(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    for page in WITH_DOWNLOADS:
        at.switch_page(page).run()
        labels = downloads(at)
        assert labels.count("PNG") == labels.count("SVG") == CHARTS[page], page
        assert labels.count("CSV") == len(at.dataframe), page


# -- Session ---------------------------------------------------------------------------

def test_session_opens_on_the_latest_evening_with_its_winner(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    assert at.title[0].value == "Session results"
    picker = at.selectbox(key="evening_pick")
    assert picker.options[0].startswith(f"{FRIDAY} (latest)")
    assert picker.value == FRIDAY and "evening" not in at.query_params
    m = metrics(at)
    # Friday: Carla-Alice 12-1, the three-player game 8-4-3, an unfinished game (2 rounds).
    assert (m["Games"], m["Finished"], m["Players"], m["Rounds played"], m["Events"]) == \
        ("3", "2", "3", "12", "1")
    # Carla: 12 + 8 points; 12-1 and 8-4 against the best opponent: +15.
    assert at.success[0].value == \
        f"**{escape_md(FRIDAY)}**: {escape_md('Carla won 2 of 2 games (20 points, +15)')}"
    standings = frame_by_column(at, "win_rate_ci")
    assert standings["player"].to_list() == ["Carla", "Bruno", "Alice"]
    assert "Printable results (HTML)" in downloads(at)


def test_session_widens_to_all_evenings(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    at.selectbox(key="evening_pick").select("all").run()
    assert not at.exception
    assert at.query_params["evening"] == "all"
    m = metrics(at)
    assert (m["Games"], m["Finished"], m["Players"], m["Rounds played"], m["Events"]) == \
        ("6", "5", "3", "27", "2")
    assert not at.success  # no winner of "all evenings"
    standings = frame_by_column(at, "win_rate_ci")
    # Alice: W W D L L (2.5), Carla: W W (2), Bruno: L L D L (0.5)
    assert standings["player"].to_list() == ["Alice", "Carla", "Bruno"]
    assert standings.select("wins", "draws", "losses").rows() == [(2, 1, 2), (2, 0, 0),
                                                                   (0, 1, 3)]
    chart = chart_titled(at, "Wins, draws and losses")
    assert chart.filter(pl.col("player") == "Carla", pl.col("outcome") == "wins")["count"][0] == 2
    # back to the latest evening: the parameter leaves the URL
    at.selectbox(key="evening_pick").select(FRIDAY).run()
    assert "evening" not in at.query_params and metrics(at)["Games"] == "3"
    # the button beside the winners widens to all evenings too
    at.button(key="all_evenings").click().run()
    assert at.selectbox(key="evening_pick").value == "all"
    assert at.query_params["evening"] == "all" and metrics(at)["Games"] == "6"


def test_session_of_an_earlier_evening_from_the_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening=TUESDAY)
    assert at.selectbox(key="evening_pick").value == TUESDAY
    # Alice 9+8+5 = 22 points, Bruno 6+7+5 = 18; the match Alice-Bruno, 2 games to 0.
    line = ("Alice won 2 of 3 games, 1 drawn (22 points, +4); "
            "best of: Alice-Bruno: Alice, 2 of 3 games")
    assert at.success[0].value == f"**{escape_md(TUESDAY)}**: {escape_md(line)}"
    standings = frame_by_column(at, "win_rate_ci")
    low, high = wilson(2, 3)
    assert standings.row(0) == ("Alice", 2, 1, 0, 4,
                                f"67% ({round(low * 100)}–{round(high * 100)}%)")


def test_standings_fit_the_page(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="all")
    table = next(df for df in at.dataframe if "win_rate_ci" in df.value.columns)
    assert list(table.value.columns) == ["player", "wins", "draws", "losses", "point_diff",
                                         "win_rate_ci"]
    assert sum(STANDINGS_WIDTHS.values()) <= 390 - 2 * 16  # a phone, less the page margins


def test_a_link_to_an_evening_not_in_view_says_so(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="1999-01-01 · Nowhere")
    assert "is not among the evenings in view" in at.warning[0].value
    assert at.selectbox(key="evening_pick").value == FRIDAY


def test_session_biggest_pool_and_link_to_the_game(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="all")
    pools = frame(at, "session_pools")
    # Tuesday game 1, round 3: the tied 5 is carried and joins the A: Bruno takes 6.
    assert pools.select("round_no", "pool_value", "pool_cards", "winner").row(0) == \
        (3, 6, "5+A", "Bruno")
    assert pools["open"][0].startswith("game?game_id=")
    game_id = pools["open"][0].split("=", 1)[1].split("&", 1)[0]
    assert pools["ref"][0] == game_ref(int(game_id))
    select_row(at, "session_pools", 0)
    assert not at.exception
    assert at.title[0].value == "Game viewer"
    assert at.subheader[0].value == "Alice vs Bruno: Alice won"
    assert metrics(at)["Result"] == "9-6"
    assert at.query_params["game_id"] == game_id


def test_event_filter_from_the_sidebar_changes_the_page_and_the_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="all")
    at.sidebar.multiselect[0].select("Friday cup").run()
    assert not at.exception
    m = metrics(at)
    assert (m["Games"], m["Finished"], m["Events"]) == ("3", "2", "1")
    assert at.query_params["event"] == "Friday cup"
    standings = frame_by_column(at, "win_rate_ci")
    # Alice and Bruno both lost everything; Bruno by less (3-8) than Alice (1-12, 4-8).
    assert standings["player"].to_list() == ["Carla", "Bruno", "Alice"]
    assert standings["point_diff"].to_list() == [15, -5, -15]


def test_filters_are_read_from_a_shared_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, event="Tuesday club")
    assert at.sidebar.multiselect[0].value == ["Tuesday club"]
    assert at.selectbox(key="evening_pick").value == TUESDAY  # the latest one in view
    assert metrics(at)["Games"] == "3"
    matches = frame_by_column(at, "best_of_winner")
    # Alice-Bruno: Alice 9+8+5 = 22, Bruno 6+7+5 = 18; games won 2-0.
    assert matches.select("player", "total_points", "game_wins").rows() == [
        ("Alice", 22, 2), ("Bruno", 18, 0)]
    assert set(matches["cumulative_winner"]) == {"Alice"}
    assert set(matches["match"]) == {"Alice-Bruno"}
    assert not at.warning


def test_matches_show_a_shared_lead_as_a_blank(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="all")
    table = next(df for df in at.dataframe if "best_of_winner" in df.value.columns)
    assert table.proto.HasField("placeholder") and table.proto.placeholder == ""
    matches = pl.from_pandas(table.value)
    assert matches.select("event", "match", "player", "total_points").rows() == [
        ("Tuesday club", "Alice-Bruno", "Alice", 22), ("Tuesday club", "Alice-Bruno", "Bruno", 18)]
    assert str(matches["date"][0])[:10] == "2026-03-03"


def test_picking_one_day_in_the_date_filter(club_db, monkeypatch):
    import datetime as dt

    at = start(club_db, monkeypatch, evening="all")
    day = dt.date(2026, 3, 6)
    at.sidebar.date_input[0].set_value((day, day)).run()
    assert not at.exception
    assert metrics(at)["Games"] == "3"
    assert (at.query_params["from"], at.query_params["to"]) == ("2026-03-06", "2026-03-06")


def test_other_filters_tie_rule_players_finished(club_db, monkeypatch):
    at = start(club_db, monkeypatch, tie_rule="discard", evening="all")
    assert metrics(at)["Games"] == "1"
    at = start(club_db, monkeypatch, n_players="3", evening="all")
    assert (metrics(at)["Games"], metrics(at)["Players"]) == ("1", "3")
    at = start(club_db, monkeypatch, finished="1", evening="all")
    assert metrics(at)["Games"] == "5"
    at = start(club_db, monkeypatch, player="Carla", evening="all")
    assert metrics(at)["Games"] == "3"


def test_clear_filters_button(club_db, monkeypatch):
    at = start(club_db, monkeypatch, event="Tuesday club", tie_rule="carry", evening="all")
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
        assert "No games match these filters" in texts, page
        assert "Clear filters" in texts, page
        assert [b.label for b in at.main.button] == ["Clear filters"], page
        assert not at.get("vega_lite_chart"), page
    at.switch_page("gops/scout.py").run()  # scouting reads all of a player's games
    assert at.subheader[0].value.startswith("Alice is ")


@pytest.mark.parametrize("params", [{"from": "2030-01-01", "to": "2030-01-02"},
                                    {"event": "No such"}, {"player": "Nobody"},
                                    {"match": "No such match"}],
                         ids=["dates", "event", "player", "match"])
def test_a_link_that_matches_nothing_says_so_and_is_kept(club_db, monkeypatch, params):
    at = start(club_db, monkeypatch, **params)
    assert "No games match these filters" in at.info[0].value
    assert not at.dataframe and not at.get("vega_lite_chart")
    for key, value in params.items():
        assert at.query_params[key] == value  # not rewritten to something else
    at.main.button[0].click().run()  # "Clear filters" beside the message
    assert not at.exception
    assert metrics(at)["Games"] == "3"  # the latest evening of all games
    assert not set(params) & set(at.query_params)


def test_a_link_with_an_unreadable_filter_says_what_was_ignored(club_db, monkeypatch):
    at = start(club_db, monkeypatch, **{"from": "soon", "tie_rule": "sometimes"})
    notes = " ".join(w.value for w in at.sidebar.warning)
    assert "from=soon is not a date" in notes
    assert "tie\\_rule=sometimes" not in notes and "tie_rule=sometimes is not one of" in notes


# -- Players -----------------------------------------------------------------------------

def test_players_page_follows_the_player_picker(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/players.py")
    assert at.selectbox[0].value == "Alice"
    alice = chart_titled(at, "What Alice bids on each prize")
    # Alice bid on prize 1 five times: 1, 2, 1, 5, 1 (games 1-5 in order).
    assert alice.filter(pl.col("prize") == 1).select("bid", "count").rows() == [
        (1, 3), (2, 1), (5, 1)]
    assert alice.filter(pl.col("prize") == 1)["prize_bids"].unique().to_list() == [5]
    at.selectbox[0].select("Bruno").run()
    assert not at.exception
    assert at.query_params["profile"] == "Bruno"
    bruno = chart_titled(at, "What Bruno bids on each prize")
    assert int(bruno["count"].sum()) == 20  # 3 Tuesday games and the 3-player game
    assert any("20 bids by Bruno" in c.value for c in at.caption)
    habits = chart_titled(at, "Bruno's habits")
    assert habits.height == 16 and set(habits["phase"]) == {"early", "middle", "late", "all"}
    # the uniform-play baseline beside each rate: 1/h averaged over the bids (5 cards:
    # unforced bids from 5, 4, 3 and 2 cards in every game)
    highest = habits.filter(pl.col("habit") == "highest_remaining", pl.col("phase") == "all")
    assert highest["uniform"][0] == pytest.approx((1 / 5 + 1 / 4 + 1 / 3 + 1 / 2) / 4)
    games = frame(at, "player_games")
    assert games.height == 4


def test_players_page_reads_the_player_from_the_url(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/players.py")
    at.query_params["profile"] = "Carla"
    at.run()
    assert at.selectbox[0].value == "Carla"
    assert chart_titled(at, "What Carla bids on each prize")["count"].sum() == 12  # 5+5+2


def test_players_page_starts_from_the_sidebar_player_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/players.py", player="Carla")
    assert at.selectbox[0].value == "Carla"  # not Alice, the first name
    assert at.query_params["profile"] == "Carla"
    at.sidebar.multiselect(key="f_players").set_value(["Bruno"]).run()
    assert at.selectbox[0].value == "Bruno"  # follows the filter
    at.selectbox[0].select("Alice").run()  # Alice played with Bruno: a pick of one's own
    assert at.selectbox[0].value == "Alice" and at.query_params["profile"] == "Alice"


# -- Ties and pools ------------------------------------------------------------------------

def test_ties_and_pools_numbers(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/ties.py")
    m = metrics(at)
    # Only Tuesday game 3 ended on a tie; unclaimed 0+0+5+2+0 over 5 finished games.
    assert (m["Finished games"], m["Ended on a tie (1 of 5)"], m["Unclaimed points per game"]) \
        == ("5", "20.0%", "1.40")
    streaks = chart_titled(at, "Streaks of consecutive ties")
    # Lone ties: G1 r2, G2 r3, G4 r1; a streak of two: G3 r4-5.
    assert dict(streaks.select("first", "streaks").rows()) == {1: 3, 2: 1}
    unclaimed = chart_titled(at, "Unclaimed points per finished game")
    assert dict(unclaimed.select("first", "games").rows()) == {0: 3, 2: 1, 5: 1}
    pools = frame(at, "ties_largest_pools")
    assert pools["pool_value"][0] == 6


def test_ties_page_follows_the_tie_rule_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/ties.py")
    at.sidebar.selectbox[0].select("discard").run()
    assert not at.exception
    assert at.query_params["tie_rule"] == "discard"
    assert metrics(at)["Finished games"] == "1"
    assert any("No carry-rule games" in i.value for i in at.info)


# -- Head-to-head ------------------------------------------------------------------------

def test_head_to_head_default_pair_and_picker(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/h2h.py")
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
    assert row["games"][0] == 4  # written in the cell
    # Games of Carla and Alice: the two finished ones and the unfinished one.
    assert frame(at, "h2h_games").height == 3


def test_head_to_head_starts_from_the_sidebar_player_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/h2h.py", player="Carla")
    # Carla's most frequent opponent in finished games: Alice (2), then Bruno (1).
    assert (at.selectbox[0].value, at.selectbox[1].value) == ("Carla", "Alice")


# -- Game viewer --------------------------------------------------------------------------

def test_game_viewer_round_by_round(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/game.py")
    labels = at.selectbox[0].options
    assert len(labels) == GAMES
    assert all(label.startswith("g") for label in labels)  # the short reference first
    pick = next(label for label in labels if "5-5" in label)
    at.selectbox[0].select(pick).run()
    assert not at.exception
    assert at.subheader[0].value == "Alice vs Bruno: a draw"
    game_id = at.query_params["game_id"]
    assert at.caption[1].value.startswith(f"Game **{game_ref(int(game_id))}** · Tuesday club")
    assert pick.startswith(game_ref(int(game_id)))
    assert metrics(at)["Unclaimed points"] == "5"
    table = at.dataframe[0]
    assert table.proto.placeholder == ""  # comments and missing bids are blank, not None
    rounds = pl.from_pandas(table.value)
    assert rounds["taken_by"].to_list() == ["Bruno", "Bruno", "Alice", "tie", "tie"]
    assert rounds["score"].to_list() == ["0-1", "0-5", "5-5", "5-5", "5-5"]
    assert rounds["pool_value"].to_list() == [1, 4, 5, 3, 5]
    # cards by name: the prizes A, 4, 5, 3, 2; the tied 3 is carried into the last pool
    assert rounds["prize"].to_list() == ["A", "4", "5", "3", "2"]
    assert rounds["pool_cards"].to_list() == ["A", "4", "5", "3", "3+2"]
    assert rounds["Alice"].to_list() == ["A", "2", "5", "3", "4"]
    assert rounds["comment"].to_list()[-1] == "nobody gets the 3 and the 2"
    score = chart_titled(at, "Running score")
    assert score.filter(pl.col("player") == "Bruno")["score"].to_list() == [1, 5, 5, 5, 5]
    bids = chart_titled(at, "Bids against the prize")
    assert bids.filter(pl.col("won")).sort("round_no").select("round_no", "player", "bid") \
        .rows() == [(1, "Bruno", 2), (2, "Bruno", 5), (3, "Alice", 5)]
    assert bids.filter(pl.col("player") == "Alice").sort("round_no")["bid"].to_list() == \
        [1, 2, 5, 3, 4]
    at2 = start(club_db, monkeypatch, "gops/game.py")
    at2.query_params["game_id"] = game_id
    at2.run()
    assert at2.subheader[0].value == "Alice vs Bruno: a draw"


def test_game_viewer_unknown_game_id_is_a_warning(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "gops/game.py")
    at.query_params["game_id"] = "no-such-game"
    at.run()
    assert not at.exception
    assert "no game with id no\\-such\\-game" in at.warning[0].value


# -- untrusted text ------------------------------------------------------------------------

def no_live_markup(texts: list[str]) -> None:
    """None of the hostile text reaches Markdown unescaped."""
    for text in texts:
        for raw in (HOSTILE_PLAYER, f"]({EVIL_LINK})", "`code`", ":red[", "$x$", "<b>"):
            assert raw not in text, (raw, text)


def test_hostile_names_are_shown_as_text_on_every_page(hostile_db, monkeypatch):
    at = start(hostile_db, monkeypatch, "gops/players.py", profile=HOSTILE_PLAYER)
    assert at.selectbox[0].value == HOSTILE_PLAYER
    assert at.main.header[-1].value == f"{escape_md(HOSTILE_PLAYER)}'s games"
    no_live_markup(markdown_texts(at))
    for page in ("gops/session.py", "gops/ties.py", "gops/h2h.py", "gops/game.py"):
        at.switch_page(page).run()
        assert not at.exception, page
        no_live_markup(markdown_texts(at))
    # The game viewer opened on the newest game: the hostile one.
    assert at.subheader[0].value.startswith(escape_md(HOSTILE_PLAYER))
    assert escape_md(HOSTILE_EVENT) in at.caption[1].value
    no_live_markup([w.value for w in at.sidebar.caption])


def test_a_crafted_game_id_stays_text(club_db, monkeypatch):
    crafted = f"1` [x]({EVIL_LINK}) `"
    at = start(club_db, monkeypatch, "gops/game.py")
    at.query_params["game_id"] = crafted
    at.run()
    assert not at.exception
    assert escape_md(crafted) in at.warning[0].value
    no_live_markup([at.warning[0].value])


# -- Scout ----------------------------------------------------------------------------------

def scout_page(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    """The Scout page with ``params`` in its URL (set once the page shows)."""
    at = start(db, monkeypatch, "gops/scout.py")
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
    from gops_records.dashboards.gops import data

    calls: list[tuple] = []
    real = data.kept_store.report_for  # the kept report, or one computed

    def counting(con, player, vs=None, seed=0, *args, **kw):
        calls.append((player, vs, seed))
        return real(con, player, vs, seed, *args, **kw)

    monkeypatch.setattr(data.kept_store, "report_for", counting)
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
        if page == "quality.py":
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
    at = start(db, monkeypatch, evening="all")
    assert metrics(at)["Games"] == str(GAMES)
    more = tmp_path / "saturday.gops"
    more.write_text(SATURDAY, encoding="utf-8")
    assert import_paths([more], db).games_new == 1  # the page holds no connection open
    at.run()
    assert metrics(at)["Games"] == str(GAMES + 1)
    assert "Saturday open" in at.sidebar.multiselect[0].options


# -- chart builders ---------------------------------------------------------------------------

def test_charts_never_carry_more_than_max_rows():
    big = pl.DataFrame({"pool_value": range(5_000), "pool_cards": [1] * 5_000,
                        "rounds": [1] * 5_000})
    spec = charts.pool_distribution_chart(big).to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) == MAX_ROWS
    assert f"first {MAX_ROWS:,} of 5,000 rows shown" in spec["title"]["subtitle"]


def test_a_histogram_bins_every_value_instead_of_cutting():
    big = pl.DataFrame({"unclaimed": range(5_000), "games": [1] * 5_000})
    spec = charts.unclaimed_chart(big).to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) <= 40 and sum(r["games"] for r in rows) == 5_000
    assert "rows shown" not in json.dumps(spec["title"])


def test_a_file_that_is_no_database_is_an_error_message(tmp_path, monkeypatch):
    bogus = tmp_path / "notes.duckdb"
    bogus.write_text("these are my notes, not a database\n", encoding="utf-8")
    at = start(bogus, monkeypatch)
    assert not at.exception
    assert "Cannot read the database" in at.error[0].value


def test_dates_from_the_url_are_kept_as_given(club_db, monkeypatch):
    at = start(club_db, monkeypatch, **{"from": "2020-01-01", "to": "2026-03-04"})
    assert [str(d) for d in at.sidebar.date_input[0].value] == ["2020-01-01", "2026-03-04"]
    assert (at.query_params["from"], at.query_params["to"]) == ("2020-01-01", "2026-03-04")
    assert metrics(at)["Games"] == "3"  # the Tuesday games only
