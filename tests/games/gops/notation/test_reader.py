"""The .gops parser: every token kind, tags, cards, comments, terminators, and exact spans."""

from __future__ import annotations

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.core.sources import decode
from gops_records.games.gops.cards import RANK_BY_TEXT, SUIT_BY_TEXT, Suit
from gops_records.games.gops.notation import CardToken, GameRecord, Problem, RoundRecord, Span
from gops_records.games.gops.reading import iter_games, parse

ISSUE_EXAMPLE = """\
[Event "Thursday club"]
[Date "2026.11.26"]
[A "Alice"]
[B "Bruno"]
[TieRule "carry"]
[Result "44-24"]

1. 8♦ 9♣ 9♠ {tie: the 8 stays}
2. 5♦ 7♣ J♠ 3. K♦ K♣ Q♠ ...
44-24
"""


def one(text: str) -> GameRecord:
    games = parse(text)
    assert len(games) == 1, games
    return games[0]


def ranks(game: GameRecord) -> list[tuple[int, ...]]:
    return [(r.prize.rank, *(b.rank for b in r.bids)) for r in game.rounds]


def where(problem: Problem) -> tuple[str, int, int, int | None]:
    return problem.code, problem.line, problem.column, problem.round


# -- tags ------------------------------------------------------------------------------


def test_issue_example():
    game = one(ISSUE_EXAMPLE)
    assert game.tags == {"Event": "Thursday club", "Date": "2026.11.26", "A": "Alice",
                         "B": "Bruno", "TieRule": "carry", "Result": "44-24"}
    assert ranks(game) == [(8, 9, 9), (5, 7, 11), (13, 13, 12)]
    assert game.rounds[0].comment == "tie: the 8 stays"
    assert game.rounds[0].prize.suit is Suit.DIAMONDS
    assert [b.suit for b in game.rounds[1].bids] == [Suit.CLUBS, Suit.SPADES]
    assert [r.number for r in game.rounds] == [1, 2, 3]
    assert game.result == (44, 24)
    assert game.players == ["Alice", "Bruno"]
    assert game.line == 1
    # the "..." of the example is not notation: it is reported where it stands
    assert [where(p) for p in game.problems] == [("syntax", 9, 25, 4)]
    assert game.problems[0].text == "..."


def test_tag_escapes():
    game = one(r'[Event "say \"hi\" to C:\\games\\"]' + '\n[Site "a\\tb"]\n*')
    assert game.tags["Event"] == 'say "hi" to C:\\games\\'
    assert game.tags["Site"] == "a\\tb"  # only \" and \\ are escapes; other backslashes stay
    assert game.problems == ()


def test_tag_names_are_case_insensitive_and_come_back_canonical():
    game = one('[event "E"] [DATE "2026.01.02"] [tierule "discard"] [cards "5"] '
               '[prizeORDER "ascending"] [a "Ann"] [b "Ben"] [result "*"]\n*')
    assert game.tags == {"Event": "E", "Date": "2026.01.02", "TieRule": "discard",
                         "Cards": "5", "PrizeOrder": "ascending", "A": "Ann", "B": "Ben",
                         "Result": "*"}


def test_unknown_tags_are_kept_with_their_case():
    game = one('[Annotator "Kees"] [white_clock "0:05"] [X2 ""]\n*')
    assert game.tags == {"Annotator": "Kees", "white_clock": "0:05", "X2": ""}
    assert game.problems == ()


def test_tag_spacing_is_lenient_and_values_keep_their_spaces():
    game = one('[  Event \t "  spaced  " ]\n*')
    assert game.tags == {"Event": "  spaced  "}
    assert game.tag_spans["Event"] == Span(1, 1, 0, 25)


def test_duplicate_tag_is_a_tag_value_problem_and_the_last_wins():
    game = one('[A "Ann"]\n[a "Anna"]\n*')
    assert game.tags == {"A": "Anna"}
    assert [where(p) for p in game.problems] == [("tag-value", 2, 1, None)]
    assert "given twice" in game.problems[0].message


