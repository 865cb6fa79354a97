"""Filters: SQL they produce, the URL round trip, and junk tolerance."""

from __future__ import annotations

import datetime as dt

import pytest

from gops_records.games.gops.analytics import CLASSIC, Filters, Variant, VariantKind, list_games

FULL = Filters(events=("Club", "Other"), matches=("M1",), date_from=dt.date(2026, 1, 1),
               date_to=dt.date(2026, 1, 31), players=("Ann", "Bob"), tie_rule="carry",
               n_players=2, finished_only=True)


def test_empty_filter_keeps_everything():
    assert Filters().is_empty
    assert Filters().games_where() == ("TRUE", [])
    assert not Filters(finished_only=True).is_empty


def test_games_where_has_one_parameter_per_placeholder():
    sql, params = FULL.games_where("x")
    assert sql.count("?") == len(params) == 15  # each player once a seat
    assert "x.event IN (?, ?)" in sql and "x.finished" in sql
    assert params[:2] == ["Club", "Other"]
    assert params[-2:] == ["Ann", "Bob"]


def test_lists_become_tuples_and_bad_values_are_refused():
    f = Filters(events=["Club"])
    assert f.events == ("Club",)
    assert hash(f) == hash(Filters(events=("Club",)))
    with pytest.raises(TypeError, match="sequence of names"):
        Filters(players="Ann")
    with pytest.raises(ValueError, match="tie_rule"):
        Filters(tie_rule="sudden death")


def test_query_params_round_trip():
    params = FULL.to_query_params()
    assert params["event"] == ["Club", "Other"]
    assert params["from"] == "2026-01-01"
    assert params["finished"] == "1"
    assert Filters.from_query_params(params) == FULL
    assert Filters().to_query_params() == {}
    assert Filters.from_query_params({}) == Filters()


def test_query_params_accept_single_strings_and_ignore_junk():
    f = Filters.from_query_params({
        "event": "Club", "player": ["Ann", "", "Ann"], "from": "2026-13-45", "to": "2026.02.01",
        "tie_rule": "CARRY", "n_players": "seven", "finished": "no", "colour": "blue",
    })
    assert f == Filters(events=("Club",), players=("Ann",), date_to=dt.date(2026, 2, 1),
                        tie_rule="carry")
    assert Filters.from_query_params({"n_players": "9", "tie_rule": "x"}) == Filters()


def test_each_filter_changes_which_games_are_kept(con):
    def kept(f: Filters) -> set[int]:
        return set(list_games(con, f)["source_game"].to_list())

    assert kept(Filters()) == {1, 2, 3, 4, 5, 6}
    assert kept(Filters(events=("Club",))) == {1, 2, 3, 5}
    assert kept(Filters(events=("Other", "Four"))) == {4, 6}
    assert kept(Filters(matches=("M1",))) == {1, 2}
    assert kept(Filters(date_from=dt.date(2026, 1, 10), date_to=dt.date(2026, 2, 1))) == {3, 4, 5}
    assert kept(Filters(players=("Dee",))) == {6}
    assert kept(Filters(players=("Dee", "Cid"))) == {3, 4, 5, 6}
    assert kept(Filters(tie_rule="discard")) == {3, 6}
    assert kept(Filters(n_players=3)) == {4}
    assert kept(Filters(finished_only=True)) == {1, 2, 3, 4, 6}
    assert kept(Filters(events=("Club",), tie_rule="carry", finished_only=True)) == {1, 2}


class _QueryParams(dict):
    """Like st.query_params: item access gives the last value, get_all gives every value."""

    def __init__(self, pairs: list[tuple[str, str]]):
        super().__init__((k, v) for k, v in pairs)
        self._pairs = pairs

    def get_all(self, key: str) -> list[str]:
        return [v for k, v in self._pairs if k == key]


def test_query_params_read_repeated_keys_through_get_all():
    params = _QueryParams([("player", "Ann"), ("player", "Bob"), ("n_players", "2")])
    assert params["player"] == "Bob"
    assert Filters.from_query_params(params) == Filters(players=("Ann", "Bob"), n_players=2)


# -- the variant of the rules -------------------------------------------------------------

@pytest.mark.parametrize(("text", "variant", "sql", "params", "label"), [
    ("classic", Variant(VariantKind.CLASSIC), "(g.bid_cards = 1 AND g.open_prizes IS NULL)", [],
     "classic"),
    ("bid-cards-2", Variant(VariantKind.BID_CARDS, 2), "g.bid_cards = ?", [2], "bids of 2 cards"),
    ("Open-Prizes-13", Variant(VariantKind.OPEN_PRIZES, 13), "g.open_prizes = ?", [13],
     "open prizes (row of 13)"),
])
def test_a_variant_reads_from_and_writes_to_the_url(text, variant, sql, params, label):
    assert Variant.parse(text) == variant
    assert str(variant) == text.lower() and variant.label == label
    f = Filters(variant=text)
    assert f.variant == variant and f.games_where() == (sql, params)
    assert f.to_query_params() == {"variant": text.lower()}
    assert Filters.from_query_params(f.to_query_params()) == f
    assert f.describe() == f"variant: {label}"


@pytest.mark.parametrize("text", ["bid-cards-1", "bid-cards-4", "open-prizes-1",
                                  "open-prizes-14", "classic-2", "open", "pairs"])
def test_an_unreadable_variant_is_refused_in_python_and_ignored_in_a_url(text):
    with pytest.raises(ValueError, match="not a variant|takes a size|has no size"):
        Filters(variant=text)
    assert Filters.from_query_params({"variant": text}) == Filters()


def test_only_narrows_a_filter_to_one_variant():
    f = Filters(tie_rule="carry")
    assert f.only(CLASSIC) == Filters(tie_rule="carry", variant=CLASSIC)
    assert Filters(variant=CLASSIC).only(CLASSIC) == Filters(variant=CLASSIC)
    assert Filters(variant="bid-cards-2").only(CLASSIC) is None


def test_the_variant_filter_keeps_classic_games(con):
    kept = set(list_games(con, Filters(variant=CLASSIC))["source_game"].to_list())
    assert kept == {1, 2, 3, 4, 5, 6}  # the club's games are all classic
    assert list_games(con, Filters(variant="open-prizes-3")).is_empty()
