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

from gops_records.cards import RANK_BY_TEXT, SUIT_BY_TEXT, Suit
from gops_records.notation.model import (
    CardToken,
    GameRecord,
    Problem,
    RoundRecord,
    Span,
    canonical_tag,
)

_BOUNDARY = r"(?=[\s{};\[]|\Z)"
_CARD = r"(?:10|[2-9AaTtJjQqKk])[DCSHdcsh♦♣♠♥♢♧♤♡]?" + _BOUNDARY
# A whole numbered round on one line ("3. K♦ K♣ Q♠") is read as one token: the common
# case, and several times faster than reading its four tokens one by one.
_ROUND = (r"(?P<rnum>\d+)\.[ \t]*(?P<c0>" + _CARD + r")[ \t]+(?P<c1>" + _CARD + r")"
          + "".join(rf"(?:[ \t]+(?P<c{i}>" + _CARD + r"))?" for i in range(2, 5)))
_TOKEN = re.compile(
    r"""
      (?P<ws>[\s\ufeff]+)
    | (?P<round>""" + _ROUND + r""")
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
    starts = LineIndex(text).starts
    n_lines = len(starts)
    line_i = 0  # index of the line holding the current token: offsets only grow

    def span(start: int, end: int) -> Span:
        nonlocal line_i
        while line_i + 1 < n_lines and starts[line_i + 1] <= start:
            line_i += 1
        return Span(line_i + 1, start - starts[line_i] + 1, start, end)

    def card(m: re.Match, group: str) -> CardToken:
        text_ = m.group(group)
        rank, suit = _CARDS.get(text_) or _read_card(text_)
        return CardToken(rank, suit, span(m.start(group), m.end(group)))

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
        here = span(start, end)
        if not game.line:
            game.line = here.line
        if kind == "round":
            game.start_rounds()
            groups = [g for g in _ROUND_CARDS if m.group(g) is not None]
            number = int(m.group("rnum"))
            if (len(groups) == 1 + game.players and not game.pending
                    and game.pending_number is None and number == len(game.rounds) + 1):
                # all cards sit on the round's own line: columns need no line search
                line, base = here.line, starts[line_i] - 1
                cards = []
                for g in groups:
                    text_, (s0, e0) = m.group(g), m.span(g)
                    rank, suit = _CARDS.get(text_) or _read_card(text_)
                    cards.append(CardToken(rank, suit, Span(line, s0 - base, s0, e0)))
                game.rounds.append(RoundRecord(cards[0], tuple(cards[1:]), None, number, here))
            else:  # read it token by token: the round is split or numbered oddly
                _number(game, number, span(start, m.end("rnum") + 1), m.group("rnum") + ".")
                for g in groups:
                    _add_card(game, card(m, g))
        elif kind == "tag":
            if game.in_rounds:
                game.flush_round()
                game.problem("syntax", "missing terminator (a result like 44-24, or *) "
                             "before the next game's tags", here, m.group(),
                             round_no=len(game.rounds) or None)
                yield game.build(None)
                game = _GameBuilder(start)
                game.line = here.line
            name = canonical_tag(m.group("tname"))
            if name in game.tags:
                game.problem("tag-value", f"tag {name} is given twice", here, m.group())
            game.tags[name] = unescape(m.group("tval"))
            game.tag_spans[name] = here
        elif kind == "num":
            game.start_rounds()
            _number(game, int(m.group("num")), here, m.group())
        elif kind == "card":
            game.start_rounds()
            _add_card(game, card(m, "card"))
        elif kind in ("result", "star"):
            game.flush_round()
            if game.pending_number is not None:
                game.problem("syntax", f"round {game.pending_number} has no cards", here,
                             m.group())
            game.end = end
            game.result_span = here
            result = tuple(int(x) for x in m.group().split("-")) if kind == "result" else None
            yield game.build(result)
            game = None
            continue
        else:
            game.problem("syntax", _bad_token_message(kind, m.group()), here, m.group())
        game.end = end
    if game is not None:
        game.flush_round()
        if game.line:  # a game was begun: it lacks its terminator
            game.problem("syntax", "missing terminator at end of file (a result like 44-24, "
                         "or * for a game without one); the file may be truncated",
                         span(game.end, game.end), round_no=len(game.rounds) or None)
            yield game.build(None)


_ROUND_CARDS = ("c0", "c1", "c2", "c3", "c4")
_CARDS: dict[str, tuple[int, Suit | None]] = {}


def _read_card(text: str) -> tuple[int, Suit | None]:
    """Rank and suit of a card token (cached: a file uses few distinct spellings)."""
    suit = SUIT_BY_TEXT.get(text[-1].lower()) if len(text) > 1 and not text.isdigit() else None
    rank = RANK_BY_TEXT[(text[:-1] if suit else text).lower()]
    _CARDS[text] = (rank, suit)
    return rank, suit


def _number(game: _GameBuilder, number: int, here: Span, token: str) -> None:
    """A round number ("3.") starts a new round."""
    if game.pending:
        game.flush_round()
    elif game.pending_number is not None:
        game.problem("syntax", f"round {game.pending_number} has no cards", here, token)
    expected = len(game.rounds) + 1
    if number != expected:
        game.problem("round-number", f"round numbered {number} is round {expected}",
                     here, token)
    game.pending_number = number
    game.pending_span = here


def _add_card(game: _GameBuilder, card: CardToken) -> None:
    """A card joins the round being read; the round closes when every player has bid."""
    if not game.pending and game.pending_span is None:
        game.pending_span = card.span
    game.pending.append(card)
    if len(game.pending) == 1 + game.players:
        game.flush_round()


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
