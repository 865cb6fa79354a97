"""The chart builders read right: numeric binned histograms, whole-number counts, readable
log ticks, colour-blind and dark-theme safe colours, a legend wherever colour means
something, a count beside every rate, and offline PNG/SVG export."""

from __future__ import annotations

import json
import re

import altair as alt
import polars as pl
import pytest
from gops_records.dashboards import charts as shared
from gops_records.dashboards.gops import charts

HABITS = pl.DataFrame({
    "habit": ["exact_prize", "highest_remaining"] * 2, "phase": ["all", "all", "early", "early"],
    "k": [3, 5, 1, 2], "n": [9, 14, 5, 5], "rate": [1 / 3, 5 / 14, 0.2, 0.4],
    "ci_low": [0.1, 0.15, 0.03, 0.1], "ci_high": [0.7, 0.6, 0.6, 0.8],
    "uniform": [0.31, 0.37, 0.25, 0.25]})
RATES = pl.DataFrame({"tie_rule": ["carry", "discard", "all"], "rounds": [100, 40, 140],
                      "ties": [10, 2, 12], "rate": [0.1, 0.05, 12 / 140],
                      "ci_low": [0.05, 0.01, 0.05], "ci_high": [0.17, 0.16, 0.14]})


def every_chart() -> dict[str, alt.TopLevelMixin]:
    heat = pl.DataFrame({"prize": [1, 1, 13], "bid": [1, 2, 13], "count": [3, 1, 2],
                         "row_share": [0.75, 0.25, 1.0]})
    pairs = pl.DataFrame({"player": ["A", "B"], "opponent": ["B", "A"], "ties": [1, 1],
                          "rounds": [10, 10], "rate": [0.1, 0.1], "ci_low": [0.01, 0.01],
                          "ci_high": [0.4, 0.4]})
    h2h = pl.DataFrame({"player": ["A", "B"], "opponent": ["B", "A"], "games": [1, 1],
                        "wins": [1, 0], "draws": [0, 0], "losses": [0, 1],
                        "score_share": [1.0, 0.0]})
    standings = pl.DataFrame({"player": ["A", "B"], "wins": [2, 0], "draws": [1, 1],
                              "losses": [0, 2]})
    minus = pl.DataFrame({"prize": [1, 2], "n": [4, 4], "mean_diff": [1.5, -0.5]})
    gains = pl.DataFrame({"reply": ["counter", "random"], "gain": [12.0, -3.0],
                          "low": [10.0, -5.0], "high": [14.0, -1.0], "games": [400, 400]})
    expected = pl.DataFrame({"prize": [1, 1, 1], "line": ["expected bid", "most likely bid",
                                                          "the prize"], "bid": [1.5, 1.0, 1.0]})
    bids = pl.DataFrame({"round_no": [1, 1], "prize": [5, 5], "pool_value": [8, 8],
                         "player": ["A", "B"], "bid": [5, 4], "won": [True, False]})
    return {
        "standings": charts.standings_chart(standings),
        "bid_heatmap": charts.bid_heatmap_chart(heat, "A"),
        "minus": charts.bid_minus_prize_chart(minus, "A"),
        "habits": charts.habits_chart(HABITS, "A"),
        "ties_by_rule": charts.tie_rate_by_rule_chart(RATES),
        "streaks": charts.tie_streaks_chart(pl.DataFrame({"streak_length": [1, 2],
                                                          "streaks": [30, 2]})),
        "pair_ties": charts.pair_ties_chart(pairs),
        "carried": charts.carried_chart(pl.DataFrame({"carried_value": [0, 37, 65, 74],
                                                      "games": [10, 1, 1, 1]})),
        "unclaimed": charts.unclaimed_chart(pl.DataFrame({"unclaimed": [0, 2, 5],
                                                          "games": [3000, 12, 1]})),
        "h2h": charts.h2h_chart(h2h),
        "gain": charts.gain_chart(gains, "A"),
        "expected": charts.expected_bid_chart(expected, "A"),
        "game_bids": charts.game_bids_chart(bids),
    }


def layers(spec: dict) -> list[dict]:
    return spec.get("layer", [spec])


def test_a_histogram_of_numbers_has_a_numeric_binned_axis():
    spec = every_chart()["carried"].to_dict()
    x = spec["encoding"]["x"]
    assert (x["type"], x["bin"]) == ("quantitative", "binned")
    rows = next(iter(spec["datasets"].values()))
    # 0..74 points in bins of 2: 37, 65 and 74 sit at their own distances on the axis,
    # not on evenly spaced categories
    assert [(r["bin_start"], r["bin_end"], r["games"]) for r in rows] == [
        (-0.5, 1.5, 10), (35.5, 37.5, 1), (63.5, 65.5, 1), (73.5, 75.5, 1)]
    narrow = charts.carried_chart(pl.DataFrame({"carried_value": [0, 3, 7],
                                                "games": [5, 2, 1]})).to_dict()
    rows = next(iter(narrow["datasets"].values()))
    assert [(r["bin_start"], r["bin_end"]) for r in rows] == [(-0.5, 0.5), (2.5, 3.5),
                                                               (6.5, 7.5)]  # centred