@pytest.mark.parametrize("bad", ['[Event]', '[Event "unclosed]', '[Event"x"]', '[1x "y"]',
                                 '[Event "x" extra]', '[Event "line\\'])
def test_malformed_tags_are_syntax_problems(bad):
    game = one(bad + "\n*")
    assert game.tags == {}
    assert [where(p) for p in game.problems][0] == ("syntax", 1, 1, None)
    assert game.problems[0].message.startswith("malformed tag")


def test_tag_value_cannot_span_lines():
    games = parse('[Event "one\\\ntwo"]\n*')
    assert games[0].tags == {}
    assert games[0].problems[0].code == "syntax"


def test_player_tags_set_the_number_of_players():
    assert one("*").n_players == 2
    assert one("*").players == ["A", "B"]
    assert one('[B "Ben"]\n*').players == ["A", "Ben"]
    three = one('[A "Ann"] [C "Cy"]\n1. 2 3 4 5 *')
    assert three.n_players == 3 and three.players == ["Ann", "B", "Cy"]
    assert ranks(three) == [(2, 3, 4, 5)]
    four = one('[D "Dee"]\n1. 2 3 4 5 6 2. 7 8 9 10 J *')
    assert four.n_players == 4 and four.players == ["A", "B", "C", "Dee"]
    assert ranks(four) == [(2, 3, 4, 5, 6), (7, 8, 9, 10, 11)]


# -- cards -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("A", 1, None), ("a", 1, None), ("2", 2, None), ("9", 9, None), ("10", 10, None),
     ("T", 10, None), ("t", 10, None), ("J", 11, None), ("j", 11, None), ("Q", 12, None),
     ("q", 12, None), ("K", 13, None), ("k", 13, None),
     ("8D", 8, Suit.DIAMONDS), ("8d", 8, Suit.DIAMONDS), ("8♦", 8, Suit.DIAMONDS),
     ("8♢", 8, Suit.DIAMONDS), ("tC", 10, Suit.CLUBS), ("10♣", 10, Suit.CLUBS),
     ("10♧", 10, Suit.CLUBS), ("Qs", 12, Suit.SPADES), ("Q♠", 12, Suit.SPADES),
     ("Q♤", 12, Suit.SPADES), ("kh", 13, Suit.HEARTS), ("K♥", 13, Suit.HEARTS),
     ("K♡", 13, Suit.HEARTS)],
)
def test_card_spellings(text, rank, suit):
    game = one(f"1. {text} 2 3 *")
    assert game.problems == ()
    card = game.rounds[0].prize
    assert (card.rank, card.suit) == (rank, suit)
    assert card.span == Span(1, 4, 3, 3 + len(text))


@pytest.mark.parametrize("bad", ["1", "0", "11", "13", "1♦", "Z", "8X", "10♦♦", "AA", "8♦,",
                                 "Kd.", "♦"])
def test_not_cards(bad):
    game = one(f"1. 2 3 4 {bad} *")
    assert ranks(game) == [(2, 3, 4)]
    assert [where(p) for p in game.problems] == [("syntax", 1, 10, 2)]
    assert game.problems[0].text == bad


def test_bare_number_hints_at_round_numbers():
    game = one("1 8 9 9 *")
    assert "round numbers end with a dot" in game.problems[0].message


def test_card_equality_ignores_the_written_suit_and_span():
    assert CardToken(8, Suit.DIAMONDS, Span(1, 1, 0, 2)) == CardToken(8)
    assert CardToken(8) != CardToken(9)


# -- rounds ----------------------------------------------------------------------------


def test_rounds_without_numbers_are_cut_by_the_number_of_players():
    game = one("8♦ 9♣ 9♠ 5♦ 7♣ J♠\nK♦ K♣ Q♠ 44-24")
    assert ranks(game) == [(8, 9, 9), (5, 7, 11), (13, 13, 12)]
    assert [r.number for r in game.rounds] == [None, None, None]
    assert game.rounds[1].span == Span(1, 10, 9, 11)  # a round without number starts at its prize


