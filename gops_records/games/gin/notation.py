"""The ``.gin`` notation of full Gin Rummy hands: model, reader and canonical writer.

A file holds hands, each tags then movetext then a terminator (docs/gin.md)::

    [Dealer "B"] [DealA "..."] [DealB "..."] [Upcard "7♦"]
    1. A pass  2. B pass  3. A s:K♦ K♣
    7. A s:6♠ 6♣ knock (4♠ 5♠ 6♠) (9♣ 9♥ 9♠) (J♦ Q♦ K♦) 2♦
       B off 7♠ 9♦ (8♥ 8♣ 8♦) (2♥ 3♥ 4♥ 5♥) A♠
    0-26

:func:`parse_hands` reads the text into :class:`HandRecord` values with every syntax
problem located (line, column); :mod:`gops_records.games.gin.replay` then plays each record
through the rules engine. Turn numbers and seats are optional when reading (they are
checked when written) and always written: the seats alternate from the non-dealer, so
the writer derives them from the ``Dealer`` tag. The response to going out must name its
seat (that is how the reader tells it from the knocker's deadwood). Comments (``{...}``,
``; ...``) are kept with the turn they follow.

Equality of records compares what the record says (tags, turns, cards, result,
comments), not where it was written, so ``parse_hands(write_hands(hands)) == hands``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from gops_records.core.problems import Problem, Span
from gops_records.core.records import TaggedRecord, TagNames, TagReading
from gops_records.core.text import capped
from gops_records.games.gin.cards import Card, card_or_none, cards_text, parse_card
from gops_records.games.gin.errors import GinSyntaxError
from gops_records.games.gin.rules import Seat
from gops_records.games.gin.tokens import NUMBER, RESULT, Token, points_of, tokenize

#: Known tags in the order the canonical writer uses; other tags follow in file order.
HAND_TAGS = ("Event", "Site", "Date", "Match", "Game", "Hand", "A", "B", "Dealer", "Runs",
             "DealA", "DealB", "Upcard")
HAND_TAG_NAMES = TagNames(HAND_TAGS)


class DrawKind(StrEnum):
    PASS = "pass"
    STOCK = "stock"
    PILE = "pile"


class OutWord(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "biggin"


@dataclass(frozen=True, slots=True)
class Located:
    """Where the parts of a turn or response were written (for the replay's problems)."""

    start: Span
    seat: Span | None = None
    draw: Span | None = None
    discard: Span | None = None
    out: Span | None = None
    cards: tuple[tuple[int, Span], ...] = ()


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn as written: a pass, or a draw then a discard and/or going out."""

    draw: DrawKind
    card: Card | None = None            # the stock card (always named) or pile card (optional)
    discard: Card | None = None
    out: OutWord | None = None
    melds: tuple[tuple[Card, ...], ...] = ()
    unmatched: tuple[Card, ...] = ()
    comments: tuple[str, ...] = ()
    number: int | None = field(default=None, compare=False)
    seat: Seat | None = field(default=None, compare=False)
    where: Located | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ResponseRecord:
    """The opponent's line after going out: layoffs, own melds, the rest."""

    seat: Seat
    layoffs: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    unmatched: tuple[Card, ...] = ()
    comments: tuple[str, ...] = ()
    where: Located | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class HandRecord(TaggedRecord):
    """One hand as written. ``result`` is the points (A, B), None for ``*``; ``span`` is
    where the hand starts."""

    TAG_NAMES: ClassVar[TagNames] = HAND_TAG_NAMES

    tags: tuple[tuple[str, str], ...]
    turns: tuple[TurnRecord, ...] = ()
    response: ResponseRecord | None = None
    result: tuple[int, int] | None = None
    comments: tuple[str, ...] = ()
    terminated: bool = field(default=True, compare=False)
    tag_spans: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)
    result_span: Span | None = field(default=None, compare=False, repr=False)
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ParsedHand:
    record: HandRecord
    problems: tuple[Problem, ...]


_SEATS = {s.value: s for s in Seat}
_OUT_WORDS = {w.value: w for w in OutWord}


