"""The best arrangement of a hand: the melds that leave the least deadwood, exactly.

Deadwood is the points of the cards in no meld. Every arrangement is some sets plus
runs, and a run lies within one suit, so once the sets are chosen the suits are
independent. The search therefore

- enumerates the sets: only ranks held in three or four suits can form one (found with
  bit operations on the four suit patterns; most hands have none or one), each either
  unused, one of its 3-card sets, or (four held) the 4-card set;
- and for what is left takes each suit's least deadwood from a table of all 8,192 13-bit
  suit patterns, built once per run order by a small dynamic programme over the runs of
  :class:`~gops_records.games.gin.melds.MeldIndex` (a pattern's lowest card is deadwood or in one
  of the runs that contain it; sub-patterns are numerically smaller, so one pass fills it).

That is a handful of table look-ups a hand (a few microseconds in Python) where a search
over sub-hands took thousands of steps, and it needs no memo of hands. Whole
arrangements (the melds, for going out and for the legal actions) are kept for the hands
asked again (a replay and a bot ask for the same masks turn after turn), in a bounded
cache.

All functions take and return bit masks of cards (see :func:`cards.mask_of`): card
``suit * 13 + rank - 1``, so bits ``13 s .. 13 s + 12`` are suit ``s``'s pattern.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product

from gops_records.games.gin.cards import POINTS, RANKS, Card, cards_of
from gops_records.games.gin.melds import Meld, MeldIndex, MeldKind, RunOrder, meld_index

_SUIT = (1 << RANKS) - 1
_ARRANGEMENTS_LIMIT = 1 << 18


class _Search:
    """The tables of one run order: per suit pattern the least run-only deadwood and the
    run (as a pattern) that starts a best decomposition; per rank its possible sets."""

    def __init__(self, index: MeldIndex):
        self.melds = index.melds
        runs = [m for m, meld in index.melds.items() if meld.kind is MeldKind.RUN and m <= _SUIT]
        with_low: list[list[int]] = [[] for _ in range(RANKS)]
        for run in runs:
            with_low[(run & -run).bit_length() - 1].append(run)
        size = 1 << RANKS
        points = [0] * size
        deadwood = [0] * size
        first_run = [0] * size
        for pattern in range(1, size):
            low = pattern & -pattern
            bit = low.bit_length() - 1
            points[pattern] = points[pattern ^ low] + POINTS[bit]
            best = deadwood[pattern ^ low] + POINTS[bit]
            choice = 0
            for run in with_low[bit]:
                if run & pattern == run and deadwood[pattern ^ run] < best:
                    best = deadwood[pattern ^ run]
                    choice = run
            deadwood[pattern] = best
            first_run[pattern] = choice
        self.deadwood = deadwood
        self.first_run = first_run
        self.arrangements: dict[int, Arrangement] = {}

    def suit_runs(self, pattern: int) -> list[int]:
        """The runs of a best decomposition of one suit's pattern (as patterns)."""
        runs = []
        while pattern:
            run = self.first_run[pattern]
            if run:
                runs.append(run)
                pattern ^= run
            else:
                pattern ^= pattern & -pattern
        return runs

    def runs_deadwood(self, mask: int) -> int:
        dw = self.deadwood
        return (dw[mask & _SUIT] + dw[mask >> 13 & _SUIT] + dw[mask >> 26 & _SUIT]
                + dw[mask >> 39 & _SUIT])

    def best(self, mask: int) -> tuple[int, int]:
        """(least deadwood, the mask of the set cards of one best arrangement)."""
        p0, p1, p2, p3 = (mask & _SUIT, mask >> 13 & _SUIT, mask >> 26 & _SUIT,
                          mask >> 39 & _SUIT)
        triples = (p0 & p1 & (p2 | p3)) | (p2 & p3 & (p0 | p1))
        if not triples:
            dw = self.deadwood
            return dw[p0] + dw[p1] + dw[p2] + dw[p3], 0
        options = []
        while triples:
            low = triples & -triples
            triples ^= low
            rank = low.bit_length() - 1
            cards = [rank + 13 * s for s in range(4) if mask >> (rank + 13 * s) & 1]
            sets = [0]
            if len(cards) == 4:
                sets.append(sum(1 << c for c in cards))
            sets += [sum(1 << c for c in three) for three in combinations(cards, 3)]
            options.append(sets)
        best = None
        for chosen in product(*options):
            used = sum(chosen)
            value = self.runs_deadwood(mask ^ used)
            if best is None or value < best[0]:
                best = (value, used)
        assert best is not None
        return best

    def arrangement(self, mask: int) -> tuple[Meld, ...]:
        _, sets = self.best(mask)
        melds: list[Meld] = []
        rest = mask ^ sets
        for suit in range(4):
            for run in self.suit_runs(rest >> (13 * suit) & _SUIT):
                melds.append(self.melds[run << (13 * suit)])
        for rank in range(RANKS):
            of_rank = sets & (0x8004002001 << rank)
            if of_rank:
                melds.append(self.melds[of_rank])
        return tuple(melds)


_SEARCHES: dict[RunOrder, _Search] = {}


def _search(order: RunOrder) -> _Search:
    found = _SEARCHES.get(order)
    if found is None:
        found = _SEARCHES[order] = _Search(meld_index(order))
    return found


def min_deadwood(mask: int, order: RunOrder) -> int:
    """The least deadwood of exactly these cards (no discard)."""
    return _search(order).best(mask)[0]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds and deadwood cards of a hand; ``deadwood`` is the deadwood's points."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    deadwood: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deadwood", sum(POINTS[c] for c in self.unmatched))


def best_arrangement(mask: int, order: RunOrder) -> Arrangement:
    """One arrangement of least deadwood of exactly these cards (kept for hands asked
    again): runs by suit then sets by rank."""
    search = _search(order)
    found = search.arrangements.get(mask)
    if found is not None:
        return found
    melds = search.arrangement(mask)
    covered = 0
    for meld in melds:
        covered |= meld.mask
    found = Arrangement(melds, cards_of(mask & ~covered))
    if len(search.arrangements) >= _ARRANGEMENTS_LIMIT:
        search.arrangements.clear()
    search.arrangements[mask] = found
    return found


def best_discard(mask: int, order: RunOrder, *, keep: int | None = None) -> tuple[int, Card]:
    """(least deadwood after one discard, that discard) of an 11-card hand.

    ``keep`` is a card that may not be discarded (the one just taken from the pile).
    Ties go to the highest card, then the lowest card number, so the answer is stable."""
    best: tuple[int, int, Card] | None = None
    search = _search(order)
    for card in cards_of(mask):
        if card == keep:
            continue
        key = (search.best(mask ^ (1 << card))[0], -POINTS[card], card)
        if best is None or key < best:
            best = key
    assert best is not None, "a hand of 11 cards has a card to discard"
    return best[0], best[2]
