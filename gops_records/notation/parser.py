"""Reads .gops text into :class:`GameRecord` values, recording problems with line and column.

The parser is lenient: it never raises on bad input. Every problem it meets (a token
that is no card, tag, round number or terminator; a missing terminator) becomes a
:class:`Problem` with code ``syntax`` on the game it belongs to, and parsing goes on.
Rule problems (spent cards, repeated prizes, wrong results) are the validator's job.

Grammar, informally::

    file   := game*
    game   := tag* round* terminator
    tag    := '[' Name '"' value '"' ']'
    round  := [number '.'] prize bid{players}
    card   := rank [suit]        rank: A 2..10 T J Q K   suit: D C S H ♦ ♣ ♠ ♥
    terminator := points ('-' points)+ | '*'
    comments '{...}' and ';...' may stand between any two tokens.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from gops_records.cards import RANK_BY_TEXT, SUIT_BY_TEXT
from gops_records.notation.model import (
    CardToken,
    GameRecord,
    Problem,
    RoundRecord,
    Span,
    canonical_tag,
)

_BOUNDARY = r"(?=[\s{};\[]|\Z)"
_TOKEN = re.compile(
    r"""
      (?P<ws>[\s\ufeff]+)
    | (?P<tag>\[[ \t]*(?P<tname>[A-Za-z][A-Za-z0-9_]*)[ \t]+
              "(?P<tval>(?:[^"\\\r\n]|\\[^\r\n])*)"[ \t]*\])
    | (?P<brace>\{(?P<btext>[^}]*)\})
    | (?P<semi>;(?P<stext>[^\n]*))
    | (?P<num>\d+)\.
    | (?P<result>\d+(?:-\d+)+)""" + _BOUNDARY + r"""
    | (?P<star>\*)""" + _BOUNDARY + r"""
    | (?P<card>(?P<rank>10|[2-9AaTtJjQqKk])(?P<suit>[DCSHdcsh♦♣♠♥♢♧♤♡])?)""" + _BOUNDARY + r"""
    | (?P<badtag>\[[^\n\]]*\]?)
    | (?P<badbrace>\{.*)
    | (?P<bad>[^\s{};\[]+)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r"\\([\\\"])")


class LineIndex:
    """Turns offsets into 1-based (line, column) pairs."""

    __slots__ = ("starts",)

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def span(self, start: int, end: int) -> Span:
        i = bisect_right(self.starts, start) - 1
        return Span(i + 1, start - self.starts[i] + 1, start, end)


def unescape(value: str) -> str:
    return _ESCAPE.sub(r"\1", value)


class _GameBuilder:
    """Collects one game's tokens; turned into a GameRecord when the game ends."""

    def __init__(self, start: int):
        self.start = start
        self.end = start
        self.line = 0
        self.tags: dict[str, str] = {}
        self.tag_spans: dict[str, Span] = {}
        self.result_span: Span | None = None
        self.rounds: list[RoundRecord] = []
        self.comments: list[list[str]] = []  # comments per finished round
        self.pending: list[CardToken] = []
        self.pending_number: int | None = None
        self.pending_span: Span | None = None
        self.pending_comments: list[str] = []
        self.problems: list[Problem] = []
        self.players = 0  # fixed by the tags once the first round starts

    @property
    def in_rounds(self) -> bool:
        return bool(self.rounds or self.pending or self.pending_number is not None)

    def problem(self, code: str, message: str, span: Span, text: str = "",
                round_no: int | None = None) -> None:
        if round_no is None and self.in_rounds:
            round_no = len(self.rounds) + 1
        self.problems.append(Problem(code, message, span.line, span.column, round_no, text))

    def start_rounds(self) -> None:
        if not self.players:
            self.players = GameRecord(self.tags, ()).n_players

    def flush_round(self) -> None:
        """Close the round being read, whatever its size (the engine checks the count)."""
        if not self.pending:
            return
        prize, *bids = self.pending
        comment = " ".join(self.pending_comments) or None
        self.rounds.append(RoundRecord(prize, tuple(bids), comment, self.pending_number,
                                       self.pending_span))
        self.pending = []
        self.pending_number = None
        self.pending_span = None
        self.pending_comments = []

    def add_comment(self, text: str) -> None:
        text = text.replace("\r\n", "\n").strip()  # the same comment, whatever the line ends
        if not text:
            return
        if self.pending or self.pending_number is not None:
            self.pending_comments.append(text)
        elif self.rounds:
            last = self.rounds[-1]
            joined = f"{last.comment} {text}" if last.comment else text
            self.rounds[-1] = RoundRecord(last.prize, last.bids, joined, last.number, last.span)
        # comments in the tag section or before the game belong to no round: kept in raw text only

    def build(self, result: tuple[int, ...] | None) -> GameRecord:
        return GameRecord(dict(self.tags), tuple(self.rounds), result, self.line,
                          self.start, self.end, tuple(self.problems), dict(self.tag_spans),
                          self.result_span)


def parse(text: str) -> list[GameRecord]:
    """Every game in ``text``, in file order, with its problems attached."""
    return list(iter_games(text))


def iter_games(text: str) -> Iterator[GameRecord]:
    """Yield games one at a time (lenient: problems are attached, never raised)."""
    index = LineIndex(text)
    game: _GameBuilder | None = None
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "ws":
            continue
        start, end = m.span()
        if game is None:
            game = _GameBuilder(start)
        if kind in ("brace", "semi"):
            game.add_comment(m.group("btext") if kind == "brace" else m.group("stext"))
            game.end = end
            continue
        span = index.span(start, end)
        if not game.line:
            game.line = span.line
        if kind == "tag":
            if game.in_rounds:
                game.flush_round()
                game.problem("syntax", "missing terminator (a result like 44-24, or *) "
                             "before the next game's tags", span, m.group(),
                             round_no=len(game.rounds) or None)
                yield game.build(None)
                game = _GameBuilder(start)
                game.line = span.line
            name = canonical_tag(m.group("tname"))
            if name in game.tags:
                game.problem("tag-value", f"tag {name} is given twice", span, m.group())
            game.tags[name] = unescape(m.group("tval"))
            game.tag_spans[name] = span
        elif kind == "num":
            game.start_rounds()
            if game.pending:
                game.flush_round()
            elif game.pending_number is not None:
                game.problem("syntax", f"round {game.pending_number} has no cards", span,
                             m.group())
            number = int(m.group("num"))
            expected = len(game.rounds) + 1
            if number != expected:
                game.problem("round-number", f"round numbered {number} is round {expected}",
                             span, m.group())
            game.pending_number = number
            game.pending_span = span
        elif kind == "card":
            game.start_rounds()
            suit = m.group("suit")
            card = CardToken(RANK_BY_TEXT[m.group("rank").lower()],
                             SUIT_BY_TEXT[suit.lower()] if suit else None, span)
            if not game.pending and game.pending_span is None:
                game.pending_span = span
            game.pending.append(card)
            if len(game.pending) == 1 + game.players:
                game.flush_round()
        elif kind in ("result", "star"):
            game.flush_round()
            if game.pending_number is not None:
                game.problem("syntax", f"round {game.pending_number} has no cards", span,
                             m.group())
            game.end = end
            game.result_span = span
            result = tuple(int(x) for x in m.group().split("-")) if kind == "result" else None
            yield game.build(result)
            game = None
            continue
        else:
            game.problem("syntax", _bad_token_message(kind, m.group()), span, m.group())
        game.end = end
    if game is not None:
        game.flush_round()
        if game.line:  # a game was begun: it lacks its terminator
            span = index.span(game.end, game.end)
            game.problem("syntax", "missing terminator at end of file (a result like 44-24, "
                         "or * for a game without one); the file may be truncated", span,
                         round_no=len(game.rounds) or None)
            yield game.build(None)


def _bad_token_message(kind: str, token: str) -> str:
    shown = token if len(token) <= 40 else token[:37] + "..."
    if kind == "badtag":
        return f"malformed tag {shown!r}: write tags as [Name \"value\"]"
    if kind == "badbrace":
        return "comment opened with '{' is never closed"
    if token.isdigit():
        return (f"{shown!r} is not a card, round number or result: ranks are A 2-10 J Q K "
                "and round numbers end with a dot, e.g. '3.'")
    return f"{shown!r} is not a card, tag, round number or terminator"