def test_counts_have_whole_number_ticks():
    for name in ("standings", "carried", "streaks"):
        spec = every_chart()[name].to_dict()
        axis = spec["encoding"]["x" if name == "standings" else "y"]["axis"]
        assert axis.get("tickMinStep") == 1 or axis.get("values"), name
        assert axis["format"] in (",d", "d"), name


def test_log_scales_tick_at_powers_of_ten():
    spec = every_chart()["unclaimed"].to_dict()
    y = spec["encoding"]["y"]
    assert y["scale"]["type"] == "symlog"
    assert y["axis"]["values"] == [0, 1, 10, 100, 1000]
    assert shared.log_ticks(1) == [0, 1] and shared.log_ticks(99_999) == [0, 1, 10, 100, 1000,
                                                                          10_000]


def test_colours_read_on_dark_and_for_colour_blind_readers():
    for name, chart in every_chart().items():
        text = json.dumps(chart.to_dict()).lower()
        # no black or white marks and no red-green pair (the old wins/losses colours)
        for banned in ('"black"', '"#000000"', '"#000"', '"#2ca02c"', '"#d62728"',
                       '"#e45756"', '"#dddddd"', '"#bbbbbb"'):
            assert banned not in text, (name, banned)
        title = chart.to_dict()["title"]
        assert title["subtitleColor"] == shared.NEUTRAL, name
    used = set(re.findall(r'"(#[0-9a-f]{6})"', json.dumps(
        [c.to_dict() for c in every_chart().values()]).lower()))
    allowed = {c.lower() for c in shared.OKABE_ITO} | {shared.NEUTRAL.lower(), "#1a1a1a"}
    assert used <= allowed, used - allowed


def test_every_colour_encoding_has_a_legend():
    for name, chart in every_chart().items():
        for layer in layers(chart.to_dict()):
            colour = layer.get("encoding", {}).get("color", {})
            if "field" in colour:
                assert colour.get("legend", {}) is not None, name
    expected = every_chart()["expected"].to_dict()["encoding"]
    # one legend for colour and dash: same field, same title
    assert expected["strokeDash"]["title"] == expected["color"]["title"]
    assert expected["strokeDash"].get("legend", {}) is not None


def test_a_count_beside_every_rate():
    all_charts = every_chart()
    for name, field in (("ties_by_rule", "rounds"), ("habits", "n"), ("bid_heatmap", "count"),
                        ("pair_ties", "rounds"), ("h2h", "games"), ("minus", "n")):
        texts = [layer for layer in layers(all_charts[name].to_dict())
                 if layer.get("mark", {}).get("type") == "text"]
        assert texts, name
        assert texts[0]["encoding"]["text"]["field"] == field, name
    habits = layers(all_charts["habits"].to_dict())
    assert any(layer["mark"]["type"] == "tick" and layer["encoding"]["x"]["field"] == "uniform"
               for layer in habits)


def test_card_axes_name_the_cards():
    spec = every_chart()["bid_heatmap"].to_dict()
    expr = layers(spec)[0]["encoding"]["x"]["axis"]["labelExpr"]
    assert "'A'" in expr and "'K'" in expr and "'10'" not in expr


@pytest.mark.parametrize("name", ["habits", "h2h", "game_bids"])
def test_charts_render_offline_as_png_and_svg(name):
    chart = every_chart()[name]
    png = shared.to_png(chart)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    svg = shared.to_svg(chart).decode("utf-8")
    assert svg.lstrip().startswith("<svg") and chart.to_dict()["title"]["text"] in svg


def test_cell_text_is_light_on_dark_cells_at_both_ends_of_a_diverging_scale():
    text = [layer for layer in layers(every_chart()["h2h"].to_dict())
            if layer["mark"]["type"] == "text"][0]
    test = text["encoding"]["color"]["condition"]["test"]
    assert test == "datum['score_share'] < 0.25 || datum['score_share'] > 0.75"
    one_sided = [layer for layer in layers(every_chart()["bid_heatmap"].to_dict())
                 if layer["mark"]["type"] == "text"][0]["encoding"]["color"]["condition"]
    assert one_sided["test"].startswith("datum['row_share'] > ")
