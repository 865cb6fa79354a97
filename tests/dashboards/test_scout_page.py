"""The Scout page under AppTest: it starts from the sidebar's player filter, says when the
sample is small, shows the generic strategy and the gain from exploiting (counter minus
generic) with its interval, counts beside its rates, a legend on every chart with more
than one series, and names from records as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from club_fixture import EVIL_LINK, HOSTILE, HOSTILE_PLAYER, write_records
from gops_records.dashboards.text import escape_md
from streamlit.testing.v1 import AppTest

from gops_records.core.importer import import_paths
from gops_records.games.gops.scouting.report import MIN_GAMES

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
TIMEOUT = 60


def scout_page(db: Path, monkeypatch: pytest.MonkeyPatch, first: dict | None = None,
               **params: str) -> AppTest:
    """The Scout page with ``params`` in its URL (set once the page shows); ``first`` is
    the URL of the first load (the sidebar's filters read it then)."""
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(first or {})
    at.run()
    at.switch_page("gops/scout.py").run()
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, object]:
    return {m.label: m for m in at.metric}


def points(text: str) -> float:
    return float(text.split()[0])


def test_the_sidebar_player_filter_is_the_first_player_scouted(club_db, monkeypatch):
    at = scout_page(club_db, monkeypatch, first={"player": "Bruno"})
    assert at.selectbox[0].value == "Bruno"           # not Alice, the first name
    assert at.subheader[0].value.startswith("Bruno is ")
    # picking another player in the sidebar's filter moves the pick to them
    players = next(m for m in at.multiselect if m.label == "Players")
    players.set_value(["Carla"]).run()
    assert at.selectbox[0].value == "Carla" and at.query_params["scout"] == "Carla"
    # a ?scout= link still wins over the filter
    at = scout_page(club_db, monkeypatch, first={"player": "Bruno"}, scout="Alice")
    assert at.selectbox[0].value == "Alice"
    # and the page's own pick stays when the filter does not change
    at.selectbox[0].select("Bruno").run()
    at.run()
    assert at.selectbox[0].value == "Bruno"


def test_a_small_sample_says_so(club_db, monkeypatch):
    at = scout_page(club_db, monkeypatch)          # Alice: 6 games
    assert int(metrics(at)["Games studied"].value) < MIN_GAMES
    assert at.subheader[0].value.endswith("on only 6 games: a small sample")
    warning = " ".join(w.value for w in at.warning)
    assert "Small sample: 6 games" in warning and "read the intervals" in warning
    m = metrics(at)
    assert "95% CI" in m["Information gain"].delta
    # on 6 games the page cannot tell whether scouting pays, and says so (issue 24)
    assert m["Gain from exploiting them"].value == "cannot tell"
    assert any("Cannot tell whether exploiting Alice pays: 6 games are too few" in md.value
               for md in at.markdown)


