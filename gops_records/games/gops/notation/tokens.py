"""The one tokenizer of the ``.gops`` notation: bytes in, token arrays out, whatever the layout.

A chunk of UTF-8 text is cut into tokens by one compiled pass over its bytes (the C
extension :mod:`._scan`, built at install), exactly as the regular expression
:data:`_PATTERN` cuts it (leftmost-first: whitespace, then one token), each distinct
token text given an id on the way. :func:`reference_tokenize` runs that regex itself
with polars (Rust's linear-time regex engine): the tests' oracle, never used for
reading. Nothing depends on line structure: one round a line,
a whole game on one line, a round spread over lines, tags several to a line, comments
anywhere, CRLF or CR-only line ends all read the same way and at the same speed.

The meaning of a *word* (a card, a round number, a result, a typo) is worked out once
per distinct word (a file holds a few dozen to a few thousand), then gathered into
arrays. Lines and columns are computed only where they are asked for (a game's first
line, a problem's place), from the offsets.

Token kinds (:class:`Kind`): a tag ``[Name "value"]``, a malformed tag, a comment
(``{...}`` or ``;...``), an unclosed ``{``, a round number ``12.``, a card, a result
``45-46``, ``*``, and words that are none of these (typos, kept with a suggestion).

A bid of several cards joined by ``+`` (``9♣+4♣``, ``9+4``) is one card token whose word
lists its cards (:meth:`Tokens.bid_cards_of`). The open-prize notation's ``(``, ``)``
and ``-`` are words marked with their :class:`Group` role (``(8♦``, ``K♦)``, ``()``,
``(5♦)``, ``-``): a game with open prizes reads them so, any other game as the words
they always were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum, IntFlag
from functools import cached_property

import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.core.text import NUMBER_CAP, capped
from gops_records.games.gops.cards import RANK_BY_TEXT, SUIT_BY_TEXT, Suit
from gops_records.games.gops.notation._scan import scan as _scan_bytes

_SUITS = "DCSHdcsh♦♣♠♥♢♧♤♡"
_WS = r"[\s\x{FEFF}]"
_TAG = r'\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:[^"\\\r\n]|\\[^\r\n])*"[ \t]*\]'
# a {comment} may span lines but not a blank line, and holds no { or }
_BRACE = r"\{[^{}\n]*(?:\n[^\S\n]*[^{}\s][^{}\n]*)*(?:\n[^\S\n]*)?\}"
_PATTERN = (_WS + "*(?:" + "|".join([
    _TAG,                    # a tag
    r"\[[^\r\n\]]*\]?",      # a malformed tag, up to its ] or the line's end
    _BRACE,                  # a comment in braces
    r"\{[^{}\r\n]*",         # a { never closed: the rest of its line
    r";[^\r\n]*",            # a comment to the end of the line
    r"[0-9]+\.",             # a round number (it may touch the prize: 12.K♦)
    r"[^\s\x{FEFF}{;\[]+",   # a word: card, result, *, or a typo
]) + ")")
# possessive (*+): Python's re would otherwise keep a backtracking entry per character of
# the value (about 170 bytes each: 650 MB for a 4 MB value); nothing it gives back could
# let the closing quote match, so the match is the same
_TAG_PARTS = r'^\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\r\n]|\\[^\r\n])*+)"[ \t]*\]$'
#: What the pattern's whitespace class matches (Unicode White_Space, and the BOM).
WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
               "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")


class Kind(IntEnum):
    """What a token is."""

    TAG = 0
    BAD_TAG = 1
    COMMENT = 2
    UNCLOSED = 3
    NUMBER = 4
    CARD = 5
    RESULT = 6
    STAR = 7
    WORD = 8


class Shape(IntEnum):
    """How a word that is not notation stands among the cards (for resynchronising)."""

    NONE = 0      #: stands for nothing: skipped
    CARD = 1      #: a mistyped card: it takes a card's place in its round
    NUMBER = 2    #: a mistyped round number (``3)``): it starts a round


class Group(IntFlag):
    """What a word means in the open-prize notation: it opens the revealed prizes' group
    ``(``, closes it ``)``, holds a card inside it, or is the ``-`` of no prize taken."""

    OPENS = 1
    CLOSES = 2
    CARD = 4
    DASH = 8


#: The most cards of a bid of several that are read (a longer one is a ``bid-count``
#: problem; its cards past these are not checked).
MAX_BID_CARDS = 3

#: Suit codes in the token arrays: 0 means no suit written.
SUIT_CODES = {None: 0, Suit.DIAMONDS: 1, Suit.CLUBS: 2, Suit.SPADES: 3, Suit.HEARTS: 4}
SUIT_OF_CODE = {code: suit for suit, code in SUIT_CODES.items()}

_CARD = re.compile(r"(10|[2-9AaTtJjQqKk])([" + _SUITS + r"])?")
_RESULT = re.compile(r"[0-9]+(?:-[0-9]+)+")
_NUMBER_TYPO = re.compile(r"([0-9]+)[)\]:,]")
_CARDLIKE = re.compile(r"([0-9]{1,2}|[0-9][oO]|[0-9A-Za-z]{1,2})([" + _SUITS + r"])?")
_CARD_PUNCT = re.compile(r"((?:10|[2-9AaTtJjQqKk])[" + _SUITS + r"]?)[,.:!)}\]]")
_RANK_TYPOS = {"1": "A", "11": "J", "12": "Q", "13": "K", "1o": "10"}
_BID = re.compile(r"(?:(?:10|[2-9AaTtJjQqKk])[" + _SUITS + r"]?\+)+(?:10|[2-9AaTtJjQqKk])["
                  + _SUITS + r"]?")
#: The open-prize group words: ``(``, ``)``, ``()``, ``(C``, ``C)``, ``(C)`` for a card C.
_GROUP = re.compile(r"(\()?((?:10|[2-9AaTtJjQqKk])[" + _SUITS + r"]?)?(\))?")


@dataclass(frozen=True, slots=True)
class Word:
    """What one distinct word means. ``values`` holds a round number, a card's rank and
    suit code (the first card of a bid of several; the card inside an open-prize group
    word), or a result's points (capped). ``cards``: a bid of several cards, each as
    (rank, suit code, byte offset in the word), all of them counted but at most
    :data:`MAX_BID_CARDS` listed (``n_cards``). ``group``: its :class:`Group` role."""

    kind: Kind
    values: tuple[int, ...] = ()
    shape: Shape = Shape.NONE
    suggestion: str | None = None
    cards: tuple[tuple[int, int, int], ...] = ()
    n_cards: int = 0
    group: Group = Group(0)


def _card_values(text: str) -> tuple[int, int]:
    m = _CARD.fullmatch(text)
    assert m is not None
    suit = SUIT_BY_TEXT[m.group(2).lower()] if m.group(2) else None
    return RANK_BY_TEXT[m.group(1).lower()], SUIT_CODES[suit]


def _card_fix(text: str) -> str | None:
    """A card as written, or the likely card of a typo (None when there is none)."""
    if _CARD.fullmatch(text):
        return text
    m = _CARDLIKE.fullmatch(text)
    fixed = _RANK_TYPOS.get(m.group(1).lower()) if m else None
    return fixed + (m.group(2) or "") if m and fixed else None


def read_word(text: str) -> Word:
    """The meaning of one word (not a tag or comment), with a likely fix for a typo."""
    if text.endswith(".") and text[:-1].isascii() and text[:-1].isdigit():
        return Word(Kind.NUMBER, (capped(text[:-1]),))
    if text == "*":
        return Word(Kind.STAR)
    if _RESULT.fullmatch(text):
        return Word(Kind.RESULT, tuple(capped(p) for p in text.split("-")))
    if _CARD.fullmatch(text):
        return Word(Kind.CARD, _card_values(text), n_cards=1)
    if "+" in text:
        return _read_bid(text)
    m = _NUMBER_TYPO.fullmatch(text)
    if m:  # '3)' is a mistyped round number, or with open prizes a card closing the group
        closes = text.endswith(")") and _CARD.fullmatch(m.group(1)) is not None
        return Word(Kind.WORD, (capped(m.group(1)), 0), Shape.NUMBER, m.group(1) + ".",
                    group=Group.CLOSES | Group.CARD if closes else Group(0))
    group = _GROUP.fullmatch(text)
    role = Group(0)
    values: tuple[int, ...] = ()
    if text == "-":
        role = Group.DASH
    elif group and (group.group(1) or group.group(3)):
        role = (Group.OPENS if group.group(1) else Group(0)) | \
            (Group.CLOSES if group.group(3) else Group(0))
        if group.group(2):
            role |= Group.CARD
            values = _card_values(group.group(2))
    m = _CARD_PUNCT.fullmatch(text)
    if m:
        return Word(Kind.WORD, values, Shape.CARD, m.group(1), group=role)
    m = _CARDLIKE.fullmatch(text)
    if m and (m.group(2) or m.group(1)[0].isdigit()):
        fixed = _RANK_TYPOS.get(m.group(1).lower())
        return Word(Kind.WORD, (), Shape.CARD, fixed + (m.group(2) or "") if fixed else None)
    return Word(Kind.WORD, values, group=role)


def _read_bid(text: str) -> Word:
    """A word with ``+``: a bid of several cards, a mistyped one (it keeps its place, with
    a likely fix when every card has one), or a word that is no card at all."""
    if _BID.fullmatch(text):
        cards, at = [], 0
        for part in text.split("+"):
            if len(cards) < MAX_BID_CARDS:
                cards.append((*_card_values(part), at))
            at += len(part.encode("utf-8")) + 1
        count = min(text.count("+") + 1, NUMBER_CAP)
        return Word(Kind.CARD, cards[0][:2], cards=tuple(cards), n_cards=count)
    parts = text.split("+")
    if not all(p == "" or _CARDLIKE.fullmatch(p) or _CARD.fullmatch(p) for p in parts):
        return Word(Kind.WORD)
    fixes = [_card_fix(p) for p in parts]
    fix = "+".join(f for f in fixes if f) if all(fixes) else None
    return Word(Kind.WORD, (), Shape.CARD, fix)


@dataclass
class Tokens:
    """A chunk's tokens (whitespace dropped), in text order.

    ``start``/``end`` are byte offsets into ``data``; ``word`` indexes :attr:`words` for
    word tokens (-1 for tags and comments). Tag names (canonical case is the reader's
    business) and values, and comment texts, are polars columns aligned with
    ``tag_index`` / ``comment_index``.
    """

    data: bytes | memoryview
    kind: np.ndarray
    start: np.ndarray
    end: np.ndarray
    word: np.ndarray
    words: list[Word]
    word_texts: list[str]
    tag_index: np.ndarray
    tag_name: pl.Series
    tag_value: pl.Series
    comment_index: np.ndarray
    comment: pl.Series
    #: (T, 2) line and column of each token, for tokens made from records rather than
    #: read from text (their offsets are then 2 * index).
    spans: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.kind)

    # -- word features, gathered per token ---------------------------------------------

    @cached_property
    def _word_arrays(self) -> dict[str, np.ndarray]:
        n = len(self.words) + 1  # the last row: not a word
        kind = np.full(n, -1, np.int8)
        shape = np.zeros(n, np.int8)
        group = np.zeros(n, np.int8)
        n_cards = np.zeros(n, np.int64)
        vals = np.zeros((n, 4), np.int64)
        count = np.zeros(n, np.int64)
        for i, w in enumerate(self.words):
            kind[i], shape[i], count[i] = w.kind, w.shape, len(w.values)
            group[i], n_cards[i] = w.group, w.n_cards
            vals[i, : min(4, len(w.values))] = w.values[:4]
        return {"kind": kind, "shape": shape, "values": vals, "count": count,
                "group": group, "n_cards": n_cards}

    @cached_property
    def _bid_arrays(self) -> np.ndarray:
        """(words + 1, MAX_BID_CARDS, 3): rank, suit code and byte offset of each card of
        each word (a single card in the first place; rank 0 where there is none)."""
        out = np.zeros((len(self.words) + 1, MAX_BID_CARDS, 3), np.int64)
        for i, w in enumerate(self.words):
            if w.cards:
                out[i, : len(w.cards)] = w.cards
            elif w.kind == Kind.CARD:
                out[i, 0, :2] = w.values[:2]
        return out

    @cached_property
    def has_bids_of_several(self) -> bool:
        """Whether any word is a bid of several cards (``9♣+4♣``)."""
        return any(w.n_cards > 1 for w in self.words)

    @cached_property
    def has_groups(self) -> bool:
        """Whether any word has an open-prize :class:`Group` role."""
        return any(w.group for w in self.words)

    def _rows(self) -> np.ndarray:
        return np.where(self.word >= 0, self.word, len(self.words))

    @cached_property
    def shape(self) -> np.ndarray:
        """:class:`Shape` of every token (NONE but for mistyped words)."""
        return self._word_arrays["shape"][self._rows()]

    def values_of(self, tokens: np.ndarray) -> np.ndarray:
        """(len, 4) int64 for the given tokens: a number's value; a card's rank and suit
        code; a result's points (gathered only for the tokens asked for)."""
        word = self.word[tokens]
        return self._word_arrays["values"][np.where(word >= 0, word, len(self.words))]

    def group_of(self, tokens: np.ndarray) -> np.ndarray:
        """The :class:`Group` flags of the given tokens (0 for every other token)."""
        word = self.word[tokens]
        return self._word_arrays["group"][np.where(word >= 0, word, len(self.words))]

    def card_count_of(self, tokens: np.ndarray) -> np.ndarray:
        """How many cards each of the given tokens holds (a card 1, a bid of several its
        count, anything else 0)."""
        word = self.word[tokens]
        return self._word_arrays["n_cards"][np.where(word >= 0, word, len(self.words))]

    def bid_cards_of(self, tokens: np.ndarray) -> np.ndarray:
        """(len, MAX_BID_CARDS, 3) for the given tokens: rank, suit code and byte offset
        (from the token's start) of each card; rank 0 past its last card."""
        word = self.word[tokens]
        return self._bid_arrays[np.where(word >= 0, word, len(self.words))]

    def value_count_of(self, tokens: np.ndarray) -> np.ndarray:
        """How many values each of the given tokens' words has (a result's points)."""
        word = self.word[tokens]
        return self._word_arrays["count"][np.where(word >= 0, word, len(self.words))]

    # -- places --------------------------------------------------------------------------

    @cached_property
    def line_starts(self) -> np.ndarray:
        """Byte offset of each line's start: after LF, CRLF, or a lone CR."""
        buf = np.frombuffer(self.data, np.uint8)
        breaks = np.flatnonzero(buf == 10)
        cr = np.flatnonzero(buf == 13)
        if len(cr):  # a CR not followed by an LF ends a line too (no copy of the text)
            lone = cr[(cr + 1 == len(buf)) | (buf[np.minimum(cr + 1, len(buf) - 1)] != 10)]
            breaks = np.sort(np.concatenate([breaks, lone]))
        return np.concatenate([[0], breaks + 1]).astype(np.int64)

    @cached_property
    def _continuations(self) -> np.ndarray:
        """Byte offsets of the UTF-8 continuation bytes (they start no character), in
        order: nothing for ASCII text, a few bytes per other character (a running count
        of characters at every byte cost 4 bytes per byte of the chunk, 8 while made)."""
        buf = np.frombuffer(self.data, np.uint8)
        wide = np.int32 if len(buf) < 2**31 else np.int64
        step = 1 << 20  # in pieces: the masks made along the way stay small
        parts = [np.flatnonzero((buf[at:at + step] & 0xC0) == 0x80).astype(wide) + at
                 for at in range(0, len(buf), step)]
        return np.concatenate(parts) if parts else np.zeros(0, wide)

    def _chars_before(self, offsets: np.ndarray) -> np.ndarray:
        """Characters before each byte offset (UTF-8 continuation bytes do not count)."""
        return offsets - np.searchsorted(self._continuations, offsets)

    def lines(self, offsets: np.ndarray) -> np.ndarray:
        """1-based line of each offset."""
        offsets = np.asarray(offsets, np.int64)
        if self.spans is not None:
            return self.spans[offsets // 2, 0]
        return np.searchsorted(self.line_starts, offsets, side="right")

    def places(self, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """1-based line and column (in characters) of each offset."""
        offsets = np.asarray(offsets, np.int64)
        if self.spans is not None:
            return self.spans[offsets // 2, 0], self.spans[offsets // 2, 1]
        line = np.searchsorted(self.line_starts, offsets, side="right")
        return line, (self._chars_before(offsets)
                      - self._chars_before(self.line_starts[line - 1]) + 1)

    def char_offsets(self, offsets: np.ndarray) -> np.ndarray:
        """Each byte offset as an offset in characters (into the decoded text)."""
        return self._chars_before(np.asarray(offsets, np.int64))

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of one offset."""
        line, col = self.places(np.array([offset]))
        return int(line[0]), int(col[0])

    def text(self, i: int) -> str:
        """The token's text as written."""
        if self.spans is not None:
            return self.word_texts[self.word[i]] if self.word[i] >= 0 else ""
        return bytes(self.data[int(self.start[i]):int(self.end[i])]).decode("utf-8", "replace")

    def slice_text(self, start: int, end: int) -> str:
        return bytes(self.data[start:end]).decode("utf-8", "replace")


def _string_array(data: bytes | memoryview) -> pl.Series:
    """The chunk as a one-row polars string column, without copying it through ``str``."""
    offsets = pa.py_buffer(np.array([0, len(data)], np.int64))
    return pl.Series(pa.LargeStringArray.from_buffers(1, offsets, pa.py_buffer(data)))


def tokenize(data: bytes | memoryview) -> Tokens:
    """Tokens of ``data`` (valid UTF-8 text without a BOM): the production tokenizer.

    The compiled scan (:mod:`._scan`, C) cuts the tokens exactly as :data:`_PATTERN`
    does and gives each distinct token text an id; each distinct text (a few thousand in
    a large file) is read once, in Python, and its meaning gathered for every token by
    its id. :func:`reference_tokenize` is the same reading by the regex itself: the
    tests hold the two equal.
    """
    start, end, ids, first = (np.frombuffer(part, dtype) for part, dtype in zip(
        _scan_bytes(data), (np.int64, np.int64, np.int32, np.int64), strict=True))
    reading = _Reading()
    for s, e in zip(start[first].tolist(), end[first].tolist(), strict=True):
        reading.add_token(bytes(data[s:e]).decode("utf-8", "surrogatepass"), e - s)
    return _tokens(data, reading, ids, end)


def reference_tokenize(data: bytes | memoryview) -> Tokens:
    """:func:`tokenize` by the notation's regular expression run by polars: the test
    oracle of the compiled scan (never used for reading).

    The regex gives every token with the whitespace before it; each distinct match
    is read once, in Python, and its meaning gathered for every token by its index
    among the distinct matches.
    """
    matches = _string_array(data).str.extract_all(_PATTERN).explode().drop_nulls()
    end = np.cumsum(matches.str.len_bytes().to_numpy().astype(np.int64))
    distinct = matches.unique(maintain_order=True)
    ids = matches.replace_strict(distinct, pl.int_range(len(distinct), dtype=pl.Int32,
                                                        eager=True)).to_numpy()
    reading = _Reading()
    for text, size in zip(distinct.to_list(), distinct.str.len_bytes().to_list(), strict=True):
        reading.add(text, size)
    return _tokens(data, reading, ids, end)


def _tokens(data: bytes | memoryview, reading: _Reading, ids: np.ndarray, end: np.ndarray
            ) -> Tokens:
    """The token arrays: each token's meaning gathered by the id of its text."""
    kind = np.array(reading.kind, np.int8)[ids] if len(ids) else np.zeros(0, np.int8)
    start = end - np.array(reading.size, np.int64)[ids] if len(ids) else end
    word = np.array(reading.word, np.int32)[ids] if len(ids) else np.zeros(0, np.int32)
    tag_index = np.flatnonzero(kind == Kind.TAG)
    comment_index = np.flatnonzero(kind == Kind.COMMENT)
    extra = pl.Series(reading.extra, dtype=pl.String)
    tag_name = pl.Series(reading.tag_name, dtype=pl.String).gather(ids[tag_index])
    tag_value = extra.gather(ids[tag_index])
    comment = extra.gather(ids[comment_index])
    return Tokens(data, kind, start, end, word, reading.words, reading.word_texts,
                  tag_index, tag_name, tag_value, comment_index, comment)


_TAG_RE = re.compile(_TAG_PARTS)
_ESCAPE = re.compile(r"\\([\\\"])")


class _Reading:
    """The meaning of each distinct match, in lists indexed like the distinct matches."""

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.size: list[int] = []       # bytes of the token without its leading whitespace
        self.word: list[int] = []       # index into words, -1 for tags and comments
        self.tag_name: list[str | None] = []
        self.extra: list[str | None] = []  # a tag's value or a comment's text
        self.words: list[Word] = []
        self.word_texts: list[str] = []
        self._word_ids: dict[str, int] = {}

    def add(self, match: str, size: int) -> None:
        """Read one distinct match of ``size`` bytes (its whitespace included)."""
        text = match.lstrip(WHITESPACE)
        # bytes without the leading whitespace (encoding only that: no copy of the text)
        self.add_token(text, size - len(match[: len(match) - len(text)].encode("utf-8")))

    def add_token(self, text: str, size: int) -> None:
        """Read one distinct token ``text`` of ``size`` bytes (no whitespace before it)."""
        self.size.append(size)
        name = extra = None
        word = -1
        head = text[:1]
        if head == "[":
            m = _TAG_RE.fullmatch(text)
            kind = Kind.TAG if m else Kind.BAD_TAG
            if m:
                name, extra = m.group(1), _ESCAPE.sub(r"\1", m.group(2))
        elif head == "{":
            kind = Kind.COMMENT if text.endswith("}") else Kind.UNCLOSED
            extra = _comment_text(text[1:-1]) if kind == Kind.COMMENT else None
        elif head == ";":
            kind, extra = Kind.COMMENT, _comment_text(text[1:])
        else:
            word = self._word_ids.get(text, -1)
            if word < 0:
                word = self._word_ids[text] = len(self.words)
                self.words.append(read_word(text))
                self.word_texts.append(text)
            kind = self.words[word].kind
        self.kind.append(kind)
        self.word.append(word)
        self.tag_name.append(name)
        self.extra.append(extra)


def _comment_text(inner: str) -> str:
    """A comment's text: no surrounding whitespace, CRLF (or a lone CR) read as LF."""
    return inner.replace("\r\n", "\n").replace("\r", "\n").strip()
