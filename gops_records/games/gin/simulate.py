"""Simulated Gin Rummy club play: bots play hands, games to 100 and matches; ``.gin`` out.

Layers, each usable on its own:

- :func:`play_hand` deals a shuffled pack and lets two bots play one hand through
  :class:`~gops_records.games.gin.rules.GinHand` (each chooses among its legal actions, see
  :mod:`gops_records.games.gin.bots`); it returns the result and the hand's full record.
- :func:`play_match` plays games to 100 (:class:`~gops_records.games.gin.game.GinGame`: the
  winner of a hand deals the next, a drawn hand is dealt again) until one player has won
  two games (:class:`~gops_records.games.gin.game.GinMatch`); every hand carries its ``Match``,
  ``Game`` and ``Hand`` tags, so :func:`gops_records.games.gin.grouping.group_hands` finds the
  games and matches again.
- :func:`simulate` plays club evenings (``Event``, ``Site``, ``Date``) of matches
  between named players of :data:`GIN_ROSTER` (a name always plays the same style);
  :func:`write_simulation` writes them as ``.gin`` through the canonical writer an
  evening at a time.
- :func:`broken_hands` makes hands with one deliberate defect each (a :class:`GinDefect`,
  checked to give exactly its validation code), for the quarantine.

A run asks for a number of games (:attr:`Budget.games`) or of hands
(:attr:`Budget.hands`); the match or game it stops in may be left unfinished. The club
frame (rosters, the plan of evenings, seeds, worker processes) is the one every game
shares, :mod:`gops_records.core.clubs`: each evening draws from its own
``random.Random`` derived from the seed, so the same arguments always give the same
text, whatever the number of worker processes.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from operator import attrgetter
from typing import TextIO

from gops_records.core.clubs import (
    DEFAULT_START,
    Club,
    Roster,
    Seeding,
    plan_slots,
    shuffled_rounds,
    tag_date,
    write_evenings,
)
from gops_records.games.gin.bots import GIN_BOTS, GinBot, GinStyle, Seen
from gops_records.games.gin.cards import CARDS, Card, cards_text, parse_cards
from gops_records.games.gin.game import GinGame, GinMatch
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.notation import (
    DrawKind,
    HandRecord,
    OutWord,
    ResponseRecord,
    TurnRecord,
    write_hand,
)
from gops_records.games.gin.replay import read_hands
from gops_records.games.gin.rules import (
    DEFAULT_PROFILE,
    Action,
    BigGin,
    Discard,
    DrawPile,
    DrawStock,
    Gin,
    GinHand,
    GinProfile,
    HandResult,
    Knock,
    Pass,
    Phase,
    Respond,
    Seat,
)

# -- players ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GinPlayer:
    """A named Gin Rummy player and the style it always plays."""

    name: str
    style: GinStyle

    @property
    def bot(self) -> GinBot:
        return GIN_BOTS[self.style]


def _roster() -> tuple[GinPlayer, ...]:
    names = {
        GinStyle.KNOCKER: ("Bruno Keller", "Greta Olsen", "Tom Okafor"),
        GinStyle.GIN_HUNTER: ("Clara Nowak", "Hana Sato", "Jonas Berg"),
        GinStyle.PILE_TAKER: ("Karin Vos", "Marco Rossi", "Pablo Ortega"),
        GinStyle.RANDOM: ("Anna de Vries", "Ines Moreau", "Sam Whitfield"),
    }
    return tuple(GinPlayer(n, s) for s, group in names.items() for n in group)


#: The club's Gin Rummy players. The name-to-style binding is fixed (it does not depend
#: on the seed), so a name plays the same way in every simulated file.
GIN_ROSTER: tuple[GinPlayer, ...] = _roster()
_ROSTER = Roster(GIN_ROSTER, attrgetter("style"), GinStyle, "Gin Rummy bot")


def gin_player(name: str) -> GinPlayer:
    """The roster player called ``name`` (KeyError if there is none)."""
    return _ROSTER.member(name)


def gin_roster(bots: Iterable[str] | None = None) -> list[GinPlayer]:
    """The roster players whose style is among ``bots`` (everyone for None); an unknown
    name is an :class:`~gops_records.core.clubs.UnknownBotError`."""
    return _ROSTER.of(bots)


#: Where the Gin Rummy evenings happen (a weekday each, so dates never go back).
GIN_CLUBS: tuple[Club, ...] = (
    Club("Thursday Club Gin", "De Gouden Leeuw, Utrecht", 3),
    Club("Gin Society", "The Eagle, Cambridge", 4),
)


# -- one hand --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand played to its end: the engine's result and the full record."""

    record: HandRecord
    result: HandResult