def test_round_numbers_may_touch_the_prize_and_mix_with_unnumbered_rounds():
    game = one("1.8 9 9 5 7 J 3.K K Q *")
    assert ranks(game) == [(8, 9, 9), (5, 7, 11), (13, 13, 12)]
    assert [r.number for r in game.rounds] == [1, None, 3]
    assert game.problems == ()


def test_wrong_round_number():
    game = one("1. 8 9 9\n3. 5 7 J\n*")
    assert [where(p) for p in game.problems] == [("round-number", 2, 1, 2)]
    assert game.problems[0].message == "round numbered 3 is round 2"
    assert [r.number for r in game.rounds] == [1, 3]


def test_round_number_without_cards():
    game = one("1. 8 9 9 2. 3. 5 7 J *")
    assert [where(p) for p in game.problems] == [("syntax", 1, 10, 2), ("round-number", 1, 13, 2)]
    assert game.problems[0].message == "round 2 has no cards"
    game = one("1. 8 9 9 2. *")
    assert [where(p) for p in game.problems] == [("syntax", 1, 10, 2)]


def test_short_numbered_round_keeps_its_cards():
    game = one("1. 8 9 2. 5 7 J 3. K *")
    assert ranks(game) == [(8, 9), (5, 7, 11), (13,)]
    assert game.problems == ()  # the count is the validator's business (bid-count)


def test_round_span_is_its_number():
    game = one("\n  12. K♦ K♣ Q♠ *")
    assert game.rounds[0].span == Span(2, 3, 3, 6)
    assert game.rounds[0].number == 12


# -- comments --------------------------------------------------------------------------


def test_comments_everywhere():
    text = """\
; a file comment
{ a block
  before the game }
[Event "E"] ; after a tag
{between tags} [A "Ann"]
1. {before the prize} 8♦ ; mid round
9♣ {between bids} 9♠ {after
the round}
2. 5♦ 7♣ J♠ {before the terminator}
*  ; after the terminator
"""
    games = parse(text)
    assert len(games) == 1
    game = games[0]
    assert game.problems == ()
    assert game.line == 4  # comments before the first tag do not count
    assert game.tags == {"Event": "E", "A": "Ann"}
    assert ranks(game) == [(8, 9, 9), (5, 7, 11)]
    assert game.rounds[0].comment == ("before the prize mid round between bids "
                                      "after\nthe round")
    assert game.rounds[1].comment == "before the terminator"


def test_semicolon_comment_may_hold_braces_and_brace_comment_may_hold_semicolons():
    game = one("1. 8 9 9 ; a } and a { here\n2. 5 7 J {x; y} *")
    assert game.rounds[0].comment == "a } and a { here"
    assert game.rounds[1].comment == "x; y"
    assert game.problems == ()


def test_card_directly_followed_by_a_comment():
    game = one("1. 8♦ 9♣ 9♠{tie}2. 5♦ 7♣ J♠;x\n*")
    assert ranks(game) == [(8, 9, 9), (5, 7, 11)]
    assert [r.comment for r in game.rounds] == ["tie", "x"]


def test_empty_comments_are_dropped():
    game = one("1. 8 9 9 {} {   } ;\n*")
    assert game.rounds[0].comment is None


def test_unclosed_brace_comment_ends_with_its_line():
    game = one("[A \"Ann\"]\n1. 8 9 9 { never closed\n2. 5 7 J *\n")
    assert ranks(game) == [(8, 9, 9), (5, 7, 11)]
    assert [where(p) for p in game.problems] == [("syntax", 2, 10, 2)]
    assert game.problems[0].message.startswith("comment opened with '{' is never closed")
    assert game.result is None


