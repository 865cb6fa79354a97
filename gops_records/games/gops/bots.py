"""Bot personalities: simple, recognisable bidders for simulated games.

A bot sees what a player at the table sees (a :class:`Situation`: the prize, the pool on
offer, the round, its own hand, the cards its opponents still hold, the scores and the
rule profile) and returns the card it bids. Randomness comes only from the
``random.Random`` it is handed, so a seeded simulation is reproducible.

Every personality is meant to leave a clear trace in the records, so that the scouting
tools can be checked against a known truth:

========================  =====================================================
``random``                a card drawn uniformly from its hand
``prize``                 exactly the prize (always possible with one suit each)
``prize-plus-one``        the prize plus one; its lowest card when that is gone
``saver``                 its lowest card on low prizes; otherwise the card ranked
                          among its hand as the prize ranks among the prizes still
                          to come (so its high cards go to high prizes)
``chaser``                its highest card when the pool on offer is big, else
                          one of its three lowest cards
``noisy``                 near the prize with noise, and now and then at random
========================  =====================================================

The registry :data:`BOTS` maps each name to a ready bot.

The variants of the Dutch rules: with bids of several cards (``profile.bid_cards`` k > 1) a
bot bids k cards (:meth:`Bot.bid_cards`): each personality aims at a strength (the prize
bot: the prize, so it bids the k cards whose sum is nearest the prize) and bids the k cards
of its hand whose sum is nearest it; random-minded bots draw k cards. With open prizes a
bot bids one card as if the prize were the best one in the row (``Situation.row``), and the
winner takes the best one (:meth:`Bot.take`).
"""

from __future__ import annotations

import itertools
import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, NamedTuple

from gops_records.games.gops.rules import RuleProfile


class Personality(StrEnum):
    """The names of the bot personalities (the ``--bots`` values of ``gops simulate``)."""

    RANDOM = "random"
    PRIZE = "prize"
    PRIZE_PLUS_ONE = "prize-plus-one"
    SAVER = "saver"
    CHASER = "chaser"
    NOISY = "noisy"


class Situation(NamedTuple):
    """What a bidder can see when it chooses its card.

    ``hand`` and every entry of ``opponents`` are ascending. ``pool`` is the prize cards on
    offer, carried ones first and this round's prize last; ``carried`` is the value that
    ties carried into this round. ``upcoming`` is the prize cards still in the pile (not
    this round's prize), ascending. ``scores`` are in seat order; ``seat`` is the bidder's.
    With open prizes ``row`` is the row on offer (in the order revealed), ``prize`` and
    ``pool_value`` its best prize and ``pool`` the row.
    """

    prize: int
    pool: tuple[int, ...]
    pool_value: int
    carried: int
    round_no: int
    hand: tuple[int, ...]
    opponents: tuple[tuple[int, ...], ...]
    upcoming: tuple[int, ...]
    scores: tuple[int, ...]
    seat: int
    profile: RuleProfile
    row: tuple[int, ...] = ()


def nearest_sum(hand: tuple[int, ...], k: int, target: float) -> tuple[int, ...]:
    """The k cards of ``hand`` whose sum is nearest ``target`` (of two as near, the lower
    sum; of equal sums, the first in ascending order)."""
    best = min(itertools.combinations(hand, k), key=lambda c: (abs(sum(c) - target), sum(c)))
    return tuple(best)


class Bot(ABC):
    """A bidding personality. Subclasses say in their docstring what they do."""

    personality: ClassVar[Personality]

    @property
    def name(self) -> str:
        return self.personality.value

    @property
    def description(self) -> str:
        """The one-sentence summary: the first paragraph of the class docstring."""
        return " ".join((type(self).__doc__ or "").strip().split("\n\n")[0].split())

    @abstractmethod
    def bid(self, s: Situation, rng: random.Random) -> int:
        """The card to bid; always one of ``s.hand``."""

    def bid_cards(self, s: Situation, rng: random.Random) -> tuple[int, ...]:
        """The cards to bid: ``(bid(s),)`` in a game of one-card bids, else
        ``s.profile.bid_cards`` different cards of ``s.hand`` (the k whose sum is nearest
        :meth:`strength`)."""
        k = s.profile.bid_cards
        if k == 1:
            return (self.bid(s, rng),)
        return nearest_sum(s.hand, k, self.strength(s, rng))

    def strength(self, s: Situation, rng: random.Random) -> float:
        """The strength a bid of several cards aims at (the prize, unless a personality
        says otherwise)."""
        return s.prize

    def take(self, s: Situation, row: tuple[int, ...]) -> int:
        """The prize taken from an open row after winning a round: the best one."""
        return max(row)

    def __repr__(self) -> str:
        return f"<bot {self.name}>"


def nearest(hand: tuple[int, ...], target: float) -> int:
    """The card in ``hand`` closest to ``target`` (the lower one when two are as close)."""
    best, gap = hand[0], abs(hand[0] - target)
    for card in hand[1:]:
        d = abs(card - target)
        if d < gap:
            best, gap = card, d
    return best


@dataclass(frozen=True, slots=True, repr=False)
class RandomBot(Bot):
    """Bids a card drawn uniformly at random from its hand."""

    personality: ClassVar[Personality] = Personality.RANDOM

    def bid(self, s: Situation, rng: random.Random) -> int:
        return s.hand[rng.randrange(len(s.hand))]

    def bid_cards(self, s: Situation, rng: random.Random) -> tuple[int, ...]:
        k = s.profile.bid_cards
        return (self.bid(s, rng),) if k == 1 else tuple(sorted(rng.sample(s.hand, k)))


