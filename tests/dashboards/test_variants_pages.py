"""The dashboard on games of both variants: the sidebar's variant filter (in the URL like
the others), the Ties and pools page (what it leaves out, said on the page; what open-prize
winners take) and the Players page (strength against the prize, bids against the row),
each number the page shows read back against the analytics library."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from club_fixture import GAMES, write_records
from gops_records.dashboards import data
from gops_records.dashboards.text import escape_md
from test_apptest import chart_titled, charts_of, frame, metrics, start

import gops_records.games.gops.analytics as a
from gops_records.core.importer import import_paths
from gops_records.games.gops.bots import Personality
from gops_records.games.gops.notation import write_games
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import Player, simulate_game

PAIRS = RuleProfile(bid_cards=2)
ROW = RuleProfile(open_prizes=3, tie_rule=TieRule.DISCARD)
SIM_GAMES = 12  # of each variant
PIA, RAVI = Player("Pia", Personality.PRIZE), Player("Ravi", Personality.RANDOM)
TESS, UMAR = Player("Tess", Personality.PRIZE_PLUS_ONE), Player("Umar", Personality.SAVER)


@pytest.fixture(scope="module")
def variant_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("variants")
    folder = write_records(tmp / "records")
    rng = random.Random(11)
    for name, profile, seats in (("pairs", PAIRS, [PIA, RAVI]), ("row", ROW, [TESS, UMAR])):
        records = [simulate_game(profile, seats, rng, {"Event": f"{name} night",
                                                       "Date": "2026.04.02",
                                                       "Round": str(i + 1)})
                   for i in range(SIM_GAMES)]
        (folder / f"{name}.gops").write_text(write_games(records), encoding="utf-8")
    db = tmp / "variants.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_new == GAMES + 2 * SIM_GAMES, summary.as_dict()
    return db


def _lib(db: Path, fn, *args):
    """``fn(con, *args)`` from the analytics library, on the dashboard's own reader (a
    second connection to the file in this process would be refused)."""
    with data.reader(str(db)).read() as con:
        return fn(con, *args)


def test_the_variant_filter_is_in_the_sidebar_and_the_url(variant_db, monkeypatch):
    at = start(variant_db, monkeypatch, "gops/ties.py", variant="open-prizes-3")
    box = at.sidebar.selectbox(key="f_variant")
    assert box.value == "open-prizes-3"
    assert box.options == ["any", "classic", "bids of 2 cards", "open prizes (row of 3)"]
    assert metrics(at)["Finished games"] == str(SIM_GAMES)
    assert any(escape_md("variant: open prizes (row of 3)") in c.value
               for c in at.sidebar.caption)
    box.select("bid-cards-2").run()
    assert not at.exception
    assert at.query_params["variant"] == "bid-cards-2"
    assert metrics(at)["Finished games"] == str(SIM_GAMES)
    at.sidebar.button[0].click().run()  # Clear filters
    assert "variant" not in at.query_params
    assert at.sidebar.selectbox(key="f_variant").value == "any"
    assert metrics(at)["Finished games"] == str(GAMES - 1 + 2 * SIM_GAMES)  # one unfinished


def test_an_unreadable_variant_in_a_link_is_named_and_ignored(variant_db, monkeypatch):
    at = start(variant_db, monkeypatch, variant="pairs")
    notes = " ".join(w.value for w in at.sidebar.warning)
    assert "variant=pairs is not classic, bid-cards-K" in notes
    assert at.sidebar.selectbox(key="f_variant").value == "any"


def test_ties_and_pools_page_on_every_variant(variant_db, monkeypatch):
    at = start(variant_db, monkeypatch, "gops/ties.py")
    assert any(f"{SIM_GAMES} bids of 2 cards" in c.value and f"{SIM_GAMES} open prizes" in c.value
               for c in at.caption)
    final = _lib(variant_db, a.final_ties, a.Filters())
    m = metrics(at)
    assert m["Finished games"] == str(final["games"])
    assert m[f"Ended on a tie ({final['games_ending_on_tie']} of {final['games']})"]
    assert m["Unclaimed points per game"] == f"{final['mean_unclaimed']:.2f}"
    infos = " ".join(i.value for i in at.info)
    assert f"The {SIM_GAMES} games with open prizes in view have no pool" in infos
    pools = chart_titled(at, "How much was on offer each round")
    want = _lib(variant_db, a.pool_distribution, a.Filters())
    assert int(pools["rounds"].sum()) == int(want["rounds"].sum())
    # every round of the classic games and of the pairs, none of the open rows
    pooled, everything = _lib(variant_db, lambda con: con.execute(
        "SELECT count(*) FILTER (open_prizes IS NULL), count(*) FROM rounds "
        "JOIN games USING (game_id)").fetchall()[0])
    assert int(pools["rounds"].sum()) == pooled == everything - SIM_GAMES * ROW.cards
    choices = chart_titled(at, "Which prize of the row the winner takes")
    lib = _lib(variant_db, a.row_choices, a.Filters())
    assert choices.select("choice", "rounds", "taken").rows() == \
        lib.select("choice", "rounds", "taken").rows()
    assert frame(at, "ties_largest_pools").height > 0


def test_the_pool_figures_say_so_when_only_open_prizes_are_in_view(variant_db, monkeypatch):
    at = start(variant_db, monkeypatch, "gops/ties.py", variant="open-prizes-3")
    assert not at.exception
    infos = " ".join(i.value for i in at.info)
    assert "No game of one prize a round in view, so no pool to show." in infos
    assert "No carry-rule games in view" in infos  # discard only: nothing carried
    titles = " ".join(str(spec.get("title")) for spec, _ in charts_of(at))
    assert "How much was on offer" not in titles and "Which prize of the row" in titles


def _player_page(db: Path, monkeypatch: pytest.MonkeyPatch, player: str, **params: str):
    """The Players page on ``player`` (the page's own URL parameter is read on the page)."""
    at = start(db, monkeypatch, "gops/players.py", **params)
    at.query_params["profile"] = player
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_players_page_shows_the_strength_of_bids_of_several_cards(variant_db, monkeypatch):
    at = _player_page(variant_db, monkeypatch, "Pia")
    assert at.selectbox[0].value == "Pia"
    heat = chart_titled(at, "How strong Pia bids on each prize (bids of 2 cards)")
    lib = _lib(variant_db, a.strength_by_prize, a.Filters(), "Pia")
    assert int(heat["count"].sum()) == int(lib["heatmap"]["count"].sum()) \
        == SIM_GAMES * PAIRS.rounds
    means = chart_titled(at, "Pia's mean card against the prize")
    assert sorted(means.select("prize", "n").rows()) == \
        sorted(lib["by_prize"].select("prize", "n").rows())
    titles = " ".join(str(spec.get("title")) for spec, _ in charts_of(at))
    assert "What Pia bids on each prize" not in titles  # no classic game: no classic figures


def test_players_page_shows_open_prize_bids_against_the_row(variant_db, monkeypatch):
    at = _player_page(variant_db, monkeypatch, "Tess")
    bids = chart_titled(at, "What Tess bids against the best prize on offer")
    assert int(bids["count"].sum()) == SIM_GAMES * ROW.cards
    choices = chart_titled(at, "Which prize of the row Tess takes")
    lib = _lib(variant_db, a.row_choices, a.Filters(), "Tess")
    assert choices["rounds"].to_list() == lib["rounds"].to_list()
    assert any("no pool" in c.value for c in at.caption)


def test_players_page_of_a_classic_player_with_a_variant_filter(variant_db, monkeypatch):
    at = _player_page(variant_db, monkeypatch, "Alice", variant="bid-cards-2")
    # Alice plays no game of pairs: the picker offers the players of the games in view
    assert at.selectbox[0].value in ("Pia", "Ravi")
