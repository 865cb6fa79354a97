"""The Gin Rummy (Oklahoma) rules engine for one hand: pure Python, no I/O.

A :class:`GinProfile` holds the rule options (run order, bonuses, the equal-deadwood
reading, the wall); a :class:`GinHand` holds one hand's state, lists its legal actions
and applies them, raising a typed :class:`~gops_records.games.gin.errors.IllegalTurn` (with
the validator's stable code) for anything the rules forbid.

The hand, as issue 14 reads the rules text:

- First turn (an ``OFFER``): the non-dealer takes the upcard (a pile draw) or passes;
  after a pass the dealer takes it or passes; after two passes the non-dealer draws from
  the stock (ambiguity 1). A pass at any other time is a ``first-turn`` problem.
- A turn: draw the top of the stock (the record names the card; it must be unseen) or of
  the pile, then discard any card but one just taken from the pile, or go out instead.
- Going out, right after a draw: ``gin`` (discard, 10 cards melded), ``big gin`` (no
  discard, 11 melded), ``knock`` (discard, declared deadwood 1..limit; the limit is the
  upcard's points, no knock on an ace upcard). The declared arrangement counts, not the
  best one; declared deadwood 0 is always gin (ambiguity 7). Going out is never forced.
- The opponent of a knock lays off onto the knocker's melds (chained) and declares own
  melds, as the record states (ambiguity 5); nothing is laid off on gin or big gin.
  Opponent's deadwood <= knocker's is an undercut (ambiguity 6): 25 + the difference;
  otherwise the knocker scores the difference. Gin: 25 + opponent's deadwood, big gin 50.
- A stock draw that leaves 2 cards may still be followed by going out; a plain discard
  then ends the hand drawn at once (ambiguity 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from gops_records.core.text import seat_label
from gops_records.games.gin.arrangement import best_arrangement, best_discard, min_deadwood
from gops_records.games.gin.cards import CARDS, Card, cards_of, cards_text, mask_of
from gops_records.games.gin.errors import (
    CardNotInHand,
    CardSeen,
    DealError,
    DiscardJustTaken,
    FirstTurn,
    KnockForbidden,
    KnockOverLimit,
    LayoffError,
    NotAMeld,
    OutKind,
    PileTop,
    SpreadError,
    TurnOrder,
    WallError,
)
from gops_records.games.gin.melds import Meld, RunOrder, as_meld, breaking_card, lay_off


class Seat(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Seat:
        return Seat.B if self is Seat.A else Seat.A

    @property
    def index(self) -> int:
        return 0 if self is Seat.A else 1


@dataclass(frozen=True, slots=True)
class Players:
    """The players' names by seat (the ``A`` and ``B`` tags), so that a message names a
    seat as the Gops replay does: ``players(Seat.A)`` is ``Joost (A)``, or ``A`` alone
    when the record names nobody there."""

    a: str | None = None
    b: str | None = None

    @classmethod
    def of(cls, tag: Callable[[str], str | None]) -> Players:
        """The names a record's tags give (``tag`` looks a tag up: ``record.tag``)."""
        return cls(tag("A"), tag("B"))

    def __call__(self, seat: Seat) -> str:
        return seat_label(seat.value, self.a if seat is Seat.A else self.b)


#: No names: messages name the seats by their letters.
UNNAMED = Players()


@dataclass(frozen=True, slots=True)
class GinProfile:
    """The rule options. The defaults are the rules text with issue 14's readings."""

    runs: RunOrder = RunOrder.CIRCULAR
    gin_bonus: int = 25
    big_gin_bonus: int = 50
    undercut_bonus: int = 25
    #: ambiguity 6: "inférieur ou égal" - equal deadwood undercuts
    undercut_on_equal: bool = True
    #: the hand is drawn when a discard leaves this many stock cards
    wall: int = 2
    game_target: int = 100
    game_bonus: int = 100
    hand_bonus: int = 20
    blitz_bonus: int = 100
    games_to_win_match: int = 2


#: The profile of the rules text with issue 14's readings.
DEFAULT_PROFILE = GinProfile()


class Phase(StrEnum):
    OFFER = "offer"        # first turn: take the upcard or pass
    DRAW = "draw"
    DISCARD = "discard"    # 11 cards: discard, knock, gin or big gin
    RESPOND = "respond"    # the opponent of the player out lays off and spreads
    OVER = "over"


