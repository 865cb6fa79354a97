"""Issue 24's "Charts and pages": the Gin charts' axes and colours, the game viewer's
legend and reference, paths on Data quality, and the evening warning that only a link
gives. Chart specs are read as Vega-Lite JSON and rendered offline (vl-convert) where a
drawn label counts; the page layout at 390 px is checked in the browser
(test_browser_pages.py)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import polars as pl
import pytest
from gin_fixture import build_gin_db
from gops_records.dashboards.charts import to_svg
from gops_records.dashboards.gin import charts as gin_charts
from gops_records.dashboards.gops import charts as gops_charts
from gops_records.dashboards.gops.game import named_cards
from gops_records.dashboards.text import code_span
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from gops_records.core.game_refs import game_ref
from gops_records.core.store.db import reading
from gops_records.games.gin.analytics import ENDINGS, OUTCOME_LABELS
from gops_records.games.gops.analytics import game_detail

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT = 60
FRIDAY, TUESDAY = "2026-03-06 · Friday cup", "2026-03-03 · Tuesday club"
SEVEN = ["Bruno Keller", "Clara Nowak", "Greta Olsen", "Hana Sato", "Jonas Berg",
         "Marco Rossi", "Tom Okafor"]


def start(db: Path, monkeypatch: pytest.MonkeyPatch, page: str | None = None,
          **params: str | list[str]) -> AppTest:
    """The app on ``db`` showing ``page``, with ``params`` in the address as a link gives
    them (set after the switch: each page drops the others' parameters)."""
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    if page:
        at.run()
        at.switch_page(page)
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def specs(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def layers(spec: dict) -> list[dict]:
    return [spec, *spec.get("layer", [])]


def axis_labels(svg: str, title: str) -> list[tuple[str, float, float]]:
    """The labels an axis titled ``title`` draws: (text, x, y), hidden ones left out."""
    start_at = svg.index(f"-axis titled '{title}'")
    part = svg[start_at:svg.index("role-axis-title", start_at)]
    found = re.findall(r'<text[^>]*translate\(([-\d.]+),([-\d.]+)\)[^>]*opacity="([\d.]+)"'
                       r'[^>]*>([^<]*)</text>', part)
    return [(text, float(x), float(y)) for x, y, opacity, text in found if float(opacity) > 0]


# -- Knocks and gin ---------------------------------------------------------------------------

def knock_frame(limits: list[int]) -> pl.DataFrame:
    """A knock_deadwood frame as the analytics give it: the limit as text (``"10"``)."""
    return pl.DataFrame(
        [(name, str(limit), limit, 1 + i, limit / 2) for i, name in enumerate(SEVEN[:2])
         for limit in limits],
        schema={"player": pl.String, "knock_limit": pl.String, "limit_order": pl.Int8,
                "knocks": pl.Int64, "mean_deadwood": pl.Float64}, orient="row")


def test_deadwood_at_a_knock_reads_its_limits_in_numeric_order():
    chart = gin_charts.knock_deadwood_chart(knock_frame([10, 2, 3, 9, 4, 5, 6, 7, 8]))
    drawn = [text for text, _, _ in axis_labels(to_svg(chart).decode(), "knock limit")]
    assert drawn == ["2", "3", "4", "5", "6", "7", "8", "9", "10"]  # was 10, 2, 3, ...
    assert "player" in json.dumps(chart.to_dict()["layer"][0]["encoding"]["tooltip"])


def test_who_waits_for_gin_writes_every_players_name_however_narrow():
    table = pl.DataFrame({"player": SEVEN, "outs": [24, 19, 18, 4, 11, 31, 18],
                          "rate": [0.21, 0.79, 0.11, 1.0, 0.91, 0.06, 0.17],
                          "ci_low": [0.1] * 7, "ci_high": [0.95] * 7})
    for width in (150, 600):  # a phone's column and a desktop's
        chart = gin_charts.gin_share_chart(table).properties(width=width)
        drawn = axis_labels(to_svg(chart).decode(), "player")
        assert sorted(text for text, _, _ in drawn) == SEVEN, width
        ys = sorted(y for _, _, y in drawn)  # one name a row, never on top of another
        assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= 12, ys
        ticks = axis_labels(to_svg(chart).decode(), "ways out that are gin")
        assert max(int(t.rstrip("%")) for t, _, _ in ticks) <= 100, ticks  # none past 100%
    spec = gin_charts.gin_share_chart(table).to_dict()
    # best gin share at the top; the counts stay beside the bars
    assert spec["layer"][0]["encoding"]["y"]["sort"][:2] == ["Hana Sato", "Jonas Berg"]
    assert spec["title"]["subtitle"][-1] == "number right = times out"


def test_every_ending_has_one_colour_and_each_outcome_its_own_hue():
    colours = gin_charts.ENDING_COLOURS
    assert set(OUTCOME_LABELS.values()) | set(ENDINGS) <= set(colours)
    assert colours["gin"] == colours[OUTCOME_LABELS["gin"]] == "#009E73"  # green everywhere
    assert len({colours[o] for o in OUTCOME_LABELS.values()}) == len(OUTCOME_LABELS)
    assert len({colours[e] for e in ENDINGS}) == len(ENDINGS)  # told apart in one chart
    # the opponent's side of an outcome: a paler tint of the same colour
    assert colours["opponent's gin"] == "#80ceb9" and colours["opponent knocked"] == "#80b8d8"
    scale = gin_charts.ending_scale(["big gin", "gin"]).to_dict()
    assert scale == {"domain": ["big gin", "gin"], "range": ["#CC79A7", "#009E73"]}


@pytest.fixture(scope="module")
def gin_db(tmp_path_factory) -> Path:
    return build_gin_db(tmp_path_factory.mktemp("gin_colours"))


def colour_maps(at: AppTest) -> dict[str, dict[str, str]]:
    """Chart title -> {label: colour} of every colour scale with a domain."""
    out = {}
    for spec in specs(at):
        for layer in layers(spec):
            scale = layer.get("encoding", {}).get("color", {}).get("scale", {})
            if "domain" in scale and "range" in scale:
                out[spec["title"]["text"]] = dict(zip(scale["domain"], scale["range"],
                                                      strict=True))
    return out


def test_gin_pages_colour_each_ending_the_same_on_every_chart(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/hands.py", gin_evening="all")
    maps = colour_maps(at)
    at.switch_page("gin/knocks.py").run()
    maps |= colour_maps(at)
    endings = {t: m for t, m in maps.items() if t != "Game scores"}
    assert {"How hands end, by knock limit", "How each player's hands end",
            "Deadwood caught when the opponent goes out"} <= set(endings)
    gins = {t: m["gin"] for t, m in endings.items() if "gin" in m}
    assert len(gins) >= 3 and set(gins.values()) == {"#009E73"}, gins
    for title, mapping in endings.items():
        for label, colour in mapping.items():
            assert colour == gin_charts.ENDING_COLOURS[label], (title, label)


def test_gin_match_and_game_lists_put_the_winner_first(gin_db, monkeypatch):
    at = start(gin_db, monkeypatch, "gin/standings.py", gin_evening="all")
    tables = [list(df.value.columns) for df in at.dataframe if "match" in df.value.columns]
    assert len(tables) == 2, tables  # the matches and the games
    assert tables[0][:2] == ["match", "winner"]
    assert tables[1][:3] == ["match", "game_no", "winner"]


# -- Game viewer ------------------------------------------------------------------------------

def test_the_bids_chart_has_a_legend_of_the_players():
    bids = pl.DataFrame({"round_no": [1, 1, 2, 2], "prize": [3, 3, 5, 5],
                         "pool_value": [3, 3, 8, 8], "player": ["Alice", "Bruno"] * 2,
                         "bid": [2, 3, 5, 1], "won": [False, True, True, False]})
    chart = gops_charts.game_bids_chart(bids)
    dots = chart.to_dict()["layer"][1]["encoding"]
    for channel in ("color", "shape", "fill"):  # one legend for the three: same title
        assert dots[channel]["title"] == "player" and dots[channel]["legend"] is not None
    svg = to_svg(chart).decode()
    legend = svg[svg.index("role-legend"):]
    assert all(f">{text}<" in legend for text in ("player", "Alice", "Bruno"))


def test_the_game_viewer_names_a_game_by_its_reference(club_db, monkeypatch):
    with reading(club_db) as con:
        game_id = con.sql("SELECT max(game_id) FROM games").pl().item()
    at = start(club_db, monkeypatch, "gops/game.py", game_id=str(game_id))
    caption = " ".join(c.value for c in at.caption)
    assert game_ref(game_id) in caption and str(game_id) not in caption
    # a game outside the list (filtered out by the sidebar) is offered by its reference
    event = next(m for m in at.sidebar.multiselect if m.label == "Event")
    event.set_value(["Tuesday club"]).run()  # the game is Friday's
    picker = at.selectbox(key="game_pick")
    assert len(picker.options) == 4  # Tuesday's 3 games and the one asked for
    assert picker.format_func(str(game_id)) == f"game {game_ref(game_id)}"


def test_the_round_table_shows_bids_and_taker_before_the_rest(club_db):
    with reading(club_db) as con:
        game_id = con.sql("SELECT game_id FROM games WHERE result = '8-4-3'").pl().item()
        detail = game_detail(con, game_id)
    shown = named_cards(detail).columns
    assert shown[:6] == ["round_no", "prize", "Carla", "Alice", "Bruno", "taken_by"]
    assert set(shown) == set(detail.rounds.columns)  # nothing dropped, only moved


def test_game_lists_put_the_winner_before_the_link(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening="all")
    pools = next(pl.from_pandas(df.value) for df in at.dataframe
                 if "pool_value" in df.value.columns)
    assert pools.columns[:2] == ["pool_value", "winner"]
    assert pools.columns[-2:] == ["ref", "open"]
    notable = [pl.from_pandas(df.value) for df in at.dataframe if "margin" in df.value.columns]
    assert notable and all(t.columns[:2] == ["winner", "margin"] for t in notable)


# -- Data quality -----------------------------------------------------------------------------

def test_data_quality_shows_the_rejects_path_as_written(club_db, monkeypatch):
    at = start(club_db, monkeypatch, "quality.py")
    captions = [c.value for c in at.caption if "exactly as written in" in c.value]
    assert captions, [c.value for c in at.caption]
    path = re.search(r"`([^`]+)`", captions[0]).group(1)
    assert "\\" not in path and path.endswith(".gops"), captions[0]


@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               min_size=1, max_size=40))
def test_a_code_span_shows_any_text_as_it_is(text):
    flat = " ".join(text.splitlines())
    if not flat:  # only a line break: nothing to show
        assert code_span(text) == ""
        return
    html = MarkdownIt("commonmark").renderInline(code_span(text))
    match = re.fullmatch(r"<code>(.*)</code>", html, re.S)
    assert match, (text, code_span(text), html)
    assert unescape(match.group(1)) == flat, (code_span(text), html)


# -- The Session page's evening ---------------------------------------------------------------

def test_an_evening_picked_here_gives_way_quietly_to_a_filter(club_db, monkeypatch):
    at = start(club_db, monkeypatch)
    at.selectbox(key="evening_pick").select(TUESDAY).run()
    assert at.query_params["evening"] == TUESDAY
    at.sidebar.multiselect(key=player_key(at)).set_value(["Carla"]).run()  # not on Tuesday
    assert not at.exception
    assert not [w.value for w in at.warning if "evening" in w.value]
    assert at.selectbox(key="evening_pick").value == FRIDAY  # the latest Carla played
    assert "evening" not in at.query_params


def test_a_link_to_an_evening_the_filters_leave_out_still_says_so(club_db, monkeypatch):
    at = start(club_db, monkeypatch, evening=TUESDAY, player="Carla")
    assert any("is not among the evenings in view" in w.value for w in at.warning)
    assert at.selectbox(key="evening_pick").value == FRIDAY


def player_key(at: AppTest) -> str:
    return next(m.key for m in at.sidebar.multiselect if m.label == "Players")
