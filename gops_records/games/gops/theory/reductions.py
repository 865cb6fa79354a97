"""Transformations that leave a position's value unchanged (docs/theory.md says why).

Each is a member of :class:`Reduction`; the solver applies those it is given, and
tests/games/gops/theory/test_reductions.py holds each one, alone and all together, equal to the
plain solver on every position of small N.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache


class Reduction(StrEnum):
    #: only the relative order of the two hands' cards decides a bid: relabel their union
    #: by rank 1..m, equal cards kept equal
    RELABEL = "relabel"
    #: V(A, B, P, pool, lead) = -V(B, A, P, pool, -lead): keep one of the two; equal hands
    #: with no lead are worth 0
    SYMMETRY = "symmetry"
    #: one card each: the bids are forced, the value is the mean of the outcomes (no LP)
    FORCED_LAST = "forced-last"
    #: a saddle point, dominated rows and columns, a 2 x 2 game: solved without an LP
    MATRIX_SHORTCUTS = "matrix-shortcuts"
    #: win objective: a lead larger than every point still to come decides the game
    DECIDED_LEAD = "decided-lead"


ALL = frozenset(Reduction)
NONE: frozenset[Reduction] = frozenset()


@lru_cache(maxsize=1 << 20)
def relabel(hand_a: tuple[int, ...], hand_b: tuple[int, ...]
            ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both hands with the union of their cards replaced by its ranks 1..m (a card held by
    both players gets one rank), so every comparison a bid makes is kept."""
    rank = {card: i for i, card in enumerate(sorted(set(hand_a) | set(hand_b)), start=1)}
    return tuple(rank[c] for c in hand_a), tuple(rank[c] for c in hand_b)


def canonical_sides(hand_a: tuple[int, ...], hand_b: tuple[int, ...], lead: int
                    ) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """The position or its mirror (B's seat taken by A, the lead negated), whichever sorts
    first, with the sign to apply to the mirror's value: (hand_a, hand_b, lead, sign)."""
    if (hand_b, -lead) < (hand_a, lead):
        return hand_b, hand_a, -lead, -1
    return hand_a, hand_b, lead, 1


def decided(lead: int, still_to_come: int) -> float | None:
    """The win objective's value when the lead exceeds every point still to come (the
    prizes left and the pool), else None."""
    if lead > still_to_come:
        return 1.0
    if lead < -still_to_come:
        return -1.0
    return None