@dataclass(frozen=True, slots=True, repr=False)
class PrizeBot(Bot):
    """Always bids exactly the prize's value (the card nearest to it if it were ever gone)."""

    personality: ClassVar[Personality] = Personality.PRIZE

    def bid(self, s: Situation, rng: random.Random) -> int:
        # Each prize is revealed once and each player holds one of every rank, so the
        # card equal to the prize is always still in hand; the fallback is for safety.
        return s.prize if s.prize in s.hand else nearest(s.hand, s.prize)


@dataclass(frozen=True, slots=True, repr=False)
class PrizePlusOneBot(Bot):
    """Bids the prize plus one, or its lowest card when that card is gone or beyond the deck."""

    personality: ClassVar[Personality] = Personality.PRIZE_PLUS_ONE

    def bid(self, s: Situation, rng: random.Random) -> int:
        target = s.prize + 1
        return target if target in s.hand else s.hand[0]

    def strength(self, s: Situation, rng: random.Random) -> float:
        return s.prize + 1


@dataclass(frozen=True, slots=True, repr=False)
class SaverBot(Bot):
    """Saves high cards for high prizes: throws its lowest card on the bottom third of the
    prizes still to come, else bids the card ranked in its hand as the prize ranks there."""

    personality: ClassVar[Personality] = Personality.SAVER

    def bid(self, s: Situation, rng: random.Random) -> int:
        # the prize's rank (0-based) among this round's prize and the ones still to come
        rank = sum(1 for p in s.upcoming if p < s.prize)
        n_prizes = len(s.upcoming) + 1
        if 3 * rank < n_prizes:  # the bottom third (5 of 13 prizes)
            return s.hand[0]
        n_cards = len(s.hand)
        if n_prizes != n_cards:  # never in a normal game: scale the rank to the hand
            rank = round(rank * (n_cards - 1) / max(1, n_prizes - 1))
        return s.hand[min(rank, n_cards - 1)]

    def strength(self, s: Situation, rng: random.Random) -> float:
        """The lowest cards on the bottom third of the prizes, else the strength placed
        between its weakest and its strongest bid as the prize ranks among the prizes."""
        rank = sum(1 for p in s.upcoming if p < s.prize)
        n_prizes = len(s.upcoming) + 1
        k = s.profile.bid_cards
        low, high = sum(s.hand[:k]), sum(s.hand[-k:])
        if 3 * rank < n_prizes:
            return low
        return low + (high - low) * rank / max(1, n_prizes - 1)


@dataclass(frozen=True, slots=True, repr=False)
class ChaserBot(Bot):
    """Chases big pools: bids its highest card when the pool on offer is worth at least
    three quarters of N (10 for 13 cards), else one of its three lowest cards."""

    personality: ClassVar[Personality] = Personality.CHASER
    #: the pool value that triggers the chase, as a share of the deck size N (10 for N=13)
    share: float = 0.75
    #: how many of its lowest cards it picks from when it does not chase
    low_spread: int = 3

    def threshold(self, profile: RuleProfile) -> int:
        return max(1, math.ceil(self.share * profile.cards))

    def bid(self, s: Situation, rng: random.Random) -> int:
        if s.pool_value >= self.threshold(s.profile):
            return s.hand[-1]
        return s.hand[rng.randrange(min(self.low_spread, len(s.hand)))]

    def bid_cards(self, s: Situation, rng: random.Random) -> tuple[int, ...]:
        """Its k highest cards on a big pool, else k drawn from its lowest k + 2."""
        k = s.profile.bid_cards
        if k == 1:
            return (self.bid(s, rng),)
        if s.pool_value >= self.threshold(s.profile):
            return s.hand[-k:]
        return tuple(sorted(rng.sample(s.hand[:k + self.low_spread - 1], k)))


@dataclass(frozen=True, slots=True, repr=False)
class NoisyBot(Bot):
    """A mixed strategy: one bid in four is uniformly random, the others the card nearest
    to the prize plus Gaussian noise (sd 1.5)."""

    personality: ClassVar[Personality] = Personality.NOISY
    p_random: float = 0.25
    sd: float = 1.5

    def bid(self, s: Situation, rng: random.Random) -> int:
        if rng.random() < self.p_random:
            return s.hand[rng.randrange(len(s.hand))]
        return nearest(s.hand, round(s.prize + rng.gauss(0.0, self.sd)))

    def bid_cards(self, s: Situation, rng: random.Random) -> tuple[int, ...]:
        k = s.profile.bid_cards
        if k == 1:
            return (self.bid(s, rng),)
        if rng.random() < self.p_random:
            return tuple(sorted(rng.sample(s.hand, k)))
        return nearest_sum(s.hand, k, s.prize + rng.gauss(0.0, self.sd))


#: Every personality, by name.
BOTS: dict[str, Bot] = {
    bot.name: bot
    for bot in (RandomBot(), PrizeBot(), PrizePlusOneBot(), SaverBot(), ChaserBot(), NoisyBot())
}


def get_bot(name: str) -> Bot:
    """The bot called ``name``; raises ValueError listing the known names otherwise."""
    try:
        return BOTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(BOTS)
        raise ValueError(f"unknown bot {name!r}: choose from {known}") from None
