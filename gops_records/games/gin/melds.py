"""Melds of Gin Rummy: runs and sets, under one of three run orders, and layoffs.

A set is 3 or 4 cards of one rank. A run is 3 or more cards of one suit in sequence;
what "in sequence" means is the :class:`RunOrder`:

- ``circular`` (the rules text's default): A 2 .. 10 J Q K A 2 .., so Q K A 2 is a run;
  a run never uses a card twice, so it has at most 13 cards;
- ``ace-high`` (the text's option): 2 lowest, A above K, no wrap (Q K A is a run,
  K A 2 is not);
- ``ace-low``: A lowest, K highest, no wrap (OpenSpiel's rule, for the cross-check).

The ace is 1 point under all three (ambiguity 4). A layoff is one card added to an end
of a run (chained: a card laid off may itself be extended; wrapping when circular) or
the fourth card of a set (ambiguity 5).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from gops_records.games.gin.cards import CARDS, RANKS, Card, GinSuit, cards_text, mask_of


class RunOrder(StrEnum):
    CIRCULAR = "circular"
    ACE_HIGH = "ace-high"
    ACE_LOW = "ace-low"

    @property
    def wraps(self) -> bool:
        return self is RunOrder.CIRCULAR

    def position(self, rank: int) -> int:
        """The rank's place in the order, 0..12 (the ace is 12 under ace-high)."""
        if self is RunOrder.ACE_HIGH:
            return (rank - 2) % RANKS
        return rank - 1

    def rank_at(self, position: int) -> int:
        position %= RANKS
        if self is RunOrder.ACE_HIGH:
            return 1 if position == 12 else position + 2
        return position + 1


