"""The tokenizer: every layout gives the same tokens; words are read once, typos get a fix."""

from __future__ import annotations

import pytest

from gops_records.games.gops.notation.tokens import Kind, Shape, read_word, tokenize


def kinds(text: str) -> list[tuple[str, str]]:
    t = tokenize(text.encode())
    return [(Kind(t.kind[i]).name, t.text(i)) for i in range(len(t))]


def test_layouts_give_the_same_tokens():
    one = kinds('[A "x"] [B "y"] 1. 8♦ 9♣ 9♠ 2. 5♦ 7♣ J♠ *')
    spread = kinds('[A "x"]\n[B "y"]\n\n1.\n8♦\n  9♣ 9♠\r\n2. 5♦\r7♣ J♠\n*\n')
    assert one == spread
    assert [k for k, _ in one] == ["TAG", "TAG", "NUMBER", "CARD", "CARD", "CARD",
                                   "NUMBER", "CARD", "CARD", "CARD", "STAR"]


def test_tag_values_may_hold_brackets_and_escapes():
    t = tokenize(b'[Event "a]b \\"c\\""]')
    assert t.tag_name.to_list() == ["Event"] and t.tag_value.to_list() == ['a]b "c"']


def test_comments_touch_tokens_and_span_lines_but_not_blank_lines():
    assert kinds("9♠{tie}J♠;x {y\n}") == [("CARD", "9♠"), ("COMMENT", "{tie}"),
                                          ("CARD", "J♠"), ("COMMENT", ";x {y")] + \
        [("WORD", "}")]
    assert kinds("{a\n b}")[0] == ("COMMENT", "{a\n b}")
    assert [k for k, _ in kinds("{a\n\nb} 8")] == ["UNCLOSED", "WORD", "CARD"]


def test_lines_and_columns_count_characters_and_every_line_end():
    t = tokenize("♦♦ x\r\ny\rz\nw".encode())
    places = [t.line_col(int(t.start[i])) for i in range(len(t))]
    assert places == [(1, 1), (1, 4), (2, 1), (3, 1), (4, 1)]


def test_a_bom_inside_the_text_is_whitespace():
    assert kinds("8♦\ufeff9♣") == [("CARD", "8♦"), ("CARD", "9♣")]


@pytest.mark.parametrize(("word", "shape", "fix"), [
    ("11♣", Shape.CARD, "J♣"), ("1O♠", Shape.CARD, "10♠"), ("1", Shape.CARD, "A"),
    ("13", Shape.CARD, "K"), ("8♦,", Shape.CARD, "8♦"), ("7x", Shape.CARD, None),
    ("3)", Shape.NUMBER, "3."), ("(tie)", Shape.NONE, None), ("tie", Shape.NONE, None),
])
def test_typos_keep_their_place_and_get_a_likely_fix(word, shape, fix):
    w = read_word(word)
    assert (w.kind, w.shape, w.suggestion) == (Kind.WORD, shape, fix)


def test_numbers_of_any_length_are_capped_not_converted():
    huge = "9" * 100_000
    assert read_word(huge + ".").values == (1_000_000,)
    assert read_word(huge + "-2").values == (1_000_000, 2)
    assert read_word(huge).kind == Kind.WORD  # a bare number is no card


def test_cost_is_per_distinct_word():
    t = tokenize(b"8d 9c 9s " * 10_000)
    assert len(t) == 30_000 and len(t.words) == 3
