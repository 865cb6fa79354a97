"""The ``.ginsheet`` notation of Gin Rummy score sheets: model, reader and canonical writer.

A score sheet is what players keep at the table: one game (manche), a line per hand
(docs/gin.md)::

    [A "Alice"] [B "Bruno"] [Match "Alice-Bruno"] [Game "1"]
    1. A up 8  B knock 3 v 15  0-12  = 0-12
    2. B up K  B gin v 31      0-56  = 0-68
    4. B up A  draw            0-0   = 0-94
    0-392 {the game score}

A line is ``[n.] DEALER up RANK``, then how the hand ended (``SEAT knock D v D``: the
knocker's deadwood against the opponent's after layoffs; ``SEAT gin v D``; ``SEAT
biggin v D``; ``draw``), the hand's points in seat order and, optionally, ``= `` and the
running totals. The terminator is the game score in seat order (``*``: not written).
Tags and comments are those of ``.gin`` (the same tokens, :mod:`.tokens`).

:func:`parse_sheets` reads a text into :class:`SheetRecord` values with every syntax
problem located; :mod:`gops_records.games.gin.sheet_check` checks them against the rules.
Equality compares what a sheet says, not where it was written, so
``parse_sheets(write_sheets(sheets)) == sheets``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from gops_records.core.problems import Problem, Span
from gops_records.core.records import TaggedRecord, TagNames, TagReading
from gops_records.core.text import capped, shorten
from gops_records.core.values import MAX_NUMBER
from gops_records.games.gin.rules import Seat
from gops_records.games.gin.tokens import NUMBER, RESULT, Token, points_of, tokenize

#: Tags of a sheet in the order the canonical writer uses; other tags follow in file order.
SHEET_TAGS = ("Event", "Site", "Date", "Match", "Game", "A", "B", "Runs")
SHEET_TAG_NAMES = TagNames(SHEET_TAGS)
_RANK_BY_TEXT = {"a": 1, "t": 10, "j": 11, "q": 12, "k": 13, **{str(n): n for n in range(2, 11)}}
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
#: The most deadwood a sheet line may write: ten cards of 10 points (what the store's
#: columns take with room to spare; no ten cards without a meld reach it).
MAX_DEADWOOD = 100


class SheetOut(StrEnum):
    """How a hand ended, as a sheet writes it (an undercut is a knock: the points say)."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "biggin"
    DRAW = "draw"


def rank_text(rank: int) -> str:
    return _RANK_TEXT.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class LineSpans:
    """Where the parts of a sheet line were written (the checks point at them)."""

    start: Span
    dealer: Span | None = None
    upcard: Span | None = None
    seat: Span | None = None
    out: Span | None = None
    deadwood: Span | None = None
    opponent: Span | None = None
    points: Span | None = None
    totals: Span | None = None


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One hand of a sheet. ``deadwood`` is the knocker's (knock only), ``opponent`` the
    other player's deadwood after layoffs (None for a draw)."""

    dealer: Seat
    upcard: int                      # the upcard's rank, 1 (ace) .. 13 (king)
    out: SheetOut
    points: tuple[int, int]
    seat: Seat | None = None         # who went out; None for a draw
    deadwood: int | None = None
    opponent: int | None = None
    totals: tuple[int, int] | None = None
    comments: tuple[str, ...] = ()
    number: int | None = field(default=None, compare=False)
    where: LineSpans | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SheetRecord(TaggedRecord):
    """One sheet (one game) as written; ``result`` is the game score (A, B), None for ``*``;
    ``span`` is where the sheet starts."""

    TAG_NAMES: ClassVar[TagNames] = SHEET_TAG_NAMES

    tags: tuple[tuple[str, str], ...]
    lines: tuple[SheetLine, ...] = ()
    result: tuple[int, int] | None = None
    comments: tuple[str, ...] = ()
    #: comments after the game score, on its line (the working of the score, say)
    score_comments: tuple[str, ...] = ()
    terminated: bool = field(default=True, compare=False)
    tag_spans: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)
    result_span: Span | None = field(default=None, compare=False, repr=False)
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ParsedSheet:
    record: SheetRecord
    problems: tuple[Problem, ...]