class Outcome(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    DRAW = "draw"


# -- actions -------------------------------------------------------------------------------

Spread = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class DrawStock:
    card: Card


@dataclass(frozen=True, slots=True)
class DrawPile:
    """A pile draw; ``card`` None means the record did not name it (not checked)."""

    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card


@dataclass(frozen=True, slots=True)
class Knock:
    discard: Card
    melds: Spread
    unmatched: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Gin:
    discard: Card
    melds: Spread


@dataclass(frozen=True, slots=True)
class BigGin:
    melds: Spread


@dataclass(frozen=True, slots=True)
class Respond:
    """The opponent's answer to going out: layoffs (knock only), own melds, the rest."""

    layoffs: tuple[Card, ...]
    melds: Spread
    unmatched: tuple[Card, ...]


Action = Pass | DrawStock | DrawPile | Discard | Knock | Gin | BigGin | Respond


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it scored (``points`` go to ``winner``)."""

    outcome: Outcome
    dealer: Seat
    went_out: Seat | None
    winner: Seat | None
    points: int
    out_deadwood: int | None = None
    #: the opponent's deadwood before and after layoffs (equal when nothing is laid off)
    defender_before: int | None = None
    defender_after: int | None = None
    turns: int = 0
    stock_left: int = 0

    @property
    def scores(self) -> tuple[int, int]:
        """The hand's points in seat order (A, B)."""
        if self.winner is None:
            return (0, 0)
        return (self.points, 0) if self.winner is Seat.A else (0, self.points)


def score_hand(kind: Outcome, went_out: Seat, out_deadwood: int, defender: int,
               profile: GinProfile = DEFAULT_PROFILE) -> tuple[Outcome, Seat, int]:
    """How a hand that someone went out of ends: (outcome, winner, points).

    ``kind`` is how ``went_out`` went out (knock, gin, big gin), ``out_deadwood`` that
    player's deadwood and ``defender`` the opponent's after layoffs. A knock against
    deadwood no higher (ambiguity 6) is an undercut: 25 + the difference to the opponent;
    else the knocker scores the difference. Gin scores 25 + the opponent's deadwood, big
    gin 50 + it. The score sheets (:mod:`gops_records.games.gin.sheet_check`) use it too."""
    if kind is Outcome.KNOCK:
        under = defender <= out_deadwood if profile.undercut_on_equal else \
            defender < out_deadwood
        if under:
            return Outcome.UNDERCUT, went_out.other, \
                profile.undercut_bonus + out_deadwood - defender
        return Outcome.KNOCK, went_out, defender - out_deadwood
    if kind not in (Outcome.GIN, Outcome.BIG_GIN):
        raise ValueError(f"a hand is gone out of by knock, gin or big gin, not {kind}")
    bonus = profile.gin_bonus if kind is Outcome.GIN else profile.big_gin_bonus
    return kind, went_out, bonus + defender


def dealer_message(dealer: Seat, last: HandResult, previous: int, number: int,
                   who: Players = UNNAMED) -> str:
    """The ``dealer`` problem of hand ``number``: ``dealer`` deals it, as the winner of
    ``last`` (hand ``previous``) or, after a drawn hand, its dealer again. Full hands
    (:mod:`~gops_records.games.gin.grouping`) and score sheets say it alike."""
    why = (f"{who(last.winner)} won hand {previous}" if last.winner is not None
           else f"hand {previous} was drawn, {who(last.dealer)} deals again")
    return f"{who(dealer)} deals hand {number}: {why}"


def knock_limit(upcard: Card) -> int | None:
    """The most deadwood a knock may keep: the upcard's points; None on an ace (no knock)."""
    return None if upcard.rank == 1 else upcard.points


class GinHand:
    """One hand's state; :meth:`apply` plays an action by the seat to play."""

    def __init__(self, dealer: Seat, deal_a: tuple[int, ...], deal_b: tuple[int, ...],
                 upcard: int, profile: GinProfile = DEFAULT_PROFILE,
                 players: Players = UNNAMED):
        cards = [*deal_a, *deal_b, upcard]
        if len(deal_a) != 10 or len(deal_b) != 10:
            raise DealError(f"each player is dealt 10 cards, not {len(deal_a)} and "
                            f"{len(deal_b)}")
        if len(set(cards)) != 21:
            twice = sorted({c for c in cards if cards.count(c) > 1})
            raise DealError(f"a card is dealt twice: {cards_text(twice)}")
        self.profile = profile
        #: how messages name a seat (``Joost (A)``)
        self.who = players
        self.dealer = dealer
        self.upcard = CARDS[upcard]
        self.limit = knock_limit(self.upcard)
        self.hands = {Seat.A: mask_of(deal_a), Seat.B: mask_of(deal_b)}
        self.pile: list[Card] = [self.upcard]
        self.unseen = ((1 << 52) - 1) ^ mask_of(cards)
        self.stock_left = 31
        self.to_play = dealer.other
        self.phase = Phase.OFFER
        self.passes = 0
        self.just_taken: Card | None = None
        self.turns = 0
        self.went_out: Seat | None = None
        self.out_kind: Outcome | None = None
        self.out_melds: tuple[Meld, ...] = ()
        self.out_deadwood = 0
        self.result: HandResult | None = None

    # -- queries ----------------------------------------------------------------------------

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return cards_of(self.hands[seat])

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards still in the stock (their order is not known to the engine)."""
        return cards_of(self.unseen)

    def legal_actions(self) -> list[Action]:
        """Every legal action, with going out and the response in their best arrangement.

        Stock draws are listed once per unseen card (the record names the card). A spread
        other than the best one listed is legal too (:meth:`apply` checks any)."""
        order = self.profile.runs
        if self.phase is Phase.OVER:
            return []
        if self.phase is Phase.OFFER:
            return [Pass(), DrawPile(self.pile[-1])]
        if self.phase is Phase.DRAW:
            stock: list[Action] = [DrawStock(c) for c in cards_of(self.unseen)]
            return stock if self.passes == 2 and self.turns == 2 else \
                [DrawPile(self.pile[-1]), *stock]
        mask = self.hands[self.to_play]
        if self.phase is Phase.DISCARD:
            out: list[Action] = []
            full = best_arrangement(mask, order)
            if full.deadwood == 0:
                out.append(BigGin(tuple(m.cards for m in full.melds)))
            for card in cards_of(mask):
                if card == self.just_taken:
                    continue
                out.append(Discard(card))
                rest = best_arrangement(mask ^ (1 << card), order)
                spread = tuple(m.cards for m in rest.melds)
                if rest.deadwood == 0:
                    out.append(Gin(card, spread))
                elif self.limit is not None and rest.deadwood <= self.limit:
                    out.append(Knock(card, spread, rest.unmatched))
            return out
        return self._responses(mask)

    def _responses(self, mask: int) -> list[Action]:
        order = self.profile.runs
        if self.out_kind is not Outcome.KNOCK:
            best = best_arrangement(mask, order)
            return [Respond((), tuple(m.cards for m in best.melds), best.unmatched)]
        candidates = _closure(self.out_melds, mask, order)
        out: list[Action] = []
        for size in range(len(candidates) + 1):
            for chosen in combinations(candidates, size):
                if chosen and lay_off(self.out_melds, chosen, order) is None:
                    continue
                best = best_arrangement(mask ^ mask_of(chosen), order)
                out.append(Respond(chosen, tuple(m.cards for m in best.melds), best.unmatched))
        return out

    def best_response(self) -> Respond:
        """The response that leaves the opponent the least deadwood."""
        assert self.phase is Phase.RESPOND
        return min(self._responses(self.hands[self.to_play]),
                   key=lambda r: sum(c.points for c in r.unmatched))

    # -- playing ----------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> HandResult | None:
        """Play ``action`` for ``seat``; returns the result when the hand ends."""
        if self.phase is Phase.OVER:
            raise WallError("the hand is over: "
                            + ("the stock is down to 2 cards, the hand is drawn"
                               if self.result and self.result.outcome is Outcome.DRAW
                               else "a player went out"))
        if seat is not self.to_play:
            raise TurnOrder(f"{self.who(self.to_play)} is to play, not {self.who(seat)}")
        match action:
            case Pass():
                self._pass()
            case DrawStock(card):
                self._draw_stock(card)
            case DrawPile(card):
                self._draw_pile(card)
            case Discard(card):
                self._discard(card)
            case Knock() | Gin() | BigGin():
                self._go_out(action)
            case Respond():
                self._respond(action)
            case _:
                raise TypeError(f"not a Gin Rummy action: {action!r}")
        return self.result

    def _pass(self) -> None:
        if self.phase is not Phase.OFFER:
            raise FirstTurn("a pass is only for the first offer of the upcard; "
                            "draw from the stock or the pile")
        self.passes += 1
        self.turns += 1
        self.to_play = self.to_play.other
        if self.passes == 2:
            self.phase = Phase.DRAW

    def _need_draw(self) -> None:
        if self.phase is Phase.DISCARD:
            raise OutKind(f"{self.who(self.to_play)} has drawn and must discard or go out")
        if self.phase is Phase.RESPOND:
            raise OutKind(f"{self.who(self.to_play)} must answer the opponent's going out")

    def _draw_stock(self, card: Card) -> None:
        self._need_draw()
        if self.phase is Phase.OFFER:
            raise FirstTurn(f"on the first turn {self.who(self.to_play)} takes the upcard "
                            f"{self.upcard} or passes; the stock comes after two passes")
        if not self.unseen >> card & 1:
            raise CardSeen(f"{CARDS[card]} cannot come from the stock: it was already dealt, "
                           "drawn or shown", card=card)
        self.unseen ^= 1 << card
        self.hands[self.to_play] |= 1 << card
        self.stock_left -= 1
        self.just_taken = None
        self._start_turn()

    def _draw_pile(self, card: Card | None) -> None:
        self._need_draw()
        if self.phase is Phase.DRAW and self.passes == 2 and self.turns == 2:
            raise FirstTurn("after two passes the non-dealer draws from the stock")
        top = self.pile[-1]
        if card is not None and card != top:
            raise PileTop(f"the pile's top is {top}, not {CARDS[card]}", card=card)
        self.pile.pop()
        self.hands[self.to_play] |= 1 << top
        self.just_taken = top
        self._start_turn()

    def _start_turn(self) -> None:
        self.turns += 1
        self.phase = Phase.DISCARD

    def _take_discard(self, card: Card) -> None:
        if self.phase is not Phase.DISCARD:
            raise OutKind(f"{self.who(self.to_play)} must draw before discarding or going "
                          "out")
        if not self.hands[self.to_play] >> card & 1:
            raise CardNotInHand(f"{self.who(self.to_play)} does not hold {CARDS[card]}",
                                card=card)
        if card == self.just_taken:
            raise DiscardJustTaken(f"{CARDS[card]} was just taken from the pile and may not "
                                   "be discarded at once", card=card)
        self.hands[self.to_play] ^= 1 << card
        self.pile.append(CARDS[card])

    def _discard(self, card: Card) -> None:
        self._take_discard(card)
        self.just_taken = None
        if self.stock_left <= self.profile.wall:
            self._end(HandResult(Outcome.DRAW, self.dealer, None, None, 0, turns=self.turns,
                                 stock_left=self.stock_left))
            return
        self.to_play = self.to_play.other
        self.phase = Phase.DRAW

    def _spread(self, mask: int, melds: Spread, unmatched: tuple[Card, ...],
                who: Seat) -> tuple[Meld, ...]:
        """The declared melds, checked to be melds and to cover exactly ``mask``."""
        written = [c for meld in melds for c in meld] + list(unmatched)
        for card in written:
            if not mask >> card & 1:
                raise CardNotInHand(f"{self.who(who)} does not hold {CARDS[card]} (in the "
                                    "spread)",
                                    card=card)
        checked = []
        for meld in melds:
            found = as_meld(meld, self.profile.runs)
            if found is None:
                raise NotAMeld(f"({cards_text(meld)}) is not a run or a set "
                               f"(runs: {self.profile.runs})",
                               card=breaking_card(meld, self.profile.runs))
            checked.append(found)
        if len(set(written)) != len(written) or mask_of(written) != mask:
            twice = sorted({c for c in written if written.count(c) > 1})
            missing = cards_of(mask & ~mask_of(written))
            raise SpreadError(f"the spread must show each card of {self.who(who)}'s hand "
                              "once"
                              + (f"; twice: {cards_text(twice)}" if twice else "")
                              + (f"; missing: {cards_text(missing)}" if missing else ""))
        return tuple(checked)

    def _go_out(self, action: Knock | Gin | BigGin) -> None:
        seat = self.to_play
        if self.phase is not Phase.DISCARD:
            raise OutKind(f"{self.who(seat)} goes out only right after a draw")
        before = self.hands[seat]
        if isinstance(action, BigGin):
            unmatched: tuple[Card, ...] = ()
            melds = self._spread(before, action.melds, unmatched, seat)
            kind = Outcome.BIG_GIN
        else:
            self._take_discard(action.discard)
            unmatched = action.unmatched if isinstance(action, Knock) else ()
            try:
                melds = self._spread(self.hands[seat], action.melds, unmatched, seat)
            except Exception:
                self.hands[seat] = before
                self.pile.pop()
                raise
            kind = Outcome.KNOCK if isinstance(action, Knock) else Outcome.GIN
        deadwood = sum(c.points for c in unmatched)
        if kind is Outcome.KNOCK:
            problem = None
            if deadwood == 0:
                problem = OutKind("deadwood 0 after the discard is gin, not a knock")
            elif self.limit is None:
                problem = KnockForbidden(f"the upcard {self.upcard} is an ace: no knock, "
                                         "only gin or big gin")
            elif deadwood > self.limit:
                problem = KnockOverLimit(f"a knock keeps at most {self.limit} deadwood "
                                         f"(upcard {self.upcard}), not {deadwood}")
            if problem is not None:
                self.hands[seat] = before
                self.pile.pop()
                raise problem
        self.went_out = seat
        self.out_kind = kind
        self.out_melds = melds
        self.out_deadwood = deadwood
        self.to_play = seat.other
        self.phase = Phase.RESPOND

    def _respond(self, action: Respond) -> None:
        seat = self.to_play
        if self.phase is not Phase.RESPOND:
            raise OutKind(f"nobody went out: {self.who(seat)} has nothing to answer")
        mask = self.hands[seat]
        for card in action.layoffs:
            if not mask >> card & 1:
                raise CardNotInHand(f"{self.who(seat)} does not hold {CARDS[card]} (laid "
                                    "off)", card=card)
        if action.layoffs and self.out_kind is not Outcome.KNOCK:
            raise LayoffError("nothing is laid off on gin or big gin")
        laid = mask_of(action.layoffs)
        if len(set(action.layoffs)) != len(action.layoffs):
            raise SpreadError("a card is laid off twice")
        if action.layoffs and lay_off(self.out_melds, action.layoffs,
                                      self.profile.runs) is None:
            raise LayoffError(f"{cards_text(action.layoffs)} cannot all be laid off onto "
                              f"{' '.join(m.text for m in self.out_melds) or 'no meld'}")
        self._spread(mask ^ laid, action.melds, action.unmatched, seat)
        after = sum(c.points for c in action.unmatched)
        before = after + sum(CARDS[c].points for c in action.layoffs)
        out, kind = self.went_out, self.out_kind
        assert out is not None and kind is not None
        kind, winner, points = score_hand(kind, out, self.out_deadwood, after, self.profile)
        self._end(HandResult(kind, self.dealer, out, winner, points, self.out_deadwood,
                             before, after, self.turns, self.stock_left))

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = Phase.OVER


def _closure(melds: tuple[Meld, ...], mask: int, order: RunOrder) -> tuple[Card, ...]:
    """The cards of ``mask`` that some chain of layoffs could place (the most laid off)."""
    placed: list[Card] = []
    current = melds
    progress = True
    while progress:
        progress = False
        for card in cards_of(mask):
            if card in placed:
                continue
            extended = lay_off(current, (card,), order)
            if extended is not None:
                placed.append(card)
                current = extended
                progress = True
    return tuple(placed)


def min_deadwood_after_discard(mask: int, order: RunOrder) -> int:
    """Least deadwood an 11-card hand keeps after its best discard."""
    return best_discard(mask, order)[0]


__all__ = [
    "Action", "BigGin", "Discard", "DrawPile", "DrawStock", "Gin", "GinHand", "GinProfile",
    "HandResult", "Knock", "Outcome", "Pass", "Phase", "Players", "Respond", "Seat",
    "UNNAMED", "dealer_message", "knock_limit",
    "score_hand",
    "min_deadwood", "min_deadwood_after_discard",
]