def _turn(draw: Action, out: Action) -> TurnRecord:
    kind = DrawKind.STOCK if isinstance(draw, DrawStock) else DrawKind.PILE
    card = draw.card  # type: ignore[union-attr]
    match out:
        case Knock(discard, melds, unmatched):
            return TurnRecord(kind, card, discard, OutWord.KNOCK, melds, unmatched)
        case Gin(discard, melds):
            return TurnRecord(kind, card, discard, OutWord.GIN, melds)
        case BigGin(melds):
            return TurnRecord(kind, card, None, OutWord.BIG_GIN, melds)
        case Discard(discard):
            return TurnRecord(kind, card, discard)
    raise TypeError(f"not a discard or a way out: {out!r}")  # pragma: no cover


def play_hand(bots: Sequence[GinBot], dealer: Seat, rng: random.Random,
              profile: GinProfile = DEFAULT_PROFILE,
              tags: Sequence[tuple[str, str]] = ()) -> PlayedHand:
    """Shuffle, deal and play one hand, ``bots[0]`` in seat A and ``bots[1]`` in seat B.

    The non-dealer gets the first 10 cards of the shuffled pack, the dealer the next 10,
    the 21st is the upcard and the rest is the stock, top first. Every action is one of
    the engine's legal actions, chosen by the bot to play; a stock draw is the stock's top
    card. ``tags`` go in front of the hand's own (``Dealer``, ``Runs`` unless circular,
    ``DealA``, ``DealB``, ``Upcard``)."""
    pack = list(range(52))
    rng.shuffle(pack)
    first, second, upcard, stock = pack[:10], pack[10:20], pack[20], pack[21:]
    deal = {dealer.other: first, dealer: second}
    hand = GinHand(dealer, tuple(deal[Seat.A]), tuple(deal[Seat.B]), upcard, profile)
    by_seat = {Seat.A: bots[0], Seat.B: bots[1]}
    turns: list[TurnRecord] = []
    response = None
    drawn: Action | None = None
    discarded = {Seat.A: 0, Seat.B: 0}
    top = 0
    while hand.phase is not Phase.OVER:
        seat = hand.to_play
        seen = Seen.of(hand, discarded[seat])
        action = by_seat[seat].choose(seen, rng)
        if action not in seen.actions:
            raise ValueError(f"bot {by_seat[seat].name} chose {action!r}, which is not "
                             "among its legal actions")
        if isinstance(action, DrawStock):
            action = DrawStock(CARDS[stock[top]])
            top += 1
        hand.apply(seat, action)
        if isinstance(action, Pass):
            turns.append(TurnRecord(DrawKind.PASS))
        elif isinstance(action, DrawStock | DrawPile):
            drawn = action
        elif isinstance(action, Respond):
            response = ResponseRecord(seat, action.layoffs, action.melds, action.unmatched)
        else:
            assert drawn is not None
            turn = _turn(drawn, action)
            if turn.discard is not None:
                discarded[seat] |= 1 << turn.discard
            turns.append(turn)
    own = [("Dealer", dealer.value)]
    if profile.runs is not RunOrder.CIRCULAR:
        own.append(("Runs", profile.runs.value))
    own += [("DealA", cards_text(deal[Seat.A])), ("DealB", cards_text(deal[Seat.B])),
            ("Upcard", CARDS[upcard].text)]
    result = hand.result
    assert result is not None
    return PlayedHand(HandRecord((*tags, *own), tuple(turns), response, result.scores),
                      result)


# -- games and matches -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a run plays: a number of games to 100, or of hands (exactly one is set)."""

    games: int | None = None
    hands: int | None = None

    def __post_init__(self) -> None:
        if (self.games is None) == (self.hands is None):
            raise ValueError("a budget counts games or hands, not both or neither")

    @property
    def size(self) -> int:
        return self.games if self.games is not None else self.hands  # type: ignore[return-value]


@dataclass
class _Left:
    """What is left of an evening's share of the budget as it is played."""

    games: int | None
    hands: int | None

    @property
    def done(self) -> bool:
        return self.games == 0 or self.hands == 0


