"""The parsed form of a .gops record: games, rounds, cards, each with its source span.

Equality compares what the record *says* (tags, prizes, bids, comments, result), not
where or how it was written, so ``parse(write(game)) == game`` holds for every game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from gops_records.core.problems import Problem, Span  # noqa: F401  (records carry them)
from gops_records.core.records import TaggedRecord, TagNames
from gops_records.games.gops.cards import SEATS, Suit

#: Known tags in the canonical order the writer uses; other tags follow in file order.
KNOWN_TAGS = (
    "Event", "Site", "Date", "Round", "Match", "BestOf", "A", "B", "C", "D",
    "TieRule", "Cards", "PrizeOrder", "BidCards", "OpenPrizes", "OpenTakes", "Result",
)
#: The known tags as every notation's records know theirs (case, order: core.records).
TAG_NAMES = TagNames(KNOWN_TAGS)
PLAYER_TAGS = tuple(SEATS)


def canonical_tag(name: str) -> str:
    """Known tag names are case-insensitive and come back in canonical case."""
    return TAG_NAMES.canonical(name)


@dataclass(frozen=True, slots=True)
class CardToken:
    """A card as written: its rank, and the suit if one was written.

    As a bid it is a bid of one card: ``cards`` and ``strength`` read a bid the same
    way whether it is a :class:`CardToken` or a :class:`BidToken`."""

    rank: int
    suit: Suit | None = field(default=None, compare=False)
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def cards(self) -> tuple[CardToken, ...]:
        return (self,)

    @property
    def strength(self) -> int:
        return self.rank


@dataclass(frozen=True, slots=True)
class BidToken:
    """A bid of several cards as written (``9♣+4♣``): its cards, in the written order;
    its strength is the sum of their ranks. ``span`` is the whole bid's."""

    cards: tuple[CardToken, ...]
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def strength(self) -> int:
        return sum(card.rank for card in self.cards)


#: A bid: one card, or several joined by ``+``.
Bid = CardToken | BidToken


def bid_of(cards: tuple[CardToken, ...] | list[CardToken], span: Span | None = None) -> Bid:
    """The bid of ``cards``: the card itself when there is one, else a :class:`BidToken`
    (with ``span``, the whole bid's)."""
    if len(cards) == 1:
        return cards[0]
    return BidToken(tuple(cards), span)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as written: the revealed prize, one bid per player in seat order.

    In a game with open prizes (``[OpenPrizes "k"]``) ``revealed`` holds the prizes its
    top-up revealed (possibly none) and ``prize`` is the prize taken, None for ``-``
    (nobody takes one); in any other game ``revealed`` is None. Where every bidder
    chooses (``[OpenTakes "each"]``) ``takes`` holds each seat's prize taken in seat
    order (None for ``-``) and ``prize`` the single highest bidder's; else it is None."""

    prize: CardToken | None
    bids: tuple[Bid, ...]
    comment: str | None = None
    number: int | None = field(default=None, compare=False)
    span: Span | None = field(default=None, compare=False, repr=False)
    revealed: tuple[CardToken, ...] | None = None
    takes: tuple[CardToken | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class GameRecord(TaggedRecord):
    """One game as written. ``result`` is the terminator's points (None for ``*``);
    ``line`` is the line of its first tag or round, ``start`` and ``end`` the offsets of
    its text."""

    TAG_NAMES: ClassVar[TagNames] = TAG_NAMES

    tags: dict[str, str]
    rounds: tuple[RoundRecord, ...]
    result: tuple[int, ...] | None = None
    line: int = field(default=0, compare=False)
    start: int = field(default=0, compare=False, repr=False)
    end: int = field(default=0, compare=False, repr=False)
    problems: tuple[Problem, ...] = field(default=(), compare=False, repr=False)
    tag_spans: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)
    result_span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def player_seats(self) -> tuple[str, ...]:
        """Seats named by player tags, or A and B when none are written."""
        seats = tuple(s for s in PLAYER_TAGS if s in self.tags)
        return seats or ("A", "B")

    @property
    def n_players(self) -> int:
        """Players implied by the player tags: the highest seat named (default 2)."""
        seats = self.player_seats
        return max(2, PLAYER_TAGS.index(seats[-1]) + 1)

    @property
    def players(self) -> list[str]:
        """Player names in seat order; an unnamed seat is called by its letter."""
        return [self.tags.get(s, s) for s in PLAYER_TAGS[: self.n_players]]