def test_unclosed_brace_does_not_swallow_the_games_after_it():
    text = "1. 8 9 9 {oops\n*\n\n1. 5 7 J {fine}\n*\n\n{a\n\nb}\n1. 8 9 9 *\n"
    games = parse(text)
    assert [ranks(g) for g in games] == [[(8, 9, 9)], [(5, 7, 11)], [(8, 9, 9)]]
    assert games[1].rounds[0].comment == "fine"
    assert [p.code for p in games[0].problems] == ["syntax"]
    assert [(p.code, p.line) for p in games[2].problems] == [("syntax", 7), ("syntax", 9)]


def test_file_of_only_comments_and_blank_lines_has_no_games():
    assert parse("") == []
    assert parse("\n\n  \r\n") == []
    assert parse("; nothing\n{ at all\n}\n\n") == []
    assert parse("\ufeff") == []


# -- terminators -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "result"), [("44-24", (44, 24)), ("9-0-82", (9, 0, 82)),
                                              ("0-0-0-0", (0, 0, 0, 0)), ("*", None)])
def test_terminators(text, result):
    game = one(f"1. 8 9 9 {text}")
    assert game.result == result and game.problems == ()
    assert game.result_span == Span(1, 10, 9, 9 + len(text))


@pytest.mark.parametrize("bad", ["44", "44-", "-24", "44--24", "44-24-", "4a-2", "**"])
def test_malformed_terminators_are_syntax_problems(bad):
    games = parse(f"1. 8 9 9 {bad}")
    assert games[0].problems[0].code == "syntax"
    assert games[0].problems[0].text == bad


def test_missing_terminator_mid_file():
    text = '[A "Ann"]\n1. 8 9 9\n2. 5 7 J\n\n[A "Bob"]\n1. K Q A *\n'
    first, second = parse(text)
    assert ranks(first) == [(8, 9, 9), (5, 7, 11)]
    assert first.result is None
    assert [where(p) for p in first.problems] == [("syntax", 5, 1, 2)]
    assert "missing terminator" in first.problems[0].message
    assert first.problems[0].text == '[A "Bob"]'
    assert second.tags == {"A": "Bob"} and second.line == 5 and second.problems == ()
    assert ranks(second) == [(13, 12, 1)]


def test_missing_terminator_at_end_of_file():
    game = one('[A "Ann"]\n1. 8 9 9\n2. 5 7 J')
    assert [where(p) for p in game.problems] == [("syntax", 3, 9, 2)]
    assert "the file may be truncated" in game.problems[0].message


def test_missing_terminator_at_end_of_file_with_trailing_comment():
    game = one('[A "Ann"]\n1. 8 9 9\n; the end\n')
    # the problem points just after the last thing read, the comment included
    assert [where(p) for p in game.problems] == [("syntax", 3, 10, 1)]


def test_tags_without_rounds_or_terminator():
    game = one('[Event "E"]\n')
    assert game.tags == {"Event": "E"} and game.rounds == ()
    assert [where(p) for p in game.problems] == [("syntax", 1, 12, None)]


# -- files, games, encodings -----------------------------------------------------------


def test_several_games_and_their_lines_and_offsets():
    text = '; header\n\n[A "Ann"]\n1. 8 9 9 *\n\n{ note }\n1. 5 7 J 2-3\n1. K Q A\n'
    games = parse(text)
    assert [g.line for g in games] == [3, 7, 8]
    assert [ranks(g) for g in games] == [[(8, 9, 9)], [(5, 7, 11)], [(13, 12, 1)]]
    assert [g.result for g in games] == [None, (2, 3), None]
    assert text[games[1].start:games[1].end] == "{ note }\n1. 5 7 J 2-3"
    assert games[2].problems[0].code == "syntax"


def test_game_line_is_its_first_round_when_it_has_no_tags():
    games = parse("{ intro }\n\n\n   1. 8 9 9 *")
    assert games[0].line == 4