def play_match(players: Sequence[GinPlayer], name: str, rng: random.Random,
               profile: GinProfile = DEFAULT_PROFILE,
               tags: Sequence[tuple[str, str]] = (),
               left: _Left | None = None) -> Iterator[PlayedHand]:
    """The hands of a match between ``players`` (A, B), in order, until one has won two
    games; each game's first dealer is drawn at random. ``left`` (games or hands still to
    play) can cut it short."""
    left = left or _Left(None, None)
    match = GinMatch(profile)
    bots = [p.bot for p in players]
    base = (*tags, ("Match", name))
    number = 0
    while match.winner is None and not left.done:
        number += 1
        game = GinGame(rng.choice([Seat.A, Seat.B]), profile)
        while not game.over and not left.done:
            hand_tags = (*base, ("Game", str(number)), ("Hand", str(len(game.hands) + 1)),
                         ("A", players[0].name), ("B", players[1].name))
            played = play_hand(bots, game.next_dealer, rng, profile, hand_tags)
            game.add(played.result)
            if left.hands is not None:
                left.hands -= 1
            yield played
        if game.over:
            match.add(game.score())
            if left.games is not None:
                left.games -= 1
        else:
            return


# -- deliberately broken hands ---------------------------------------------------------


class GinDefect(StrEnum):
    """The mistakes :func:`break_hand` puts into a hand; each gives one validation code."""

    SYNTAX = "syntax"
    RUNS = "runs"
    SHORT_DEAL = "short-deal"
    WRONG_SEAT = "wrong-seat"
    SEEN_CARD = "seen-card"
    PILE_TOP = "pile-top"
    NOT_HELD = "not-held"
    JUST_TAKEN = "just-taken"
    WRONG_POINTS = "wrong-points"
    CUT_SHORT = "cut-short"

    @property
    def code(self) -> str:
        """The validation code the defect produces (and the only one)."""
        return _DEFECT_CODES[self]


_DEFECT_CODES = {
    GinDefect.SYNTAX: "syntax", GinDefect.RUNS: "tag-value", GinDefect.SHORT_DEAL: "deal",
    GinDefect.WRONG_SEAT: "turn-order", GinDefect.SEEN_CARD: "card-seen",
    GinDefect.PILE_TOP: "pile-top", GinDefect.NOT_HELD: "card-not-in-hand",
    GinDefect.JUST_TAKEN: "discard-just-taken", GinDefect.WRONG_POINTS: "result-mismatch",
    GinDefect.CUT_SHORT: "incomplete",
}


@dataclass(frozen=True, slots=True)
class BrokenHand:
    """The text of one hand with a known defect, and what is wrong with it."""

    defect: GinDefect
    text: str
    detail: str

    @property
    def code(self) -> str:
        return self.defect.code


def _with_turn(record: HandRecord, index: int, turn: TurnRecord) -> HandRecord:
    turns = list(record.turns)
    turns[index] = turn
    return replace(record, turns=tuple(turns))


def _line_of_turn(text: str, number: int) -> tuple[list[str], int]:
    lines = text.split("\n")
    return lines, next(i for i, line in enumerate(lines) if line.startswith(f"{number}. "))


def _held(record: HandRecord, upto: int) -> tuple[set[Card], set[Card]]:
    """(the cards the player of turn ``upto`` holds before it, every card shown so far)."""
    tags = dict(record.tags)
    dealer = Seat(tags["Dealer"])
    hands = {Seat.A: set(parse_cards(tags["DealA"])), Seat.B: set(parse_cards(tags["DealB"]))}
    pile = [parse_cards(tags["Upcard"])[0]]
    shown = set(hands[Seat.A] | hands[Seat.B] | {pile[0]})
    seat = dealer.other
    for turn in record.turns[:upto]:
        if turn.draw is DrawKind.STOCK:
            hands[seat].add(turn.card)
            shown.add(turn.card)
        elif turn.draw is DrawKind.PILE:
            hands[seat].add(pile.pop())
        if turn.discard is not None:
            hands[seat].discard(turn.discard)
            pile.append(turn.discard)
        seat = seat.other
    return hands[seat], shown


