"""The Gops rules engine: pure Python, no I/O.

A :class:`RuleProfile` fixes the variant (deck size, players, tie rule, prize order);
a :class:`Game` holds one game's state and plays it a round at a time.

Each round one prize is revealed and joins the pool on offer; every player bids one
card from hand. The single highest bid takes the whole pool. A shared highest bid is a
tie (even when a lower bid is unique): under ``carry`` the pool stays and the next
prize joins it, under ``discard`` the pool is set aside unclaimed. A tie in the last
round leaves the pool unclaimed under both rules. Bid cards are spent either way and
never score. So at the end, scores + unclaimed = N(N+1)/2.

:meth:`Game.play_round` checks legality and raises a typed :class:`IllegalRound`;
:meth:`Game.problems` lists every problem of a round without raising (the validator
uses it to report them all).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gops_records.cards import MAX_RANK, Seat, rank_name
from gops_records.errors import (
    CardNotInHand,
    GameOver,
    IllegalRound,
    PrizeOrderBroken,
    PrizeRepeated,
    RuleError,
    UnknownCard,
    WrongBidCount,
)

MAX_PLAYERS = 4


class TieRule(StrEnum):
    """What happens to the pool when the highest bid is shared."""

    CARRY = "carry"
    DISCARD = "discard"


class PrizeOrder(StrEnum):
    """How the prize pile is ordered: shuffled, or fixed A..K or K..A."""

    SHUFFLED = "shuffled"
    ASCENDING = "ascending"
    DESCENDING = "descending"


#: The tie rules and prize orders as written in records, in their enums' order (the
#: codes the replay's arrays use).
TIE_RULES = tuple(rule.value for rule in TieRule)
PRIZE_ORDERS = tuple(order.value for order in PrizeOrder)


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The variant a game is played under. The defaults are the club's standard game."""

    cards: int = 13
    players: int = 2
    tie_rule: TieRule = TieRule.CARRY
    prize_order: PrizeOrder = PrizeOrder.SHUFFLED

    def __post_init__(self) -> None:
        if not 1 <= self.cards <= MAX_RANK:
            raise RuleError(f"cards per suit must be 1..{MAX_RANK}, not {self.cards}")
        if not 2 <= self.players <= MAX_PLAYERS:
            raise RuleError(f"players must be 2..{MAX_PLAYERS}, not {self.players}")
        try:
            object.__setattr__(self, "tie_rule", TieRule(self.tie_rule))
        except ValueError:
            raise RuleError(f"tie rule must be carry or discard, not {self.tie_rule!r}") from None
        try:
            object.__setattr__(self, "prize_order", PrizeOrder(self.prize_order))
        except ValueError:
            raise RuleError("prize order must be shuffled, ascending or descending, "
                            f"not {self.prize_order!r}") from None

    @property
    def total_points(self) -> int:
        """Value of the whole prize pile, N(N+1)/2 (91 for 13 cards)."""
        return self.cards * (self.cards + 1) // 2

    def fixed_prize(self, round_no: int) -> int | None:
        """The prize a fixed order demands in 1-based round ``round_no``; None if shuffled."""
        if self.prize_order is PrizeOrder.ASCENDING:
            return round_no
        if self.prize_order is PrizeOrder.DESCENDING:
            return self.cards + 1 - round_no
        return None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What one round did: the pool on offer, the bids, and who took the pool (None on a tie)."""

    round_no: int
    prize: int
    bids: tuple[int, ...]
    pool_cards: tuple[int, ...]
    carried_in: int
    winner: int | None

    @property
    def pool_value(self) -> int:
        return sum(self.pool_cards)

    @property
    def tie(self) -> bool:
        return self.winner is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """Scores in seat order, points left unclaimed, and the winner's seat index (None: draw)."""

    scores: tuple[int, ...]
    unclaimed: int
    winner: int | None
    finished: bool

    @property
    def is_draw(self) -> bool:
        return self.finished and self.winner is None


def resolve(bids: tuple[int, ...] | list[int]) -> int | None:
    """Seat index of the single highest bid, or None when the highest bid is shared."""
    top = max(bids)
    if bids.count(top) > 1:
        return None
    return bids.index(top)


def winner_of(scores: tuple[int, ...] | list[int]) -> int | None:
    """Seat index of the single highest score, or None when it is shared (a draw)."""
    return resolve(scores)