def test_iter_games_is_lazy():
    games = iter_games("1. 8 9 9 * 1. 5 7 J *")
    assert isinstance(games, types.GeneratorType)
    assert ranks(next(games)) == [(8, 9, 9)]
    assert ranks(next(games)) == [(5, 7, 11)]
    assert next(games, None) is None


def test_crlf_and_bom_give_the_same_games_and_spans(data_dir):
    lf = (data_dir / "club.gops").read_text("utf-8")
    crlf = decode(b"\xef\xbb\xbf" + lf.replace("\n", "\r\n").encode("utf-8"))
    a, b = parse(lf), parse(crlf)
    assert a == b and len(a) == 5
    for ga, gb in zip(a, b, strict=True):
        assert ga.line == gb.line
        assert ({k: (v.line, v.column) for k, v in ga.tag_spans.items()}
                == {k: (v.line, v.column) for k, v in gb.tag_spans.items()})
        for ra, rb in zip(ga.rounds, gb.rounds, strict=True):
            assert ra.comment == rb.comment
            for ca, cb in zip((ra.prize, *ra.bids), (rb.prize, *rb.bids), strict=True):
                assert (ca.span.line, ca.span.column) == (cb.span.line, cb.span.column)


def test_crlf_comments_and_tags_lose_the_carriage_return():
    game = one('[Event "E"]\r\n1. 8 9 9 ; note\r\n2. 5 7 J {a\r\nb}\r\n*\r\n')
    assert game.tags == {"Event": "E"}
    assert game.rounds[0].comment == "note"
    assert game.rounds[1].comment == "a\nb"  # line ends inside a comment read as \n
    assert game.problems == ()


def test_bom_inside_text_is_whitespace():
    game = one('\ufeff[Event "E"]\n*')
    assert game.tags == {"Event": "E"} and game.problems == ()


def test_club_file(data_dir):
    games = parse((data_dir / "club.gops").read_text("utf-8"))
    assert [g.line for g in games] == [5, 31, 37, 49, 58]
    assert all(g.problems == () for g in games)
    # the same game, tagged and numbered, or typed on a phone without either
    assert ranks(games[0]) == ranks(games[1])
    assert games[1].tags == {} and games[1].rounds[1].comment == "the same game, phone style"
    assert games[0].rounds[9].comment == "another tie,\n   the J waits"
    assert games[2].players == ["Ann", "Ben", "Cy"] and len(games[2].rounds) == 5
    assert games[3].result is None and len(games[3].rounds) == 3
    assert games[4].result == (43, 43)


def test_equality_compares_what_the_record_says():
    a = RoundRecord(CardToken(8, Suit.DIAMONDS), (CardToken(9), CardToken(9)), "x", 1,
                    Span(1, 1, 0, 2))
    b = RoundRecord(CardToken(8), (CardToken(9), CardToken(9)), "x", None, None)
    assert a == b
    assert a != RoundRecord(CardToken(8), (CardToken(9), CardToken(9)), "y")
    assert GameRecord({"A": "x"}, (a,), (1, 2), line=3) == GameRecord({"A": "x"}, (b,), (1, 2))
    assert GameRecord({}, (a,), (1, 2)) != GameRecord({}, (a,), None)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]{}";*.-\n\r\t \\AaTtKk1029♦♠dcSHxZ')),
               max_size=80))
def test_parser_never_raises_and_spans_point_into_the_text(text):
    for game in parse(text):
        for problem in game.problems:
            assert problem.code in ("syntax", "tag-value", "round-number")
            breaks = text.count("\n") + text.replace("\r\n", "").count("\r")
            assert 1 <= problem.line <= breaks + 1
            assert problem.column >= 1
        for rnd in game.rounds:
            for card in (rnd.prize, *rnd.bids):
                token = text[card.span.start:card.span.end]
                rank_text = token[:-1] if card.suit is not None else token
                assert RANK_BY_TEXT[rank_text.lower()] == card.rank
                assert card.suit is None or SUIT_BY_TEXT[token[-1].lower()] is card.suit