def break_hand(played: PlayedHand, defect: GinDefect, rng: random.Random) -> BrokenHand | None:
    """The text of ``played`` with ``defect`` put in, or None when this hand cannot take it
    (no pile draw to spoil, say). The caller checks the code (:func:`broken_hands`)."""
    record = played.record
    turns = record.turns
    plays = [i for i, t in enumerate(turns) if t.draw is not DrawKind.PASS]
    if not plays:
        return None
    k = rng.choice(plays)
    if defect is GinDefect.SYNTAX:
        lines, i = _line_of_turn(write_hand(record), k + 1)
        lines[i] = f"{k + 1}," + lines[i][len(f"{k + 1}."):]
        return BrokenHand(defect, "\n".join(lines),
                          f"turn {k + 1} is numbered '{k + 1},' instead of '{k + 1}.'")
    if defect is GinDefect.RUNS:
        tags = tuple((n, v) for n, v in record.tags if n != "Runs") + (("Runs", "wrap"),)
        return BrokenHand(defect, write_hand(replace(record, tags=tags)),
                          '[Runs "wrap"]: not circular, ace-high or ace-low')
    if defect is GinDefect.SHORT_DEAL:
        tags = tuple((n, " ".join(v.split()[:9]) if n == "DealA" else v)
                     for n, v in record.tags)
        return BrokenHand(defect, write_hand(replace(record, tags=tags)),
                          "[DealA] holds 9 cards")
    if defect is GinDefect.WRONG_SEAT:
        lines, i = _line_of_turn(write_hand(record), k + 1)
        number, seat, rest = lines[i].split(" ", 2)
        other = "A" if seat == "B" else "B"
        lines[i] = f"{number} {other} {rest}"
        return BrokenHand(defect, "\n".join(lines),
                          f"turn {k + 1} is written for {other}, {seat} is to play")
    if defect is GinDefect.SEEN_CARD:
        stocks = [i for i in plays if turns[i].draw is DrawKind.STOCK]
        if not stocks:
            return None
        k = rng.choice(stocks)
        held, _ = _held(record, k)
        card = rng.choice(sorted(held))
        broken = _with_turn(record, k, replace(turns[k], card=card))
        return BrokenHand(defect, write_hand(broken),
                          f"turn {k + 1} draws {card} from the stock, a card already held")
    if defect in (GinDefect.PILE_TOP, GinDefect.JUST_TAKEN):
        piles = [i for i in plays if turns[i].draw is DrawKind.PILE and turns[i].card
                 is not None and turns[i].discard is not None]
        if not piles:
            return None
        k = rng.choice(piles)
        turn = turns[k]
        if defect is GinDefect.JUST_TAKEN:
            broken = _with_turn(record, k, replace(turn, discard=turn.card, out=None,
                                                   melds=(), unmatched=()))
            return BrokenHand(defect, write_hand(broken),
                              f"turn {k + 1} discards {turn.card}, just taken from the pile")
        held, _ = _held(record, k)
        card = rng.choice(sorted(held))
        broken = _with_turn(record, k, replace(turn, card=card))
        return BrokenHand(defect, write_hand(broken),
                          f"turn {k + 1} names {card} as the pile's top, not {turn.card}")
    if defect is GinDefect.NOT_HELD:
        turn = turns[k]
        if turn.discard is None:
            return None
        held, _ = _held(record, k)
        taken = {turn.card} if turn.card is not None else set()
        card = rng.choice(sorted(set(CARDS) - held - taken))
        broken = _with_turn(record, k, replace(turn, discard=card, out=None, melds=(),
                                               unmatched=()))
        return BrokenHand(defect, write_hand(broken),
                          f"turn {k + 1} discards {card}, which the player does not hold")
    if defect is GinDefect.WRONG_POINTS:
        true = record.result or (0, 0)
        wrong = (true[1], true[0]) if true[0] != true[1] else (true[0] + rng.randint(1, 9),
                                                                 true[1])
        return BrokenHand(defect, write_hand(replace(record, result=wrong)),
                          f"points written as {wrong[0]}-{wrong[1]}, the hand gives "
                          f"{true[0]}-{true[1]}")
    if defect is GinDefect.CUT_SHORT:
        keep = max(plays[0] + 1, len(turns) - rng.randint(1, 3))
        if keep >= len(turns):
            return None
        broken = replace(record, turns=turns[:keep], response=None)
        return BrokenHand(defect, write_hand(broken),
                          f"only {keep} of {len(turns)} turns written, but points are given")
    raise ValueError(f"unknown defect {defect!r}")  # pragma: no cover