# -- the reader ----------------------------------------------------------------------------


class _Hand:
    """A hand being read."""

    def __init__(self, span: Span):
        self.span = span
        self.tags = TagReading(HAND_TAG_NAMES)
        self.turns: list[TurnRecord] = []
        self.response: ResponseRecord | None = None
        self.comments: list[str] = []
        self.problems: list[Problem] = []

    def problem(self, message: str, span: Span, code: str = "syntax") -> None:
        self.problems.append(Problem(code, message, span.line, span.column,
                                     len(self.turns) or None))

    def add_comment(self, text: str) -> None:
        if self.response is not None:
            r = self.response
            self.response = ResponseRecord(r.seat, r.layoffs, r.melds, r.unmatched,
                                           (*r.comments, text), r.where)
        elif self.turns:
            t = self.turns[-1]
            self.turns[-1] = TurnRecord(t.draw, t.card, t.discard, t.out, t.melds, t.unmatched,
                                        (*t.comments, text), t.number, t.seat, t.where)
        else:
            self.comments.append(text)

    def record(self, result: tuple[int, int] | None, result_span: Span | None,
               terminated: bool) -> HandRecord:
        return HandRecord(self.tags.ordered(), tuple(self.turns), self.response, result,
                          tuple(self.comments), terminated, self.tags.spans, result_span,
                          self.span)


