"""Gin Rummy bots: four simple, recognisable styles that play through the engine.

A bot sees what a player at the table sees (a :class:`Seen`: its own hand, the top of
the pile, the card it just took from the pile, the knock limit, how many cards are left
in the stock, the run order) and the legal actions :meth:`GinHand.legal_actions` lists,
and it returns one of those actions. The engine is the rules: a bot never decides what
is legal, it only chooses. Stock draws are one choice for a bot (it cannot see the
stock); the simulation draws the real top card (:mod:`gops_records.games.gin.simulate`).
Randomness comes only from the ``random.Random`` it is handed.

=================  ==========================================================================
``knocker``        goes out as soon as the rules allow it (gin when it can, else the knock
                   with the least deadwood); takes the pile only when the card lowers its
                   deadwood
``gin-hunter``     holds out for gin: goes out only with gin or big gin while the stock has
                   more than :data:`HUNTER_LATE` cards, then knocks like the knocker (so its
                   hands still end before the wall)
``pile-taker``     takes the pile greedily: the upcard or the top discard whenever it is
                   the same rank as a card it holds or within two of one of its suit (a
                   meld in the making), even when that does not lower its deadwood; goes
                   out as soon as it can
``random``         random legal play: the pile or the stock at even odds, a random
                   discard, a random answer to going out; it does go out whenever the rules
                   let it (a player that never does would make every hand a draw)
=================  ==========================================================================

The three deliberate styles never take back from the pile a card they discarded
themselves in the hand (so two pile takers cannot pass cards back and forth for ever: a
card can be taken from the pile only right after it is discarded, so each card is taken at
most once by each player). They discard alike: the card whose discard leaves the least
deadwood; on a tie the card with the fewest neighbours in the hand (same rank, or same
suit within two), then the highest card. They answer a knock with the layoffs and melds
that leave the least deadwood (:meth:`GinHand.best_response` reads the same list).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from gops_records.games.gin.arrangement import best_discard, min_deadwood
from gops_records.games.gin.cards import CARDS, RANKS, Card, cards_of
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.rules import (
    Action,
    BigGin,
    Discard,
    DrawPile,
    DrawStock,
    Gin,
    GinHand,
    Knock,
    Pass,
    Phase,
    Respond,
    Seat,
)

#: The gin hunter knocks once the stock is down to this many cards (the wall is 2).
HUNTER_LATE = 8


class GinStyle(StrEnum):
    """The names of the Gin Rummy bot styles (``gops simulate --game gin --bots``)."""

    KNOCKER = "knocker"
    GIN_HUNTER = "gin-hunter"
    PILE_TAKER = "pile-taker"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Seen:
    """What the player to play can see, and the legal actions it chooses from.

    ``actions`` is :meth:`GinHand.legal_actions` with the stock draws (one per unseen card)
    folded into one :class:`DrawStock` whose card is only a placeholder: a player does not
    know the stock's top card. ``hand`` is a bit mask of the player's cards."""

    seat: Seat
    phase: Phase
    hand: int
    pile_top: Card | None
    just_taken: Card | None
    limit: int | None
    stock_left: int
    runs: RunOrder
    actions: tuple[Action, ...]
    #: the cards this player discarded in the hand so far (everyone saw them)
    discarded: int = 0

    @classmethod
    def of(cls, hand: GinHand, discarded: int = 0) -> Seen:
        """What ``hand``'s player to play sees; ``discarded``: its discards so far."""
        actions: list[Action] = []
        stock = False
        for action in hand.legal_actions():
            if isinstance(action, DrawStock):
                if stock:
                    continue
                stock = True
            actions.append(action)
        return cls(hand.to_play, hand.phase, hand.hands[hand.to_play],
                   hand.pile[-1] if hand.pile else None, hand.just_taken, hand.limit,
                   hand.stock_left, hand.profile.runs, tuple(actions), discarded)

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.hand)

    def of_kind(self, *kinds: type) -> list[Action]:
        return [a for a in self.actions if isinstance(a, kinds)]


def _near(card: Card) -> int:
    near = 0
    for other in CARDS:
        if other != card and (other.rank == card.rank or other.suit == card.suit and min(
                (other.rank - card.rank) % RANKS, (card.rank - other.rank) % RANKS) <= 2):
            near |= 1 << other
    return near


#: By card: the mask of the cards that could share a meld with it (its rank, or its suit
#: within two ranks either way round, so circular neighbours are counted too).
NEAR: tuple[int, ...] = tuple(_near(c) for c in CARDS)


def _neighbours(card: Card, hand: int) -> int:
    """How many cards of ``hand`` could make a meld with ``card``."""
    return (NEAR[card] & hand).bit_count()


def discard_key(seen: Seen, card: Card) -> tuple[int, int, int, int]:
    """How good discarding ``card`` is (smaller is better): the deadwood left, the card's
    neighbours in what is left, minus its points, then the card number (a stable answer)."""
    rest = seen.hand ^ (1 << card)
    return (min_deadwood(rest, seen.runs), _neighbours(card, rest), -card.points, card)


