"""Cards, suits and seats: the fixed vocabulary of Gops.

Ranks are plain ints (ace low: A=1, 2..10, J=11, Q=12, K=13). A card's suit only says
which role it plays: diamonds are prizes, clubs are A's bids, spades B's, hearts C's;
D bids from a second pack, so any suit fits D.
"""

from __future__ import annotations

from enum import StrEnum

MAX_RANK = 13

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Suit(StrEnum):
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS = {Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥"}

#: Every way a suit may be written in a record (letters are case-insensitive).
SUIT_BY_TEXT: dict[str, Suit] = {
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
}

#: Every way a rank may be written (case-insensitive; T is an alias of 10).
RANK_BY_TEXT: dict[str, int] = {
    "a": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "t": 10, "j": 11, "q": 12, "k": 13,
}


class Seat(StrEnum):
    """A player's seat. Seat order is A, B, C, D; scores and bids are listed in it."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"

    @property
    def index(self) -> int:
        return SEATS.index(self.value)

    @property
    def suit(self) -> Suit | None:
        """The suit this seat bids with; None for D, who bids from a second pack."""
        return _SEAT_SUITS[self]

    @classmethod
    def at(cls, index: int) -> Seat:
        return _SEATS[index]


#: The seats as letters, in seat order (scores and bids are listed in it).
SEATS = "".join(seat.value for seat in Seat)

_SEAT_SUITS = {Seat.A: Suit.CLUBS, Seat.B: Suit.SPADES, Seat.C: Suit.HEARTS, Seat.D: None}
_SEATS = (Seat.A, Seat.B, Seat.C, Seat.D)


def rank_name(rank: int) -> str:
    """The rank as written in a record: 1 -> 'A', 10 -> '10', 13 -> 'K'."""
    return RANK_NAMES.get(rank, str(rank))


def card_text(rank: int, suit: Suit | None) -> str:
    """A card as the canonical writer spells it, e.g. ``Q♠`` (rank only when no suit)."""
    return rank_name(rank) + (suit.symbol if suit else "")


def parse_rank(text: str) -> int | None:
    """A rank from its written form ('A', '10', 'T', 'k', '7'), or None if it is not one.

    Numbers 1..13 are accepted too, as spreadsheets write them; the .gops lexer only
    ever passes the spellings the notation allows.
    """
    key = text.strip().lower()
    if key in RANK_BY_TEXT:
        return RANK_BY_TEXT[key]
    if key.isascii() and key.isdigit() and len(key) <= 3 and 1 <= int(key) <= MAX_RANK:
        return int(key)
    return None
