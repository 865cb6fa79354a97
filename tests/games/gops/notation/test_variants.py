"""Reading and writing the two variants: bids of several cards (``9♣+4♣``) and open prizes
(``1. (8♦ 3♦ K♦) 9♣ 7♠ K♦``), their spans, the worked games of docs/notation.md, and the
classic reading of the same words in a game without the variant's tag."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from gops_records.games.gops.cards import Suit
from gops_records.games.gops.notation import BidToken, CardToken, write_game
from gops_records.games.gops.notation.tokens import Group, Kind, Shape, read_word, tokenize
from gops_records.games.gops.reading import parse, read_reports

DOC = ROOT / "docs" / "notation.md"


def one(text: str):
    (game,) = parse(text)
    return game


# -- words ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("word", "cards"), [
    ("9♣+4♣", ((9, 2, 0), (4, 2, 5))), ("9C+4C", ((9, 2, 0), (4, 2, 3))),
    ("9+4", ((9, 0, 0), (4, 0, 2))), ("10+t+a", ((10, 0, 0), (10, 0, 3), (1, 0, 5))),
])
def test_a_bid_of_several_cards_is_one_card_token(word, cards):
    w = read_word(word)
    assert (w.kind, w.n_cards, w.cards) == (Kind.CARD, len(cards), cards)


def test_a_bid_of_more_cards_than_any_game_bids_is_counted_not_listed():
    w = read_word("2+3+4+5+6")
    assert w.n_cards == 5 and len(w.cards) == 3


@pytest.mark.parametrize(("word", "fix"), [("9♣+11♣", "9♣+J♣"), ("9+", None), ("9+x", None)])
def test_a_mistyped_bid_keeps_its_place(word, fix):
    w = read_word(word)
    assert (w.kind, w.shape, w.suggestion) == (Kind.WORD, Shape.CARD, fix)


@pytest.mark.parametrize(("word", "group", "values"), [
    ("(", Group.OPENS, ()), (")", Group.CLOSES, ()), ("()", Group.OPENS | Group.CLOSES, ()),
    ("(8♦", Group.OPENS | Group.CARD, (8, 1)), ("K♦)", Group.CLOSES | Group.CARD, (13, 1)),
    ("(5d)", Group.OPENS | Group.CLOSES | Group.CARD, (5, 1)), ("-", Group.DASH, ()),
    ("(tie)", Group(0), ()),
])
def test_open_prize_words_are_words_with_a_group_role(word, group, values):
    w = read_word(word)
    assert w.kind == Kind.WORD and w.group == group and w.values[:2] == values


def test_the_tokenizer_is_one_pass_and_reads_each_word_once():
    t = tokenize(b"1. (8d 3d kd) 9c 7s kd 2. (5d) 4c 4s - " * 1000)
    assert len(t) == 12_000 and len(t.words) == 12 and t.has_groups
    assert not tokenize(b"1. 8d 9c 9s").has_groups


# -- bids of several cards -------------------------------------------------------------------


def test_bids_of_several_cards_in_every_spelling():
    game = one('[BidCards "2"]\n[Cards "4"]\n1. 3♦ 4♣+A♣ 3S+2S\n2. 2d 3+2 4+a *')
    first, second = game.rounds
    assert first.bids == (BidToken((CardToken(4), CardToken(1))),
                          BidToken((CardToken(3), CardToken(2))))
    assert [b.strength for b in second.bids] == [5, 5]
    assert [c.suit for c in first.bids[1].cards] == [Suit.SPADES, Suit.SPADES]
    assert [(c.span.line, c.span.column) for c in first.bids[1].cards] == [(3, 13), (3, 16)]


def test_each_card_of_a_bid_is_located():
    (report,) = read_reports('[BidCards "3"]\n1. 8♦ 9♣+4♣+9♣ 7♠+2♠+K♦\n*\n')
    got = [(p.code, p.line, p.column) for p in report.problems]
    assert got == [("bid-card-repeated", 2, 13), ("wrong-suit", 2, 22)]


def test_a_bid_of_several_cards_in_a_classic_game_is_a_bid_count_problem():
    (report,) = read_reports("1. 8♦ 9♣+4♣ 7♠\n*\n")
    assert [(p.code, p.column) for p in report.problems] == [("bid-count", 7)]
    assert "a BidCards tag allows more" in report.problems[0].message


def test_a_prize_is_one_card():
    (report,) = read_reports('[BidCards "2"]\n1. 8♦+2♦ 9♣+4♣ 7♠+A♠\n*\n')
    assert [(p.code, p.column) for p in report.problems] == [("syntax", 4)]
    assert "only a bid joins cards" in report.problems[0].message


# -- open prizes -------------------------------------------------------------------------------


OPEN = '[OpenPrizes "3"]\n[Cards "5"]\n'


def test_open_prize_rounds_in_the_issues_notation():
    game = one(OPEN + "1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦\n2. (2♦) 4♣ 4♠ -\n3. () 5♣ A♠ 4♦\n*\n")
    assert [tuple(c.rank for c in r.revealed) for r in game.rounds] == [(4, 1, 5), (2,), ()]
    assert [r.prize.rank if r.prize else None for r in game.rounds] == [5, None, 4]
    assert [[b.rank for b in r.bids] for r in game.rounds] == [[3, 2], [4, 4], [5, 1]]
    spans = [(c.span.line, c.span.column, c.span.end - c.span.start)
             for c in game.rounds[0].revealed]
    assert spans == [(3, 5, 2), (3, 8, 2), (3, 11, 2)]  # the card, not its parenthesis
    assert game.problems == ()


@pytest.mark.parametrize("text", [
    "( 4♦ A♦ 5♦ ) 3♣ 2♠ 5♦ ( 2♦ ) 4♣ 4♠ - ( ) 5♣ A♠ 4♦ *",
    "1.(4d ad 5d) 3c 2s 5d 2.(2d) 4c 4s - 3.() 5c as 4d *",
    "(4 a 5) 3 2 5 (2) 4 4 - () 5 a 4 *",
])
def test_open_prize_rounds_in_any_layout(text):
    game = one(OPEN + text)
    assert game.problems == ()
    assert [tuple(c.rank for c in r.revealed) for r in game.rounds] == [(4, 1, 5), (2,), ()]
    assert write_game(game) == write_game(one(OPEN + "1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦\n"
                                                    "2. (2♦) 4♣ 4♠ -\n3. () 5♣ A♠ 4♦\n*"))


def test_a_short_open_round_keeps_its_prize_taken_when_it_is_a_diamond_or_a_dash():
    game = one(OPEN + "1. (4♦ A♦ 5♦) 3♣ 5♦\n2. (2♦) 4♣ -\n3. () 5♣ A♠\n*\n")
    assert [(len(r.bids), r.prize.rank if r.prize else None) for r in game.rounds] == \
        [(1, 5), (1, None), (2, None)]


def test_the_same_words_in_a_classic_game_are_read_as_they_always_were():
    (report,) = read_reports("1. (8♦ 3♦) 9♣ 7♠ -\n*\n")
    assert [(p.code, p.column) for p in report.problems][:1] == [("syntax", 4)]
    assert all(p.code in ("syntax", "bid-count", "wrong-suit") for p in report.problems)


# -- the worked games of the docs ----------------------------------------------------------


def worked_games() -> list[str]:
    text = DOC.read_text("utf-8")
    section = text.split("## Variants", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```gops\n(.*?)```", section, re.S)


def test_the_docs_have_a_worked_game_of_each_variant():
    games = worked_games()
    assert len(games) == 2
    assert '[BidCards "2"]' in games[0] and '[OpenPrizes "3"]' in games[1]


@pytest.mark.parametrize("text", worked_games())
def test_a_worked_game_is_valid_canonical_and_scores_its_result(text):
    (report,) = read_reports(text)
    assert report.valid and report.finished, report.problems
    assert report.outcome.scores == report.record.result
    assert write_game(report.record) == text
    played = sum(r.prize for r in report.rounds) if report.profile.open_prizes is None else \
        report.profile.total_points
    assert sum(report.outcome.scores) + report.outcome.unclaimed == played