class _Sheet:
    """A sheet being read."""

    def __init__(self, span: Span):
        self.span = span
        self.tags = TagReading(SHEET_TAG_NAMES)
        self.lines: list[SheetLine] = []
        self.comments: list[str] = []
        self.problems: list[Problem] = []

    def problem(self, message: str, span: Span, code: str = "syntax") -> None:
        self.problems.append(Problem(code, message, span.line, span.column,
                                     len(self.lines) + 1))

    def add_comment(self, text: str) -> None:
        if not self.lines:
            self.comments.append(text)
            return
        last = self.lines[-1]
        self.lines[-1] = SheetLine(last.dealer, last.upcard, last.out, last.points, last.seat,
                                   last.deadwood, last.opponent, last.totals,
                                   (*last.comments, text), last.number, last.where)

    def record(self, result: tuple[int, int] | None, span: Span | None, terminated: bool,
               score_comments: tuple[str, ...] = ()) -> SheetRecord:
        return SheetRecord(self.tags.ordered(), tuple(self.lines), result,
                           tuple(self.comments), score_comments, terminated, self.tags.spans,
                           span, self.span)


class _LineError(Exception):
    """A sheet line that cannot be read: where, and what to write instead."""

    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.message, self.span = message, span


class _Reader:
    def __init__(self, toks: list[Token]):
        self.toks = toks
        self.i = 0

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def word(self, what: str, after: Span) -> Token:
        tok = self.peek()
        if tok is None or tok.kind != "word":
            raise _LineError(f"the sheet line needs {what} here", tok.span if tok else after)
        return self.next()

    def number(self, what: str, after: Span) -> tuple[int, Span]:
        tok = self.word(what, after)
        if not (tok.text.isascii() and tok.text.isdigit()):
            raise _LineError(f"{what} is a number, not {tok.text!r}", tok.span)
        digits = tok.text.lstrip("0") or "0"
        if len(digits) > 3 or int(digits) > MAX_DEADWOOD:
            raise _LineError(f"{what} is at most {MAX_DEADWOOD} (ten cards of 10 points), "
                             f"not {shorten(tok.text)}", tok.span)
        return int(digits), tok.span

    def points(self, what: str, after: Span) -> tuple[tuple[int, int], Span]:
        tok = self.word(what, after)
        m = RESULT.fullmatch(tok.text)
        if m is None or tok.text == "*":
            raise _LineError(f"{what} is written A-B in seat order (e.g. 0-26), not "
                             f"{tok.text!r}", tok.span)
        return points_of(m), tok.span

    def seat(self, what: str, after: Span) -> tuple[Seat, Span]:
        tok = self.word(what, after)
        if tok.text not in ("A", "B"):
            raise _LineError(f"{what} is A or B, not {tok.text!r}", tok.span)
        return Seat(tok.text), tok.span

    def line(self, sheet: _Sheet) -> None:
        """Read one line, or report what could not be read and skip to the next line."""
        first = self.peek()
        assert first is not None
        if len(sheet.lines) == MAX_NUMBER:
            sheet.problem(f"a sheet holds at most {MAX_NUMBER} hands (one game): end it with "
                          "its game score and start the next game's sheet", first.span)
        try:
            sheet.lines.append(self.read_line(first))
        except _LineError as err:
            sheet.problem(err.message, err.span)
            while (tok := self.peek()) is not None and tok.span.line == err.span.line \
                    and tok.kind != "tag":
                self.next()

    def read_line(self, first: Token) -> SheetLine:
        number = None
        if first.kind == "word" and (m := NUMBER.fullmatch(first.text)):
            number = capped(m.group(1))
            self.next()
        dealer, dealer_span = self.seat("the dealer (A or B)", first.span)
        up = self.word("up and the upcard's rank (e.g. up 8)", dealer_span)
        if up.text != "up":
            raise _LineError(f"after the dealer comes up and the upcard's rank (e.g. up 8), "
                             f"not {up.text!r}", up.span)
        rank_tok = self.word("the upcard's rank (A 2..10 J Q K)", up.span)
        rank = _RANK_BY_TEXT.get(rank_tok.text.lower())
        if rank is None:
            raise _LineError(f"{rank_tok.text!r} is not a rank: write A, 2..10, J, Q or K",
                             rank_tok.span)
        spans = {"start": first.span, "dealer": dealer_span, "upcard": rank_tok.span}
        how = self.word("how the hand ended: SEAT knock D v D, SEAT gin v D, SEAT biggin v "
                        "D or draw", rank_tok.span)
        seat = deadwood = opponent = None
        if how.text == "draw":
            out, spans["out"] = SheetOut.DRAW, how.span
            last = how.span
        else:
            if how.text not in ("A", "B"):
                raise _LineError("how the hand ended is SEAT knock D v D, SEAT gin v D, SEAT "
                                 f"biggin v D or draw, not {how.text!r}", how.span)
            seat, spans["seat"] = Seat(how.text), how.span
            kind = self.word("knock, gin or biggin", how.span)
            if kind.text not in ("knock", "gin", "biggin"):
                raise _LineError(f"a player goes out by knock, gin or biggin, not "
                                 f"{kind.text!r}", kind.span)
            out, spans["out"] = SheetOut(kind.text), kind.span
            last = kind.span
            if out is SheetOut.KNOCK:
                deadwood, spans["deadwood"] = self.number("the knocker's deadwood", last)
                last = spans["deadwood"]
            versus = self.word("v and the opponent's deadwood", last)
            if versus.text != "v":
                raise _LineError(f"write v and the opponent's deadwood (e.g. {out.value} "
                                 f"{'3 ' if deadwood is None and out is SheetOut.KNOCK else ''}"
                                 f"v 15), not {versus.text!r}", versus.span)
            opponent, spans["opponent"] = self.number("the opponent's deadwood", versus.span)
            last = spans["opponent"]
        points, spans["points"] = self.points("the hand's points", last)
        totals = None
        tok = self.peek()
        if tok is not None and tok.kind == "word" and tok.text == "=":
            self.next()
            totals, spans["totals"] = self.points("the running totals after =", tok.span)
        return SheetLine(dealer, rank, out, points, seat, deadwood, opponent, totals,
                         number=number, where=LineSpans(**spans))

    def sheets(self) -> list[ParsedSheet]:
        out: list[ParsedSheet] = []
        sheet: _Sheet | None = None
        while (tok := self.peek()) is not None:
            if sheet is None:
                sheet = _Sheet(tok.span)
            if tok.kind == "tag":
                self.next()
                if sheet.lines:
                    sheet.problem("a tag after the sheet's lines: end the sheet with its game "
                                  "score (or *) first", tok.span)
                    continue
                sheet.tags.add(tok.name, tok.value, tok.span, sheet.problem)
            elif tok.kind == "comment":
                sheet.add_comment(self.next().value)
            elif tok.kind == "word" and RESULT.fullmatch(tok.text):
                self.next()
                m = RESULT.fullmatch(tok.text)
                assert m is not None
                result = points_of(m)
                after_score: list[str] = []
                while (after := self.peek()) is not None and after.kind == "comment" \
                        and after.span.line == tok.span.line:
                    after_score.append(self.next().value)
                out.append(ParsedSheet(sheet.record(result, tok.span, True,
                                                    tuple(after_score)),
                                       tuple(sheet.problems)))
                sheet = None
            elif tok.kind != "word":
                self.next()
                sheet.problem(f"unexpected {tok.text!r}", tok.span)
            else:
                self.line(sheet)
        if sheet is not None:
            sheet.problem("the sheet has no terminator: end it with the game score (e.g. "
                          "0-292) or *", self.toks[-1].span)
            out.append(ParsedSheet(sheet.record(None, None, False), tuple(sheet.problems)))
        return out


