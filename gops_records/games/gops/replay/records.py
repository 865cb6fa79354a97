"""Tokens made of records that were not read from ``.gops`` text (round logs, records
built in Python), so they are checked and played by the same replay.

Each record becomes what its text would be: its tags, then each round as a round
number (its written one, or its place) followed by its cards (a bid of several cards as
one token; an open-prize round's revealed prizes between ``(`` and ``)``, the bids, and
the prize taken or ``-``, or with ``[OpenTakes "each"]`` each seat's take), then its
terminator.
Each token keeps the record's own line and column. A card the source could not read
(rank 0) keeps its place without a message: the source reported it already. A record
whose source had a syntax problem gets a silent mark, so its written result is not
compared with points that may be missing a card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from gops_records.core.problems import Span
from gops_records.games.gops.cards import card_text
from gops_records.games.gops.notation.model import Bid, CardToken, GameRecord
from gops_records.games.gops.notation.tokens import (
    MAX_BID_CARDS,
    SUIT_CODES,
    Group,
    Kind,
    Shape,
    Tokens,
    Word,
)

_SILENT_CARD = Word(Kind.WORD, (), Shape.CARD)
_SILENT_MARK = Word(Kind.WORD)
_OPEN = Word(Kind.WORD, group=Group.OPENS)
_CLOSE = Word(Kind.WORD, group=Group.CLOSES)
_DASH = Word(Kind.WORD, group=Group.DASH)


class _Builder:
    def __init__(self) -> None:
        self.kind: list[int] = []
        self.word: list[int] = []
        self.line: list[int] = []
        self.column: list[int] = []
        self.tags: list[tuple[int, str, str]] = []
        self.comments: list[tuple[int, str]] = []
        self.words: list[Word] = []
        self.texts: list[str] = []
        self._ids: dict[Word, int] = {}

    def add(self, kind: Kind, span: Span | None, word: Word | None = None,
            fallback: tuple[int, int] = (1, 1), text: str = "") -> int:
        index = len(self.kind)
        self.kind.append(kind)
        self.line.append(span.line if span else fallback[0])
        self.column.append(span.column if span else fallback[1])
        if word is None:
            self.word.append(-1)
        else:
            if word not in self._ids:
                self._ids[word] = len(self.words)
                self.words.append(word)
                self.texts.append(text)  # what a problem quotes (as the card's text)
            self.word.append(self._ids[word])
        return index

    def card(self, card: CardToken | None, fallback: tuple[int, int]) -> None:
        """One card; a card the source could not read (rank 0) keeps its place silently."""
        if card is not None and 1 <= card.rank <= 13:
            self.add(Kind.CARD, card.span, Word(Kind.CARD, (card.rank, SUIT_CODES[card.suit]),
                                                n_cards=1), fallback,
                     card_text(card.rank, card.suit))
        else:
            self.add(Kind.WORD, card.span if card else None, _SILENT_CARD, fallback)

    def bid(self, bid: Bid, fallback: tuple[int, int]) -> None:
        """A bid: one card, or several as one token (their cards at the bid's span)."""
        if len(bid.cards) == 1:
            self.card(bid.cards[0], fallback)
            return
        cards = bid.cards
        if not all(1 <= c.rank <= 13 for c in cards):
            self.add(Kind.WORD, bid.span, _SILENT_CARD, fallback)
            return
        listed = tuple((c.rank, SUIT_CODES[c.suit], 0) for c in cards[:MAX_BID_CARDS])
        self.add(Kind.CARD, bid.span or cards[0].span,
                 Word(Kind.CARD, listed[0][:2], cards=listed, n_cards=len(cards)), fallback,
                 "+".join(card_text(c.rank, c.suit) for c in cards))


def record_tokens(records: Sequence[GameRecord]) -> Tokens:
    """The tokens of ``records``, one game after another."""
    b = _Builder()
    for record in records:
        here = (record.line or 1, 1)
        for name, value in record.tags.items():
            token = b.add(Kind.TAG, record.tag_spans.get(name), fallback=here)
            b.tags.append((token, name, value))
        if any(p.code == "syntax" for p in record.problems):
            b.add(Kind.WORD, None, _SILENT_MARK, here)
        for number, rnd in enumerate(record.rounds, start=1):
            span = rnd.span or (rnd.prize.span if rnd.prize else None)
            fallback = (span.line, span.column) if span else here
            b.add(Kind.NUMBER, span, Word(Kind.NUMBER, (rnd.number or number,)), fallback)
            if rnd.revealed is None:
                b.card(rnd.prize, fallback)
            else:
                b.add(Kind.WORD, span, _OPEN, fallback)
                for card in rnd.revealed:
                    b.card(card, fallback)
                b.add(Kind.WORD, span, _CLOSE, fallback)
            for bid in rnd.bids:
                b.bid(bid, fallback)
            if rnd.revealed is not None and rnd.takes is not None:  # every bidder takes
                for take in rnd.takes:
                    if take is None:
                        b.add(Kind.WORD, span, _DASH, fallback)
                    else:
                        b.card(take, fallback)
            elif rnd.revealed is not None:
                if rnd.prize is None:
                    b.add(Kind.WORD, span, _DASH, fallback)
                else:
                    b.card(rnd.prize, fallback)
            if rnd.comment:
                b.comments.append((b.add(Kind.COMMENT, span, fallback=fallback), rnd.comment))
        end = record.result_span
        if record.result is None:
            b.add(Kind.STAR, end, Word(Kind.STAR), here)
        else:
            b.add(Kind.RESULT, end, Word(Kind.RESULT, tuple(record.result)), here)
    n = len(b.kind)
    offsets = np.arange(n, dtype=np.int64) * 2
    tag_index = np.array([tok for tok, _, _ in b.tags], np.int64)
    comment_index = np.array([tok for tok, _ in b.comments], np.int64)
    return Tokens(
        data=b"", kind=np.array(b.kind, np.int8), start=offsets, end=offsets + 1,
        word=np.array(b.word, np.int32), words=b.words, word_texts=b.texts,
        tag_index=tag_index, tag_name=pl.Series([n for _, n, _ in b.tags], dtype=pl.String),
        tag_value=pl.Series([v for _, _, v in b.tags], dtype=pl.String),
        comment_index=comment_index,
        comment=pl.Series([c for _, c in b.comments], dtype=pl.String),
        spans=np.array([b.line, b.column], np.int64).T.reshape(n, 2),
    )
