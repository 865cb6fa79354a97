"""The Gops rules engine: pure Python, no I/O.

A :class:`RuleProfile` fixes the variant (deck size, players, tie rule, prize order, and
the two variants of the Dutch rules: bids of several cards, open prizes); a
:class:`Game` holds one game's state and plays it a round at a time.

The classic game: each round one prize is revealed and joins the pool on offer; every
player bids one card from hand. The single highest bid takes the whole pool. A shared
highest bid is a tie (even when a lower bid is unique): under ``carry`` the pool stays
and the next prize joins it, under ``discard`` the pool is set aside unclaimed. A tie in
the last round leaves the pool unclaimed under both rules. Bid cards are spent either
way and never score. So at the end, scores + unclaimed = N(N+1)/2.

Bids of several cards (``bid_cards`` k = 2 or 3): every player bids k different cards a
round and the bid's strength is their sum; the game has floor(N / k) rounds, one prize
revealed a round, so the prizes never revealed are not in play: scores + unclaimed = the
sum of the revealed prizes. Ties as in the classic game, by strength.

Open prizes (``open_prizes`` k = 2..N): a row of face-up prizes, topped up from the pile
to k cards at the start of each round (while the pile lasts); every player bids one card.
The single highest bidder takes one prize of their choice from the row. On a tie nobody
takes one: under ``discard`` the most recently revealed prize still in the row is set
aside, under ``carry`` the row stays as it is. The game has N rounds; what is left in the
row and the pile at the end is unclaimed, so scores + unclaimed = N(N+1)/2.

Open prizes, the other reading (``open_takes`` = ``each``, ``[OpenTakes "each"]``): the
Dutch text says "winners choose which they take in order of bid strength". Read so, every
bidder takes one prize of their choice, strongest bid first, while the row lasts. Bidders
who share a strength take nothing; when the shared strength is the highest, the round is a
tie and, under ``discard``, the most recently revealed prize still in the row is set aside
before the others choose. A round's takes are given one per seat (None: nothing taken).

The two variants do not combine (a profile with both is refused): the rules text gives
no way to reconcile "the unrevealed pile is not in play" with "the pile is unclaimed".

:meth:`Game.play_round` checks legality and raises a typed :class:`IllegalRound`;
:meth:`Game.problems` lists every problem of a round without raising (the validator
uses it to report them all).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from gops_records.games.gops.cards import MAX_RANK, Seat, rank_name
from gops_records.games.gops.errors import (
    BidCardRepeated,
    CardNotInHand,
    GameOver,
    IllegalRound,
    PrizeNotInRow,
    PrizeOrderBroken,
    PrizeRepeated,
    RuleError,
    TakeMismatch,
    UnknownCard,
    WrongBidCount,
    WrongRevealCount,
)

MAX_PLAYERS = 4
#: The most cards a bid may have (``[BidCards "3"]``).
MAX_BID_CARDS = 3


class TieRule(StrEnum):
    """What happens to the pool when the highest bid is shared."""

    CARRY = "carry"
    DISCARD = "discard"


class OpenTakes(StrEnum):
    """Who takes a prize from an open row: the round's single highest bidder (the reading
    built first), or every bidder in order of bid strength (the Dutch text's plural)."""

    WINNER = "winner"
    EACH = "each"


class PrizeOrder(StrEnum):
    """How the prize pile is ordered: shuffled, or fixed A..K or K..A."""

    SHUFFLED = "shuffled"
    ASCENDING = "ascending"
    DESCENDING = "descending"


#: The tie rules and prize orders as written in records, in their enums' order (the
#: codes the replay's arrays use).
TIE_RULES = tuple(rule.value for rule in TieRule)
PRIZE_ORDERS = tuple(order.value for order in PrizeOrder)
OPEN_TAKES = tuple(reading.value for reading in OpenTakes)


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The variant a game is played under. The defaults are the club's standard game.

    ``bid_cards``: cards in every bid (1 to 3, at most ``cards``); ``open_prizes``: the
    size of the row of face-up prizes (2 to ``cards``), or None for one prize a round;
    ``open_takes``: who takes from the row (:class:`OpenTakes`; ``each`` needs open prizes).
    """

    cards: int = 13
    players: int = 2
    tie_rule: TieRule = TieRule.CARRY
    prize_order: PrizeOrder = PrizeOrder.SHUFFLED
    bid_cards: int = 1
    open_prizes: int | None = None
    open_takes: OpenTakes = OpenTakes.WINNER

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
        if not 1 <= self.bid_cards <= MAX_BID_CARDS:
            raise RuleError(f"bid cards must be 1..{MAX_BID_CARDS}, not {self.bid_cards}")
        if self.bid_cards > self.cards:
            raise RuleError(f"a {self.cards}-card game cannot bid {self.bid_cards} cards "
                            "a round")
        if self.open_prizes is not None:
            if not 2 <= self.open_prizes <= self.cards:
                raise RuleError(f"open prizes must be 2..{self.cards} (the cards per suit), "
                                f"not {self.open_prizes}")
            if self.bid_cards > 1:
                raise RuleError("open prizes and bids of several cards do not combine: "
                                "choose one of the two variants")
        try:
            object.__setattr__(self, "open_takes", OpenTakes(self.open_takes))
        except ValueError:
            raise RuleError(f"open takes must be winner or each, not {self.open_takes!r}"
                            ) from None
        if self.open_takes is OpenTakes.EACH and self.open_prizes is None:
            raise RuleError("open takes 'each' is a reading of open prizes: it needs "
                            "open_prizes (a row of 2 or more)")

    @property
    def total_points(self) -> int:
        """Value of the whole prize pile, N(N+1)/2 (91 for 13 cards)."""
        return self.cards * (self.cards + 1) // 2

    @property
    def rounds(self) -> int:
        """Rounds of a whole game: N, or floor(N / k) with bids of k cards."""
        return self.cards // self.bid_cards

    @property
    def is_open(self) -> bool:
        """Whether prizes are laid out in an open row (``open_prizes``)."""
        return self.open_prizes is not None

    @property
    def each_takes(self) -> bool:
        """Whether every bidder takes a prize from the row (``open_takes`` each)."""
        return self.open_takes is OpenTakes.EACH

    def fixed_prize(self, index: int) -> int | None:
        """The prize a fixed order demands as the ``index``-th revealed (1-based: in round
        ``index`` when one prize is revealed a round); None if shuffled."""
        if self.prize_order is PrizeOrder.ASCENDING:
            return index
        if self.prize_order is PrizeOrder.DESCENDING:
            return self.cards + 1 - index
        return None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What one round did: the prize, the bids' strengths, the pool on offer, and who took
    it (None on a tie).

    ``bids`` is each seat's strength (its card in a game of one-card bids) and ``cards``
    each seat's cards. In an open-prize round (``open_row``) ``prize`` is the prize taken
    (0: none), ``pool_cards`` the row on offer after the top-up (in the order revealed),
    ``revealed`` what the top-up revealed, and ``discarded`` the prize a tie set aside
    under the discard rule; ``pool_value`` is then the value taken, as in the store.
    With ``[OpenTakes "each"]`` ``takes`` holds each seat's prize taken (None: nothing),
    and ``taken`` the single highest bidder's.
    """

    round_no: int
    prize: int
    bids: tuple[int, ...]
    pool_cards: tuple[int, ...]
    carried_in: int
    winner: int | None
    cards: tuple[tuple[int, ...], ...] = ()
    revealed: tuple[int, ...] = ()
    taken: int | None = None
    discarded: int | None = None
    open_row: bool = False
    takes: tuple[int | None, ...] = ()

    @property
    def pool_value(self) -> int:
        """What the round's winner takes (or a tie leaves): the pool's value; with open
        prizes the prize taken (0 on a tie)."""
        return (self.taken or 0) if self.open_row else sum(self.pool_cards)

    @property
    def tie(self) -> bool:
        return self.winner is None

    @property
    def gains(self) -> tuple[int, ...]:
        """The points each seat scored in the round."""
        if self.takes:
            return tuple(t or 0 for t in self.takes)
        return tuple(self.pool_value if seat == self.winner else 0
                     for seat in range(len(self.bids)))


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


def choosing_order(strengths: Sequence[int]) -> list[list[int]]:
    """The seats grouped by bid strength, strongest first, each group in seat order: the
    order in which bidders choose under ``[OpenTakes "each"]`` (a group of two or more
    shares its strength and takes nothing)."""
    groups: dict[int, list[int]] = {}
    for seat, strength in enumerate(strengths):
        groups.setdefault(strength, []).append(seat)
    return [groups[s] for s in sorted(groups, reverse=True)]


#: What each seat takes from the row under ``[OpenTakes "each"]``: a prize, or None.
Takes = Sequence[int | None]


def takes_in_order(row: Sequence[int], strengths: Sequence[int], tie_rule: TieRule,
                   choose: Callable[[int, tuple[int, ...]], int]) -> tuple[int | None, ...]:
    """Each seat's take under ``[OpenTakes "each"]``, asking ``choose(seat, row_left)``
    for the prize each chooser takes, strongest bid first (``row`` is the row after the
    round's top-up, in the order revealed). A top tie under ``discard`` first sets aside
    the most recently revealed prize; tied seats and seats that find the row empty take
    None. Raises ValueError when ``choose`` names a prize not in the row left."""
    left = list(row)
    takes: list[int | None] = [None] * len(strengths)
    for place, group in enumerate(choosing_order(strengths)):
        if len(group) > 1:
            if place == 0 and TieRule(tie_rule) is TieRule.DISCARD and left:
                left.pop()
            continue
        if left:
            pick = choose(group[0], tuple(left))
            if pick not in left:
                raise ValueError(f"seat {group[0]} chose {pick}, which is not in the row "
                                 f"{left}")
            left.remove(pick)
            takes[group[0]] = pick
    return tuple(takes)


#: A bid as callers give it: one card, or the cards of a bid of several.
Bid = int | Sequence[int]


def bid_cards_of(bid: Bid) -> tuple[int, ...]:
    """The cards of a bid given as one card or as several."""
    return (bid,) if isinstance(bid, int) else tuple(bid)


def bid_text(cards: Sequence[int]) -> str:
    """A bid as messages show it: ``9`` or ``9+4``."""
    return "+".join(_show(c) for c in cards)


class Game:
    """One game's state. Hands and revealed prizes are bit masks (bit r = rank r).

    ``pool`` and ``carried`` are the classic pool on offer; ``row`` is the open prizes'
    row (in the order revealed).
    """

    __slots__ = (
        "profile", "round_no", "hands", "revealed", "n_revealed", "pool", "carried", "row",
        "captured", "scores", "unclaimed", "history",
    )

    def __init__(self, profile: RuleProfile | None = None):
        self.profile = profile or RuleProfile()
        full = ((1 << self.profile.cards) - 1) << 1  # bits 1..N
        self.round_no = 0
        self.hands = [full] * self.profile.players
        self.revealed = 0
        self.n_revealed = 0
        self.pool: list[int] = []  # prize cards on offer (carried ones first)
        self.carried = 0
        self.row: list[int] = []  # open prizes: the face-up row, in the order revealed
        self.captured: list[list[int]] = [[] for _ in range(self.profile.players)]
        self.scores = [0] * self.profile.players
        self.unclaimed = 0
        self.history: list[RoundResult] = []

    # -- queries -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.round_no >= self.profile.rounds

    def hand(self, seat: int) -> list[int]:
        """The ranks seat ``seat`` still holds, ascending."""
        mask = self.hands[seat]
        return [r for r in range(1, self.profile.cards + 1) if mask >> r & 1]

    def prizes_left(self) -> list[int]:
        """The prize ranks not yet revealed, ascending."""
        return [r for r in range(1, self.profile.cards + 1) if not self.revealed >> r & 1]

    def to_reveal(self) -> int:
        """How many prizes the next round reveals: one, or for open prizes as many as fill
        the row to its size while the pile lasts (0 once the game is over)."""
        p = self.profile
        if self.is_over:
            return 0
        if p.open_prizes is None:
            return 1
        return max(0, min(p.open_prizes - len(self.row), p.cards - self.n_revealed))

    def outcome(self) -> Outcome:
        """The result so far; ``winner`` is only set once the game is finished."""
        scores = tuple(self.scores)
        finished = self.is_over
        return Outcome(scores, self.unclaimed, winner_of(scores) if finished else None, finished)

    # -- legality ------------------------------------------------------------------

    def problems(self, prize: int | Sequence[int], bids: Sequence[Bid],
                 taken: int | Takes | None = None) -> list[IllegalRound]:
        """Every reason the round is illegal now; empty when it is legal.

        ``prize`` is the prize revealed, or in an open-prize game the prizes the round's
        top-up reveals (a sequence, possibly empty); ``bids`` one bid per seat (a card, or
        the cards of a bid of several); ``taken`` the prize an open-prize round's winner
        takes (None on a tie), or with ``[OpenTakes "each"]`` one take per seat.
        """
        p = self.profile
        if self.is_over:
            return [GameOver(f"the game is over: all {p.rounds} rounds have been played")]
        n = self.round_no + 1
        if p.open_prizes is not None:
            found, row = self._reveal_problems(n, bid_cards_of(prize))
        else:
            found = self._prize_problems(n, int(prize))
            row = []
        if len(bids) != p.players:
            noun = "bid" if len(bids) == 1 else "bids"
            found.append(WrongBidCount(
                f"round {n} has {len(bids)} {noun}; {p.players} players need {p.players}"))
            return found
        found += self._bid_problems(bids)
        strengths = [sum(bid_cards_of(b)) for b in bids]
        if p.each_takes:
            found += self._each_take_problems(n, strengths, row, taken)
        elif p.open_prizes is not None:
            found += self._take_problems(n, strengths, row, taken)
        return found

    def _prize_problems(self, n: int, prize: int) -> list[IllegalRound]:
        p = self.profile
        if not 1 <= prize <= p.cards:
            return [UnknownCard(f"prize {_show(prize)} is not in a {p.cards}-card suit",
                                card=prize)]
        if self.revealed >> prize & 1:
            return [PrizeRepeated(f"prize {rank_name(prize)} was already revealed", card=prize)]
        expected = p.fixed_prize(n)
        if expected is not None and prize != expected:
            return [PrizeOrderBroken(
                f"prize order is {p.prize_order.value}: round {n} reveals "
                f"{rank_name(expected)}, not {rank_name(prize)}", card=prize)]
        return []

    def _reveal_problems(self, n: int, revealed: tuple[int, ...],
                         ) -> tuple[list[IllegalRound], list[int]]:
        """Problems of an open-prize round's top-up, and the row after it."""
        p = self.profile
        found: list[IllegalRound] = []
        want = self.to_reveal()
        if len(revealed) != want:
            found.append(WrongRevealCount(
                f"round {n} reveals {len(revealed)} {_prizes(len(revealed))}; the top-up "
                f"reveals {want}"))
        row = list(self.row)
        seen = self.revealed
        for i, prize in enumerate(revealed):
            if not 1 <= prize <= p.cards:
                found.append(UnknownCard(
                    f"prize {_show(prize)} is not in a {p.cards}-card suit", card=prize))
                continue
            if seen >> prize & 1:
                found.append(PrizeRepeated(f"prize {rank_name(prize)} was already revealed",
                                           card=prize))
                continue
            seen |= 1 << prize
            expected = p.fixed_prize(self.n_revealed + i + 1)
            if expected is not None and prize != expected:
                found.append(PrizeOrderBroken(
                    f"prize order is {p.prize_order.value}: the next prize revealed is "
                    f"{rank_name(expected)}, not {rank_name(prize)}", card=prize))
            row.append(prize)
        return found, row

    def _bid_problems(self, bids: Sequence[Bid]) -> list[IllegalRound]:
        p = self.profile
        found: list[IllegalRound] = []
        for seat, bid in enumerate(bids):
            name = Seat.at(seat).value
            cards = bid_cards_of(bid)
            if len(cards) != p.bid_cards:
                found.append(WrongBidCount(
                    f"{name} bids {len(cards)} {_cards(len(cards))} ({bid_text(cards)}); "
                    f"bids in this game are {p.bid_cards} {_cards(p.bid_cards)}", seat=seat))
            for j, card in enumerate(cards):
                shown = rank_name(card) if 1 <= card <= MAX_RANK else str(card)
                if not 1 <= card <= p.cards:
                    found.append(UnknownCard(
                        f"{name} bids {_show(card)}, which is not in a {p.cards}-card suit",
                        seat=seat, card=card))
                elif card in cards[:j]:
                    found.append(BidCardRepeated(
                        f"{name} bids {bid_text(cards)}: {shown} twice in one bid",
                        seat=seat, card=card))
                elif not self.hands[seat] >> card & 1:
                    found.append(CardNotInHand(
                        f"{name} bids {shown}, already spent earlier", seat=seat, card=card))
        return found

    def _take_problems(self, n: int, strengths: list[int], row: list[int],
                       taken: int | None) -> list[IllegalRound]:
        winner = resolve(strengths)
        if winner is None and taken is not None:
            return [TakeMismatch(f"round {n} is a tie: nobody takes a prize (write -), "
                                 f"not {_show(taken)}", card=taken)]
        if winner is not None and taken is None:
            return [TakeMismatch(f"{Seat.at(winner).value} wins round {n}: write the prize "
                                 "taken, not -", seat=winner)]
        if taken is not None and taken not in row:
            return [PrizeNotInRow(f"{Seat.at(winner).value} takes {_show(taken)}, which is "
                                  f"not in the row ({' '.join(map(_show, row))})",
                                  seat=winner, card=taken)]
        return []

    def _each_take_problems(self, n: int, strengths: list[int], row: list[int],
                            taken: Takes | None) -> list[IllegalRound]:
        """Problems of the takes of a round where every bidder chooses, strongest first:
        each seat with a strength of its own takes a prize still in the row at its turn
        while the row lasts; tied seats, and seats whose turn finds the row empty, take
        nothing (``-``)."""
        takes = _takes_of(taken, len(strengths))
        if takes is None:
            return [TakeMismatch(
                f"round {n} gives {_count_of(taken)} prizes taken; with every bidder choosing "
                f"([OpenTakes \"each\"]) each of the {len(strengths)} seats writes one "
                "(a prize, or - for none)")]
        found: list[IllegalRound] = []
        left = list(row)
        taken_by: dict[int, int] = {}
        for place, group in enumerate(choosing_order(strengths)):
            if len(group) > 1:
                if place == 0 and self.profile.tie_rule is TieRule.DISCARD and left:
                    left.pop()
                for seat in group:
                    if takes[seat] is not None:
                        found.append(TakeMismatch(
                            f"{Seat.at(seat).value} shares the bid {_show(strengths[seat])} "
                            f"in round {n}: a shared bid takes no prize; write -",
                            seat=seat, card=takes[seat]))
                continue
            seat = group[0]
            take = takes[seat]
            if not left:
                if take is not None:
                    found.append(TakeMismatch(
                        f"{Seat.at(seat).value} chooses when the row is empty in round {n}: "
                        f"write -, not {_show(take)}", seat=seat, card=take))
                continue
            if take is None:
                found.append(TakeMismatch(
                    f"{Seat.at(seat).value} chooses with {_show(strengths[seat])} in round "
                    f"{n}: write the prize taken, not -", seat=seat))
                left.pop()  # a prize still goes; the most recent stands in for it
                continue
            if take not in left:
                before = taken_by.get(take)
                why = (f"{Seat.at(before).value} took it first" if before is not None
                       else f"the row is {' '.join(map(_show, left))}")
                found.append(PrizeNotInRow(
                    f"{Seat.at(seat).value} takes {_show(take)}, which is not in the row "
                    f"({why})", seat=seat, card=take))
                continue
            left.remove(take)
            taken_by[take] = seat
        return found

    # -- playing -------------------------------------------------------------------

    def play_round(self, prize: int | Sequence[int], bids: Sequence[Bid],
                   taken: int | Takes | None = None) -> RoundResult:
        """Reveal ``prize`` (or, open prizes, the prizes of the top-up), resolve ``bids``
        (seat order) and return what happened (see :meth:`problems` for the arguments).

        Raises the first :class:`IllegalRound` subclass that applies; the state is
        unchanged when it raises.
        """
        found = self.problems(prize, bids, taken)
        if found:
            raise found[0]
        return self.play_unchecked(prize, tuple(bids), taken)

    def skip_round(self) -> None:
        """Count a round as played without applying it (a validator skipping an illegal one).

        Nothing is revealed, spent or scored; only the round number moves on, so later
        rounds keep their numbers and a tie in the real last round is still unclaimed.
        """
        self.round_no += 1

    def play_unchecked(self, prize: int | Sequence[int], bids: tuple[Bid, ...],
                       taken: int | Takes | None = None) -> RoundResult:
        """Apply a round WITHOUT checking it: the fast path for callers that already know
        it is legal (the validator after :meth:`problems`, bots that bid from their hand).

        An illegal round corrupts the state silently; use :meth:`play_round` otherwise.
        """
        cards = tuple(bid_cards_of(b) for b in bids)
        strengths = tuple(sum(c) for c in cards)
        for seat, bid in enumerate(cards):
            for card in bid:
                self.hands[seat] &= ~(1 << card)
        self.round_no += 1
        winner = resolve(strengths)
        if self.profile.each_takes:
            result = self._play_each(bid_cards_of(prize), strengths, cards, winner,
                                     _takes_of(taken, len(strengths)) or ())
        elif self.profile.open_prizes is not None:
            result = self._play_open(bid_cards_of(prize), strengths, cards, winner, taken)
        else:
            result = self._play_pool(int(prize), strengths, cards, winner)
        self.history.append(result)
        return result

    def _play_pool(self, prize: int, strengths: tuple[int, ...],
                   cards: tuple[tuple[int, ...], ...], winner: int | None) -> RoundResult:
        self.revealed |= 1 << prize
        self.n_revealed += 1
        carried_in = self.carried
        self.pool.append(prize)
        pool = tuple(self.pool)
        value = carried_in + prize
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
        return RoundResult(self.round_no, prize, strengths, pool, carried_in, winner, cards)

    def _play_open(self, revealed: tuple[int, ...], strengths: tuple[int, ...],
                   cards: tuple[tuple[int, ...], ...], winner: int | None,
                   taken: int | None) -> RoundResult:
        for prize in revealed:
            self.revealed |= 1 << prize
            self.n_revealed += 1
            self.row.append(prize)
        row = tuple(self.row)
        discarded = None
        if winner is not None:
            self.row.remove(taken)
            self.scores[winner] += taken
            self.captured[winner].append(taken)
        elif self.profile.tie_rule is TieRule.DISCARD and self.row:
            discarded = self.row.pop()  # the most recently revealed still in the row
            self.unclaimed += discarded
        if self.is_over:  # what is left in the row and the pile is not won by anyone
            self.unclaimed += sum(self.row) + sum(self.prizes_left())
        return RoundResult(self.round_no, taken or 0, strengths, row, 0, winner, cards,
                           revealed, taken, discarded, True)

    def _play_each(self, revealed: tuple[int, ...], strengths: tuple[int, ...],
                   cards: tuple[tuple[int, ...], ...], winner: int | None,
                   takes: Sequence[int | None]) -> RoundResult:
        for prize in revealed:
            self.revealed |= 1 << prize
            self.n_revealed += 1
            self.row.append(prize)
        row = tuple(self.row)
        discarded = None
        if winner is None and self.profile.tie_rule is TieRule.DISCARD and self.row:
            discarded = self.row.pop()
            self.unclaimed += discarded
        for group in choosing_order(strengths):
            take = takes[group[0]] if len(group) == 1 else None
            if take is not None:
                self.row.remove(take)
                self.scores[group[0]] += take
                self.captured[group[0]].append(take)
        if self.is_over:
            self.unclaimed += sum(self.row) + sum(self.prizes_left())
        top = takes[winner] if winner is not None else None
        return RoundResult(self.round_no, top or 0, strengths, row, 0, winner, cards,
                           revealed, top, discarded, True, tuple(takes))


def _takes_of(taken: int | Takes | None, players: int) -> tuple[int | None, ...] | None:
    """One take per seat, or None when ``taken`` is not a sequence of ``players`` takes."""
    if taken is None or isinstance(taken, int) or len(taken) != players:
        return None
    return tuple(taken)


def _count_of(taken: int | Takes | None) -> int:
    if taken is None:
        return 0
    return 1 if isinstance(taken, int) else len(taken)


def _show(value: int) -> str:
    return rank_name(value) if 1 <= value <= MAX_RANK else str(value)


def _cards(n: int) -> str:
    return "card" if n == 1 else "cards"


def _prizes(n: int) -> str:
    return "prize" if n == 1 else "prizes"


def play_game(profile: RuleProfile, prizes: Sequence[int | Sequence[int]],
              bids: Sequence[Sequence[Bid]],
              taken: Sequence[int | Takes | None] | None = None) -> Game:
    """Play a whole sequence of rounds (checked) and return the finished state; ``taken``
    gives each round's prize taken in an open-prize game (each seat's takes with
    ``[OpenTakes "each"]``)."""
    game = Game(profile)
    takes = list(taken) if taken is not None else [None] * len(prizes)
    for prize, round_bids, take in zip(prizes, bids, takes, strict=True):
        game.play_round(prize, round_bids, take)
    return game