def broken_hand(defect: GinDefect, players: Sequence[GinPlayer], rng: random.Random,
                profile: GinProfile = DEFAULT_PROFILE,
                tags: Sequence[tuple[str, str]] = ()) -> BrokenHand:
    """A freshly played hand (hand 1 of game 1 of its own match) with ``defect`` in it,
    checked to fail validation with the defect's code and no other (hands that cannot
    take the defect, or give another code too, are played again)."""
    hand_tags = (*tags, ("Game", "1"), ("Hand", "1"), ("A", players[0].name),
                 ("B", players[1].name))
    while True:
        played = play_hand([p.bot for p in players], rng.choice([Seat.A, Seat.B]), rng,
                           profile, hand_tags)
        broken = break_hand(played, defect, rng)
        if broken is None:
            continue
        (report,) = read_hands(broken.text)
        if {p.code for p in report.problems} == {defect.code}:
            return broken


def _defect_cycle(rng: random.Random) -> Iterator[GinDefect]:
    return shuffled_rounds(rng, GinDefect)


def broken_hands(count: int, seed: int, profile: GinProfile = DEFAULT_PROFILE,
                 bots: Iterable[str] | None = None,
                 tags: Sequence[tuple[str, str]] = ()) -> list[BrokenHand]:
    """``count`` broken hands cycling through every :class:`GinDefect` (shuffled), each in
    a match of its own (``Match`` "broken N") between roster players of ``bots`` styles."""
    rng = random.Random(f"gin-broken/{seed}")
    pool = gin_roster(bots)
    defects = _defect_cycle(rng)
    return [broken_hand(next(defects), _pair(rng, pool), rng, profile,
                        (*tags, ("Match", f"broken {i + 1}"))) for i in range(count)]


# -- club evenings ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GinEvening:
    """One club evening: where and when, the rules, its share of the budget."""

    event: str
    site: str
    date: dt.date
    profile: GinProfile
    budget: Budget
    broken: int = 0
    bots: tuple[str, ...] | None = None


def _pair(rng: random.Random, pool: Sequence[GinPlayer]) -> list[GinPlayer]:
    """Two players, of different styles when the pool has more than one style."""
    if len(pool) < 2:
        raise ValueError("a Gin Rummy match needs two players; the chosen bots give "
                         f"{len(pool)}")
    styles = sorted({p.style for p in pool}, key=list(GinStyle).index)
    if len(styles) >= 2:
        one, two = rng.sample(styles, 2)
        return [rng.choice([p for p in pool if p.style is one]),
                rng.choice([p for p in pool if p.style is two])]
    return rng.sample(list(pool), 2)


Item = PlayedHand | BrokenHand


def play_evening(evening: GinEvening, rng: random.Random) -> Iterator[Item]:
    """The hands of one evening in order: matches between pairs of its attendees (4 to 8
    roster players), named ``"A v B (date #n)"``, until its share of the budget is played;
    its broken hands come at random places between matches."""
    pool = gin_roster(evening.bots)
    attendees = rng.sample(pool, min(len(pool), rng.randint(4, 8)))
    attendees.sort(key=_ROSTER.index)
    date = tag_date(evening.date)
    base = (("Event", evening.event), ("Site", evening.site), ("Date", date))
    budget = evening.budget
    left = _Left(budget.games, budget.hands)
    broken = evening.broken
    defects = _defect_cycle(rng)
    number = 0
    while not left.done or broken:
        if broken and (left.done or rng.random() < 0.3):
            number += 1
            broken -= 1
            yield broken_hand(next(defects), _pair(rng, attendees), rng, evening.profile,
                              (*base, ("Match", f"broken {date} #{number}")))
            continue
        number += 1
        players = _pair(rng, attendees)
        name = f"{players[0].name} v {players[1].name} ({date} #{number})"
        yield from play_match(players, name, rng, evening.profile, base, left)


def plan_evenings(budget: Budget, rng: random.Random, profile: GinProfile,
                  bots: Sequence[str] | None = None, broken: int = 0,
                  start: dt.date = DEFAULT_START) -> Iterator[GinEvening]:
    """Split the budget (and ``broken`` hands) into club evenings, the clubs taking turns
    (:func:`~gops_records.core.clubs.plan_slots`): 6-12 games or 40-80 hands an evening
    for small runs, more for big ones (about 3,000 evenings at most), so the dates stay
    within a few decades."""
    least = 6 if budget.games is not None else 40
    for slot in plan_slots(budget.size, broken, least, GIN_CLUBS, rng, start):
        part = Budget(games=slot.size) if budget.games is not None else Budget(hands=slot.size)
        yield GinEvening(slot.club.event, slot.club.site, slot.date, profile, part,
                         slot.broken, tuple(bots) if bots is not None else None)


