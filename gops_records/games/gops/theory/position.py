"""A position of two-player classic Gops before a prize is revealed, and its checks.

A :class:`Position` is A's hand, B's hand, the prize cards left (a set: with a shuffled
pile their order is unknown), the pool carried from tied rounds (carry rule) and A's lead
so far (counted by the ``win`` objective only). Cards are ranks 1..N. :func:`position`
builds one from what a user typed and refuses an impossible one with a
:class:`ImpossiblePosition` that says what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from gops_records.core.errors import GopsError
from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.rules import TieRule

__all__ = ["ImpossiblePosition", "Objective", "Position", "PrizeOrder", "Setting", "TieRule",
           "position", "start"]


class ImpossiblePosition(GopsError, ValueError):
    """A position no game of the setting can reach (or a setting that cannot be solved)."""

    code = "impossible-position"


class Objective(StrEnum):
    """What a value measures, from A's side."""

    #: expected point difference A - B over the rounds still to play
    POINTS = "points"
    #: P(A ahead at the end) - P(B ahead at the end), the lead so far included
    WIN = "win"


class PrizeOrder(StrEnum):
    """What the players know of the order of the prizes left.

    ``random``: a shuffled pile, every prize left equally likely next. ``ascending`` and
    ``descending``: a fixed order, the lowest (highest) prize left is next. ``given``: a
    fixed order the players both know (:attr:`Setting.sequence`).
    """

    RANDOM = "random"
    ASCENDING = "ascending"
    DESCENDING = "descending"
    GIVEN = "given"


@dataclass(frozen=True)
class Setting:
    """The game being solved: deck size N, tie rule, objective, prize order."""

    cards: int
    tie_rule: TieRule
    objective: Objective
    order: PrizeOrder = PrizeOrder.RANDOM
    #: the full prize order, for ``PrizeOrder.GIVEN`` (a permutation of 1..N)
    sequence: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.cards <= MAX_RANK:
            raise ImpossiblePosition(f"--cards {self.cards}: a game has 1 to {MAX_RANK} cards")
        given = self.order is PrizeOrder.GIVEN
        if given and sorted(self.sequence) != list(range(1, self.cards + 1)):
            raise ImpossiblePosition(f"a given prize order must hold each prize 1..{self.cards} "
                                     f"once, not {list(self.sequence)}")
        if not given and self.sequence:
            raise ImpossiblePosition(f"a prize sequence is only for the given order, not "
                                     f"{self.order.value}")

    def next_prizes(self, prizes: frozenset[int]) -> tuple[int, ...]:
        """The prizes that can be revealed next, each equally likely."""
        if not prizes:
            return ()
        if self.order is PrizeOrder.RANDOM:
            return tuple(sorted(prizes))
        if self.order is PrizeOrder.ASCENDING:
            return (min(prizes),)
        if self.order is PrizeOrder.DESCENDING:
            return (max(prizes),)
        return (next(p for p in self.sequence if p in prizes),)

    def order_left(self, rounds_left: int) -> tuple[int, ...] | None:
        """The prizes left after a fixed order has dealt N - rounds_left of them (None when
        the order is random)."""
        full = {PrizeOrder.ASCENDING: tuple(range(1, self.cards + 1)),
                PrizeOrder.DESCENDING: tuple(range(self.cards, 0, -1)),
                PrizeOrder.GIVEN: self.sequence}.get(self.order)
        return None if full is None else full[self.cards - rounds_left:]


@dataclass(frozen=True)
class Position:
    """A's hand, B's hand, the prizes left, the pool carried, A's lead so far."""

    hand_a: frozenset[int]
    hand_b: frozenset[int]
    prizes: frozenset[int]
    pool: int = 0
    lead: int = 0

    @property
    def rounds_left(self) -> int:
        return len(self.hand_a)

    def describe(self) -> str:
        def cards(group: frozenset[int]) -> str:
            return ",".join(map(str, sorted(group))) or "-"
        return (f"A {cards(self.hand_a)} | B {cards(self.hand_b)} | prizes {cards(self.prizes)}"
                f" | pool {self.pool} | lead {self.lead}")


def start(setting: Setting) -> Position:
    """The start of an N-card game: every card in both hands, every prize left."""
    every = frozenset(range(1, setting.cards + 1))
    return Position(every, every, every)


def position(setting: Setting, hand_a: Sequence[int], hand_b: Sequence[int],
             prizes: Sequence[int], pool: int = 0, lead: int = 0) -> Position:
    """The position of these cards, checked: raises :class:`ImpossiblePosition` for one no
    game of ``setting`` can reach, saying why."""
    n = setting.cards
    for name, group in (("A's hand", hand_a), ("B's hand", hand_b), ("the prizes", prizes)):
        outside = sorted(c for c in group if not 1 <= c <= n)
        if outside:
            raise ImpossiblePosition(f"{name} holds {outside}: with {n} cards every card is "
                                     f"1..{n}")
        twice = sorted({c for c in group if list(group).count(c) > 1})
        if twice:
            raise ImpossiblePosition(f"{name} holds {twice} twice: each card exists once")
    if len(hand_a) != len(hand_b):
        raise ImpossiblePosition(f"A holds {len(hand_a)} cards and B {len(hand_b)}: both bid "
                                 "one card a round, so both hands have the same size")
    if len(prizes) != len(hand_a):
        raise ImpossiblePosition(f"{len(prizes)} prizes left for {len(hand_a)} cards in each "
                                 "hand: one prize is revealed a round")
    if not hand_a:
        raise ImpossiblePosition("no cards left: the game is over, there is nothing to solve")
    fixed = setting.order_left(len(prizes))
    if fixed is not None and set(fixed) != set(prizes):
        raise ImpossiblePosition(f"under the {setting.order.value} order the prizes left "
                                 f"after {n - len(prizes)} rounds are {sorted(fixed)}, not "
                                 f"{sorted(prizes)}")
    revealed = sorted(set(range(1, n + 1)) - set(prizes))
    _check_pool(setting, revealed, pool)
    if abs(lead) > sum(revealed) - pool:
        raise ImpossiblePosition(f"a lead of {lead} with {sum(revealed) - pool} points "
                                 "claimed so far: a lead is at most the points already taken")
    return Position(frozenset(hand_a), frozenset(hand_b), frozenset(prizes), pool, lead)


def _check_pool(setting: Setting, revealed: list[int], pool: int) -> None:
    if pool < 0:
        raise ImpossiblePosition(f"a pool of {pool}: a pool is the sum of tied prizes, never "
                                 "below 0")
    if pool and setting.tie_rule is TieRule.DISCARD:
        raise ImpossiblePosition(f"a pool of {pool} under the discard rule: a tied prize is "
                                 "discarded at once, so nothing is ever carried")
    if pool and not any(sum(c) == pool for c in _subsets(revealed)):
        raise ImpossiblePosition(f"a pool of {pool}: no set of the prizes revealed so far "
                                 f"{revealed or '(none)'} adds up to it")


def _subsets(cards: list[int]) -> Iterable[tuple[int, ...]]:
    for size in range(1, len(cards) + 1):
        yield from combinations(cards, size)
