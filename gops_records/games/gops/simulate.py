"""Simulated club play: bots play games through the rules engine and come out as records.

Three layers, each usable on its own:

- :func:`play_game` plays one game between bots (one per seat) through
  :class:`~gops_records.games.gops.rules.Game` and returns the finished engine state;
  :func:`record_of` turns that state into a :class:`GameRecord` with the given tags.
- :func:`simulate` plays whole club evenings: named players from :data:`ROSTER` (each
  name always plays the same :class:`~gops_records.games.gops.bots.Personality`), events, sites,
  dates, three-game matches; :func:`write_simulation` streams them to a file in chunks.
  The club frame (rosters, the plan of evenings, seeds, worker processes) is the one every
  game shares, :mod:`gops_records.core.clubs`; this module plays and writes Gops games.
- :func:`break_record` and :func:`broken_records` make records with one deliberate,
  known defect each (a :class:`Defect`), for the quarantine demo and the tests.

Everything is driven by one seed: the same arguments always give the same text.
"""

from __future__ import annotations

import datetime as dt
import random
import time
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
from gops_records.games.gops.bots import BOTS, Bot, Personality, Situation
from gops_records.games.gops.cards import SEATS, Seat, Suit, card_text
from gops_records.games.gops.errors import CardNotInHand
from gops_records.games.gops.notation import (
    Bid,
    BidToken,
    CardToken,
    GameRecord,
    RoundRecord,
    write_game,
)
from gops_records.games.gops.notation.writer import format_result
from gops_records.games.gops.rules import (
    Game,
    PrizeOrder,
    RoundResult,
    RuleProfile,
    resolve,
    takes_in_order,
)

# -- players ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    """A named player and the personality they always play with."""

    name: str
    personality: Personality

    @property
    def bot(self) -> Bot:
        return BOTS[self.personality]


def _roster() -> tuple[Player, ...]:
    names = {
        Personality.RANDOM: ("Anna de Vries", "Tom Okafor", "Lena Fischer", "Marco Rossi"),
        Personality.PRIZE: ("Bruno Keller", "Sofia Almeida", "Pieter Jansen", "Hana Sato"),
        Personality.PRIZE_PLUS_ONE: ("Clara Nowak", "David Levi", "Emma Lindqvist",
                                     "Farid Haddad"),
        Personality.SAVER: ("Greta Olsen", "Hugo Martin", "Ines Moreau", "Jonas Berg"),
        Personality.CHASER: ("Karin Vos", "Liam Byrne", "Maya Patel", "Nils Hansen"),
        Personality.NOISY: ("Olivia Brown", "Pablo Ortega", "Rosa Bakker", "Sam Whitfield"),
    }
    return tuple(Player(n, p) for p, group in names.items() for n in group)


#: The club's members. The binding of name to personality is fixed (it does not depend on
#: the seed), so a name plays the same way in every simulated file.
ROSTER: tuple[Player, ...] = _roster()
_ROSTER = Roster(ROSTER, attrgetter("personality"), Personality, "bot")


def player(name: str) -> Player:
    """The roster player called ``name`` (KeyError if there is none)."""
    return _ROSTER.member(name)


def roster(bots: Iterable[str] | None = None) -> list[Player]:
    """The roster players whose personality is among ``bots`` (all of them for None); an
    unknown name is an :class:`~gops_records.core.clubs.UnknownBotError`."""
    return _ROSTER.of(bots)


# -- clubs -----------------------------------------------------------------------------


#: The clubs, in weekday order: evenings take turns in this order, so dates never go back.
CLUBS: tuple[Club, ...] = (
    Club("Gops Society", "The Eagle, Cambridge", 1),
    Club("Spieleabend Kreuzberg", "Café Kreuzberg, Berlin", 2),
    Club("Thursday Club", "De Gouden Leeuw, Utrecht", 3),
)

#: Games per match: a match is three games between the same players (seats rotate), so it
#: can be scored as cumulative totals or as best-of-3.
MATCH_GAMES = 3


# -- one game --------------------------------------------------------------------------


