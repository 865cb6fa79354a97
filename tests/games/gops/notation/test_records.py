"""The tagged-record base every notation's records share (core/records.py): known tags in
canonical case and writing order, tag lookup in any case, tags read once with spans."""

from __future__ import annotations

from gops_records.core.problems import Span
from gops_records.core.records import TagNames, TagReading
from gops_records.games.gin.notation import parse_hands, write_hand
from gops_records.games.gin.sheet import parse_sheets, write_sheet
from gops_records.games.gops.notation import write_game
from gops_records.games.gops.reading import parse

NAMES = TagNames(("Event", "Date", "A", "B"))


def test_known_tags_come_back_in_canonical_case_others_as_written():
    assert NAMES.canonical("eVENT") == "Event"
    assert NAMES.canonical("Zed") == "Zed" and NAMES.canonical("zed") == "zed"
    assert "A" in NAMES and "a" not in NAMES


def test_ordered_puts_known_tags_first_in_order_then_others_in_file_order():
    tags = [("Zed", "1"), ("B", "b"), ("Alpha", "2"), ("Event", "e")]
    assert NAMES.ordered(tags) == [("Event", "e"), ("B", "b"), ("Zed", "1"), ("Alpha", "2")]


def test_tag_reading_refuses_a_tag_given_twice_and_checks_values():
    reading, found = TagReading(NAMES), []
    report = lambda message, span, code: found.append((code, span.column, message))  # noqa: E731
    reading.add("event", "Club", Span(1, 1, 0, 14), report)
    reading.add("EVENT", "Other", Span(1, 16, 15, 30), report)
    reading.add("Date", "2024.13.01", Span(2, 1, 31, 50), report)
    assert reading.ordered() == (("Event", "Club"), ("Date", "2024.13.01"))
    assert reading.spans["Event"] == Span(1, 1, 0, 14)
    assert [(code, column) for code, column, _ in found] == [("tag-value", 16), ("tag-value", 1)]
    assert "given twice" in found[0][2] and "no month 13" in found[1][2]


GOPS = '[event "Club"] [a "Ann"] [B "Bob"]\n1. 5 7 J 2-3\n'
GIN = """[Dealer "B"] [DealA "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ T♠"]
[DealB "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ T♥"] [upcard "A♦"] [Zed "z"]
*
"""
SHEET = '[a "Ann"] [B "Bob"] [match "M"]\n1. A up 8  B knock 3 v 15  0-12\n*\n'


def test_every_notation_answers_tag_in_any_case_with_its_span():
    game = parse(GOPS)[0]
    hand = parse_hands(GIN)[0].record
    sheet = parse_sheets(SHEET)[0].record
    assert (game.tag("EVENT"), game.tag("a"), game.tag("Site")) == ("Club", "Ann", None)
    assert (hand.tag("upcard"), hand.tag("Upcard"), hand.tag("zed")) == ("A♦", "A♦", None)
    assert hand.tag("Zed") == "z"
    assert (sheet.tag("MATCH"), sheet.tag("A")) == ("M", "Ann")
    assert game.tag_span("Event") == Span(1, 1, 0, 14)
    assert hand.tag_span("upcard").line == 2 and sheet.tag_span("match").column == 21


def test_records_compare_what_they_say_not_where_it_was_written():
    game = parse(GOPS)[0]
    moved = parse("\n\n" + write_game(game))[0]
    assert moved == game and moved.tag_spans != game.tag_spans
    hand = parse_hands(GIN)[0].record
    assert parse_hands("\n" + write_hand(hand))[0].record == hand
    sheet = parse_sheets(SHEET)[0].record
    again = parse_sheets("{x}\n" + write_sheet(sheet))[0].record
    assert again.tags == sheet.tags and again.lines == sheet.lines


def test_shared_record_modules_import_no_game_and_the_games_not_each_other():
    grimp = __import__("pytest").importorskip("grimp")
    graph = grimp.build_graph("gops_records")  # imports inside functions count too
    for shared in ("errors", "problems", "records", "text", "values"):
        upstream = graph.find_upstream_modules(f"gops_records.core.{shared}")
        assert not [m for m in upstream if m.startswith("gops_records.games")], shared
    for a, b in (("gin", "gops"), ("gops", "gin")):
        assert not graph.chain_exists(f"gops_records.games.{a}", f"gops_records.games.{b}",
                                      as_packages=True), f"games.{a} imports games.{b}"
