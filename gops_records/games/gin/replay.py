"""Replay of ``.gin`` records: every turn played through the rules engine, located.

:func:`read_hands` parses a text and replays each hand: the tags give the deal (a
``deal`` or ``tag-value`` problem stops there), then each turn and the answer to going
out become engine actions; the first illegal one is reported with its stable code at the
token it concerns (a player named as the Gops replay names one, ``Joost (A)``, from the
``A`` and ``B`` tags), and the replay of that hand stops (the state after an illegal turn is
not defined). A hand the reader found a problem in is not played past its deal. A
finished hand's points are compared with the terminator
(``result-mismatch``); points written for an unfinished hand are ``incomplete``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gops_records.core.problems import Problem, Span
from gops_records.games.gin.cards import Card, parse_cards
from gops_records.games.gin.errors import GinError, IllegalTurn, OutKind
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.notation import (
    DrawKind,
    HandRecord,
    Located,
    OutWord,
    TurnRecord,
    parse_hands,
)
from gops_records.games.gin.rules import (
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
    Players,
    Respond,
    Seat,
)

_DISCARD_CODES = ("card-not-in-hand", "discard-just-taken")


@dataclass(frozen=True, slots=True)
class HandReport:
    """A record, its problems, and (when it replays to the end) its result."""

    record: HandRecord
    problems: tuple[Problem, ...]
    result: HandResult | None
    hand: GinHand | None

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def finished(self) -> bool:
        return self.result is not None


def _problem(code: str, message: str, span: Span | None, turn: int | None) -> Problem:
    line, column = (span.line, span.column) if span is not None else (1, 1)
    return Problem(code, message, line, column, turn)


def profile_of(record: HandRecord) -> GinProfile:
    """The rule profile a record's tags ask for (``Runs``). It never raises: an unknown
    ``Runs`` value (``[Runs "wrap"]``) gives the default profile, since the replay reports
    it as a ``tag-value`` problem and that hand is not played (grouping still reads it)."""
    runs = record.tag("Runs") or RunOrder.CIRCULAR.value
    if runs not in {r.value for r in RunOrder}:
        return GinProfile()
    return GinProfile(runs=RunOrder(runs))


def _setup(record: HandRecord) -> tuple[GinHand | None, list[Problem]]:
    problems: list[Problem] = []
    spans = record.tag_spans

    def bad(code: str, message: str, tag: str) -> None:
        problems.append(_problem(code, message, spans.get(tag, record.span), None))

    runs = record.tag("Runs")
    if runs is not None and runs not in {r.value for r in RunOrder}:
        bad("tag-value", f'[Runs "{runs}"]: write circular, ace-high or ace-low', "Runs")
    dealer = record.tag("Dealer")
    if dealer not in ("A", "B"):
        bad("tag-value", f"[Dealer] must be A or B, not {dealer!r}", "Dealer")
    deal: dict[str, tuple[Card, ...]] = {}
    for tag, size in (("DealA", 10), ("DealB", 10), ("Upcard", 1)):
        value = record.tag(tag)
        if value is None:
            bad("tag-value", f"the [{tag}] tag is missing", tag)
            continue
        try:
            cards = parse_cards(value)
        except GinError as err:
            bad("tag-value", f"[{tag}]: {err.message}", tag)
            continue
        if len(cards) != size:
            bad("deal", f"[{tag}] holds {len(cards)} cards, not {size}", tag)
            continue
        deal[tag] = cards
    if problems:
        return None, problems
    seen: dict[Card, str] = {}
    for tag, cards in deal.items():
        for card in cards:
            if card in seen:
                bad("deal", f"{card} is dealt twice ([{seen[card]}] and [{tag}])", tag)
            seen[card] = tag
    if problems:
        return None, problems
    assert dealer is not None
    hand = GinHand(Seat(dealer), deal["DealA"], deal["DealB"], deal["Upcard"][0],
                   profile_of(record), Players.of(record.tag))
    return hand, problems


def _actions(turn: TurnRecord) -> list[Action]:
    if turn.draw is DrawKind.PASS:
        return [Pass()]
    draw: Action = DrawStock(turn.card) if turn.draw is DrawKind.STOCK else DrawPile(turn.card)
    if turn.out is None:
        return [draw, Discard(turn.discard)] if turn.discard is not None else [draw]
    if turn.out is OutWord.BIG_GIN:
        if turn.discard is not None:
            raise OutKind("big gin keeps all 11 cards: no discard before biggin")
        if turn.unmatched:
            raise OutKind("big gin melds all 11 cards: no deadwood")
        return [draw, BigGin(turn.melds)]
    if turn.discard is None:
        raise OutKind(f"{turn.out.value} comes after the discard")
    if turn.out is OutWord.GIN:
        if turn.unmatched:
            raise OutKind("gin melds all 10 cards after the discard: write knock for "
                          "deadwood")
        return [draw, Gin(turn.discard, turn.melds)]
    return [draw, Knock(turn.discard, turn.melds, turn.unmatched)]


def _where(err: GinError, where: Located | None) -> Span | None:
    if where is None:
        return None
    code = err.code
    if code == "turn-order":
        return where.seat or where.start
    if code in ("first-turn", "pile-top", "card-seen"):
        return where.draw
    if code in ("knock-forbidden", "knock-over-limit", "out-kind", "layoff", "spread"):
        return where.out or where.start
    card = getattr(err, "card", None)
    if code in _DISCARD_CODES and where.discard is not None and card is not None:
        for c, span in where.cards:
            if c == card and span == where.discard:
                return span
    if code == "not-a-meld" and card is not None:
        # the meld's card, not the same card named by the draw before ``knock``/``gin``
        after = where.out.start if where.out is not None else -1
        for c, span in where.cards:
            if c == card and span.start > after:
                return span
    if card is not None:
        for c, span in where.cards:
            if c == card:
                return span
    return where.start


def replay(record: HandRecord, problems: tuple[Problem, ...] = ()) -> HandReport:
    """Play a parsed record through the engine; syntax ``problems`` are kept in front."""
    found = list(problems)
    hand, setup = _setup(record)
    found += setup
    if hand is None:
        return HandReport(record, tuple(found), None, None)
    if problems:
        # a turn that could not be read (a stock draw without its card) has no action:
        # the reader's problem is the report, the turns are not played
        return HandReport(record, tuple(found), None, hand)
    steps: list[tuple[Seat | None, list[Action] | GinError, Located | None, int | None]] = []
    for number, turn in enumerate(record.turns, 1):
        try:
            steps.append((turn.seat, _actions(turn), turn.where, number))
        except GinError as err:
            steps.append((turn.seat, err, turn.where, number))
    if record.response is not None:
        r = record.response
        steps.append((r.seat, [Respond(r.layoffs, r.melds, r.unmatched)], r.where, None))
    for seat, actions, where, number in steps:
        try:
            if hand.phase is Phase.OVER:
                hand.apply(hand.to_play, Pass())  # raises the wall problem
            if isinstance(actions, GinError):
                raise actions
            for action in actions:
                hand.apply(seat or hand.to_play, action)
            if hand.phase is Phase.DISCARD:
                raise OutKind("a draw is followed by a discard or by going out")
        except IllegalTurn as err:
            found.append(_problem(err.code, err.message, _where(err, where), number))
            return HandReport(record, tuple(found), None, hand)
    result = hand.result
    if result is None and record.result is not None:
        found.append(_problem("incomplete", "points are written for a hand that is not over; "
                              "write * for an unfinished hand", record.result_span, None))
    elif result is not None and record.result is not None and result.scores != record.result:
        found.append(_problem("result-mismatch", f"the hand scores {result.scores[0]}-"
                              f"{result.scores[1]}, not {record.result[0]}-{record.result[1]}",
                              record.result_span, None))
    return HandReport(record, tuple(found), result, hand)


def read_hands(text: str) -> list[HandReport]:
    """Parse and replay every hand of a ``.gin`` text."""
    return [replay(p.record, p.problems) for p in parse_hands(text)]
