"""The reader's line-by-line tokeniser gives exactly the tokens of the whole-text one."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gops_records.gin.cards import CARDS, card_or_none, parse_card
from gops_records.gin.notation import _OPEN_AT_END, _tokens, _tokens_across_lines

SAMPLE = (Path(__file__).parents[2] / "data" / "samples" /
          "2026-01-15-thursday-club-gin.gin").read_text("utf-8")[:3000]
PIECES = st.sampled_from(list('[]{}();"\n\r\t ') + ["A", "s:K♦", "p", "(4♠", "6♠)", "knock",
                                                     "12.", "{c}", "; x", '[Tag "v"]', "  "])


@settings(max_examples=300, deadline=None)
@given(start=st.integers(0, 2500), length=st.integers(0, 500),
       edits=st.lists(st.tuples(st.integers(0, 500), PIECES, st.booleans()), max_size=8))
def test_both_tokenisers_agree_on_mutated_records(start, length, edits):
    text = list(SAMPLE[start:start + length])
    for at, piece, insert in edits:
        at = min(at, len(text))
        if insert:
            text[at:at] = list(piece)
        else:
            del text[at:at + len(piece)]
    text = "".join(text)
    assert _tokens(text) == _tokens_across_lines(text)


def test_the_fast_path_is_taken_on_canonical_records():
    assert _OPEN_AT_END.search(SAMPLE) is None
    assert _tokens(SAMPLE) == _tokens_across_lines(SAMPLE)


def test_card_lookup_agrees_with_the_spelled_out_rules():
    for card in CARDS:
        rank = card.text[:-1]
        for text in (card.text, card.text.lower(), card.text.replace("10", "T"),
                     rank + "scdh"[card.suit], rank + "SCDH"[card.suit]):
            assert card_or_none(text) == card == parse_card(text)
    assert card_or_none("\u212a♠") == parse_card("K♠")  # the Kelvin sign lower-cases to k
    for word in ("12.", "A", "knock", "1x", "", "♠", "11♠"):
        assert card_or_none(word) is None