class Game:
    """One game's state. Hands and revealed prizes are bit masks (bit r = rank r)."""

    __slots__ = (
        "profile", "round_no", "hands", "revealed", "pool", "carried",
        "captured", "scores", "unclaimed", "history",
    )

    def __init__(self, profile: RuleProfile | None = None):
        self.profile = profile or RuleProfile()
        full = ((1 << self.profile.cards) - 1) << 1  # bits 1..N
        self.round_no = 0
        self.hands = [full] * self.profile.players
        self.revealed = 0
        self.pool: list[int] = []  # prize cards on offer (carried ones first)
        self.carried = 0
        self.captured: list[list[int]] = [[] for _ in range(self.profile.players)]
        self.scores = [0] * self.profile.players
        self.unclaimed = 0
        self.history: list[RoundResult] = []

    # -- queries -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.round_no >= self.profile.cards

    def hand(self, seat: int) -> list[int]:
        """The ranks seat ``seat`` still holds, ascending."""
        mask = self.hands[seat]
        return [r for r in range(1, self.profile.cards + 1) if mask >> r & 1]

    def prizes_left(self) -> list[int]:
        """The prize ranks not yet revealed, ascending."""
        return [r for r in range(1, self.profile.cards + 1) if not self.revealed >> r & 1]

    def outcome(self) -> Outcome:
        """The result so far; ``winner`` is only set once the game is finished."""
        scores = tuple(self.scores)
        finished = self.is_over
        return Outcome(scores, self.unclaimed, winner_of(scores) if finished else None, finished)

    # -- legality ------------------------------------------------------------------

    def problems(self, prize: int, bids: tuple[int, ...] | list[int]) -> list[IllegalRound]:
        """Every reason the round (prize, bids) is illegal now; empty when it is legal."""
        p = self.profile
        found: list[IllegalRound] = []
        if self.is_over:
            return [GameOver(f"the game is over: all {p.cards} rounds have been played")]
        n = self.round_no + 1
        if not 1 <= prize <= p.cards:
            found.append(UnknownCard(
                f"prize {_show(prize)} is not in a {p.cards}-card suit", card=prize))
        elif self.revealed >> prize & 1:
            found.append(PrizeRepeated(
                f"prize {rank_name(prize)} was already revealed", card=prize))
        else:
            expected = p.fixed_prize(n)
            if expected is not None and prize != expected:
                found.append(PrizeOrderBroken(
                    f"prize order is {p.prize_order.value}: round {n} reveals "
                    f"{rank_name(expected)}, not {rank_name(prize)}", card=prize))
        if len(bids) != p.players:
            noun = "bid" if len(bids) == 1 else "bids"
            found.append(WrongBidCount(
                f"round {n} has {len(bids)} {noun}; {p.players} players need {p.players}"))
            return found
        for seat, bid in enumerate(bids):
            name = Seat.at(seat).value
            if not 1 <= bid <= p.cards:
                found.append(UnknownCard(
                    f"{name} bids {_show(bid)}, which is not in a {p.cards}-card suit",
                    seat=seat, card=bid))
            elif not self.hands[seat] >> bid & 1:
                found.append(CardNotInHand(
                    f"{name} bids {rank_name(bid)}, already spent earlier", seat=seat, card=bid))
        return found

    # -- playing -------------------------------------------------------------------

    def play_round(self, prize: int, bids: tuple[int, ...] | list[int]) -> RoundResult:
        """Reveal ``prize``, resolve ``bids`` (seat order) and return what happened.

        Raises the first :class:`IllegalRound` subclass that applies; the state is
        unchanged when it raises.
        """
        found = self.problems(prize, bids)
        if found:
            raise found[0]
        return self.play_unchecked(prize, tuple(bids))

    def skip_round(self) -> None:
        """Count a round as played without applying it (a validator skipping an illegal one).

        Nothing is revealed, spent or scored; only the round number moves on, so later
        rounds keep their numbers and a tie in the real last round is still unclaimed.
        """
        self.round_no += 1

    def play_unchecked(self, prize: int, bids: tuple[int, ...]) -> RoundResult:
        """Apply a round WITHOUT checking it: the fast path for callers that already know
        it is legal (the validator after :meth:`problems`, bots that bid from their hand).

        An illegal round corrupts the state silently; use :meth:`play_round` otherwise.
        """
        self.round_no += 1
        self.revealed |= 1 << prize
        for seat, bid in enumerate(bids):
            self.hands[seat] &= ~(1 << bid)
        carried_in = self.carried
        self.pool.append(prize)
        pool = tuple(self.pool)
        value = carried_in + prize
        winner = resolve(bids)
        if winner is not None:
            self.scores[winner] += value
            self.captured[winner].extend(pool)
            self.pool.clear()
            self.carried = 0
        elif self.profile.tie_rule is TieRule.DISCARD or self.is_over:
            self.unclaimed += value
            self.pool.clear()
            self.carried = 0
        else:
            self.carried = value
        result = RoundResult(self.round_no, prize, bids, pool, carried_in, winner)
        self.history.append(result)
        return result


def _show(value: int) -> str:
    return rank_name(value) if 1 <= value <= MAX_RANK else str(value)


def play_game(profile: RuleProfile, prizes: list[int], bids: list[tuple[int, ...]]) -> Game:
    """Play a whole sequence of rounds (checked) and return the finished state."""
    game = Game(profile)
    for prize, round_bids in zip(prizes, bids, strict=True):
        game.play_round(prize, round_bids)
    return game