#: The plan and each evening draw from their own streams, derived from the seed.
SEEDING = Seeding("gin-simulate")


def _stream(budget: Budget, seed: int, profile: GinProfile, bots: Sequence[str] | None,
            broken: int, start: dt.date) -> Iterator[tuple[GinEvening, str]]:
    if bots is not None:
        _pair(random.Random(0), gin_roster(bots))  # fail early: an unknown name, one player
    return SEEDING.jobs(seed, lambda rng: plan_evenings(budget, rng, profile, bots, broken,
                                                         start))


def simulate(budget: Budget, seed: int, profile: GinProfile = DEFAULT_PROFILE,
             bots: Sequence[str] | None = None, broken: int = 0,
             start: dt.date = DEFAULT_START) -> Iterator[Item]:
    """Every hand (and broken hand) of a run, evening after evening, reproducibly."""
    for evening, key in _stream(budget, seed, profile, bots, broken, start):
        yield from play_evening(evening, random.Random(key))


@dataclass(frozen=True, slots=True)
class GinSimulationSummary:
    """What :func:`write_simulation` wrote, and how fast."""

    hands: int
    games: int
    matches: int
    broken: int
    evenings: int
    outcomes: dict[str, int]
    players: dict[str, str]
    seconds: float
    defects: dict[str, int] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return (self.hands + self.broken) / self.seconds if self.seconds > 0 else float("inf")


@dataclass(slots=True)
class _Chunk:
    text: str = ""
    hands: int = 0
    games: int = 0
    matches: set[str] = field(default_factory=set)
    broken: int = 0
    names: set[str] = field(default_factory=set)
    outcomes: Counter[str] = field(default_factory=Counter)
    defects: Counter[str] = field(default_factory=Counter)


def _evening_chunk(job: tuple[GinEvening, str]) -> _Chunk:
    evening, key = job
    texts: list[str] = []
    chunk = _Chunk()
    games: dict[str, GinGame] = {}
    for item in play_evening(evening, random.Random(key)):
        if isinstance(item, BrokenHand):
            texts.append(item.text)
            chunk.broken += 1
            chunk.defects[item.defect.value] += 1
            continue
        texts.append(write_hand(item.record))
        tags = dict(item.record.tags)
        chunk.hands += 1
        chunk.matches.add(tags["Match"])
        chunk.names.update((tags["A"], tags["B"]))
        chunk.outcomes[item.result.outcome.value] += 1
        game = games.setdefault(f"{tags['Match']}/{tags['Game']}",
                                GinGame(Seat(tags["Dealer"]), evening.profile))
        game.add(item.result)
        chunk.games += game.over
    chunk.text = "\n".join(texts)
    return chunk


def write_simulation(out: TextIO, budget: Budget, seed: int,
                     profile: GinProfile = DEFAULT_PROFILE, bots: Sequence[str] | None = None,
                     broken: int = 0, start: dt.date = DEFAULT_START,
                     jobs: int = 1) -> GinSimulationSummary:
    """Write the run's hands to ``out`` as ``.gin`` (canonical text, hands apart by a
    blank line), an evening at a time; ``jobs > 1`` plays evenings in that many worker
    processes (the text does not change)."""
    began = time.perf_counter()
    total = _Chunk()

    def add(chunk: _Chunk) -> None:
        total.hands += chunk.hands
        total.games += chunk.games
        total.matches |= chunk.matches
        total.broken += chunk.broken
        total.names |= chunk.names
        total.outcomes.update(chunk.outcomes)
        total.defects.update(chunk.defects)

    evenings = write_evenings(out, _stream(budget, seed, profile, bots, broken, start),
                              _evening_chunk, add, jobs)
    players = {n: gin_player(n).style.value for n in sorted(total.names)}
    return GinSimulationSummary(total.hands, total.games, len(total.matches), total.broken,
                                evenings, dict(total.outcomes.most_common()), players,
                                time.perf_counter() - began, dict(sorted(total.defects.items())))