class _Reader:
    def __init__(self, tokens: list[Token]):
        self.toks = tokens
        self.i = 0

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def card(self, hand: _Hand, tok: Token) -> Card | None:
        try:
            return parse_card(tok.text)
        except GinSyntaxError as err:
            hand.problem(err.message, tok.span)
            return None

    def is_card(self, tok: Token | None) -> bool:
        return self.card_in(tok) is not None

    @staticmethod
    def card_in(tok: Token | None) -> Card | None:
        """The card a word token names (None for anything else)."""
        if tok is None or tok.kind != "word":
            return None
        return card_or_none(tok.text)

    def skip_comments(self, comments: list[str]) -> None:
        while (tok := self.peek()) is not None and tok.kind == "comment":
            comments.append(self.next().value)

    def spread(self, hand: _Hand, cards: list[tuple[int, Span]], comments: list[str]
               ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """Melds in parentheses, then loose cards; stops at anything else."""
        melds: list[tuple[Card, ...]] = []
        loose: list[Card] = []
        while (tok := self.peek()) is not None:
            if tok.kind == "comment":
                comments.append(self.next().value)
            elif tok.kind == "open" and not loose:
                self.next()
                meld: list[Card] = []
                while (card := self.card_in(inner := self.peek())) is not None:
                    assert inner is not None
                    self.next()
                    meld.append(card)
                    cards.append((card, inner.span))
                closing = self.peek()
                if closing is None or closing.kind != "close":
                    hand.problem("a meld is cards in parentheses, e.g. (4♠ 5♠ 6♠): "
                                 "close it with )", (closing or tok).span)
                else:
                    self.next()
                melds.append(tuple(meld))
            elif (card := self.card_in(tok)) is not None:
                self.next()
                loose.append(card)
                cards.append((card, tok.span))
            else:
                break
        return tuple(melds), tuple(loose)

    def turn(self, hand: _Hand) -> None:
        first = self.peek()
        assert first is not None
        played = len(hand.turns)
        self.read_turn(hand, first)
        if hand.response is not None and len(hand.turns) > played:
            hand.turns.pop()
            hand.problem("a turn after the answer to going out: the hand is over, end it "
                         "with its points", first.span, "wall")

    def read_turn(self, hand: _Hand, first: Token) -> None:
        number = seat = None
        seat_span = None
        if (m := NUMBER.fullmatch(first.text)) and first.kind == "word":
            number = capped(m.group(1))
            self.next()
        tok = self.peek()
        if tok is not None and tok.kind == "word" and tok.text in _SEATS:
            seat, seat_span = _SEATS[tok.text], tok.span
            self.next()
            tok = self.peek()
        if tok is not None and tok.kind == "word" and tok.text == "off" or \
                tok is not None and seat is not None and number is None and \
                (tok.kind == "open" or self.is_card(tok)):
            self.response(hand, seat, first.span, seat_span)
            return
        if tok is None or tok.kind != "word" or not (
                tok.text == "pass" or tok.text == "p" or tok.text[:2] in ("s:", "p:")):
            hand.problem("a turn is [n.] [seat] then pass, s:CARD (stock) or p[:CARD] (pile)",
                         (tok or first).span)
            if tok is not None:
                self.next()
            return
        self.next()
        cards: list[tuple[int, Span]] = []
        draw_span = tok.span
        if tok.text == "pass":
            hand.turns.append(TurnRecord(DrawKind.PASS, number=number, seat=seat,
                                         where=Located(first.span, seat_span, draw_span)))
            return
        kind = DrawKind.STOCK if tok.text.startswith("s:") else DrawKind.PILE
        taken = None
        if tok.text[2:] or kind is DrawKind.STOCK:
            taken = card_or_none(tok.text[2:])
            if taken is None:  # the problem points after the s: or p:
                self.card(hand, Token("word", tok.text[2:], Span(
                    tok.span.line, tok.span.column + 2, tok.span.start + 2, tok.span.end)))
            else:
                cards.append((taken, tok.span))
        discard = out = None
        discard_span = out_span = None
        comments: list[str] = []
        self.skip_comments(comments)
        nxt = self.peek()
        if (found := self.card_in(nxt)) is not None:
            assert nxt is not None
            self.next()
            discard, discard_span = found, nxt.span
            cards.append((discard, nxt.span))
            self.skip_comments(comments)
            nxt = self.peek()
        if nxt is not None and nxt.kind == "word" and nxt.text in _OUT_WORDS:
            self.next()
            out, out_span = _OUT_WORDS[nxt.text], nxt.span
        elif discard is None:
            hand.problem("a draw is followed by the discard, or by biggin",
                         (nxt or tok).span)
        melds: tuple[tuple[Card, ...], ...] = ()
        unmatched: tuple[Card, ...] = ()
        if out is not None:
            melds, unmatched = self.spread(hand, cards, comments)
        hand.turns.append(TurnRecord(kind, taken, discard, out, melds, unmatched,
                                     tuple(comments), number,
                                     seat, Located(first.span, seat_span, draw_span,
                                                   discard_span, out_span, tuple(cards))))

    def layoffs(self, cards: list[tuple[int, Span]], layoffs: list[Card]) -> Span | None:
        """``off`` and the cards laid off, a lone ``-`` ending them; the span of ``off``
        (None, nothing read, when the next word is not ``off``)."""
        tok = self.peek()
        if tok is None or tok.kind != "word" or tok.text != "off":
            return None
        off_span = self.next().span
        while (card := self.card_in(self.peek())) is not None:
            card_tok = self.next()
            layoffs.append(card)
            cards.append((card, card_tok.span))
        if (dash := self.peek()) is not None and dash.kind == "word" and dash.text == "-":
            self.next()  # ends the layoffs when deadwood follows without melds
        return off_span

    def response(self, hand: _Hand, seat: Seat | None, start: Span,
                 seat_span: Span | None) -> None:
        """The answer to going out: ``off`` and the layoffs, the own melds, the deadwood;
        with no meld of one's own the deadwood may come first (``B K♣ Q♦ off 7♠ 8♠``)."""
        cards: list[tuple[int, Span]] = []
        layoffs: list[Card] = []
        off_span = self.layoffs(cards, layoffs)
        comments: list[str] = []
        melds, unmatched = self.spread(hand, cards, comments)
        if off_span is None and (late := self.peek()) is not None and late.text == "off":
            if melds:
                hand.problem("the cards laid off come before the melds: write the answer "
                             "as SEAT off CARDS (MELD) ... DEADWOOD", late.span)
            off_span = self.layoffs(cards, layoffs)
        if seat is None:
            hand.problem("the answer to going out starts with its seat (A or B)", start)
            seat = Seat.A
        if hand.response is not None:
            hand.problem("a hand has one answer to going out", start)
            return
        hand.response = ResponseRecord(seat, tuple(layoffs), melds, unmatched, tuple(comments),
                                       Located(start, seat_span, None, None, off_span,
                                               tuple(cards)))

    def hands(self) -> list[ParsedHand]:
        out: list[ParsedHand] = []
        hand: _Hand | None = None
        while (tok := self.peek()) is not None:
            if hand is None:
                hand = _Hand(tok.span)
            if tok.kind == "tag":
                self.next()
                if hand.turns or hand.response:
                    hand.problem("a tag inside the movetext: end the hand with its points "
                                 "(or *) first", tok.span)
                    continue
                hand.tags.add(tok.name, tok.value, tok.span, hand.problem)
            elif tok.kind == "comment":
                hand.add_comment(self.next().value)
            elif tok.kind == "word" and RESULT.fullmatch(tok.text):
                self.next()
                m = RESULT.fullmatch(tok.text)
                assert m is not None
                result = points_of(m)
                out.append(ParsedHand(hand.record(result, tok.span, True),
                                      tuple(hand.problems)))
                hand = None
            elif tok.kind in ("bad", "close", "open"):
                self.next()
                hand.problem(f"unexpected {tok.text!r}", tok.span)
            else:
                self.turn(hand)
        if hand is not None:
            hand.problem("the hand has no terminator: end it with its points (e.g. 0-26, "
                         "0-0 drawn) or *", self.toks[-1].span)
            out.append(ParsedHand(hand.record(None, None, False), tuple(hand.problems)))
        return out


def parse_hands(text: str) -> list[ParsedHand]:
    """Every hand of a ``.gin`` text with its syntax problems (rules are the replay's)."""
    return _Reader(tokenize(text)).hands()


# -- the writer ----------------------------------------------------------------------------


def _spread(melds: tuple[tuple[Card, ...], ...], unmatched: tuple[Card, ...]) -> list[str]:
    return [f"({cards_text(m)})" for m in melds] + ([cards_text(unmatched)] if unmatched else [])


def _comments(comments: tuple[str, ...]) -> list[str]:
    return [f"{{{c}}}" for c in comments]


def write_turn(turn: TurnRecord, number: int, seat: Seat) -> str:
    words = [f"{number}.", seat.value]
    if turn.draw is DrawKind.PASS:
        words.append("pass")
    else:
        prefix = "s" if turn.draw is DrawKind.STOCK else "p"
        words.append(f"{prefix}:{turn.card.text}" if turn.card is not None else prefix)
        if turn.discard is not None:
            words.append(turn.discard.text)
        if turn.out is not None:
            words.append(turn.out.value)
            words += _spread(turn.melds, turn.unmatched)
    return " ".join(words + _comments(turn.comments))


def write_hand(hand: HandRecord) -> str:
    """The canonical text of a hand: one tag a line, one turn a line, the answer indented."""
    lines = [f'[{name} "{value}"]' for name, value in HAND_TAG_NAMES.ordered(hand.tags)]
    lines += [f"{{{c}}}" for c in hand.comments]
    lines.append("")
    dealer = Seat(hand.tag("Dealer")) if hand.tag("Dealer") in ("A", "B") else Seat.B
    seat = dealer.other
    for number, turn in enumerate(hand.turns, 1):
        lines.append(write_turn(turn, number, seat))
        seat = seat.other
    if hand.response is not None:
        r = hand.response
        words = [r.seat.value] + (["off", cards_text(r.layoffs)] if r.layoffs else [])
        if r.layoffs and not r.melds and r.unmatched:
            words.append("-")  # else the deadwood would read as more layoffs
        lines.append("   " + " ".join(words + _spread(r.melds, r.unmatched)
                                      + _comments(r.comments)))
    lines.append("*" if hand.result is None else f"{hand.result[0]}-{hand.result[1]}")
    return "\n".join(lines) + "\n"


def write_hands(hands: list[HandRecord]) -> str:
    return "\n".join(write_hand(h) for h in hands)