def prize_pile(profile: RuleProfile, rng: random.Random) -> list[int]:
    """The prizes in the order they are revealed (shuffled with ``rng`` unless fixed)."""
    n = profile.cards
    if profile.prize_order is PrizeOrder.ASCENDING:
        return list(range(1, n + 1))
    if profile.prize_order is PrizeOrder.DESCENDING:
        return list(range(n, 0, -1))
    pile = list(range(1, n + 1))
    rng.shuffle(pile)
    return pile


def play_game(profile: RuleProfile, bots: Sequence[Bot], rng: random.Random,
              prizes: Sequence[int] | None = None) -> Game:
    """Play one whole game, ``bots[i]`` in seat i, and return the finished engine state.

    ``prizes`` fixes the reveal order (default: :func:`prize_pile`, which is legal by
    construction). Each bid is checked against the bidder's hand here (a bot that bids a
    card it does not hold, or the wrong number of cards, raises
    :class:`~gops_records.core.errors.CardNotInHand`), so the rounds are applied through the
    engine's unchecked path, which is what makes bulk simulation fast; prizes given by
    the caller are checked with :meth:`Game.play_round`.

    Bids of several cards: each bot bids ``profile.bid_cards`` cards a round, for
    floor(N / k) rounds. Open prizes: each round the row is topped up from the pile, each
    bot bids one card, and the winner takes the prize of the row it chooses
    (:meth:`Bot.take`); with ``[OpenTakes "each"]`` every bot chooses in turn, strongest
    bid first (:func:`~gops_records.games.gops.rules.takes_in_order`).
    """
    if len(bots) != profile.players:
        raise ValueError(f"{profile.players} players need {profile.players} bots, "
                         f"not {len(bots)}")
    checked = prizes is not None
    pile = list(prizes) if prizes is not None else prize_pile(profile, rng)
    game = Game(profile)
    seats = range(profile.players)
    hands = [list(range(1, profile.cards + 1)) for _ in seats]
    upcoming = sorted(pile)
    opened = profile.is_open
    for round_no in range(1, profile.rounds + 1):
        carried = game.carried
        if opened:
            count = game.to_reveal()
            revealed, pile = tuple(pile[:count]), pile[count:]
            row = (*game.row, *revealed)
            for prize in revealed:
                upcoming.remove(prize)
            prize = max(row, default=0)  # 0: the row ran out (every bidder choosing)
            pool, value = row, prize
            ahead = tuple(sorted([*upcoming, *row]))
            if prize:
                ahead = ahead[:ahead.index(prize)] + ahead[ahead.index(prize) + 1:]
        else:
            prize = pile[round_no - 1]
            upcoming.remove(prize)
            row = ()
            pool, value = (*game.pool, prize), carried + prize
            ahead = tuple(upcoming)
        held = [tuple(h) for h in hands]
        scores = tuple(game.scores)
        bids: list[tuple[int, ...]] = []
        situations = []
        for seat in seats:
            hand = held[seat]
            situation = Situation(prize, pool, value, carried, round_no, hand,
                                  (*held[:seat], *held[seat + 1:]), ahead, scores, seat,
                                  profile, row)
            cards = bots[seat].bid_cards(situation, rng)
            if len(cards) != profile.bid_cards or len(set(cards)) != len(cards) or \
                    any(c not in hand for c in cards):
                what = (f"{cards[0]!r}, which is not in its hand" if profile.bid_cards == 1
                        and len(cards) == 1 else f"{list(cards)!r}, which is not "
                        f"{profile.bid_cards} different cards of its hand")
                raise CardNotInHand(f"bot {bots[seat].name} in seat {Seat.at(seat).value} "
                                    f"bids {what} {list(hand)}", seat=seat,
                                    card=cards[0] if cards else None)
            for card in cards:
                hands[seat].remove(card)
            bids.append(cards)
            situations.append(situation)
        round_bids: tuple = tuple(b[0] for b in bids) if profile.bid_cards == 1 else tuple(bids)
        if profile.each_takes:  # every bidder chooses, strongest first
            taken = takes_in_order(row, round_bids, profile.tie_rule,
                                   lambda seat, left, now=situations: bots[seat].take(now[seat],
                                                                                     left))
            if checked:
                game.play_round(revealed, round_bids, taken)
            else:
                game.play_unchecked(revealed, round_bids, taken)
        elif opened:
            winner = resolve(round_bids)
            taken = bots[winner].take(situations[winner], row) if winner is not None else None
            if checked:
                game.play_round(revealed, round_bids, taken)
            else:
                game.play_unchecked(revealed, round_bids, taken)
        elif checked:
            game.play_round(prize, round_bids)
        else:
            game.play_unchecked(prize, round_bids)
    return game