def test_counter_generic_random_and_the_exploit(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Pia")   # Pia bids the prize, 30 games
    assert not at.warning                                   # 30 games: not a small sample
    m = metrics(at)
    counter, generic = points(m["Counter-strategy"].value), points(m["Generic strategy"].value)
    exploit = points(m["Gain from exploiting them"].value)
    # the figure is the cross-fitted interval's centre: inside its interval, and no more
    # than the optimistic counter minus generic measured on the counter's own model
    low, high = (points(x) for x in
                 m["Gain from exploiting them"].delta.removeprefix("95% CI ").split(" to "))
    assert low <= exploit <= high
    assert exploit == pytest.approx((low + high) / 2, abs=0.11)
    assert exploit <= counter - generic + 0.11
    # bidding the prize against a prize bidder ties every round: the whole gain is the exploit
    assert abs(generic) < 1.0 and exploit > 40
    assert m["Gain from exploiting them"].delta.startswith("95% CI +")
    assert any(md.value.startswith("Exploiting Pia pays") for md in at.markdown)
    gains = chart_frame(at, "Points per game against Pia")
    assert gains["reply"].to_list() == ["counter-strategy", "generic: bid the prize",
                                        "random reply"]
    assert gains["games"].to_list() == [500] * 3


def test_against_a_random_bidder_the_exploit_is_no_clear_gain(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Ravi")
    m = metrics(at)
    assert points(m["Generic strategy"].value) > 15
    assert abs(points(m["Gain from exploiting them"].value)) < 5
    assert any(md.value.startswith("Exploiting Ravi adds no clear gain") for md in at.markdown)


def test_counts_beside_the_rates(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Pia")
    m = metrics(at)
    assert "of 390 bids" in m["Exact bid"].help and "95% interval" in m["Exact bid"].help
    assert any("390 bids in 30 games" in c.value for c in at.caption)


def chart_specs(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def chart_frame(at: AppTest, title: str):
    import polars as pl
    import pyarrow as pa
    for chart in at.get("vega_lite_chart"):
        if title in json.dumps(json.loads(chart.proto.spec).get("title", "")):
            return pl.from_arrow(pa.ipc.open_stream(chart.proto.datasets[0].data.data)
                                 .read_all())
    raise AssertionError(f"no chart titled {title!r}")


def test_the_mean_and_most_likely_bid_chart_has_its_legend(scout_db, monkeypatch):
    at = scout_page(scout_db, monkeypatch, scout="Pia")
    spec = next(s for s in chart_specs(at) if "predicted bid by prize" in json.dumps(s))
    color = spec["encoding"]["color"]
    assert color.get("legend", {}) is not None and color["field"] == "line"
    assert spec["encoding"]["strokeDash"]["field"] == "line"


def hostile_twice(tmp: Path) -> Path:
    """The club records plus the hostile game twice (two rounds of it), so its player can
    be scouted."""
    folder = write_records(tmp / "records")
    second = HOSTILE.replace('[Date "2026.03.09"]', '[Date "2026.03.10"]')
    (folder / "hostile.gops").write_text(HOSTILE + "\n" + second, encoding="utf-8")
    db = tmp / "hostile2.duckdb"
    import_paths([folder], db)
    return db


def test_names_are_shown_as_text(tmp_path, monkeypatch):
    db = hostile_twice(tmp_path)
    at = scout_page(db, monkeypatch, scout=HOSTILE_PLAYER)
    assert at.selectbox[0].value == HOSTILE_PLAYER
    heading = at.subheader[0].value
    assert heading.startswith(escape_md(HOSTILE_PLAYER) + " is ")
    texts = [e.value for e in (*at.subheader, *at.markdown, *at.info, *at.caption,
                               *at.warning)]
    for text in texts:
        assert "[link](" not in text and f"({EVIL_LINK})" not in text, text
    # too few games against the hostile opponent: the message names them escaped too
    at = scout_page(db, monkeypatch, scout="Alice")
    assert not at.exception


def variants_db(tmp: Path) -> Path:
    """The Scout database's records plus 4 games of bids of two cards between Pia and
    Ravi, and 2 with open prizes between two players who play nothing else."""
    import random

    from club_fixture import PIA, RAVI, simulated_records

    from gops_records.games.gops.bots import Personality
    from gops_records.games.gops.notation import write_games
    from gops_records.games.gops.rules import RuleProfile
    from gops_records.games.gops.simulate import Player, simulate_game

    folder = write_records(tmp / "records")
    (folder / "bots.gops").write_text(simulated_records(), encoding="utf-8")
    rng = random.Random(9)
    pairs = [simulate_game(RuleProfile(bid_cards=2), [PIA, RAVI], rng,
                           {"Event": "Pairs night", "Date": "2026.04.02", "Round": str(i + 1)})
             for i in range(4)]
    row = [simulate_game(RuleProfile(open_prizes=3), [Player("Tess", Personality.PRIZE),
                                                        Player("Umar", Personality.RANDOM)],
                         rng, {"Event": "Row night", "Date": "2026.04.03",
                               "Round": str(i + 1)})
           for i in range(2)]
    (folder / "variants.gops").write_text(write_games(pairs + row), encoding="utf-8")
    db = tmp / "variants.duckdb"
    import_paths([folder], db)
    return db


def test_the_page_says_it_reads_classic_games_only(tmp_path, monkeypatch):
    db = variants_db(tmp_path)
    at = scout_page(db, monkeypatch, scout="Pia")
    assert any("classic rules" in c.value and "left out" in c.value for c in at.caption)
    m = metrics(at)
    assert int(m["Games studied"].value) == 30          # the 4 games of pairs are left out
    notes = [i.value for i in at.info]
    assert any(n.startswith("Classic games only: 4 games of the variants") for n in notes)
    # a player of the variants only cannot be scouted, and the page says why
    at = scout_page(db, monkeypatch, scout="Tess")
    text = " ".join(i.value for i in at.info)
    assert "Cannot scout Tess here" in text and "classic games only" in text
    assert not at.metric


def _page_text(at: AppTest) -> list:
    """What the page says: its headings, metrics (value, delta, help) and captions."""
    return ([s.value for s in at.subheader] + [c.value for c in at.caption]
            + [(m.label, m.value, m.delta, m.help) for m in at.metric]
            + [md.value for md in at.markdown])


def test_a_kept_report_shows_as_the_one_computed(tmp_path, monkeypatch):
    """The import keeps no report; `gops scout` keeps the one it computes
    (scouting/kept_store.py), and the page reads it and shows exactly what it shows for
    the report computed afresh."""
    from typer.testing import CliRunner

    from gops_records.cli import app
    from gops_records.core.store.db import connect
    from gops_records.games.gops.scouting import kept_store

    monkeypatch.setattr(kept_store, "KEEP_FROM_GAMES", 2)
    from club_fixture import build_club_db
    db = build_club_db(tmp_path)
    con = connect(db)
    try:
        assert con.execute("SELECT count(*) FROM scout_reports").fetchall() == [(0,)]
    finally:
        con.close()
    assert CliRunner().invoke(app, ["scout", "Bruno", "--db", str(db)]).exit_code == 0
    con = connect(db)
    try:
        kept = [r[0] for r in con.execute("SELECT player FROM scout_reports").fetchall()]
    finally:
        con.close()
    assert kept == ["Bruno"]
    shown = _page_text(scout_page(db, monkeypatch, scout="Bruno"))
    con = connect(db)
    try:  # the kept row is what the page reads: a mark put in it shows
        con.execute("UPDATE scout_reports SET report = json_merge_patch(report, "
                    "'{\"model_description\": \"MARK\"}') WHERE player = 'Bruno'")
    finally:
        con.close()
    assert any("MARK" in str(line) for line in _page_text(
        scout_page(db, monkeypatch, scout="Bruno")))
    con = connect(db)
    try:
        con.execute("DELETE FROM scout_reports")
    finally:
        con.close()
    assert _page_text(scout_page(db, monkeypatch, scout="Bruno")) == shown
    assert any("Bruno is " in str(line) for line in shown)