class MeldKind(StrEnum):
    RUN = "run"
    SET = "set"


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: its kind and its cards (a run in sequence from its low end, a set by suit)."""

    kind: MeldKind
    cards: tuple[Card, ...]

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    @property
    def wraps(self) -> bool:
        """A circular run that goes through K-A (e.g. Q K A 2)."""
        ranks = [c.rank for c in self.cards]
        return self.kind is MeldKind.RUN and any(
            a == 13 and b == 1 for a, b in zip(ranks, ranks[1:], strict=False))

    @property
    def text(self) -> str:
        return f"({cards_text(self.cards)})"

    def __repr__(self) -> str:
        return self.text


def as_meld(cards: tuple[int, ...] | list[int], order: RunOrder) -> Meld | None:
    """The meld these cards form (in canonical order), or None when they form none."""
    cards = [CARDS[c] for c in cards]
    if len(set(cards)) != len(cards) or len(cards) < 3:
        return None
    if len({c.rank for c in cards}) == 1:
        if len(cards) > 4:
            return None
        return Meld(MeldKind.SET, tuple(sorted(cards)))
    if len({c.suit for c in cards}) != 1:
        return None
    positions = {order.position(c.rank) for c in cards}
    length = len(positions)
    starts = range(RANKS) if order.wraps else range(RANKS - length + 1)
    suit = cards[0].suit
    for start in starts:
        span = {(start + k) % RANKS for k in range(length)}
        if span == positions:
            return Meld(MeldKind.RUN, tuple(
                Card.of(order.rank_at(start + k), suit) for k in range(length)))
    return None


def _longest_block(positions: set[int], order: RunOrder) -> set[int]:
    """The longest run of consecutive positions (wrapping when circular); first on a tie."""
    best: set[int] = set()
    for start in sorted(positions):
        if order.wraps and (start - 1) % RANKS in positions and len(positions) < RANKS:
            continue  # not the start of a block on the circle
        block = {start}
        while (nxt := (start + len(block)) % RANKS if order.wraps else
               start + len(block)) in positions and nxt not in block:
            block.add(nxt)
        if len(block) > len(best):
            best = block
    return best


def breaking_card(cards: tuple[int, ...] | list[int], order: RunOrder) -> Card | None:
    """The written card that keeps ``cards`` from being a meld, to point a problem at it.

    None when they are a meld. A repeated card is its second copy. Otherwise the cards
    are read as the meld most of them agree on: a set of their commonest rank, or a run
    of the longest block of consecutive cards of one suit (the set on a tie); the first
    written card outside it breaks the meld: ``(4♠ 5♠ 7♠)``: 7♠; ``(8♥ 8♣ 2♥)``: 2♥;
    ``(K♦ A♦ 2♦)`` under ace-high: 2♦. Too few cards are broken by the last one."""
    cards = [CARDS[c] for c in cards]
    if not cards or as_meld(cards, order) is not None:
        return None
    for i, card in enumerate(cards):
        if card in cards[:i]:
            return card
    rank, in_set = Counter(c.rank for c in cards).most_common(1)[0]
    run: set[Card] = set()
    for suit in {c.suit for c in cards}:
        of_suit = [c for c in cards if c.suit == suit]
        block = _longest_block({order.position(c.rank) for c in of_suit}, order)
        if len(block) > len(run):
            run = {c for c in of_suit if order.position(c.rank) in block}
    keep = {c for c in cards if c.rank == rank} if in_set >= len(run) else run
    outside = [c for c in cards if c not in keep]
    return outside[0] if outside else cards[-1]


class MeldIndex:
    """Every meld of the pack under one run order, indexed by card, for the searches."""

    def __init__(self, order: RunOrder):
        self.order = order
        melds: dict[int, Meld] = {}
        for suit in GinSuit:
            for start in range(RANKS if order.wraps else RANKS - 2):
                top = RANKS if order.wraps else RANKS - start
                for length in range(3, top + 1):
                    cards = tuple(Card.of(order.rank_at(start + k), suit)
                                  for k in range(length))
                    melds.setdefault(mask_of(cards), Meld(MeldKind.RUN, cards))
        for rank in range(1, RANKS + 1):
            suits = list(GinSuit)
            for left_out in [None, *suits]:
                cards = tuple(Card.of(rank, s) for s in suits if s is not left_out)
                melds[mask_of(cards)] = Meld(MeldKind.SET, cards)
        self.melds = melds
        #: by card: the masks of the melds containing it
        self.with_card: tuple[tuple[int, ...], ...] = tuple(
            tuple(m for m in melds if m >> card & 1) for card in range(52))

    @cached_property
    def count(self) -> int:
        return len(self.melds)


_INDEXES: dict[RunOrder, MeldIndex] = {}


def meld_index(order: RunOrder) -> MeldIndex:
    """The (shared, built once) index of every meld under ``order``."""
    index = _INDEXES.get(order)
    if index is None:
        index = _INDEXES[order] = MeldIndex(order)
    return index


def extend(meld: Meld, card: int, order: RunOrder) -> Meld | None:
    """The meld with ``card`` laid off onto it, or None when the card does not fit."""
    card = CARDS[card]
    if card in meld.cards:
        return None
    if meld.kind is MeldKind.SET:
        if len(meld.cards) == 3 and card.rank == meld.cards[0].rank:
            return Meld(MeldKind.SET, tuple(sorted((*meld.cards, card))))
        return None
    if card.suit != meld.cards[0].suit or len(meld.cards) >= RANKS:
        return None
    low = order.position(meld.cards[0].rank)
    high = order.position(meld.cards[-1].rank)
    position = order.position(card.rank)
    if order.wraps:
        if position == (high + 1) % RANKS:
            return Meld(MeldKind.RUN, (*meld.cards, card))
        if position == (low - 1) % RANKS:
            return Meld(MeldKind.RUN, (card, *meld.cards))
        return None
    if position == high + 1:
        return Meld(MeldKind.RUN, (*meld.cards, card))
    if position == low - 1:
        return Meld(MeldKind.RUN, (card, *meld.cards))
    return None


def lay_off(melds: tuple[Meld, ...], cards: tuple[int, ...], order: RunOrder
            ) -> tuple[Meld, ...] | None:
    """The melds after laying off every one of ``cards`` (in any order, chained), or None.

    A card that fits both a set and a run goes on the run: a set takes no further card,
    a run may take the next one, so the choice never loses a layoff."""
    melds = list(melds)
    left = list(cards)
    while left:
        placed = False
        for card in list(left):
            fits = [(i, m) for i, meld in enumerate(melds)
                    if (m := extend(meld, card, order)) is not None]
            if fits:
                i, m = next(((i, m) for i, m in fits if m.kind is MeldKind.RUN), fits[0])
                melds[i] = m
                left.remove(card)
                placed = True
        if not placed:
            return None
    return tuple(melds)