_PRIZE_TOKENS = [CardToken(r, Suit.DIAMONDS) for r in range(14)]
_BID_TOKENS = [[CardToken(r, Seat.at(s).suit) for r in range(14)] for s in range(4)]


def game_tags(game: Game, tags: dict[str, str] | None = None) -> dict[str, str]:
    """``tags`` plus the rule tags and the Result tag of a played game.

    TieRule is always written, Cards only when not 13, PrizeOrder only when not shuffled,
    BidCards and OpenPrizes only in their variants; Result is the points in seat order, or
    ``*`` for an unfinished game.
    """
    p = game.profile
    tags = dict(tags or {})
    tags["TieRule"] = p.tie_rule.value
    if p.cards != 13:
        tags["Cards"] = str(p.cards)
    if p.prize_order is not PrizeOrder.SHUFFLED:
        tags["PrizeOrder"] = p.prize_order.value
    if p.bid_cards != 1:
        tags["BidCards"] = str(p.bid_cards)
    if p.open_prizes is not None:
        tags["OpenPrizes"] = str(p.open_prizes)
    if p.each_takes:
        tags["OpenTakes"] = p.open_takes.value
    tags["Result"] = format_result(game.scores) if game.is_over else "*"
    return tags


def _bid(seat: int, cards: tuple[int, ...]) -> Bid:
    tokens = [_BID_TOKENS[seat][c] for c in cards]
    return tokens[0] if len(tokens) == 1 else BidToken(tuple(tokens))


def _round(r: RoundResult, open_prizes: bool) -> RoundRecord:
    bids = tuple(_bid(s, cards) for s, cards in enumerate(r.cards))
    if not open_prizes:
        return RoundRecord(_PRIZE_TOKENS[r.prize], bids)
    takes = tuple(_PRIZE_TOKENS[t] if t else None for t in r.takes) if r.takes else None
    return RoundRecord(_PRIZE_TOKENS[r.taken] if r.taken else None, bids,
                       revealed=tuple(_PRIZE_TOKENS[p] for p in r.revealed), takes=takes)


def record_of(game: Game, tags: dict[str, str] | None = None) -> GameRecord:
    """The record of a played game: :func:`game_tags`, the rounds and the result."""
    rounds = tuple(_round(r, game.profile.is_open) for r in game.history)
    return GameRecord(game_tags(game, tags), rounds,
                      tuple(game.scores) if game.is_over else None)


def simulate_game(profile: RuleProfile, players: Sequence[Player], rng: random.Random,
                  tags: dict[str, str] | None = None) -> GameRecord:
    """Play one game between named players and return its record (player tags added)."""
    return record_of(*_play_named(profile, players, rng, tags))


def _play_named(profile: RuleProfile, players: Sequence[Player], rng: random.Random,
                tags: dict[str, str] | None) -> tuple[Game, dict[str, str]]:
    game = play_game(profile, [p.bot for p in players], rng)
    named = dict(tags or {})
    for seat, p in zip(SEATS, players, strict=False):
        named[seat] = p.name
    return game, named


# -- deliberately broken records -------------------------------------------------------


