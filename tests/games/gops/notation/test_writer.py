"""The canonical writer, and the round trip parse(write(game)) == game."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.games.gops.cards import Suit
from gops_records.games.gops.notation import (
    KNOWN_TAGS,
    BidToken,
    CardToken,
    GameRecord,
    RoundRecord,
    format_result,
    write_game,
    write_games,
)
from gops_records.games.gops.notation.tokens import WHITESPACE
from gops_records.games.gops.notation.writer import escape
from gops_records.games.gops.reading import parse

MESSY = """\
; typed in a hurry
[result "44-24"]  [TIERULE "carry"] [Scorer "Kees"] [b "Bruno"]
[a "Alice"] [Date "2026.11.26"] [Event "Thursday \\"club\\""] [Clock "slow"]
8d 9c 9s {tie: the 8
stays} 5 7 j ; Bruno takes 13
3.   k♦ K♣   qs
44-24
"""

CANONICAL = """\
[Event "Thursday \\"club\\""]
[Date "2026.11.26"]
[A "Alice"]
[B "Bruno"]
[TieRule "carry"]
[Result "44-24"]
[Scorer "Kees"]
[Clock "slow"]

1. 8♦ 9♣ 9♠ {tie: the 8
stays}
2. 5♦ 7♣ J♠ {Bruno takes 13}
3. K♦ K♣ Q♠
44-24
"""


def test_canonical_form_of_a_messy_record():
    (game,) = parse(MESSY)
    assert write_game(game) == CANONICAL
    assert parse(CANONICAL) == [game]
    assert write_game(parse(CANONICAL)[0]) == CANONICAL


def test_game_without_tags_or_rounds():
    assert write_game(GameRecord({}, (), None)) == "*\n"
    assert write_game(GameRecord({}, (), (0, 0))) == "0-0\n"


def test_every_seat_gets_its_suit_and_d_keeps_what_was_written():
    (game,) = parse('[D "Dee"]\n1. 2 3h 4 5 6c 2. T 8 9 10 j *')
    assert write_game(game) == ('[D "Dee"]\n\n'
                                "1. 2♦ 3♣ 4♠ 5♥ 6♣\n"
                                "2. 10♦ 8♣ 9♠ 10♥ J\n"
                                "*\n")


def test_wrong_suits_are_written_as_the_role_demands():
    (game,) = parse("1. 8s 9h 9d *")
    assert write_game(game) == "1. 8♦ 9♣ 9♠\n*\n"


def test_short_rounds_are_written_as_they_are():
    (game,) = parse("1. 8 9 2. 5 7 J 3. K *")
    text = write_game(game)
    assert text == "1. 8♦ 9♣\n2. 5♦ 7♣ J♠\n3. K♦\n*\n"
    assert parse(text) == [game]


def test_escape():
    assert escape('a "b" \\c') == 'a \\"b\\" \\\\c'
    assert escape("two\nlines\r\n") == "two lines  "


@pytest.mark.parametrize(("result", "text"), [(None, "*"), ((44, 24), "44-24"),
                                              ((9, 0, 82), "9-0-82")])
def test_format_result(result, text):
    assert format_result(result) == text


def test_comment_with_a_closing_brace_is_written_after_a_semicolon():
    (game,) = parse("1. 8 9 9 ; see {note} here\n*")
    assert game.rounds[0].comment == "see {note} here"
    text = write_game(game)
    assert text == "1. 8♦ 9♣ 9♠ ; see {note} here\n*\n"
    assert parse(text) == [game]


def test_comment_with_a_brace_and_a_line_break_loses_only_the_brace():
    game = GameRecord({}, (RoundRecord(CardToken(8), (CardToken(9), CardToken(9)), "a}\nb{"),))
    assert write_game(game) == "1. 8♦ 9♣ 9♠ {a)\nb(}\n*\n"


def test_comment_with_a_blank_line_loses_only_the_blank_line():
    game = GameRecord({}, (RoundRecord(CardToken(8), (CardToken(9), CardToken(9)), "a\n \nb"),))
    assert write_game(game) == "1. 8♦ 9♣ 9♠ {a\nb}\n*\n"
    assert parse(write_game(game))[0].rounds[0].comment == "a\nb"


def test_write_games_separates_games_by_a_blank_line(data_dir):
    games = parse((data_dir / "club.gops").read_text("utf-8"))
    text = write_games(games)
    assert text.count("\n\n[") == 3  # games 1, 3, 4, 5 have tags; game 2 follows a blank line
    assert "45-46\n\n1. 8♦ 9♣ 9♠\n" in text
    assert parse(text) == games
    assert write_games(parse(text)) == text


@pytest.mark.parametrize("name", ["club.gops", "broken.gops", "truncated.gops", "bom.gops"])
def test_data_files_round_trip(data_dir, name):
    games = parse((data_dir / name).read_text("utf-8-sig"))
    text = write_games(games)
    assert parse(text) == games
    assert write_games(parse(text)) == text


# -- property: parse(write(g)) == g ----------------------------------------------------

_KNOWN_LOWER = {t.lower() for t in KNOWN_TAGS}
_BLANK = re.compile("\n(?:[" + re.escape(WHITESPACE.replace("\n", "")) + "]*\n)+")

cards = st.builds(CardToken, st.integers(1, 13), st.none() | st.sampled_from(Suit))
tag_values = st.text(st.characters(blacklist_characters="\r\n",
                                   blacklist_categories=("Cs",)), max_size=12)
unknown_names = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from("AaXxZz"),
    st.text("abcxyzXYZ019_", max_size=6),
).filter(lambda name: name.lower() not in _KNOWN_LOWER)
comment_text = (
    st.text(st.characters(blacklist_characters="\r", blacklist_categories=("Cs",)),
            min_size=1, max_size=20)
    .map(lambda t: (_BLANK.sub("\n", t.replace("}", "").replace("{", "")) if "\n" in t
                    else t).strip())
    .filter(bool)
)


bids = cards | st.builds(BidToken, st.lists(cards, min_size=2, max_size=3).map(tuple))


@st.composite
def game_records(draw):
    known = draw(st.dictionaries(st.sampled_from(KNOWN_TAGS), tag_values, max_size=6))
    other = draw(st.dictionaries(unknown_names, tag_values, max_size=3))
    tags = {**known, **other}
    players = GameRecord(tags, ()).n_players
    # a game with an OpenPrizes tag (readable or not) writes open-prize rounds
    opened = "OpenPrizes" in tags
    revealed = st.lists(cards, max_size=4).map(tuple) if opened else st.none()
    rounds = draw(st.lists(st.builds(
        RoundRecord,
        st.none() | cards if opened else cards,
        st.lists(bids, min_size=0, max_size=players).map(tuple),
        st.none() | comment_text,
        revealed=revealed,
    ), max_size=14))
    result = draw(st.none() | st.lists(st.integers(0, 200), min_size=2, max_size=4).map(tuple))
    return GameRecord(tags, tuple(rounds), result)


@settings(max_examples=120, deadline=None)
@given(game_records())
def test_parse_write_round_trip(game):
    text = write_game(game)
    parsed = parse(text)
    assert parsed == [game]
    assert parsed[0].problems == ()
    assert write_game(parsed[0]) == text


@settings(max_examples=20, deadline=None)
@given(st.lists(game_records(), max_size=4))
def test_several_games_round_trip(games):
    text = write_games(games)
    assert parse(text) == games
    assert write_games(parse(text)) == text