def pile_helps(seen: Seen) -> bool:
    """Whether taking the pile's top card (which may not be discarded at once) leaves less
    deadwood after the best discard than the hand holds now."""
    top = seen.pile_top
    assert top is not None
    now = min_deadwood(seen.hand, seen.runs)
    return best_discard(seen.hand | (1 << top), seen.runs, keep=top)[0] < now


class GinBot:
    """A Gin Rummy player: :meth:`choose` returns one of ``seen.actions``."""

    style: ClassVar[GinStyle]

    def choose(self, seen: Seen, rng: random.Random) -> Action:
        if seen.phase in (Phase.OFFER, Phase.DRAW):
            return self.draw(seen, rng)
        if seen.phase is Phase.DISCARD:
            return self.discard(seen, rng)
        return self.respond(seen, rng)

    @property
    def name(self) -> str:
        return self.style.value

    # -- the draw -----------------------------------------------------------------------

    def wants_pile(self, seen: Seen, rng: random.Random) -> bool:
        return pile_helps(seen)

    def draw(self, seen: Seen, rng: random.Random) -> Action:
        pile = seen.of_kind(DrawPile)
        own = seen.pile_top is not None and seen.discarded >> seen.pile_top & 1
        if pile and not own and self.wants_pile(seen, rng):
            return pile[0]
        return (seen.of_kind(Pass) or seen.of_kind(DrawStock))[0]

    # -- the discard or going out -------------------------------------------------------

    def goes_out(self, seen: Seen, outs: list[Action]) -> Action | None:
        """The way out it takes, of ``outs`` (big gin, gin, knock), or None to play on."""
        return _best_out(outs)

    def discard(self, seen: Seen, rng: random.Random) -> Action:
        outs = [a for a in seen.actions if not isinstance(a, Discard)]
        if outs and (out := self.goes_out(seen, outs)) is not None:
            return out
        discards = seen.of_kind(Discard)
        return min(discards, key=lambda a: discard_key(seen, a.card))

    # -- the answer to going out --------------------------------------------------------

    def respond(self, seen: Seen, rng: random.Random) -> Action:
        return min(seen.of_kind(Respond), key=lambda r: sum(c.points for c in r.unmatched))


def _best_out(outs: list[Action]) -> Action | None:
    """Big gin, else gin, else the knock keeping the least deadwood."""
    for kind in (BigGin, Gin):
        found = [a for a in outs if isinstance(a, kind)]
        if found:
            return found[0]
    knocks = [a for a in outs if isinstance(a, Knock)]
    return min(knocks, key=lambda k: sum(c.points for c in k.unmatched), default=None)


class Knocker(GinBot):
    """Goes out at the first chance (gin if it can), takes the pile only when it helps."""

    style = GinStyle.KNOCKER


class GinHunter(GinBot):
    """Waits for gin; knocks only once the stock is down to :data:`HUNTER_LATE` cards."""

    style = GinStyle.GIN_HUNTER

    def goes_out(self, seen: Seen, outs: list[Action]) -> Action | None:
        if seen.stock_left <= HUNTER_LATE:
            return _best_out(outs)
        return _best_out([a for a in outs if isinstance(a, BigGin | Gin)])


class PileTaker(GinBot):
    """Takes the pile whenever its top card could join a meld; goes out at once."""

    style = GinStyle.PILE_TAKER

    def wants_pile(self, seen: Seen, rng: random.Random) -> bool:
        top = seen.pile_top
        assert top is not None
        return _neighbours(top, seen.hand) > 0 or pile_helps(seen)


class RandomBot(GinBot):
    """Random legal play that still goes out whenever it can."""

    style = GinStyle.RANDOM

    def draw(self, seen: Seen, rng: random.Random) -> Action:
        return rng.choice(seen.actions)

    def discard(self, seen: Seen, rng: random.Random) -> Action:
        outs = [a for a in seen.actions if not isinstance(a, Discard)]
        if outs:
            return rng.choice(outs)
        return rng.choice(seen.actions)

    def respond(self, seen: Seen, rng: random.Random) -> Action:
        return rng.choice(seen.actions)


#: One ready bot per style.
GIN_BOTS: dict[str, GinBot] = {b.style.value: b for b in (Knocker(), GinHunter(),
                                                         PileTaker(), RandomBot())}


def gin_bot(name: str) -> GinBot:
    """The bot of style ``name``; ValueError naming the styles otherwise."""
    try:
        return GIN_BOTS[GinStyle(name.strip().lower())]
    except ValueError:
        raise ValueError(f"unknown Gin Rummy bot {name!r}: choose from "
                         f"{', '.join(GIN_BOTS)}") from None


__all__ = ["GIN_BOTS", "GinBot", "GinHunter", "GinStyle", "Knocker", "PileTaker",
           "RandomBot", "Seen", "discard_key", "gin_bot", "pile_helps"]