class Defect(StrEnum):
    """The mistakes :func:`break_record` can put into a record."""

    SPENT_CARD = "spent-card"
    REPEATED_PRIZE = "repeated-prize"
    WRONG_RESULT = "wrong-result"
    TRUNCATED = "truncated"
    WRONG_SUIT = "wrong-suit"
    SYNTAX = "syntax"
    UNKNOWN_CARD = "unknown-card"
    BAD_DATE = "bad-date"
    PRIZE_ORDER = "prize-order"

    @property
    def code(self) -> str:
        """The validation code the defect must produce (and the only one it produces)."""
        return _DEFECT_CODES[self]

    def fits(self, profile: RuleProfile) -> bool:
        """Whether the defect gives its one code in a game of ``profile``: with open prizes
        a changed bid or prize also changes who takes what, so only the defects that leave
        the rounds' play alone are made."""
        return not profile.is_open or self in _OPEN_DEFECTS

    def profile_for(self, profile: RuleProfile) -> RuleProfile:
        """A profile close to ``profile`` that a game needs for this defect to be possible."""
        if self is Defect.UNKNOWN_CARD and profile.cards == 13:
            return replace(profile, cards=10)
        if self is Defect.PRIZE_ORDER and profile.prize_order is PrizeOrder.SHUFFLED:
            return replace(profile, prize_order=PrizeOrder.ASCENDING)
        return profile


_DEFECT_CODES = {
    Defect.SPENT_CARD: "card-not-in-hand",
    Defect.REPEATED_PRIZE: "prize-repeated",
    Defect.WRONG_RESULT: "result-mismatch",
    Defect.TRUNCATED: "incomplete",
    Defect.WRONG_SUIT: "wrong-suit",
    Defect.SYNTAX: "syntax",
    Defect.UNKNOWN_CARD: "unknown-card",
    Defect.BAD_DATE: "tag-value",
    Defect.PRIZE_ORDER: "prize-order",
}


_OPEN_DEFECTS = frozenset({Defect.WRONG_RESULT, Defect.TRUNCATED, Defect.WRONG_SUIT,
                           Defect.SYNTAX, Defect.BAD_DATE})


@dataclass(frozen=True, slots=True)
class BrokenRecord:
    """The text of one record with a known defect, and what is wrong with it."""

    defect: Defect
    text: str
    detail: str

    @property
    def code(self) -> str:
        return self.defect.code


def _with_round(record: GameRecord, index: int, rnd: RoundRecord) -> GameRecord:
    rounds = list(record.rounds)
    rounds[index] = rnd
    return replace(record, rounds=tuple(rounds))


def _round_line(text: str, number: int) -> tuple[list[str], int]:
    lines = text.split("\n")
    prefix = f"{number}. "
    return lines, next(i for i, line in enumerate(lines) if line.startswith(prefix))