def parse_sheets(text: str) -> list[ParsedSheet]:
    """Every sheet of a ``.ginsheet`` text with its syntax problems (rules are the checks')."""
    return _Reader(tokenize(text)).sheets()


# -- the writer ----------------------------------------------------------------------------


def _pair(points: tuple[int, int]) -> str:
    return f"{points[0]}-{points[1]}"


def write_line(line: SheetLine, number: int) -> str:
    """A sheet line in canonical form, comments left out (they follow it: :func:`write_sheet`)."""
    words = [f"{number}.", line.dealer.value, "up", rank_text(line.upcard)]
    if line.out is SheetOut.DRAW:
        words.append("draw")
    else:
        assert line.seat is not None
        words += [line.seat.value, line.out.value]
        if line.out is SheetOut.KNOCK:
            words.append(str(line.deadwood))
        words += ["v", str(line.opponent)]
    words.append(_pair(line.points))
    if line.totals is not None:
        words += ["=", _pair(line.totals)]
    return " ".join(words)


def write_sheet(sheet: SheetRecord) -> str:
    """The canonical text of a sheet: one tag a line, one hand a line, the game score."""
    lines = [f'[{name} "{value}"]' for name, value in SHEET_TAG_NAMES.ordered(sheet.tags)]
    lines += [f"{{{c}}}" for c in sheet.comments]
    lines.append("")
    for number, line in enumerate(sheet.lines, 1):
        lines.append(" ".join([write_line(line, number), *(f"{{{c}}}" for c in line.comments)]))
    score = "*" if sheet.result is None else _pair(sheet.result)
    lines.append(" ".join([score, *(f"{{{c}}}" for c in sheet.score_comments)]))
    return "\n".join(lines) + "\n"


def write_sheets(sheets: list[SheetRecord]) -> str:
    return "\n".join(write_sheet(s) for s in sheets)
