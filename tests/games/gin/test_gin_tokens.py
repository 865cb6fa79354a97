"""The reader's tokeniser against a reference written the plain way (whitespace matched as
a token, lines counted in every match it spans)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from gops_records.core.problems import Span
from gops_records.games.gin.cards import CARDS, card_or_none, parse_card
from gops_records.games.gin.tokens import Token, tokenize

_REFERENCE = re.compile(r"""
    (?P<tag>\[\s*(?P<name>[A-Za-z][\w-]*)\s+"(?P<value>[^"\n]*)"\s*\])
  | (?P<comment>\{(?P<body>[^}]*)\}|;(?P<line>[^\n]*))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<word>[^\s(){}\[\];"]+)
  | (?P<space>\s+)
  | (?P<bad>.)
""", re.X)


def reference_tokens(text: str) -> list[Token]:
    out: list[Token] = []
    line, line_start = 1, 0
    for m in _REFERENCE.finditer(text):
        kind = m.lastgroup if m.lastgroup in ("space", "bad", "open", "close", "word") else \
            ("tag" if m.group("tag") else "comment")
        start = m.start()
        if kind != "space":
            span = Span(line, start - line_start + 1, start, m.end())
            if kind == "tag":
                out.append(Token(kind, m.group(), span, m.group("name"), m.group("value")))
            elif kind == "comment":
                body = m.group("body") if m.group("body") is not None else m.group("line")
                out.append(Token(kind, m.group(), span, value=body.strip()))
            else:
                out.append(Token(kind, m.group(), span))
        newlines = m.group().count("\n")
        if newlines:
            line += newlines
            line_start = start + m.group().rindex("\n") + 1
    return out

SAMPLE = (ROOT / "gops_records" / "samples" /
          "2026-01-15-thursday-club-gin.gin").read_text("utf-8")[:3000]
PIECES = st.sampled_from(list('[]{}();"\n\r\t ') + ["A", "s:K♦", "p", "(4♠", "6♠)", "knock",
                                                     "12.", "{c}", "; x", '[Tag "v"]', "  "])


@settings(max_examples=300, deadline=None)
@given(start=st.integers(0, 2500), length=st.integers(0, 500),
       edits=st.lists(st.tuples(st.integers(0, 500), PIECES, st.booleans()), max_size=8))
def test_the_tokeniser_equals_the_reference_on_mutated_records(start, length, edits):
    text = list(SAMPLE[start:start + length])
    for at, piece, insert in edits:
        at = min(at, len(text))
        if insert:
            text[at:at] = list(piece)
        else:
            del text[at:at + len(piece)]
    text = "".join(text)
    assert tokenize(text) == reference_tokens(text)


def test_the_tokeniser_equals_the_reference_on_a_sample_and_across_lines():
    assert tokenize(SAMPLE) == reference_tokens(SAMPLE)
    spanning = '[A "x"]\n1. A pass {a comment\nover two lines} 2. B pass\r\n\n; end\n0-0'
    tokens = tokenize(spanning)
    assert tokens == reference_tokens(spanning)
    assert [(t.kind, t.span.line, t.span.column) for t in tokens][-3:] == [
        ("word", 3, 22), ("comment", 5, 1), ("word", 6, 1)]


def test_card_lookup_agrees_with_the_spelled_out_rules():
    for card in CARDS:
        rank = card.text[:-1]
        for text in (card.text, card.text.lower(), card.text.replace("10", "T"),
                     rank + "scdh"[card.suit], rank + "SCDH"[card.suit]):
            assert card_or_none(text) == card == parse_card(text)
    assert card_or_none("\u212a♠") == parse_card("K♠")  # the Kelvin sign lower-cases to k
    for word in ("12.", "A", "knock", "1x", "", "♠", "11♠"):
        assert card_or_none(word) is None