def break_record(record: GameRecord, defect: Defect, rng: random.Random) -> BrokenRecord:
    """The text of ``record`` (a valid, finished game) with ``defect`` put in.

    The broken text fails validation with ``defect.code`` and with no other code.
    UNKNOWN_CARD needs a game of fewer than 13 cards and PRIZE_ORDER one with a fixed
    prize order (see :meth:`Defect.profile_for`); in a game with open prizes only the
    defects that leave the play alone can be made (:meth:`Defect.fits`); ValueError
    otherwise.
    """
    rounds = record.rounds
    n = len(rounds)
    players = len(rounds[0].bids)
    if n < 3:
        raise ValueError("a record needs at least 3 rounds to be broken")
    if rounds[0].revealed is not None and defect not in _OPEN_DEFECTS:
        raise ValueError(f"a {defect.value} defect cannot be made in a game with open prizes")
    k = rng.randrange(1, n)  # 0-based round to spoil, never the first
    seat = rng.randrange(players)
    seat_name = SEATS[seat]
    if defect is Defect.SPENT_CARD:
        j = rng.randrange(k)
        card = rounds[j].bids[seat]
        bids = list(rounds[k].bids)
        bids[seat] = card
        broken = _with_round(record, k, replace(rounds[k], bids=tuple(bids)))
        return BrokenRecord(defect, write_game(broken),
                            f"round {k + 1}: {seat_name} bids a card already spent in "
                            f"round {j + 1}")
    if defect is Defect.REPEATED_PRIZE:
        j = rng.randrange(k)
        broken = _with_round(record, k, replace(rounds[k], prize=rounds[j].prize))
        return BrokenRecord(defect, write_game(broken),
                            f"round {k + 1}: the prize of round {j + 1} is revealed again")
    if defect is Defect.WRONG_RESULT:
        true = record.result or ()
        wrong = tuple(reversed(true))
        if wrong == true:  # a symmetric result: a slip in the addition instead
            slip = rng.randint(1, 9)
            wrong = (true[0] + slip, *true[1:])
        tags = dict(record.tags, Result=format_result(wrong))
        broken = replace(record, tags=tags, result=wrong)
        return BrokenRecord(defect, write_game(broken),
                            f"result written as {format_result(wrong)}, the game gives "
                            f"{format_result(true)}")
    if defect is Defect.TRUNCATED:
        keep = rng.randint(n // 2, n - 1)
        broken = replace(record, rounds=rounds[:keep])
        return BrokenRecord(defect, write_game(broken),
                            f"only {keep} of {n} rounds written, but a result is given")
    if defect is Defect.WRONG_SUIT:
        seat = rng.randrange(min(players, 3))  # D's suit is not checked
        lines, i = _round_line(write_game(record), k + 1)
        tokens = lines[i].split(" ")
        first = 2 if rounds[k].revealed is None else \
            next(t for t, text in enumerate(tokens) if text.endswith(")")) + 1
        bid = tokens[first + seat]
        own = Seat.at(seat).suit
        other = Seat.at(1 - seat if seat < 2 else 0).suit
        assert own is not None and other is not None
        tokens[first + seat] = bid[:-1] + other.symbol
        lines[i] = " ".join(tokens)
        return BrokenRecord(defect, "\n".join(lines),
                            f"round {k + 1}: {seat_name}'s bid is written as "
                            f"{other.name.lower()}, not {own.name.lower()}")
    if defect is Defect.SYNTAX:
        lines, i = _round_line(write_game(record), k + 1)
        lines[i] = f"{k + 1}," + lines[i][len(f"{k + 1}."):]
        return BrokenRecord(defect, "\n".join(lines),
                            f"round {k + 1} is numbered '{k + 1},' instead of '{k + 1}.'")
    if defect is Defect.UNKNOWN_CARD:
        cards = int(record.tags.get("Cards", "13"))
        if cards >= 13:
            raise ValueError("an unknown card needs a game of fewer than 13 cards")
        bad = rng.randint(cards + 1, 13)
        bids = list(rounds[k].bids)
        bids[seat] = _bid(seat, (bad, *(c.rank for c in bids[seat].cards[1:])))
        broken = _with_round(record, k, replace(rounds[k], bids=tuple(bids)))
        return BrokenRecord(defect, write_game(broken),
                            f"round {k + 1}: {seat_name} bids {card_text(bad, None)} in a "
                            f"{cards}-card game")
    if defect is Defect.BAD_DATE:
        date = record.tags.get("Date", "2025.01.09")
        wrong = date.replace(".", "-")
        tags = dict(record.tags, Date=wrong)
        return BrokenRecord(defect, write_game(replace(record, tags=tags)),
                            f"Date written as {wrong}, not YYYY.MM.DD")
    if defect is Defect.PRIZE_ORDER:
        if record.tags.get("PrizeOrder", "shuffled") == "shuffled":
            raise ValueError("a prize-order defect needs a game with a fixed prize order")
        k = min(k, n - 2)
        first, second = rounds[k], rounds[k + 1]
        rounds_ = list(rounds)
        rounds_[k] = replace(first, prize=second.prize)
        rounds_[k + 1] = replace(second, prize=first.prize)
        broken = replace(record, rounds=tuple(rounds_))
        return BrokenRecord(defect, write_game(broken),
                            f"rounds {k + 1} and {k + 2}: prizes revealed out of order")
    raise ValueError(f"unknown defect {defect!r}")  # pragma: no cover


def broken_records(count: int, seed: int, profile: RuleProfile | None = None,
                   bots: Iterable[str] | None = None,
                   tags: dict[str, str] | None = None) -> list[BrokenRecord]:
    """``count`` broken records, cycling through every :class:`Defect` (shuffled).

    Each is a freshly simulated game between roster players (of ``bots`` personalities)
    under ``profile`` (adjusted per defect, see :meth:`Defect.profile_for`), with ``tags``
    and a Round tag numbering them, then broken.
    """
    rng = random.Random(seed)
    profile = profile or RuleProfile()
    pool = roster(bots)
    defects = _defect_cycle(rng, profile)
    out = []
    for i in range(count):
        defect = next(defects)
        players = rng.sample(pool, profile.players)
        base = simulate_game(defect.profile_for(profile), players, rng,
                             {**(tags or {}), "Round": str(i + 1)})
        out.append(break_record(base, defect, rng))
    return out


def _defect_cycle(rng: random.Random, profile: RuleProfile | None = None) -> Iterator[Defect]:
    return shuffled_rounds(rng, (d for d in Defect if profile is None or d.fits(profile)))


# -- whole evenings --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evening:
    """One club evening: Event, Site and Date, its rule profile and how many games."""

    event: str
    site: str
    date: dt.date
    profile: RuleProfile
    games: int
    broken: int = 0
    bots: tuple[str, ...] | None = None
    attendees: tuple[Player, ...] = field(default=(), compare=False)


def play_evening(evening: Evening, rng: random.Random) -> Iterator[GameRecord | BrokenRecord]:
    """The games of one evening as records (see :func:`_evening` for how it is played)."""
    for item in _evening(evening, rng):
        yield item if isinstance(item, BrokenRecord) else record_of(*item)


def _evening(evening: Evening,
             rng: random.Random) -> Iterator[tuple[Game, dict[str, str]] | BrokenRecord]:
    """The games of one evening, in order, with ``evening.broken`` broken ones among them.

    Attendees are drawn from the roster (``evening.attendees`` if given); the evening is
    a run of three-game matches (Match tag; seats rotate each game) between players of
    different personalities where possible; games left over at the end are single
    games without a Match tag. The Round tag numbers the games of the evening.
    """
    profile = evening.profile
    n_players = profile.players
    attendees = list(evening.attendees) or _attendees(rng, roster(evening.bots), n_players)
    by_personality: dict[Personality, list[Player]] = {}
    for p in attendees:
        by_personality.setdefault(p.personality, []).append(p)
    total = evening.games + evening.broken
    broken_at = set(rng.sample(range(total), evening.broken)) if evening.broken else set()
    defects = _defect_cycle(rng, profile)
    base_tags = {"Event": evening.event, "Site": evening.site, "Date": tag_date(evening.date)}
    number = 0
    match = 0
    while number < total:
        seating = _seating(rng, attendees, by_personality, n_players)
        in_match = total - number >= MATCH_GAMES
        if in_match:
            match += 1
        for g in range(MATCH_GAMES if in_match else 1):
            number += 1
            seats = seating[g % n_players:] + seating[:g % n_players]
            tags = dict(base_tags, Round=str(number))
            if in_match:
                tags["Match"] = str(match)
            if number - 1 in broken_at:
                defect = next(defects)
                record = simulate_game(defect.profile_for(profile), seats, rng, tags)
                yield break_record(record, defect, rng)
            else:
                yield _play_named(profile, seats, rng, tags)


def _attendees(rng: random.Random, pool: list[Player], n_players: int) -> list[Player]:
    if len(pool) < n_players:
        raise ValueError(f"{n_players} players need at least {n_players} roster players "
                         f"to choose from; the chosen bots give {len(pool)}")
    size = min(len(pool), rng.randint(max(n_players + 2, 6), 12))
    return sorted(rng.sample(pool, size), key=_ROSTER.index)


def _seating(rng: random.Random, attendees: list[Player],
             by_personality: dict[Personality, list[Player]], n_players: int) -> list[Player]:
    kinds = list(by_personality)
    if len(kinds) >= n_players:
        return [rng.choice(by_personality[k]) for k in rng.sample(kinds, n_players)]
    return rng.sample(attendees, n_players)


def plan_evenings(games: int, rng: random.Random, profile: RuleProfile,
                  bots: Sequence[str] | None = None, broken: int = 0,
                  start: dt.date = DEFAULT_START) -> Iterator[Evening]:
    """Split ``games`` (and ``broken`` records) into club evenings, the clubs taking turns
    (:func:`~gops_records.core.clubs.plan_slots`).

    Evenings hold 20-40 games for small runs and grow with the run (about 2,000 evenings
    for a million games), so the dates stay within about 13 years.
    """
    for slot in plan_slots(games, broken, 20, CLUBS, rng, start):
        yield Evening(slot.club.event, slot.club.site, slot.date, profile, slot.size,
                      slot.broken, tuple(bots) if bots is not None else None)


#: Each evening has its own random stream, so evenings can be played in any order; the
#: plan is seeded with the bare seed, as it always was.
SEEDING = Seeding("gops-simulate", plan_by_name=False)


def _stream(games: int, seed: int, profile: RuleProfile | None, bots: Sequence[str] | None,
            broken: int, start: dt.date) -> Iterator[tuple[Evening, str]]:
    profile_ = profile or RuleProfile()
    if bots is not None:
        roster(bots)  # fail early on an unknown name
    return SEEDING.jobs(seed, lambda rng: plan_evenings(games, rng, profile_, bots, broken,
                                                         start))


def simulate(games: int, seed: int, profile: RuleProfile | None = None,
             bots: Sequence[str] | None = None, broken: int = 0,
             start: dt.date = DEFAULT_START) -> Iterator[GameRecord | BrokenRecord]:
    """``games`` simulated games (and ``broken`` broken records among them), reproducibly.

    Games are grouped into club evenings (:func:`plan_evenings`, :func:`play_evening`)
    between roster players of the ``bots`` personalities (all by default); each evening
    draws from its own ``random.Random`` derived from ``seed``. With ``broken=0`` every
    item is a valid, finished :class:`GameRecord`.
    """
    for evening, key in _stream(games, seed, profile, bots, broken, start):
        yield from play_evening(evening, random.Random(key))


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """What :func:`write_simulation` wrote, and how fast."""

    games: int
    broken: int
    evenings: int
    players: dict[str, str]
    seconds: float
    defects: dict[str, int] = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        return (self.games + self.broken) / self.seconds if self.seconds > 0 else float("inf")


@dataclass(slots=True)
class _Chunk:
    """One evening as text, with what the summary needs to know about it."""

    text: str
    games: int = 0
    broken: int = 0
    names: set[str] = field(default_factory=set)
    defects: dict[str, int] = field(default_factory=dict)


def _evening_chunk(job: tuple[Evening, str]) -> _Chunk:
    evening, key = job
    texts: list[str] = []
    chunk = _Chunk("")
    for item in _evening(evening, random.Random(key)):
        if isinstance(item, BrokenRecord):
            texts.append(item.text)
            chunk.broken += 1
            chunk.defects[item.defect.value] = chunk.defects.get(item.defect.value, 0) + 1
        else:
            game, tags = item
            texts.append(write_game(record_of(game, tags)))
            chunk.names.update([tags[s] for s in SEATS if s in tags])
            chunk.games += 1
    chunk.text = "\n".join(texts)
    return chunk


def write_simulation(out: TextIO, games: int, seed: int, profile: RuleProfile | None = None,
                     bots: Sequence[str] | None = None, broken: int = 0,
                     start: dt.date = DEFAULT_START, jobs: int = 1) -> SimulationSummary:
    """Write ``games`` simulated games (and ``broken`` broken records) to ``out`` as .gops.

    The text is what ``write_games`` makes of the items of :func:`simulate` with the same
    arguments, whatever ``jobs`` is. It is written an evening at a time, so memory stays
    flat however many games are asked for; ``jobs > 1`` plays evenings in that many
    worker processes.
    """
    began = time.perf_counter()
    total = _Chunk("")

    def add(chunk: _Chunk) -> None:
        total.games += chunk.games
        total.broken += chunk.broken
        total.names |= chunk.names
        for name, count in chunk.defects.items():
            total.defects[name] = total.defects.get(name, 0) + count

    evenings = write_evenings(out, _stream(games, seed, profile, bots, broken, start),
                              _evening_chunk, add, jobs)
    players = {name: player(name).personality.value for name in sorted(total.names)}
    return SimulationSummary(total.games, total.broken, evenings, players,
                             time.perf_counter() - began, dict(sorted(total.defects.items())))
