"""Cards of Gin Rummy: a full 52-card pack, its point values and its written form.

A card is a small int, ``suit * 13 + rank - 1`` with the suits in the order spades,
clubs, diamonds, hearts and the ace as rank 1 (A♠ = 0, K♥ = 51). It is OpenSpiel's
gin_rummy encoding, so the cross-check needs no translation, and an int keeps the
arrangement search (which works on bit masks of cards) cheap. :class:`Card` is an int
subclass that knows its rank, suit, points and text.

Points: A = 1, 2..10 face value, J Q K = 10 (the ace stays 1 point under every run
order, ambiguity 4 of the issue).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from gops_records.games.gin.errors import GinSyntaxError

RANKS = 13


class GinSuit(IntEnum):
    """The four suits in encoding order (OpenSpiel's: s c d h)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self]


_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_BY_TEXT = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13,
                 **{str(n): n for n in range(2, 11)}}
_SUIT_BY_TEXT = {
    "s": GinSuit.SPADES, "♠": GinSuit.SPADES, "♤": GinSuit.SPADES,
    "c": GinSuit.CLUBS, "♣": GinSuit.CLUBS, "♧": GinSuit.CLUBS,
    "d": GinSuit.DIAMONDS, "♦": GinSuit.DIAMONDS, "♢": GinSuit.DIAMONDS,
    "h": GinSuit.HEARTS, "♥": GinSuit.HEARTS, "♡": GinSuit.HEARTS,
}


class Card(int):
    """One card of the pack, 0..51 (see the module docstring for the encoding)."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise ValueError(f"a card is 0..51, not {value}")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: GinSuit) -> Card:
        return CARDS[int(suit) * RANKS + rank - 1]

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king)."""
        return int(self) % RANKS + 1

    @property
    def suit(self) -> GinSuit:
        return GinSuit(int(self) // RANKS)

    @property
    def points(self) -> int:
        return POINTS[self]

    @property
    def text(self) -> str:
        return _TEXTS[self]

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, n) for n in range(52))
#: Each card's text (``10♥``), by its int value: a card is written often (records, tables).
_TEXTS: tuple[str, ...] = tuple(
    f"{_RANK_TEXT.get(n % RANKS + 1, str(n % RANKS + 1))}{'♠♣♦♥'[n // RANKS]}" for n in range(52))
#: Points of each card by its int value (A 1, 2..10, J Q K 10).
POINTS: tuple[int, ...] = tuple(min(n % RANKS + 1, 10) for n in range(52))


def _spellings() -> dict[str, Card]:
    """Every way of writing every card (rank and suit letters in either case)."""
    out: dict[str, Card] = {}
    for rank_text, rank in _RANK_BY_TEXT.items():
        for suit_text, suit in _SUIT_BY_TEXT.items():
            card = Card.of(rank, suit)
            for r in {rank_text, rank_text.upper()}:
                for s in {suit_text, suit_text.upper()}:
                    out[r + s] = card
    return out


#: Card text -> card, for the reader's fast path (a file names hundreds of thousands).
_BY_TEXT: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """``10♥``, ``T♥``, ``th``, ``Q♣``, ``qc`` -> the card; GinSyntaxError otherwise."""
    found = card_or_none(text)
    if found is None:
        raise GinSyntaxError(f"{text!r} is not a card (write a rank A 2..10 J Q K and a "
                             "suit, e.g. 10♥ or Qc)")
    return found


def card_or_none(text: str) -> Card | None:
    """The card ``text`` names, or None when it names none (no exception: the reader asks
    this of every word). Rank and suit letters may be in either case."""
    found = _BY_TEXT.get(text)
    if found is not None or len(text) < 2:
        return found
    rank = _RANK_BY_TEXT.get(text[:-1].lower())
    suit = _SUIT_BY_TEXT.get(text[-1].lower())
    return Card.of(rank, suit) if rank is not None and suit is not None else None


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces, e.g. a ``DealA`` tag value."""
    return tuple(parse_card(word) for word in text.split())


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(CARDS[c].text for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """The cards as a 52-bit mask (bit n set for card n)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def points_of(mask: int) -> int:
    return sum(POINTS[c] for c in cards_of(mask))


_BY_TEXT.update(_spellings())
