"""The best arrangement of a hand: the melds that leave the least deadwood, exactly.

Deadwood is the points of the cards in no meld. The search takes the hand's lowest card:
either it is deadwood, or it is in one of the melds of the pack that contain it and lie
inside the hand (:class:`~gops_records.gin.melds.MeldIndex`); then it recurses on what is
left. Every card is deadwood or in exactly one meld, so this visits every arrangement
that matters, and the value of a mask is memoised per run order (hands share their
sub-masks, and a replay asks the same masks again turn after turn).

All functions take and return bit masks of cards (see :func:`cards.mask_of`), which keeps
the memo keys cheap ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from gops_records.gin.cards import POINTS, Card, cards_of
from gops_records.gin.melds import Meld, MeldIndex, RunOrder, meld_index

_MEMO_LIMIT = 1 << 21


class _Search:
    def __init__(self, index: MeldIndex):
        self.with_card = index.with_card
        self.melds = index.melds
        self.memo: dict[int, int] = {0: 0}

    def value(self, mask: int) -> int:
        memo = self.memo
        found = memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        card = low.bit_length() - 1
        rest = mask ^ low
        best = POINTS[card] + self.value(rest)
        for meld in self.with_card[card]:
            if meld & mask == meld and best:
                value = self.value(mask ^ meld)
                if value < best:
                    best = value
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
            memo[0] = 0
        memo[mask] = best
        return best

    def arrangement(self, mask: int) -> tuple[Meld, ...]:
        melds: list[Meld] = []
        while mask:
            target = self.value(mask)
            low = mask & -mask
            card = low.bit_length() - 1
            if POINTS[card] + self.value(mask ^ low) == target:
                mask ^= low
                continue
            for meld in self.with_card[card]:
                if meld & mask == meld and self.value(mask ^ meld) == target:
                    melds.append(self.melds[meld])
                    mask ^= meld
                    break
        return tuple(melds)


_SEARCHES: dict[RunOrder, _Search] = {}


def _search(order: RunOrder) -> _Search:
    found = _SEARCHES.get(order)
    if found is None:
        found = _SEARCHES[order] = _Search(meld_index(order))
    return found


def min_deadwood(mask: int, order: RunOrder) -> int:
    """The least deadwood of exactly these cards (no discard)."""
    return _search(order).value(mask)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds and deadwood cards of a hand; ``deadwood`` is the deadwood's points."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.points for c in self.unmatched)


def best_arrangement(mask: int, order: RunOrder) -> Arrangement:
    """One arrangement of least deadwood of exactly these cards."""
    melds = _search(order).arrangement(mask)
    covered = 0
    for meld in melds:
        covered |= meld.mask
    return Arrangement(melds, cards_of(mask & ~covered))


def best_discard(mask: int, order: RunOrder, *, keep: int | None = None) -> tuple[int, Card]:
    """(least deadwood after one discard, that discard) of an 11-card hand.

    ``keep`` is a card that may not be discarded (the one just taken from the pile).
    Ties go to the highest card, then the lowest card number, so the answer is stable."""
    best: tuple[int, int, Card] | None = None
    for card in cards_of(mask):
        if card == keep:
            continue
        key = (min_deadwood(mask ^ (1 << card), order), -card.points, card)
        if best is None or key < best:
            best = key
    assert best is not None, "a hand of 11 cards has a card to discard"
    return best[0], best[2]
